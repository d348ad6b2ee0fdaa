"""Run the benchmark suite and print its tables.

Sections (in this order; ``--sections`` picks some):

- ``orchestration``: group-chat overhead with an instant model (bench_orchestration.py);
- ``scale``: 50 group chats at once against a scripted server with 100 ms latency (bench_scale.py);
- ``selection``: "auto" speaker-selection accuracy, structured and classic, on the embedded model
  (bench_selection.py; needs the ``local`` extra);
- ``client``: OpenAIWrapper overhead and cache hits against the scripted server (bench_client.py).

``--quick`` runs the short variant of each section. ``--compare PYTHON`` adds the reference
package, run by that interpreter, to the orchestration tables.

Usage: ``python bench/run.py [--quick] [--sections NAME ...] [--compare PYTHON]``

The exit code is 0 when every section ran and met its targets, otherwise 1.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling bench_*.py scripts

import bench_client
import bench_orchestration
import bench_scale
import bench_selection

SECTIONS = ("orchestration", "scale", "selection", "client")


def section_argv(name: str, quick: bool, compare: str | None) -> list[str]:
    """The command-line arguments the suite passes to section ``name``."""
    if name not in SECTIONS:
        raise ValueError(f"name must be one of {', '.join(SECTIONS)}, got {name!r}")
    if name == "orchestration":
        return (["--quick"] if quick else []) + (["--compare", compare] if compare else [])
    if name == "selection":
        return ["--method", "both"] + (["--limit", "8"] if quick else [])
    if name == "client":
        return ["--quick"] if quick else []
    return []  # scale: 50 chats in either mode, it takes seconds


def _entry(name: str) -> Callable[[list[str]], int]:
    return {
        "orchestration": bench_orchestration.main,
        "scale": bench_scale.main,
        "selection": bench_selection.main,
        "client": bench_client.main,
    }[name]


def run_section(name: str, argv: list[str]) -> tuple[int, float]:
    """Run one section with ``argv``; return its exit code (1 when it raised) and its seconds."""
    start = time.perf_counter()
    try:
        code = _entry(name)(argv)
    except SystemExit as exc:  # argparse errors
        code = exc.code if isinstance(exc.code, int) else 1
    except Exception:  # noqa: BLE001 - one broken section must not hide the others' tables
        traceback.print_exc()
        code = 1
    return code, time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    """Run the chosen sections; return 0 when all of them succeeded."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the short variant of every section")
    parser.add_argument("--sections", nargs="+", choices=SECTIONS, default=list(SECTIONS), help="sections to run")
    parser.add_argument("--compare", metavar="PYTHON", default=None,
                        help="interpreter with the reference package (autogen) for the orchestration section")
    args = parser.parse_args(argv)
    summary = []
    for name in args.sections:
        section = section_argv(name, args.quick, args.compare)
        print(f"\n=== {name}: bench/{_entry(name).__module__}.py {' '.join(section)}".rstrip(), flush=True)
        code, seconds = run_section(name, section)
        sys.stdout.flush()
        summary.append((name, code, seconds))
    print("\n=== summary")
    for name, code, seconds in summary:
        print(f"{name:<14} {'ok' if code == 0 else f'exit {code}':<8} {seconds:>7.1f} s")
    return 0 if all(code == 0 for _, code, _ in summary) else 1


if __name__ == "__main__":
    sys.exit(main())
