"""The protocols of event processors (classic ``autogen.io.processors.base``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..chat_response import AsyncRunResponseProtocol, RunResponseProtocol

__all__ = ["AsyncEventProcessorProtocol", "EventProcessorProtocol"]


class EventProcessorProtocol(Protocol):
    """Consumes the events of a run's response (``response.events``)."""

    def process(self, response: "RunResponseProtocol") -> None:
        """Consume every event of ``response``."""
        ...


class AsyncEventProcessorProtocol(Protocol):
    """(async) Consumes the events of an async run's response."""

    async def process(self, response: "AsyncRunResponseProtocol") -> None:
        """Consume every event of ``response``."""
        ...
