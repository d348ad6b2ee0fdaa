"""``RoundRobinPattern``: the agents speak in turn, the initial agent first, the user agent last."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...transitions import AgentTarget, ContextVariables, TransitionTarget  # noqa: F401 - classic names
from .pattern import MemberAfterWorkPattern, Pattern  # noqa: F401 - classic names

if TYPE_CHECKING:
    from ...conversable_agent import ConversableAgent

__all__ = ["RoundRobinPattern"]


class RoundRobinPattern(MemberAfterWorkPattern):
    """Each agent's after work is the next agent (the initial agent first, then the others in order, then the
    user agent, then back to the initial agent)."""

    _initial_agent_first = True

    def _member_after_work(self, index: int, members: list[ConversableAgent]) -> TransitionTarget:
        return AgentTarget(agent=members[(index + 1) % len(members)])
