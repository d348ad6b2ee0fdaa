"""The classic path ``autogen.agentchat.group.on_condition``: OnCondition (code in ``agentchat.transitions``)."""

from ..transitions import (  # noqa: F401 - importable here, as in the classic module
    AvailableCondition,
    LLMCondition,
    OnCondition,
    TransitionTarget,
)

__all__ = ["OnCondition"]
