"""Agents and chats: the classic ``autogen.agentchat`` package."""

from .agent import Agent, LLMAgent
from .assistant_agent import AssistantAgent
from .chat import ChatResult, a_initiate_chats, initiate_chats
from .conversable_agent import ConversableAgent
from .groupchat import GroupChat
from .groupchat_manager import GroupChatManager
from .tool_registry import register_function
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
