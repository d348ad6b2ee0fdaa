"""Launching a chat for a consumer of its events: the one launcher behind every run form.

Two-agent runs (``run``, ``a_run``, ``run_iter``, ``a_run_iter``) and group runs (``run_group_chat`` and its
twins) hand a :class:`RunLauncher` their chat, in its sync and async forms, and a reading of its outcome. The
launcher makes the stream and the response, runs the chat on the engine of ``autogen_classic.io.chat_worker``
(a thread, a task of the running loop, or a stepped thread) and ends its events with a ``RunCompletionEvent``,
or an ``ErrorEvent`` when the chat failed. ``sequential_run`` uses its pieces (:func:`completion_event`,
:func:`note_human_input`, :func:`started`) for its queue of chats.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Sequence
from typing import Any, Callable, Optional

from ....events.run_events import ErrorEvent, RunCompletionEvent
from ....io.chat_worker import ChatTask, ChatThread
from ....io.chat_response import AsyncRunResponse, RunDriver, RunResponse
from ....io.run_iter import AsyncRunIterResponse, RunIterResponse
from ....io.thread_io_stream import AsyncThreadIOStream, ThreadIOStream

__all__ = ["RunLauncher", "completion_event", "note_human_input", "started"]

Report = Callable[[Any], tuple[Any, Optional[str], Any]]
"""What a chat's outcome says: its ``ChatResult``, the name of its last speaker, its context variables."""

Held = Optional["weakref.ref[Any]"]


def summary_text(summary: Any) -> str:
    """A chat's summary as the completion event's text (a message dict, as some models answer, reads as its
    content)."""
    if isinstance(summary, dict):
        return summary_text(summary.get("content", ""))
    return "" if summary is None else summary if isinstance(summary, str) else str(summary)


def completion_event(result: Any, last_speaker: Optional[str], context_variables: Any = None) -> Any:
    """The ``RunCompletionEvent`` of a chat that ended with ``result`` (its ``ChatResult``)."""
    # The history as it is now: the agents' stored messages are the same list, which a later chat clears.
    return RunCompletionEvent.build(summary=summary_text(result.summary), history=list(result.chat_history or []),
                                    cost=result.cost, last_speaker=last_speaker, context_variables=context_variables)


def note_human_input(held: Held, result: Any) -> None:
    """Give the response (held weakly: the chat keeps no response alive) the human input of its chat."""
    response = held() if held is not None else None
    if response is not None:
        response.note_human_input(result.human_input)


def started(worker: Any) -> RunDriver:
    """The driver of a response whose run is already going (as in AG2 Classic, from the call on)."""
    return RunDriver(lambda: worker, None, False, lambda result: None)


class RunLauncher:
    """One chat, launched for a consumer of its events in any of the run forms.

    Args:
        chat: runs the chat here and returns its outcome.
        a_chat: (async) the same, awaited.
        report: reads an outcome: its ``ChatResult``, the last speaker's name, the context variables.
        agents: the agents of the run (``response.agents``).
        name: the name of the run's thread (``"-iter"`` added for step-by-step runs).
    """

    def __init__(self, chat: Callable[[], Any], a_chat: Callable[[], Awaitable[Any]], report: Report,
                 agents: Sequence[Any], name: str) -> None:
        self.chat = chat
        self.a_chat = a_chat
        self.report = report
        self.agents = agents
        self.name = name

    # ----------------------------------------------------------- what the worker runs
    def _failed(self, iostream: ThreadIOStream, error: Exception) -> None:
        iostream.send(ErrorEvent(error=error))  # handed to the consumer, who raises it

    def _completed(self, iostream: ThreadIOStream, outcome: Any, held: Held) -> Any:
        result, last_speaker, context_variables = self.report(outcome)
        note_human_input(held, result)
        iostream.send(completion_event(result, last_speaker, context_variables))
        return result

    def _target(self, iostream: ThreadIOStream, held: Held, chat: Callable[[], Any]) -> Callable[[], Any]:
        def target() -> Any:
            try:
                outcome = chat()
            except Exception as error:  # noqa: BLE001 - handed to the consumer as an event
                return self._failed(iostream, error)
            return self._completed(iostream, outcome, held)

        return target

    def _a_target(self, iostream: AsyncThreadIOStream, held: Held) -> Callable[[], Awaitable[Any]]:
        async def target() -> Any:
            try:
                outcome = await self.a_chat()
            except Exception as error:  # noqa: BLE001 - handed to the consumer as an event
                return self._failed(iostream, error)
            return self._completed(iostream, outcome, held)

        return target

    def _classic_speaker(self, result: Any) -> Optional[str]:
        return self.report(result)[1]

    # ----------------------------------------------------------- the run forms
    def run(self, at_once: bool = False, classic_reads: bool = False) -> RunResponse:
        """A ``RunResponse`` whose chat runs on a thread of its own.

        Args:
            at_once: start the chat now (it has no classic way then); else when the events are first asked for,
                or the classic way (here, on the console) when the response is dropped unused or read first.
            classic_reads: whether reading ``summary`` / ``cost`` first runs the chat the classic way.
        """
        iostream = ThreadIOStream()
        response = RunResponse(iostream, agents=self.agents)
        target = self._target(iostream, weakref.ref(response), self.chat)

        def start() -> ChatThread:
            thread = ChatThread(target, iostream, name=self.name)
            thread.start()
            return thread

        return self._drive(response, start, self.chat, at_once, classic_reads)

    def a_run(self, at_once: bool = False, classic_reads: bool = False) -> AsyncRunResponse:
        """An ``AsyncRunResponse`` whose chat runs as a task of the running loop; arguments as for :meth:`run`."""
        iostream = AsyncThreadIOStream()
        response = AsyncRunResponse(iostream, agents=self.agents)
        target = self._a_target(iostream, weakref.ref(response))

        def start() -> ChatTask:
            task = ChatTask(target, iostream)
            task.start()
            return task

        return self._drive(response, start, self.a_chat, at_once, classic_reads)

    def _drive(self, response: Any, start: Callable[[], Any], classic: Callable[[], Any], at_once: bool,
               classic_reads: bool) -> Any:
        if at_once:
            return response.drive(started(start()))
        return response.drive(RunDriver(start, classic, classic_reads, self._classic_speaker))

    def run_here(self) -> RunResponse:
        """ag2 0.7.3's run: the chat runs here at once, on the current console; its finished response."""
        return self._finished(RunResponse(ThreadIOStream(), agents=self.agents), self.chat())

    async def a_run_here(self) -> AsyncRunResponse:
        """(async) ag2 0.7.3's ``a_run``: see :meth:`run_here`."""
        return self._finished(AsyncRunResponse(AsyncThreadIOStream(), agents=self.agents), await self.a_chat())

    def _finished(self, response: Any, outcome: Any) -> Any:
        result, last_speaker, _ = self.report(outcome)
        response._complete_from(result, last_speaker)
        return response

    def run_iter(self, yield_on: Optional[Sequence[type]]) -> RunIterResponse:
        """A ``RunIterResponse``: the chat runs on a stepped thread once the response is iterated."""
        return RunIterResponse(start_thread_func=self._stepped(self.chat), yield_on=yield_on, agents=self.agents)

    def a_run_iter(self, yield_on: Optional[Sequence[type]]) -> AsyncRunIterResponse:
        """An ``AsyncRunIterResponse``: the async chat runs on a stepped thread with an event loop of its own."""
        return AsyncRunIterResponse(start_thread_func=self._stepped(lambda: asyncio.run(self.a_chat())),  # type: ignore[arg-type]
                                    yield_on=yield_on, agents=self.agents)

    def _stepped(self, chat: Callable[[], Any]) -> Callable[[ThreadIOStream], ChatThread]:
        # ``start_thread_func`` of a step-by-step response: a thread (not started) running ``chat`` on its stream.
        def create_thread(iostream: ThreadIOStream) -> ChatThread:
            return ChatThread(self._target(iostream, None, chat), iostream, name=f"{self.name}-iter")

        return create_thread

