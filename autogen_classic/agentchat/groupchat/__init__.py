"""The classic ``autogen.agentchat.groupchat`` module: ``GroupChat`` and ``GroupChatManager``.

The group chat lives in :mod:`.groupchat_core` (settings, messages, speaker selection) and
:mod:`.groupchat_manager` (the agent running it); this module re-exports them with the other
names classic code imports from here.
"""

from ..code_utils import content_str
from ..exception_utils import AgentNameConflict, NoEligibleSpeaker, UndefinedNextAgent
from ..graph_utils import check_graph_validity, invert_disallowed_to_allowed
from ..io import IOStream
from ..oai import ModelClient
from .agent import Agent
from .conversable_agent import ConversableAgent
from .groupchat_core import GroupChat, logger
from .groupchat_manager import GroupChatManager

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
