"""The console text the events share: the print function, agent names, message contents, boxed blocks."""

from __future__ import annotations

import builtins
from typing import Any, Callable, Optional

from termcolor import colored

from ..types import content_str

__all__ = [
    "SEPARATOR", "Printer", "agent_name", "boxed", "call_block", "content_str", "content_to_text", "printer",
]

SEPARATOR = "-" * 80
Printer = Optional[Callable[..., Any]]


def printer(f: Printer) -> Callable[..., Any]:
    """``f``, or ``print`` when none is given (the classic ``*Message`` events' ``print(f=None)``)."""
    return f if f is not None else builtins.print


def agent_name(agent: Any) -> Optional[str]:
    """The name of an agent (or of anything named), None for None."""
    return None if agent is None else getattr(agent, "name", str(agent))


def named(agent: Any) -> Any:
    """An agent's name; anything without a name (a str, None) as it is."""
    return agent.name if hasattr(agent, "name") else agent


def content_to_text(content: Any) -> str:
    """Text of a message content as ag2 0.7.3 prints it: a multimodal list's parts joined without a separator."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for item in content:
            if isinstance(item, dict) and item.get("type") == "text":
                parts.append(str(item.get("text", "")))
            elif isinstance(item, dict) and item.get("type") in ("image_url", "input_image"):
                parts.append("<image>")
            else:
                parts.append(str(item))
        return "".join(parts)
    return str(content)


def boxed(f: Callable[..., Any], title: str, body: Any) -> None:
    """``title`` in green, the body, and a green line of stars as long as the title."""
    f(colored(title, "green"), flush=True)
    f(body, flush=True)
    f(colored("*" * len(title), "green"), flush=True)


def call_block(f: Callable[..., Any], title: str, arguments: Any) -> None:
    """A suggested call: its title, its arguments, and a green line of stars."""
    f(colored(title, "green"), flush=True)
    f("Arguments: \n", arguments if arguments else "(No arguments found)", flush=True, sep="")
    f(colored("*" * len(title), "green"), flush=True)
