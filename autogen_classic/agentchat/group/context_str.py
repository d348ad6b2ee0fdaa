"""The classic path ``autogen.agentchat.group.context_str``: ContextStr (code in ``agentchat.transitions``)."""

from ..transitions import (  # noqa: F401 - importable here, as in the classic module
    ContextStr,
    ContextVariables,
)

__all__ = ["ContextStr"]
