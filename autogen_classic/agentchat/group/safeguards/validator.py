"""``SafeguardValidator``: checks that a safeguard policy is well formed and names agents and tools that exist.

A policy is a dict with up to two sections:

- ``inter_agent_safeguards``: ``agent_transitions`` (rules on messages from ``message_source`` to
  ``message_destination``, ``"*"`` for any agent) and ``groupchat_message_check``;
- ``agent_environment_safeguards``: ``tool_interaction`` (agent -> tool arguments, tool -> agent results),
  ``llm_interaction`` (agent -> ``"llm"`` requests, ``"llm"`` -> agent replies) and ``user_interaction``
  (``"user"`` -> agent human input).

Every rule says how it checks (``check_method``: ``"regex"`` with a ``pattern``, or ``"llm"`` with a
``custom_prompt`` or a ``disallow_item`` list) and what it does on a match (``action``, or
``violation_response`` in the rules that accept it: ``"block"``, ``"mask"`` or ``"warning"``).
Errors are ``ValueError``s naming the rule (``tool_interaction[1]``), the field and the fix.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from ...conversable.agent_args import warn_argument

__all__ = ["ENVIRONMENT_SECTIONS", "INTER_AGENT_SECTIONS", "SafeguardValidator"]

INTER_AGENT_SECTIONS = ("agent_transitions", "groupchat_message_check")
ENVIRONMENT_SECTIONS = ("tool_interaction", "llm_interaction", "user_interaction")
_TOP_LEVEL = ("inter_agent_safeguards", "agent_environment_safeguards")
_ACTIONS = ("block", "mask", "warning")
_CHECK_METHOD_FIX = (
    'add "check_method": "regex" (with a "pattern") or "llm" (with a "custom_prompt" or a "disallow_item" list)'
)


def _fail(message: str, fix: Optional[str] = None) -> ValueError:
    return ValueError(message if fix is None else f"{message} ({fix})")


def _warn_unknown(section: dict[str, Any], known: tuple[str, ...], where: str) -> None:
    # A misspelt section would otherwise be skipped without a word, and its rules never applied.
    for key in section:
        if key not in known:
            warn_argument(
                f"Safeguard policy: {where}{key!r} is not a known section and is ignored; the known ones are "
                f"{list(known)}."
            )


class SafeguardValidator:
    """Validates a safeguard policy: its structure first, then the agent and tool names it uses.

    Args:
        policy: the policy (a dict, as loaded from its JSON file).
    """

    def __init__(self, policy: dict[str, Any]) -> None:
        self.policy = policy

    # ---------------------------------------------------------------- structure
    def validate_policy_structure(self) -> None:
        """Check the sections and every rule of the policy (names of agents and tools are not looked at).

        Raises:
            ValueError: the first problem found, with the rule, the field and the fix.
        """
        if not isinstance(self.policy, dict):
            raise _fail(
                "Policy must be a dictionary",
                f"got {type(self.policy).__name__}; give a dict or the path of a JSON file holding one",
            )
        _warn_unknown(self.policy, _TOP_LEVEL, "")
        if "inter_agent_safeguards" in self.policy:
            self._validate_inter_agent_safeguards()
        if "agent_environment_safeguards" in self.policy:
            self._validate_environment_safeguards()

    def _validate_inter_agent_safeguards(self) -> None:
        section = self.policy["inter_agent_safeguards"]
        if not isinstance(section, dict):
            raise _fail("inter_agent_safeguards must be a dictionary", 'e.g. {"agent_transitions": [...]}')
        _warn_unknown(section, INTER_AGENT_SECTIONS, "inter_agent_safeguards.")
        for where, rule in self._rules(section, "agent_transitions"):
            for field in ("message_source", "message_destination"):
                if field not in rule:
                    raise _fail(f"{where} missing required field: {field}", 'an agent name, or "*" for any agent')
            self._validate_check(where, rule)
            self._validate_action(where, rule, keys=("violation_response", "action"))
        if "groupchat_message_check" in section:
            rule = section["groupchat_message_check"]
            if not isinstance(rule, dict):
                raise _fail("groupchat_message_check must be a dictionary", 'e.g. {"disallow_item": ["..."]}')
            if "disallow_item" in rule and not isinstance(rule["disallow_item"], list):
                raise _fail("groupchat_message_check disallow_item must be a list", "a list of categories")

    def _validate_environment_safeguards(self) -> None:
        section = self.policy["agent_environment_safeguards"]
        if not isinstance(section, dict):
            raise _fail("agent_environment_safeguards must be a dictionary", 'e.g. {"tool_interaction": [...]}')
        _warn_unknown(section, ENVIRONMENT_SECTIONS, "agent_environment_safeguards.")
        for kind in ENVIRONMENT_SECTIONS:
            # Only the tool rules take "violation_response" as another name of "action" (as AG2 Classic 0.14).
            keys = ("violation_response", "action") if kind == "tool_interaction" else ("action",)
            for where, rule in self._rules(section, kind):
                if "check_method" not in rule:
                    raise _fail(f"{where} missing required field: check_method", _CHECK_METHOD_FIX)
                self._validate_method_name(where, rule["check_method"])
                self._validate_action(where, rule, keys=keys)
                if "message_source" not in rule or "message_destination" not in rule:
                    raise _fail(
                        f"{where} must have 'message_source' and 'message_destination'", _ENDPOINTS_FIX[kind]
                    )
                self._validate_check(where, rule)

    @staticmethod
    def _rules(section: dict[str, Any], kind: str) -> list[tuple[str, dict[str, Any]]]:
        if kind not in section:
            return []
        rules = section[kind]
        if not isinstance(rules, list):
            raise _fail(f"{kind} must be a list", "a list of rule dicts")
        for index, rule in enumerate(rules):
            if not isinstance(rule, dict):
                raise _fail(f"{kind}[{index}] must be a dictionary", f"got {type(rule).__name__}")
        return [(f"{kind}[{index}]", rule) for index, rule in enumerate(rules)]

    @staticmethod
    def _validate_method_name(where: str, method: Any) -> None:
        if method not in ("llm", "regex"):
            raise _fail(f"{where} invalid check_method: {method}. Must be 'llm' or 'regex'")

    def _validate_check(self, where: str, rule: dict[str, Any]) -> None:
        if "check_method" not in rule:
            raise _fail(f"{where} missing required field: check_method", _CHECK_METHOD_FIX)
        method = rule["check_method"]
        self._validate_method_name(where, method)
        if method == "llm":
            if "custom_prompt" not in rule and "disallow_item" not in rule:
                raise _fail(
                    f"{where} with check_method 'llm' must have either 'custom_prompt' or 'disallow_item'",
                    'e.g. "disallow_item": ["personal data"]',
                )
            if "disallow_item" in rule and not isinstance(rule["disallow_item"], list):
                raise _fail(f"{where} disallow_item must be a list", f"e.g. [{rule['disallow_item']!r}]")
            return
        if "pattern" not in rule:
            raise _fail(f"{where} with check_method 'regex' must have 'pattern'", "a regular expression")
        if not isinstance(rule["pattern"], str):
            raise _fail(f"{where} pattern must be a string", f"got {type(rule['pattern']).__name__}")
        try:
            re.compile(rule["pattern"])
        except re.error as e:
            raise _fail(f"{where} invalid regex pattern '{rule['pattern']}': {e}") from e

    @staticmethod
    def _validate_action(where: str, rule: dict[str, Any], keys: tuple[str, ...]) -> None:
        present = [key for key in keys if key in rule]
        if not present:
            raise _fail(
                f"{where} missing required field: {' or '.join(keys)}", 'add "action": "block", "mask" or "warning"'
            )
        action = rule[present[0]]
        if action not in _ACTIONS:
            raise _fail(f"{where} invalid action: {action}. Must be 'block', 'mask', or 'warning'")

    # ---------------------------------------------------------------- names
    def validate_policy_complete(self, agent_names: list[str], agent_tool_mapping: dict[str, list[str]]) -> None:
        """Check the agent and tool names the policy uses (its structure is assumed valid).

        Args:
            agent_names: the agents the policy applies to.
            agent_tool_mapping: agent name -> the names of the tools it can run or call.
        """
        self.validate_agent_names(agent_names)
        if any(agent_tool_mapping.values()):
            self.validate_tool_names(agent_tool_mapping, agent_names)

    def validate_agent_names(self, agent_names: list[str]) -> None:
        """Check that the agents the rules name exist (``"*"`` means any, ``"llm"`` the model).

        Args:
            agent_names: the agents the policy applies to.

        Raises:
            ValueError: a rule names an unknown agent; the message lists the available ones.
        """
        available = set(agent_names)
        listed = sorted(available)
        inter = self.policy.get("inter_agent_safeguards", {})
        for index, rule in enumerate(inter.get("agent_transitions", [])):
            for field, role in (("message_source", "source"), ("message_destination", "destination")):
                name = rule.get(field)
                if name != "*" and name not in available:
                    raise _fail(
                        f"agent_transitions[{index}] references unknown {role} agent: '{name}'. "
                        f"Available agents: {listed}"
                    )
        environment = self.policy.get("agent_environment_safeguards", {})
        for index, rule in enumerate(environment.get("llm_interaction", [])):
            for field in ("message_source", "message_destination"):
                name = rule.get(field)
                if isinstance(name, str) and name.lower() != "llm" and name != "*" and name not in available:
                    raise _fail(
                        f"llm_interaction[{index}] references unknown agent: '{name}'. Available agents: {listed}",
                        'the other end of an llm_interaction rule is "llm"',
                    )
        for index, rule in enumerate(environment.get("user_interaction", [])):
            name = rule.get("agent", rule.get("message_destination"))
            if name is not None and name != "*" and name not in available:
                raise _fail(
                    f"user_interaction[{index}] references unknown agent: '{name}'. Available agents: {listed}",
                    'a user_interaction rule goes from "user" to the agent that asks the human',
                )

    def validate_tool_names(self, agent_tool_mapping: dict[str, list[str]], agent_names: list[str]) -> None:
        """Check that each ``tool_interaction`` rule joins an agent and a tool it has.

        Args:
            agent_tool_mapping: agent name -> the names of its tools.
            agent_names: the agents the policy applies to.

        Raises:
            ValueError: a rule names an unknown tool, or a tool the agent does not have.
        """
        agents = set(agent_names)
        tools = {tool for names in agent_tool_mapping.values() for tool in names}
        environment = self.policy.get("agent_environment_safeguards", {})
        for index, rule in enumerate(environment.get("tool_interaction", [])):
            source, destination = rule.get("message_source"), rule.get("message_destination")
            if not (isinstance(source, str) and isinstance(destination, str)):
                continue
            if "*" in (source, destination) or "user" in (source.lower(), destination.lower()):
                continue
            where = f"tool_interaction[{index}]"
            if source in agents and destination in agents:
                continue  # two agents: nothing to say about tools
            if source in agents:
                _check_tool(where, source, destination, agent_tool_mapping, tools)
            elif destination in agents:
                _check_tool(where, destination, source, agent_tool_mapping, tools)
            else:
                for name in (source, destination):
                    _check_tool(where, None, name, agent_tool_mapping, tools)


_ENDPOINTS_FIX = {
    "tool_interaction": 'an agent and one of its tools: {"message_source": "agent", "message_destination": "tool"} '
    "checks the arguments, the reverse checks the result",
    "llm_interaction": '{"message_source": "agent", "message_destination": "llm"} checks what goes to the model, '
    "the reverse what comes back",
    "user_interaction": '{"message_source": "user", "message_destination": "agent"} checks what the human types',
}


def _check_tool(
    where: str, agent: Optional[str], tool: str, mapping: dict[str, list[str]], tools: set[str]
) -> None:
    if tool not in tools:
        raise _fail(f"{where} references unknown tool: '{tool}'. Available tools: {sorted(tools)}")
    if agent is not None and tool not in mapping.get(agent, []):
        raise _fail(
            f"{where} agent '{agent}' does not have access to tool '{tool}'. "
            f"Agent's tools: {sorted(mapping.get(agent, []))}"
        )
