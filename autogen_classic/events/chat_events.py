"""The events of agents and group chats: carryover banners, replies, code and function execution, group chat
rounds and resumes, cleared histories, speaker selection and usage summaries.

Each class prints the console text AG2 Classic 0.14 prints for its event and serialises to the same
JSON. Constructors take the classic arguments (agents or their names; only names are kept); every
class also reads back its serialised form. The classic path is ``events.agent_events``, a thin face
that also serves the received-message and run events and the classic module's other names.
"""

from __future__ import annotations

import copy
import importlib.util
from typing import Any, Callable, Optional, Union
from uuid import UUID

from pydantic import model_serializer, model_validator
from termcolor import colored

from .base_event import BaseEvent, resolve_print_callable, wrap_event
from .chat_text import (
    attempt_failed_text,
    attempt_successful_text,
    carryover_text,
    chat_message_text,
    code_block_text,
    code_blocks_text,
    function_text,
    print_candidates,
    print_chat_banner,
    print_clearing,
    print_preserving,
    print_resumed,
)
from .console_text import named

__all__ = [
    "ClearAgentsHistoryEvent",
    "ClearConversableAgentHistoryEvent",
    "ClearConversableAgentHistoryWarningEvent",
    "ConversableAgentUsageSummaryEvent",
    "ConversableAgentUsageSummaryNoCostIncurredEvent",
    "ExecuteCodeBlockEvent",
    "ExecuteFunctionEvent",
    "ExecutedFunctionEvent",
    "GenerateCodeExecutionReplyEvent",
    "GroupChatResumeEvent",
    "GroupChatRunChatEvent",
    "IS_PIL_AVAILABLE",
    "PostCarryoverProcessingEvent",
    "SelectSpeakerEvent",
    "SelectSpeakerInvalidInputEvent",
    "SelectSpeakerTryCountExceededEvent",
    "SpeakerAttemptFailedMultipleAgentsEvent",
    "SpeakerAttemptFailedNoAgentsEvent",
    "SpeakerAttemptSuccessfulEvent",
    "TerminationAndHumanReplyNoInputEvent",
    "UsingAutoReplyEvent",
    "carryover_text",
    "chat_info_fields",
    "chat_message_text",
]


# ------------------------------------------------------------------ chats
def chat_info_fields(chat_info: dict[str, Any], name: Callable[[Any], Any] = named) -> dict[str, Any]:
    """The fields of the banner before a chat of ``initiate_chats``, from the chat's ``chat_info``.

    Args:
        chat_info: the chat's settings (carryover, message, verbose, sender, recipient, summary_method, ...).
        name: what is kept of the sender and the recipient (by default their names).
    """
    method = chat_info.get("summary_method", "")
    return {
        "carryover": chat_info.get("carryover", ""),
        "message": chat_message_text(chat_info.get("message")),
        "verbose": chat_info.get("verbose", False),
        "sender": name(chat_info.get("sender")),
        "recipient": name(chat_info.get("recipient")),
        "summary_method": method.__name__ if callable(method) else method,  # a function by its name
        "summary_args": chat_info.get("summary_args"),
        "max_turns": chat_info.get("max_turns"),
    }


IS_PIL_AVAILABLE = importlib.util.find_spec("PIL") is not None
"""Whether Pillow can be imported (images in messages print as their placeholders either way)."""


@wrap_event
class PostCarryoverProcessingEvent(BaseEvent):
    """The banner printed before each chat of ``initiate_chats``; serialised under ``chat_info``."""

    carryover: Union[str, list[Union[str, dict[str, Any], Any]]]
    message: str
    verbose: bool = False
    sender: str
    recipient: str
    summary_method: str
    summary_args: Optional[dict[str, Any]] = None
    max_turns: Optional[int] = None

    def __init__(self, *, uuid: Optional[UUID] = None, chat_info: Optional[dict[str, Any]] = None, **fields: Any):
        if chat_info is not None:
            fields = chat_info_fields(chat_info)
        super().__init__(uuid=uuid, **fields)

    @model_validator(mode="before")
    @classmethod
    def _read_back(cls, data: Any) -> Any:
        if isinstance(data, dict) and "chat_info" in data:
            return {"uuid": data.get("uuid"), **data["chat_info"]}
        return data

    @model_serializer
    def serialize_model(self) -> dict[str, Any]:
        """``{"uuid": ..., "chat_info": {...}}``, the classic serialised form."""
        return {
            "uuid": self.uuid,
            "chat_info": {
                "carryover": self.carryover, "message": self.message, "verbose": self.verbose, "sender": self.sender,
                "recipient": self.recipient, "summary_method": self.summary_method,
                "summary_args": self.summary_args, "max_turns": self.max_turns,
            },
        }

    def _process_carryover(self) -> str:
        # Private in the classic API, but its tests call it: the carryover as the banner prints it.
        return carryover_text(self.carryover)

    def print(self, f: Any = None) -> None:
        """Print the banner (with the message and carryover when ``verbose``)."""
        print_chat_banner(resolve_print_callable(f), self.verbose, self.message, self.carryover, "Event")


@wrap_event
class TerminationAndHumanReplyNoInputEvent(BaseEvent):
    """The human was asked for input and gave none."""

    no_human_input_msg: str
    sender: str
    recipient: str

    def __init__(self, *, uuid: Optional[UUID] = None, no_human_input_msg: str, sender: Any = None,
                 recipient: Any, **fields: Any):
        super().__init__(uuid=uuid, no_human_input_msg=no_human_input_msg, sender=named(sender or "No sender"),
                         recipient=named(recipient), **fields)

    def print(self, f: Any = None) -> None:
        """Print the notice in red."""
        resolve_print_callable(f)(colored(f"\n>>>>>>>> {self.no_human_input_msg}", "red"), flush=True)


@wrap_event
class UsingAutoReplyEvent(BaseEvent):
    """The agent goes on with its automatic reply."""

    human_input_mode: str
    sender: str
    recipient: str

    def __init__(self, *, uuid: Optional[UUID] = None, human_input_mode: str, sender: Any = None, recipient: Any,
                 **fields: Any):
        super().__init__(uuid=uuid, human_input_mode=human_input_mode, sender=named(sender or "No sender"),
                         recipient=named(recipient), **fields)

    def print(self, f: Any = None) -> None:
        """Print the notice in red."""
        resolve_print_callable(f)(colored("\n>>>>>>>> USING AUTO REPLY...", "red"), flush=True)


# ------------------------------------------------------------------ code and functions
@wrap_event
class ExecuteCodeBlockEvent(BaseEvent):
    """A code block is about to run."""

    code: str
    language: str
    code_block_count: int
    recipient: str

    def __init__(self, *, uuid: Optional[UUID] = None, code: str, language: str, code_block_count: int,
                 recipient: Any, **fields: Any):
        super().__init__(uuid=uuid, code=code, language=language, code_block_count=code_block_count,
                         recipient=named(recipient), **fields)

    def print(self, f: Any = None) -> None:
        """Print the notice in red."""
        resolve_print_callable(f)(colored(code_block_text(self.code_block_count, self.language), "red"), flush=True)


@wrap_event
class ExecuteFunctionEvent(BaseEvent):
    """A function is about to run."""

    func_name: str
    call_id: Optional[str] = None
    arguments: dict[str, Any]
    recipient: str

    def __init__(self, *, uuid: Optional[UUID] = None, func_name: str, call_id: Optional[str] = None,
                 arguments: dict[str, Any], recipient: Any, **fields: Any):
        super().__init__(uuid=uuid, func_name=func_name, call_id=call_id, arguments=arguments,
                         recipient=named(recipient), **fields)

    def print(self, f: Any = None) -> None:
        """Print the function, call id and arguments in magenta."""
        text = function_text("EXECUTING", self.func_name, self.call_id, self.arguments)
        resolve_print_callable(f)(colored(text, "magenta"), flush=True)


@wrap_event
class ExecutedFunctionEvent(BaseEvent):
    """A function ran: its output, and whether it succeeded."""

    func_name: str
    call_id: Optional[str] = None
    arguments: Optional[dict[str, Any]]
    content: Any
    recipient: str
    is_exec_success: bool = True

    def __init__(self, *, uuid: Optional[UUID] = None, func_name: str, call_id: Optional[str] = None,
                 arguments: Optional[dict[str, Any]], content: Any, recipient: Any, is_exec_success: bool = True,
                 **fields: Any):
        super().__init__(uuid=uuid, func_name=func_name, call_id=call_id, arguments=arguments, content=content,
                         recipient=named(recipient), is_exec_success=is_exec_success, **fields)

    def print(self, f: Any = None) -> None:
        """Print the function, call id, arguments and output in magenta."""
        text = function_text("EXECUTED", self.func_name, self.call_id, self.arguments) + f"\nOutput:\n{self.content}"
        resolve_print_callable(f)(colored(text, "magenta"), flush=True)


@wrap_event
class GenerateCodeExecutionReplyEvent(BaseEvent):
    """A code executor is about to run the blocks of a message (``code_blocks``: their languages)."""

    code_blocks: list[str]
    sender: str
    recipient: str

    def __init__(self, *, uuid: Optional[UUID] = None, code_blocks: list[Any], sender: Any = None, recipient: Any,
                 **fields: Any):
        languages = [block.language if hasattr(block, "language") else block for block in code_blocks]
        super().__init__(uuid=uuid, code_blocks=languages, sender=named(sender or "No sender"),
                         recipient=named(recipient), **fields)

    def print(self, f: Any = None) -> None:
        """Print the notice (one block, or how many and their languages) in red."""
        resolve_print_callable(f)(colored(code_blocks_text(self.code_blocks), "red"), flush=True)


# ------------------------------------------------------------------ group chats
class _SilentAsVerbose(BaseEvent):
    """An event built with the classic ``silent`` flag, kept as ``verbose`` (its opposite); its serialised
    form (``silent``) reads back."""

    @model_validator(mode="before")
    @classmethod
    def _read_back(cls, data: Any) -> Any:
        if isinstance(data, dict) and "silent" in data and "verbose" not in data:
            data = {**data, "verbose": not data["silent"]}
        return data


@wrap_event
class GroupChatRunChatEvent(_SilentAsVerbose):
    """The manager names the next speaker (serialised with ``silent``)."""

    speaker: str
    verbose: Optional[bool] = False

    def __init__(self, *, uuid: Optional[UUID] = None, speaker: Any, silent: Optional[bool] = False, **fields: Any):
        fields.setdefault("verbose", not silent)
        super().__init__(uuid=uuid, speaker=named(speaker), **fields)

    @model_serializer
    def serialize_model(self) -> dict[str, Any]:
        """``{"uuid", "speaker", "silent"}``, the classic serialised form."""
        return {"uuid": self.uuid, "speaker": self.speaker, "silent": not self.verbose}

    def print(self, f: Any = None) -> None:
        """Print ``Next speaker: name`` in green."""
        resolve_print_callable(f)(colored(f"\nNext speaker: {self.speaker}\n", "green"), flush=True)


@wrap_event
class GroupChatResumeEvent(_SilentAsVerbose):
    """A group chat is resumed from earlier messages (``events``)."""

    last_speaker_name: str
    events: list[dict[str, Any]]
    verbose: Optional[bool] = False

    def __init__(self, *, uuid: Optional[UUID] = None, last_speaker_name: str, events: list[dict[str, Any]],
                 silent: Optional[bool] = False, **fields: Any):
        fields.setdefault("verbose", not silent)
        super().__init__(uuid=uuid, last_speaker_name=last_speaker_name, events=events, **fields)

    @model_serializer
    def serialize_model(self) -> dict[str, Any]:
        """``{"uuid", "last_speaker_name", "events", "silent"}``, the classic serialised form."""
        return {"uuid": self.uuid, "last_speaker_name": self.last_speaker_name, "events": self.events,
                "silent": not self.verbose}

    def print(self, f: Any = None) -> None:
        """Print how many messages the chat resumes with and its last speaker."""
        print_resumed(resolve_print_callable(f), len(self.events), "events", self.last_speaker_name)


@wrap_event
class ClearAgentsHistoryEvent(BaseEvent):
    """A history is cleared by a "clear history" command."""

    agent: Optional[str] = None
    nr_events_to_preserve: Optional[int] = None

    def __init__(self, *, uuid: Optional[UUID] = None, agent: Any = None, nr_events_to_preserve: Optional[int] = None,
                 **fields: Any):
        super().__init__(uuid=uuid, agent=named(agent), nr_events_to_preserve=nr_events_to_preserve, **fields)

    def print(self, f: Any = None) -> None:
        """Print whose history is cleared, and how many of its last messages are kept."""
        print_clearing(resolve_print_callable(f), self.agent, self.nr_events_to_preserve, "events")


@wrap_event
class ClearConversableAgentHistoryEvent(BaseEvent):
    """One more message is kept per conversation so a tool response keeps its tool call."""

    agent: str
    recipient: str
    no_events_preserved: int

    def __init__(self, *, uuid: Optional[UUID] = None, agent: Any, no_events_preserved: Optional[int] = None,
                 **fields: Any):
        fields.setdefault("recipient", named(agent))
        super().__init__(uuid=uuid, agent=named(agent), no_events_preserved=no_events_preserved, **fields)

    @model_validator(mode="before")
    @classmethod
    def _read_back(cls, data: Any) -> Any:
        if isinstance(data, dict) and "recipient" not in data and "agent" in data:
            data = {**data, "recipient": data["agent"]}
        return data

    @model_serializer
    def serialize_model(self) -> dict[str, Any]:
        """``{"uuid", "agent", "no_events_preserved"}``, the classic serialised form."""
        return {"uuid": self.uuid, "agent": self.agent, "no_events_preserved": self.no_events_preserved}

    def print(self, f: Any = None) -> None:
        """Print one line per message kept."""
        print_preserving(resolve_print_callable(f), self.no_events_preserved, self.agent, "event")


class _OfRecipient(BaseEvent):
    """An event about one agent and nothing else, built from the agent (``recipient``; its name is kept)."""

    recipient: str

    def __init__(self, *, uuid: Optional[UUID] = None, recipient: Any, **fields: Any):
        super().__init__(uuid=uuid, recipient=named(recipient), **fields)


@wrap_event
class ClearConversableAgentHistoryWarningEvent(_OfRecipient):
    """``nr_events_to_preserve`` does not apply when one conversation is cleared."""

    def print(self, f: Any = None) -> None:
        """Print the warning in yellow."""
        resolve_print_callable(f)(colored(
            "WARNING: `nr_preserved_events` is ignored when clearing chat history with a specific agent.", "yellow"
        ), flush=True)


class _SpeakerAttempt(BaseEvent):
    mentions: dict[str, int]
    attempt: int
    attempts_left: int
    verbose: Optional[bool] = False

    def __init__(self, *, uuid: Optional[UUID] = None, mentions: dict[str, int], attempt: int, attempts_left: int,
                 select_speaker_auto_verbose: Optional[bool] = False, **fields: Any):
        fields.setdefault("verbose", select_speaker_auto_verbose)
        super().__init__(uuid=uuid, mentions=copy.deepcopy(mentions), attempt=attempt, attempts_left=attempts_left,
                         **fields)

    @model_validator(mode="before")
    @classmethod
    def _read_back(cls, data: Any) -> Any:
        if isinstance(data, dict) and "select_speaker_auto_verbose" in data and "verbose" not in data:
            data = {**data, "verbose": data["select_speaker_auto_verbose"]}
        return data

    @model_serializer
    def serialize_model(self) -> dict[str, Any]:
        """``{"uuid", "mentions", "attempt", "attempts_left", "select_speaker_auto_verbose"}``."""
        return {"uuid": self.uuid, "mentions": self.mentions, "attempt": self.attempt,
                "attempts_left": self.attempts_left, "select_speaker_auto_verbose": self.verbose}


@wrap_event
class SpeakerAttemptSuccessfulEvent(_SpeakerAttempt):
    """An "auto" selection attempt named exactly one agent."""

    def print(self, f: Any = None) -> None:
        """Print the attempt and the agent chosen, in green."""
        text = attempt_successful_text(self.attempt, self.attempts_left, self.mentions)
        resolve_print_callable(f)(colored(text, "green"), flush=True)


@wrap_event
class SpeakerAttemptFailedMultipleAgentsEvent(_SpeakerAttempt):
    """An "auto" selection attempt named several agents."""

    def print(self, f: Any = None) -> None:
        """Print the failed attempt in red."""
        resolve_print_callable(f)(colored(attempt_failed_text(self.attempt, self.attempts_left, True), "red"),
                                  flush=True)


@wrap_event
class SpeakerAttemptFailedNoAgentsEvent(_SpeakerAttempt):
    """An "auto" selection attempt named no agent."""

    def print(self, f: Any = None) -> None:
        """Print the failed attempt in red."""
        resolve_print_callable(f)(colored(attempt_failed_text(self.attempt, self.attempts_left, False), "red"),
                                  flush=True)


def _names(agents: Optional[list[Any]]) -> Optional[list[str]]:
    return [named(agent) for agent in agents] if agents else None


class _OfCandidates(BaseEvent):
    """A manual-selection event about the candidate ``agents`` and nothing else (their names are kept)."""

    agents: Optional[list[str]] = None

    def __init__(self, *, uuid: Optional[UUID] = None, agents: Optional[list[Any]] = None, **fields: Any):
        super().__init__(uuid=uuid, agents=_names(agents), **fields)


@wrap_event
class SelectSpeakerEvent(_OfCandidates):
    """The numbered list of manual speaker selection."""

    def print(self, f: Any = None) -> None:
        """Print the candidates, numbered from 1."""
        print_candidates(resolve_print_callable(f), self.agents)


@wrap_event
class SelectSpeakerTryCountExceededEvent(BaseEvent):
    """Manual selection gave up after too many tries."""

    try_count: int
    agents: Optional[list[str]] = None

    def __init__(self, *, uuid: Optional[UUID] = None, try_count: int, agents: Optional[list[Any]] = None,
                 **fields: Any):
        super().__init__(uuid=uuid, try_count=try_count, agents=_names(agents), **fields)

    def print(self, f: Any = None) -> None:
        """Print that the next speaker is chosen automatically."""
        resolve_print_callable(f)(
            f"You have tried {self.try_count} times. The next speaker will be selected automatically."
        )


@wrap_event
class SelectSpeakerInvalidInputEvent(_OfCandidates):
    """Manual selection got something other than a listed number."""

    def print(self, f: Any = None) -> None:
        """Print the range of valid numbers."""
        resolve_print_callable(f)(f"Invalid input. Please enter a number between 1 and {len(self.agents or [])}.")


# ------------------------------------------------------------------ usage
@wrap_event
class ConversableAgentUsageSummaryNoCostIncurredEvent(_OfRecipient):
    """An agent without a model has no usage."""

    def print(self, f: Any = None) -> None:
        """Print that the agent incurred no cost."""
        resolve_print_callable(f)(f"No cost incurred from agent '{self.recipient}'.")


@wrap_event
class ConversableAgentUsageSummaryEvent(_OfRecipient):
    """The heading of an agent's usage summary."""

    def print(self, f: Any = None) -> None:
        """Print the agent's name as the heading."""
        resolve_print_callable(f)(f"Agent '{self.recipient}':")
