"""The hand-off transition: who speaks next in a group chat of patterns (its ``speaker_selection_method``).

In order: the initial agent first; after a message with tool calls, the tool executor; a target pending on
the executor (set by an LLM condition's hand-off tool, a tool's ``ReplyResult``, a context condition or a
guardrail); after tool responses, back to the agent that called the tools; after the user, back to the
agent before it (unless the user has after-works of its own); otherwise the first after-work of the last
agent whose condition holds, else the group's after-work. A target resolves to an agent, to the end of
the chat, or to a selection method ("auto": the manager's model picks; "manual": the user picks), which
the group chat's selection pipeline then runs.

Each decision is left in ``last_handoff`` (a :class:`HandoffStep`), which the selection trace records, and
``last_reason``, worded by the chat's :class:`HandoffStyle` (the classic swarm words it its own way).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Union

from ....io.base import IOStream
from ...agent import Agent
from ...transitions import TransitionTarget
from ..selection.trace import HandoffStep
from .evaluation import condition_label, first_after_work
from .events import AfterWorksTransitionEvent
from .executor import GroupToolExecutor, target_label
from .style import GROUP_STYLE, HandoffStyle

if TYPE_CHECKING:
    from ...conversable_agent import ConversableAgent
    from ..group import GroupChat

__all__ = [
    "NO_AFTER_WORK_MATCHED",
    "GroupTransition",
    "create_group_transition",
    "determine_next_agent",
    "evaluate_after_works_conditions",
    "get_last_agent_speaker",
]

Choice = Union[Agent, str, None]


def get_last_agent_speaker(
    groupchat: GroupChat, group_agent_names: list[str], tool_executor: GroupToolExecutor
) -> Agent:
    """The last agent of the group (not the tool executor, not the user) that has a message in the chat.

    Raises:
        ValueError: none of the group's agents has spoken.
    """
    for message in reversed(groupchat.messages):
        name = message.get("name")
        if name in group_agent_names and name != tool_executor.name:
            agent = groupchat.agent_by_name(name=name)
            if agent:
                return agent
    raise ValueError("No group agent found in the message history")


def _result_label(result: Choice) -> str:
    if result is None:
        return "terminate"
    return result if isinstance(result, str) else str(getattr(result, "name", result))


class GroupTransition:
    """The selection method of one group chat with hand-offs (the initial agent speaks first, once).

    Args:
        initial_agent: the first agent to speak.
        tool_execution: the group's tool executor.
        group_agent_names: the names of the group's agents (wrapper agents included).
        user_agent: the user agent of the chat, if any.
        group_after_work: the group's after-work target (used when an agent has none that holds).
        pattern_name: the class name of the pattern that set up the chat (named in the selection trace).
        style: where the chat's API differs (default AG2 0.14's; the classic swarm passes its own).
    """

    def __init__(
        self,
        initial_agent: ConversableAgent,
        tool_execution: GroupToolExecutor,
        group_agent_names: list[str],
        user_agent: Optional[ConversableAgent],
        group_after_work: TransitionTarget,
        pattern_name: Optional[str] = None,
        style: Optional[HandoffStyle] = None,
    ) -> None:
        self.style = style or GROUP_STYLE
        self.initial_agent = initial_agent
        self.tool_execution = tool_execution
        self.group_agent_names = group_agent_names
        self.user_agent = user_agent
        self.group_after_work = group_after_work
        self.pattern_name = pattern_name
        self.use_initial_agent = True
        # The after-work targets a pattern made (id -> pattern name): the trace says the pattern chose.
        self.pattern_targets: dict[int, str] = {}
        self.last_reason = ""
        self.last_handoff: Optional[HandoffStep] = None

    def mark_pattern_target(self, target: TransitionTarget, pattern_name: str) -> None:
        """Record that ``target`` was set by the pattern ``pattern_name`` (the trace then says "pattern")."""
        self.pattern_targets[id(target)] = pattern_name

    # ----------------------------------------------------------------- the decision
    def __call__(self, last_speaker: Agent, groupchat: GroupChat) -> Choice:
        first, self.use_initial_agent = self.use_initial_agent, False
        self.last_handoff, self.last_reason = None, ""
        return self._decide(last_speaker, groupchat, first)

    def _step(self, step: HandoffStep, result: Choice) -> Choice:
        step.result = _result_label(result)
        self.last_handoff = step
        self.last_reason = self.style.reason(step)
        return result

    def _decide(self, last_speaker: Agent, groupchat: GroupChat, first: bool) -> Choice:
        if first:
            return self._step(HandoffStep("initial_agent", None, self.initial_agent.name, self.style.initial_via),
                              self.initial_agent)
        executor = self.tool_execution
        target: Optional[TransitionTarget] = None
        step: Optional[HandoffStep] = None
        manager = getattr(last_speaker, "_group_manager", None)
        forced = getattr(manager, "_next_target_force", None) if manager is not None else None
        if forced is not None:
            delattr(manager, "_next_target_force")
            target, step = forced, HandoffStep("forced", last_speaker.name, target_label(forced), "_next_target_force")
        last = groupchat.messages[-1]
        if "tool_calls" in last:
            calls = [c.get("function", {}).get("name", "") for c in last.get("tool_calls") or []]
            return self._step(HandoffStep("tool_call", last_speaker.name, executor.name, ", ".join(calls)), executor)
        if executor.has_next_target():
            target = executor.get_next_target()
            step = executor.next_target_step() or HandoffStep("activated", None, target_label(target))
            executor.clear_next_target()
        if target is not None and step is not None:
            return self._pending(target, step, last_speaker, groupchat)
        return self._after_work(last_speaker, groupchat)

    def _pending(self, target: TransitionTarget, step: HandoffStep, last_speaker: Agent,
                 groupchat: GroupChat) -> Choice:
        self.last_handoff = step  # kept when resolving fails: the trace says what was asked
        if not target.can_resolve_for_speaker_selection():
            raise ValueError(
                "Tool Executor next target must be a valid TransitionTarget that can resolve for speaker selection: "
                f"{step.kind} of {step.source!r} set {target!r}. Targets such as a nested chat or a group chat must "
                "be hand-off targets of an agent (OnCondition / OnContextCondition), which wraps them in an agent."
            )
        for_agent = last_speaker
        if self.style.resolve_pending_for_agent:
            for_agent = get_last_agent_speaker(groupchat, self.group_agent_names, self.tool_execution)
        result = target.resolve(groupchat, for_agent, self.user_agent).get_speaker_selection_result(groupchat)
        return self._step(step, result)

    def _after_work(self, last_speaker: Agent, groupchat: GroupChat) -> Choice:
        executor = self.tool_execution
        speaker = get_last_agent_speaker(groupchat, self.group_agent_names, executor)
        if groupchat.messages[-1]["role"] == "tool":
            return self._step(HandoffStep("tool_return", executor.name, speaker.name, "its tool calls ran"), speaker)
        user = self.user_agent
        if user is not None and last_speaker == user:
            if not user.handoffs.after_works:
                return self._step(HandoffStep("user_return", user.name, speaker.name, "the user answered"), speaker)
            speaker = user
        condition = first_after_work(speaker, groupchat.messages)
        if condition is not None:
            target = condition.target
            kind, via = self._origin(target, f"after work ({condition_label(condition.condition)})")
            self.last_handoff = HandoffStep(kind, speaker.name, target_label(target), via)
            result = _after_work_result(target, groupchat, speaker, user, self.style.transition_events)
            # A random target names its choice once resolved.
            return self._step(HandoffStep(kind, speaker.name, target_label(target), via), result)
        target = self.group_after_work
        kind, via = self._origin(target, "the group's after work")
        self.last_handoff = HandoffStep(kind, speaker.name, target_label(target), via)
        result = target.resolve(groupchat, speaker, user).get_speaker_selection_result(groupchat)
        return self._step(HandoffStep(kind, speaker.name, target_label(target), via), result)

    def _origin(self, target: TransitionTarget, via: str) -> tuple[str, str]:
        pattern = self.pattern_targets.get(id(target))
        if pattern:
            return "pattern", f"{pattern}: {via}"
        worded = self.style.after_work_via(target) if self.style.after_work_via is not None else None
        return "after_work", worded or via


NO_AFTER_WORK_MATCHED = object()
"""What ``evaluate_after_works_conditions`` returns when none of the agent's after-work entries holds."""


def evaluate_after_works_conditions(agent: ConversableAgent, groupchat: GroupChat,
                                    user_agent: Optional[ConversableAgent]) -> Any:  # fmt: skip
    """The speaker the first of ``agent``'s after-work entries that holds leads to (an agent, a method name, or
    None to end the chat), sending its transition event; ``NO_AFTER_WORK_MATCHED`` when none holds."""
    condition = first_after_work(agent, groupchat.messages)
    if condition is None:
        return NO_AFTER_WORK_MATCHED
    return _after_work_result(condition.target, groupchat, agent, user_agent, send_event=True)


def _after_work_result(target: TransitionTarget, groupchat: GroupChat, agent: Any, user_agent: Any,
                       send_event: bool) -> Choice:  # fmt: skip
    """Where an after-work ``target`` of ``agent`` leads, sending its transition event when ``send_event``."""
    result = target.resolve(groupchat, agent, user_agent).get_speaker_selection_result(groupchat)
    if send_event:
        IOStream.get_default().send(AfterWorksTransitionEvent(source_agent=agent, transition_target=target))
    return result


def create_group_transition(
    initial_agent: ConversableAgent,
    tool_execution: GroupToolExecutor,
    group_agent_names: list[str],
    user_agent: Optional[ConversableAgent],
    group_after_work: TransitionTarget,
    style: Optional[HandoffStyle] = None,
) -> GroupTransition:
    """The speaker selection method of a group chat with hand-offs (see :class:`GroupTransition`).

    Args:
        initial_agent: the first agent to speak.
        tool_execution: the group's tool executor.
        group_agent_names: the names of the group's agents.
        user_agent: the user agent, if any.
        group_after_work: the group-level after-work target.
        style: where the chat's API differs (default AG2 0.14's).
    """
    return GroupTransition(initial_agent, tool_execution, group_agent_names, user_agent, group_after_work,
                           style=style)


def determine_next_agent(
    last_speaker: ConversableAgent,
    groupchat: GroupChat,
    initial_agent: ConversableAgent,
    use_initial_agent: bool,
    tool_executor: GroupToolExecutor,
    group_agent_names: list[str],
    user_agent: Optional[ConversableAgent],
    group_after_work: TransitionTarget,
) -> Choice:
    """The next speaker (an agent), the end of the chat (None) or a selection method ("auto", "manual").

    The decision of :class:`GroupTransition`, taken once: ``use_initial_agent`` says whether this is the first turn.
    """
    transition = GroupTransition(initial_agent, tool_executor, group_agent_names, user_agent, group_after_work)
    transition.use_initial_agent = use_initial_agent
    return transition(last_speaker, groupchat)
