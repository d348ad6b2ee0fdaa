"""The classic ``autogen.agentchat.contrib.society_of_mind_agent`` path: the agent lives in the group chat package."""

# The names classic code finds here too.
from ...oai import OpenAIWrapper  # noqa: F401
from ..agent import Agent  # noqa: F401
from ..conversable_agent import ConversableAgent  # noqa: F401
from ..groupchat import GroupChat, GroupChatManager  # noqa: F401
from ..groupchat.society_of_mind import SocietyOfMindAgent

__all__ = ["SocietyOfMindAgent"]
