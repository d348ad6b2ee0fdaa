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
    summary_of,
    usage_fields,
    usage_summary_lines,
)
from ..events.helpers import deprecated_by  # noqa: F401 - importable here, as in AG2 Classic 0.14
from .base_message import BaseMessage, wrap_message
from .console_text import printer

__all__ = ["UsageSummaryMessage"]


@wrap_message(event=UsageSummaryEvent)
class UsageSummaryMessage(BaseMessage):
    """A model client's usage summary, with and without cache hits."""

    actual: ActualUsageSummary
    total: TotalUsageSummary
    mode: Mode

    def __init__(
        self, *, uuid: Optional[UUID] = None, actual_usage_summary: Optional[dict[str, Any]] = None,
        total_usage_summary: Optional[dict[str, Any]] = None, mode: Mode = "both", **fields: Any,
    ) -> None:
        fields = usage_fields(actual_usage_summary, total_usage_summary, fields)
        super().__init__(uuid=uuid, mode=mode_name(mode), **fields)

    def print(self, f: Optional[Callable[..., Any]] = None) -> None:
        out = printer(f)
        for line in usage_summary_lines(summary_of(self.actual), summary_of(self.total), self.mode):
            out(line, flush=True)


@wrap_message(event=StreamEvent)
class StreamMessage(BaseMessage):
    """A piece of a streamed model answer, printed as it arrives."""

    content: str

    def print(self, f: Optional[Callable[..., Any]] = None) -> None:
        out = printer(f)
        out(colored(self.content, "green"), end="", flush=True)
