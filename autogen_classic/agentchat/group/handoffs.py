"""The classic path ``autogen.agentchat.group.handoffs``: Handoffs (code in ``agentchat.transitions``)."""

from ..transitions import (  # noqa: F401 - importable here, as in the classic module
    Handoffs,
    OnCondition,
    OnContextCondition,
    TransitionTarget,
)

__all__ = ["Handoffs"]
