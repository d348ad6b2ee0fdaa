"""Making agents members of a group with hand-offs (the engine side of ``agent.handoffs``).

Each agent of the group gets: the hand-off tools of its LLM conditions (``transfer_to_<target>_<n>``,
offered while their ``available`` condition holds, refreshed before each reply), a first reply function
that checks its ``OnContextCondition`` s (one that holds hands off at once: the agent says
``[Handing off to <target>]`` and the target is pending on the tool executor), and optionally a hook hiding
the hand-off tool calls from what it reads. Targets that are not agents (a nested chat, a group chat) are
wrapped in agents of their own. Every target must lead inside the group: checked before the chat starts.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from types import MethodType
from typing import TYPE_CHECKING, Any, Optional

from ....exception_utils import InvalidStateError
from ....io.base import IOStream
from ...agent import Agent
from ...transitions import AgentNameTarget, AgentTarget, ContextVariables, RandomAgentTarget, TransitionTarget
from ..selection.trace import HandoffStep
from .evaluation import available, condition_label, first_after_work, first_context_condition, holds
from .events import OnContextConditionTransitionEvent
from .executor import GroupToolExecutor, target_label
from .style import GROUP_STYLE, HandoffStyle

if TYPE_CHECKING:
    from ...conversable_agent import ConversableAgent

__all__ = [
    # evaluated in .evaluation, importable here as before
    "available",
    "condition_label",
    "first_after_work",
    "holds",
    "validate_handoff_target",
    "create_on_condition_handoff_functions",
    "ensure_guardrail_agents_in_group",
    "ensure_handoff_agents_in_group",
    "establish_group_agent",
    "link_agents_to_group_manager",
    "make_remove_function",
    "prepare_exclude_transit_messages",
    "prepare_group_agents",
    "update_conditional_functions",
    "wrap_agent_handoff_targets",
]


def _agent_outside(target: TransitionTarget, agent_names: list[str], context: str) -> Optional[tuple[str, str]]:
    """The first agent ``target`` leads to that is not in ``agent_names``, with AG2 Classic 0.14's message for
    it; None when the target stays inside (or names no agent)."""
    if isinstance(target, (AgentTarget, AgentNameTarget)):
        if target.agent_name not in agent_names:
            return target.agent_name, f"Agent in {context} Hand-offs must be in the agents list"
    elif isinstance(target, RandomAgentTarget):
        for name in target.agent_names:
            if name not in agent_names:
                return name, f"Agent '{name}' in RandomAgentTarget Hand-offs must be in the agents list"
    return None


def validate_handoff_target(target: TransitionTarget, agent_names: list[str], context: str) -> None:
    """Raise ValueError when ``target`` names an agent outside ``agent_names`` (AG2 Classic 0.14's messages;
    ``context`` says where the target appears, e.g. "OnCondition")."""
    outside = _agent_outside(target, agent_names, context)
    if outside is not None:
        raise ValueError(outside[1])


def _handoff_function(target: TransitionTarget) -> Callable[[], TransitionTarget]:
    """The function behind a hand-off tool: calling it returns the target (the tool executor reads it)."""

    def transfer_to_target() -> TransitionTarget:
        return target

    return transfer_to_target


def _offer(agent: ConversableAgent, func: Callable[..., Any], name: str, description: str,
           style: HandoffStyle = GROUP_STYLE) -> None:
    """Offer ``func`` to ``agent``'s model as the tool ``name`` (not executed by the agent itself)."""
    if style.offer_handoff_tool is not None:
        style.offer_handoff_tool(agent, func, name, description)
        return
    func._name = name  # type: ignore[attr-defined]
    func._description = description  # type: ignore[attr-defined]
    agent.register_for_llm(name=name, description=description, silent_override=True)(func)


def _withdraw(agent: ConversableAgent, name: str, style: HandoffStyle = GROUP_STYLE) -> None:
    """Stop offering the hand-off tool ``name`` to ``agent``'s model (nothing when it is not offered)."""
    if style.withdraw_handoff_tool is not None:
        style.withdraw_handoff_tool(agent, name)
        return
    for tool in agent.tools:
        if tool.name == name:
            agent.remove_tool_for_llm(tool)
            break


def update_conditional_functions(agent: ConversableAgent, messages: list[dict[str, Any]]) -> None:
    """Refresh ``agent``'s hand-off tools before it replies: each is offered anew while its condition is available.

    Withdrawn and offered again so that a description made from the context variables is up to date.
    """
    style = getattr(agent, "_handoff_style", GROUP_STYLE)  # the style of the chat it was last prepared for
    for on_condition in agent.handoffs.llm_conditions:
        name = on_condition.llm_function_name or ""
        _withdraw(agent, name, style)
        if available(on_condition, agent, messages):
            _offer(agent, _handoff_function(on_condition.target), name,
                   on_condition.condition.get_prompt(agent, messages), style)


def _executor_of(agent: Any) -> Optional[GroupToolExecutor]:
    manager = getattr(agent, "_group_manager", None)
    for member in getattr(getattr(manager, "groupchat", None), "agents", None) or ():
        if isinstance(member, GroupToolExecutor):
            return member
    return None


def _run_oncontextconditions(
    agent: ConversableAgent,
    messages: Optional[list[dict[str, Any]]] = None,
    sender: Optional[Agent] = None,
    config: Any = None,
) -> tuple[bool, Optional[str]]:
    """The agent's first reply function: the first ``OnContextCondition`` that holds hands off, instead of a reply."""
    on_condition = first_context_condition(agent, messages or [])
    if on_condition is None:
        return False, None
    on_condition.target.activate_target(agent._group_manager.groupchat)  # type: ignore[attr-defined]
    executor = _executor_of(agent)
    if executor is not None and executor.has_next_target():
        executor.describe_next_target(HandoffStep(
            "context_condition", agent.name, target_label(on_condition.target),
            condition_label(on_condition.condition),
        ))
    if getattr(agent, "_handoff_style", GROUP_STYLE).transition_events:
        IOStream.get_default().send(
            OnContextConditionTransitionEvent(source_agent=agent, transition_target=on_condition.target)
        )
    return True, "[Handing off to " + on_condition.target.display_name() + "]"


def establish_group_agent(agent: ConversableAgent) -> None:
    """Make ``agent`` a group member: its hand-off tools are refreshed before each reply and its context
    conditions are checked first. Not for the tool executor."""

    def _group_agent_str(self: ConversableAgent) -> str:
        return f"Group agent --> {self.name}"

    agent.register_hook("update_agent_state", update_conditional_functions)
    agent.register_reply([Agent, None], _run_oncontextconditions, position=0)
    agent._get_display_name = MethodType(_group_agent_str, agent)  # type: ignore[attr-defined]
    agent._group_is_established = True  # type: ignore[attr-defined]


def link_agents_to_group_manager(agents: list[Agent], group_chat_manager: Agent) -> None:
    """Let each agent reach the group chat (and its tool executor) through ``agent._group_manager``."""
    for agent in agents:
        agent._group_manager = group_chat_manager  # type: ignore[attr-defined]


def create_on_condition_handoff_functions(agent: ConversableAgent, style: Optional[HandoffStyle] = None) -> None:
    """Name the hand-off tools of ``agent``'s LLM conditions and offer them to its model.

    Args:
        agent: the agent.
        style: names the tools (default AG2 0.14's ``transfer_to_<target>_<n>``).

    Raises:
        InvalidStateError: the agent has LLM conditions but no ``llm_config`` (an ``AssertionError``, as the
            classic package raises here).
    """
    style = style or GROUP_STYLE
    if style.name_handoff_tools is not None:
        style.name_handoff_tools(agent)
    else:
        agent.handoffs.set_llm_function_names()
    conditions = agent.handoffs.llm_conditions
    if conditions and not agent.llm_config:
        first = conditions[0]
        raise InvalidStateError(
            f"To update a tool signature, agent must have an llm_config: agent '{agent.name}' has "
            f"{len(conditions)} LLM condition(s) (OnCondition to {target_label(first.target)!r}, offered to its "
            f"model as the tool {first.llm_function_name!r}) but llm_config={agent.llm_config!r}. Give "
            f"'{agent.name}' an llm_config, or hand off with OnContextCondition / set_after_work instead."
        )
    for on_condition in conditions:
        _offer(agent, _handoff_function(on_condition.target), on_condition.llm_function_name or "",
               on_condition.condition.get_prompt(agent, []), style)


def _check_target(agent: Any, target: TransitionTarget, names: list[str], where: str) -> None:
    outside = _agent_outside(target, names, where.split(" (")[0])
    if outside is not None:
        missing, classic = outside
        raise ValueError(
            f"{classic}: agent '{agent.name}' has {where} leading to '{missing}', which is not one of the group's "
            f"agents {names}. Add '{missing}' to the pattern's agents, or change the target."
        )


def ensure_handoff_agents_in_group(agents: list[ConversableAgent]) -> None:
    """Check that every hand-off of ``agents`` leads to one of them.

    Raises:
        ValueError: naming the agent, the condition and the missing agent.
    """
    names = [agent.name for agent in agents]
    for agent in agents:
        for condition in agent.handoffs.llm_conditions:
            _check_target(agent, condition.target, names, "OnCondition")
        for condition in agent.handoffs.context_conditions:
            _check_target(agent, condition.target, names, "OnContextCondition")
        for condition in agent.handoffs.after_works:
            _check_target(agent, condition.target, names, "after work target")


def ensure_guardrail_agents_in_group(agents: list[ConversableAgent]) -> None:
    """Check that every guardrail of ``agents`` that leads to an agent leads to one of them.

    Raises:
        ValueError: naming the agent, the guardrail and the missing agent.
    """
    names = [agent.name for agent in agents]
    for agent in agents:
        for guardrail in list(getattr(agent, "input_guardrails", [])) + list(getattr(agent, "output_guardrails", [])):
            target = getattr(guardrail, "target", None)
            if isinstance(target, (AgentTarget, AgentNameTarget)) and target.agent_name not in names:
                raise ValueError(
                    f"Agent in guardrail's target must be in the agents list: the guardrail "
                    f"{getattr(guardrail, 'name', '')!r} of agent '{agent.name}' leads to '{target.agent_name}', "
                    f"which is not one of {names}. Add it to the pattern's agents, or change the target."
                )


def make_remove_function(tool_msgs_to_remove: list[str]) -> Callable[[list[dict[str, Any]]], list[dict[str, Any]]]:
    """A ``process_all_messages_before_reply`` hook leaving out the calls of the tools named (and their responses)."""

    def remove_messages(messages: list[dict[str, Any]], tool_msgs_to_remove: list[str]) -> list[dict[str, Any]]:
        if not tool_msgs_to_remove:
            return messages
        # Copy on write: only a message that loses calls or responses is copied (shallowly, with new lists), so
        # the cost stays proportional to what changes, not to the whole history (a deep copy of every message
        # before every reply made long chats quadratic). The stored history is never modified.
        kept: list[dict[str, Any]] = []
        removed_ids: set[str] = set()
        for message in messages:
            if message.get("tool_calls") is not None:
                calls = []
                for call in message["tool_calls"]:
                    if call.get("function") is not None and call["function"]["name"] in tool_msgs_to_remove:
                        removed_ids.add(call["id"])
                    else:
                        calls.append(call)
                if len(calls) != len(message["tool_calls"]):
                    message = {k: v for k, v in message.items() if k != "tool_calls"}
                    if calls:
                        message["tool_calls"] = calls
                    elif message.get("content") in (None, "", "None"):
                        continue  # nothing left of the message
            elif message.get("tool_responses") is not None and removed_ids:
                responses = [r for r in message["tool_responses"] if r["tool_call_id"] not in removed_ids]
                if not responses:
                    continue
                if len(responses) != len(message["tool_responses"]):
                    message = {**message, "tool_responses": responses}
            kept.append(message)
        return kept

    return partial(remove_messages, tool_msgs_to_remove=tool_msgs_to_remove)


def prepare_exclude_transit_messages(agents: list[ConversableAgent]) -> None:
    """Hide every hand-off tool call of the group (and its response) from what the agents read before replying."""
    names: list[str] = []
    for agent in agents:
        for on_condition in agent.handoffs.llm_conditions:
            if not on_condition.llm_function_name:
                raise ValueError(f"OnCondition must have a function name (agent '{agent.name}')")
            names.append(on_condition.llm_function_name)
    remove = make_remove_function(names)
    for agent in agents:
        agent.register_hook("process_all_messages_before_reply", remove)


def wrap_agent_handoff_targets(agent: ConversableAgent, wrapped_agent_list: list[ConversableAgent]) -> None:
    """Give each target of ``agent`` that is not an agent (a nested chat, a group chat) an agent standing for it.

    The conditions then lead to that agent (an ``AgentTarget``); the new agents are added to ``wrapped_agent_list``.
    """
    for index, on_condition in enumerate(agent.handoffs.get_llm_conditions_requiring_wrapping()):
        wrapper = on_condition.target.create_wrapper_agent(parent_agent=agent, index=index)
        wrapped_agent_list.append(wrapper)
        on_condition.target = AgentTarget(wrapper)
    for index, on_condition in enumerate(agent.handoffs.get_context_conditions_requiring_wrapping()):
        wrapper = on_condition.target.create_wrapper_agent(parent_agent=agent, index=index)
        wrapped_agent_list.append(wrapper)
        on_condition.target = AgentTarget(wrapper)


def prepare_group_agents(
    agents: list[ConversableAgent],
    context_variables: ContextVariables,
    exclude_transit_message: bool = True,
    style: Optional[HandoffStyle] = None,
) -> tuple[GroupToolExecutor, list[ConversableAgent]]:
    """Check the agents' hand-offs, make the tool executor and the wrapper agents, offer the hand-off tools.

    Args:
        agents: the agents of the group.
        context_variables: the group's context variables (injected into the tools that take them).
        exclude_transit_message: hide the hand-off tool calls from what the agents read.
        style: where the chat's API differs (default AG2 0.14's; the classic swarm passes its own).

    Returns:
        The tool executor and the wrapper agents.
    """
    for agent in agents:
        if not hasattr(agent, "_group_is_established"):
            establish_group_agent(agent)
    ensure_handoff_agents_in_group(agents)
    ensure_guardrail_agents_in_group(agents)
    style = style or GROUP_STYLE
    tool_execution = GroupToolExecutor(style=style)
    wrapped: list[ConversableAgent] = []
    for agent in agents:
        wrap_agent_handoff_targets(agent, wrapped)
    for agent in agents:
        agent._handoff_style = style  # type: ignore[attr-defined]  # read before each of its replies
        create_on_condition_handoff_functions(agent, style)
    tool_execution.register_agents_functions(agents + wrapped, context_variables)
    if exclude_transit_message:
        prepare_exclude_transit_messages(agents)
    return tool_execution, wrapped
