"""``SafeguardEvent``: what a safeguard policy did (classic ``autogen.agentchat.group.safeguards.events``).

One event kind, told apart by ``event_type``: ``"load"`` (a policy was read), ``"check"`` (a rule looked at
a message), ``"violation"`` (the rule matched) and ``"action"`` (block, mask or warning was applied).
"""

from __future__ import annotations

from typing import Any, Callable, Literal, Optional
from uuid import UUID

from termcolor import colored

from .base_event import BaseEvent, resolve_print_callable, wrap_event

__all__ = ["SafeguardEvent", "TermColor"]

# The termcolor colours an event may be printed in (the classic module names this type).
TermColor = Literal[
    "black", "grey", "red", "green", "yellow", "blue", "magenta", "cyan", "light_grey", "dark_grey", "light_red",
    "light_green", "light_yellow", "light_blue", "light_magenta", "light_cyan", "white",
]

_COLOURS: dict[str, TermColor] = {"load": "green", "check": "cyan", "violation": "red", "action": "yellow"}
_MARKS = {"load": "✅", "check": "🔍", "violation": "🛡️"}
_ACTION_MARKS = {"block": "🚨", "mask": "🎭", "warning": "⚠️"}


def _header(event: Any) -> Optional[str]:
    """The starred title of a check, violation or action; a load has none."""
    if event.event_type == "check":
        return f"***** Safeguard Check: {event.message} *****"
    if event.event_type == "violation":
        return "***** Safeguard Violation: DETECTED *****"
    if event.event_type == "action":
        return f"***** Safeguard Enforcement Action: {event.action.upper() if event.action else 'APPLIED'} *****"
    return None


def _body(event: Any) -> str:
    mark = _ACTION_MARKS.get(event.action or "", "⚙️") if event.event_type == "action" else _MARKS.get(
        event.event_type, ""
    )
    lines = [f"{mark} {event.message}" if mark else event.message]
    if event.source_agent and event.target_agent:
        lines += [f"  • From: {event.source_agent}", f"  • To: {event.target_agent}"]
    elif event.source_agent:
        lines.append(f"  • Agent: {event.source_agent}")
    if event.guardrail_type:
        lines.append(f"  • Guardrail: {event.guardrail_type}")
    if event.action:
        lines.append(f"  • Action: {event.action}")
    if event.content_preview:
        # One line per field: line breaks of the content are shown escaped.
        shown = event.content_preview.replace("\n", "\\n").replace("\r", "\\r")
        lines.append(f"  • Content: {shown}")
    return "\n".join(lines)


@wrap_event
class SafeguardEvent(BaseEvent):
    """A step of a safeguard policy at work.

    Args:
        event_type: ``"load"``, ``"check"``, ``"violation"`` or ``"action"``.
        message: what happened, in words.
        source_agent: who sent the message looked at (an agent, a tool, ``"llm"`` or ``"user"``).
        target_agent: who was to receive it.
        guardrail_type: ``"RegexGuardrail"`` or ``"LLMGuardrail"``: how the rule checks.
        action: ``"block"``, ``"mask"`` or ``"warning"`` (action events).
        content_preview: the first 100 characters of the content looked at.
    """

    event_type: str
    message: str
    source_agent: Optional[str] = None
    target_agent: Optional[str] = None
    guardrail_type: Optional[str] = None
    action: Optional[str] = None
    content_preview: Optional[str] = None

    def __init__(
        self,
        *,
        uuid: Optional[UUID] = None,
        event_type: str,
        message: str,
        source_agent: Optional[str] = None,
        target_agent: Optional[str] = None,
        guardrail_type: Optional[str] = None,
        action: Optional[str] = None,
        content_preview: Optional[str] = None,
    ) -> None:
        super().__init__(
            uuid=uuid, event_type=event_type, message=message, source_agent=source_agent,
            target_agent=target_agent, guardrail_type=guardrail_type, action=action,
            content_preview=content_preview,
        )

    def print(self, f: Optional[Callable[..., Any]] = None) -> None:
        """Print the event in its colour: a starred title (not for a load), the details, a closing line."""
        f = resolve_print_callable(f)
        colour = _COLOURS.get(self.event_type, "green")
        header = _header(self)
        if header is not None:
            f(colored(header, colour), flush=True)
        f(colored(_body(self), colour), flush=True)
        if header is not None:
            f(colored("*" * len(header), colour), flush=True)
