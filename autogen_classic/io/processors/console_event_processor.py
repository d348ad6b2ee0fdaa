"""The console as an event processor (classic ``autogen.io.processors.console_event_processor``).

Every event is printed (``event.print()``, through the ``ag2.event.processor`` logger on standard
output); an input request is asked at the terminal (``input``, or ``getpass`` for a password) and
answered with what was typed.
"""

from __future__ import annotations

import asyncio
import getpass
import inspect
from typing import TYPE_CHECKING, Any

from ...events.base_event import BaseEvent  # noqa: F401 - importable here, as in AG2 Classic 0.14
from ...events.run_events import InputRequestEvent

if TYPE_CHECKING:
    from ..chat_response import AsyncRunResponseProtocol, RunResponseProtocol

__all__ = ["AsyncConsoleEventProcessor", "ConsoleEventProcessor"]


def _ask(prompt: str, password: bool) -> str:
    if password:
        return getpass.getpass(prompt if prompt != "" else "Password: ")
    return input(prompt)


class ConsoleEventProcessor:
    """Prints each event of a run and asks the terminal for the answers to its input requests."""

    def process(self, response: "RunResponseProtocol") -> None:
        """Handle every event of ``response`` until the run is over."""
        for event in response.events:
            self.process_event(event)

    def process_event(self, event: Any) -> None:
        """Print ``event``; an input request is asked at the terminal and answered instead."""
        if isinstance(event, InputRequestEvent):
            event.content.respond(_ask(event.content.prompt, event.content.password))
        else:
            event.print()


class AsyncConsoleEventProcessor:
    """(async) Prints each event of a run; input requests are asked at the terminal off the event loop."""

    async def process(self, response: "AsyncRunResponseProtocol") -> None:
        """Handle every event of ``response`` until the run is over."""
        async for event in response.events:
            await self.process_event(event)

    async def process_event(self, event: Any) -> None:
        """Print ``event``; an input request is asked at the terminal (in a worker thread) and answered."""
        if isinstance(event, InputRequestEvent):
            answer = await asyncio.to_thread(_ask, event.content.prompt, event.content.password)
            result = event.content.respond(answer)
            if inspect.isawaitable(result):
                await result
        else:
            event.print()
