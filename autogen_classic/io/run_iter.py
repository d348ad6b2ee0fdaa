"""Step-by-step run responses (classic path ``autogen.io.run_response``): ``run_iter`` and ``a_run_iter``.

Iterating the response starts the chat on a thread of its own; the chat waits after each event the
consumer stops on (``yield_on``: those event classes; None: every event) until the consumer asks for
the next one. Input requests are always yielded. Leaving the loop (``break``, an exception) stops the
chat and waits for its thread: nothing runs on after the loop.
"""

from __future__ import annotations

import asyncio
import queue
import threading
import weakref
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any, Callable, Optional

from ..events.run_events import ErrorEvent, InputRequestEvent, RunCompletionEvent
from .chat_worker import END
from .run_state import RunState
from .step_controller import StepController
from .parked import RunParked
from .thread_io_stream import InputAnswer, ThreadIOStream

__all__ = ["AsyncRunIterResponse", "RunIterResponse"]

StartThread = Callable[[ThreadIOStream], threading.Thread]


class _Stepped(RunState):
    """What both step-by-step responses share: the stream, the thread, the filtering of events."""

    def __init__(self, start_thread_func: StartThread, yield_on: Optional[Sequence[type]], agents: Sequence[Any]):
        super().__init__()
        self._start_thread_func = start_thread_func
        self._step_controller = StepController(yield_on=yield_on)  # checks yield_on: a clear error now
        self._yield_on = yield_on
        self._iostream = ThreadIOStream(step_controller=self._step_controller)
        self._agents = agents
        self._started = False
        self._thread: Optional[threading.Thread] = None

    def _start(self) -> None:
        if self._started:
            raise RuntimeError("A run_iter() response can be iterated once; call run_iter() again for a new run.")
        self._started = True
        self._thread = self._start_thread_func(self._iostream)
        self._thread.start()

    def _next_item(self) -> Any:
        """Let the chat go on; the next thing it sent, ``END`` when it is over, or None after a short wait."""
        self._step_controller.step()
        try:
            return self._iostream.input_stream.get(timeout=0.1)
        except queue.Empty:
            thread = self._thread
            if thread is not None and not thread.is_alive() and self._iostream.input_stream.empty():
                return END
            return None

    def _over(self, event: Any) -> bool:
        """Whether the run is over at this item (its results taken); an ``ErrorEvent``'s error is raised."""
        if event is END:
            return True
        if isinstance(event, RunCompletionEvent):
            self._complete(event)
            return True
        if isinstance(event, ErrorEvent):
            if isinstance(event.content.error, RunParked):  # parked by the consumer: over, holding the request
                self._park(event.content.error.parked)
                return True
            self._done = True
            raise event.content.error
        return False

    def _shown(self, event: Any) -> bool:
        """Whether the consumer is shown this event (input requests always, made answerable)."""
        if event is None:
            return False
        if isinstance(event, InputRequestEvent):
            if event.content.respond is None:
                event.content.respond = InputAnswer(self._iostream._output_stream.put, event.content.prompt)
            return True
        return self._step_controller.should_block(event)

    def _stop(self) -> None:
        """Stop the chat (if it still runs) and wait for its thread."""
        self._step_controller.terminate()
        self._iostream.close()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            while thread.is_alive():
                thread.join(timeout=0.05)

    @property
    def iostream(self) -> ThreadIOStream:
        """The stream the chat talks through."""
        return self._iostream

    @property
    def agents(self) -> Sequence[Any]:
        """The agents of the run."""
        return self._agents


class RunIterResponse(_Stepped):
    """The response of ``run_iter``: ``for event in response`` steps through the run.

    Args:
        start_thread_func: makes (without starting it) the thread that runs the chat on the given stream.
        yield_on: the event classes to yield; None for every event.
        agents: the agents of the run.
    """

    def __iter__(self) -> Iterator[Any]:
        return self._generator()

    def _generator(self) -> Iterator[Any]:
        self._start()
        try:
            while not self._over(event := self._next_item()):
                if self._shown(event):
                    yield event
        finally:
            self._stop()


class AsyncRunIterResponse(_Stepped):
    """The response of ``a_run_iter``: ``async for event in response`` steps through the run.

    The chat runs on a thread of its own (with an event loop of its own); the consumer's loop is never
    blocked. Leave the loop inside ``async with response:`` (or call ``await response.aclose()``) to stop
    the chat at once; otherwise the event loop finalises the iteration a moment later. Arguments as for
    ``RunIterResponse``.
    """

    def __init__(self, start_thread_func: StartThread, yield_on: Optional[Sequence[type]], agents: Sequence[Any]):
        super().__init__(start_thread_func, yield_on, agents)
        # A weak reference: a loop left with ``break`` drops the iteration, and the loop's finaliser stops the chat.
        self._iteration: Optional[weakref.ref[Any]] = None

    def __aiter__(self) -> AsyncIterator[Any]:
        iteration = self._generator()
        self._iteration = weakref.ref(iteration)
        return iteration

    async def _generator(self) -> AsyncIterator[Any]:
        self._start()
        loop = asyncio.get_running_loop()
        try:  # each short wait in a worker thread: the loop stays free, and no worker is left waiting
            while not self._over(event := await loop.run_in_executor(None, self._next_item)):
                if self._shown(event):
                    yield event
        finally:
            await asyncio.to_thread(self._stop)

    async def aclose(self) -> None:
        """Stop the chat (if it still runs) and wait for its thread."""
        iteration = self._iteration() if self._iteration is not None else None
        if iteration is not None:
            await iteration.aclose()
        else:
            await asyncio.to_thread(self._stop)

    async def __aenter__(self) -> "AsyncRunIterResponse":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()
