"""``SafeguardEnforcer``: applies a safeguard policy to the exchanges of agents.

It reads the policy into rules (:mod:`.policy`), makes each rule's check (:mod:`.checks`), and gives each
agent the hook functions that check its exchanges (:meth:`SafeguardEnforcer.create_agent_hooks`):

- between agents: a ``process_message_before_send`` hook (and, in a group chat, :meth:`check_and_act` on each
  message the manager forwards);
- with tools, the model and the human: the agent's ``safeguard_*`` hooks (see
  ``agentchat.conversable.guards.safeguard_hooks``).

Every check, violation and action is a ``SafeguardEvent`` on the current ``IOStream``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Union

from ....events.safeguard_events import SafeguardEvent
# IOStream, LLMConfig, content_str, the guardrails and TransitionTarget: importable here, as in AG2 Classic 0.14.
from ....io.base import IOStream  # noqa: F401
from ....llm_config import LLMConfig  # noqa: F401
from ....types import content_str  # noqa: F401
from ...transitions.guardrails import LLMGuardrail, RegexGuardrail  # noqa: F401
from ...transitions.target_base import TransitionTarget  # noqa: F401
from ....io.emit import emit
from ...conversable.guards.safeguard_hooks import SafeguardBlock
from ...conversable_agent import ConversableAgent
from ...groupchat import GroupChatManager
from .actions import Masker, block_notice, blocked, masked
from .checks import RuleCheck, text_of
from .policy import SafeguardRule, load_policy, parse_environment_rules, parse_inter_agent_rules
from .validator import SafeguardValidator

__all__ = ["GROUP_TOOL_EXECUTOR_NAME", "SafeguardEnforcer"]

# The tool executor of a group chat runs every agent's tools: all tool rules apply to it.
GROUP_TOOL_EXECUTOR_NAME = "_Group_Tool_Executor"


@dataclass
class Action:
    """What a rule did to the content it caught: ``kind`` ("block" or "mask"), the new content, the reason."""

    kind: str
    content: Any
    reason: str


_HOOK_NAMES = {
    "safeguard_tool_inputs": "tool_input_hook", "safeguard_tool_outputs": "tool_output_hook",
    "safeguard_llm_inputs": "llm_input_hook", "safeguard_llm_outputs": "llm_output_hook",
    "safeguard_human_inputs": "human_input_hook", "process_message_before_send": "message_before_send_hook",
}


def _preview(text: str) -> str:
    return text[:100] + ("..." if len(text) > 100 else "")


class SafeguardEnforcer:
    """Enforces a safeguard policy (see ``apply_safeguard_policy``, which builds one and installs its hooks).

    Args:
        policy: the policy dict, or the path of its JSON file.
        safeguard_llm_config: the model that checks the rules with ``check_method: "llm"``.
        mask_llm_config: the model that masks what LLM rules caught (without it the whole text is masked).
        groupchat_manager: the manager of the group chat the policy guards.
        agents: the agents the policy guards.

    Raises:
        ValueError: the policy is malformed, or an LLM rule has no ``safeguard_llm_config``.
    """

    def __init__(
        self,
        policy: Union[dict[str, Any], str],
        safeguard_llm_config: Any = None,
        mask_llm_config: Any = None,
        groupchat_manager: Optional[GroupChatManager] = None,
        agents: Optional[list[ConversableAgent]] = None,
    ) -> None:
        self.policy = load_policy(policy)
        SafeguardValidator(self.policy).validate_policy_structure()
        self.safeguard_llm_config = safeguard_llm_config
        self.mask_llm_config = mask_llm_config
        self.groupchat_manager = groupchat_manager
        self.agents = agents
        self.group_tool_executor = self._find_tool_executor()
        self.inter_agent_rules = parse_inter_agent_rules(self.policy)
        self.environment_rules = parse_environment_rules(self.policy)
        self._checks = {
            id(rule): RuleCheck(rule, safeguard_llm_config, between_agents=rule.kind == "agent_transition")
            for rule in self.inter_agent_rules + self.environment_rules
            if rule.kind != "groupchat_message"
        }
        self._masker = Masker(mask_llm_config)
        self._event(
            "load",
            f"Loaded {len(self.inter_agent_rules)} inter-agent and {len(self.environment_rules)} environment "
            "safeguard rules",
        )

    def _find_tool_executor(self) -> Any:
        groupchat = getattr(self.groupchat_manager, "groupchat", None)
        for agent in getattr(groupchat, "agents", None) or []:
            if agent.name == GROUP_TOOL_EXECUTOR_NAME:
                return agent
        return None

    @staticmethod
    def _event(event_type: str, message: str, **fields: Any) -> None:
        full = dict.fromkeys(("source_agent", "target_agent", "guardrail_type", "action", "content_preview"))
        full.update(fields)
        emit(SafeguardEvent, event_type=event_type, message=message, **full)

    # ---------------------------------------------------------------- checking
    def _enforce(
        self, rule: SafeguardRule, content: Any, text: str, source: str, destination: str, context: str
    ) -> Optional[Action]:
        """Check ``text`` with ``rule``; what the rule did when it acted (block or mask), else None."""
        check = self._checks[id(rule)]
        where = dict(source_agent=source, target_agent=destination, content_preview=_preview(text))
        self._event("check", context, guardrail_type=check.guardrail_type, **where)
        finding = check.run(text)
        if not finding.violated:
            return None
        self._event("violation", check.violation_message(finding), guardrail_type=check.guardrail_type, **where)
        reason = rule.activation_message or finding.reason
        label = {"block": "BLOCKED", "mask": "MASKED", "warning": "WARNING"}[rule.action]
        self._event("action", f"{label}: {reason}", action=rule.action, **where)
        if rule.action == "warning":
            return None
        if rule.action == "block":
            return Action("block", blocked(content, reason), reason)
        categories = rule.disallow_items or ([rule.custom_prompt] if rule.custom_prompt else [])
        pattern = rule.pattern if rule.check_method == "regex" else None

        def mask(text: str) -> str:
            return self._masker.mask(text, pattern, categories, finding.reason)

        return Action("mask", masked(content, mask), reason)

    def _check_inter_agent_communication(self, sender_name: str, recipient_name: str, message: Any) -> Any:
        """Apply the inter-agent rules from ``sender_name`` to ``recipient_name`` to ``message`` (a str or a message
        dict; a tool call is checked by its arguments, a tool response by its contents); return it as it may go.

        Raises:
            ValueError: ``message`` is neither a dict nor a str (AG2 Classic 0.14.1's error).
        """
        if not isinstance(message, (dict, str)):
            raise ValueError("Message must be a dictionary or a string")
        for rule in self.inter_agent_rules:
            if rule.kind == "agent_transition" and rule.applies(sender_name, recipient_name):
                action = self._enforce(
                    rule, message, text_of(message), sender_name, recipient_name, "Checking inter-agent communication"
                )
                if action is not None:
                    return action.content
        return message

    def _check_environment(
        self, kind: str, source: str, destination: str, content: Any, context: str
    ) -> Optional[Action]:
        """What the first rule of ``kind`` from ``source`` to ``destination`` that acts did, or None."""
        for rule in self.environment_rules:
            if rule.kind == kind and rule.applies(source, destination):
                action = self._enforce(rule, content, text_of(content), source, destination, context)
                if action is not None:
                    return action
        return None

    def _caller_of_tools(self, agent_name: str) -> str:
        """The agent whose tool calls ``agent_name`` runs: itself, or for a group's executor the caller."""
        if agent_name != GROUP_TOOL_EXECUTOR_NAME:
            return agent_name
        originator = getattr(self.group_tool_executor, "get_tool_call_originator", None)
        return (originator() if callable(originator) else None) or "tool_executor"

    # ---------------------------------------------------------------- hooks
    def create_agent_hooks(self, agent_name: str) -> dict[str, Callable[..., Any]]:
        """The hook functions for agent ``agent_name``, by hook list; only for the kinds of rule that concern it.

        Args:
            agent_name: the agent's name.
        """
        hooks: dict[str, Callable[..., Any]] = {}
        rules = self.environment_rules

        def concerns(rule: SafeguardRule) -> bool:
            runs_all_tools = rule.kind == "tool_interaction" and agent_name == GROUP_TOOL_EXECUTOR_NAME
            return rule.names(agent_name) or runs_all_tools

        if any(r.kind == "tool_interaction" and concerns(r) for r in rules):
            hooks["safeguard_tool_inputs"] = lambda call: self._tool_hook(agent_name, call, "input")
            hooks["safeguard_tool_outputs"] = lambda result: self._tool_hook(agent_name, result, "output")
        if any(r.kind == "llm_interaction" and concerns(r) for r in rules):
            hooks["safeguard_llm_inputs"] = lambda messages: self._llm_hook(agent_name, messages, "input")
            hooks["safeguard_llm_outputs"] = lambda reply: self._llm_hook(agent_name, reply, "output")
        if any(r.kind == "user_interaction" and r.destination in (agent_name, "*") for r in rules):
            hooks["safeguard_human_inputs"] = lambda text: self._human_hook(agent_name, text)
        if any(r.kind == "agent_transition" and r.names(agent_name) for r in self.inter_agent_rules):

            def message_before_send_hook(sender: Any, message: Any, recipient: Any, silent: Any = None) -> Any:
                return self._check_inter_agent_communication(sender.name, recipient.name, message)

            hooks["process_message_before_send"] = message_before_send_hook
        for name, hook in hooks.items():
            hook.__name__ = hook.__qualname__ = _HOOK_NAMES[name]
        return hooks

    def _tool_hook(self, agent_name: str, data: dict[str, Any], direction: str) -> Any:
        tool = str(data.get("name", data.get("tool_name", "")))
        return self._interaction_hook("tool_interaction", self._caller_of_tools(agent_name), tool, data, direction)

    def _llm_hook(self, agent_name: str, data: Any, direction: str) -> Any:
        return self._interaction_hook("llm_interaction", agent_name, "llm", data, direction)

    def _interaction_hook(self, kind: str, agent_name: str, other: str, data: Any, direction: str) -> Any:
        """An agent's exchange with a tool or the model (``other``), checked: ``data`` as it goes on, what the
        rule's action makes of it, or a block notice in place of the tool's result or the model's reply."""
        source, destination = (agent_name, other) if direction == "input" else (other, agent_name)
        action = self._check_environment(
            kind, source, destination, data,
            f"Checking {kind.replace('_', ' ')}: {agent_name} <-> {other} ({direction})",
        )
        if action is None:
            return data
        if action.kind == "block" and direction == "input":
            return SafeguardBlock(block_notice(action.reason))  # the tool is not run / the model not asked
        return action.content

    def _human_hook(self, agent_name: str, text: str) -> Any:
        action = self._check_environment(
            "user_interaction", "user", agent_name, text, f"Checking user interaction: user <-> {agent_name}"
        )
        return text if action is None else text_of(action.content)

    # ---------------------------------------------------------------- group chats
    def check_and_act(
        self, src_agent_name: str, dst_agent_name: str, message_content: Union[str, dict[str, Any]]
    ) -> Optional[Union[str, dict[str, Any]]]:
        """Check a message a group chat forwards from ``src_agent_name`` to ``dst_agent_name``.

        Args:
            src_agent_name: the sender (for the group's tool executor: the agent whose tools ran).
            dst_agent_name: the participant receiving it.
            message_content: the message.

        Returns:
            What the participant receives instead, or None when the message passes unchanged.
        """
        source = self._caller_of_tools(src_agent_name)
        result = self._check_inter_agent_communication(source, dst_agent_name, message_content)
        return None if result == message_content else result
