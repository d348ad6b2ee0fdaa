"""The ``autogen-classic`` command."""

from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

from .version import __version__

__all__ = ["main"]


def _demo(args: argparse.Namespace) -> int:
    from .demo import run_scripted_two_agent_demo
    from .io import IOStream

    result = run_scripted_two_agent_demo()
    out = IOStream.get_default()
    out.print(f"\nSummary: {result.summary.strip()}")
    out.print(f"Messages: {len(result.chat_history)}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="autogen-classic", description="The classic AutoGen conversation API: demos and tools."
    )
    parser.add_argument("--version", action="version", version=f"autogen-classic {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = commands.add_parser("demo", help="run a demonstration chat and print it in the classic layout")
    demo.set_defaults(handler=_demo)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help(sys.stderr)
        return 2
    return int(args.handler(args))
