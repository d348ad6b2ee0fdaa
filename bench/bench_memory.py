"""Memory benchmark of long group chats: this package beside ag2 0.7.3 and autogen 0.14.1, in one run.

The workloads are bench_orchestration.py's: eight ``llm_config=False`` agents with fixed replies in one
``GroupChat``, ``round_robin`` or ``auto`` (an in-process model client that names the next agent at
once), plus ``pattern``: the same eight agents in a ring of hand-offs with context variables
(``{"count": 0}``). Where the package has ``initiate_group_chat`` (this package, autogen 0.14.1) each agent
gets ``handoffs.set_after_work(AgentTarget(next_agent))`` and the chat is a ``DefaultPattern`` whose manager
has the instant model's ``llm_config``; ag2 0.7.3 runs the swarm equivalent (``SwarmAgent``s,
``register_hand_off([AFTER_WORK(next_agent)])``, ``initiate_swarm_chat``). Console output is formatted
and then dropped (``NullStream``).

Measured per package:

1. Memory per 1,000 messages: the slope of tracemalloc's current bytes between a 100- and a
   1,600-round chat, taken after ``gc.collect()`` while the chat objects (agents, manager, transcript)
   are alive, so the fixed cost of building the chat cancels out; and tracemalloc's peak during the
   1,600-round chat. A short chat of the same kind runs first, so lazy imports are not counted.
2. A 10,000-round chat, each in a fresh subprocess WITHOUT tracemalloc (it would slow every allocation):
   the mean time per round over the first and the last 1,000 rounds (from a reply function registered
   at position 0, as in bench_orchestration), and the peak RSS (``getrusage`` ``ru_maxrss``; on Linux
   reset just before the chat through ``/proc/self/clear_refs``) less the RSS just before the chat.
3. A study: 200 round_robin chats of 50 rounds one after another, keeping every ``groupchat.messages``
   (the transcripts) and dropping the rest: tracemalloc peak, and what stays allocated at the end.

Every chat's message count is checked against its rounds and printed. The references run this same file
with their interpreter and ``--package autogen --json`` in a subprocess (``--ag2``, ``--autogen-014``, or
``$AG2_073_PYTHON`` / ``$AUTOGEN_0141_PYTHON``); a workload a package cannot run shows ``-`` and a footnote.

Usage: ``python bench/bench_memory.py [--quick] [--sizes SMALL LARGE] [--long-rounds N]
[--long-workloads W ...] [--study-chats N] [--ag2 PYTHON] [--autogen-014 PYTHON] [--package NAME] [--json]``
"""

from __future__ import annotations

# Only the standard library at module level: the reference interpreters run this file too.
import argparse
import contextlib
import gc
import importlib
import json
import os
import resource
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # bench/ is not a package
import bench_orchestration as bo  # noqa: E402

WORKLOADS = ("round_robin", "auto", "pattern")
SIZES, QUICK_SIZES = (100, 1600), (100, 400)
LONG_ROUNDS, QUICK_LONG_ROUNDS = 10_000, 2_000
STUDY_CHATS, QUICK_STUDY_CHATS, STUDY_ROUNDS = 200, 20, 50
WINDOW = 1000  # rounds averaged for the first and last time per round of the long chat
WARM_UP_ROUNDS = 20
MIB = 2**20
REFERENCES = (("ag2 0.7.3", "--ag2", "AG2_073_PYTHON"), ("autogen 0.14.1", "--autogen-014", "AUTOGEN_0141_PYTHON"))
LLM_CONFIG = {"config_list": [{"model": bo.MODEL, "model_client_cls": bo.InstantClient.__name__}], "cache_seed": None}


@dataclass
class Runnable:
    """A built chat: ``start`` runs it, ``messages`` returns its transcript, ``stamps`` the reply times."""

    start: Callable[[], None]
    messages: Callable[[], list[dict[str, Any]]]
    stamps: list[float]
    keep: list[Any] = field(default_factory=list)  # objects kept alive with the chat


def build_pattern(module: Any, rounds: int) -> Runnable:
    """The eight agents in a ring of after-work hand-offs with context variables, as the package supports it."""
    agentchat = importlib.import_module(module.__name__ + ".agentchat")
    stamps: list[float] = []

    def stamp(recipient: Any, messages: Any = None, sender: Any = None, config: Any = None) -> tuple[bool, None]:
        stamps.append(time.perf_counter())
        return False, None  # go on to the fixed reply

    new_api = hasattr(agentchat, "initiate_group_chat")
    if not new_api and not all(hasattr(module, n) for n in ("initiate_swarm_chat", "AFTER_WORK", "SwarmAgent")):
        raise RuntimeError("has neither initiate_group_chat nor initiate_swarm_chat/AFTER_WORK/SwarmAgent")
    cls = module.ConversableAgent if new_api else module.SwarmAgent
    agents = [cls(bo.agent_name(i), llm_config=False, human_input_mode="NEVER", default_auto_reply=bo.fixed_reply(i),
                  max_consecutive_auto_reply=10**9) for i in range(bo.AGENTS)]
    for agent in agents:
        agent.register_reply([module.Agent, None], stamp, position=0)
    done: list[Any] = []
    if new_api:
        group = importlib.import_module(module.__name__ + ".agentchat.group")
        patterns = importlib.import_module(module.__name__ + ".agentchat.group.patterns")
        for index, agent in enumerate(agents):
            agent.handoffs.set_after_work(group.AgentTarget(agents[(index + 1) % bo.AGENTS]))
        pattern = patterns.DefaultPattern(
            initial_agent=agents[0], agents=agents, context_variables=group.ContextVariables(data={"count": 0}),
            group_manager_args={"llm_config": LLM_CONFIG})

        def start() -> None:
            done.append(agentchat.initiate_group_chat(pattern=pattern, messages="Start.", max_rounds=rounds))
    else:
        for index, agent in enumerate(agents):
            agent.register_hand_off([module.AFTER_WORK(agents[(index + 1) % bo.AGENTS])])

        def start() -> None:
            done.append(module.initiate_swarm_chat(initial_agent=agents[0], agents=agents, messages="Start.",
                                                   max_rounds=rounds, context_variables={"count": 0}))
    return Runnable(start, lambda: done[0][0].chat_history, stamps, [agents, done])


def build(module: Any, workload: str, rounds: int) -> Runnable:
    """A chat of ``workload`` (round_robin, auto or pattern) that runs ``rounds`` rounds."""
    if workload == "pattern":
        return build_pattern(module, rounds)
    chat = bo.build_chat(module, workload, rounds)
    return Runnable(lambda: bo._start(chat), lambda: chat.groupchat.messages, chat.stamps, [chat])


def run(module: Any, chat: Runnable) -> None:
    """Run ``chat`` with the console output formatted and dropped."""
    with bo._output_context(module):
        chat.start()


def measure_chat(module: Any, workload: str, rounds: int) -> dict[str, int]:
    """Tracemalloc bytes retained by one chat (alive, after gc.collect()) and its peak, above the start."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        chat = build(module, workload, rounds)
        run(module, chat)
        chat.stamps.clear()  # the benchmark's time stamps are not the framework's memory
        gc.collect()
        current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return {"rounds": rounds, "messages": len(chat.messages()), "retained": current - before, "peak": peak - before}


def measure_slope(module: Any, workload: str, sizes: Sequence[int]) -> dict[str, Any]:
    """Warm up, then measure a small and a large chat of ``workload``."""
    run(module, build(module, workload, WARM_UP_ROUNDS))
    return {"small": measure_chat(module, workload, sizes[0]), "large": measure_chat(module, workload, sizes[1])}


def _rss_bytes(peak: bool = False) -> int:
    """The current resident set size (Linux /proc; elsewhere the peak), or the peak so far (getrusage)."""
    if not peak:
        with contextlib.suppress(OSError, ValueError, IndexError), open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return maxrss if sys.platform == "darwin" else maxrss * 1024  # bytes on macOS, KiB elsewhere


def long_chat(module: Any, workload: str, rounds: int) -> dict[str, Any]:
    """One long chat without tracemalloc: time per round over the first/last WINDOW rounds, peak RSS growth."""
    run(module, build(module, workload, WARM_UP_ROUNDS))
    gc.collect()
    chat = build(module, workload, rounds)
    with contextlib.suppress(OSError), open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")  # Linux: the peak RSS (ru_maxrss, VmHWM) starts again from the current RSS
    rss_before = _rss_bytes()
    start = time.perf_counter()
    run(module, chat)
    seconds = time.perf_counter() - start
    gaps = [b - a for a, b in zip(chat.stamps, chat.stamps[1:])]
    window = max(1, min(WINDOW, len(gaps) // 2))
    first, last = gaps[:window], gaps[-window:]
    return {"rounds": rounds, "messages": len(chat.messages()), "seconds": seconds, "window": window,
            "first_us": 1e6 * sum(first) / max(1, len(first)), "last_us": 1e6 * sum(last) / max(1, len(last)),
            "peak_rss": max(0, _rss_bytes(peak=True) - rss_before)}


def long_chat_subprocess(package: str, workload: str, rounds: int) -> dict[str, Any]:
    """Run ``long_chat`` in a fresh interpreter (this one), so earlier chats leave no heap behind."""
    command = [sys.executable, os.path.abspath(__file__), "--package", package, "--long-worker", workload,
               "--long-rounds", str(rounds)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError((done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1])
    return json.loads(done.stdout)


def study(module: Any, chats: int, rounds: int) -> dict[str, int]:
    """``chats`` round_robin chats one after another, keeping each transcript: tracemalloc peak and retained."""
    run(module, build(module, "round_robin", WARM_UP_ROUNDS))
    transcripts: list[list[dict[str, Any]]] = []
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(chats):
            chat = build(module, "round_robin", rounds)
            run(module, chat)
            transcripts.append(chat.messages())
            del chat
        gc.collect()
        current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return {"chats": chats, "rounds": rounds, "messages": sum(map(len, transcripts)),
            "retained": current - before, "peak": peak - before}


def _guard(results: dict[str, Any], key: str, measure: Callable[[], Any]) -> None:
    """Store ``measure()`` under ``key``, or the reason it failed."""
    try:
        results[key] = measure()
    except Exception as exc:  # a package that cannot run a workload gets "-" and a footnote
        lines = str(exc).strip().splitlines()
        results[key] = {"error": f"{type(exc).__name__}: {lines[-1] if lines else ''}".rstrip(": ")}


def run_all(package: str, cfg: argparse.Namespace) -> dict[str, Any]:
    """Every measurement for ``package``; a JSON-ready dict."""
    module = bo.load_package(package)
    slope: dict[str, Any] = {}
    longs: dict[str, Any] = {}
    out = {"package": package, "version": getattr(module, "__version__", "?"), "python": sys.version.split()[0],
           "slope": slope, "long": longs}
    for workload in cfg.workloads:
        print(f"  {package}: slope {workload}", file=sys.stderr, flush=True)
        _guard(slope, workload, lambda: measure_slope(module, workload, cfg.sizes))
    for workload in cfg.long_workloads if cfg.long_rounds else ():
        print(f"  {package}: {cfg.long_rounds}-round {workload}", file=sys.stderr, flush=True)
        _guard(longs, workload, lambda: long_chat_subprocess(package, workload, cfg.long_rounds))
    if cfg.study_chats:
        print(f"  {package}: study of {cfg.study_chats} chats", file=sys.stderr, flush=True)
        _guard(out, "study", lambda: study(module, cfg.study_chats, cfg.study_rounds))
    return out


def run_reference(python: str, cfg: argparse.Namespace) -> dict[str, Any]:
    """Run this file with another interpreter, ``--package autogen --json``, and the same sizes."""
    command = [python, os.path.abspath(__file__), "--package", "autogen", "--json", "--sizes", *map(str, cfg.sizes),
               "--workloads", *cfg.workloads, "--long-rounds", str(cfg.long_rounds),
               "--long-workloads", *cfg.long_workloads, "--study-chats", str(cfg.study_chats),
               "--study-rounds", str(cfg.study_rounds)]
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=False)
    except OSError as exc:
        raise RuntimeError(f"cannot run {python!r}: {exc}") from exc
    if done.returncode != 0:
        raise RuntimeError(f"{python} exited with {done.returncode}")
    return json.loads(done.stdout)


# ----------------------------------------------------------------------------------- report
class _Missing(Exception):
    """A measurement a package could not make; its message becomes a footnote."""


def _get(result: dict[str, Any], *keys: str) -> Any:
    """``result[k0][k1]...``; ``_Missing`` where the package or workload failed, KeyError if not measured."""
    node: Any = result
    for depth in range(len(keys) + 1):
        if isinstance(node, dict) and "error" in node:
            raise _Missing(f"{' '.join(keys[:depth])}: {node['error']}" if depth else node["error"])
        node = node[keys[depth]] if depth < len(keys) else node
    return node


Row = tuple[str, Callable[[dict[str, Any]], Any], str, bool]  # label, value of a result, format, with ratio


def _table(title: str, rows: Sequence[Row], results: Sequence[dict[str, Any]], notes: list[str]) -> list[str]:
    """One table, a column per package; a cell that cannot be filled is '-' with a footnote added to ``notes``."""
    body = []
    for label, get, fmt, with_ratio in rows:
        cells: list[tuple[str, float | None]] = []
        for result in results:
            try:
                value = get(result)
                cells.append((format(value, fmt), value))
            except KeyError:
                cells.append(("-", None))  # not measured in this run
            except _Missing as missing:
                note = f"{result['label']}: {missing}"
                notes.extend([] if note in notes else [note])
                cells.append((f"-[{notes.index(note) + 1}]", None))
        ours, refs = cells[0][1], [v for _, v in cells[1:] if v is not None]
        ratio = f"{ours / min(refs):.2f}x" if with_ratio and ours is not None and refs and min(refs) > 0 else "-"
        body.append([label, *(text for text, _ in cells), ratio])
    return ["", title, *bo._table(["workload", *(r["label"] for r in results), "vs better ref"], body)]


def slope_per_1000(m: dict[str, Any]) -> float:
    """KiB retained per 1,000 messages: the slope between the small and the large chat."""
    small, large = m["small"], m["large"]
    return 1000 * (large["retained"] - small["retained"]) / max(1, large["messages"] - small["messages"]) / 1024


def format_report(results: Sequence[dict[str, Any]], cfg: argparse.Namespace) -> list[str]:
    """All tables, the message-count check, then the footnotes."""
    notes: list[str] = []
    small, large = cfg.sizes
    longs = cfg.long_workloads if cfg.long_rounds else []
    lines = [f"Memory of long group chats: {bo.AGENTS} agents, instant model; this package = {results[0]['package']} "
             f"{results[0]['version']}, Python {results[0]['python']}; vs better ref = this package / the lower "
             f"of the two references"]
    lines += _table(
        f"1. Memory retained per 1,000 messages, KiB: slope of tracemalloc current bytes (after gc.collect(), chat "
        f"alive) between a {small:,}- and a {large:,}-round chat",
        [(w, lambda r, w=w: slope_per_1000(_get(r, "slope", w)), ",.0f", True) for w in cfg.workloads], results, notes)
    lines += _table(
        f"   Peak of the {large:,}-round chat, MiB (tracemalloc peak above the start)",
        [(w, lambda r, w=w: _get(r, "slope", w, "large", "peak") / MIB, ",.1f", True) for w in cfg.workloads],
        results, notes)
    rows: list[Row] = []
    for w in longs:
        rows += [(f"{w} peak RSS MiB", lambda r, w=w: _get(r, "long", w, "peak_rss") / MIB, ",.1f", True),
                 (f"{w} first {WINDOW:,} µs/round", lambda r, w=w: _get(r, "long", w, "first_us"), ",.0f", True),
                 (f"{w} last {WINDOW:,} µs/round", lambda r, w=w: _get(r, "long", w, "last_us"), ",.0f", True),
                 (f"{w} last / first", lambda r, w=w: _get(r, "long", w, "last_us") / _get(r, "long", w, "first_us"),
                  ".2f", False)]
    if rows:
        lines += _table(
            f"2. One {cfg.long_rounds:,}-round chat per workload, each in a fresh subprocess WITHOUT tracemalloc: "
            f"time per round over the first and last {WINDOW:,} rounds; peak RSS = getrusage ru_maxrss (reset just "
            f"before the chat via /proc/self/clear_refs) minus the RSS before the chat", rows, results, notes)
    if cfg.study_chats:
        lines += _table(
            f"3. Study: {cfg.study_chats} round_robin chats of {cfg.study_rounds} rounds one after another, every "
            f"groupchat.messages kept (tracemalloc, MiB)",
            [("peak MiB", lambda r: _get(r, "study", "peak") / MIB, ",.2f", True),
             ("retained MiB (transcripts kept)", lambda r: _get(r, "study", "retained") / MIB, ",.2f", True)],
            results, notes)
    counts: list[Row] = [(f"{w} {k} chat ({n:,} rounds)", lambda r, w=w, k=k: _get(r, "slope", w, k, "messages"),
                          ",d", False) for w in cfg.workloads for k, n in (("small", small), ("large", large))]
    counts += [(f"{w} long chat ({cfg.long_rounds:,} rounds)", lambda r, w=w: _get(r, "long", w, "messages"), ",d",
                False) for w in longs]
    counts += [(f"study, all chats ({cfg.study_chats * cfg.study_rounds:,} rounds)",
                lambda r: _get(r, "study", "messages"), ",d", False)] if cfg.study_chats else []
    lines += _table("Messages per chat (each must equal its rounds)", counts, results, notes)
    wrong = [f"{r['label']} {' '.join(path)}: {m['messages']} messages for {m['rounds'] * m.get('chats', 1)} rounds"
             for r in results for path, m in _counted(r) if m["messages"] != m["rounds"] * m.get("chats", 1)]
    lines.append("MESSAGE COUNTS DIFFER: " + "; ".join(wrong) if wrong else "Every measured chat ran all its rounds.")
    return lines + [f"[{i}] {note}" for i, note in enumerate(notes, 1)]


def _counted(node: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], dict[str, Any]]]:
    """Every measurement in ``node`` that has a message count, with its path of keys."""
    if not isinstance(node, dict):
        return []
    found = [(path, node)] if "messages" in node and "rounds" in node else []
    return found + [hit for key, value in node.items() for hit in _counted(value, (*path, key))]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="sizes 100/400, a 2,000-round long chat, 20-chat study")
    parser.add_argument("--sizes", type=int, nargs=2, metavar=("SMALL", "LARGE"),
                        help=f"rounds of the two chats whose difference gives the slope (default {SIZES})")
    parser.add_argument("--workloads", nargs="+", choices=WORKLOADS, default=list(WORKLOADS), help="of the slope")
    parser.add_argument("--long-rounds", type=int, help=f"of the long chat (default {LONG_ROUNDS:,}; 0 skips it)")
    parser.add_argument("--long-workloads", nargs="+", choices=WORKLOADS, default=list(WORKLOADS), help="long chats")
    parser.add_argument("--study-chats", type=int, help=f"chats of the study (default {STUDY_CHATS}; 0 skips it)")
    parser.add_argument("--study-rounds", type=int, default=STUDY_ROUNDS, help="rounds of each study chat")
    parser.add_argument("--package", default="autogen_classic", help="the package measured (e.g. autogen)")
    for _label, flag, env in REFERENCES:
        parser.add_argument(flag, metavar="PYTHON", default=os.environ.get(env),
                            help=f"interpreter with the reference `autogen` (default ${env}; '' skips it)")
    parser.add_argument("--json", action="store_true", help="measure --package only and print JSON")
    parser.add_argument("--long-worker", choices=WORKLOADS, help=argparse.SUPPRESS)  # one long chat, as JSON
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its tables (or JSON); return the exit code."""
    parser = _parser()
    cfg = parser.parse_args(argv)
    cfg.sizes = cfg.sizes or list(QUICK_SIZES if cfg.quick else SIZES)
    if not 2 <= cfg.sizes[0] < cfg.sizes[1]:
        parser.error(f"--sizes needs 2 <= SMALL < LARGE, got {cfg.sizes}")
    if cfg.long_rounds is None:
        cfg.long_rounds = QUICK_LONG_ROUNDS if cfg.quick else LONG_ROUNDS
    if cfg.long_rounds != 0 and cfg.long_rounds < 4:
        parser.error(f"--long-rounds must be 0 (skip) or at least 4, got {cfg.long_rounds}")
    if cfg.study_chats is None:
        cfg.study_chats = QUICK_STUDY_CHATS if cfg.quick else STUDY_CHATS
    if cfg.study_chats < 0 or cfg.study_rounds < 2:
        parser.error(f"--study-chats must be >= 0 and --study-rounds >= 2, got {cfg.study_chats}, {cfg.study_rounds}")
    if cfg.long_worker:
        print(json.dumps(long_chat(bo.load_package(cfg.package), cfg.long_worker, cfg.long_rounds)))
        return 0
    print(f"measuring {cfg.package} ...", file=sys.stderr, flush=True)
    try:
        ours = run_all(cfg.package, cfg)
    except (ImportError, ValueError) as exc:
        parser.error(f"--package {cfg.package!r} cannot be measured: {exc}")
    if cfg.json:
        print(json.dumps(ours))
        return 0
    results = [{**ours, "label": "this package"}]
    for expected, flag, env in REFERENCES:
        python = getattr(cfg, flag.lstrip("-").replace("-", "_"))
        if not python:
            results.append({"label": expected, "error": f"not run: pass {flag} PYTHON or set ${env}"})
            continue
        print(f"measuring {expected} with {python} ...", file=sys.stderr, flush=True)
        try:
            ref = run_reference(python, cfg)
            results.append({**ref, "label": f"{expected.split()[0]} {ref['version']}"})
        except (RuntimeError, ValueError) as exc:
            results.append({"label": expected, "error": str(exc)})
    print("\n".join(format_report(results, cfg)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
