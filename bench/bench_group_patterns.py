"""Benchmark of the AG2 Classic 0.14 group orchestration: a ``DefaultPattern`` of scripted agents.

Eight ``ConversableAgent``s (``agent_0`` ... ``agent_7``, ``llm_config=False``) and a ``user`` agent
answer through a registered reply function with fixed text, so no model and no HTTP is involved and
every measured microsecond is the orchestration's. The turn moves only by handoffs, evaluated without
a model:

- after-work targets: ``agent_i`` hands over to ``agent_{i+1}`` (``AgentTarget``); ``agent_7`` to the
  user (``RevertToUserTarget``), after whom the turn returns to ``agent_7``;
- context conditions (``OnContextCondition`` with ``ExpressionContextCondition(ContextExpression(...))``),
  checked before an agent replies, over context variables the reply functions update: ``agent_7``
  hands to ``agent_0`` once the user has spoken (``${escalate} == True and ${turns} > 0``), ``agent_3``
  skips ``agent_4`` on every other lap (``${skip} and len(${notes}) > 0 and not ${paused}``; ``agent_1``
  flips ``${skip}``), and every agent checks ``${stage} == 'done'``, which never holds.

The chat starts with ``initiate_group_chat(pattern=DefaultPattern(...), messages="Start.",
max_rounds=N)`` for N = 400 and 1,600 (``--quick``: 100 and 400), its console events dropped by an
IOStream that discards them. Reported per size: rounds per second, the mean time of one round over
the whole chat and over its first and last 100 rounds (does a growing history slow rounds down?),
and a digest of the transcript, so both packages are seen to run the same conversation.

The workload is written against the 0.14 API with ``autogen_classic`` import paths. ``--compare
PYTHON`` (default: ``$AUTOGEN_0141_PYTHON``) runs this same file with an interpreter that has
``autogen`` 0.14 installed and ``tests/data/reference_shim`` first on ``PYTHONPATH`` (there ``import
autogen_classic`` loads the classic ``autogen``), and prints both side by side with their ratio.
Its ``--repeat`` passes alternate between the two packages, so a change of load hits both alike.
With ``--compare`` the exit code is 1 when this package reaches less than ``--target`` (3x) the
reference's rounds per second at some size, or the transcripts differ.

Usage: ``python bench/bench_group_patterns.py [--quick] [--sizes N ...] [--repeat N] [--compare PYTHON]
[--target X] [--json]``
"""

from __future__ import annotations

# Only the standard library at module level: the reference interpreter runs this file too.
import argparse
import hashlib
import json
import logging
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

SIZES = (400, 1600)
QUICK_SIZES = (100, 400)
AGENTS = 8
WINDOW = 100  # rounds averaged for the "first" and "last" per-round times
TARGET = 3.0  # rounds per second against the reference's
FIRST_MESSAGE = "Start."
USER_REPLY = "User: carry on."
SHIM = Path(__file__).resolve().parent.parent / "tests" / "data" / "reference_shim"
REFERENCE_ENV = "AUTOGEN_0141_PYTHON"


def agent_name(index: int) -> str:
    """The name of agent ``index`` (``agent_0`` ... ``agent_7``)."""
    return f"agent_{index}"


def fixed_reply(index: int) -> str:
    """The scripted reply of agent ``index``."""
    return f"Reply from {agent_name(index)}."


class DropStream:
    """An IOStream that drops every event and printed text: the console is silent for both packages."""

    def print(self, *objects: Any, sep: str = " ", end: str = "\n", flush: bool = False) -> None:
        """Drop the text."""

    def send(self, message: Any) -> None:
        """Drop the event."""

    def input(self, prompt: str = "", *, password: bool = False) -> str:
        """No console input is expected: every agent answers with ``human_input_mode="NEVER"``."""
        raise EOFError("the group-pattern benchmark does not read console input")


@dataclass
class Workload:
    """A pattern ready to start, and the ``(time, messages seen)`` stamps its reply functions record."""

    pattern: Any
    agents: list[Any]
    user: Any
    stamps: list[tuple[float, int]] = field(default_factory=list)


@dataclass
class RunResult:
    """One timed chat of ``size`` rounds: ``rounds`` messages in ``seconds``; per-round means in microseconds."""

    package: str
    size: int
    rounds: int
    seconds: float
    first_round_us: float
    last_round_us: float
    digest: str  # of the transcript's (name, role, content): equal digests, equal conversations
    context_handoffs: int  # "[Handing off to ...]" turns: a context condition moved the turn
    user_turns: int  # the RevertToUserTarget after-work target gave the turn to the user
    last_speaker: str

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds > 0 else float("inf")


def load_package() -> ModuleType:
    """Import ``autogen_classic`` (the classic ``autogen`` under the reference shim) and quiet its logging."""
    import autogen_classic

    logging.getLogger(autogen_classic.__name__).setLevel(logging.ERROR)
    return autogen_classic


def build_workload(module: ModuleType) -> Workload:
    """The eight agents, the user, their handoffs and context variables, in a ``DefaultPattern``."""
    from autogen_classic import Agent, ConversableAgent
    from autogen_classic.agentchat.group import (
        AgentTarget,
        ContextExpression,
        ContextVariables,
        ExpressionContextCondition,
        OnContextCondition,
        RevertToUserTarget,
    )
    from autogen_classic.agentchat.group.patterns import DefaultPattern

    stamps: list[tuple[float, int]] = []

    def agent_reply(index: int) -> Any:
        text = fixed_reply(index)

        def reply(recipient: Any, messages: Any = None, sender: Any = None, config: Any = None) -> tuple[bool, str]:
            context = recipient.context_variables
            context.set("turns", context.get("turns", 0) + 1)
            if index == 0:
                context.set("escalate", False)  # agent_7's handoff back to agent_0 is spent
            elif index == 1:
                context.set("skip", not context.get("skip"))  # agent_3 skips agent_4 every other lap
            stamps.append((time.perf_counter(), len(messages or ())))
            return True, text

        return reply

    def user_reply(recipient: Any, messages: Any = None, sender: Any = None, config: Any = None) -> tuple[bool, str]:
        recipient.context_variables.set("escalate", True)
        stamps.append((time.perf_counter(), len(messages or ())))
        return True, USER_REPLY

    # The default (100) would end long chats early: each agent answers hundreds of times.
    endless = 10**9
    agents = [
        ConversableAgent(agent_name(i), llm_config=False, human_input_mode="NEVER", max_consecutive_auto_reply=endless)
        for i in range(AGENTS)
    ]
    user = ConversableAgent("user", llm_config=False, human_input_mode="NEVER", max_consecutive_auto_reply=endless)
    for index, agent in enumerate(agents):
        agent.register_reply([Agent, None], agent_reply(index))
    user.register_reply([Agent, None], user_reply)

    def when(expression: str) -> Any:
        return ExpressionContextCondition(ContextExpression(expression))

    last = agents[-1]
    last.handoffs.add_context_condition(
        OnContextCondition(target=AgentTarget(agents[0]), condition=when("${escalate} == True and ${turns} > 0"))
    )
    skip = when("${skip} and len(${notes}) > 0 and not ${paused}")
    agents[3].handoffs.add_context_condition(OnContextCondition(target=AgentTarget(agents[5]), condition=skip))
    for index, agent in enumerate(agents):
        agent.handoffs.add_context_condition(
            OnContextCondition(target=AgentTarget(agents[0]), condition=when("${stage} == 'done'"))
        )
        agent.handoffs.set_after_work(RevertToUserTarget() if agent is last else AgentTarget(agents[index + 1]))
    context = ContextVariables(
        data={"turns": 0, "escalate": False, "skip": False, "paused": False, "stage": "working", "notes": ["lap"]}
    )
    pattern = DefaultPattern(initial_agent=agents[0], agents=agents, user_agent=user, context_variables=context)
    return Workload(pattern, agents, user, stamps)


def _window_us(stamps: Sequence[tuple[float, int]], first: bool) -> float:
    """Mean time of one round over the first (or last) ``WINDOW`` rounds, from the reply stamps.

    A stamp holds the time and how many messages the replying agent had seen, so turns without a
    reply function (a context condition's handoff) still count as rounds.
    """
    if len(stamps) < 2:
        return 0.0
    if first:
        start = stamps[0]
        end = next((s for s in stamps if s[1] >= start[1] + WINDOW), stamps[-1])
    else:
        end = stamps[-1]
        start = next((s for s in reversed(stamps) if s[1] <= end[1] - WINDOW), stamps[0])
    rounds = end[1] - start[1]
    return 1e6 * (end[0] - start[0]) / rounds if rounds > 0 else 0.0


def transcript_digest(messages: Sequence[dict[str, Any]]) -> str:
    """A short digest of the transcript's names, roles and contents."""
    text = json.dumps([(m.get("name"), m.get("role"), m.get("content")) for m in messages])
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def run_chat(module: ModuleType, rounds: int) -> tuple[RunResult, Any]:
    """Time one group chat of ``rounds`` rounds; return the result and the chat result."""
    if not isinstance(rounds, int) or rounds < 2:
        raise ValueError(f"rounds must be an int >= 2 (the first message plus at least one reply), got {rounds!r}")
    from autogen_classic.agentchat.group.multi_agent_chat import initiate_group_chat
    from autogen_classic.io import IOStream

    workload = build_workload(module)
    with IOStream.set_default(DropStream()):
        start = time.perf_counter()
        chat_result, _context, last_agent = initiate_group_chat(
            pattern=workload.pattern, messages=FIRST_MESSAGE, max_rounds=rounds
        )
        seconds = time.perf_counter() - start
    history = chat_result.chat_history
    result = RunResult(
        module.__name__, rounds, len(history), seconds,
        _window_us(workload.stamps, first=True), _window_us(workload.stamps, first=False),
        transcript_digest(history),
        sum(1 for m in history if str(m.get("content")).startswith("[Handing off to ")),
        sum(1 for m in history if m.get("name") == "user" and m.get("content") == USER_REPLY),
        getattr(last_agent, "name", str(last_agent)),
    )
    return result, chat_result


def best_run(module: ModuleType, rounds: int, repeat: int) -> RunResult:
    """The fastest of ``repeat`` runs: on a shared machine the minimum is the least disturbed one."""
    if not isinstance(repeat, int) or repeat < 1:
        raise ValueError(f"repeat must be a positive int, got {repeat!r}")
    return min((run_chat(module, rounds)[0] for _ in range(repeat)), key=lambda run: run.seconds)


def run_all(sizes: Sequence[int], repeat: int = 1) -> dict[str, Any]:
    """Run every size, best of ``repeat``; return a JSON-ready dict."""
    module = load_package()
    run_chat(module, min(sizes))  # warm-up: lazy imports, first-use caches
    runs = [asdict(best_run(module, size, repeat)) for size in sizes]
    return {"package": module.__name__, "version": getattr(module, "__version__", "?"),
            "python": sys.version.split()[0], "repeat": repeat, "runs": runs}


def run_reference(python: str, sizes: Sequence[int], repeat: int = 1, shim: bool = True) -> dict[str, Any]:
    """Run this file with another interpreter (``--json``) and return its results.

    With ``shim`` the reference shim goes first on ``PYTHONPATH``, so ``autogen_classic`` there is the
    classic ``autogen``.
    """
    env = dict(os.environ)
    if shim:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(SHIM), env.get("PYTHONPATH", "")) if p)
    command = [python, __file__, "--json", "--sizes", *map(str, sizes), "--repeat", str(repeat)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    except OSError as exc:
        raise ValueError(
            f"--compare must name a Python interpreter with autogen 0.14 installed; running {python!r} failed: {exc}"
        ) from exc
    if done.returncode != 0:
        raise RuntimeError(f"the reference run failed (exit {done.returncode}):\n{done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout)


def _fastest(passes: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One result from several passes: per size, the fastest run."""
    best: dict[int, dict[str, Any]] = {}
    for one in passes:
        for run in one["runs"]:
            if run["size"] not in best or run["seconds"] < best[run["size"]]["seconds"]:
                best[run["size"]] = run
    return {**passes[0], "repeat": len(passes), "runs": [best[size] for size in sorted(best)]}


def alternate_runs(
    python: str, sizes: Sequence[int], repeat: int, shim: bool = True
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Measure both packages in ``repeat`` alternating passes (ours, then the reference); keep the fastest."""
    ours: list[dict[str, Any]] = []
    theirs: list[dict[str, Any]] = []
    for _ in range(repeat):
        ours.append(run_all(sizes, 1))
        theirs.append(run_reference(python, sizes, 1, shim))
    return _fastest(ours), _fastest(theirs)


# ----------------------------------------------------------------------------------- report
def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]

    def line(cells: Sequence[str]) -> str:  # first column left-aligned, numbers right-aligned
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    return [line(header), line(["-" * w for w in widths]), *(line(row) for row in rows)]


def _rps(run: dict[str, Any]) -> float:
    return run["rounds"] / run["seconds"] if run["seconds"] > 0 else float("inf")


def _us(run: dict[str, Any]) -> float:
    return 1e6 * run["seconds"] / run["rounds"] if run["rounds"] else 0.0


def ratios(result: dict[str, Any], reference: dict[str, Any]) -> dict[int, float]:
    """Per size, this package's rounds per second over the reference's."""
    ref = {run["size"]: run for run in reference["runs"]}
    return {run["size"]: _rps(run) / _rps(ref[run["size"]]) for run in result["runs"] if run["size"] in ref}


def same_transcripts(result: dict[str, Any], reference: dict[str, Any]) -> bool:
    """Whether both packages ran the same conversation at every size they share."""
    ref = {run["size"]: run for run in reference["runs"]}
    return all(run["digest"] == ref[run["size"]]["digest"] for run in result["runs"] if run["size"] in ref)


def _growth(result: dict[str, Any]) -> str:
    runs = result["runs"]
    if len(runs) < 2:
        return "-"
    small, large = runs[0], runs[-1]
    return (f"{_us(large) / _us(small):.2f}x over the whole chat, "
            f"last {WINDOW} rounds {large['last_round_us'] / small['last_round_us']:.2f}x")


def format_report(result: dict[str, Any], reference: dict[str, Any] | None = None) -> list[str]:
    """The speed table; with ``reference``, its columns, the speed ratio and whether the transcripts agree."""
    lines = [(f"Group orchestration: DefaultPattern, {AGENTS} scripted agents + user, context-condition and "
              f"after-work handoffs ({result['package']} {result['version']}, Python {result['python']}, "
              f"best of {result.get('repeat', 1)}, events dropped)")]
    if reference is not None:
        lines[0] += f" vs {reference['package']} {reference['version']}"
    ref_runs = {run["size"]: run for run in reference["runs"]} if reference else {}
    header = ["rounds", "rounds/s", "µs/round", f"first {WINDOW} µs/round", f"last {WINDOW} µs/round"]
    if reference is not None:
        header += ["ref rounds/s", "ref µs/round", f"ref first {WINDOW}", f"ref last {WINDOW}", "speed vs ref"]
    rows = []
    for run in result["runs"]:
        row = [str(run["rounds"]), f"{_rps(run):,.0f}", f"{_us(run):,.0f}", f"{run['first_round_us']:,.0f}",
               f"{run['last_round_us']:,.0f}"]
        ref = ref_runs.get(run["size"])
        if reference is not None:
            if ref is None:
                row += ["-"] * 5
            else:
                row += [f"{_rps(ref):,.0f}", f"{_us(ref):,.0f}", f"{ref['first_round_us']:,.0f}",
                        f"{ref['last_round_us']:,.0f}", f"{_rps(run) / _rps(ref):.2f}x"]
        rows.append(row)
    lines += _table(header, rows)
    largest = result["runs"][-1]
    lines += ["", f"time per round, {largest['size']} vs {result['runs'][0]['size']} rounds: {_growth(result)}"]
    if reference is not None:
        lines[-1] += f"; reference {_growth(reference)}"
    lines.append(f"handoffs in the {largest['size']}-round chat: {largest['context_handoffs']} by context condition, "
                 f"{largest['user_turns']} user turns by RevertToUserTarget, the rest by AgentTarget after-work; "
                 f"last speaker {largest['last_speaker']}")
    if reference is not None:
        agree = same_transcripts(result, reference)
        lines.append(f"same transcript as the reference at every size: {'yes' if agree else 'NO'} "
                     f"(digest {largest['digest']} vs {ref_runs.get(largest['size'], {}).get('digest', '-')})")
    return lines


def checks(result: dict[str, Any], reference: dict[str, Any], target: float = TARGET) -> dict[str, bool]:
    """The targets: at least ``target`` times the reference's rounds per second at every size, same transcripts."""
    found = {f"{size} rounds: at least {target:g}x the reference's rounds/s ({ratio:.2f}x)": ratio >= target
             for size, ratio in ratios(result, reference).items()}
    found["same transcript as the reference"] = same_transcripts(result, reference)
    return found


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"sizes {', '.join(map(str, QUICK_SIZES))} only")
    parser.add_argument("--sizes", type=int, nargs="+", default=None, help="rounds per chat (overrides --quick)")
    parser.add_argument("--repeat", type=int, default=None,
                        help="runs per size, the fastest counts (default 3, 1 with --quick); with --compare, "
                        "passes alternating between the two packages")
    parser.add_argument("--compare", metavar="PYTHON", default=os.environ.get(REFERENCE_ENV) or None,
                        help=f"also run the workload with this interpreter and autogen 0.14 (default ${REFERENCE_ENV})")
    parser.add_argument("--no-shim", action="store_true",
                        help="run --compare without the reference shim (its autogen_classic is the real one)")
    parser.add_argument("--target", type=float, default=TARGET,
                        help=f"rounds/s against the reference's below which the exit code is 1 (default {TARGET:g})")
    parser.add_argument("--json", action="store_true", help="print the results as JSON instead of tables")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its table (or JSON); return the exit code."""
    parser = _parser()
    args = parser.parse_args(argv)
    sizes = sorted(set(args.sizes or (QUICK_SIZES if args.quick else SIZES)))
    if any(size < 2 for size in sizes):
        parser.error(f"--sizes must all be at least 2 rounds, got {sizes}")
    repeat = args.repeat if args.repeat is not None else (1 if args.quick else 3)
    if repeat < 1:
        parser.error(f"--repeat must be at least 1, got {repeat}")
    if args.json or not args.compare:
        result = run_all(sizes, repeat)
    if args.json:
        print(json.dumps(result))
        return 0
    reference = None
    if args.compare:
        print(f"running the same workload with {args.compare} ...", file=sys.stderr, flush=True)
        result, reference = alternate_runs(args.compare, sizes, repeat, shim=not args.no_shim)
    print("\n".join(format_report(result, reference)))
    if reference is None:
        print(f"\n(no reference: pass --compare PYTHON or set ${REFERENCE_ENV} to compare with autogen 0.14)")
        return 0
    print()
    found = checks(result, reference, args.target)
    for name, ok in found.items():
        print(f"[{'PASS' if ok else 'MISS'}] {name}")
    return 0 if all(found.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
