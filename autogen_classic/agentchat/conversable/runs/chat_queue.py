"""The chats of ``sequential_run`` / ``a_sequential_run``: one after another on one thread or task, each talking
through the stream of its own response (the run of ``initiate_chats``, with carryover)."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Iterator, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, Optional

from ....events.chat_events import PostCarryoverProcessingEvent
from ....events.run_events import ErrorEvent
from ....exception_utils import InvalidArgumentTypeError
from ....io.base import IOStream
from ....io.chat_worker import END, ChatTask, ChatThread
from ....io.chat_response import AsyncRunResponse, RunResponse
from ....io.thread_io_stream import AsyncThreadIOStream, ChatStreamClosed, ThreadIOStream
from ...chat import _chat_kwargs, _check_queue, carried_over
from ..chat_driver import _with_sender
from .launcher import completion_event, note_human_input, started

if TYPE_CHECKING:
    from ...chat import ChatResult

__all__ = ["ChatQueueRun", "speaker_name"]


def speaker_name(first: Any, other: Any, result: "ChatResult") -> Optional[str]:
    """The name of the agent that spoke last in the chat ``first`` started with ``other``."""
    history = result.chat_history or []
    speaker = other if history and history[-1].get("name") == other.name else first
    speaker = getattr(other, "last_speaker", None) or speaker  # a group chat manager knows its own
    return getattr(speaker, "name", None)


def _entries(chat_queue: Any) -> list[Any]:
    if not isinstance(chat_queue, list):
        raise InvalidArgumentTypeError(
            f"chat_queue must be a list of dicts of initiate_chat arguments, one per chat; got "
            f"{type(chat_queue).__name__}. Wrap a single chat in a list: sequential_run([{{...}}])."
        )
    return chat_queue


def _chat_agents(agent: Any, chat_info: Any) -> list[Any]:
    # The agents of one chat as far as its entry names them; a malformed entry is reported by the run itself.
    if not isinstance(chat_info, dict):
        return [agent]
    return [a for a in (chat_info.get("sender") or agent, chat_info.get("recipient")) if a is not None]


class ChatQueueRun:
    """The chats of a sequential run, one after another, each talking through the stream of its own response.

    The queue is checked as ``initiate_chats`` checks it; each chat's carryover gets the summaries of the chats
    before it. An error goes to the response of the chat it ended (the first response when the queue failed its
    check); the responses of the chats after it get an error saying so, and every response's events end.

    Args:
        agent: the agent whose ``sequential_run`` this is (the sender of entries that name none).
        chat_queue: the ``initiate_chat`` arguments, one dict per chat.
        iostreams: the stream of each chat.
        responses: the response of each chat (held weakly: the run keeps none alive).
    """

    def __init__(self, agent: Any, chat_queue: list[Any], iostreams: Sequence[Any], responses: Sequence[Any]):
        self.agent = agent
        self.chat_queue = chat_queue
        self.iostreams = iostreams
        self.held = [weakref.ref(response) for response in responses]
        self.summaries: dict[int, Any] = {}
        self.index = -1  # the chat running; -1 while the queue is checked

    @classmethod
    def responses(cls, agent: Any, chat_queue: Any, run_async: bool) -> list[Any]:
        """The responses of a sequential run (one per chat, in order), its chats started at once on a thread (as
        a task of the running loop when ``run_async``), as in AG2 Classic: they run whether or not their events
        are read."""
        stream_class, response_class = (AsyncThreadIOStream, AsyncRunResponse) if run_async else (
            ThreadIOStream, RunResponse)
        iostreams = [stream_class() for _ in _entries(chat_queue)]
        responses = [response_class(stream, agents=_chat_agents(agent, info))
                     for stream, info in zip(iostreams, chat_queue)]
        if responses:
            run = cls(agent, chat_queue, iostreams, responses)
            driver = started(run._start_task() if run_async else run._start_thread())
            for response in responses:
                response.drive(driver)
        return responses

    def _start_thread(self) -> ChatThread:
        thread = ChatThread(self.run, self.iostreams[0], name="autogen-classic-sequential-run")
        thread.start()
        return thread

    def _start_task(self) -> ChatTask:
        loop = asyncio.get_running_loop()
        for stream in self.iostreams:  # every chat's events are read on the caller's loop
            stream.bind(loop)
        task = ChatTask(self.a_run, self.iostreams[0])
        task.start()
        return task

    def _chats(self) -> Iterator[tuple[int, dict[str, Any]]]:
        # Each chat's arguments (its carryover filled in), while its response's stream is the default.
        for index, chat_info in enumerate(_check(_with_sender(self.chat_queue, self.agent))):
            with IOStream.set_default(self.iostreams[index]):
                self.index = index
                info = carried_over(chat_info, self.summaries)
                if not info.get("silent", False):
                    IOStream.get_default().send(PostCarryoverProcessingEvent(chat_info=info))
                yield index, info

    def _end(self, index: int, info: dict[str, Any], result: "ChatResult") -> None:
        self.summaries[index] = result.summary
        note_human_input(self.held[index], result)
        IOStream.get_default().send(completion_event(result, speaker_name(info["sender"], info["recipient"], result)))

    def run(self) -> None:
        """Run the chats (on the run's thread)."""
        with _Reported(self):
            for index, info in self._chats():
                self._end(index, info, info["sender"].initiate_chat(**_chat_kwargs(info)))

    async def a_run(self) -> None:
        """Run the chats (as the run's task)."""
        with _Reported(self):
            for index, info in self._chats():
                self._end(index, info, await info["sender"].a_initiate_chat(**_chat_kwargs(info)))

    def fail(self, error: BaseException) -> None:
        """Hand ``error`` to the chat it ended, and to each chat after it the reason it did not run."""
        failed = max(self.index, 0)
        if isinstance(error, Exception):
            self._tell(failed, error)
        for later in range(failed + 1, len(self.iostreams)):
            if self.index < 0:
                why = f"the chat queue failed its check ({type(error).__name__}: {error}; raised by the first response)"
            elif isinstance(error, ChatStreamClosed):
                why = (f"the events of chat_queue[{failed}] were no longer read (its response was dropped before its "
                       "chat ended), which stops the chats after it")
            else:
                why = f"chat_queue[{failed}] failed ({type(error).__name__}: {error})"
            not_run = RuntimeError(f"chat_queue[{later}] did not run: {why}.")
            not_run.__cause__ = error
            self._tell(later, not_run)

    def _tell(self, index: int, error: BaseException) -> None:
        stream = self.iostreams[index]
        if not stream.closed:
            stream.send(ErrorEvent(error=error))

    def finish(self) -> None:
        """End every response's events: a response whose chat never ran would otherwise wait for them for ever."""
        for stream in self.iostreams:
            stream.input_stream.put_nowait(END)


def _check(queue: list[dict[str, Any]]) -> list[dict[str, Any]]:
    _check_queue(queue)
    return queue


class _Reported:
    """Around the chats of a run: an error goes to the responses (a ``BaseException`` other than the stream's
    closing is raised on), and every response's events end."""

    def __init__(self, run: ChatQueueRun) -> None:
        self.run = run

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Optional[type], error: Optional[BaseException], traceback: Optional[TracebackType]
                 ) -> bool:
        try:
            if error is not None:
                self.run.fail(error)
            return isinstance(error, (Exception, ChatStreamClosed))
        finally:
            self.run.finish()
