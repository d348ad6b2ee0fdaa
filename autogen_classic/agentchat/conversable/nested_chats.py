"""Nested chats: an agent answers by running other chats and replying with their summary."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Union

from ..chat import a_initiate_chats, initiate_chats

if TYPE_CHECKING:
    from ..agent import Agent

__all__ = ["chats_to_run", "summary_from_nested_chats", "a_summary_from_nested_chats"]


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
