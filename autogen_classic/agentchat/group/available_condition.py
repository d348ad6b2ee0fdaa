"""The classic path ``autogen.agentchat.group.available_condition``: the available conditions (code in ``agentchat.transitions``)."""

from ..transitions import (  # noqa: F401 - importable here, as in the classic module
    AvailableCondition,
    ContextExpression,
    ExpressionAvailableCondition,
    StringAvailableCondition,
)

__all__ = ["AvailableCondition", "ExpressionAvailableCondition", "StringAvailableCondition"]
