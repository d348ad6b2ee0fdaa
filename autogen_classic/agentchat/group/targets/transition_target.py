"""The classic path ``autogen.agentchat.group.targets.transition_target``: the transition targets (code in ``agentchat.transitions``)."""

from ...transitions import (  # noqa: F401 - importable here, as in the classic module
    AgentNameTarget,
    AgentTarget,
    AskUserTarget,
    NestedChatTarget,
    RandomAgentTarget,
    RevertToUserTarget,
    SpeakerSelectionResult,
    StayTarget,
    TerminateTarget,
    TransitionTarget,
)

__all__ = ["AgentNameTarget", "AgentTarget", "AskUserTarget", "NestedChatTarget", "RandomAgentTarget", "RevertToUserTarget", "StayTarget", "TerminateTarget", "TransitionTarget"]
