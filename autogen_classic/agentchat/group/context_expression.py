"""The classic path ``autogen.agentchat.group.context_expression``: ContextExpression (code in ``agentchat.transitions``)."""

from ..transitions import (  # noqa: F401 - importable here, as in the classic module
    ContextExpression,
    ContextVariables,
)

__all__ = ["ContextExpression"]
