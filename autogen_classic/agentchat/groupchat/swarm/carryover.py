"""What a nested-chat hand-off carries over from the swarm: the first nested chat's ``carryover_config``.

The first chat of a hand-off's ``chat_queue`` may hold ``"carryover_config": {"summary_method": ...,
"summary_args": {...}}``; its message then gets ``"\\nContext:\\n"`` and the swarm's messages so far, all of
them (``"all"``), the last one (``"last_msg"``), a model's summary (``"reflection_with_llm"``, asked of the
first chat's recipient) or what a callable ``(agent, messages, summary_args) -> str`` makes of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional, Union

from ...chat import DEFAULT_SUMMARY_PROMPT
from ...conversable.nested_chats import a_summary_from_nested_chats, summary_from_nested_chats

if TYPE_CHECKING:
    from ...agent import Agent

__all__ = ["CARRYOVER_METHODS", "carryover_chat_queue", "check_carryover_config", "swarm_summary_from_nested_chats",
           "a_swarm_summary_from_nested_chats"]

CARRYOVER_METHODS = ("all", "last_msg", "reflection_with_llm")
"""The named ``summary_method`` values of a ``carryover_config``; a callable is accepted too."""


def _handoff_trimmed(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages before the hand-off: the transfer call and its result are not context for the chats."""
    end = len(messages)
    while end > 0 and len(messages) - end < 2 and (
            messages[end - 1].get("role") == "tool" or messages[end - 1].get("tool_calls")):
        end -= 1
    return messages[:end]


def _joined(messages: list[dict[str, Any]]) -> str:
    return "\n".join(str(m["content"]) for m in messages if m.get("content") is not None)


def check_carryover_config(config: Any, agent_name: str) -> None:
    """Raise ValueError naming ``agent_name`` and the accepted values when ``config`` cannot be used."""
    if not isinstance(config, dict):
        raise ValueError(f"The nested-chat hand-off of agent {agent_name!r} has carryover_config={config!r}; it must "
                         "be a dict with a 'summary_method' key.")
    if "summary_method" not in config:
        raise ValueError("Carryover configuration must contain a 'summary_method' key")
    method = config["summary_method"]
    if not callable(method) and method not in CARRYOVER_METHODS:
        raise ValueError(f"The nested-chat hand-off of agent {agent_name!r} has carryover_config summary_method="
                         f"{method!r}; it accepts {', '.join(map(repr, CARRYOVER_METHODS))} or a callable "
                         "(agent, messages, summary_args) -> str.")


def _carryover_text(config: Any, messages: list[dict[str, Any]], first_chat: dict[str, Any], agent: "Agent") -> str:
    check_carryover_config(config, agent.name)
    method: Union[str, Callable[..., Any]] = config["summary_method"]
    summary_args = config.get("summary_args") or {}
    if method == "all":
        return _joined(messages)
    if method == "last_msg":
        return _joined(messages[-1:])
    if method == "reflection_with_llm":
        recipient = first_chat["recipient"]
        prompt = summary_args.get("summary_prompt", DEFAULT_SUMMARY_PROMPT)
        summary = recipient._reflection_with_llm(prompt, [dict(m) for m in messages], llm_agent=recipient,
                                                 cache=summary_args.get("cache"), role=summary_args.get("summary_role"))
        return str(summary.get("content") or "") if isinstance(summary, dict) else str(summary or "")
    return str(method(agent, messages, summary_args))  # type: ignore[operator]  # checked: a callable


def carryover_chat_queue(chat_queue: list[dict[str, Any]], recipient: "Agent",
                         messages: Optional[list[dict[str, Any]]], sender: Optional["Agent"],
                         config: Any) -> list[dict[str, Any]]:
    """``chat_queue`` with the first chat's message extended by its carryover (a copy; the queue is untouched).

    Args:
        chat_queue: the hand-off's nested chats; only the first one's ``carryover_config`` is read.
        recipient: the agent that runs the nested chats.
        messages: the swarm's messages it received; the hand-off's transfer call and result are left out.
        sender: the swarm's manager.
        config: passed on to a callable first message.
    """
    if not chat_queue or "carryover_config" not in chat_queue[0]:
        return chat_queue
    first = dict(chat_queue[0])
    history = _handoff_trimmed(list(messages or []))
    carryover = _carryover_text(first.pop("carryover_config"), history, first, recipient)
    message = first.get("message")
    if callable(message):
        message = message(recipient, messages, sender, config)
    prefix = f"{message}\n" if message else ""
    first["message"] = f"{prefix}Context:\n{carryover}"
    return [first] + list(chat_queue[1:])


def swarm_summary_from_nested_chats(chat_queue: list[dict[str, Any]], recipient: "Agent",
                                    messages: Optional[list[dict[str, Any]]] = None, sender: Optional["Agent"] = None,
                                    config: Any = None) -> tuple[bool, Union[str, None]]:
    """Run a hand-off's nested chats, the first one with its carryover; reply with the last chat's summary."""
    queue = carryover_chat_queue(chat_queue, recipient, messages, sender, config)
    return summary_from_nested_chats(queue, recipient, messages, sender, config)


async def a_swarm_summary_from_nested_chats(
        chat_queue: list[dict[str, Any]], recipient: "Agent", messages: Optional[list[dict[str, Any]]] = None,
        sender: Optional["Agent"] = None, config: Any = None) -> tuple[bool, Union[str, None]]:
    """(async) ``swarm_summary_from_nested_chats`` with ``a_initiate_chats``."""
    queue = carryover_chat_queue(chat_queue, recipient, messages, sender, config)
    return await a_summary_from_nested_chats(queue, recipient, messages, sender, config)
