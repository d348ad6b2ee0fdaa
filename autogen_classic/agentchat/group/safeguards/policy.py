"""Reading a safeguard policy: from a dict or a JSON file, into :class:`SafeguardRule` objects.

The policy's format is described in :mod:`.validator`, which checks it before it is read here.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Optional, Union

from ...conversable.agent_args import warn_argument

__all__ = ["SafeguardRule", "load_policy", "parse_environment_rules", "parse_inter_agent_rules"]

# The default activation messages of each kind of rule (AG2 Classic 0.14's texts, shown in the events).
_DEFAULT_MESSAGE = "Content blocked by safeguard"
_DEFAULT_LLM_MESSAGE = {
    "tool_interaction": "LLM blocked tool output",
    "llm_interaction": "LLM blocked content",
}


@dataclass
class SafeguardRule:
    """One rule of a policy.

    Args:
        kind: ``"agent_transition"``, ``"groupchat_message"``, ``"tool_interaction"``, ``"llm_interaction"``
            or ``"user_interaction"``.
        source: who sends what the rule looks at (an agent, a tool, ``"llm"``, ``"user"``; ``"*"``: anyone).
        destination: who receives it.
        check_method: ``"regex"`` or ``"llm"``.
        action: ``"block"``, ``"mask"`` or ``"warning"``.
        pattern: the regular expression of a regex rule.
        custom_prompt: the condition an LLM rule asks the model about.
        disallow_items: the categories an LLM rule looks for.
        activation_message: the reason shown when the rule acts.
    """

    kind: str
    source: str
    destination: str
    check_method: str
    action: str
    pattern: Optional[str] = None
    custom_prompt: Optional[str] = None
    disallow_items: list[str] = field(default_factory=list)
    activation_message: Optional[str] = None

    def condition(self) -> str:
        """What the model of an LLM rule is asked to look for."""
        if self.custom_prompt:
            return self.custom_prompt
        return f"Check if this content contains any of these disallowed categories: {', '.join(self.disallow_items)}"

    def applies(self, source: str, destination: str) -> bool:
        """Whether the rule looks at what ``source`` sends to ``destination``."""
        return self.source in ("*", source) and self.destination in ("*", destination)

    def names(self, agent_name: str) -> bool:
        """Whether the rule names ``agent_name`` at either end (or any agent)."""
        return agent_name in (self.source, self.destination) or "*" in (self.source, self.destination)


def load_policy(policy: Union[dict[str, Any], str, "os.PathLike[str]"]) -> dict[str, Any]:
    """The policy dict: ``policy`` itself, or the JSON read from the file it names.

    Raises:
        FileNotFoundError: there is no such file.
        ValueError: the file is not JSON.
    """
    if isinstance(policy, (str, os.PathLike)):
        with open(policy, encoding="utf-8") as f:
            try:
                loaded: dict[str, Any] = json.load(f)
            except json.JSONDecodeError as e:
                raise ValueError(f"Safeguard policy file {os.fspath(policy)!r} is not valid JSON: {e}") from e
        return loaded
    return policy


def _rule(
    kind: str, rule: dict[str, Any], action_keys: tuple[str, ...], default_message: Optional[str]
) -> SafeguardRule:
    action = next((rule[key] for key in action_keys if key in rule), "block")
    return SafeguardRule(
        kind=kind,
        source=rule["message_source"],
        destination=rule["message_destination"],
        check_method=rule.get("check_method", "regex"),
        action=action,
        pattern=rule.get("pattern"),
        custom_prompt=rule.get("custom_prompt"),
        disallow_items=list(rule.get("disallow_item") or []),
        activation_message=rule.get("activation_message", default_message),
    )


def parse_inter_agent_rules(policy: dict[str, Any]) -> list[SafeguardRule]:
    """The rules of the ``inter_agent_safeguards`` section."""
    section = policy.get("inter_agent_safeguards", {})
    rules = [
        _rule("agent_transition", rule, ("violation_response", "action"), _DEFAULT_MESSAGE)
        for rule in section.get("agent_transitions", [])
    ]
    if "groupchat_message_check" in section:
        check = section["groupchat_message_check"]
        warn_argument(
            "Safeguard policy: groupchat_message_check is read but not enforced (as in AG2 Classic 0.14); to check "
            'every message of a group chat use an agent_transitions rule from "*" to "*".'
        )
        rules.append(SafeguardRule(
            kind="groupchat_message", source="*", destination="*", check_method="llm",
            action=check.get("pet_action", "block"), disallow_items=list(check.get("disallow_item") or []),
        ))
    return rules


def parse_environment_rules(policy: dict[str, Any]) -> list[SafeguardRule]:
    """The rules of the ``agent_environment_safeguards`` section, tool rules first, then model, then human."""
    section = policy.get("agent_environment_safeguards", {})
    rules = []
    for kind in ("tool_interaction", "llm_interaction", "user_interaction"):
        keys = ("violation_response", "action") if kind == "tool_interaction" else ("action",)
        for rule in section.get(kind, []):
            default = _DEFAULT_LLM_MESSAGE.get(kind) if rule.get("check_method") == "llm" else _DEFAULT_MESSAGE
            rules.append(_rule(kind, rule, keys, None if kind == "user_interaction" else default))
    return rules
