"""The classic path ``autogen.events.agent_events``: the events of agents and group chats (code in
``events.chat_events``), of received messages (``events.received_events``) and of runs (``events.run_events``).

A thin face: AG2 Classic 0.14's module also holds ``OpenAIWrapper`` and ``ContextVariables``, which live
above the events, so nothing of this package imports it (it imports the code where it lives); the import
contracts in setup.cfg list its two upward imports.
"""

from ..agentchat.transitions.context_variables import ContextVariables  # noqa: F401 - as in the classic module
from ..import_utils import optional_import_block, require_optional_import  # noqa: F401 - as in the classic module
from ..oai.client import OpenAIWrapper  # noqa: F401 - importable here, as in the classic module
from ..types import LLMMessageType, content_str  # noqa: F401 - importable here, as in the classic module
from .base_event import BaseEvent, resolve_print_callable, wrap_event  # noqa: F401 - as in the classic module
from .chat_events import *  # noqa: F401,F403 - importable here, as in the classic module
from .received_events import (  # noqa: F401 - importable here, as in the classic module
    BasePrintReceivedEvent,
    EventRole,
    FunctionCall,
    FunctionCallEvent,
    FunctionResponseEvent,
    TextEvent,
    ToolCall,
    ToolCallEvent,
    ToolResponse,
    ToolResponseEvent,
    create_received_event_model,
)
from .run_events import (  # noqa: F401 - importable here, as in the classic module
    AsyncInputRequestEvent,
    ErrorEvent,
    InputRequestEvent,
    InputResponseEvent,
    RunCompletionEvent,
    TerminationEvent,
)

__all__ = [
    "ClearAgentsHistoryEvent",
    "ClearConversableAgentHistoryEvent",
    "ConversableAgentUsageSummaryEvent",
    "ConversableAgentUsageSummaryNoCostIncurredEvent",
    "ExecuteCodeBlockEvent",
    "ExecuteFunctionEvent",
    "FunctionCallEvent",
    "FunctionResponseEvent",
    "GenerateCodeExecutionReplyEvent",
    "GroupChatResumeEvent",
    "GroupChatRunChatEvent",
    "PostCarryoverProcessingEvent",
    "SelectSpeakerEvent",
    "SpeakerAttemptFailedMultipleAgentsEvent",
    "SpeakerAttemptFailedNoAgentsEvent",
    "SpeakerAttemptSuccessfulEvent",
    "TerminationAndHumanReplyNoInputEvent",
    "TerminationEvent",
    "TextEvent",
    "ToolCallEvent",
    "ToolResponseEvent",
]
