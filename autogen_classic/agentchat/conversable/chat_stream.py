"""A chat as a stream of events: ``initiate_chat_stream`` and ``a_initiate_chat_stream``.

The chat runs exactly as ``initiate_chat`` / ``a_initiate_chat`` would, with an ``IOStream`` of
its own that hands every event to the consumer instead of printing it. A request for human
input arrives as an ``InputRequestMessage``; the consumer answers with ``event.respond(text)``.

Leaving the loop early (``break``, an exception, ``close()``) stops the chat: the sync stream's
worker thread is unblocked with :class:`ChatStreamClosed` at its next event or input and joined;
the async stream's task is cancelled, which cancels a model request in flight.
"""

from __future__ import annotations

import asyncio
import contextvars
import queue
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any, Callable, Optional

from ...io import IOStream
from ...messages.print_message import PrintMessage
from ...messages.run_events import InputRequestMessage

__all__ = ["AsyncChatStream", "ChatStream", "ChatStreamClosed"]


class ChatStreamClosed(BaseException):
    """Raised inside a streamed chat when its consumer stopped reading; it ends the chat.

    A ``BaseException`` (like ``KeyboardInterrupt``), so a reply function's ``except Exception`` does
    not swallow it.
    """


_DONE = object()


class _Forward:
    """The ``IOStream`` of a streamed chat: events go to ``put``, input waits for the consumer's answer."""

    def __init__(self, put: Callable[[Any], None], closed: threading.Event) -> None:
        self._put = put
        self._closed = closed

    def _check(self) -> None:
        if self._closed.is_set():
            raise ChatStreamClosed("the chat stream was closed by its consumer")

    def print(self, *objects: Any, sep: str = " ", end: str = "\n", flush: bool = False) -> None:
        self.send(PrintMessage(*objects, sep=sep, end=end))

    def send(self, message: Any) -> None:
        self._check()
        self._put(message)
        self._check()

    def input(self, prompt: str = "", *, password: bool = False) -> str:
        self._check()
        answers: queue.Queue[Any] = queue.Queue(maxsize=1)
        request = InputRequestMessage(prompt=prompt, password=password)
        request.content._respond = answers.put_nowait
        self._put(request)
        while True:  # wake up now and then to notice a closed stream
            try:
                answer = answers.get(timeout=0.1)
            except queue.Empty:
                self._check()
                continue
            if isinstance(answer, BaseException):
                raise answer
            return str(answer)


class ChatStream:
    """The events of one chat, in order; iterate once. ``result`` is the ``ChatResult`` when it ended.

    Use it in a ``for`` loop (leaving the loop stops the chat) or as a context manager.
    """

    def __init__(self, start: Callable[[], Any]) -> None:
        self._start = start
        self._events: queue.Queue[Any] = queue.Queue(maxsize=1)  # the chat runs at most one event ahead
        self._closed = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._outcome: list[Any] = []
        self.result: Any = None

    def _run(self) -> None:
        stream = _Forward(self._put, self._closed)
        try:
            with IOStream.set_default(stream):
                self._outcome.append(("ok", self._start()))
        except ChatStreamClosed:
            self._outcome.append(("closed", None))
        except BaseException as error:  # noqa: BLE001 - handed to the consumer
            self._outcome.append(("error", error))
        finally:
            self._put(_DONE, final=True)

    def _put(self, item: Any, final: bool = False) -> None:
        while True:
            if self._closed.is_set() and not final:
                raise ChatStreamClosed("the chat stream was closed by its consumer")
            try:
                self._events.put(item, timeout=0.1)
                return
            except queue.Full:
                if self._closed.is_set() and final:
                    return

    def __iter__(self) -> Iterator[Any]:
        if self._thread is not None:
            raise RuntimeError("A chat stream can be iterated once.")
        self._thread = threading.Thread(target=self._run, name="autogen-classic-chat-stream", daemon=True)
        self._thread.start()
        try:
            while True:
                item = self._events.get()
                if item is _DONE:
                    break
                yield item
        finally:
            self.close()
        kind, value = self._outcome[0] if self._outcome else ("closed", None)
        if kind == "error":
            raise value
        self.result = value

    def close(self) -> None:
        """Stop the chat (if it still runs) and wait for its thread to end."""
        self._closed.set()
        thread = self._thread
        while thread is not None and thread.is_alive():
            try:  # unblock a worker waiting to hand over an event
                self._events.get(timeout=0.05)
            except queue.Empty:
                pass
            thread.join(timeout=0.05)

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
        self._closed = threading.Event()
        self._task: Optional[asyncio.Task[Any]] = None
        self.result: Any = None

    async def _iterate(self) -> AsyncIterator[Any]:
        loop = asyncio.get_running_loop()
        events: asyncio.Queue[Any] = asyncio.Queue()

        def put(item: Any) -> None:
            # Called from the chat (this loop) or from the executor thread asking for input.
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if running is loop:
                events.put_nowait(item)
            else:
                loop.call_soon_threadsafe(events.put_nowait, item)

        stream = _Forward(put, self._closed)

        async def run() -> Any:
            with IOStream.set_default(stream):  # for this task's context only
                return await self._start()

        self._task = loop.create_task(run(), context=contextvars.copy_context())
        self._task.add_done_callback(lambda _: events.put_nowait(_DONE))
        try:
            while True:
                item = await events.get()
                if item is _DONE:
                    break
                yield item
        finally:
            await self.aclose()
        if self._task.cancelled():
            return
        error = self._task.exception()
        if error is not None:
            raise error
        self.result = self._task.result()

    def __aiter__(self) -> AsyncIterator[Any]:
        if self._task is not None:
            raise RuntimeError("A chat stream can be iterated once.")
        return self._iterate()

    async def aclose(self) -> None:
        """Stop the chat (if it still runs): its task is cancelled and awaited."""
        self._closed.set()
        task = self._task
        if task is not None and not task.done():
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, ChatStreamClosed):
                pass
            except Exception:  # noqa: BLE001 - the chat failed while stopping; nobody reads it any more
                pass

    async def __aenter__(self) -> "AsyncChatStream":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()

