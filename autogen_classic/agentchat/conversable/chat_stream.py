"""A chat as a stream of events: ``initiate_chat_stream`` and ``a_initiate_chat_stream``.

The chat runs exactly as ``initiate_chat`` / ``a_initiate_chat`` would, with an ``IOStream`` of
its own that hands every event to the consumer instead of printing it. The events keep their classic
(ag2 0.7.3) classes, as a custom ``IOStream`` receives them; a request for human input arrives as an
``InputRequestMessage``, which the consumer answers with ``event.respond(text)``.

The chat runs on the engine of ``ConversableAgent.run`` (``autogen_classic.io.chat_worker``), one event
ahead of the consumer. Leaving the loop early (``break``, an exception, ``close()``) stops the chat: the
sync stream's worker thread is unblocked with :class:`ChatStreamClosed` at its next event or input and
joined; the async stream's task is cancelled, which cancels a model request in flight.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any, Callable, Optional

from ...io.chat_worker import ChatTask, ChatThread, task_events, thread_events
from ...io.step_controller import StepController
from ...io.thread_io_stream import AsyncThreadIOStream, ChatStreamClosed, ThreadIOStream
from ...messages.print_message import PrintMessage
from ...messages.run_events import InputRequestMessage

__all__ = ["AsyncChatStream", "ChatStream", "ChatStreamClosed"]


class _Classic:
    """The events as the classic classes send them; input requests as ``InputRequestMessage``."""

    takes_run_events = False
    _print_class = PrintMessage
    _request_class = InputRequestMessage
    _answer_field = "_respond"

    def _event(self, message: Any) -> Any:
        return message


class _ClassicThreadStream(_Classic, ThreadIOStream):
    pass


class _ClassicTaskStream(_Classic, AsyncThreadIOStream):
    pass


class ChatStream:
    """The events of one chat, in order; iterate once. ``result`` is the ``ChatResult`` when it ended.

    Use it in a ``for`` loop (leaving the loop stops the chat) or as a context manager.
    """

    def __init__(self, start: Callable[[], Any]) -> None:
        self._start = start
        self._thread: Optional[ChatThread] = None
        self.result: Any = None

    def __iter__(self) -> Iterator[Any]:
        if self._thread is not None:
            raise RuntimeError("A chat stream can be iterated once.")
        stream = _ClassicThreadStream(StepController())  # the chat waits for the consumer after each event
        self._thread = thread = ChatThread(self._start, stream, name="autogen-classic-chat-stream")
        thread.start()
        try:
            yield from thread_events(stream, thread)
        finally:
            thread.close()
        self.result = thread.outcome.result()

    def close(self) -> None:
        """Stop the chat (if it still runs) and wait for its thread to end."""
        if self._thread is not None:
            self._thread.close()

    def __enter__(self) -> "ChatStream":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class AsyncChatStream:
    """(async) The events of one chat; ``async for`` over it. ``result`` is the ``ChatResult`` when it ended.

    Leave the loop with ``break`` inside ``async with stream:`` (or call ``await stream.aclose()``) to
    stop the chat at once; without it the event loop finalises the stream a moment later.
    """

    def __init__(self, start: Callable[[], Any]) -> None:
        self._start = start
        self._task: Optional[ChatTask] = None
        self.result: Any = None

    async def _iterate(self) -> AsyncIterator[Any]:
        self._task = task = ChatTask(self._start, _ClassicTaskStream())
        task.start()
        try:
            async for event in task_events(task.iostream):
                yield event
        finally:
            await self.aclose()
        self.result = task.result()

    def __aiter__(self) -> AsyncIterator[Any]:
        if self._task is not None:
            raise RuntimeError("A chat stream can be iterated once.")
        return self._iterate()

    async def aclose(self) -> None:
        """Stop the chat (if it still runs): its task is cancelled and awaited."""
        if self._task is not None:
            await self._task.aclose()

    async def __aenter__(self) -> "AsyncChatStream":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()
