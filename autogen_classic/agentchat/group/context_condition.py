"""The classic path ``autogen.agentchat.group.context_condition``: the context conditions (code in ``agentchat.transitions``)."""

from ..transitions import (  # noqa: F401 - importable here, as in the classic module
    ContextCondition,
    ContextExpression,
    ContextVariables,
    ExpressionContextCondition,
    StringContextCondition,
)

__all__ = ["ContextCondition", "ExpressionContextCondition", "StringContextCondition"]
