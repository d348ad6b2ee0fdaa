"""Checks of the arguments agents are built and called with: each failure names the argument and the fix."""

from __future__ import annotations

from collections import defaultdict
from numbers import Real
from typing import Any, Callable, Optional

from ..exception_utils import InvalidArgumentTypeError
from .agent import Agent

__all__ = [
    "check_agent",
    "check_description",
    "check_init_arguments",
    "check_llm_config_type",
    "conversations",
    "shown",
]


def shown(value: Any) -> str:
    """``str 'b'``: the type and a short repr, for error messages."""
    return f"{type(value).__name__} {value!r:.60}"


def check_description(description: Any) -> None:
    """Refuse a description that is not a str."""
    if not isinstance(description, str):
        raise TypeError(
            f"description must be a str (how other agents see this agent), or None for the system message; "
            f"got {shown(description)}."
        )


def check_agent(value: Any, argument: str, method: str) -> None:
    """Refuse ``value`` as ``argument`` unless it has a name and the callable ``method``."""
    if not callable(getattr(value, method, None)) or not hasattr(value, "name"):
        hint = "; pass the agent object, not its name" if isinstance(value, str) else ""
        raise TypeError(f"{argument} must be an Agent (got {shown(value)}){hint}.")


def check_llm_config_type(llm_config: Any) -> None:
    """Refuse an ``llm_config`` that is not a dict, False or None (the classic package asserted this)."""
    if llm_config is not None and llm_config is not False and not isinstance(llm_config, dict):
        raise InvalidArgumentTypeError(
            f"llm_config must be a dict (with a 'config_list'), False (no model) or None; "
            f"got {type(llm_config).__name__}."
        )


def _check_max_consecutive_auto_reply(value: Any) -> None:
    # Any non-negative number works as a budget (float("inf") means no limit); bools are a mistake.
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, Real) or value < 0:
        raise ValueError(f"max_consecutive_auto_reply must be a non-negative int or None; got {value!r}.")


def check_init_arguments(
    name: Any,
    system_message: Any,
    is_termination_msg: Optional[Callable[..., Any]],
    max_consecutive_auto_reply: Any,
    default_auto_reply: Any,
    description: Any,
    context_variables: Any,
) -> None:
    """Check the ``ConversableAgent`` constructor arguments whose mistakes would only show mid-chat."""
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty str; got {name!r}.")
    if system_message is not None and not isinstance(system_message, (str, list)):
        raise TypeError(f"system_message must be a str or a list; got {type(system_message).__name__}.")
    if is_termination_msg is not None and not callable(is_termination_msg):
        raise TypeError("is_termination_msg must be a callable taking a message dict and returning a bool.")
    _check_max_consecutive_auto_reply(max_consecutive_auto_reply)
    if default_auto_reply is not None and not isinstance(default_auto_reply, (str, dict)):
        raise TypeError(
            f"default_auto_reply must be a str or a dict (or None: no reply); got {type(default_auto_reply).__name__}."
        )
    if description is not None:
        check_description(description)
    if context_variables is not None and not isinstance(context_variables, dict):
        raise TypeError(f"context_variables must be a dict of name -> value, or None; got {shown(context_variables)}.")


def conversations(chat_messages: Any) -> dict[Agent, list[dict[str, Any]]]:
    """The message store: ``chat_messages`` checked, as a dict that starts an empty list for a new peer."""
    if chat_messages is None:
        return defaultdict(list)
    if not isinstance(chat_messages, dict):
        raise TypeError(
            f"chat_messages must be a dict of agent -> list of message dicts (earlier conversations), or None; "
            f"got {shown(chat_messages)}."
        )
    for peer, conversation in chat_messages.items():
        if not hasattr(peer, "receive") or not hasattr(peer, "name"):
            raise TypeError(f"chat_messages keys must be agents (the peers of the conversations); got {shown(peer)}.")
        if not isinstance(conversation, list) or not all(isinstance(m, dict) for m in conversation):
            raise TypeError(f"chat_messages[{peer.name!r}] must be a list of message dicts; got {shown(conversation)}.")
    if isinstance(chat_messages, defaultdict):
        return chat_messages
    # The lists are kept (not copied); a plain dict would fail on the first message to a new peer.
    return defaultdict(list, chat_messages)
