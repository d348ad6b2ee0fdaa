"""The classic path ``autogen.agentchat.group.context_variables``: ContextVariables (code in ``agentchat.transitions``)."""

from ..transitions import (  # noqa: F401 - importable here, as in the classic module
    ContextVariables,
    __CONTEXT_VARIABLES_PARAM_NAME__,
)

__all__ = ["ContextVariables"]
