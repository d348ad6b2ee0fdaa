"""The classic swarm as a configuration of the hand-off engine: its :data:`SWARM_STYLE` and its transition.

The swarm runs on the engine of ``groupchat/handoffs/`` (one tool executor, one transition); the style says
where ag2 0.7.3's swarm behaves otherwise than AG2 0.14's group chats: the executor is "Tool_Execution", a
``SwarmResult`` is read as a ``ReplyResult``, a function's ``context_variables`` comes in its JSON arguments,
the transfer tools are ``transfer_<agent>_to_<target>`` and are the agent's own functions, nothing prints the
transitions, and the selection
trace words each decision as the swarm always has (``handoff: triage -> refunds, transfer_triage_to_refunds``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional, Union

from ...conversable_agent import ConversableAgent
from ...transitions import ContextVariables, ReplyResult, TransitionTarget
from ..handoffs import GroupToolExecutor, GroupTransition, HandoffStyle
from .conditions import AFTER_WORK, AfterWorkOption, SwarmResult
from .swarm_agent import offer_function, withdraw_function
from .targets import SwarmTarget

if TYPE_CHECKING:
    from ...agent import Agent
    from ...user_proxy_agent import UserProxyAgent
    from ..group import GroupChat
    from ..selection.trace import HandoffStep

__all__ = ["SWARM_STYLE", "TOOL_EXECUTOR_NAME", "create_swarm_transition", "determine_swarm_next_agent",
           "swarm_after_work_target"]

TOOL_EXECUTOR_NAME = "Tool_Execution"
"""The name of the swarm's tool executor (ag2 0.7.3's ``__TOOL_EXECUTOR_NAME__``)."""

_OPTIONS = {option.value for option in AfterWorkOption}


def read_swarm_result(content: Any, function: str) -> Any:
    """A swarm function's return value for the engine: a ``SwarmResult`` as a ``ReplyResult``, an agent as a
    target (ag2 0.7.3 hands off to an agent a function returns); anything else as it is."""
    origin = f"returned by {function}"
    if isinstance(content, SwarmResult):
        target = None if content.agent is None else SwarmTarget(content.agent, origin=origin)
        variables = ContextVariables(data=dict(content.context_variables)) if content.context_variables else None
        return ReplyResult(message=content.values, target=target, context_variables=variables)
    if isinstance(content, ConversableAgent):
        return SwarmTarget(content, origin=origin)
    return content


def _tool_text(content: Any) -> str:
    return "" if content is None else str(content)


def swarm_reason(step: HandoffStep) -> str:
    """The selection trace's reason for a swarm's decision, worded as the swarm always has."""
    if step.kind == "initial_agent":
        return f"swarm: the initial agent {step.target}"
    if step.kind == "tool_call":
        return f"swarm: {step.source} suggested tool calls; the tool executor runs them"
    if step.kind in ("tool_return", "user_return"):
        return f"swarm: back to {step.result or step.target} after {step.source}"
    if step.kind in ("after_work", "pattern"):
        return f"{step.via}: {step.target}"
    if step.target in _OPTIONS:  # a SwarmResult named an AfterWorkOption
        return f"{step.via} returned {step.target}: {step.target}"
    return f"handoff: {step.source} -> {step.target}, {step.via}"


def _after_work_via(target: TransitionTarget) -> Optional[str]:
    if isinstance(target, SwarmTarget):
        return target.origin + (" (callable)" if target.is_callable else "")
    return None


def name_transfer_tools(agent: ConversableAgent) -> None:
    """Name ``agent``'s hand-off tools ``transfer_<agent>_to_<target>``, then ``_2``, ``_3`` ... for a target
    handed off to again (ag2 0.7.3's names)."""
    taken: set[str] = set()
    for condition in agent.handoffs.llm_conditions:
        base = f"transfer_{agent.name}_to_{condition.target.normalized_name()}"
        name, count = base, 2
        while name in taken:
            name, count = f"{base}_{count}", count + 1
        taken.add(name)
        condition.llm_function_name = name


SWARM_STYLE = HandoffStyle(
    executor_name=TOOL_EXECUTOR_NAME,
    executor_system_message="Tool Execution",
    initial_via="initial_agent",
    reply_result_via="{function}",
    transition_events=False,
    context_in_arguments=True,
    resolve_pending_for_agent=True,
    offer_handoff_tool=lambda agent, func, name, description: offer_function(agent, func, name, description,
                                                                             silent_override=True),
    withdraw_handoff_tool=withdraw_function,
    read_result=read_swarm_result,
    tool_text=_tool_text,
    reason=swarm_reason,
    after_work_via=_after_work_via,
    name_handoff_tools=name_transfer_tools,
)
"""ag2 0.7.3's swarm on the hand-off engine."""


def swarm_after_work_target(after_work: Any, origin: str = "after work of the swarm") -> SwarmTarget:
    """The engine's after-work target for a swarm's ``after_work`` (an ``AFTER_WORK`` or what it holds)."""
    return SwarmTarget(after_work.agent if isinstance(after_work, AFTER_WORK) else after_work, origin=origin)


def create_swarm_transition(
    initial_agent: ConversableAgent,
    tool_execution: GroupToolExecutor,
    swarm_agent_names: list[str],
    user_agent: Optional[UserProxyAgent],
    swarm_after_work: Optional[Union[AfterWorkOption, Callable[..., Any]]],
) -> Callable[[Agent, GroupChat], Any]:
    """The swarm's speaker-selection method (for sync and async swarm chats): the engine's transition in the
    swarm's style.

    Args:
        initial_agent: the first agent to speak.
        tool_execution: the tool executor.
        swarm_agent_names: the names of the swarm's agents.
        user_agent: the user agent, if any.
        swarm_after_work: the swarm-level after work (an AFTER_WORK, an AfterWorkOption, an agent or a callable).
    """
    return GroupTransition(initial_agent, tool_execution, swarm_agent_names, user_agent,
                           swarm_after_work_target(swarm_after_work), style=SWARM_STYLE)


class _PendingNextAgent:
    """An agent standing for the tool executor (ag2 0.7.3 code makes a ``SwarmAgent("Tool_Execution")``), seen
    as the engine's executor: its pending hand-off is its ``_next_agent`` (an agent, a name or an option)."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = agent.name

    def has_next_target(self) -> bool:
        return getattr(self.agent, "_next_agent", None) is not None

    def get_next_target(self) -> SwarmTarget:
        return SwarmTarget(self.agent._next_agent, origin=f"the _next_agent of {self.name}")  # type: ignore[attr-defined]

    def next_target_step(self) -> None:
        return None

    def clear_next_target(self) -> None:
        self.agent._next_agent = None  # type: ignore[attr-defined]


def determine_swarm_next_agent(
    last_speaker: Agent,
    groupchat: GroupChat,
    initial_agent: ConversableAgent,
    use_initial_agent: bool,
    tool_execution: Agent,
    swarm_agent_names: list[str],
    user_agent: Optional[UserProxyAgent],
    swarm_after_work: Any,
) -> Union[Agent, str, None]:
    """The swarm's next speaker, decided once as its transition decides each turn: the initial agent first; the
    tool executor after tool calls; a hand-off pending on the executor (then cleared); back to the agent whose
    tools ran or whom the user answered; else the last swarm agent's ``AFTER_WORK``, else ``swarm_after_work``.

    Args:
        last_speaker: the agent that spoke last.
        groupchat: the group chat (its messages are read).
        initial_agent: the first agent to speak.
        use_initial_agent: whether this is the first turn (the initial agent speaks).
        tool_execution: the tool executor (from ``prepare_swarm_agents``); any other agent may stand for it, its
            ``_next_agent`` then holding the pending hand-off.
        swarm_agent_names: the names of the swarm's agents.
        user_agent: the user agent, if any.
        swarm_after_work: the swarm-level after work (an AFTER_WORK, an AfterWorkOption, an agent or a callable).

    Returns:
        The next agent, None to end the chat, or "auto" (``SWARM_MANAGER``: the group chat's model chooses).
    """
    executor: Any = tool_execution
    if not isinstance(tool_execution, GroupToolExecutor):
        executor = _PendingNextAgent(tool_execution)
    elif getattr(tool_execution, "_next_agent", None) is not None:  # set by ag2 0.7.3 code on the executor
        pending = _PendingNextAgent(tool_execution)
        tool_execution.set_next_target(pending.get_next_target())
        pending.clear_next_target()
    transition = GroupTransition(initial_agent, executor, swarm_agent_names, user_agent,
                                 swarm_after_work_target(swarm_after_work), style=SWARM_STYLE)
    transition.use_initial_agent = use_initial_agent
    chosen = transition(last_speaker, groupchat)
    return tool_execution if chosen is executor else chosen
