"""The events of agents and group chats (classic ``autogen.messages.agent_messages``).

Each class prints exactly the console text of its event. Constructors take the classic
arguments (agents, whose names are kept); every class also accepts its own serialised fields,
so an event read back from JSON is the same event.
"""

from __future__ import annotations

from typing import Any, Optional, Union
from uuid import UUID

from termcolor import colored

from ..events import chat_events as events
from ..events.chat_events import *  # noqa: F401,F403 - importable here, as in AG2 Classic 0.14
from ..events.chat_text import (
    attempt_failed_text,
    attempt_successful_text,
    carryover_text,
    code_block_text,
    code_blocks_text,
    function_text,
    print_candidates,
    print_chat_banner,
    print_clearing,
    print_preserving,
    print_resumed,
)
from ..events.received_events import (  # noqa: F401 - importable here, as in AG2 Classic 0.14
    FunctionCallEvent,
    FunctionResponseEvent,
    TextEvent,
    ToolCallEvent,
    ToolResponseEvent,
)
from ..events.run_events import TerminationEvent  # noqa: F401 - importable here, as in AG2 Classic 0.14
from ..events.helpers import deprecated_by  # noqa: F401 - importable here, as in AG2 Classic 0.14
from ..events.base_event import content_class
from .base_message import BaseMessage, console_face, wrap_message
from .console_text import Printer, agent_name, printer
from .received_messages import (  # noqa: F401 - the classic path of these events
    NAMES,
    BasePrintReceivedMessage,
    FunctionCall,
    FunctionCallMessage,
    FunctionResponseMessage,
    MessageRole,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolResponse,
    ToolResponseMessage,
    create_received_message_model,
    received_message_fields,
)

__all__ = [
    "ClearAgentsHistoryMessage",
    "ClearConversableAgentHistoryMessage",
    "ConversableAgentUsageSummaryMessage",
    "ConversableAgentUsageSummaryNoCostIncurredMessage",
    "ExecuteCodeBlockMessage",
    "ExecuteFunctionMessage",
    "FunctionCallMessage",
    "FunctionResponseMessage",
    "GenerateCodeExecutionReplyMessage",
    "GroupChatResumeMessage",
    "GroupChatRunChatMessage",
    "PostCarryoverProcessingMessage",
    "SelectSpeakerMessage",
    "SpeakerAttemptFailedMultipleAgentsMessage",
    "SpeakerAttemptFailedNoAgentsMessage",
    "SpeakerAttemptSuccessfulMessage",
    "SpeakerAttemptSuccessfullMessage",
    "TerminationAndHumanReplyMessage",
    "TerminationAndHumanReplyNoInputMessage",
    "TerminationMessage",
    "TextMessage",
    "ToolCallMessage",
    "ToolResponseMessage",
]

# Classic field name -> event field name, for the classes below (``as_event``).
RECIPIENT = {"recipient_name": "recipient"}
AGENTS = {"agent_names": "agents"}


def _with_sender(fields: dict[str, Any], content: Any) -> dict[str, Any]:
    if fields.get("sender") is None:
        fields["sender"] = "No sender"
    return fields


class _ForRecipient(BaseMessage):
    """An event about one agent, built from the agent (``recipient``; its name is kept).

    Subclasses declare ``recipient_name`` where 0.7.3 has it (last, after their own fields).
    """

    def __init__(self, *, uuid: Optional[UUID] = None, recipient: Any = None, **fields: Any) -> None:
        fields.setdefault("recipient_name", agent_name(recipient) or "")
        super().__init__(uuid=uuid, **fields)


# ------------------------------------------------------------------ chats
@wrap_message(event=events.PostCarryoverProcessingEvent, renames=NAMES)
class PostCarryoverProcessingMessage(BaseMessage):
    """The banner printed before each chat of ``initiate_chats``."""

    carryover: Union[str, list[Union[str, dict[str, Any], Any]]]
    message: str
    verbose: bool = False
    sender_name: str
    recipient_name: str
    summary_method: str
    summary_args: Optional[dict[str, Any]] = None
    max_turns: Optional[int] = None

    def __init__(self, *, uuid: Optional[UUID] = None, chat_info: Optional[dict[str, Any]] = None, **fields: Any):
        if chat_info is not None:  # the event's fields, with the agents' names under the classic names
            fields = events.chat_info_fields(chat_info, lambda agent: agent_name(agent) or "")
            fields["sender_name"] = fields.pop("sender")
            fields["recipient_name"] = fields.pop("recipient")
        super().__init__(uuid=uuid, **fields)

    def _process_carryover(self) -> str:
        # Private in the classic API, but its tests call it: the carryover as the banner prints it.
        return carryover_text(self.carryover)

    def print(self, f: Printer = None) -> None:
        print_chat_banner(printer(f), self.verbose, self.message, self.carryover, "Message")


class _HumanReply(_ForRecipient):
    """An event of an agent (``recipient``) about to answer ``sender``; their names are kept.

    Subclasses declare ``sender_name`` and ``recipient_name`` after their own field, the 0.7.3 order.
    """

    def __init__(self, *, uuid: Optional[UUID] = None, sender: Any = None, recipient: Any = None,
                 **fields: Any) -> None:
        fields.setdefault("sender_name", agent_name(sender) or "No sender")
        super().__init__(uuid=uuid, recipient=recipient, **fields)


@wrap_message(event=events.TerminationAndHumanReplyNoInputEvent, renames=NAMES)
class TerminationAndHumanReplyMessage(_HumanReply):
    """No human input was given when it was asked for."""

    no_human_input_msg: str
    sender_name: str
    recipient_name: str

    def print(self, f: Printer = None) -> None:
        printer(f)(colored(f"\n>>>>>>>> {self.no_human_input_msg}", "red"), flush=True)


@wrap_message(event=events.UsingAutoReplyEvent, renames=NAMES)
class UsingAutoReplyMessage(_HumanReply):
    """The agent goes on with its automatic reply."""

    human_input_mode: str
    sender_name: str
    recipient_name: str

    def print(self, f: Printer = None) -> None:
        printer(f)(colored("\n>>>>>>>> USING AUTO REPLY...", "red"), flush=True)


# ------------------------------------------------------------------ code and functions
@wrap_message(event=events.ExecuteCodeBlockEvent, renames=RECIPIENT)
class ExecuteCodeBlockMessage(_ForRecipient):
    """A code block is about to run."""

    code: str
    language: str
    code_block_count: int
    recipient_name: str

    def print(self, f: Printer = None) -> None:
        printer(f)(colored(code_block_text(self.code_block_count, self.language), "red"), flush=True)


@wrap_message(event=events.GenerateCodeExecutionReplyEvent, renames={**NAMES, "code_block_languages": "code_blocks"},
              adapt=_with_sender)
class GenerateCodeExecutionReplyMessage(_ForRecipient):
    """A code executor is about to run the blocks of a message."""

    code_block_languages: list[str]
    sender_name: Optional[str] = None
    recipient_name: str

    def __init__(self, *, uuid: Optional[UUID] = None, code_blocks: Optional[list[Any]] = None, sender: Any = None,
                 recipient: Any = None, **fields: Any) -> None:
        if code_blocks is not None:
            fields["code_block_languages"] = [getattr(block, "language", None) or "" for block in code_blocks]
        fields.setdefault("sender_name", agent_name(sender))
        super().__init__(uuid=uuid, recipient=recipient, **fields)

    def print(self, f: Printer = None) -> None:
        printer(f)(colored(code_blocks_text(self.code_block_languages), "red"), flush=True)


@wrap_message(event=events.ExecuteFunctionEvent, renames=RECIPIENT)
class ExecuteFunctionMessage(_ForRecipient):
    """A function is about to run."""

    func_name: str
    call_id: Optional[str] = None
    arguments: Any
    recipient_name: str

    def print(self, f: Printer = None) -> None:
        printer(f)(colored(function_text("EXECUTING", self.func_name, self.call_id, self.arguments), "magenta"),
                   flush=True)


@wrap_message(event=events.ExecutedFunctionEvent, renames=RECIPIENT)
class ExecutedFunctionMessage(_ForRecipient):
    """A function ran; its output."""

    func_name: str
    call_id: Optional[str] = None
    arguments: Any
    content: Any
    recipient_name: str

    def print(self, f: Printer = None) -> None:
        text = function_text("EXECUTED", self.func_name, self.call_id, self.arguments) + f"\nOutput:\n{self.content}"
        printer(f)(colored(text, "magenta"), flush=True)


# ------------------------------------------------------------------ group chats
@wrap_message(event=events.GroupChatRunChatEvent, renames={"speaker_name": "speaker"})
class GroupChatRunChatMessage(BaseMessage):
    """The manager names the next speaker."""

    speaker_name: str
    verbose: Optional[bool] = False

    def __init__(self, *, uuid: Optional[UUID] = None, speaker: Any = None, silent: Optional[bool] = False,
                 **fields: Any) -> None:
        if speaker is not None:
            fields["speaker_name"] = agent_name(speaker)
        fields.setdefault("verbose", not silent)
        super().__init__(uuid=uuid, **fields)

    def print(self, f: Printer = None) -> None:
        # ``verbose`` is only recorded: the package sends this event only for a chat that is not silent.
        printer(f)(colored(f"\nNext speaker: {self.speaker_name}\n", "green"), flush=True)


@wrap_message(event=events.GroupChatResumeEvent, renames={"messages": "events"})
class GroupChatResumeMessage(BaseMessage):
    """A group chat is resumed from earlier messages."""

    last_speaker_name: str
    messages: list[dict[str, Any]]
    verbose: Optional[bool] = False

    def __init__(self, *, uuid: Optional[UUID] = None, silent: Optional[bool] = False, **fields: Any) -> None:
        fields.setdefault("verbose", not silent)
        super().__init__(uuid=uuid, **fields)

    def print(self, f: Printer = None) -> None:
        # ag2 0.7.3's line; the package's console prints 0.14.1's (``GroupChatResumeConsoleMessage``).
        print_resumed(printer(f), len(self.messages), "messages", self.last_speaker_name)


class _GroupChatResumeConsole(content_class(GroupChatResumeMessage)):  # type: ignore[misc]
    def print(self, f: Printer = None) -> None:
        # The console's line is AG2 Classic 0.14.1's ("events"), see docs/migrating.md.
        print_resumed(printer(f), len(self.messages), "events", self.last_speaker_name)


GroupChatResumeConsoleMessage = console_face(GroupChatResumeMessage, _GroupChatResumeConsole,
                                             "GroupChatResumeConsoleMessage")
"""What the package sends when it resumes a group chat: a ``GroupChatResumeMessage`` printing 0.14.1's line."""


@wrap_message(event=events.ClearAgentsHistoryEvent,
              renames={"agent_name": "agent", "nr_messages_to_preserve": "nr_events_to_preserve"})
class ClearAgentsHistoryMessage(BaseMessage):
    """A history is cleared by a "clear history" command."""

    agent_name: Optional[str] = None
    nr_messages_to_preserve: Optional[int] = None

    def __init__(self, *, uuid: Optional[UUID] = None, agent: Any = None, **fields: Any) -> None:
        if agent is not None:
            fields["agent_name"] = agent_name(agent)
        super().__init__(uuid=uuid, **fields)

    def print(self, f: Printer = None) -> None:
        print_clearing(printer(f), self.agent_name, self.nr_messages_to_preserve, "messages")


@wrap_message(event=events.ClearConversableAgentHistoryEvent, renames={
    "agent_name": "agent", "recipient_name": "recipient", "no_messages_preserved": "no_events_preserved"})
class ClearConversableAgentHistoryMessage(BaseMessage):
    """One more message is kept so a tool response keeps its tool call."""

    agent_name: str
    recipient_name: str
    no_messages_preserved: int

    def __init__(self, *, uuid: Optional[UUID] = None, agent: Any = None, no_messages_preserved: int = 1,
                 **fields: Any) -> None:
        if agent is not None:
            fields.setdefault("agent_name", agent_name(agent))
            fields.setdefault("recipient_name", agent_name(agent))
        super().__init__(uuid=uuid, no_messages_preserved=no_messages_preserved, **fields)

    def print(self, f: Printer = None) -> None:
        print_preserving(printer(f), self.no_messages_preserved, self.agent_name, "message")


@wrap_message(event=events.ClearConversableAgentHistoryWarningEvent, renames=RECIPIENT)
class ClearConversableAgentHistoryWarningMessage(_ForRecipient):
    """``nr_messages_to_preserve`` does not apply when one conversation is cleared."""

    recipient_name: str

    def print(self, f: Printer = None) -> None:
        printer(f)(colored("WARNING: `nr_preserved_messages` is ignored when clearing chat history with a specific "
                        "agent.", "yellow"), flush=True)


class _SpeakerAttempt(BaseMessage):
    mentions: dict[str, int]
    attempt: int
    attempts_left: int
    verbose: Optional[bool] = False

    def __init__(self, *, uuid: Optional[UUID] = None, select_speaker_auto_verbose: Optional[bool] = False,
                 **fields: Any) -> None:
        fields.setdefault("verbose", select_speaker_auto_verbose)  # ``verbose`` itself when read back
        super().__init__(uuid=uuid, **fields)


@wrap_message(event=events.SpeakerAttemptSuccessfulEvent, renames={})
class SpeakerAttemptSuccessfullMessage(_SpeakerAttempt):
    """An "auto" selection attempt named exactly one agent."""

    def print(self, f: Printer = None) -> None:
        printer(f)(colored(attempt_successful_text(self.attempt, self.attempts_left, self.mentions), "green"),
                   flush=True)


@wrap_message(event=events.SpeakerAttemptFailedMultipleAgentsEvent, renames={})
class SpeakerAttemptFailedMultipleAgentsMessage(_SpeakerAttempt):
    """An "auto" selection attempt named several agents."""

    def print(self, f: Printer = None) -> None:
        printer(f)(colored(attempt_failed_text(self.attempt, self.attempts_left, True), "red"), flush=True)


@wrap_message(event=events.SpeakerAttemptFailedNoAgentsEvent, renames={})
class SpeakerAttemptFailedNoAgentsMessage(_SpeakerAttempt):
    """An "auto" selection attempt named no agent."""

    def print(self, f: Printer = None) -> None:
        printer(f)(colored(attempt_failed_text(self.attempt, self.attempts_left, False), "red"), flush=True)


class _WithAgentNames(BaseMessage):
    """A manual-selection event: built from the candidate ``agents`` (their names are kept; none: None).

    Subclasses declare ``agent_names`` where 0.7.3 has it.
    """

    def __init__(self, *, uuid: Optional[UUID] = None, agents: Optional[list[Any]] = None, **fields: Any) -> None:
        if "agent_names" not in fields:  # not read back
            fields["agent_names"] = [agent_name(agent) for agent in agents] if agents else None
        super().__init__(uuid=uuid, **fields)


@wrap_message(event=events.SelectSpeakerEvent, renames=AGENTS)
class SelectSpeakerMessage(_WithAgentNames):
    """The numbered list of manual speaker selection."""

    agent_names: Optional[list[str]] = None

    def print(self, f: Printer = None) -> None:
        print_candidates(printer(f), self.agent_names)


@wrap_message(event=events.SelectSpeakerTryCountExceededEvent, renames=AGENTS)
class SelectSpeakerTryCountExceededMessage(_WithAgentNames):
    """Manual selection gave up after too many tries."""

    try_count: int
    agent_names: Optional[list[str]] = None

    def print(self, f: Printer = None) -> None:
        printer(f)(f"You have tried {self.try_count} times. The next speaker will be selected automatically.")


@wrap_message(event=events.SelectSpeakerInvalidInputEvent, renames=AGENTS)
class SelectSpeakerInvalidInputMessage(_WithAgentNames):
    """Manual selection got something other than a listed number."""

    agent_names: Optional[list[str]] = None

    def print(self, f: Printer = None) -> None:
        printer(f)(f"Invalid input. Please enter a number between 1 and {len(self.agent_names or [])}.")


# ------------------------------------------------------------------ usage
@wrap_message(event=events.ConversableAgentUsageSummaryNoCostIncurredEvent, renames=RECIPIENT)
class ConversableAgentUsageSummaryNoCostIncurredMessage(_ForRecipient):
    """An agent without a model has no usage."""

    recipient_name: str

    def print(self, f: Printer = None) -> None:
        printer(f)(f"No cost incurred from agent '{self.recipient_name}'.")


@wrap_message(event=events.ConversableAgentUsageSummaryEvent, renames=RECIPIENT)
class ConversableAgentUsageSummaryMessage(_ForRecipient):
    """The heading of an agent's usage summary."""

    recipient_name: str

    def print(self, f: Printer = None) -> None:
        printer(f)(f"Agent '{self.recipient_name}':")


# ------------------------------------------------------------------ AG2 Classic 0.14 names
def _system_sender(fields: dict[str, Any], content: Any) -> dict[str, Any]:
    fields.setdefault("sender", "system")
    fields.setdefault("recipient", None)
    return fields


@wrap_message(event=TerminationEvent, adapt=_system_sender)
class TerminationMessage(BaseMessage):
    """A termination condition of a run was met (the classic shape of ``TerminationEvent``, sent by "system")."""

    termination_reason: str

    def print(self, f: Printer = None) -> None:
        printer(f)(colored(f"\n>>>>>>>> TERMINATING RUN ({self.uuid}): {self.termination_reason}", "red"), flush=True)


# The names AG2 Classic 0.14 gives two of these events (the 0.7.3 names stay, for 0.7.3 code).
SpeakerAttemptSuccessfulMessage = SpeakerAttemptSuccessfullMessage
TerminationAndHumanReplyNoInputMessage = TerminationAndHumanReplyMessage
