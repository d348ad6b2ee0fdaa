"""Running a chat for a consumer of its events: on a thread of its own, or as a task of the consumer's loop.

The one engine behind ``initiate_chat_stream``, ``run`` / ``run_iter`` and their async twins. The chat
talks through a ``ThreadIOStream`` (or ``AsyncThreadIOStream``); the consumer reads the events with
:func:`thread_events` / :func:`task_events`, which end at the :data:`END` the worker puts when the chat
returns, fails or is stopped. Closing the worker stops the chat (``ChatStreamClosed`` at its next event
or input; the task is cancelled) and waits for it.
"""

from __future__ import annotations

import asyncio
import contextvars
import queue
import threading
from collections.abc import AsyncIterator, Awaitable, Iterator
from typing import Any, Callable, Optional

from .base import IOStream
from .thread_io_stream import AsyncThreadIOStream, ChatStreamClosed, ThreadIOStream

__all__ = ["END", "ChatTask", "ChatThread", "task_events", "thread_events"]


class _End:
    def __repr__(self) -> str:
        return "END"


END: Any = _End()
"""Put on the event queue when the chat is over."""


class Outcome:
    """How a chat ended: ``("ok", result)``, ``("error", exception)``, ``("closed", None)``; None while it runs."""

    def __init__(self) -> None:
        self.value: Optional[tuple[str, Any]] = None

    def result(self) -> Any:
        """The chat's result; its error raised; None when it was stopped or still runs."""
        if self.value is None:
            return None
        kind, value = self.value
        if kind == "error":
            raise value
        return value


class ChatThread(threading.Thread):
    """A chat (``chat()``) on a daemon thread whose default ``IOStream`` is ``iostream``.

    ``outcome`` says how it ended; ``close()`` stops it and waits for the thread.
    """

    def __init__(self, chat: Callable[[], Any], iostream: ThreadIOStream, name: str = "autogen-classic-chat") -> None:
        super().__init__(name=name, daemon=True)
        self._chat = chat
        self.iostream = iostream
        self.outcome = Outcome()
        self._context = contextvars.copy_context()  # the starter's context (caches, loggers), as a call would see

    def run(self) -> None:
        self._context.run(self._run)

    def _run(self) -> None:
        try:
            with IOStream.set_default(self.iostream):
                self.outcome.value = ("ok", self._chat())
        except ChatStreamClosed:
            self.outcome.value = ("closed", None)
        except BaseException as error:  # noqa: BLE001 - handed to the consumer
            self.outcome.value = ("error", error)
        finally:
            self.iostream.input_stream.put(END)

    def close(self) -> None:
        """Stop the chat (if it still runs) and wait for its thread to end."""
        self.iostream.close()
        if threading.current_thread() is not self:
            while self.is_alive():
                self.join(timeout=0.05)


def thread_events(iostream: ThreadIOStream, thread: Optional[threading.Thread] = None) -> Iterator[Any]:
    """The events of the chat on ``thread``, in order, until it is over.

    Before each wait the chat is let go on (``step``), so a stepped chat runs exactly one event ahead of
    the consumer. Without an ``END`` (a thread of the classic shape), the loop ends when the thread has
    ended and its events are read.
    """
    controller = getattr(iostream, "_step_controller", None)
    events = iostream.input_stream
    while True:
        if controller is not None:
            controller.step()
        try:
            item = events.get(timeout=0.1)
        except queue.Empty:
            if thread is not None and not thread.is_alive() and events.empty():
                return
            continue
        if item is END:
            return
        yield item


class ChatTask:
    """A chat (``chat()``, a coroutine function) as a task of the running loop, with ``iostream`` as its
    default ``IOStream``. ``start()`` in the loop; ``aclose()`` cancels it."""

    def __init__(self, chat: Callable[[], Awaitable[Any]], iostream: AsyncThreadIOStream) -> None:
        self._chat = chat
        self.iostream = iostream
        self.task: Optional[asyncio.Task[Any]] = None

    def start(self) -> None:
        """Start the chat as a task of the running loop."""
        loop = asyncio.get_running_loop()
        self.iostream.bind(loop)

        async def run() -> Any:
            with IOStream.set_default(self.iostream):  # for this task's context only
                return await self._chat()

        self.task = loop.create_task(run(), context=contextvars.copy_context())
        self.task.add_done_callback(lambda _: self.iostream.input_stream.put_nowait(END))

    def result(self) -> Any:
        """The chat's result; its error raised; None when it was stopped or still runs."""
        task = self.task
        if task is None or not task.done() or task.cancelled():
            return None
        error = task.exception()
        if error is not None and not isinstance(error, ChatStreamClosed):
            raise error
        return None if error is not None else task.result()

    async def aclose(self) -> None:
        """Stop the chat (if it still runs): its task is cancelled and awaited."""
        self.iostream.close()
        task = self.task
        if task is not None and not task.done():
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, ChatStreamClosed):
                pass
            except Exception:  # noqa: BLE001 - the chat failed while stopping; nobody reads it any more
                pass


async def task_events(iostream: AsyncThreadIOStream) -> AsyncIterator[Any]:
    """The events of the chat task talking through ``iostream``, in order, until it is over."""
    events = iostream.input_stream
    while True:
        item = await events.get()
        if item is END:
            return
        yield item
