"""The swarm's speaker selection: a callable ``speaker_selection_method`` for the group chat.

After a tool call the executor speaks; after the executor, the hand-off its results chose (or the agent that
called the tools); after a plain reply, the agent's ``AFTER_WORK`` (else the swarm's). Each decision leaves
its reason in ``last_reason``, which the selection trace records.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Union

from ...agent import Agent
from ...user_proxy_agent import UserProxyAgent
from ..group import GroupChat
from ..selection.trace import HandoffStep
from .conditions import AFTER_WORK, AFTER_WORK_KINDS, AfterWorkOption
from .swarm_agent import SwarmAgent

__all__ = ["SwarmTransition", "create_swarm_transition"]

Choice = Union[Agent, str, None]


class SwarmTransition:
    """The selection method of one swarm chat (the initial agent speaks first, once)."""

    def __init__(self, initial_agent: SwarmAgent, tool_execution: SwarmAgent, swarm_agent_names: list[str],
                 user_agent: Optional[UserProxyAgent], swarm_after_work: Any) -> None:
        self.initial_agent = initial_agent
        self.tool_execution = tool_execution
        self.swarm_agent_names = swarm_agent_names
        self.user_agent = user_agent
        self.swarm_after_work = swarm_after_work
        self.use_initial_agent = True
        # Why the last decision was made: the group chat's selection trace reads it (as text, and as a step).
        self.last_reason = ""
        self.last_handoff: Optional[HandoffStep] = None

    def __call__(self, last_speaker: Agent, groupchat: GroupChat) -> Choice:
        first, self.use_initial_agent = self.use_initial_agent, False
        self.last_handoff = None
        if first:
            self.last_reason = f"swarm: the initial agent {self.initial_agent.name}"
            self.last_handoff = HandoffStep("initial_agent", None, self.initial_agent.name, "initial_agent",
                                            self.initial_agent.name)
            return self.initial_agent
        if "tool_calls" in groupchat.messages[-1]:
            self.last_reason = f"swarm: {last_speaker.name} suggested tool calls; the tool executor runs them"
            calls = ", ".join(c.get("function", {}).get("name", "") for c in groupchat.messages[-1]["tool_calls"] or [])
            self.last_handoff = HandoffStep("tool_call", last_speaker.name, self.tool_execution.name, calls,
                                            self.tool_execution.name)
            return self.tool_execution
        return self._after_tools_or_work(last_speaker, groupchat)

    def _agent_named(self, name: str, groupchat: GroupChat, what: str) -> Agent:
        if name not in self.swarm_agent_names:
            raise ValueError(f"No agent found with the name '{name}' ({what}). Ensure the agent exists in the "
                             f"swarm; its agents are {self.swarm_agent_names}.")
        return groupchat.agent_by_name(name=name)

    def _last_swarm_speaker(self, groupchat: GroupChat) -> SwarmAgent:
        for message in reversed(groupchat.messages):
            name = message.get("name")
            if name in self.swarm_agent_names and name != self.tool_execution.name:
                agent = groupchat.agent_by_name(name=name)
                if isinstance(agent, SwarmAgent):
                    return agent
        raise ValueError("No swarm agent found in the message history")

    def _after_tools_or_work(self, last_speaker: Agent, groupchat: GroupChat) -> Choice:
        executor = self.tool_execution
        handoff, via = executor._next_agent, getattr(executor, "_handoff_function", None)
        executor._next_agent = None
        condition: Any = None
        if handoff is not None and not isinstance(handoff, AfterWorkOption):
            target = self._agent_named(handoff, groupchat, f"returned by {via}") if isinstance(handoff, str) else handoff
            speaker = self._last_swarm_speaker(groupchat)
            self.last_reason = f"handoff: {speaker.name} -> {target.name}, {via}"
            self.last_handoff = HandoffStep(_kind_of(speaker, via), speaker.name, target.name, via, target.name)
            return target
        if handoff is not None:
            condition, origin = handoff, f"{via} returned {handoff.value}"
        speaker = self._last_swarm_speaker(groupchat)
        if condition is None:
            if (self.user_agent is not None and last_speaker is self.user_agent) or \
                    groupchat.messages[-1].get("role") == "tool":
                self.last_reason = f"swarm: back to {speaker.name} after {last_speaker.name}"
                kind = "tool_return" if groupchat.messages[-1].get("role") == "tool" else "user_return"
                self.last_handoff = HandoffStep(kind, last_speaker.name, speaker.name, None, speaker.name)
                return speaker
            own = speaker.after_work is not None
            condition = speaker.after_work if own else self.swarm_after_work
            origin = f"after work of {speaker.name}" if own else "after work of the swarm"
            if isinstance(condition, AFTER_WORK):
                condition = condition.agent
            if callable(condition) and not isinstance(condition, (Agent, AfterWorkOption)):
                condition = condition(speaker, groupchat.messages, groupchat)
                origin += " (callable)"
        result = self._apply(condition, origin, speaker, groupchat)
        kind = "reply_result" if handoff is not None else "after_work"
        label = result if isinstance(result, str) else getattr(result, "name", "terminate")
        target = condition.value if isinstance(condition, AfterWorkOption) else label
        self.last_handoff = HandoffStep(kind, speaker.name, target, origin, label)
        return result

    def _apply(self, condition: Any, origin: str, speaker: SwarmAgent, groupchat: GroupChat) -> Choice:
        if isinstance(condition, str):
            agent = self._agent_named(condition, groupchat, origin)
            self.last_reason = f"{origin}: {agent.name}"
            return agent
        if isinstance(condition, Agent):
            if condition not in groupchat.agents:
                raise ValueError(f"{origin} chose the agent {condition.name!r}, which is not in the swarm; its "
                                 f"agents are {self.swarm_agent_names}.")
            self.last_reason = f"{origin}: {condition.name}"
            return condition
        if isinstance(condition, AfterWorkOption):
            self.last_reason = f"{origin}: {condition.value}"
            if condition is AfterWorkOption.TERMINATE:
                return None
            if condition is AfterWorkOption.REVERT_TO_USER:
                return self.user_agent
            if condition is AfterWorkOption.STAY:
                return speaker
            return "auto"
        raise ValueError(f"Invalid After Work condition or return value from callable ({origin}): {condition!r}; "
                         f"accepted: {AFTER_WORK_KINDS}; a callable may also return an agent's name.")


def _kind_of(speaker: Any, via: Any) -> str:
    """A transfer function of an ON_CONDITION is an LLM condition; any other function returned a SwarmResult."""
    return "llm_condition" if via in getattr(speaker, "_conditional_functions", {}) else "reply_result"


def create_swarm_transition(
    initial_agent: SwarmAgent,
    tool_execution: SwarmAgent,
    swarm_agent_names: list[str],
    user_agent: Optional[UserProxyAgent],
    swarm_after_work: Optional[Union[AfterWorkOption, Callable[..., Any]]],
) -> Callable[[SwarmAgent, GroupChat], Optional[Agent]]:
    """The swarm's speaker-selection method (for sync and async swarm chats).

    Args:
        initial_agent: the first agent to speak.
        tool_execution: the tool executor.
        swarm_agent_names: the names of the swarm's agents.
        user_agent: the user agent, if any.
        swarm_after_work: the swarm-level after work (an AFTER_WORK, an AfterWorkOption or a callable).
    """
    return SwarmTransition(initial_agent, tool_execution, swarm_agent_names, user_agent, swarm_after_work)
