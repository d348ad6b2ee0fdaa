"""The ordered reply-function pipeline of an agent: registration, triggers, hooks, ``generate_reply``.

``generate_reply`` walks the registered reply functions (the last registered first, unless a
position was given) and returns the first final reply.
"""

from __future__ import annotations

import copy
import functools
import inspect
import weakref
from itertools import repeat
from typing import Any, Callable, Optional, Union

from ... import runtime_logging
from ...exception_utils import InvalidArgumentError, InvalidArgumentTypeError, SenderRequired
from ...types import Agent, is_agent
from . import builtin_replies
from .nested_chats import a_summary_from_nested_chats, summary_from_nested_chats
from .guards.safeguard_hooks import SAFEGUARD_HOOKS

__all__ = ["ReplyPipelineMixin", "HOOKABLE_METHODS", "ReplyFunction", "Trigger"]

ReplyFunction = Callable[..., tuple[bool, Union[str, dict[str, Any], None]]]
Trigger = Union[type, str, Agent, Callable[[Optional[Agent]], bool], list, None]

HOOKABLE_METHODS = (
    "process_last_received_message",
    "process_all_messages_before_reply",
    "process_message_before_send",
    "update_agent_state",
    *SAFEGUARD_HOOKS,  # checks of the exchanges with tools, the model and the human (see safeguard_hooks.py)
)


def _is_shadowed_sync_builtin(reply_func: Any, registered: set[Any]) -> bool:
    """A built-in sync reply function whose async twin is registered too: async chats run only the twin."""
    name = getattr(reply_func, "__name__", "")
    twin = builtin_replies.ASYNC_TWINS.get(name)
    return twin is not None and reply_func is getattr(builtin_replies, name) and \
        getattr(builtin_replies, twin) in registered


# Held weakly: a remembered answer must not keep a reply function (or the agent of a bound method) alive
# after its agent is gone, as a study of thousands of chats would otherwise pile them up. Keyed by id (with
# the weak reference checked, since ids are reused): cheaper to read than a WeakKeyDictionary, and it is
# read for every reply function of every reply.
_ASYNC_ANSWERS: dict[int, tuple["weakref.ref[Any]", bool]] = {}


def _forget(key_id: int) -> Callable[[Any], None]:
    def forget(_: Any) -> None:
        _ASYNC_ANSWERS.pop(key_id, None)

    return forget


def is_async_reply_function(func: Callable[..., Any]) -> bool:
    """``inspect.iscoroutinefunction``, remembered: every reply of every agent asks it of each reply function."""
    key = getattr(func, "__func__", func)  # a bound method is made anew on each access; its function is not
    known = _ASYNC_ANSWERS.get(id(key))
    if known is not None and known[0]() is key:
        return known[1]
    answer = inspect.iscoroutinefunction(func)
    try:
        _ASYNC_ANSWERS[id(key)] = (weakref.ref(key, _forget(id(key))), answer)
    except TypeError:  # a callable that cannot be weakly referenced: asked each time
        pass
    return answer


class ReplyPipelineMixin:
    """Reply-function registration and dispatch for ``ConversableAgent``."""

    _reply_func_list: list[dict[str, Any]]
    hook_lists: dict[str, list[Callable[..., Any]]]
    _oai_messages: Any
    _default_auto_reply: Union[str, dict[str, Any]]
    def register_reply(
        self,
        trigger: Trigger,
        reply_func: ReplyFunction,
        position: int = 0,
        config: Optional[Any] = None,
        reset_config: Optional[Callable[[Any], None]] = None,
        *,
        ignore_async_in_sync_chat: bool = False,
        remove_other_reply_funcs: bool = False,
    ) -> None:
        """Register a reply function, checked when ``trigger`` matches the sender.

        Args:
            trigger: an Agent class, an agent name, an agent, a callable of the sender returning bool, None
                (matches when there is no sender) or a list of these.
            reply_func: ``reply_func(recipient, messages, sender, config) -> (final, reply)``; sync or async.
            position: where to insert it; 0 (default) means it is checked before those registered earlier.
            config: passed to ``reply_func``; a copy is restored by ``reset()``.
            reset_config: called with the config on ``reset()`` instead of restoring the copy.
            ignore_async_in_sync_chat: skip this async function in sync chats instead of raising.
            remove_other_reply_funcs: remove every other reply function first.
        """
        if not (trigger is None or isinstance(trigger, (type, str, list)) or callable(trigger) or is_agent(trigger)):
            raise ValueError("trigger must be a class, a string, an agent, a callable or a list.")
        if not callable(reply_func):
            raise TypeError(f"reply_func must be callable; got {type(reply_func).__name__}.")
        if not isinstance(position, int):
            raise TypeError(f"position must be an int; got {type(position).__name__}.")
        if remove_other_reply_funcs:
            self._reply_func_list.clear()
        self._reply_func_list.insert(
            position,
            {
                "trigger": trigger,
                "reply_func": reply_func,
                "config": copy.copy(config),
                "init_config": config,
                "reset_config": reset_config,
                "ignore_async_in_sync_chat": ignore_async_in_sync_chat and inspect.iscoroutinefunction(reply_func),
            },
        )

    def replace_reply_func(self, old_reply_func: ReplyFunction, new_reply_func: ReplyFunction) -> None:
        """Replace a registered reply function."""
        for entry in self._reply_func_list:
            if entry["reply_func"] == old_reply_func:
                entry["reply_func"] = new_reply_func

    def register_nested_chats(
        self,
        chat_queue: list[dict[str, Any]],
        trigger: Trigger,
        reply_func_from_nested_chats: Union[str, Callable[..., Any]] = "summary_from_nested_chats",
        position: int = 2,
        use_async: Optional[bool] = None,
        **kwargs: Any,
    ) -> None:
        """Reply to ``trigger`` by running the chats of ``chat_queue`` and answering with the last summary.

        Args:
            chat_queue: the chats to run (``initiate_chats`` entries; the sender defaults to this agent and the
                first chat's message defaults to the last received message).
            trigger: see ``register_reply``.
            reply_func_from_nested_chats: "summary_from_nested_chats" or
                ``f(chat_queue, recipient, messages, sender, config) -> (final, reply)``.
            position: default 2: after the termination and human-input check.
            use_async: run the nested chats with ``a_initiate_chats`` (each needs a ``chat_id``).
        """
        if not isinstance(chat_queue, list) or not all(isinstance(c, dict) for c in chat_queue):
            raise TypeError("chat_queue must be a list of dicts of initiate_chat arguments (each with a 'recipient').")
        for index, chat in enumerate(chat_queue):
            if "recipient" not in chat:
                raise ValueError(f"chat_queue[{index}] has no 'recipient': every nested chat needs one.")
        if use_async:
            if any(chat.get("chat_id") is None for chat in chat_queue):
                raise ValueError("chat_id is required for async nested chats")
            func = a_summary_from_nested_chats if reply_func_from_nested_chats == "summary_from_nested_chats" \
                else reply_func_from_nested_chats
            if not callable(func) or not inspect.iscoroutinefunction(func):
                raise ValueError("reply_func_from_nested_chats must be a callable and a coroutine")

            async def async_reply(
                recipient: Any, messages: Any = None, sender: Any = None, config: Any = None
            ) -> Any:
                return await func(chat_queue, recipient, messages, sender, config)  # type: ignore[misc]

            wrapped: Callable[..., Any] = async_reply
        else:
            func = summary_from_nested_chats if reply_func_from_nested_chats == "summary_from_nested_chats" \
                else reply_func_from_nested_chats
            if not callable(func):
                raise ValueError("reply_func_from_nested_chats must be a callable")

            def sync_reply(recipient: Any, messages: Any = None, sender: Any = None, config: Any = None) -> Any:
                return func(chat_queue, recipient, messages, sender, config)  # type: ignore[operator]

            wrapped = sync_reply
        functools.update_wrapper(wrapped, func)  # type: ignore[arg-type]
        self.register_reply(
            trigger,
            wrapped,
            position,
            kwargs.get("config"),
            kwargs.get("reset_config"),
            ignore_async_in_sync_chat=(
                not use_async if use_async is not None else kwargs.get("ignore_async_in_sync_chat", False)
            ),
        )

    def register_hook(self, hookable_method: str, hook: Callable[..., Any]) -> None:
        """Register a hook for one of ``process_last_received_message``, ``process_all_messages_before_reply``,
        ``process_message_before_send``, ``update_agent_state`` or the ``safeguard_*`` hook lists."""
        if hookable_method not in self.hook_lists:
            raise InvalidArgumentError(
                f"{hookable_method} is not a hookable method; choose one of {list(self.hook_lists)}."
            )
        if hook in self.hook_lists[hookable_method]:
            raise InvalidArgumentError(f"{hook} is already registered as a hook.")
        self.hook_lists[hookable_method].append(hook)

    def _match_trigger(self, trigger: Trigger, sender: Optional[Agent]) -> bool:
        # Runs for every reply function on every reply: the common triggers (None, Agent and the
        # built-ins' [Agent, None]) are tested first, without a generator.
        if trigger is None:
            return sender is None
        if trigger is Agent:
            return is_agent(sender)
        if type(trigger) is list:
            for each in trigger:
                if self._match_trigger(each, sender):
                    return True
            return False
        if isinstance(trigger, str):
            if sender is None:
                raise SenderRequired()
            return trigger == sender.name
        if isinstance(trigger, type):
            return isinstance(sender, trigger)
        if isinstance(trigger, list):
            return any(self._match_trigger(t, sender) for t in trigger)
        if is_agent(trigger):
            return trigger == sender
        if callable(trigger):
            result = trigger(sender)
            if not isinstance(result, bool):
                raise InvalidArgumentTypeError(f"trigger {trigger} must return a boolean value.")
            return result
        raise ValueError(f"Unsupported trigger type: {type(trigger)}")

    def _prepare_messages_for_reply(self, messages: Optional[list[dict[str, Any]]], sender: Optional[Agent]) -> list:
        if messages is None and sender is None:
            raise InvalidArgumentError(
                f"Either messages={messages} or sender={sender} must be provided: pass the conversation, or the "
                "agent whose stored conversation to reply to."
            )
        # A conversation this agent stores was checked message by message when stored: only lists
        # from elsewhere are read through (in C, as this runs on every reply).
        if (
            messages is not None
            and messages is not self._oai_messages.get(sender)  # type: ignore[arg-type]
            and (not isinstance(messages, list) or not all(map(isinstance, messages, repeat(dict))))
        ):
            bad = messages if not isinstance(messages, list) else next(m for m in messages if not isinstance(m, dict))
            raise TypeError(
                "messages must be a list of message dicts (e.g. [{'role': 'user', 'content': 'hi'}]) or None for "
                f"the stored conversation with sender; got {'an item ' if bad is not messages else ''}"
                f"{type(bad).__name__} {bad!r:.60}."
            )
        if messages is None:
            messages = self._oai_messages[sender]  # type: ignore[index]
        self.update_agent_state_before_reply(messages)
        messages = self.process_last_received_message(messages)
        return self.process_all_messages_before_reply(messages)

    def generate_reply(
        self, messages: Optional[list[dict[str, Any]]] = None, sender: Optional[Agent] = None, **kwargs: Any
    ) -> Union[str, dict[str, Any], None]:
        """Reply to ``sender`` with the first final reply of the reply functions (async ones are skipped).

        Args:
            messages: the conversation so far (default: the stored conversation with ``sender``).
            sender: the agent to reply to.

        Keyword Args:
            exclude: reply functions to skip.
        """
        messages = self._prepare_messages_for_reply(messages, sender)
        exclude = kwargs.get("exclude", ())
        for entry in list(self._reply_func_list):
            reply_func = entry["reply_func"]
            if reply_func in exclude or is_async_reply_function(reply_func):
                continue
            if self._match_trigger(entry["trigger"], sender):
                final, reply = reply_func(self, messages=messages, sender=sender, config=entry["config"])
                if runtime_logging.is_logging:
                    runtime_logging.log_event(
                        self, "reply_func_executed", reply_func_module=getattr(reply_func, "__module__", None),
                        reply_func_name=getattr(reply_func, "__name__", repr(reply_func)), final=final, reply=reply,
                    )
                if final:
                    return reply
        return self._default_auto_reply

    async def a_generate_reply(
        self, messages: Optional[list[dict[str, Any]]] = None, sender: Optional[Agent] = None, **kwargs: Any
    ) -> Union[str, dict[str, Any], None]:
        """(async) Like ``generate_reply``; async reply functions are awaited, and a built-in sync reply
        function whose async twin is registered is not run a second time."""
        messages = self._prepare_messages_for_reply(messages, sender)
        exclude = kwargs.get("exclude", ())
        registered = {entry["reply_func"] for entry in self._reply_func_list}
        for entry in list(self._reply_func_list):
            reply_func = entry["reply_func"]
            if reply_func in exclude:
                continue
            if _is_shadowed_sync_builtin(reply_func, registered):
                continue
            if self._match_trigger(entry["trigger"], sender):
                if is_async_reply_function(reply_func):
                    final, reply = await reply_func(self, messages=messages, sender=sender, config=entry["config"])
                else:
                    final, reply = reply_func(self, messages=messages, sender=sender, config=entry["config"])
                if final:
                    return reply
        return self._default_auto_reply

    # ----------------------------------------------------------------- hooks
    def update_agent_state_before_reply(self, messages: list[dict[str, Any]]) -> None:
        """Let ``update_agent_state`` hooks update this agent (e.g. its system message) before it replies.

        Each hook is called as ``hook(agent, messages)``, in the order registered.
        """
        for hook in self.hook_lists["update_agent_state"]:
            hook(self, messages)

    def process_last_received_message(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Let hooks rewrite the text of the last received message.

        As in the classic packages, the rewritten text replaces the content of the stored last message
        (of this agent's history only), and a copy of the list is returned.
        """
        hooks = self.hook_lists["process_last_received_message"]
        if not hooks or not messages:
            return messages
        last = messages[-1]
        if last.get("function_call") or last.get("tool_calls") or not isinstance(last.get("content"), str):
            return messages
        if last["content"] == "exit":
            return messages
        content = last["content"]
        for hook in hooks:
            content = hook(content)
        if content == last["content"]:
            return messages
        messages = messages.copy()
        messages[-1]["content"] = content
        return messages

    def process_all_messages_before_reply(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Let hooks transform the whole message list before a reply is generated."""
        for hook in self.hook_lists["process_all_messages_before_reply"]:
            messages = hook(messages)
        return messages

    def _process_message_before_send(self, message: Any, recipient: Agent, silent: bool) -> Any:
        for hook in self.hook_lists["process_message_before_send"]:
            message = hook(sender=self, message=message, recipient=recipient, silent=silent)
        return message
