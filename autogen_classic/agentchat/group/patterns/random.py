"""``RandomPattern``: after each agent's turn a randomly chosen other agent speaks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Union

from ...transitions import ContextVariables, RandomAgentTarget, TransitionTarget  # noqa: F401 - classic names
from .pattern import Pattern, Prepared, mark_pattern_targets, members_after_works

if TYPE_CHECKING:
    from ...conversable_agent import ConversableAgent

__all__ = ["RandomPattern"]


class RandomPattern(Pattern):
    """Each agent (and the user agent) gets the after work ``RandomAgentTarget`` of all the others.

    The draw uses the ``random`` module (``random.seed`` makes a chat repeatable).
    """

    def _generate_handoffs(
        self,
        initial_agent: ConversableAgent,
        agents: list[ConversableAgent],
        user_agent: Optional[ConversableAgent],
    ) -> None:
        """Set the random after works (replacing the agents' own after works, as classically)."""
        members = agents + ([user_agent] if user_agent is not None else [])
        for agent in members:
            agent.handoffs.set_after_work(target=RandomAgentTarget(agents=[a for a in members if a != agent]))

    def prepare_group_chat(self, max_rounds: int, messages: Union[list[dict[str, Any]], str]) -> Prepared:
        """Set up the group chat, then the random after works."""
        prepared = super().prepare_group_chat(max_rounds=max_rounds, messages=messages)
        self._generate_handoffs(initial_agent=prepared[4], agents=prepared[0], user_agent=prepared[2])
        mark_pattern_targets(prepared[7], members_after_works(prepared), type(self).__name__)
        return prepared
