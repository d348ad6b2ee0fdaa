"""``apply_safeguard_policy`` and ``reset_safeguard_policy``: put a policy's hooks on agents, and take them off."""

from __future__ import annotations

from typing import Any, Optional, Union

from ....llm_config import LLMConfig
from ....io.emit import emit_print
from ...agent import Agent  # noqa: F401 - importable here, as in AG2 Classic 0.14
from ...conversable.guards.safeguard_hooks import SAFEGUARD_HOOKS
from ...conversable_agent import ConversableAgent
from ...groupchat import GroupChatManager
from .enforcer import GROUP_TOOL_EXECUTOR_NAME, SafeguardEnforcer
from .validator import SafeguardValidator

__all__ = ["apply_safeguard_policy", "reset_safeguard_policy"]

# The hook lists a policy fills, besides the agents' safeguard_* lists.
_INTER_AGENT_HOOK = "process_message_before_send"


def _manager(groupchat_manager: Any) -> GroupChatManager:
    if not isinstance(groupchat_manager, GroupChatManager):
        raise ValueError(
            f"groupchat_manager must be an instance of GroupChatManager; got {type(groupchat_manager).__name__}. "
            "To guard agents that talk directly, pass agents=[...] instead."
        )
    return groupchat_manager


def _hookable(agent: Any) -> Any:
    if not hasattr(agent, "hook_lists"):
        raise ValueError(
            f"Agent {getattr(agent, 'name', agent)} does not support hooks. Please ensure it inherits from "
            "ConversableAgent."
        )
    return agent


def _tool_names(agent: Any) -> list[str]:
    names = [tool.name for tool in getattr(agent, "tools", None) or []]
    return names + list(getattr(agent, "function_map", None) or {})


def apply_safeguard_policy(
    *,
    agents: Optional[list[ConversableAgent]] = None,
    groupchat_manager: Optional[GroupChatManager] = None,
    policy: Union[dict[str, Any], str],
    safeguard_llm_config: Optional[LLMConfig] = None,
    mask_llm_config: Optional[LLMConfig] = None,
) -> SafeguardEnforcer:
    """Guard agents with a safeguard policy: its checks become hooks of the agents (and of the group chat).

    Args:
        agents: the agents to guard (when they talk to each other directly).
        groupchat_manager: the manager of a group chat to guard (all its participants, and every message it
            forwards); used instead of ``agents`` when given.
        policy: the policy dict, or the path of its JSON file (format: ``safeguards.validator``).
        safeguard_llm_config: the model that checks the rules with ``check_method: "llm"``.
        mask_llm_config: the model that masks what LLM rules caught.

    Returns:
        The ``SafeguardEnforcer`` holding the rules.

    Raises:
        ValueError: neither agents nor a manager, a malformed policy, or one that names unknown agents or tools
            ("Policy validation failed: ...").
    """
    enforcer = SafeguardEnforcer(
        policy=policy, safeguard_llm_config=safeguard_llm_config, mask_llm_config=mask_llm_config,
        groupchat_manager=groupchat_manager, agents=agents,
    )
    if groupchat_manager:
        groupchat = _manager(groupchat_manager).groupchat
        participants = [a for a in groupchat.agents if a.name != GROUP_TOOL_EXECUTOR_NAME]
        targets = [a for a in participants if hasattr(a, "hook_lists")]
        names = [a.name for a in participants] + [groupchat_manager.name]
    elif agents:
        targets = list(agents)
        names = [a.name for a in agents]
    else:
        raise ValueError("Either agents or groupchat_manager must be provided")
    try:
        SafeguardValidator(enforcer.policy).validate_policy_complete(
            agent_names=names, agent_tool_mapping={a.name: _tool_names(a) for a in targets}
        )
    except ValueError as e:
        raise ValueError(f"Policy validation failed: {e}") from e
    guarded = [_hookable(agent) for agent in targets]
    if groupchat_manager:
        groupchat._inter_agent_guardrails[:] = [enforcer]  # one policy per group chat: a new one replaces it
        if enforcer.group_tool_executor is not None:
            guarded.append(enforcer.group_tool_executor)
    for agent in guarded:
        for hook_name, hook in enforcer.create_agent_hooks(agent.name).items():
            if hook_name in agent.hook_lists:
                agent.hook_lists[hook_name].append(hook)
    return enforcer


def reset_safeguard_policy(
    *,
    agents: Optional[list[ConversableAgent]] = None,
    groupchat_manager: Optional[GroupChatManager] = None,
) -> None:
    """Take every safeguard off agents (their safeguard hooks and ``process_message_before_send`` hooks) or off
    a group chat (its participants and its inter-agent checks).

    Args:
        agents: the agents to clear.
        groupchat_manager: the manager of the group chat to clear; used instead of ``agents`` when given.

    Raises:
        ValueError: neither agents nor a manager was given.
    """
    emit_print("Resetting safeguards...")
    if groupchat_manager:
        groupchat = _manager(groupchat_manager).groupchat
        targets = [a for a in groupchat.agents if hasattr(a, "hook_lists")]
        emit_print(f"📋 Found {len(targets)} agents in GroupChat: {', '.join(a.name for a in targets)}")
        checks = getattr(groupchat, "_inter_agent_guardrails", None)
        if checks:
            emit_print(f"🔗 Clearing {len(checks)} inter-agent guardrails from GroupChat")
            checks.clear()
    elif agents:
        targets = list(agents)
        emit_print(f"📋 Resetting safeguards for {len(targets)} agents: {', '.join(a.name for a in targets)}")
    else:
        raise ValueError("Either agents or groupchat_manager must be provided")
    for agent in targets:
        _hookable(agent)
        for hook_name in (*SAFEGUARD_HOOKS, _INTER_AGENT_HOOK):
            # Hooks registered by hand in process_message_before_send go too, as in AG2 Classic 0.14.
            agent.hook_lists.get(hook_name, []).clear()
    emit_print(f"✅ Safeguard reset completed for {len(targets)} agents")
