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
from ...exception_utils import AgentNameConflict, NoEligibleSpeaker, UndefinedNextAgent
from ...graph_utils import check_graph_validity, invert_disallowed_to_allowed
from ...io import IOStream
from ...oai import ModelClient
from ..agent import Agent
from ..conversable_agent import ConversableAgent
from .group import GroupChat, logger
from .manager import GroupChatManager

__all__ = [
    "Agent",
    "AgentNameConflict",
    "ConversableAgent",
    "GroupChat",
    "GroupChatManager",
    "IOStream",
    "ModelClient",
    "NoEligibleSpeaker",
    "UndefinedNextAgent",
    "check_graph_validity",
    "content_str",
    "invert_disallowed_to_allowed",
    "logger",
]
