"""``run``, ``a_run``, ``run_iter`` and ``a_run_iter`` of ``ConversableAgent`` (AG2 Classic 0.14).

``agent.run(recipient, message=...)`` chats with ``recipient``; ``agent.run(message=...)`` chats with
the agent's ``run_executor``, an agent standing for the user that executes the tools. The chat runs for
the consumer of the returned response (``autogen_classic.io.run_response``) on the engine of
``initiate_chat_stream`` (``autogen_classic.io.chat_worker``): its events, as ``autogen.events`` classes,
end with a ``RunCompletionEvent`` (or an ``ErrorEvent``). ``sequential_run`` / ``a_sequential_run`` run the
chats of a queue (as ``initiate_chats`` does, with carryover) on one thread or task of that engine, and return
one such response per chat.

ag2 0.7.3's ``run(message, *, ...)`` (the task as the first positional argument) is served too: the chat
runs at once on the current console, with 0.7.3's defaults (``user_input=True``, ``clear_history=False``),
and the finished response reads as its ``ChatResult``. A 0.14 response that 0.7.3 code reads or drops
unused runs its chat then; see ``RunResponse``.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import weakref
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

from ....events.chat_events import PostCarryoverProcessingEvent
from ....events.run_events import ErrorEvent, RunCompletionEvent
from ....exception_utils import InvalidArgumentTypeError
from ....io.base import IOStream
from ....io.chat_worker import END, ChatTask, ChatThread
from ....io.run_response import (
    AsyncRunIterResponse,
    AsyncRunResponse,
    AsyncRunResponseProtocol,
    RunDriver,
    RunIterResponse,
    RunResponse,
    RunResponseProtocol,
)
from ....io.thread_io_stream import AsyncThreadIOStream, ChatStreamClosed, ThreadIOStream
from ....tools.tool import Tool
from ....types import is_agent
from ...chat import _chat_kwargs, _check_queue, carried_over
from .agent_run import a_run_with_user, executor_for_run, run_with_user
from ..chat_driver import _with_sender

if TYPE_CHECKING:
    from ...chat import ChatResult
    from ...conversable_agent import ConversableAgent

__all__ = ["RunMixin"]

DEFAULT_SUMMARY_METHOD = "last_msg"
Chat = Callable[[], Any]


def _serves_073(method: Callable[..., Any]) -> Callable[..., Any]:
    """``run("task", ...)``, the task first and positional, is ag2 0.7.3's call: 0.7.3's defaults apply."""

    def classic_defaults(args: tuple, kwargs: dict[str, Any]) -> None:
        if args and isinstance(args[0], (str, dict)) and "message" not in kwargs:
            kwargs.setdefault("user_input", True)
            kwargs.setdefault("clear_history", False)

    if inspect.iscoroutinefunction(method):
        @functools.wraps(method)
        async def a_wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
            classic_defaults(args, kwargs)
            return await method(self, *args, **kwargs)

        return a_wrapper

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        classic_defaults(args, kwargs)
        return method(self, *args, **kwargs)

    return wrapper


def _summary_text(summary: Any) -> str:
    # A summary that is a message dict (some models answer so) reads as its content.
    if isinstance(summary, str):
        return summary
    if summary is None:
        return ""
    if isinstance(summary, dict):
        return _summary_text(summary.get("content", ""))
    return str(summary)


def _note_human_input(held: "weakref.ref[Any]", result: "ChatResult") -> None:
    response = held()
    if response is not None:
        response.note_human_input(result.human_input)


def _speaker_name(first: Any, other: Any, result: "ChatResult") -> Optional[str]:
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


class _ChatQueueRun:
    """The chats of a sequential run, one after another, each talking through the stream of its own response.

    The queue is checked as ``initiate_chats`` checks it; each chat's carryover gets the summaries of the chats
    before it. An error goes to the response of the chat it ended (the first response when the queue failed its
    check); the responses of the chats after it get an error saying so, and every response's events end.
    """

    def __init__(self, agent: Any, chat_queue: list[Any], iostreams: Sequence[Any], responses: Sequence[Any]):
        self.agent = agent
        self.chat_queue = chat_queue
        self.iostreams = iostreams
        self.held = [weakref.ref(response) for response in responses]
        self.summaries: dict[int, Any] = {}
        self.index = -1  # the chat running; -1 while the queue is checked

    def queue(self) -> list[dict[str, Any]]:
        queue = _with_sender(self.chat_queue, self.agent)
        _check_queue(queue)
        return queue  # type: ignore[no-any-return]

    def begin(self, index: int, chat_info: dict[str, Any]) -> dict[str, Any]:
        self.index = index
        info = carried_over(chat_info, self.summaries)
        if not info.get("silent", False):
            IOStream.get_default().send(PostCarryoverProcessingEvent(chat_info=info))
        return info

    def end(self, index: int, info: dict[str, Any], result: "ChatResult") -> None:
        self.summaries[index] = result.summary
        _note_human_input(self.held[index], result)
        speaker = _speaker_name(info["sender"], info["recipient"], result)
        IOStream.get_default().send(RunMixin._completion(result, speaker))

    def run(self) -> None:
        """Run the chats (on the run's thread)."""
        try:
            for index, chat_info in enumerate(self.queue()):
                with IOStream.set_default(self.iostreams[index]):
                    info = self.begin(index, chat_info)
                    self.end(index, info, info["sender"].initiate_chat(**_chat_kwargs(info)))
        except BaseException as error:  # noqa: BLE001 - handed to the consumers
            self.fail(error)
            if not isinstance(error, (Exception, ChatStreamClosed)):
                raise
        finally:
            self.finish()

    async def a_run(self) -> None:
        """Run the chats (as the run's task)."""
        try:
            for index, chat_info in enumerate(self.queue()):
                with IOStream.set_default(self.iostreams[index]):
                    info = self.begin(index, chat_info)
                    self.end(index, info, await info["sender"].a_initiate_chat(**_chat_kwargs(info)))
        except BaseException as error:  # noqa: BLE001 - handed to the consumers
            self.fail(error)
            if not isinstance(error, (Exception, ChatStreamClosed)):
                raise
        finally:
            self.finish()

    def fail(self, error: BaseException) -> None:
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
        # A response whose chat never ran would otherwise wait for its events for ever.
        for stream in self.iostreams:
            stream.input_stream.put_nowait(END)


class RunMixin:
    """The run methods of ``ConversableAgent``."""

    run_executor: Optional["ConversableAgent"] = None
    """The agent standing for the user in single-agent runs (made on the first one)."""

    name: str

    # ----------------------------------------------------------- the chat a run runs
    def _agent_class(self) -> type["ConversableAgent"]:
        # The class that mixes this in (ConversableAgent): the executor is a plain agent, whatever ``self`` is.
        return next(cls for cls in type(self).__mro__ if RunMixin in cls.__bases__)  # type: ignore[return-value]

    def _run_arguments(self, recipient: Any, message: Any, msg_to: Any) -> Optional[Any]:
        """Check ``run``'s arguments; the ag2 0.7.3 task when ``recipient`` is one (else None)."""
        if msg_to not in ("agent", "user", None):
            raise ValueError(
                f'msg_to must be "agent" (the user sends the message to this agent) or "user" (this agent sends it); '
                f"got {msg_to!r}."
            )
        if recipient is None or is_agent(recipient):
            return None
        if isinstance(recipient, (str, dict)):
            if message is not None:
                raise TypeError(
                    f"run() got the message twice: {recipient!r} as the first argument (ag2 0.7.3's run(message)) and "
                    f"message={message!r}. Pass it once: run(message=...), or run(other_agent, message=...)."
                )
            return recipient
        raise TypeError(
            f"run()'s first argument is the agent to chat with (or, ag2 0.7.3 style, the message as a str or dict); "
            f"got {recipient!r} ({type(recipient).__name__}). For a chat with this agent alone use run(message=...)."
        )

    def _chat(self, recipient: Any, arguments: dict[str, Any], single: dict[str, Any], run_async: bool) -> Chat:
        """The chat of a run, as a function (a coroutine function when ``run_async``) returning its ``ChatResult``."""
        if recipient is not None:
            start = self.a_initiate_chat if run_async else self.initiate_chat  # type: ignore[attr-defined]
            return functools.partial(start, recipient, **arguments)
        mode = "ALWAYS" if single["user_input"] else "NEVER"
        agent: Any = self

        def executor() -> Any:
            return executor_for_run(
                agent, self._agent_class(), single["executor_kwargs"], single["tools"], "user", mode
            )

        chat_arguments = {k: arguments[k] for k in ("message", "clear_history", "max_turns", "summary_method")}

        if run_async:
            async def a_chat() -> Any:
                with executor() as user:
                    first, second = (user, agent) if single["msg_to"] == "agent" else (agent, user)
                    return await first.a_initiate_chat(second, **chat_arguments)

            return a_chat

        def chat() -> Any:
            with executor() as user:
                first, second = (user, agent) if single["msg_to"] == "agent" else (agent, user)
                return first.initiate_chat(second, **chat_arguments)

        return chat

    def _last_speaker(self, recipient: Any) -> Callable[["ChatResult"], Optional[str]]:
        def last_speaker(result: "ChatResult") -> Optional[str]:
            return self.name if recipient is None else _speaker_name(self, recipient, result)

        return last_speaker

    @staticmethod
    def _completion(result: "ChatResult", last_speaker: Optional[str]) -> Any:
        # The history as it is now: the agents' stored messages are the same list, which a later chat clears.
        return RunCompletionEvent.build(summary=_summary_text(result.summary),
                                        history=list(result.chat_history or []), cost=result.cost,
                                        last_speaker=last_speaker, context_variables=None)

    @staticmethod
    def _prepare(clear_history: bool, silent: Any, cache: Any, max_turns: Any,
                 summary_method: Any, summary_args: Any, message: Any, executor_kwargs: Any, tools: Any,
                 user_input: Any, msg_to: Any, kwargs: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        arguments = dict(clear_history=clear_history, silent=silent, cache=cache, max_turns=max_turns,
                         summary_method=summary_method, summary_args=summary_args, message=message, **kwargs)
        single = dict(executor_kwargs=executor_kwargs, tools=tools, user_input=user_input, msg_to=msg_to or "user")
        return arguments, single

    # ----------------------------------------------------------- run
    @_serves_073
    def run(
        self,
        recipient: Optional["ConversableAgent"] = None,
        clear_history: bool = True,
        silent: Optional[bool] = False,
        cache: Optional[Any] = None,
        max_turns: Optional[int] = None,
        summary_method: Optional[Union[str, Callable[..., Any]]] = DEFAULT_SUMMARY_METHOD,
        summary_args: Optional[dict[str, Any]] = {},
        message: Optional[Union[dict[str, Any], str, Callable[..., Any]]] = None,
        executor_kwargs: Optional[dict[str, Any]] = None,
        tools: Optional[Union[Tool, Iterable[Tool]]] = None,
        user_input: Optional[bool] = False,
        msg_to: Optional[str] = "agent",
        **kwargs: Any,
    ) -> RunResponse:
        """Run a chat and return its response: iterate ``response.events`` or call ``response.process()``.

        The chat starts when its events are first asked for, on a thread of its own; ``summary``,
        ``messages``, ``cost``, ``last_speaker`` are set when it is over.

        Args:
            recipient: the agent to chat with; None for a chat with this agent alone, through its
                ``run_executor`` (an agent named "user" that executes the tools).
            clear_history: clear the earlier conversation first.
            silent: (with a recipient) do not print the messages.
            cache: (with a recipient) a ``Cache`` for the chat's model calls.
            max_turns: the most turns (one turn = one message each way); None runs until a termination condition.
            summary_method: "last_msg", "reflection_with_llm" or a callable (see ``initiate_chat``).
            summary_args: (with a recipient) arguments of the summary method.
            message: the first message (a str, a dict or a callable, as for ``initiate_chat``).
            executor_kwargs: (alone) ``ConversableAgent`` arguments of the executor, used when it is made.
            tools: (alone) tools this agent may call and the executor executes, for this run.
            user_input: (alone) ask the human on every turn (an ``InputRequestEvent``).
            msg_to: (alone) "agent": the executor sends ``message`` to this agent; "user": this agent sends it.
            **kwargs: (with a recipient) further ``initiate_chat`` arguments (``carryover`` ...).

        ag2 0.7.3's ``run(message, ...)`` (the message first and positional) runs the chat here at once and
        returns the finished response, which reads as its ``ChatResult``.
        """
        task = self._run_arguments(recipient, message, msg_to)
        if task is not None:  # ag2 0.7.3: run(message, ...) returned the ChatResult of a finished chat
            result = run_with_user(
                self, self._agent_class(), task, tools, executor_kwargs, max_turns,  # type: ignore[arg-type]
                msg_to or "user", clear_history, bool(user_input), summary_method,
            )
            finished = RunResponse(ThreadIOStream(), agents=[self])
            finished._complete_from(result, self.name)
            return finished
        arguments, single = self._prepare(clear_history, silent, cache, max_turns, summary_method,
                                          summary_args, message, executor_kwargs, tools, user_input, msg_to, kwargs)
        chat = self._chat(recipient, arguments, single, run_async=False)
        last_speaker = self._last_speaker(recipient)
        iostream = ThreadIOStream()
        response = RunResponse(iostream, agents=[self, recipient] if recipient else [self])
        held = weakref.ref(response)  # no cycle through the chat: a response dropped unused is freed at once

        def target() -> Any:
            try:
                result = chat()
            except Exception as error:  # noqa: BLE001 - handed to the consumer as an event
                iostream.send(ErrorEvent(error=error))
                return None
            _note_human_input(held, result)
            IOStream.get_default().send(self._completion(result, last_speaker(result)))
            return result

        def start() -> ChatThread:
            thread = ChatThread(target, iostream, name="autogen-classic-run")
            thread.start()
            return thread

        return response.drive(RunDriver(start, chat, recipient is None, last_speaker))

    @_serves_073
    async def a_run(
        self,
        recipient: Optional["ConversableAgent"] = None,
        clear_history: bool = True,
        silent: Optional[bool] = False,
        cache: Optional[Any] = None,
        max_turns: Optional[int] = None,
        summary_method: Optional[Union[str, Callable[..., Any]]] = DEFAULT_SUMMARY_METHOD,
        summary_args: Optional[dict[str, Any]] = {},
        message: Optional[Union[dict[str, Any], str, Callable[..., Any]]] = None,
        executor_kwargs: Optional[dict[str, Any]] = None,
        tools: Optional[Union[Tool, Iterable[Tool]]] = None,
        user_input: Optional[bool] = False,
        msg_to: Optional[str] = "agent",
        **kwargs: Any,
    ) -> AsyncRunResponse:
        """(async) ``run`` for async code: ``async for event in response.events`` or ``await response.process()``.

        The chat runs as a task of the running event loop once its events are asked for; the results are
        awaited (``await response.summary``). Arguments as for ``run``; ag2 0.7.3's ``a_run(message, ...)``
        runs the chat at once and returns the finished response.
        """
        task = self._run_arguments(recipient, message, msg_to)
        if task is not None:  # ag2 0.7.3: a_run(message, ...) returned the ChatResult of a finished chat
            result = await a_run_with_user(
                self, self._agent_class(), task, tools, executor_kwargs, max_turns,  # type: ignore[arg-type]
                msg_to or "user", clear_history, bool(user_input), summary_method,
            )
            finished = AsyncRunResponse(AsyncThreadIOStream(), agents=[self])
            finished._complete_from(result, self.name)
            return finished
        arguments, single = self._prepare(clear_history, silent, cache, max_turns, summary_method,
                                          summary_args, message, executor_kwargs, tools, user_input, msg_to, kwargs)
        a_chat = self._chat(recipient, arguments, single, run_async=True)
        last_speaker = self._last_speaker(recipient)
        iostream = AsyncThreadIOStream()
        response = AsyncRunResponse(iostream, agents=[self, recipient] if recipient else [self])
        held = weakref.ref(response)  # no cycle through the chat: a response dropped unused is freed at once

        async def target() -> Any:
            try:
                result = await a_chat()
            except Exception as error:  # noqa: BLE001 - handed to the consumer as an event
                iostream.send(ErrorEvent(error=error))
                return None
            _note_human_input(held, result)
            iostream.send(self._completion(result, last_speaker(result)))
            return result

        def start() -> ChatTask:
            chat_task = ChatTask(target, iostream)
            chat_task.start()
            return chat_task

        return response.drive(RunDriver(start, a_chat, recipient is None, last_speaker))

    # ----------------------------------------------------------- run_iter
    def _stepped_thread(self, chat: Chat, last_speaker: Callable[[Any], Optional[str]], run_async: bool
                        ) -> Callable[[ThreadIOStream], ChatThread]:
        """``start_thread_func`` of a step-by-step response: a thread (not started) running ``chat`` on a stream."""

        def create_thread(iostream: ThreadIOStream) -> ChatThread:
            def completed(result: Any) -> Any:
                iostream.send(self._completion(result, last_speaker(result)))
                return result

            def target() -> Any:
                try:
                    result = asyncio.run(chat()) if run_async else chat()
                except Exception as error:  # noqa: BLE001 - handed to the consumer as an event
                    iostream.send(ErrorEvent(error=error))
                    return None
                return completed(result)

            return ChatThread(target, iostream, name="autogen-classic-run-iter")

        return create_thread

    def run_iter(
        self,
        recipient: Optional["ConversableAgent"] = None,
        clear_history: bool = True,
        silent: Optional[bool] = False,
        cache: Optional[Any] = None,
        max_turns: Optional[int] = None,
        summary_method: Optional[Union[str, Callable[..., Any]]] = DEFAULT_SUMMARY_METHOD,
        summary_args: Optional[dict[str, Any]] = {},
        message: Optional[Union[dict[str, Any], str, Callable[..., Any]]] = None,
        executor_kwargs: Optional[dict[str, Any]] = None,
        tools: Optional[Union[Tool, Iterable[Tool]]] = None,
        user_input: Optional[bool] = False,
        msg_to: Optional[str] = "agent",
        yield_on: Optional[Sequence[type]] = None,
        **kwargs: Any,
    ) -> RunIterResponse:
        """Run a chat step by step: ``for event in agent.run_iter(...)``.

        The chat waits after each event it yields until the loop asks for the next one; leaving the loop
        (``break``) stops it. Input requests are always yielded (answer them with ``event.content.respond``).
        ``summary`` and the other results are set when the loop reached the end of the run. The other
        arguments are those of ``run``.

        Args:
            yield_on: the event classes to yield (e.g. ``[TextEvent, TerminationEvent]``); None: every event.

        Raises:
            TypeError: a ``yield_on`` entry is not an event class.
        """
        if self._run_arguments(recipient, message, msg_to) is not None:
            raise TypeError(
                "run_iter() takes the message as message=...; its first argument is the agent to chat with."
            )
        arguments, single = self._prepare(clear_history, silent, cache, max_turns, summary_method,
                                          summary_args, message, executor_kwargs, tools, user_input, msg_to, kwargs)
        chat = self._chat(recipient, arguments, single, run_async=False)
        return RunIterResponse(
            start_thread_func=self._stepped_thread(chat, self._last_speaker(recipient), run_async=False),
            yield_on=yield_on,
            agents=[self, recipient] if recipient else [self],
        )

    def a_run_iter(
        self,
        recipient: Optional["ConversableAgent"] = None,
        clear_history: bool = True,
        silent: Optional[bool] = False,
        cache: Optional[Any] = None,
        max_turns: Optional[int] = None,
        summary_method: Optional[Union[str, Callable[..., Any]]] = DEFAULT_SUMMARY_METHOD,
        summary_args: Optional[dict[str, Any]] = {},
        message: Optional[Union[dict[str, Any], str, Callable[..., Any]]] = None,
        executor_kwargs: Optional[dict[str, Any]] = None,
        tools: Optional[Union[Tool, Iterable[Tool]]] = None,
        user_input: Optional[bool] = False,
        msg_to: Optional[str] = "agent",
        yield_on: Optional[Sequence[type]] = None,
        **kwargs: Any,
    ) -> AsyncRunIterResponse:
        """(async) ``run_iter`` for async code: ``async for event in agent.a_run_iter(...)``.

        The chat runs its async methods on a thread with an event loop of its own, so the caller's loop is
        never blocked; ``async with response:`` around the loop stops the chat at once when leaving it early.
        Arguments as for ``run_iter``.
        """
        if self._run_arguments(recipient, message, msg_to) is not None:
            raise TypeError("a_run_iter() takes the message as message=...; its first argument is the agent to chat "
                            "with.")
        arguments, single = self._prepare(clear_history, silent, cache, max_turns, summary_method,
                                          summary_args, message, executor_kwargs, tools, user_input, msg_to, kwargs)
        a_chat = self._chat(recipient, arguments, single, run_async=True)
        return AsyncRunIterResponse(
            start_thread_func=self._stepped_thread(a_chat, self._last_speaker(recipient), run_async=True),
            yield_on=yield_on,
            agents=[self, recipient] if recipient else [self],
        )

    # ----------------------------------------------------------- sequential_run
    def sequential_run(
        self,
        chat_queue: list[dict[str, Any]],
    ) -> list[RunResponseProtocol]:
        """Run the chats of ``chat_queue`` one after another; one ``RunResponse`` per chat, in order.

        The run of ``initiate_chats``: each entry holds the arguments of ``initiate_chat`` plus ``"recipient"``
        (``"sender"`` defaults to this agent); each chat's ``carryover`` (a str or a list) gets the summaries of
        the chats before it, less those listed in its ``"finished_chat_indexes_to_exclude_from_carryover"``.
        The chats start at once, on one thread; each response's events are those of its chat (a
        ``PostCarryoverProcessingEvent`` first, unless ``"silent"``), ending with its ``RunCompletionEvent``.
        A queue that fails its check raises from the first response's events; a failing chat from its own,
        and the responses of the chats after it raise that they did not run.

        Args:
            chat_queue: a list of dicts, one per chat, of ``initiate_chat`` arguments.

        Raises:
            InvalidArgumentTypeError: ``chat_queue`` is not a list (also a ``TypeError``).
        """
        iostreams = [ThreadIOStream() for _ in _entries(chat_queue)]
        responses = [
            RunResponse(stream, agents=_chat_agents(self, info)) for stream, info in zip(iostreams, chat_queue)
        ]
        if not responses:
            return []
        chats = _ChatQueueRun(self, chat_queue, iostreams, responses)
        thread = ChatThread(chats.run, iostreams[0], name="autogen-classic-sequential-run")
        driver = RunDriver(lambda: thread, None, False, lambda result: None)
        for response in responses:
            response.drive(driver)
        thread.start()  # at once, as in AG2 Classic: the chats run whether or not their events are read
        return responses  # type: ignore[return-value]

    async def a_sequential_run(
        self,
        chat_queue: list[dict[str, Any]],
    ) -> list[AsyncRunResponseProtocol]:
        """(async) ``sequential_run`` for async code: one ``AsyncRunResponse`` per chat, in order.

        The chats run one after another as one task of the running event loop, started at once (it goes on
        when the caller next awaits); ``async for event in response.events`` reads a chat's events, and
        ``await response.summary`` its results. Errors as for ``sequential_run``.
        """
        iostreams = [AsyncThreadIOStream() for _ in _entries(chat_queue)]
        responses = [
            AsyncRunResponse(stream, agents=_chat_agents(self, info)) for stream, info in zip(iostreams, chat_queue)
        ]
        if not responses:
            return []
        loop = asyncio.get_running_loop()
        for stream in iostreams:
            stream.bind(loop)
        chats = _ChatQueueRun(self, chat_queue, iostreams, responses)
        task = ChatTask(chats.a_run, iostreams[0])
        driver = RunDriver(lambda: task, None, False, lambda result: None)
        for response in responses:
            response.drive(driver)
        task.start()
        return responses  # type: ignore[return-value]
