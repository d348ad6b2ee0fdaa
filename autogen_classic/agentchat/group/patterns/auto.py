"""``AutoPattern``: after each agent's turn the group manager's model picks who speaks next."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Optional, Union

from ...groupchat.handoffs import GroupManagerSelectionMessage, GroupManagerTarget
from ...transitions import ContextVariables, TransitionTarget
from .pattern import FixedAfterWorkPattern, Prepared
from .pattern import Pattern  # noqa: F401 - importable here, as in the classic module

if TYPE_CHECKING:
    from ...conversable_agent import ConversableAgent

__all__ = ["AutoPattern"]


class AutoPattern(FixedAfterWorkPattern):
    """The group manager selects the next speaker from the conversation and the agents' descriptions.

    The group after work is always ``GroupManagerTarget`` (agents' own hand-offs still apply first).

    Args:
        initial_agent: the first agent to speak.
        agents: the agents of the group.
        user_agent: the user agent, if any.
        group_manager_args: arguments of the manager; its ``llm_config`` is the model that selects.
        context_variables: the variables the group shares.
        selection_message: the manager's selection prompt (a ``GroupManagerSelectionMessage``); None: the default.
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
        selection_message: Optional[GroupManagerSelectionMessage] = None,
        exclude_transit_message: bool = True,
        summary_method: Optional[Union[str, Callable[..., Any]]] = "last_msg",
    ) -> None:
        # Read by _fixed_group_after_work, which the base constructor calls.
        self.selection_message = selection_message
        super().__init__(
            initial_agent=initial_agent,
            agents=agents,
            user_agent=user_agent,
            group_manager_args=group_manager_args,
            context_variables=context_variables,
            exclude_transit_message=exclude_transit_message,
            summary_method=summary_method,
        )

    def _fixed_group_after_work(self) -> TransitionTarget:
        return GroupManagerTarget(selection_message=self.selection_message)

    def prepare_group_chat(self, max_rounds: int, messages: Union[list[dict[str, Any]], str]) -> Prepared:
        """Set up the group chat; every agent gets a description (the manager's model reads them).

        Raises:
            ValueError: neither the manager nor any agent has an ``llm_config``.
        """
        if not self.group_manager_args.get("llm_config", False):
            if not any(getattr(agent, "llm_config", False) for agent in self.agents):
                raise ValueError(
                    "AutoPattern requires the group_manager_args to include an llm_config, "
                    "or at least one agent to have an llm_config"
                )
        for agent in self.agents:
            if not getattr(agent, "description", None):
                agent.description = f"Agent {agent.name}"
        return super().prepare_group_chat(max_rounds=max_rounds, messages=messages)

