"""The steps of starting a swarm, each on its own: checking the agents, giving the nested-chat hand-offs their
agents, preparing the group (the tool executor), reading the first messages, sharing the context variables.

``initiate_swarm_chat`` runs them in this order; ag2 0.7.3 code that calls them one by one (its private
``_prepare_swarm_agents``, ``_create_nested_chats``, ``_process_initial_messages``, ``_setup_context_variables``
and ``_cleanup_temp_user_messages``, served at ``agentchat.contrib.swarm_agent``) gets the same steps.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Optional, Union

from ...agent import Agent
from ...conversable.handoffs import as_context_variables
from ...conversable_agent import ConversableAgent
from ...transitions import ContextVariables
from ...user_proxy_agent import UserProxyAgent
from ..handoffs import (
    TEMP_USER_NAME,
    GroupToolExecutor,
    NestedChatTarget,
    cleanup_temp_user_messages,
    prepare_group_agents,
    setup_context_variables,
)
from ..manager import GroupChatManager
from .style import SWARM_STYLE
from .swarm_agent import SwarmAgent
from .targets import SwarmTarget

__all__ = [
    "HandOffOutsideSwarmError",
    "check_swarm_agents",
    "cleanup_temp_user_messages",
    "create_nested_chats",
    "prepare_swarm_agents",
    "process_swarm_messages",
    "setup_swarm_context_variables",
]


class HandOffOutsideSwarmError(ValueError, AssertionError):
    """A hand-off leads to an agent that is not in the swarm.

    An ``AssertionError`` as ag2 0.7.3 raises it ("Agent in hand-off must be in the agents list"), and a
    ``ValueError``, the error of bad input elsewhere in this package.
    """


def check_swarm_agents(initial_agent: Any, agents: Any) -> None:
    """Check that the agents are SwarmAgents and that every hand-off leads to one of them (or their nested-chat
    agents).

    Raises:
        AssertionError: ``initial_agent`` or one of ``agents`` is not a SwarmAgent (raised explicitly, so that
            ``python -O`` keeps the check).
        HandOffOutsideSwarmError: a hand-off (an ``ON_CONDITION`` or an ``AFTER_WORK``) leads outside the swarm.
    """
    if not isinstance(initial_agent, SwarmAgent):
        raise AssertionError(f"initial_agent must be a SwarmAgent; got {type(initial_agent).__name__}.")
    if not isinstance(agents, list) or not all(isinstance(a, SwarmAgent) for a in agents):
        raise AssertionError("Agents must be a list of SwarmAgents.")
    names = [a.name for a in agents]
    members = agents + [nested for agent in agents for nested in agent._nested_chat_agents]
    for agent in agents:
        targets = [c.target.value for c in agent.handoffs.llm_conditions if isinstance(c.target, SwarmTarget)]
        if agent.after_work is not None:
            targets.append(getattr(agent.after_work, "agent", agent.after_work))
        for target in targets:
            if isinstance(target, ConversableAgent) and target not in members:
                raise HandOffOutsideSwarmError(
                    f"Agent in hand-off must be in the agents list: agent {agent.name!r} hands off to "
                    f"{target.name!r}, which is not in the swarm; add it to agents (the swarm has {names})."
                )


def _leads_to_one_of(condition: Any, agents: list[ConversableAgent]) -> bool:
    return isinstance(condition.target, SwarmTarget) and condition.target.value in agents


def create_nested_chats(agent: SwarmAgent, nested_chat_agents: list[ConversableAgent]) -> None:
    """Give each nested-chat hand-off of ``agent`` its agent and add ``agent``'s nested-chat agents to
    ``nested_chat_agents`` (those not in it yet).

    The agent is a SwarmAgent named ``nested_chat_<agent>_<n>`` that runs the chats when it is handed off to,
    then hands back to ``agent`` (its ``AFTER_WORK``); ``agent``'s hand-off now leads to it, its transfer tool
    after ``agent``'s other hand-offs, as in ag2 0.7.3. An agent made once is kept: a later swarm uses it again.

    Args:
        agent: the agent whose nested-chat hand-offs get their agents.
        nested_chat_agents: the list the agents are added to.
    """
    conditions = agent.handoffs.llm_conditions
    for condition in conditions:
        if isinstance(condition.target, NestedChatTarget):
            nested = condition.target.create_wrapper_agent(agent, len(agent._nested_chat_agents))
            agent._nested_chat_agents.append(nested)
            condition.target = SwarmTarget(nested, origin=f"the nested-chat hand-off of {agent.name}")
    conditions.sort(key=partial(_leads_to_one_of, agents=agent._nested_chat_agents))
    nested_chat_agents.extend(nested for nested in agent._nested_chat_agents if nested not in nested_chat_agents)


def prepare_swarm_agents(
    initial_agent: SwarmAgent, agents: list[SwarmAgent]
) -> tuple[GroupToolExecutor, list[ConversableAgent]]:
    """Check the agents, make the tool executor ("Tool_Execution") and the nested-chat agents, and offer each
    agent its transfer tools (``transfer_<agent>_to_<target>``); the executor takes on every agent's functions.

    The executor's context variables are an empty ``ContextVariables`` until
    :func:`setup_swarm_context_variables` points them at the swarm's dict.

    Args:
        initial_agent: the first agent to reply.
        agents: the swarm's agents.

    Returns:
        The tool executor and the agents made for hand-offs (nested chats first).

    Raises:
        AssertionError: as :func:`check_swarm_agents`.
    """
    check_swarm_agents(initial_agent, agents)
    nested: list[ConversableAgent] = []
    for agent in agents:
        create_nested_chats(agent, nested)
    shared = ContextVariables()
    executor, wrapped = prepare_group_agents(agents, shared, exclude_transit_message=False, style=SWARM_STYLE)
    executor.context_variables = shared
    return executor, [*nested, *wrapped]


def process_swarm_messages(
    messages: Union[list[dict[str, Any]], str],
    user_agent: Optional[UserProxyAgent],
    agents: list[SwarmAgent],
    nested_chat_agents: list[ConversableAgent],
) -> tuple[list[dict[str, Any]], Optional[Agent], list[str], list[Agent]]:
    """The first messages as a list, the agent that sends them, the swarm's names, the temporary user agents.

    One message naming nobody, without a user agent: a temporary ``UserProxyAgent`` "_User" sends it.
    Otherwise the first message's ``name`` says who sent it (a swarm agent or the user agent); without a name,
    the user agent (None when there is none: resuming the chat then finds the sender of the last message).

    Args:
        messages: a str or the messages to start from.
        user_agent: the user agent of the swarm, if any.
        agents: the swarm's agents.
        nested_chat_agents: the agents made for its hand-offs.

    Raises:
        ValueError: the first message names neither a swarm agent nor the user agent.
    """
    if isinstance(messages, str):
        messages = [{"role": "user", "content": messages}]
    members: list[ConversableAgent] = [*agents, *nested_chat_agents]
    names = [agent.name for agent in members]
    if len(messages) == 1 and "name" not in messages[0] and user_agent is None:
        temp = UserProxyAgent(name=TEMP_USER_NAME, code_execution_config=False)
        return messages, temp, names, [temp]
    name = messages[0].get("name")
    if name is None:
        return messages, user_agent, names, []
    for agent in members:
        if agent.name == name:
            return messages, agent, names, []
    if user_agent is not None and name == user_agent.name:
        return messages, user_agent, names, []
    raise ValueError(f"Invalid swarm agent name in last message: {name}; expected one of {names} or the user agent.")


def setup_swarm_context_variables(
    tool_execution: ConversableAgent,
    agents: list[ConversableAgent],
    manager: GroupChatManager,
    context_variables: Any,
) -> None:
    """Give the agents, the tool executor and the manager one set of context variables: ``context_variables``
    itself (each one's ``_context_variables`` is that dict; the user agent keeps its own, as in ag2 0.7.3).

    Args:
        tool_execution: the tool executor (made by :func:`prepare_swarm_agents`, or any agent standing for it).
        agents: the swarm's agents.
        manager: the swarm's group chat manager.
        context_variables: the dict to share (a ``ContextVariables`` is shared as it is).
    """
    current = tool_execution.context_variables
    if isinstance(tool_execution, GroupToolExecutor) and isinstance(current, ContextVariables) \
            and isinstance(context_variables, dict):
        # The tools that take context_variables were bound to this object when the agents were prepared.
        current.data = context_variables
        shared = current
    else:
        shared = as_context_variables(context_variables)
    setup_context_variables(tool_execution, list(agents), manager, None, shared)
