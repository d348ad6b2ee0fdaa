"""The classic path ``autogen.agentchat.group.guardrails`` (code in ``agentchat.transitions.guardrails``)."""

from ...oai.client import OpenAIWrapper  # noqa: F401 - importable here, as in the classic module
from ..transitions.guardrails import (
    Guardrail,
    GuardrailCheckResult,
    GuardrailResult,
    LLMGuardrail,
    RegexGuardrail,
)

__all__ = ["Guardrail", "GuardrailCheckResult", "GuardrailResult", "LLMGuardrail", "RegexGuardrail"]
