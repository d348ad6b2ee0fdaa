"""How a safeguard rule looks at a text: a regular expression, or a model asked through an ``LLMGuardrail``.

Rules between agents check as guardrails do (the regex is case sensitive, the reason quotes the match);
rules on tools, the model and the human search case-insensitively and name the pattern, as in AG2
Classic 0.14, whose event texts follow from these reasons.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Optional

from ...transitions.guardrails import Guardrail, LLMGuardrail, RegexGuardrail
from ...transitions.target_base import TransitionTarget
from .policy import SafeguardRule

__all__ = ["Finding", "RuleCheck", "text_of"]


@dataclass
class Finding:
    """The outcome of one check: whether the rule matched, and the reason."""

    violated: bool
    reason: str


def text_of(value: Any) -> str:
    """The text a rule looks at in a message, a tool call or result, a model request or reply.

    A message with tool calls: their arguments; with tool responses: their contents (joined by " | ");
    a list of messages: their texts, one per line; anything else: its content or its ``str``.
    """
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(text_of(item) for item in value)
    if not isinstance(value, dict):
        return "" if value is None else str(value)
    if isinstance(value.get("tool_calls"), list) and value["tool_calls"]:
        return " | ".join(str((call.get("function") or {}).get("arguments", "")) for call in value["tool_calls"])
    if isinstance(value.get("tool_responses"), list) and value["tool_responses"]:
        return " | ".join(str(response.get("content", "")) for response in value["tool_responses"])
    if "arguments" in value and "content" not in value:
        return str(value["arguments"])
    content = value.get("content")
    if isinstance(content, list):
        return " ".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return "" if content is None else str(content)


class RuleCheck:
    """The check of one rule, made once when the policy is read.

    Args:
        rule: the rule.
        llm_config: the model of LLM rules (``safeguard_llm_config``).
        between_agents: check as the rules between agents do (see the module's docstring).

    Raises:
        ValueError: an LLM rule without ``llm_config``.
    """

    def __init__(self, rule: SafeguardRule, llm_config: Any, between_agents: bool) -> None:
        self.rule = rule
        self.between_agents = between_agents
        self.guardrail_type = "LLMGuardrail" if rule.check_method == "llm" else "RegexGuardrail"
        self.guardrail: Optional[Guardrail] = None
        if rule.check_method == "llm":
            if not llm_config:
                what = "guardrail" if between_agents else f"{rule.kind} rule"
                raise ValueError(
                    f"safeguard_llm_config is required for LLM-based {what}: {rule.source} -> {rule.destination} "
                    "(pass safeguard_llm_config=LLMConfig(...) with the model that checks, or use check_method "
                    "'regex')"
                )
            self.guardrail = LLMGuardrail(
                name=f"llm_guard_{rule.source}_{rule.destination}", condition=rule.condition(),
                target=TransitionTarget(), llm_config=llm_config,
                activation_message=rule.activation_message or "LLM detected violation",
            )
        elif between_agents:
            self.guardrail = RegexGuardrail(
                name=f"regex_guard_{rule.source}_{rule.destination}", condition=rule.pattern or "",
                target=TransitionTarget(), activation_message=rule.activation_message or "Regex pattern matched",
            )

    def run(self, text: str) -> Finding:
        """Look at ``text``.

        Raises:
            ValueError / RuntimeError: the model could not be asked, or gave no readable answer.
        """
        if self.guardrail is None:  # a regex rule on tools, the model or the human
            found = re.search(self.rule.pattern or "", text, re.IGNORECASE)
            reason = f"Content matched pattern: {self.rule.pattern}" if found else "No pattern match"
            return Finding(bool(found), reason)
        try:
            result = self.guardrail.check(text)
        except Exception as e:
            if self.between_agents:
                raise ValueError(f"Guardrail check failed: {e}") from e
            raise RuntimeError(f"Safeguard check failed: {e}") from e
        return Finding(result.activated, result.justification)

    def violation_message(self, finding: Finding) -> str:
        """The text of the violation event."""
        if self.between_agents:
            return f"VIOLATION DETECTED: {finding.reason}"
        return f"{self.guardrail_type.replace('Guardrail', '').upper()} VIOLATION: {finding.reason}"
