"""``PrintMessage``: a plain line of text, for everything printed that is not a chat event of its own."""

from __future__ import annotations

from typing import Any, Callable, Optional

from ..events.base_event import content_class
from ..events.helpers import deprecated_by  # noqa: F401 - importable here, as in AG2 Classic 0.14
from ..events.print_event import PrintEvent
from .base_message import BaseMessage, wrap_message
from .console_text import printer

__all__ = ["PrintMessage"]


@wrap_message(event=PrintEvent)
class PrintMessage(content_class(PrintEvent), BaseMessage):  # type: ignore[misc]
    """What ``print(*objects, sep=sep, end=end)`` would show, as an event."""

    def print(self, f: Optional[Callable[..., Any]] = None) -> None:
        # ``PrintEvent``'s line, with builtin ``print`` by default as in ag2 0.7.3.
        content_class(PrintEvent).print(self, printer(f))
