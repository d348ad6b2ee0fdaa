"""Starting a swarm: a group chat on the hand-off engine, in the swarm's style.

``initiate_swarm_chat`` / ``a_initiate_swarm_chat`` check the agents and hand-offs, give the nested-chat
hand-offs their agents, prepare the group with the engine (its tool executor, "Tool_Execution"), share one
dict of context variables among the agents, and run the group chat from the user agent ("_User" when none
is given) or the sender named in the messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Union

from ...agent import Agent
from ...chat import ChatResult
from ...termination import TerminationCondition
from ...user_proxy_agent import UserProxyAgent
from ..group import GroupChat
from ..handoffs import cleanup_temp_user_messages, link_agents_to_group_manager
from ..manager import GroupChatManager
from .chat_setup import (
    check_swarm_agents,
    prepare_swarm_agents,
    process_swarm_messages,
    setup_swarm_context_variables,
)
from .conditions import AFTER_WORK, AFTER_WORK_KINDS, AfterWorkOption
from .style import create_swarm_transition
from .swarm_agent import SwarmAgent

__all__ = ["a_initiate_swarm_chat", "initiate_swarm_chat"]


@dataclass
class _Swarm:
    manager: GroupChatManager
    first_speaker: Optional[Agent]
    messages: list[dict[str, Any]]


def _check_after_work(after_work: Any) -> Any:
    if after_work is None or isinstance(after_work, (str, AFTER_WORK, AfterWorkOption, Agent)) or callable(after_work):
        return after_work
    raise ValueError(f"initiate_swarm_chat got after_work={after_work!r}; it accepts an AFTER_WORK or "
                     f"{AFTER_WORK_KINDS}.")


def _after_work_name(after_work: Any, names: list[str]) -> Any:
    """A str ``after_work`` names a swarm agent, as in ag2 0.7.3 (resolved by name at each turn); this package
    also takes an option's name (any case) where no agent has that name."""
    if not isinstance(after_work, str) or after_work in names:
        return after_work
    if after_work.upper() in {option.value for option in AfterWorkOption}:
        return AfterWorkOption(after_work.upper())
    raise ValueError(f"Invalid agent name in after_work: {after_work} (initiate_swarm_chat). Name one of the "
                     f"swarm's agents {names}, or an AfterWorkOption.")


def _prepare(initial_agent: SwarmAgent, messages: Union[list[dict[str, Any]], str], agents: list[SwarmAgent],
             user_agent: Optional[UserProxyAgent], max_rounds: int, context_variables: Optional[dict[str, Any]],
             after_work: Any, termination: Any = None) -> _Swarm:
    # Every check before anything is changed; then ag2 0.7.3's steps, in its order.
    check_swarm_agents(initial_agent, agents)
    after_work = _check_after_work(after_work)
    executor, nested = prepare_swarm_agents(initial_agent, agents)
    messages, first, names, temp_users = process_swarm_messages(messages, user_agent, agents, nested)
    after_work = _after_work_name(after_work, names)
    transition = create_swarm_transition(initial_agent, executor, names, user_agent, after_work)
    groupchat = GroupChat(
        agents=[executor, *agents, *nested, *([user_agent] if user_agent else temp_users)],
        messages=[], max_round=max_rounds, speaker_selection_method=transition, termination=termination,
    )
    manager = GroupChatManager(groupchat)
    # One dict for the whole swarm: each agent's _context_variables is that dict.
    setup_swarm_context_variables(executor, agents, manager, context_variables if context_variables is not None else {})
    link_agents_to_group_manager(groupchat.agents, manager)
    return _Swarm(manager, first, messages)


def initiate_swarm_chat(
    initial_agent: SwarmAgent,
    messages: Union[list[dict[str, Any]], str],
    agents: list[SwarmAgent],
    user_agent: Optional[UserProxyAgent] = None,
    max_rounds: int = 20,
    context_variables: Optional[dict[str, Any]] = None,
    after_work: Optional[Union[AfterWorkOption, Callable[..., Any]]] = AFTER_WORK(AfterWorkOption.TERMINATE),
    *,
    termination: Optional[TerminationCondition] = None,
) -> tuple[ChatResult, dict[str, Any], Agent]:
    """Run a swarm chat: a group chat where agents hand off to each other.

    Args:
        initial_agent: the first agent to reply.
        messages: the first message (a str) or the messages to start from (the first may name its sender).
        agents: the swarm's agents.
        user_agent: the user agent (REVERT_TO_USER goes to it); default: a temporary "_User" sends the message.
        max_rounds: the most rounds of the group chat.
        context_variables: the dict shared by the agents' functions (updated in place).
        after_work: what follows a reply without tool calls when the agent has no AFTER_WORK: an AFTER_WORK,
            an AfterWorkOption, an agent, an agent's name or a callable ``(last_speaker, messages, groupchat)``.
        termination: a termination condition for the swarm's group chat (e.g. ``HandoffTermination("human")``);
            ``result.termination`` then says which condition fired.

    Returns:
        The chat result, the context variables and the last speaker.
    """
    swarm = _prepare(initial_agent, messages, agents, user_agent, max_rounds, context_variables, after_work,
                     termination)
    first, message, clear = swarm.first_speaker, swarm.messages[-1], True
    if len(swarm.messages) > 1:
        first, message = swarm.manager.resume(messages=swarm.messages)
        clear = False
    assert first is not None  # one message: the user agent or the temporary "_User" sends it
    result = first.initiate_chat(swarm.manager, message=message, clear_history=clear)
    cleanup_temp_user_messages(result)
    return result, context_variables, swarm.manager.last_speaker


async def a_initiate_swarm_chat(
    initial_agent: SwarmAgent,
    messages: Union[list[dict[str, Any]], str],
    agents: list[SwarmAgent],
    user_agent: Optional[UserProxyAgent] = None,
    max_rounds: int = 20,
    context_variables: Optional[dict[str, Any]] = None,
    after_work: Optional[Union[AfterWorkOption, Callable[..., Any]]] = AFTER_WORK(AfterWorkOption.TERMINATE),
    *,
    termination: Optional[TerminationCondition] = None,
) -> tuple[ChatResult, dict[str, Any], Agent]:
    """(async) Run a swarm chat; see :func:`initiate_swarm_chat`."""
    swarm = _prepare(initial_agent, messages, agents, user_agent, max_rounds, context_variables, after_work,
                     termination)
    first, message, clear = swarm.first_speaker, swarm.messages[-1], True
    if len(swarm.messages) > 1:
        first, message = await swarm.manager.a_resume(messages=swarm.messages)
        clear = False
    assert first is not None  # one message: the user agent or the temporary "_User" sends it
    result = await first.a_initiate_chat(swarm.manager, message=message, clear_history=clear)
    cleanup_temp_user_messages(result)
    return result, context_variables, swarm.manager.last_speaker
