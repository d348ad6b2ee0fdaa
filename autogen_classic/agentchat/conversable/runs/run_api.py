"""``run``, ``a_run``, ``run_iter`` and ``a_run_iter`` of ``ConversableAgent`` (AG2 Classic 0.14).

``agent.run(recipient, message=...)`` chats with ``recipient``; ``agent.run(message=...)`` chats with
the agent's ``run_executor``, an agent standing for the user that executes the tools. The chat runs for
the consumer of the returned response (``autogen_classic.io.chat_response``) on the engine of
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

import functools
import inspect
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

from ....io.chat_response import AsyncRunResponse, AsyncRunResponseProtocol, RunResponse, RunResponseProtocol
from ....io.run_iter import AsyncRunIterResponse, RunIterResponse
from ....tools.tool import Tool
from ....types import is_agent
from .agent_run import chats_with_user, executor_for_run, user_agent
from .chat_queue import ChatQueueRun, speaker_name
from .launcher import RunLauncher

if TYPE_CHECKING:
    from ...chat import ChatResult
    from ...conversable_agent import ConversableAgent

__all__ = ["RunMixin"]

DEFAULT_SUMMARY_METHOD = "last_msg"


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

    def _launcher(self, recipient: Any, task: Any, clear_history: bool, silent: Any, cache: Any, max_turns: Any,
                  summary_method: Any, summary_args: Any, message: Any, executor_kwargs: Any, tools: Any,
                  user_input: Any, msg_to: Any, kwargs: dict[str, Any]) -> RunLauncher:
        """The launcher of a run's chat (arguments as for ``run``): with ``recipient``; else (alone) through the
        ``run_executor``, or, for ag2 0.7.3's ``task``, through a new "user" agent."""
        agent: Any = self
        mode = "ALWAYS" if user_input else "NEVER"
        if recipient is not None and task is None:
            arguments = dict(clear_history=clear_history, silent=silent, cache=cache, max_turns=max_turns,
                             summary_method=summary_method, summary_args=summary_args, message=message, **kwargs)
            chat = functools.partial(self.initiate_chat, recipient, **arguments)  # type: ignore[attr-defined]
            a_chat = functools.partial(self.a_initiate_chat, recipient, **arguments)  # type: ignore[attr-defined]
        else:
            recipient = None

            def user() -> Any:
                if task is not None:
                    return user_agent(agent, self._agent_class(), executor_kwargs, tools, mode)
                return executor_for_run(agent, self._agent_class(), executor_kwargs, tools, "user", mode)

            chat, a_chat = chats_with_user(agent, user, msg_to or "user", dict(
                message=message if task is None else task, clear_history=clear_history, max_turns=max_turns,
                summary_method=summary_method))

        def report(result: "ChatResult") -> tuple["ChatResult", Optional[str], Any]:
            return result, self.name if recipient is None else speaker_name(self, recipient, result), None

        return RunLauncher(chat, a_chat, report, [self, recipient] if recipient else [self], "autogen-classic-run")

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
        launcher = self._launcher(recipient, task, clear_history, silent, cache, max_turns, summary_method,
                                  summary_args, message, executor_kwargs, tools, user_input, msg_to, kwargs)
        if task is not None:  # ag2 0.7.3: run(message, ...) returned the ChatResult of a finished chat
            return launcher.run_here()
        return launcher.run(classic_reads=recipient is None)

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
        launcher = self._launcher(recipient, task, clear_history, silent, cache, max_turns, summary_method,
                                  summary_args, message, executor_kwargs, tools, user_input, msg_to, kwargs)
        if task is not None:  # ag2 0.7.3: a_run(message, ...) returned the ChatResult of a finished chat
            return await launcher.a_run_here()
        return launcher.a_run(classic_reads=recipient is None)

    # ----------------------------------------------------------- run_iter
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
        launcher = self._launcher(recipient, None, clear_history, silent, cache, max_turns, summary_method,
                                  summary_args, message, executor_kwargs, tools, user_input, msg_to, kwargs)
        return launcher.run_iter(yield_on)

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
        launcher = self._launcher(recipient, None, clear_history, silent, cache, max_turns, summary_method,
                                  summary_args, message, executor_kwargs, tools, user_input, msg_to, kwargs)
        return launcher.a_run_iter(yield_on)

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
        return ChatQueueRun.responses(self, chat_queue, run_async=False)

    async def a_sequential_run(
        self,
        chat_queue: list[dict[str, Any]],
    ) -> list[AsyncRunResponseProtocol]:
        """(async) ``sequential_run`` for async code: one ``AsyncRunResponse`` per chat, in order.

        The chats run one after another as one task of the running event loop, started at once (it goes on
        when the caller next awaits); ``async for event in response.events`` reads a chat's events, and
        ``await response.summary`` its results. Errors as for ``sequential_run``.
        """
        return ChatQueueRun.responses(self, chat_queue, run_async=True)
