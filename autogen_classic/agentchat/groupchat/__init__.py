"""The group chat: GroupChat, GroupChatManager and its rounds, resuming, transcripts, speaker selection.

May import the agent core (agentchat), tools, oai and the utilities; none of them imports this package.

This ``__init__`` is the classic ``autogen.agentchat.groupchat`` module: it only re-exports the names
classic code imports from there. Layout: ``group`` (the GroupChat dataclass), ``prompts`` (its texts and
template placeholders), ``manager`` (the manager), ``rounds`` (a chat's rounds as sans-IO generators),
``stepping`` (begin / step / invoke / continue_chat), ``steps`` (the rounds' I/O steps and their
sync/async drivers), ``resume``, ``clear_history``, ``transcript``, and the ``selection`` package
(choosing the next speaker).
"""

from ...code_utils import content_str
from ...eligibility import AgentEligibilityPolicy, SelectionContext
from ...exception_utils import (
    AgentNameConflict,
    AgentNameConflictError,
    NoEligibleSpeaker,
    NoEligibleSpeakerError,
    UndefinedNextAgent,
    UndefinedNextAgentError,
)
from ...graph_utils import check_graph_validity, invert_disallowed_to_allowed
from ...events.chat_events import (  # noqa: F401 - importable here, as in AG2 Classic 0.14
    ClearAgentsHistoryEvent,
    GroupChatResumeEvent,
    GroupChatRunChatEvent,
    SelectSpeakerEvent,
    SelectSpeakerInvalidInputEvent,
    SelectSpeakerTryCountExceededEvent,
    SpeakerAttemptFailedMultipleAgentsEvent,
    SpeakerAttemptFailedNoAgentsEvent,
    SpeakerAttemptSuccessfulEvent,
)
from ...events.run_events import TerminationEvent  # noqa: F401 - importable here, as in AG2 Classic 0.14
from ...io import IOStream
from ...runtime_logging import log_new_agent, logging_enabled  # noqa: F401 - importable here, as in AG2 Classic 0.14
from ...llm_config import LLMConfig
from ...oai import ModelClient
from ..agent import Agent
from ..conversable_agent import ConversableAgent
from .group import GroupChat, logger
from .prompts import SELECT_SPEAKER_PROMPT_TEMPLATE
from .manager import GroupChatManager

__all__ = [
    "Agent",
    "AgentEligibilityPolicy",
    "AgentNameConflict",
    "AgentNameConflictError",
    "ConversableAgent",
    "GroupChat",
    "GroupChatManager",
    "IOStream",
    "ModelClient",
    "NoEligibleSpeaker",
    "NoEligibleSpeakerError",
    "SELECT_SPEAKER_PROMPT_TEMPLATE",
    "SelectionContext",
    "UndefinedNextAgent",
    "UndefinedNextAgentError",
    "check_graph_validity",
    "content_str",
    "invert_disallowed_to_allowed",
    "logger",
]
