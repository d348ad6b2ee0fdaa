"""The ``autogen-classic`` command (``main``): ``demo`` runs a group chat (demo.py), ``serve`` the embedded model.

The top layer: may import every other part of the package; only ``__main__`` imports it.
"""

from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

from .. import __version__

__all__ = ["build_parser", "main"]


def _group_chat_demo(args: argparse.Namespace) -> int:
    from ..agentchat.groupchat.selection.trace import format_selection_log
    from ..io import IOStream
    from ..io.emit import emit_print
    from ..local import LocalModelUnavailableError
    from ..oai.configuration.default_config import resolve_default_config
    from ..oai.usage import gather_usage_summary, usage_summary_lines
    from .demo import DEMO_TASK, build_group_chat_demo

    out = IOStream.get_default()
    try:
        default = resolve_default_config()
    except (LocalModelUnavailableError, ValueError) as err:
        emit_print(f"Error: {err}", iostream=out)
        return 1
    emit_print(default.description, iostream=out)
    demo = build_group_chat_demo(default.llm_config, manual=args.manual, max_round=args.max_round,
                                 manual_view=args.manual_view)
    demo.user_proxy.initiate_chat(demo.manager, message=args.task or DEMO_TASK)

    emit_print("\nSpeaker selection:", iostream=out)
    emit_print(format_selection_log(demo.groupchat.selection_log), iostream=out)
    usage = gather_usage_summary([*demo.agents, demo.manager])
    emit_print("\nUsage (agents and speaker selection):", iostream=out)
    for line in usage_summary_lines(
        usage["usage_excluding_cached_inference"], usage["usage_including_cached_inference"], "total"
    ):
        emit_print(line, iostream=out)
    return 0


def _demo(args: argparse.Namespace) -> int:
    if not args.scripted:
        return _group_chat_demo(args)
    from ..io import IOStream
    from ..io.emit import emit_print
    from .demo import run_scripted_two_agent_demo

    result = run_scripted_two_agent_demo()
    out = IOStream.get_default()
    emit_print(f"\nSummary: {result.summary.strip()}", iostream=out)
    emit_print(f"Messages: {len(result.chat_history)}", iostream=out)
    return 0


def _serve(args: argparse.Namespace) -> int:
    from ..local import serve_forever

    return serve_forever(args.port)


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 2:
        raise argparse.ArgumentTypeError("must be a whole number >= 2")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The command line parser (subcommands ``demo`` and ``serve``)."""
    parser = argparse.ArgumentParser(
        prog="autogen-classic", description="The classic AutoGen conversation API: demos and tools."
    )
    parser.add_argument("--version", action="version", version=f"autogen-classic {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = commands.add_parser(
        "demo",
        help="run a group chat (planner, coder, critic) on the default model and print it in the classic layout",
        description=(
            "Run a group chat on the default model configuration: OAI_CONFIG_LIST (variable or file), "
            "then OPENAI_API_KEY, then the embedded SmolLM2 model."
        ),
    )
    demo.add_argument("--manual", action="store_true", help="choose each speaker at the keyboard")
    demo.add_argument(
        "--manual-view", choices=["rich", "classic"], default="rich",
        help="with --manual: 'rich' (default) shows descriptions and a suggestion; 'classic' the classic prompt",
    )
    demo.add_argument("--task", help="the task for the team (default: a small Python function)")
    demo.add_argument("--max-round", type=_positive_int, default=6, help="rounds, the task included (default 6)")
    demo.add_argument(
        "--scripted", action="store_true",
        help="run the two-agent demo on a scripted loopback server instead (no model needed)",
    )
    demo.set_defaults(handler=_demo)
    serve = commands.add_parser(
        "serve", help="run the embedded model's OpenAI-compatible server in the foreground and print its URL"
    )
    serve.add_argument("--port", type=int, default=None, help="port on 127.0.0.1 (default: a free one)")
    serve.set_defaults(handler=_serve)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help(sys.stderr)
        return 2
    return int(args.handler(args))
