"""``RandomPattern``: after each agent's turn a randomly chosen other agent speaks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...transitions import ContextVariables, RandomAgentTarget, TransitionTarget  # noqa: F401 - classic names
from .pattern import MemberAfterWorkPattern, Pattern  # noqa: F401 - classic names

if TYPE_CHECKING:
    from ...conversable_agent import ConversableAgent

__all__ = ["RandomPattern"]


class RandomPattern(MemberAfterWorkPattern):
    """Each agent (and the user agent) gets the after work ``RandomAgentTarget`` of all the others.

    The draw uses the ``random`` module (``random.seed`` makes a chat repeatable).
    """

    def _member_after_work(self, index: int, members: list[ConversableAgent]) -> TransitionTarget:
        return RandomAgentTarget(agents=[a for a in members if a != members[index]])
