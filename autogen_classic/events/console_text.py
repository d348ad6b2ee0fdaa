"""The console text the events share: the print function, agent names, message contents, boxed blocks."""

from __future__ import annotations

import builtins
from typing import Any, Callable, Optional

from termcolor import colored

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


def content_str(content: Any) -> str:
    """Text of a message content as the 0.14 events print it: a multimodal list's parts one per line.

    Raises:
        TypeError: content is neither None, a str nor a list of dicts.
        ValueError: a part has a type no message part has.
    """
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise TypeError(f"content must be None, str, or list, but got {type(content)}")
    parts = []
    for item in content:
        if not isinstance(item, dict):
            raise TypeError("Wrong content format: every element should be dict if the content is a list.")
        kind = item.get("type")
        if kind in ("text", "input_text"):
            parts.append(item["text"])
        elif kind in ("image_url", "input_image"):
            parts.append("<image>")
        elif kind in ("function", "tool_call", "tool_calls"):
            parts.append("<function>" if "name" not in item else f"<function: {item['name']}>")
        elif kind == "apply_patch_call":
            operation = item.get("operation", {})
            parts.append(
                f"<apply_patch_call: {operation.get('type', 'unknown_operation')} on "
                f"{operation.get('path', 'unknown_path')} (status: {item.get('status', 'unknown_status')}) "
                f"diff: {operation.get('diff', 'unknown_diff')}>"
            )
        elif kind == "shell_call":
            commands = item.get("action", {}).get("commands", [])
            parts.append(f"[shell_call id={item.get('call_id', '<unknown>')} commands={commands}]")
        else:
            raise ValueError(f"Wrong content format: unknown type {kind} within the content")
    return "\n".join(parts)


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
