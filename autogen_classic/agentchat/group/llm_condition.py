"""The classic path ``autogen.agentchat.group.llm_condition``: the LLM conditions (code in ``agentchat.transitions``)."""

from ..transitions import (  # noqa: F401 - importable here, as in the classic module
    ContextStr,
    ContextStrLLMCondition,
    LLMCondition,
    StringLLMCondition,
)

__all__ = ["ContextStrLLMCondition", "LLMCondition", "StringLLMCondition"]
