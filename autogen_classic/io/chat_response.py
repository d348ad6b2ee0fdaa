"""The response of a run: its events, and its results once it is over (classic path ``autogen.io.run_response``).

``ConversableAgent.run`` returns a :class:`RunResponse`: iterate ``response.events`` (answering each
``InputRequestEvent`` with ``event.content.respond(text)``) or call ``response.process()`` to print them;
``summary``, ``messages``, ``cost``, ``last_speaker`` and ``context_variables`` are set when the run is
over. ``a_run`` returns an :class:`AsyncRunResponse` (``async for``, ``await response.process()``,
``await response.summary``); ``run_iter`` / ``a_run_iter`` the step-by-step responses of :mod:`.run_iter`.

A response of this package starts its chat when its events are first asked for. Until then it is a
promise kept the classic way: when it is dropped unused, or when ag2 0.7.3 code reads it as the
``ChatResult`` that 0.7.3's ``run`` returned (``chat_history``, ``human_input``; ``summary`` and ``cost``
for a run without a recipient), the chat runs there and then, on the current console, and the response
holds its results. How the chat starts (and its classic way) comes from the run's launcher, as a
:class:`RunDriver`: this module sits in ``io``, below the agents, and names them only in annotations.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import threading
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Optional, Protocol, Union, runtime_checkable

from ..events.run_events import ErrorEvent, InputRequestEvent, RunCompletionEvent
from .chat_worker import ChatTask, task_events, thread_events
from .parked import RunParked
from .processors import (
    AsyncConsoleEventProcessor,
    AsyncEventProcessorProtocol,
    ConsoleEventProcessor,
    EventProcessorProtocol,
)
from .run_cost import Cost
from .run_state import Message, RunState, awaitable, awaited
from .thread_io_stream import AsyncThreadIOStream, InputAnswer, ThreadIOStream

if TYPE_CHECKING:
    from ..tools.tool import Tool

__all__ = [
    "AsyncRunResponse",
    "AsyncRunResponseProtocol",
    "RunDriver",
    "RunInfoProtocol",
    "RunResponse",
    "RunResponseProtocol",
]

logger = logging.getLogger(__name__)


class _Collection:
    """Whether the garbage collector is running: a response it frees (one caught in a reference cycle) must not
    start a chat in the middle of whatever code the collection interrupted."""

    running = False

    @classmethod
    def watch(cls, phase: str, info: dict[str, Any]) -> None:
        cls.running = phase == "start"


gc.callbacks.append(_Collection.watch)


def _dropped_unused(kind: str) -> bool:
    """Whether a response freed unused may run its chat now (never at interpreter exit or inside a collection)."""
    if sys.is_finalizing():
        return False
    if _Collection.running:
        logger.warning(f"A {kind}() response was freed unused by the garbage collector: its chat did not run. "
                       "Consume its events (response.process()) to run it.")
        return False
    return True


@runtime_checkable
class RunInfoProtocol(Protocol):
    """The identity of a run."""

    @property
    def uuid(self) -> Any: ...

    @property
    def above_run(self) -> Optional["RunResponseProtocol"]: ...


@runtime_checkable
class RunResponseProtocol(RunInfoProtocol, Protocol):
    """A run's response: its events, and its results once it is over."""

    @property
    def events(self) -> Iterable[Any]: ...

    @property
    def messages(self) -> Iterable[Message]: ...

    @property
    def summary(self) -> Optional[str]: ...

    @property
    def context_variables(self) -> Any: ...

    @property
    def last_speaker(self) -> Optional[str]: ...

    @property
    def cost(self) -> Optional[Cost]: ...

    def process(self, processor: Optional[EventProcessorProtocol] = None) -> None: ...

    def set_ui_tools(self, tools: list["Tool"]) -> None: ...


@runtime_checkable
class AsyncRunResponseProtocol(RunInfoProtocol, Protocol):
    """An async run's response: its events (``async for``) and its results (awaited) once it is over."""

    @property
    def events(self) -> AsyncIterable[Any]: ...

    @property
    async def messages(self) -> Iterable[Message]: ...

    @property
    async def summary(self) -> Optional[str]: ...

    @property
    async def context_variables(self) -> Any: ...

    @property
    async def last_speaker(self) -> Optional[str]: ...

    @property
    async def cost(self) -> Optional[Cost]: ...

    async def process(self, processor: Optional[AsyncEventProcessorProtocol] = None) -> None: ...

    def set_ui_tools(self, tools: list["Tool"]) -> None: ...


def _answerable(event: Any, put: Callable[[str], None]) -> Any:
    # An input request from a stream that did not make it answerable (a stream built by hand).
    if isinstance(event, InputRequestEvent) and event.content.respond is None:
        event.content.respond = InputAnswer(put, event.content.prompt)
    return event


class RunDriver:
    """How this package's ``run`` drives a response (a response built by hand has none: its chat runs already).

    Args:
        start: starts the chat for the consumer (a thread, or a task of the running loop) and returns it.
        classic: runs the chat here, on the current console, and returns its ``ChatResult``; None for a chat
            that has no classic way (a response dropped unused then leaves it to ``start``'s thread or task).
        classic_reads: whether reading ``summary`` / ``cost`` first runs the chat (a call 0.7.3 code makes).
        last_speaker: the name of the last speaker of a ``ChatResult``.
    """

    def __init__(self, start: Callable[[], Any], classic: Optional[Callable[[], Any]], classic_reads: bool,
                 last_speaker: Callable[[Any], Optional[str]]) -> None:
        self.start = start
        self.classic = classic
        self.classic_reads = classic_reads
        self.last_speaker = last_speaker


class _DrivenResponse(RunState):
    """What both responses of ``run`` / ``a_run`` share: the stream, the driver, the reading of each event, and
    the ``ChatResult`` reads of ag2 0.7.3.

    Args:
        iostream: the stream the run's chat talks through.
        agents: the agents of the run.
    """

    def __init__(self, iostream: Union[ThreadIOStream, AsyncThreadIOStream], agents: Sequence[Any]) -> None:
        super().__init__()
        self.iostream = iostream
        self.agents = agents
        self._driver: Optional[RunDriver] = None
        self._worker: Any = None  # the thread or task the driver started
        self._started = False

    def drive(self, driver: RunDriver) -> Any:
        """Let ``driver`` start the chat when the events are first asked for; returns this response."""
        self._driver = driver
        return self

    def _begin(self) -> None:
        if not self._started:
            self._started = True
            if self._driver is not None and not self._done:
                self._worker = self._driver.start()

    def _received(self, event: Any) -> Any:
        """The event as the consumer gets it (an input request answerable; the run's results taken from its
        completion)."""
        event = _answerable(event, self.iostream._output_stream.put)
        if isinstance(event, RunCompletionEvent):
            self._complete(event)
        return event

    def _parked_end(self, event: Any) -> bool:
        """Whether ``event`` ends a run that parked at an input request (not yielded: the run holds the request)."""
        if isinstance(event, ErrorEvent) and isinstance(event.content.error, RunParked):
            self._park(event.content.error.parked)
            return True
        return False

    def _over(self, event: Any) -> bool:
        """Whether the events end with this one, yielded; after an ``ErrorEvent`` its error is raised."""
        if isinstance(event, ErrorEvent):
            self._done = True
            raise event.content.error
        return isinstance(event, RunCompletionEvent)

    def _ensure_over(self, name: str) -> None:
        """Before a ``ChatResult`` read (``name``): the run is over, or made to be."""

    @property
    def chat_history(self) -> list[Message]:
        """The chat history, as a ``ChatResult`` has it (a finished run)."""
        self._ensure_over("chat_history")
        return list(self._messages)

    @property
    def human_input(self) -> Optional[list[str]]:
        """The human input given, as a ``ChatResult`` has it (a finished run)."""
        self._ensure_over("human_input")
        return self._human_input

    @property
    def chat_id(self) -> None:
        """As a ``ChatResult`` of a single chat has it: None."""
        return None


class RunResponse(_DrivenResponse):
    """The response of ``ConversableAgent.run``: the run's events, then its results.

    Reading ``chat_history`` or ``human_input`` (as of a ``ChatResult``) runs the chat to its end first, if it
    has not.

    Args:
        iostream: the stream the run's chat talks through.
        agents: the agents of the run.
    """

    iostream: ThreadIOStream

    @property
    def events(self) -> Iterable[Any]:
        """The run's events, in order, until its ``RunCompletionEvent`` (an ``ErrorEvent`` is followed by its
        error raised). Asking for them starts the run."""
        self._begin()
        return self._generator()

    def _generator(self) -> Iterator[Any]:
        if self._done:  # over (or run the classic way, its events printed): nothing more comes
            return
        for event in thread_events(self.iostream, self._worker):
            if self._parked_end(event):
                return
            yield self._received(event)
            if self._over(event):
                return

    def process(self, processor: Optional[EventProcessorProtocol] = None) -> None:
        """Hand the events to ``processor`` (default: a ``ConsoleEventProcessor``, which prints them and asks the
        terminal for input)."""
        (processor or ConsoleEventProcessor()).process(self)

    def _before_read(self) -> None:
        if self._driver is not None and self._driver.classic_reads:
            self._finish()

    def _ensure_over(self, name: str) -> None:
        self._finish()

    def _finish(self) -> None:
        """Run the chat to its end if its events were not consumed: the classic way if it has not started,
        else the rest of its events on the console."""
        if self._done or self._driver is None:
            return
        if not self._started:
            self._started = True
            classic = self._driver.classic
            if classic is not None:
                result = classic()
                self._complete_from(result, self._driver.last_speaker(result))
                return
            self._worker = self._driver.start()
        self.process()

    def __del__(self) -> None:
        if getattr(self, "_driver", None) is None:
            return
        if not self._started:
            # Dropped unused: the chat still runs, as the classic run did (a response with no classic way, one of
            # a sequential run, leaves its chat to the run's thread, which runs it anyway).
            if self._driver.classic is not None and _dropped_unused("run"):
                self._finish()
        elif not self._done:
            self.iostream.close()  # nobody reads the events any more: the chat stops

    def __repr__(self) -> str:
        if self._driver is None or not self._driver.classic_reads:
            return object.__repr__(self)
        self._finish()  # shown at a prompt, as 0.7.3's ChatResult was: the chat has run
        return (f"RunResponse(chat_history={list(self._messages)!r}, summary={self._summary!r}, "
                f"cost={self._cost!r}, human_input={self._human_input!r})")


class AsyncRunResponse(_DrivenResponse):
    """The response of ``ConversableAgent.a_run``: ``async for event in response.events``, then the results
    (``await response.summary``; a finished run also gives them without ``await``). Its ``chat_history`` and
    ``human_input`` are those of a finished run. Arguments as for ``RunResponse``.
    """

    iostream: AsyncThreadIOStream

    @property
    def events(self) -> AsyncIterable[Any]:
        """The run's events (``async for``), until its ``RunCompletionEvent``; asking for them starts the run."""
        return self._generator()

    async def _generator(self) -> AsyncIterator[Any]:
        self._begin()  # here, in the loop: the chat's task is made in it
        if self._done:  # over (or run the classic way, its events printed): nothing more comes
            return
        async for event in task_events(self.iostream):
            if self._parked_end(event):
                return
            yield self._received(event)
            if self._over(event):
                return

    async def process(self, processor: Optional[AsyncEventProcessorProtocol] = None) -> None:
        """Hand the events to ``processor`` (default: an ``AsyncConsoleEventProcessor``)."""
        await (processor or AsyncConsoleEventProcessor()).process(self)

    @property
    def messages(self) -> Any:
        """The chat history (when the run is over); awaitable."""
        return awaitable(list(self._messages))

    summary = awaited("_summary", "The summary (when the run is over); awaitable.")
    context_variables = awaited("_context_variables", "The context variables (when the run is over); awaitable.")
    last_speaker = awaited("_last_speaker", "The name of the agent that spoke last (when the run is over); awaitable.")
    cost = awaited("_cost", "The cost (when the run is over; it also reads as the classic cost dict); awaitable."
                   ).setter(RunState._set_cost)

    @property
    def parked(self) -> Any:
        """The ParkedRun the run parked at, once its events ended (None for a run that ended); read without
        ``await``."""
        return self._parked

    def _ensure_over(self, name: str) -> None:
        if not self._done and self._driver is not None:
            raise RuntimeError(
                f"The run has not finished, so it has no {name} yet: consume its events first "
                f"(await response.process(), or async for event in response.events), then read response.{name}."
            )

    def __del__(self) -> None:
        if getattr(self, "_driver", None) is None:
            return
        if not self._started and self._driver.classic is not None:
            if _dropped_unused("a_run"):
                _run_dropped(self._driver.classic)  # dropped unused: the chat still runs, as the classic run did
        elif self._worker is not None and not self._done:
            self.iostream.close()


_dropped: set["asyncio.Task[Any]"] = set()


def _run_dropped(classic: Callable[[], Awaitable[Any]]) -> None:
    """Run an unused async run's chat as a task of the running loop (the classic way, on the console)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        logger.warning("An a_run() response was dropped unused outside an event loop: its chat did not run.")
        return
    task = loop.create_task(classic())
    _dropped.add(task)

    def done(task: "asyncio.Task[Any]") -> None:
        _dropped.discard(task)
        if not task.cancelled() and task.exception() is not None:
            logger.error("The chat of an a_run() response dropped unused failed", exc_info=task.exception())

    task.add_done_callback(done)
