"""The classic path ``autogen.agentchat.group.events.transition_events`` (code in
``agentchat.groupchat.handoffs.events``)."""

from ...groupchat.handoffs.events import (
    AfterWorksTransitionEvent,
    OnConditionLLMTransitionEvent,
    OnContextConditionTransitionEvent,
    ReplyResultTransitionEvent,
)

__all__ = [
    "AfterWorksTransitionEvent",
    "OnConditionLLMTransitionEvent",
    "OnContextConditionTransitionEvent",
    "ReplyResultTransitionEvent",
]
