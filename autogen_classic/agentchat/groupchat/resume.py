"""Saving and resuming a group chat: messages to and from JSON, validation, replay.

``resume_steps`` rebuilds the state of a finished (or interrupted) group chat from its
messages: every message but the last is replayed into the group chat and into each
agent's history, exactly as the chat would have stored it; the last agent and its
message are returned so the chat continues with
``last_agent.initiate_chat(manager, message=last_message, clear_history=False)``.
The replay is a generator of steps, run by the sync or the async driver.
"""

from __future__ import annotations

import copy
import json
import logging
from typing import Any, Callable, Generator, Optional, Union

from ...events.chat_events import GroupChatResumeEvent
from ...io.emit import emit
from .steps import Send, Step

__all__ = [
    "load_resume_messages",
    "messages_from_string",
    "messages_to_string",
    "remove_termination",
    "resume_steps",
    "validate_resume_messages",
]

logger = logging.getLogger(__name__)

_MESSAGE_BODY_KEYS = ("content", "function_call", "tool_calls")


def messages_to_string(messages: list[dict[str, Any]]) -> str:
    """Converts the provided messages into a JSON string that can be used for resuming the chat.

    Args:
        messages: the messages to save (e.g. ``groupchat.messages``).

    Raises:
        TypeError: when ``messages`` is not a list of dicts or holds values JSON cannot represent.
    """
    _check_message_list(messages, "messages", TypeError)
    try:
        return json.dumps(messages)
    except (TypeError, ValueError) as e:
        raise TypeError(f"messages must hold only JSON values (str, number, bool, None, list, dict): {e}") from e


def messages_from_string(message_string: str) -> list[dict[str, Any]]:
    """Reads the saved state of messages in JSON format for resume and returns it as a list of messages.

    Args:
        message_string: the JSON string made by ``messages_to_string``.

    Raises:
        TypeError: when ``message_string`` is not a str.
        ValueError: when ``message_string`` is not valid JSON or not a JSON list of message objects.
    """
    if not isinstance(message_string, str):
        raise TypeError(f"message_string must be a str (JSON); got {type(message_string).__name__}.")
    try:
        state = json.loads(message_string)
    except json.JSONDecodeError as e:
        raise ValueError(
            f"message_string is not a valid JSON string ({e.msg} at line {e.lineno} column {e.colno}); "
            "give the text made by messages_to_string."
        ) from e
    _check_message_list(state, "message_string", ValueError, json_text=True)
    return state  # type: ignore[no-any-return]


def _check_message_list(
    value: Any, argument: str, error: type[Exception], *, json_text: bool = False
) -> None:
    what = "a JSON list of message objects" if json_text else "a list of message dicts"
    if not isinstance(value, list):
        raise error(f"{argument} must be {what}; got {type(value).__name__}.")
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            raise error(f"{argument} must be {what}; item {index} is a {type(item).__name__}: {item!r:.60}.")


def load_resume_messages(messages: Union[list[dict[str, Any]], str]) -> list[dict[str, Any]]:
    """A private copy of the messages to resume from: parsed from JSON, or deep-copied from a list.

    Raises:
        TypeError: when ``messages`` is neither a str nor a list of dicts.
        ValueError: when a JSON string is malformed (see ``messages_from_string``).
    """
    if isinstance(messages, str):
        return messages_from_string(messages)
    _check_message_list(messages, "messages", TypeError)
    return copy.deepcopy(messages)


def validate_resume_messages(messages: list[dict[str, Any]], groupchat: Any, manager_name: str) -> None:
    """Check that the messages can be resumed by this group chat.

    Every message needs a body (content, function_call or tool_calls) and a speaker name that is a participant,
    the group chat's ``admin_name`` or the manager's name (function results are named after the function and
    are not checked).

    Raises:
        ValueError: naming the first message that does not fit.
        TypeError: when a message's ``name`` is not a str.
    """
    if not messages:
        raise ValueError(
            "Cannot resume group chat as no messages were provided. Use GroupChatManager.run_chat or "
            "ConversableAgent.initiate_chat to start a new chat."
        )
    known = set(groupchat.agent_names) | {groupchat.admin_name, manager_name}
    for index, message in enumerate(messages):
        if not any(message.get(key) is not None for key in _MESSAGE_BODY_KEYS):
            raise ValueError(
                f"messages[{index}] has no 'content', 'function_call' or 'tool_calls'; every message of a group chat "
                "has one of them."
            )
        name = message.get("name")
        if name is None or message.get("role") == "function":
            continue
        if not isinstance(name, str):
            raise TypeError(f"messages[{index}]['name'] must be a str; got {type(name).__name__}.")
        if name not in known:
            raise ValueError(
                f"Agent name in message doesn't exist as agent in group chat: {name} (messages[{index}]); "
                f"the known names are {sorted(known)}."
            )


def remove_termination(
    message: dict[str, Any], remove_termination_string: Optional[Union[str, Callable[[str], str]]]
) -> None:
    """Remove the termination string from ``message`` (in place) so that the resumed chat does not end at once.

    Args:
        message: the last message of the chat.
        remove_termination_string: a str cut out of the content, or a function given the content (a str) and
            returning the new content. Text parts of a multimodal content are each processed.

    Raises:
        TypeError: when ``remove_termination_string`` is neither None, a str nor a callable, or the callable
            does not return a str.
    """
    if remove_termination_string is None:
        return
    remover: Callable[[str], str]
    if isinstance(remove_termination_string, str):
        target = remove_termination_string

        def remover(text: str) -> str:
            return text.replace(target, "")

    elif callable(remove_termination_string):
        remover = remove_termination_string
    else:
        raise TypeError(
            "remove_termination_string must be None, a str, or a function taking the content (str) and returning "
            f"the new content; got {type(remove_termination_string).__name__}."
        )

    def apply(text: str) -> str:
        result = remover(text)
        if not isinstance(result, str):
            raise TypeError(
                f"remove_termination_string must return a str; it returned {type(result).__name__}: {result!r:.60}."
            )
        return result

    content = message.get("content")
    if isinstance(content, str) and content:
        message["content"] = apply(content)
    elif isinstance(content, list):
        message["content"] = [
            {**part, "text": apply(part["text"])}
            if isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str)
            else part
            for part in content
        ]


def process_resume_termination(
    manager: Any, remove_termination_string: Optional[Union[str, Callable[[str], str]]], messages: list[dict[str, Any]]
) -> None:
    """Remove the termination string from the last of ``messages`` and warn when it still ends the chat."""
    remove_termination(messages[-1], remove_termination_string)
    if manager._is_termination_msg(messages[-1]):
        logger.warning("WARNING: Last message meets termination criteria and this may terminate the chat.")


def resume_steps(
    manager: Any,
    messages: Union[list[dict[str, Any]], str],
    remove_termination_string: Optional[Union[str, Callable[[str], str]]],
    silent: Optional[bool],
) -> Generator[Step, Any, tuple[Any, dict[str, Any]]]:
    """Steps that rebuild a group chat from ``messages``; the result is ``(last_agent, last_message)``.

    The messages are checked before anything is cleared, so invalid input leaves the chat untouched.
    With a ``transcript_path``, the messages the file already holds are not written again (they must
    be the first ones given); the others are written as they are replayed.
    """
    groupchat = manager.groupchat
    messages = load_resume_messages(messages)
    check = getattr(manager, "_valid_resume_messages", None)  # the classic hook, which a subclass may override
    if callable(check):
        check(messages)
    else:
        validate_resume_messages(messages, groupchat, manager.name)
    transcript = getattr(groupchat, "_transcript", None)
    already_written = transcript.check_resume(messages) if transcript is not None else 0

    for agent in groupchat.agents:
        if hasattr(agent, "clear_history"):
            agent.clear_history()
    manager.clear_history()
    groupchat.reset()

    for message in messages:
        # A message without a name comes from a ChatResult history: it was said by the manager's side.
        message.setdefault("name", manager.name)
    if transcript is not None:
        # By reference: the last message is appended when the chat continues, after remove_termination.
        transcript.expect_replay(messages[:already_written])

    for message in messages[:-1]:
        speaker = _speaker_of(message, groupchat, manager)
        for agent in groupchat.agents:
            if agent.name == message["name"]:
                yield Send(agent, message, manager)
            else:
                yield Send(manager, message, agent)
        if speaker is not None:
            groupchat.append(copy.deepcopy(message), speaker)
        else:
            # The admin (not a participant) or a function result: kept as it was.
            kept = copy.deepcopy(message)
            if transcript is not None:
                transcript.record(kept)
            groupchat.messages.append(kept)

    last_message = messages[-1]
    last_name = last_message["name"]
    last_agent = groupchat.agent_by_name(last_name)
    if last_agent is None and last_name in (groupchat.admin_name, manager.name):
        last_agent = manager

    process = getattr(manager, "_process_resume_termination", None)  # the classic hook, which a subclass may override
    if callable(process):
        process(remove_termination_string, messages)
    else:
        process_resume_termination(manager, remove_termination_string, messages)

    if not silent:
        emit(GroupChatResumeEvent, last_speaker_name=last_name, events=messages, verbose=True)
    # The participants were introduced in the original chat.
    groupchat.send_introductions = False
    return last_agent, last_message


def _speaker_of(message: dict[str, Any], groupchat: Any, manager: Any) -> Any:
    if message.get("role") == "function":
        return None
    if message["name"] == manager.name and groupchat.agent_by_name(manager.name) is None:
        return manager
    return groupchat.agent_by_name(message["name"])
