"""The classic path ``autogen.agentchat.group.on_context_condition``: OnContextCondition (code in ``agentchat.transitions``)."""

from ..transitions import (  # noqa: F401 - importable here, as in the classic module
    AvailableCondition,
    ContextCondition,
    OnContextCondition,
    TransitionTarget,
)

__all__ = ["OnContextCondition"]
