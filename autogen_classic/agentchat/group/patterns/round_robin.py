"""``RoundRobinPattern``: the agents speak in turn, the initial agent first, the user agent last."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Union

from ...transitions import AgentTarget, ContextVariables, TransitionTarget  # noqa: F401 - classic names
from .pattern import Pattern, Prepared, mark_pattern_targets, members_after_works

if TYPE_CHECKING:
    from ...conversable_agent import ConversableAgent

__all__ = ["RoundRobinPattern"]


class RoundRobinPattern(Pattern):
    """Each agent's after work is the next agent (the initial agent first, then the others in order, then the
    user agent, then back to the initial agent)."""

    def _generate_handoffs(
        self,
        initial_agent: ConversableAgent,
        agents: list[ConversableAgent],
        user_agent: Optional[ConversableAgent],
    ) -> None:
        """Set the round-robin after works (replacing the agents' own after works, as classically)."""
        order = [initial_agent] + [a for a in agents if a != initial_agent and (user_agent is None or a != user_agent)]
        if user_agent is not None:
            order.append(user_agent)
        for index, agent in enumerate(order):
            following = order[0] if index == len(order) - 1 else order[index + 1]
            agent.handoffs.set_after_work(target=AgentTarget(agent=following))

    def prepare_group_chat(self, max_rounds: int, messages: Union[list[dict[str, Any]], str]) -> Prepared:
        """Set up the group chat, then the round-robin after works."""
        prepared = super().prepare_group_chat(max_rounds=max_rounds, messages=messages)
        self._generate_handoffs(initial_agent=prepared[4], agents=prepared[0], user_agent=prepared[2])
        mark_pattern_targets(prepared[7], members_after_works(prepared), type(self).__name__)
        return prepared

