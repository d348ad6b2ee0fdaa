"""Chat results, summaries (``last_msg``, ``reflection_with_llm``), carryover and sequences of chats."""

from __future__ import annotations

import asyncio
import uuid
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional, TypedDict, Union

from openai import BadRequestError

from ..coding.utils import content_str  # also importable here, as in classic AutoGen
from ..exception_utils import InvalidArgumentError, InvalidArgumentTypeError, InvalidCarryOverType
from ..io import IOStream
from ..events.chat_events import PostCarryoverProcessingEvent
from ..io.emit import emit
from ..oai.errors import AllEndpointsFailedError
from .termination import StopMessage
from .utils import SUMMARY_METHODS, check_reflection_client, consolidate_chat_info, validate_summary_method

if TYPE_CHECKING:
    from .conversable_agent import ConversableAgent

DEFAULT_SUMMARY_PROMPT = "Summarize the takeaway from the conversation. Do not add any introductory phrases."

__all__ = [
    "ChatResult",
    "CostDict",
    "DEFAULT_SUMMARY_PROMPT",
    "IOStream",
    "SUMMARY_METHODS",
    "a_initiate_chats",
    "append_carryover",
    "carryover_text",
    "consolidate_chat_info",
    "initiate_chats",
    "last_msg_summary",
    "reflection_with_llm_summary",
    "validate_summary_method",
]


class CostDict(TypedDict):
    """The shape of ``ChatResult.cost``: usage and cost with and without the cached model calls."""

    usage_including_cached_inference: dict[str, Any]
    usage_excluding_cached_inference: dict[str, Any]


@dataclass
class ChatResult:
    """The result of a chat: its history, a summary, its cost and the human input given."""

    # The defaults of autogen 0.14 (a fresh id, empty history, "" summary, empty usage); ag2 0.7.3 had None
    # everywhere. Chats fill every field in, so only a hand-built ChatResult sees them.
    chat_id: Optional[int] = field(default_factory=lambda: uuid.uuid4().int)
    """The id of the chat (a random 128-bit number unless ``a_initiate_chats`` numbers the chats)."""
    chat_history: Optional[list[dict[str, Any]]] = field(default_factory=list)
    """The messages of the chat, as the initiating agent stored them."""
    summary: Optional[str] = ""
    """A summary obtained from the chat with the chosen ``summary_method``."""
    cost: Optional[dict[str, dict[str, Any]]] = field(
        default_factory=lambda: {"usage_including_cached_inference": {}, "usage_excluding_cached_inference": {}}
    )
    """Usage and cost: ``usage_including_cached_inference`` and ``usage_excluding_cached_inference``."""
    human_input: Optional[list[str]] = field(default_factory=list)
    """Every line of human input given during the chat."""
    # Not a dataclass field, so that the fields, repr, equality and asdict() stay the classic ones.
    termination = None  # type: Optional[StopMessage]
    """The termination condition that ended the chat, as data (``content``, ``source``, ``details``); None when
    the chat ended otherwise (``max_turns``, ``max_round``, no reply) or no condition says why."""

    def with_termination(self, stop: Optional[StopMessage]) -> "ChatResult":
        """Set ``termination`` and return this result."""
        self.termination = stop
        return self


def last_msg_summary(sender: "ConversableAgent", recipient: "ConversableAgent", summary_args: dict) -> str:
    """The last message of the chat without the word TERMINATE."""
    try:
        content = recipient.last_message(sender)["content"]  # type: ignore[index]
    except (IndexError, KeyError, TypeError, AttributeError) as e:
        warnings.warn(f"Cannot extract summary using last_msg: {e}. Using an empty str as summary.", UserWarning)
        return ""
    if isinstance(content, str):
        return content.replace("TERMINATE", "")
    if isinstance(content, list):
        return "\n".join(
            part["text"].replace("TERMINATE", "") for part in content if isinstance(part, dict) and "text" in part
        )
    return ""


def reflection_with_llm_summary(
    sender: "ConversableAgent", recipient: Optional["ConversableAgent"], summary_args: dict
) -> str:
    """Ask a model to summarize the chat (``summary_args``: ``summary_prompt``, ``summary_role``)."""
    prompt = summary_args.get("summary_prompt")
    prompt = DEFAULT_SUMMARY_PROMPT if prompt is None else prompt
    if not isinstance(prompt, str):
        raise ValueError("The summary_prompt must be a string.")
    role = summary_args.get("summary_role")
    if role and not isinstance(role, str):
        raise ValueError("The summary_role in summary_arg must be a string.")
    agent = sender if recipient is None else recipient
    messages = agent.chat_messages_for_summary(sender) if recipient is not None else []
    try:
        summary = sender._reflection_with_llm(prompt, messages, llm_agent=agent, cache=summary_args.get("cache"),
                                              role=role)
    except (BadRequestError, AllEndpointsFailedError) as e:
        # A rejected summary request (HTTP 400) leaves an empty summary, as classic AutoGen does;
        # the client layer wraps the endpoint's error, so look at the error it gave up on.
        cause = e.last_error if isinstance(e, AllEndpointsFailedError) else e
        if not isinstance(cause, BadRequestError):
            raise
        warnings.warn(f"Cannot extract summary using reflection_with_llm: {cause}. Using an empty str as summary.",
                      UserWarning)
        return ""
    if isinstance(summary, dict):
        return str(summary.get("content") or "")
    return summary or ""


def _post_process_carryover_item(carryover_item: Any) -> str:
    """One carryover item as text: a str as is, a message dict's content (text parts joined; None as ""),
    anything else as ``str()``."""
    if isinstance(carryover_item, str):
        return carryover_item
    if isinstance(carryover_item, dict) and "content" in carryover_item:
        content = carryover_item["content"]
        return content_str(content) if content is None or isinstance(content, (str, list)) else str(content)
    return str(carryover_item)


def carryover_text(carryover: Union[str, list[Any]]) -> str:
    """The carryover as one text, one item a line."""
    if isinstance(carryover, str):
        return carryover
    if isinstance(carryover, list):
        return "\n".join(_post_process_carryover_item(item) for item in carryover)
    raise InvalidCarryOverType("Carryover should be a string or a list of strings.")


def append_carryover(message: Union[str, dict[str, Any]], carryover: Any) -> Union[str, dict[str, Any]]:
    """Attach ``carryover`` to the first message of a chat, as classic AutoGen does ("\\nContext: \\n...")."""
    if not carryover:
        return message
    if isinstance(message, str):
        return message + "\nContext: \n" + carryover_text(carryover)
    if isinstance(message, dict):
        content = message.get("content")
        if isinstance(content, str):
            return {**message, "content": content + "\nContext: \n" + carryover_text(carryover)}
        if isinstance(content, list):
            prefix = {"type": "text", "text": "\nContext: \n" + carryover_text(carryover)}
            return {**message, "content": [prefix] + content}
        return message
    raise InvalidCarryOverType("Carryover should be a string or a list of strings.")


def _check_queue(chat_queue: list[dict[str, Any]]) -> None:
    # Every chat is checked before the first one runs (the classic package asserted these).
    if not isinstance(chat_queue, list):
        raise InvalidArgumentTypeError(
            f"chat_queue must be a list of dicts of initiate_chat arguments; got {type(chat_queue).__name__}."
        )
    recipients = []
    for index, chat_info in enumerate(chat_queue):
        if not isinstance(chat_info, dict):
            raise InvalidArgumentTypeError(
                f"chat_queue[{index}] must be a dict of initiate_chat arguments; got {type(chat_info).__name__}."
            )
        if "recipient" not in chat_info:
            raise InvalidArgumentError(f"chat_queue[{index}] has no 'recipient': every chat needs one.")
        if chat_info.get("sender") is None:
            raise InvalidArgumentError(
                f"chat_queue[{index}] has no 'sender': give one, or call sender.initiate_chats(...)."
            )
        _check_carryover(index, chat_info.get("carryover", []))
        summary_method = chat_info.get("summary_method", "last_msg")
        validate_summary_method(summary_method)
        if summary_method == "reflection_with_llm":
            check_reflection_client(chat_info["sender"], chat_info["recipient"])
        recipients.append(chat_info["recipient"])
    if len(set(map(id, recipients))) < len(recipients):
        warnings.warn(
            "Repetitive recipients detected: The chat history will be cleared by default if a recipient appears more "
            "than once. To retain the chat history, please set 'clear_history=False' in the configuration of the "
            "repeating agent.",
            UserWarning,
        )


class _CarryoverTypeError(InvalidCarryOverType, TypeError):
    """A chat_queue carryover of the wrong type: the classic ``InvalidCarryOverTypeError``, and the ``TypeError``
    a classic chat queue raised for it."""


def _check_carryover(index: int, carryover: Any) -> None:
    # A tuple is taken as a list, as this package always has.
    if not isinstance(carryover, (str, list, tuple)):
        raise _CarryoverTypeError(
            f"chat_queue[{index}]['carryover'] must be a str or a list (of str or message dicts); got {carryover!r} "
            f"({type(carryover).__name__}). Pass carryover='text' or carryover=['text', ...], or leave it out."
        )


def carried_over(chat_info: dict[str, Any], summaries: dict[Any, Optional[str]]) -> dict[str, Any]:
    """A copy of ``chat_info`` whose ``carryover`` (a list) also holds the ``summaries`` of earlier chats (a dict
    from index or chat id to summary), less those in ``finished_chat_indexes_to_exclude_from_carryover``."""
    carryover = chat_info.get("carryover", [])
    if isinstance(carryover, str):
        carryover = [carryover]
    excluded = chat_info.get("finished_chat_indexes_to_exclude_from_carryover", [])
    info = dict(chat_info)
    info["carryover"] = list(carryover) + [s for key, s in summaries.items() if key not in excluded]
    if "message" not in info:
        warnings.warn(
            "message is not provided in a chat_queue entry. input() will be called to get the initial message.",
            UserWarning,
        )
    return info


def _with_carryover(chat_info: dict[str, Any], summaries: dict[Any, Optional[str]]) -> dict[str, Any]:
    info = carried_over(chat_info, summaries)
    if not info.get("silent", False):
        message = info.get("message")
        shown = (
            message if isinstance(message, str)
            else "Callable: " + getattr(message, "__name__", "message") if callable(message)
            else "Dict: " + str(message) if isinstance(message, dict)
            else "None"
        )
        emit(
            PostCarryoverProcessingEvent, carryover=carryover_text(info["carryover"]), message=shown,
            verbose=bool(info.get("verbose", False)), sender=getattr(info.get("sender"), "name", ""),
            recipient=getattr(info.get("recipient"), "name", ""), summary_method=str(info.get("summary_method")),
            summary_args=info.get("summary_args"), max_turns=info.get("max_turns"),
        )
    return info


_NOT_CHAT_ARGS = ("sender", "chat_id", "prerequisites", "finished_chat_indexes_to_exclude_from_carryover")


def _chat_kwargs(info: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in info.items() if k not in _NOT_CHAT_ARGS}


def initiate_chats(chat_queue: list[dict[str, Any]]) -> list[ChatResult]:
    """Run chats one after another; each chat's carryover holds the summaries of the chats before it.

    Args:
        chat_queue: a list of dicts, each holding the arguments of ``ConversableAgent.initiate_chat`` plus
            ``"sender"`` and ``"recipient"``; optional ``"carryover"`` (str or list) and
            ``"finished_chat_indexes_to_exclude_from_carryover"`` (indexes of earlier chats whose summaries to skip).

    Returns:
        a list of ``ChatResult``, one per chat, in order.
    """
    _check_queue(chat_queue)
    finished: list[ChatResult] = []
    for chat_info in chat_queue:
        info = _with_carryover(chat_info, {i: r.summary for i, r in enumerate(finished)})
        finished.append(info["sender"].initiate_chat(**_chat_kwargs(info)))
    return finished


async def a_initiate_chats(chat_queue: list[dict[str, Any]]) -> dict[int, ChatResult]:
    """(async) Run chats concurrently, each after its ``prerequisites`` (a list of ``chat_id``) have finished.

    Every chat needs a unique ``"chat_id"``; a chat's carryover holds the summaries of its prerequisites.

    Returns:
        a dict from ``chat_id`` to ``ChatResult``.
    """
    _check_queue(chat_queue)
    by_id: dict[int, dict[str, Any]] = {}
    for index, chat_info in enumerate(chat_queue):
        if "chat_id" not in chat_info:
            raise ValueError("Each chat must have a unique id for async multi-chat execution.")
        if chat_info["chat_id"] in by_id:
            raise ValueError(f"chat_queue[{index}] repeats chat_id {chat_info['chat_id']!r}; chat ids must be unique.")
        for pre in chat_info.get("prerequisites", []):
            if not isinstance(pre, int):
                raise ValueError("Prerequisite chat id is not int.")
        by_id[chat_info["chat_id"]] = chat_info
    for chat_id, info in by_id.items():
        unknown = [p for p in info.get("prerequisites", []) if p not in by_id]
        if unknown:
            raise ValueError(f"chat {chat_id} lists unknown prerequisites {unknown}; known chat ids: {list(by_id)}.")

    tasks: dict[int, asyncio.Task[ChatResult]] = {}
    visiting: set[int] = set()

    def task_for(chat_id: int) -> "asyncio.Task[ChatResult]":
        if chat_id in tasks:
            return tasks[chat_id]
        if chat_id in visiting:
            raise ValueError(f"The prerequisites of chat {chat_id} form a cycle.")
        visiting.add(chat_id)
        prerequisites = [task_for(p) for p in by_id[chat_id].get("prerequisites", [])]
        tasks[chat_id] = asyncio.ensure_future(_run_after(chat_id, by_id[chat_id], prerequisites, by_id))
        return tasks[chat_id]

    for chat_id in by_id:
        task_for(chat_id)
    await asyncio.gather(*tasks.values())
    return {chat_id: tasks[chat_id].result() for chat_id in by_id}


async def _run_after(
    chat_id: int, chat_info: dict[str, Any], prerequisites: list["asyncio.Task[ChatResult]"], by_id: dict
) -> ChatResult:
    results = [await task for task in prerequisites]
    summaries = {pre: r.summary for pre, r in zip(chat_info.get("prerequisites", []), results)}
    info = _with_carryover(chat_info, summaries)
    result: ChatResult = await info["sender"].a_initiate_chat(**_chat_kwargs(info))
    result.chat_id = chat_id
    return result


def summary_callable(summary_method: Union[str, Callable[..., Any]]) -> Callable[..., Any]:
    """The function computing a summary for a ``summary_method`` name or callable."""
    if summary_method == "last_msg":
        return last_msg_summary
    if summary_method == "reflection_with_llm":
        return reflection_with_llm_summary
    return summary_method  # type: ignore[return-value]
