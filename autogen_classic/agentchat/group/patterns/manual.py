"""``ManualPattern``: after each agent's turn the user picks who speaks next."""

from __future__ import annotations

from ...groupchat.handoffs import GroupToolExecutor  # noqa: F401 - importable here, as in the classic module
from ...transitions import AskUserTarget, TransitionTarget
from ...transitions import ContextVariables  # noqa: F401 - importable here, as in the classic module
from .pattern import FixedAfterWorkPattern
from .pattern import Pattern  # noqa: F401 - importable here, as in the classic module

__all__ = ["ManualPattern"]


class ManualPattern(FixedAfterWorkPattern):
    """The user nominates the next speaker at each turn (the group after work is ``AskUserTarget``; the user
    is asked to pick among all the group chat's agents, as classically).

    Args:
        initial_agent: the first agent to speak.
        agents: the agents of the group.
        user_agent: the user agent, if any.
        group_manager_args: arguments of the manager.
        context_variables: the variables the group shares.
        exclude_transit_message: hide the hand-off tool calls from what the agents read.
        summary_method: the chat's summary method.
    """

    def _fixed_group_after_work(self) -> TransitionTarget:
        return AskUserTarget()
