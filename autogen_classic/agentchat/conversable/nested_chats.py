"""Nested chats: an agent answers by running other chats and replying with their summary."""

from __future__ import annotations

import functools
import inspect
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

from ..chat import a_initiate_chats, initiate_chats

if TYPE_CHECKING:
    from ..agent import Agent
    from ..conversable_agent import ConversableAgent

__all__ = ["register_nested_chats", "chats_to_run", "summary_from_nested_chats", "a_summary_from_nested_chats"]


def chats_to_run(
    chat_queue: list[dict[str, Any]], recipient: "Agent", messages: Optional[list[dict[str, Any]]],
    sender: Optional["Agent"], config: Any,
) -> list[dict[str, Any]]:
    """The chats to start: the sender defaults to ``recipient``; the first message defaults to the last one
    received; a callable message is called with ``(recipient, messages, sender, config)``; empty ones are skipped."""
    last_content = messages[-1].get("content") if messages else None
    to_run = []
    for index, chat in enumerate(chat_queue):
        chat = dict(chat)
        chat.setdefault("sender", recipient)
        if chat["sender"] is None:
            chat["sender"] = recipient
        message = chat.get("message")
        if message is None and index == 0:
            message = last_content
        if callable(message):
            message = message(recipient, messages, sender, config)
        if message:
            chat["message"] = message
            to_run.append(chat)
    return to_run


def summary_from_nested_chats(
    chat_queue: list[dict[str, Any]], recipient: "Agent", messages: Optional[list[dict[str, Any]]] = None,
    sender: Optional["Agent"] = None, config: Any = None,
) -> tuple[bool, Union[str, None]]:
    """Run the nested chats and reply with the summary of the last one."""
    to_run = chats_to_run(chat_queue, recipient, messages, sender, config)
    if not to_run:
        return True, None
    return True, initiate_chats(to_run)[-1].summary


async def a_summary_from_nested_chats(
    chat_queue: list[dict[str, Any]], recipient: "Agent", messages: Optional[list[dict[str, Any]]] = None,
    sender: Optional["Agent"] = None, config: Any = None,
) -> tuple[bool, Union[str, None]]:
    """(async) Run the nested chats with ``a_initiate_chats`` and reply with the last chat's summary."""
    to_run = chats_to_run(chat_queue, recipient, messages, sender, config)
    if not to_run:
        return True, None
    results = await a_initiate_chats(to_run)
    return True, results[to_run[-1]["chat_id"]].summary


def register_nested_chats(
    agent: "ConversableAgent",
    chat_queue: list[dict[str, Any]],
    trigger: Any,
    reply_func_from_nested_chats: Union[str, Callable[..., Any]] = "summary_from_nested_chats",
    position: int = 2,
    use_async: Optional[bool] = None,
    **kwargs: Any,
) -> None:
    """Register on ``agent`` a reply function that runs ``chat_queue``; see ``ConversableAgent.register_nested_chats``."""
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

        async def async_reply(recipient: Any, messages: Any = None, sender: Any = None, config: Any = None) -> Any:
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
    agent.register_reply(
        trigger,
        wrapped,
        position,
        kwargs.get("config"),
        kwargs.get("reset_config"),
        ignore_async_in_sync_chat=(not use_async if use_async is not None else kwargs.get("ignore_async_in_sync_chat", False)),
    )
