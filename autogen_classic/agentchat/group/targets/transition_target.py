"""The classic path ``autogen.agentchat.group.targets.transition_target``: the transition targets (code in
``agentchat.transitions``; NestedChatTarget's in ``agentchat.groupchat.handoffs.nested_chat_target``)."""

from ...groupchat.handoffs import NestedChatTarget  # noqa: F401 - importable here, as in the classic module
from ...transitions import (  # noqa: F401 - importable here, as in the classic module
    AgentNameTarget,
    AgentTarget,
    AskUserTarget,
    RandomAgentTarget,
    RevertToUserTarget,
    SpeakerSelectionResult,
    StayTarget,
    TerminateTarget,
    TransitionTarget,
)

__all__ = ["AgentNameTarget", "AgentTarget", "AskUserTarget", "NestedChatTarget", "RandomAgentTarget", "RevertToUserTarget", "StayTarget", "TerminateTarget", "TransitionTarget"]
