"""Agents and chats: the agent core (Agent, ConversableAgent and its parts in conversable/, chats); the group
chat lives in groupchat/. The core imports tools, coding, oai and the utilities, never groupchat or contrib.

This ``__init__`` is the classic ``autogen.agentchat`` face: it only re-exports, the group chat's names included.
"""

from .agent import Agent, LLMAgent
from .assistant_agent import AssistantAgent
from .chat import ChatResult, a_initiate_chats, initiate_chats
from .conversable_agent import ConversableAgent, UpdateSystemMessage
from .eligibility_policy import AgentDescriptionGuard, AgentEligibilityPolicy, SelectionContext
from .groupchat import GroupChat, GroupChatManager
from .groupchat.swarm import (  # ag2 0.7.3's autogen.agentchat re-exports the swarm
    AFTER_WORK,
    ON_CONDITION,
    UPDATE_SYSTEM_MESSAGE,
    AfterWorkOption,
    SwarmAgent,
    SwarmResult,
    a_initiate_swarm_chat,
    initiate_swarm_chat,
)
from .group.context_variables import ContextVariables
from .group.reply_result import ReplyResult
from .group.multi_agent_chat import (
    a_initiate_group_chat,
    a_run_group_chat,
    a_run_group_chat_iter,
    initiate_group_chat,
    run_group_chat,
    run_group_chat_iter,
)
from .group.durable.fork_chat import a_fork_pattern_group_chat, fork_pattern_group_chat
from .group.durable.resume_chat import (
    a_resume_pattern_group_chat,
    a_run_parked_pattern_group_chat,
    park_pattern_group_chat,
    resume_parked_pattern_group_chat,
    resume_pattern_group_chat,
    run_parked_pattern_group_chat,
)
from .conversable.tools.registry import register_function
from .user_proxy_agent import UserProxyAgent
from .utils import gather_usage_summary

__all__ = [
    "AFTER_WORK",
    "ON_CONDITION",
    "UPDATE_SYSTEM_MESSAGE",
    "Agent",
    "AfterWorkOption",
    "AgentDescriptionGuard",
    "AgentEligibilityPolicy",
    "AssistantAgent",
    "ChatResult",
    "ContextVariables",
    "ConversableAgent",
    "GroupChat",
    "GroupChatManager",
    "LLMAgent",
    "ReplyResult",
    "SelectionContext",
    "SwarmAgent",
    "SwarmResult",
    "UpdateSystemMessage",
    "UserProxyAgent",
    "a_initiate_chats",
    "a_initiate_group_chat",
    "a_initiate_swarm_chat",
    "a_fork_pattern_group_chat",
    "a_resume_pattern_group_chat",
    "a_run_group_chat",
    "a_run_group_chat_iter",
    "gather_usage_summary",
    "initiate_chats",
    "initiate_group_chat",
    "initiate_swarm_chat",
    "run_group_chat",
    "run_group_chat_iter",
    "register_function",
    "fork_pattern_group_chat",
    "resume_pattern_group_chat",
    "park_pattern_group_chat",
    "a_run_parked_pattern_group_chat",
    "run_parked_pattern_group_chat",
    "resume_parked_pattern_group_chat",
]
