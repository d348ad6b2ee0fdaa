"""The classic path ``autogen.agentchat.group.targets.group_chat_target``: GroupChatTarget and GroupChatConfig (code in ``agentchat.transitions``)."""

from ...agent import Agent  # noqa: F401 - importable here, as in the classic module
from ...transitions import (  # noqa: F401 - importable here, as in the classic module
    AgentTarget,
    GroupChatConfig,
    GroupChatTarget,
    SpeakerSelectionResult,
    TransitionTarget,
)

__all__ = ["GroupChatConfig", "GroupChatTarget"]
