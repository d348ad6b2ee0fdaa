"""``ManualPattern``: after each agent's turn the user picks who speaks next."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Optional, Union

from ...groupchat.handoffs import GroupToolExecutor  # noqa: F401 - importable here, as in the classic module
from ...transitions import AskUserTarget, ContextVariables
from ...transitions import TransitionTarget  # noqa: F401 - importable here, as in the classic module
from .pattern import Pattern, Prepared, transition_of

if TYPE_CHECKING:
    from ...conversable_agent import ConversableAgent

__all__ = ["ManualPattern"]


class ManualPattern(Pattern):
    """The user nominates the next speaker at each turn (the group after work is ``AskUserTarget``).

    Args:
        initial_agent: the first agent to speak.
        agents: the agents of the group.
        user_agent: the user agent, if any.
        group_manager_args: arguments of the manager.
        context_variables: the variables the group shares.
        exclude_transit_message: hide the hand-off tool calls from what the agents read.
        summary_method: the chat's summary method.
    """

    def __init__(
        self,
        initial_agent: ConversableAgent,
        agents: list[ConversableAgent],
        user_agent: Optional[ConversableAgent] = None,
        group_manager_args: Optional[dict[str, Any]] = None,
        context_variables: Optional[ContextVariables] = None,
        exclude_transit_message: bool = True,
        summary_method: Optional[Union[str, Callable[..., Any]]] = "last_msg",
    ) -> None:
        super().__init__(
            initial_agent=initial_agent,
            agents=agents,
            user_agent=user_agent,
            group_manager_args=group_manager_args,
            context_variables=context_variables,
            group_after_work=AskUserTarget(),
            exclude_transit_message=exclude_transit_message,
            summary_method=summary_method,
        )

    def prepare_group_chat(self, max_rounds: int, messages: Union[list[dict[str, Any]], str]) -> Prepared:
        """Set up the group chat (the user is asked to pick among all the group chat's agents, as classically)."""
        prepared = super().prepare_group_chat(max_rounds=max_rounds, messages=messages)
        transition = transition_of(prepared[7])
        if transition is not None:
            transition.mark_pattern_target(self.group_after_work, type(self).__name__)
        return (*prepared[:5], self.group_after_work, *prepared[6:])  # type: ignore[return-value]

