"""``Pattern``: how a group of agents is orchestrated, and ``DefaultPattern``, hand-offs alone.

A pattern configures this package's ``GroupChat`` and ``GroupChatManager`` for ``initiate_group_chat``: the
group's tool executor and wrapper agents, the hand-off transition as the speaker selection method, the
shared context variables. The concrete patterns (``AutoPattern``, ``RoundRobinPattern``, ``RandomPattern``,
``ManualPattern``) add their own after-work targets; the selection trace says when one of those chose.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Optional, Union

from ...groupchat import GroupChat
from ...groupchat.handoffs import (
    GroupTransition,
    create_group_manager,
    create_group_transition,
    link_agents_to_group_manager,
    prepare_group_agents,
    process_initial_messages,
    setup_context_variables,
)
from ...transitions import ContextVariables, TerminateTarget, TransitionTarget

if TYPE_CHECKING:
    from ...agent import Agent
    from ...conversable_agent import ConversableAgent
    from ...groupchat import GroupChatManager
    from ...groupchat.handoffs import GroupToolExecutor

__all__ = ["DefaultPattern", "Pattern"]

# What prepare_group_chat returns, in order (the classic 13-tuple).
Prepared = tuple[
    list["ConversableAgent"],
    list["ConversableAgent"],
    Optional["ConversableAgent"],
    ContextVariables,
    "ConversableAgent",
    TransitionTarget,
    "GroupToolExecutor",
    "GroupChat",
    "GroupChatManager",
    list[dict[str, Any]],
    Any,
    list[str],
    list["Agent"],
]


def _check_pattern(pattern: Pattern) -> None:
    """The checks that need no chat: the pattern has agents and its initial agent is one of them."""
    kind = type(pattern).__name__
    agents = pattern.agents
    if not isinstance(agents, list) or not agents:
        raise ValueError(
            f"{kind} has no agents (agents={agents!r}): pass the agents of the group as a non-empty list, the "
            "initial agent among them, e.g. agents=[triage, billing]."
        )
    names = [getattr(agent, "name", None) for agent in agents]
    if pattern.initial_agent not in agents:
        raise ValueError(
            f"{kind}'s initial_agent '{getattr(pattern.initial_agent, 'name', pattern.initial_agent)}' is not one of "
            f"its agents {names}: add it to agents (the classic package fails with \"Custom speaker selection "
            "function returned an agent ... not in the group chat\" once the chat has started)."
        )


def mark_pattern_targets(groupchat: GroupChat, targets: Iterable[TransitionTarget], pattern_name: str) -> None:
    """Tell the group chat's hand-off transition that the pattern ``pattern_name`` made these after works, so
    that the selection trace names the pattern when one of them chooses (a group chat without a hand-off
    transition, e.g. one a subclass set up, has no trace to tell)."""
    transition = groupchat.speaker_selection_method
    if isinstance(transition, GroupTransition):
        for target in targets:
            transition.mark_pattern_target(target, pattern_name)


def members_after_works(prepared: Prepared) -> list[TransitionTarget]:
    """The after works of a prepared group chat's agents and user agent (those a pattern generated for them)."""
    agents, user_agent = prepared[0], prepared[2]
    members = list(agents) + ([user_agent] if user_agent is not None else [])
    return [condition.target for agent in members for condition in agent.handoffs.after_works]


class Pattern(ABC):
    """Base abstract class for all orchestration patterns.

    A pattern holds what ``initiate_group_chat`` needs to set up and run a group chat: the agents, who starts,
    the user agent, the manager's arguments, the context variables and what happens after an agent's turn when
    none of its hand-offs apply. Use ``DefaultPattern``, ``AutoPattern``, ``RoundRobinPattern``,
    ``RandomPattern`` or ``ManualPattern``.

    Args:
        initial_agent: the first agent to speak (one of ``agents``).
        agents: the agents of the group.
        user_agent: the agent standing for the user (``RevertToUserTarget`` goes to it); None: a temporary
            "_User" sends the opening message.
        group_manager_args: keyword arguments of the ``GroupChatManager`` (e.g. ``{"llm_config": ...}``).
        context_variables: the variables the group shares (default: empty).
        group_after_work: the target after an agent's turn when none of its after-works holds (default:
            ``TerminateTarget()``).
        exclude_transit_message: hide the hand-off tool calls from what the agents read.
        summary_method: the chat's summary method ("last_msg", "reflection_with_llm" or a callable).

    Attributes:
        random_source: this package's own, set after construction: a ``random.Random`` that the group chat's
            random draws (``RandomPattern``'s after works) come from, so a chat repeats whatever else draws at
            the same time; None (the default) draws from the ``random`` module. A study with a ``seed`` sets it.
    """

    def __init__(
        self,
        initial_agent: ConversableAgent,
        agents: list[ConversableAgent],
        user_agent: Optional[ConversableAgent] = None,
        group_manager_args: Optional[dict[str, Any]] = None,
        context_variables: Optional[ContextVariables] = None,
        group_after_work: Optional[TransitionTarget] = None,
        exclude_transit_message: bool = True,
        summary_method: Optional[Union[str, Callable[..., Any]]] = "last_msg",
    ) -> None:
        self.initial_agent = initial_agent
        self.agents = agents
        self.user_agent = user_agent
        self.group_manager_args = group_manager_args or {}
        self.context_variables = context_variables or ContextVariables()
        self.group_after_work = group_after_work if group_after_work is not None else TerminateTarget()
        self.exclude_transit_message = exclude_transit_message
        self.summary_method = summary_method
        # This package's own: the generator of the group chat's random draws (RandomPattern's after works,
        # "random" selection); None draws from the `random` module, as classically.
        self.random_source: Optional[random.Random] = None

    @abstractmethod
    def prepare_group_chat(self, max_rounds: int, messages: Union[list[dict[str, Any]], str]) -> Prepared:
        """Set up the group chat: returns (agents, wrapped agents, user agent, context variables, initial agent,
        group after work, tool executor, GroupChat, GroupChatManager, processed messages, last agent to speak,
        the group's agent names, temporary user agents).

        Subclasses extend it; this implementation does the work common to every pattern.

        Args:
            max_rounds: the most rounds of the chat.
            messages: the opening message(s).

        Raises:
            ValueError: no agents, an initial agent outside them, a hand-off leading outside the group, a message
                naming an agent outside it, or a ``GroupManagerTarget`` without a manager model.
        """
        _check_pattern(self)
        tool_executor, wrapped_agents = prepare_group_agents(
            self.agents, self.context_variables, self.exclude_transit_message
        )
        processed_messages, last_agent, group_agent_names, temp_user_list = process_initial_messages(
            messages, self.user_agent, self.agents, wrapped_agents
        )
        group_transition = create_group_transition(
            initial_agent=self.initial_agent,
            tool_execution=tool_executor,
            group_agent_names=group_agent_names,
            user_agent=self.user_agent,
            group_after_work=self.group_after_work,
        )
        group_transition.pattern_name = type(self).__name__
        groupchat = GroupChat(
            agents=[tool_executor] + self.agents + wrapped_agents
            + ([self.user_agent] if self.user_agent else temp_user_list),
            messages=[],
            max_round=max_rounds,
            speaker_selection_method=group_transition,
        )
        groupchat.random_source = getattr(self, "random_source", None)
        manager = create_group_manager(groupchat, self.group_manager_args, self.agents, self.group_after_work)
        setup_context_variables(
            tool_execution=tool_executor,
            agents=self.agents,
            manager=manager,
            user_agent=self.user_agent,
            context_variables=self.context_variables,
        )
        link_agents_to_group_manager(groupchat.agents, manager)
        return (
            self.agents,
            wrapped_agents,
            self.user_agent,
            self.context_variables,
            self.initial_agent,
            self.group_after_work,
            tool_executor,
            groupchat,
            manager,
            processed_messages,
            last_agent,
            group_agent_names,
            temp_user_list,
        )

    @classmethod
    def create_default(
        cls,
        initial_agent: ConversableAgent,
        agents: list[ConversableAgent],
        user_agent: Optional[ConversableAgent] = None,
        group_manager_args: Optional[dict[str, Any]] = None,
        context_variables: Optional[ContextVariables] = None,
        exclude_transit_message: bool = True,
        summary_method: Optional[Union[str, Callable[..., Any]]] = "last_msg",
    ) -> DefaultPattern:
        """A ``DefaultPattern`` with these settings (its group after work: ``TerminateTarget()``)."""
        return DefaultPattern(
            initial_agent=initial_agent,
            agents=agents,
            user_agent=user_agent,
            group_manager_args=group_manager_args,
            context_variables=context_variables,
            exclude_transit_message=exclude_transit_message,
            summary_method=summary_method,
        )


class DefaultPattern(Pattern):
    """The agents' own hand-offs, and the group after work given (default: end the chat)."""

    def prepare_group_chat(self, max_rounds: int, messages: Union[list[dict[str, Any]], str]) -> Prepared:
        """Set up the group chat (see ``Pattern.prepare_group_chat``)."""
        return super().prepare_group_chat(max_rounds=max_rounds, messages=messages)


class FixedAfterWorkPattern(Pattern):
    """A pattern whose group after work is its own, not an argument (``AutoPattern``: the manager picks;
    ``ManualPattern``: the user picks); the selection trace names the pattern when that after work chooses.

    Args:
        initial_agent: the first agent to speak (one of ``agents``).
        agents: the agents of the group.
        user_agent: the agent standing for the user, if any.
        group_manager_args: keyword arguments of the ``GroupChatManager``.
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
            group_after_work=self._fixed_group_after_work(),
            exclude_transit_message=exclude_transit_message,
            summary_method=summary_method,
        )

    @abstractmethod
    def _fixed_group_after_work(self) -> TransitionTarget:
        """The pattern's group after work (called once, by the constructor)."""

    def prepare_group_chat(self, max_rounds: int, messages: Union[list[dict[str, Any]], str]) -> Prepared:
        """Set up the group chat (see ``Pattern.prepare_group_chat``)."""
        prepared = super().prepare_group_chat(max_rounds=max_rounds, messages=messages)
        mark_pattern_targets(prepared[7], [self.group_after_work], type(self).__name__)
        return prepared


class MemberAfterWorkPattern(Pattern):
    """A pattern that gives each member (the agents, then the user agent) an after work of its own, replacing
    the agents' own (``RandomPattern``, ``RoundRobinPattern``); the selection trace names the pattern."""

    # RoundRobinPattern: the initial agent first, then the others in order (the user agent last, once).
    _initial_agent_first: bool = False

    @abstractmethod
    def _member_after_work(self, index: int, members: list[ConversableAgent]) -> TransitionTarget:
        """The after work of ``members[index]`` (the members in their order)."""

    def _generate_handoffs(
        self,
        initial_agent: ConversableAgent,
        agents: list[ConversableAgent],
        user_agent: Optional[ConversableAgent],
    ) -> None:
        """Set every member's after work (replacing the agents' own after works, as classically)."""
        members = list(agents)
        if self._initial_agent_first:
            members = [initial_agent] + [a for a in agents if a != initial_agent and (user_agent is None or a != user_agent)]
        if user_agent is not None:
            members.append(user_agent)
        for index, member in enumerate(members):
            member.handoffs.set_after_work(target=self._member_after_work(index, members))

    def prepare_group_chat(self, max_rounds: int, messages: Union[list[dict[str, Any]], str]) -> Prepared:
        """Set up the group chat, then the members' after works."""
        prepared = super().prepare_group_chat(max_rounds=max_rounds, messages=messages)
        self._generate_handoffs(initial_agent=prepared[4], agents=prepared[0], user_agent=prepared[2])
        mark_pattern_targets(prepared[7], members_after_works(prepared), type(self).__name__)
        return prepared
