"""Benchmark of group-chat orchestration overhead, with a model that answers instantly.

Eight ``llm_config=False`` agents with a fixed reply talk in one ``GroupChat`` for 100 to 3,200
rounds with each speaker selection method (``round_robin``, ``random``, ``auto``). "auto" asks an
in-process model client (registered with ``register_model_client``) that answers the next agent's
name at once, so every measured microsecond is spent by the framework itself.

Reported per method and size: rounds per second, and the mean time of one round over the first
and the last 100 rounds (a growing history must not slow rounds down). A separate run under
``tracemalloc`` reports the memory the chat retains per 1,000 messages (the group's transcript
plus every agent's copy of it).

The workload imports the package by name (``--package``), so the same code measures
``autogen_classic`` and the reference ``autogen`` (ag2). ``--compare PYTHON`` runs this file with
another interpreter and ``--package autogen`` in a subprocess and prints both side by side; its
``--repeat`` passes alternate between the two packages, so a change of load hits both alike.

Usage: ``python bench/bench_orchestration.py [--quick] [--sizes N ...] [--methods M ...]
[--memory-rounds N] [--package NAME] [--compare PYTHON] [--json]``
"""

from __future__ import annotations

# Only the standard library at module level: the reference interpreter runs this file too.
import argparse
import contextlib
import gc
import importlib
import itertools
import json
import logging
import os
import random
import re
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from types import ModuleType, SimpleNamespace
from typing import Any

SIZES = (100, 400, 1600, 3200)
QUICK_SIZES = (100, 400)
METHODS = ("round_robin", "random", "auto")
AGENTS = 8
WINDOW = 100  # rounds averaged for the "first" and "last" per-round times
MEMORY_ROUNDS = 1600
QUICK_MEMORY_ROUNDS = 400
MODEL = "instant-model"
_SPOKE = re.compile(r"Reply from agent_(\d+)\.")


def agent_name(index: int) -> str:
    """The name of agent ``index`` (``agent_0`` ... ``agent_7``)."""
    return f"agent_{index}"


def fixed_reply(index: int) -> str:
    """The fixed reply of agent ``index``; the instant model reads the last speaker from it."""
    return f"Reply from {agent_name(index)}."


class InstantClient:
    """A model client answering at once with the name of the agent after the last one that spoke.

    It follows the ``ModelClient`` protocol of both packages; ``config`` is the ``config_list`` entry.
    """

    def __init__(self, config: dict[str, Any], **kwargs: Any) -> None:
        self.model = config.get("model", MODEL)

    def create(self, params: dict[str, Any]) -> SimpleNamespace:
        """Answer the next agent's name (``agent_0`` when no agent reply is found)."""
        following = 0
        for message in reversed(params.get("messages") or []):
            found = _SPOKE.search(str(message.get("content") or ""))
            if found:
                following = (int(found.group(1)) + 1) % AGENTS
                break
        message = SimpleNamespace(
            content=agent_name(following), role="assistant", function_call=None, tool_calls=None
        )
        return SimpleNamespace(choices=[SimpleNamespace(message=message, finish_reason="stop")], model=self.model)

    def message_retrieval(self, response: SimpleNamespace) -> list[str]:
        """The text of each choice."""
        return [choice.message.content for choice in response.choices]

    def cost(self, response: SimpleNamespace) -> float:
        """Always free."""
        return 0.0

    @staticmethod
    def get_usage(response: SimpleNamespace) -> dict[str, Any]:
        """Zero usage."""
        return {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0, "cost": 0.0, "model": response.model}


class NullStream:
    """An IOStream that formats everything like a console would, then discards it.

    Formatting is kept so neither package skips the work of building its console output.
    """

    def print(self, *objects: Any, sep: str = " ", end: str = "\n", flush: bool = False) -> None:
        """Format ``objects`` and drop the text."""
        sep.join(str(obj) for obj in objects) + end

    def send(self, message: Any) -> None:
        """Render a structured message (the reference's console events) into ``print``."""
        message.print(self.print)

    def input(self, prompt: str = "", *, password: bool = False) -> str:
        """No console input is expected in this benchmark."""
        raise EOFError("the orchestration benchmark does not read console input")


@dataclass
class RunResult:
    """One timed chat of ``size`` rounds: ``rounds`` messages in ``seconds``; per-round means in microseconds."""

    package: str
    method: str
    size: int
    rounds: int
    seconds: float
    first_round_us: float
    last_round_us: float
    in_order: int  # replies by the agent right after the previous speaker (all of them for round_robin and auto)

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds > 0 else float("inf")


@dataclass
class MemoryResult:
    """Memory retained (and peak) by one chat of ``messages`` messages, measured with tracemalloc."""

    package: str
    method: str
    messages: int
    retained_bytes: int
    peak_bytes: int

    @property
    def bytes_per_1000(self) -> float:
        return 1000.0 * self.retained_bytes / self.messages if self.messages else 0.0


@dataclass
class Chat:
    """A built but not yet started group chat."""

    initiator: Any
    manager: Any
    groupchat: Any
    stamps: list[float]


def load_package(package: str) -> ModuleType:
    """Import ``package`` (``autogen_classic`` or ``autogen``) and quiet its logging."""
    if not isinstance(package, str) or not re.fullmatch(r"[A-Za-z_][\w.]*", package):
        raise ValueError(
            f"package must be an importable module name such as 'autogen_classic' or 'autogen', got {package!r}"
        )
    module = importlib.import_module(package)
    logging.getLogger(package).setLevel(logging.ERROR)  # e.g. warnings about speaker repeats
    return module


def build_chat(module: ModuleType, method: str, rounds: int) -> Chat:
    """Build the eight agents, the group chat of ``rounds`` rounds and its manager."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    if not isinstance(rounds, int) or rounds < 2:
        raise ValueError(f"rounds must be an int >= 2 (the first message plus at least one reply), got {rounds!r}")
    stamps: list[float] = []

    def stamp(recipient: Any, messages: Any = None, sender: Any = None, config: Any = None) -> tuple[bool, None]:
        stamps.append(time.perf_counter())
        return False, None  # go on to the fixed reply

    agents = []
    for index in range(AGENTS):
        agent = module.ConversableAgent(
            agent_name(index), llm_config=False, human_input_mode="NEVER", default_auto_reply=fixed_reply(index),
            max_consecutive_auto_reply=10**9,  # the default (100) would end long chats early
        )
        agent.register_reply([module.Agent, None], stamp, position=0)
        agents.append(agent)
    llm_config = {"config_list": [{"model": MODEL, "model_client_cls": InstantClient.__name__}], "cache_seed": None}
    groupchat = module.GroupChat(
        agents=agents, messages=[], max_round=rounds, speaker_selection_method=method,
        # the reference registers the selector's client only with an explicit selector config
        select_speaker_auto_llm_config=llm_config, select_speaker_auto_model_client_cls=InstantClient,
    )
    manager = module.GroupChatManager(groupchat=groupchat, llm_config=llm_config, human_input_mode="NEVER")
    manager.register_model_client(InstantClient)
    return Chat(agents[0], manager, groupchat, stamps)


def _start(chat: Chat) -> None:
    chat.initiator.initiate_chat(chat.manager, message=fixed_reply(0), clear_history=True, silent=False)


def _window_us(stamps: Sequence[float], first: bool) -> float:
    gaps = [b - a for a, b in itertools.pairwise(stamps)]
    if not gaps:
        return 0.0
    part = gaps[:WINDOW] if first else gaps[-WINDOW:]
    return 1e6 * sum(part) / len(part)


def count_in_order(messages: Sequence[dict[str, Any]]) -> int:
    """How many messages come from the agent right after the previous message's author."""
    names = [message.get("name") for message in messages]
    return sum(1 for before, after in itertools.pairwise(names) if after == _following(before))


def _following(name: Any) -> str | None:
    found = re.fullmatch(r"agent_(\d+)", str(name))
    return agent_name((int(found.group(1)) + 1) % AGENTS) if found else None


# "null": console output is formatted, then dropped (NullStream). "console": the package's own default
# console prints as it does for a user, with standard output sent to os.devnull while a chat runs.
OUTPUTS = ("null", "console")
output = "null"


@contextlib.contextmanager
def _output_context(module: ModuleType) -> Any:
    if output == "console":
        with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
            yield
    else:
        with module.io.IOStream.set_default(NullStream()):
            yield


def run_chat(module: ModuleType, method: str, rounds: int, package: str = "") -> RunResult:
    """Time one chat of ``rounds`` rounds with ``method``."""
    random.seed(rounds)  # the "random" method draws from the global generator
    chat = build_chat(module, method, rounds)
    with _output_context(module):
        start = time.perf_counter()
        _start(chat)
        seconds = time.perf_counter() - start
    return RunResult(
        package or module.__name__, method, rounds, len(chat.groupchat.messages), seconds,
        _window_us(chat.stamps, first=True), _window_us(chat.stamps, first=False),
        count_in_order(chat.groupchat.messages),
    )


def measure_memory(module: ModuleType, method: str, rounds: int, package: str = "") -> MemoryResult:
    """Measure with tracemalloc what one chat of ``rounds`` rounds keeps alive, and its peak."""
    random.seed(rounds)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        chat = build_chat(module, method, rounds)
        with _output_context(module):
            _start(chat)
        gc.collect()
        current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    chat.stamps.clear()  # not part of the framework's footprint (tiny anyway)
    messages = len(chat.groupchat.messages)
    return MemoryResult(package or module.__name__, method, messages, current - before, peak - before)


def best_run(module: ModuleType, method: str, rounds: int, repeat: int, package: str = "") -> RunResult:
    """The fastest of ``repeat`` runs: on a shared machine the minimum is the least disturbed one."""
    if not isinstance(repeat, int) or repeat < 1:
        raise ValueError(f"repeat must be a positive int, got {repeat!r}")
    return min((run_chat(module, method, rounds, package) for _ in range(repeat)), key=lambda run: run.seconds)


def run_all(
    package: str, sizes: Sequence[int], methods: Sequence[str], memory_rounds: int | None, repeat: int = 1
) -> dict[str, Any]:
    """Run every method at every size, best of ``repeat`` (and the memory run); return a JSON-ready dict."""
    module = load_package(package)
    run_chat(module, methods[0], min(sizes))  # warm-up: lazy imports, first-use caches
    runs = [asdict(best_run(module, method, size, repeat, package)) for method in methods for size in sizes]
    memory = [asdict(measure_memory(module, method, memory_rounds, package)) for method in methods if memory_rounds]
    version = getattr(module, "__version__", "?")
    return {"package": package, "version": version, "python": sys.version.split()[0], "repeat": repeat, "output": output,
            "runs": runs, "memory": memory}


def run_reference(
    python: str, package: str, sizes: Sequence[int], methods: Sequence[str], memory_rounds: int | None,
    repeat: int = 1,
) -> dict[str, Any]:
    """Run this file with another interpreter (``--package package --json``) and return its results."""
    command = [python, __file__, "--package", package, "--json", "--output", output, "--sizes", *map(str, sizes), "--methods", *methods,
               "--memory-rounds", str(memory_rounds or 0), "--repeat", str(repeat)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise ValueError(
            f"--compare must name a Python interpreter with {package!r} installed; running {python!r} failed: {exc}"
        ) from exc
    if done.returncode != 0:
        raise RuntimeError(f"the reference run failed (exit {done.returncode}):\n{done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout)


def _fastest(passes: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One result from several passes: per method and size, the fastest run; the first pass's memory runs."""
    best: dict[tuple[str, int], dict[str, Any]] = {}
    for one in passes:
        for run in one["runs"]:
            key = _key(run)
            if key not in best or run["seconds"] < best[key]["seconds"]:
                best[key] = run
    return {**passes[0], "repeat": len(passes), "runs": list(best.values())}


def alternate_runs(
    python: str, package: str, reference_package: str, sizes: Sequence[int], methods: Sequence[str],
    memory_rounds: int | None, repeat: int,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Measure both packages in ``repeat`` alternating passes (ours, then the reference) and keep the fastest.

    On a shared machine the load changes from minute to minute; passes that alternate expose both
    packages to the same changes, so the ratio is steadier than with all of one package's runs first.
    """
    ours: list[dict[str, Any]] = []
    theirs: list[dict[str, Any]] = []
    for index in range(repeat):
        rounds = memory_rounds if index == 0 else 0
        ours.append(run_all(package, sizes, methods, rounds, 1))
        theirs.append(run_reference(python, reference_package, sizes, methods, rounds, 1))
    return _fastest(ours), _fastest(theirs)


# ----------------------------------------------------------------------------------- report
def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]

    def line(cells: Sequence[str]) -> str:  # first column left-aligned, numbers right-aligned
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    return [line(header), line(["-" * w for w in widths]), *(line(row) for row in rows)]


def _key(run: dict[str, Any]) -> tuple[str, int]:
    return run["method"], run["size"]


def _rps(run: dict[str, Any]) -> float:
    return run["rounds"] / run["seconds"] if run["seconds"] > 0 else float("inf")


def format_report(result: dict[str, Any], reference: dict[str, Any] | None = None) -> list[str]:
    """The speed and memory tables; with ``reference``, its columns and the speed ratio too."""
    lines = [(f"Orchestration overhead: {AGENTS} agents, instant model ({result['package']} {result['version']}, "
             f"Python {result['python']}, best of {result.get('repeat', 1)}, output {result.get('output', 'null')})")]
    if reference is not None:
        lines[0] += f" vs {reference['package']} {reference['version']}"
    ref_runs = {_key(run): run for run in reference["runs"]} if reference else {}
    header = ["method", "rounds", "rounds/s", f"first {WINDOW} µs/round", f"last {WINDOW} µs/round"]
    if reference is not None:
        header += ["ref rounds/s", f"ref first {WINDOW}", f"ref last {WINDOW}", "speed vs ref"]
    rows = []
    for run in result["runs"]:
        row = [run["method"], str(run["rounds"]), f"{_rps(run):,.0f}", f"{run['first_round_us']:,.0f}",
               f"{run['last_round_us']:,.0f}"]
        ref = ref_runs.get(_key(run))
        if reference is not None:
            if ref is None:
                row += ["-"] * 4
            else:
                row += [f"{_rps(ref):,.0f}", f"{ref['first_round_us']:,.0f}", f"{ref['last_round_us']:,.0f}",
                        f"{_rps(run) / _rps(ref):.2f}x"]
        rows.append(row)
    lines += _table(header, rows)
    if result["memory"]:
        messages = result["memory"][0]["messages"]
        lines += ["", f"Memory retained per 1,000 messages (tracemalloc, one chat of {messages} messages)"]
        ref_mem = {m["method"]: m for m in reference["memory"]} if reference else {}
        header = ["method", "KiB / 1,000 msgs", "peak MiB"]
        if reference is not None:
            header += ["ref KiB / 1,000 msgs", "ref peak MiB", "vs ref"]
        rows = []
        for mem in result["memory"]:
            per = 1000 * mem["retained_bytes"] / mem["messages"] / 1024
            row = [mem["method"], f"{per:,.0f}", f"{mem['peak_bytes'] / 2**20:,.1f}"]
            ref = ref_mem.get(mem["method"])
            if reference is not None:
                if ref is None:
                    row += ["-"] * 3
                else:
                    ref_per = 1000 * ref["retained_bytes"] / ref["messages"] / 1024
                    row += [f"{ref_per:,.0f}", f"{ref['peak_bytes'] / 2**20:,.1f}", f"{per / ref_per:.2f}x"]
            rows.append(row)
        lines += _table(header, rows)
    return lines


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"sizes {', '.join(map(str, QUICK_SIZES))} only")
    parser.add_argument("--sizes", type=int, nargs="+", default=None, help="rounds per chat (overrides --quick)")
    parser.add_argument("--methods", nargs="+", choices=METHODS, default=list(METHODS), help="selection methods")
    parser.add_argument("--memory-rounds", type=int, default=None,
                        help=f"rounds of the tracemalloc run (default {MEMORY_ROUNDS}, "
                        f"{QUICK_MEMORY_ROUNDS} with --quick; 0 skips it)")
    parser.add_argument("--repeat", type=int, default=None,
                        help="runs per size, the fastest counts (default 3, 1 with --quick); with --compare, "
                        "passes alternating between the two packages")
    parser.add_argument("--package", default="autogen_classic", help="the package to measure (e.g. autogen)")
    parser.add_argument("--compare", metavar="PYTHON", default=None,
                        help="also run the workload with this interpreter and the reference package")
    parser.add_argument("--reference-package", default="autogen",
                        help="the package --compare imports (default autogen)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON instead of tables")
    parser.add_argument("--output", choices=OUTPUTS, default="null",
                        help="null: console text formatted then dropped (default); console: the default console "
                        "printing, with standard output sent to os.devnull during each chat")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its tables (or JSON); return the exit code."""
    parser = _parser()
    args = parser.parse_args(argv)
    sizes = args.sizes or list(QUICK_SIZES if args.quick else SIZES)
    if any(size < 2 for size in sizes):
        parser.error(f"--sizes must all be at least 2 rounds, got {sizes}")
    memory_rounds = args.memory_rounds
    if memory_rounds is None:
        memory_rounds = QUICK_MEMORY_ROUNDS if args.quick else MEMORY_ROUNDS
    if memory_rounds == 1 or memory_rounds < 0:
        parser.error(f"--memory-rounds must be 0 (skip) or at least 2, got {memory_rounds}")
    repeat = args.repeat if args.repeat is not None else (1 if args.quick else 3)
    if repeat < 1:
        parser.error(f"--repeat must be at least 1, got {repeat}")
    global output
    output = args.output
    if args.json or not args.compare:
        result = run_all(args.package, sizes, args.methods, memory_rounds, repeat)
    if args.json:
        print(json.dumps(result))
        return 0
    reference = None
    if args.compare:
        note = f"running the same workload with {args.compare} ({args.reference_package}) ..."
        print(note, file=sys.stderr, flush=True)
        result, reference = alternate_runs(
            args.compare, args.package, args.reference_package, sizes, args.methods, memory_rounds, repeat
        )
    print("\n".join(format_report(result, reference)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
