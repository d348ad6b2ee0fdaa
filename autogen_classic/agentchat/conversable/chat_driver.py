"""Driving a two-agent chat: ``initiate_chat`` and its async twin, first messages, summaries."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

from ...cache import Cache
from ...events.run_events import TerminationEvent
from ...exception_utils import InvalidCarryOverType
from ...io.emit import emit_run_event, silent_chat
from ...oai.usage import gather_usage_summary
from ..agent import Agent
from .agent_args import warn_argument
from ..chat import ChatResult, a_initiate_chats, carryover_text, initiate_chats, summary_callable
from .chat_stream import AsyncChatStream, ChatStream
from .messages import invalid_message_error, message_to_dict
from .reply_pipeline import is_async_reply_function
from ..termination import StopMessage, TerminationCondition
from ..utils import check_reflection_client, validate_summary_method

if TYPE_CHECKING:
    from ..conversable_agent import ConversableAgent

__all__ = ["ChatDriverMixin"]

DEFAULT_SUMMARY_METHOD = "last_msg"


def _fired_condition(sender: Any, recipient: Any) -> Optional[StopMessage]:
    """The termination condition that ended a chat: a group chat manager's, or a condition given as
    ``is_termination_msg`` to either agent; None when no condition fired."""
    stop = getattr(recipient, "stop_message", None)
    if isinstance(stop, StopMessage):
        return stop
    for agent in (recipient, sender):
        condition = getattr(agent, "_is_termination_msg", None)
        if isinstance(condition, TerminationCondition) and condition.last_stop is not None:
            return condition.last_stop
    return None


class ChatDriverMixin:
    """The chat-running methods of ``ConversableAgent``."""

    client: Any
    client_cache: Any
    previous_cache: Any
    _human_input: list[str]
    _reply_func_list: list[dict[str, Any]]
    def _prepare_chat(
        self, recipient: "ConversableAgent", clear_history: bool, prepare_recipient: bool = True,
        reply_at_receive: bool = True,
    ) -> None:
        self.reset_consecutive_auto_reply_counter(recipient)
        self.reply_at_receive[recipient] = reply_at_receive
        condition = getattr(self, "_is_termination_msg", None)
        if isinstance(condition, TerminationCondition):
            condition.reset()  # a condition given as is_termination_msg starts each chat afresh
        if clear_history:
            self.clear_history(recipient)
            self._human_input = []
        if prepare_recipient:
            recipient._prepare_chat(self, clear_history, False, reply_at_receive)

    def _raise_exception_on_async_reply_functions(self) -> None:
        found = [
            entry["reply_func"].__name__ for entry in self._reply_func_list
            if is_async_reply_function(entry["reply_func"]) and not entry["ignore_async_in_sync_chat"]
        ]
        if found:
            raise RuntimeError(
                "Async reply functions can only be used with ConversableAgent.a_initiate_chat(). The following async "
                f"reply functions are found: {', '.join(found)}"
            )

    def _check_chat_arguments(self, recipient: Any, message: Any, max_turns: Any, summary_method: Any,
                              summary_args: Any) -> None:
        if not hasattr(recipient, "receive") or not hasattr(recipient, "name"):
            raise TypeError(f"recipient must be an agent; got {type(recipient).__name__}.")
        if message is not None and not isinstance(message, (str, dict)) and not callable(message):
            # Sent as dict(message), as classic AutoGen does: a list of key/value pairs is a message.
            message = message_to_dict(message)
        if isinstance(message, dict) and not any(k in message for k in ("content", "function_call", "tool_calls")):
            raise invalid_message_error(message, received=False)
        _check_max_turns(max_turns)
        validate_summary_method(summary_method)
        if summary_method == "reflection_with_llm":
            check_reflection_client(self, recipient)
        if summary_args is not None and not isinstance(summary_args, dict):
            raise TypeError(f"summary_args must be a dict; got {type(summary_args).__name__}.")

    def _lend_cache(self, recipient: "ConversableAgent", cache: Any) -> None:
        """Both agents use ``cache`` for this chat; their own caches come back with ``_return_cache``."""
        for agent in (self, recipient):
            agent.previous_cache = agent.client_cache
            agent.client_cache = cache

    def _return_cache(self, recipient: "ConversableAgent") -> None:
        for agent in (self, recipient):
            agent.client_cache = agent.previous_cache
            agent.previous_cache = None

    @contextmanager
    def _chat_session(self, recipient: "ConversableAgent", clear_history: bool, silent: Optional[bool], cache: Any,
                      max_turns: Any) -> Iterator[Any]:
        """The frame of a chat with ``recipient``, shared by ``initiate_chat`` and ``a_initiate_chat``: both agents
        prepared (replying on receipt unless the chat counts its turns) and lent the chat's cache, which it
        yields, and the chat's silence set. An error gives the agents their own caches back; otherwise
        ``_chat_result`` does, after the summary.

        Async chats take the cache of an enclosing ``with Cache...:`` block too (AG2 0.14 reads it for sync
        chats only).
        """
        cache = Cache.get_current_cache(cache)
        self._lend_cache(recipient, cache)
        try:
            with silent_chat(silent):
                if isinstance(max_turns, int):
                    self._prepare_chat(recipient, clear_history, reply_at_receive=False)
                else:
                    self._prepare_chat(recipient, clear_history)
                yield cache
        except BaseException:
            self._return_cache(recipient)
            raise

    def _chat_result(self, recipient: "ConversableAgent", summary_method: Any, summary_args: dict, cache: Any,
                     ) -> ChatResult:
        summary = self._summarize_chat(summary_method, summary_args, recipient, cache=cache)
        self._return_cache(recipient)
        return ChatResult(
            chat_history=self.chat_messages[recipient],
            summary=summary,
            cost=gather_usage_summary([self, recipient]),
            human_input=self._human_input,
        ).with_termination(_fired_condition(self, recipient))

    def initiate_chat(
        self, recipient: "ConversableAgent", clear_history: bool = True, silent: Optional[bool] = False,
        cache: Optional[Any] = None, max_turns: Optional[int] = None,
        summary_method: Optional[Union[str, Callable[..., Any]]] = DEFAULT_SUMMARY_METHOD,
        summary_args: Optional[dict[str, Any]] = {},
        message: Optional[Union[dict[str, Any], str, Callable[..., Any]]] = None, **kwargs: Any,
    ) -> ChatResult:
        """Start a chat with ``recipient`` and run it until it ends.

        Args:
            recipient: the agent to chat with.
            clear_history: clear the earlier conversation with ``recipient`` first.
            silent: do not print the messages.
            cache: a ``Cache`` for model calls made in this chat (and its summary). None uses the cache of
                the innermost enclosing ``with Cache...:`` block, if any (AG2 0.14), else each agent's own.
            max_turns: the most turns (one turn = one message each way); None runs until a termination condition.
            summary_method: "last_msg" (default), "reflection_with_llm", a callable
                ``f(sender, recipient, summary_args) -> str``, or None for no summary.
            summary_args: arguments for the summary method ("summary_prompt", "summary_role", ...).
            message: the first message: a str, a dict, or ``f(sender, recipient, context) -> str | dict``;
                None asks the person at the console.
            **kwargs: ``carryover`` (str or list, appended to the first message as context), ``verbose``, and
                context passed to a callable ``message``.

        Returns:
            ChatResult: the history, summary, cost and human input of the chat.
        """
        self._check_chat_arguments(recipient, message, max_turns, summary_method, summary_args)
        summary_args = dict(summary_args or {})  # a copy: the summary method may add "cache"
        for agent in (self, recipient):
            agent._raise_exception_on_async_reply_functions()
        with self._chat_session(recipient, clear_history, silent, cache, max_turns) as cache:
            first = self._first_message(recipient, message, kwargs)
            if isinstance(max_turns, int):
                self._run_turns(recipient, first, max_turns, silent)
            else:
                self.send(first, recipient, silent=silent)
        return self._chat_result(recipient, summary_method, summary_args, cache)

    async def a_initiate_chat(
        self, recipient: "ConversableAgent", clear_history: bool = True, silent: Optional[bool] = False,
        cache: Optional[Any] = None, max_turns: Optional[int] = None,
        summary_method: Optional[Union[str, Callable[..., Any]]] = DEFAULT_SUMMARY_METHOD,
        summary_args: Optional[dict[str, Any]] = {},
        message: Optional[Union[str, Callable[..., Any], dict[str, Any]]] = None, **kwargs: Any,
    ) -> ChatResult:
        """(async) Start a chat with ``recipient``; see ``initiate_chat``."""
        self._check_chat_arguments(recipient, message, max_turns, summary_method, summary_args)
        summary_args = dict(summary_args or {})  # a copy: the summary method may add "cache"
        with self._chat_session(recipient, clear_history, silent, cache, max_turns) as cache:
            first = await self._a_first_message(recipient, message, kwargs)
            if isinstance(max_turns, int):
                await self._a_run_turns(recipient, first, max_turns, silent)
            else:
                await self.a_send(first, recipient, silent=silent)
        return self._chat_result(recipient, summary_method, summary_args, cache)

    def initiate_chat_stream(self, recipient: "ConversableAgent", **kwargs: Any) -> ChatStream:
        """Start a chat like ``initiate_chat`` and return the stream of its events.

        Iterate it to receive every event of the chat as it happens (the classic
        ``autogen_classic.messages`` events plus speaker selections, model requests and the end of a
        group chat); nothing is printed. An ``InputRequestMessage`` asks for human input: answer it with
        ``event.respond(text)``. Leaving the loop stops the chat. When the loop ends, ``stream.result`` is
        the ``ChatResult``; an error of the chat is raised from the loop.

        Args:
            recipient: the agent to chat with.
            **kwargs: the arguments of ``initiate_chat`` (``message``, ``max_turns``, ``clear_history``, ...).
        """
        return ChatStream(lambda: self.initiate_chat(recipient, **kwargs))

    def a_initiate_chat_stream(self, recipient: "ConversableAgent", **kwargs: Any) -> AsyncChatStream:
        """(async) Start a chat like ``a_initiate_chat``; ``async for`` over the returned stream.

        The same events as ``initiate_chat_stream`` for the same chat. Use ``async with`` around the loop
        to stop the chat at once when leaving it early.
        """
        return AsyncChatStream(lambda: self.a_initiate_chat(recipient, **kwargs))

    def _run_turns(self, recipient: "ConversableAgent", first: Any, max_turns: int, silent: Optional[bool]) -> None:
        """Send ``first`` and then this agent's replies, one per turn, for at most ``max_turns`` turns.

        The turn loop of ``initiate_chat(max_turns=...)``, without its argument checks or result; the
        chat must already be prepared (``_prepare_chat`` with ``reply_at_receive=False``).
        """
        for turn in range(max_turns):
            if turn:
                first = self.generate_reply(messages=self.chat_messages[recipient], sender=recipient)
            if first is None:
                return
            self.send(first, recipient, request_reply=True, silent=silent)
        _max_turns_reached(self, recipient, max_turns)

    async def _a_run_turns(
        self, recipient: "ConversableAgent", first: Any, max_turns: int, silent: Optional[bool]
    ) -> None:
        """(async) See ``_run_turns``."""
        for turn in range(max_turns):
            if turn:
                first = await self.a_generate_reply(messages=self.chat_messages[recipient], sender=recipient)
            if first is None:
                return
            await self.a_send(first, recipient, request_reply=True, silent=silent)
        _max_turns_reached(self, recipient, max_turns)

    def _first_message(self, recipient: Agent, message: Any, kwargs: dict[str, Any]) -> Any:
        if callable(message):
            return message(self, recipient, kwargs)
        return self.generate_init_message(message, **kwargs)

    async def _a_first_message(self, recipient: Agent, message: Any, kwargs: dict[str, Any]) -> Any:
        if callable(message):
            result = message(self, recipient, kwargs)
            return await result if inspect.isawaitable(result) else result
        return await self.a_generate_init_message(message, **kwargs)

    def generate_init_message(self, message: Union[dict[str, Any], str, None], **kwargs: Any) -> Union[str, dict]:
        """The first message of a chat: ``message`` (asked at the console when None) plus any ``carryover``."""
        if message is None:
            message = self.get_human_input(">")
        return self._handle_carryover(message, kwargs)

    async def a_generate_init_message(self, message: Union[dict[str, Any], str, None], **kwargs: Any) -> Union[str, dict]:
        """(async) See ``generate_init_message``."""
        if message is None:
            message = await self.a_get_human_input(">")
        return self._handle_carryover(message, kwargs)

    def _handle_carryover(self, message: Union[str, dict[str, Any]], kwargs: dict[str, Any]) -> Union[str, dict]:
        """Add ``kwargs["carryover"]`` to the first ``message`` of a chat (unchanged without carryover).

        A str goes through ``_process_carryover``; a message dict is copied, its text content through
        ``_process_carryover`` and its multimodal content through ``_process_multimodal_carryover``.

        Raises:
            InvalidCarryOverTypeError: ``message`` is neither a str nor a dict, or the carryover is neither a str
                nor a list.
        """
        if not kwargs.get("carryover"):
            return message
        if isinstance(message, str):
            return self._process_carryover(message, kwargs)
        if not isinstance(message, dict):
            raise InvalidCarryOverType("Carryover should be a string or a list of strings.")
        content = message.get("content")
        if isinstance(content, str):
            return {**message, "content": self._process_carryover(content, kwargs)}
        if isinstance(content, list):
            return {**message, "content": self._process_multimodal_carryover(content, kwargs)}
        return message

    def _process_carryover(self, content: str, kwargs: dict[str, Any]) -> str:
        """``content`` followed by ``"\nContext: \n"`` and the carryover (a str, or a list: one item a line)."""
        carryover = kwargs.get("carryover")
        if not carryover:
            return content
        if not isinstance(carryover, (str, list)):
            raise InvalidCarryOverType(
                "Carryover should be a string or a list of strings. Not adding carryover to the message."
            )
        return content + "\nContext: \n" + carryover_text(carryover)

    def _process_multimodal_carryover(self, content: list[dict[str, Any]], kwargs: dict[str, Any]) -> list[dict]:
        """A multimodal ``content`` with the carryover (``_process_carryover`` of "") as a first text part."""
        if not kwargs.get("carryover"):
            return content
        return [{"type": "text", "text": self._process_carryover("", kwargs)}] + content

    def _summarize_chat(
        self, summary_method: Any, summary_args: dict[str, Any], recipient: Optional[Agent] = None, cache: Any = None
    ) -> str:
        if summary_method is None:
            return ""
        summary_args.setdefault("cache", cache)
        return summary_callable(summary_method)(self, recipient, summary_args)  # type: ignore[no-any-return]

    def _reflection_with_llm(
        self, prompt: str, messages: list[dict[str, Any]], llm_agent: Optional[Agent] = None, cache: Any = None,
        role: Optional[str] = None,
    ) -> Any:
        messages = messages + [{"role": role or "system", "content": prompt}]
        if llm_agent is not None and getattr(llm_agent, "client", None) is not None:
            llm_client = llm_agent.client  # type: ignore[attr-defined]
        elif self.client is not None:
            llm_client = self.client
        else:
            raise ValueError(
                "No OpenAIWrapper client is found: summary_method='reflection_with_llm' needs an llm_config on the "
                "sender or the recipient."
            )
        # By keyword, as in classic AutoGen: mocks of this call read call_args.kwargs["messages"].
        return self._generate_oai_reply_from_client(llm_client=llm_client, messages=messages, cache=cache)

    def initiate_chats(self, chat_queue: list[dict[str, Any]]) -> list[ChatResult]:
        """Run a sequence of chats from this agent, with carryover; see ``autogen_classic.initiate_chats``."""
        queue = _with_sender(chat_queue, self)
        self._finished_chats = initiate_chats(queue)
        return self._finished_chats

    async def a_initiate_chats(self, chat_queue: list[dict[str, Any]]) -> dict[int, ChatResult]:
        """(async) Run chats from this agent, concurrently where prerequisites allow."""
        queue = _with_sender(chat_queue, self)
        self._finished_chats = await a_initiate_chats(queue)  # type: ignore[assignment]
        return self._finished_chats  # type: ignore[return-value]

    def get_chat_results(self, chat_index: Optional[int] = None) -> Union[list[ChatResult], ChatResult]:
        """The results of ``initiate_chats`` (all, or one)."""
        return self._finished_chats if chat_index is None else self._finished_chats[chat_index]


def _max_turns_reached(sender: Any, recipient: Any, max_turns: int) -> None:
    """AG2 Classic 0.14's event for a chat that ran all its turns (to a run's stream only)."""
    emit_run_event(TerminationEvent, termination_reason=f"Maximum turns ({max_turns}) reached", sender=sender.name,
                   recipient=recipient.name)


def _check_max_turns(max_turns: Any) -> None:
    """Warn about a ``max_turns`` that is probably a mistake; it is used as given, as in the classic package."""
    expected = "max_turns should be a non-negative int (the most turns) or None (until a termination condition)"
    if max_turns is None or (isinstance(max_turns, int) and not isinstance(max_turns, bool) and max_turns >= 0):
        return
    if isinstance(max_turns, bool):
        effect = f"counts as {int(max_turns)}"
    elif isinstance(max_turns, int):
        effect = "no message is sent and the chat history stays empty"
    else:
        effect = "it is not an int, so it is ignored: the chat runs until a termination condition, as with None"
    warn_argument(f"{expected}; got {max_turns!r}. It is used as given: {effect}.")


def _with_sender(chat_queue: Any, sender: Any) -> Any:
    """The queue with ``sender`` filled in where an entry has none; anything malformed is left for the
    queue check to report (naming the bad entry)."""
    if not isinstance(chat_queue, list):
        return chat_queue
    return [
        {**info, "sender": info.get("sender") or sender} if isinstance(info, dict) else info for info in chat_queue
    ]
