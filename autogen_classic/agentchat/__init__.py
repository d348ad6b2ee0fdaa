"""Agents and chats: the agent core (Agent, ConversableAgent and its parts, chats); the group chat lives in groupchat/.

May import tools, coding, oai and the utilities, never groupchat; only the classic faces here re-export it.

Faces (re-export only): this ``__init__`` (the classic ``autogen.agentchat``) and the documented paths
``speaker_selection``, ``structured_selection``, ``selection_trace`` and ``groupchat_resume``.
"""

from .agent import Agent, LLMAgent
from .assistant_agent import AssistantAgent
from .chat import ChatResult, a_initiate_chats, initiate_chats
from .conversable_agent import ConversableAgent
from .groupchat import GroupChat, GroupChatManager
from .conversable.tool_registry import register_function
from .user_proxy_agent import UserProxyAgent
from .utils import gather_usage_summary

__all__ = [
    "Agent",
    "AssistantAgent",
    "ChatResult",
    "ConversableAgent",
    "GroupChat",
    "GroupChatManager",
    "LLMAgent",
    "UserProxyAgent",
    "a_initiate_chats",
    "gather_usage_summary",
    "initiate_chats",
    "register_function",
]
