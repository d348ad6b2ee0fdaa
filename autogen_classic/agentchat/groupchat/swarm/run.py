"""Starting a swarm: a group chat on the hand-off engine, in the swarm's style.

``initiate_swarm_chat`` / ``a_initiate_swarm_chat`` check the agents and hand-offs, give the nested-chat
hand-offs their agents, prepare the group with the engine (its tool executor, "Tool_Execution"), share one
dict of context variables among the agents, and run the group chat from the user agent ("_User" when none
is given) or the sender named in the messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Optional, Union

from ...agent import Agent
from ...chat import ChatResult
from ...conversable_agent import ConversableAgent
from ...termination import TerminationCondition
from ...transitions import ContextVariables, NestedChatTarget
from ...user_proxy_agent import UserProxyAgent
from ..group import GroupChat
from ..handoffs import (
    TEMP_USER_NAME,
    cleanup_temp_user_messages,
    link_agents_to_group_manager,
    prepare_group_agents,
    setup_context_variables,
)
from ..manager import GroupChatManager
from .conditions import AFTER_WORK, AFTER_WORK_KINDS, AfterWorkOption, after_work_option
from .style import SWARM_STYLE, create_swarm_transition
from .swarm_agent import SwarmAgent
from .targets import SwarmTarget

__all__ = ["a_initiate_swarm_chat", "initiate_swarm_chat"]


@dataclass
class _Swarm:
    manager: GroupChatManager
    first_speaker: Optional[Agent]
    messages: list[dict[str, Any]]


def _check_agents(initial_agent: Any, agents: Any) -> None:
    if not isinstance(initial_agent, SwarmAgent):
        raise AssertionError(f"initial_agent must be a SwarmAgent; got {type(initial_agent).__name__}.")
    if not isinstance(agents, list) or not all(isinstance(a, SwarmAgent) for a in agents):
        raise AssertionError("Agents must be a list of SwarmAgents.")
    names = [a.name for a in agents]
    members = agents + [nested for agent in agents for nested in agent._nested_chat_agents]
    for agent in agents:
        targets = [c.target.value for c in agent.handoffs.llm_conditions if isinstance(c.target, SwarmTarget)]
        if agent.after_work is not None:
            targets.append(agent.after_work.agent)
        for target in targets:
            if isinstance(target, ConversableAgent) and target not in members:
                raise ValueError(f"Agent {agent.name!r} hands off to {target.name!r}, which is not in the swarm; "
                                 f"add it to agents (the swarm has {names}).")


def _check_after_work(after_work: Any) -> Any:
    if isinstance(after_work, str):
        return after_work_option(after_work)
    if after_work is None or isinstance(after_work, (AFTER_WORK, AfterWorkOption, Agent)) or callable(after_work):
        return after_work
    raise ValueError(f"initiate_swarm_chat got after_work={after_work!r}; it accepts an AFTER_WORK or "
                     f"{AFTER_WORK_KINDS}.")


def _leads_to_one_of(condition: Any, agents: list[ConversableAgent]) -> bool:
    return isinstance(condition.target, SwarmTarget) and condition.target.value in agents


def _nested_chat_agents(agents: list[SwarmAgent]) -> list[ConversableAgent]:
    """Give each nested-chat hand-off its agent (the engine's ``NestedChatTarget`` makes it); as in ag2 0.7.3,
    their transfer tools come after the agent's other hand-offs."""
    for agent in agents:
        conditions = agent.handoffs.llm_conditions
        for condition in conditions:
            if isinstance(condition.target, NestedChatTarget):
                nested = condition.target.create_wrapper_agent(agent, len(agent._nested_chat_agents))
                agent._nested_chat_agents.append(nested)
                condition.target = SwarmTarget(nested, origin=f"the nested-chat hand-off of {agent.name}")
        conditions.sort(key=partial(_leads_to_one_of, agents=agent._nested_chat_agents))
    return [nested for agent in agents for nested in agent._nested_chat_agents]


def _first_speaker(messages: list[dict[str, Any]], user_agent: Optional[UserProxyAgent],
                   swarm_agents: list[ConversableAgent]) -> tuple[Optional[Agent], list[Agent]]:
    """The agent that sends the (last) initial message, and the temporary user agent if one is needed."""
    if len(messages) == 1 and "name" not in messages[0] and user_agent is None:
        temp = UserProxyAgent(name=TEMP_USER_NAME, code_execution_config=False)
        return temp, [temp]
    name = messages[0].get("name")
    if name is None:
        # Several messages without a named first sender: resuming the group chat finds the sender of the last.
        return user_agent, []
    for agent in swarm_agents:
        if agent.name == name:
            return agent, []
    if user_agent is not None and name == user_agent.name:
        return user_agent, []
    raise ValueError(f"Invalid swarm agent name in last message: {name}; "
                     f"expected one of {[a.name for a in swarm_agents]} or the user agent.")


def _prepare(initial_agent: SwarmAgent, messages: Union[list[dict[str, Any]], str], agents: list[SwarmAgent],
             user_agent: Optional[UserProxyAgent], max_rounds: int, context_variables: Optional[dict[str, Any]],
             after_work: Any, termination: Any = None) -> _Swarm:
    _check_agents(initial_agent, agents)
    after_work = _check_after_work(after_work)
    nested = _nested_chat_agents(agents)
    # One dict for the whole swarm: each agent's _context_variables is a view of it.
    shared = ContextVariables.wrap(context_variables if context_variables is not None else {})
    executor, wrapped = prepare_group_agents(agents, shared, exclude_transit_message=False, style=SWARM_STYLE)
    swarm_agents: list[ConversableAgent] = [*agents, *nested, *wrapped]
    messages = [{"role": "user", "content": messages}] if isinstance(messages, str) else messages
    first, temp_users = _first_speaker(messages, user_agent, swarm_agents)
    names = [a.name for a in swarm_agents]
    transition = create_swarm_transition(initial_agent, executor, names, user_agent, after_work)
    groupchat = GroupChat(
        agents=[executor, *swarm_agents, *([user_agent] if user_agent else temp_users)],
        messages=[], max_round=max_rounds, speaker_selection_method=transition, termination=termination,
    )
    manager = GroupChatManager(groupchat)
    # As in ag2 0.7.3, the user agent keeps its own context variables.
    setup_context_variables(executor, list(agents), manager, None, shared)
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
            an AfterWorkOption, an agent or a callable ``(last_speaker, messages, groupchat)``.
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
