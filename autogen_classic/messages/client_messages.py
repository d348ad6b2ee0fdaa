"""The events of the model client (classic ``autogen.messages.client_messages``): usage and streamed text.

The classic shapes of ``autogen.events.client_events``' events; the usage helpers live there.
"""

from __future__ import annotations

from typing import Any, Callable, Optional
from uuid import UUID

from termcolor import colored

from ..events.client_events import (  # noqa: F401 - the classic path of these names
    ActualUsageSummary,
    _change_usage_summary_format,
    Mode,
    ModelUsageSummary,
    StreamEvent,
    TotalUsageSummary,
    UsageSummaryEvent,
    mode_name,
    print_usage,
    summary_of,
    usage_fields,
    usage_summary_lines,
)
from ..events.base_event import content_class
from ..events.helpers import deprecated_by  # noqa: F401 - importable here, as in AG2 Classic 0.14
from .base_message import BaseMessage, console_face, wrap_message
from .console_text import printer

__all__ = ["UsageSummaryMessage"]


@wrap_message(event=UsageSummaryEvent)
class UsageSummaryMessage(content_class(UsageSummaryEvent), BaseMessage):  # type: ignore[misc]
    """A model client's usage summary, with and without cache hits."""

    def __init__(
        self, *, uuid: Optional[UUID] = None, actual_usage_summary: Optional[dict[str, Any]] = None,
        total_usage_summary: Optional[dict[str, Any]] = None, mode: Mode = "both", **fields: Any,
    ) -> None:
        try:  # print_usage_summary's list forms (["actual", "total"]) name one mode
            mode = mode_name(mode)
        except ValueError:
            pass  # anything else fails validation, as any bad field value does
        super().__init__(uuid=uuid, actual_usage_summary=actual_usage_summary, total_usage_summary=total_usage_summary,
                         mode=mode, **fields)

    def print(self, f: Optional[Callable[..., Any]] = None) -> None:
        content_class(UsageSummaryEvent).print(self, printer(f))


@wrap_message(event=StreamEvent)
class StreamMessage(BaseMessage):
    """A piece of a streamed model answer, printed as it arrives."""

    content: str

    def print(self, f: Optional[Callable[..., Any]] = None) -> None:
        # ag2 0.7.3's calls (green on, the piece, then colour off with a line break), as ``StreamEvent``'s.
        content_class(StreamEvent).print(self, printer(f))


class _StreamConsole(content_class(StreamMessage)):  # type: ignore[misc]
    def print(self, f: Optional[Callable[..., Any]] = None) -> None:
        # The package's console keeps a streamed answer on one line (docs/migrating.md, "Streaming").
        printer(f)(colored(self.content, "green"), end="", flush=True)


StreamConsoleMessage = console_face(StreamMessage, _StreamConsole, "StreamConsoleMessage")
"""What the package sends for each streamed piece: a ``StreamMessage`` printing it without a line break."""
