"""Starting a swarm: a group chat whose speaker selection is the swarm transition.

``initiate_swarm_chat`` / ``a_initiate_swarm_chat`` check the agents and hand-offs, add the tool executor
(and the agents of nested-chat hand-offs), share one dict of context variables among the agents, and run
the group chat from the user agent ("_User" when none is given) or the sender named in the messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Union

from ...agent import Agent
from ...chat import ChatResult
from ...termination import TerminationCondition
from ...user_proxy_agent import UserProxyAgent
from ..group import GroupChat
from ..manager import GroupChatManager
from .carryover import a_swarm_summary_from_nested_chats, swarm_summary_from_nested_chats
from .conditions import AFTER_WORK, AFTER_WORK_KINDS, ON_CONDITION, AfterWorkOption, after_work_option
from .executor import make_tool_executor
from .swarm_agent import SwarmAgent
from .transition import create_swarm_transition

__all__ = ["a_initiate_swarm_chat", "initiate_swarm_chat"]

TEMP_USER_NAME = "_User"


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
    for agent in agents:
        targets = [c.target for _, c in agent._conditional_functions.values()]
        if agent.after_work is not None and isinstance(agent.after_work.agent, Agent):
            targets.append(agent.after_work.agent)
        for target in targets:
            if target not in agents:
                raise ValueError(f"Agent {agent.name!r} hands off to {target.name!r}, which is not in the swarm; "
                                 f"add it to agents (the swarm has {names}).")


def _check_after_work(after_work: Any) -> Any:
    if isinstance(after_work, str):
        return after_work_option(after_work)
    if after_work is None or isinstance(after_work, (AFTER_WORK, AfterWorkOption, Agent)) or callable(after_work):
        return after_work
    raise ValueError(f"initiate_swarm_chat got after_work={after_work!r}; it accepts an AFTER_WORK or "
                     f"{AFTER_WORK_KINDS}.")


def _nested_chat_agents(agents: list[SwarmAgent]) -> list[SwarmAgent]:
    """One agent per nested-chat hand-off: it runs the chats, then hands back to the agent that handed off."""
    created: list[SwarmAgent] = []
    for agent in agents:
        for index, handoff in enumerate(agent._nested_chat_handoffs):
            chats = handoff["nested_chats"]
            nested = SwarmAgent(name=f"nested_chat_{agent.name}_{index + 1}")
            use_async = chats.get("use_async", False)
            default_reply = a_swarm_summary_from_nested_chats if use_async else swarm_summary_from_nested_chats
            nested.register_nested_chats(
                chats["chat_queue"],
                reply_func_from_nested_chats=chats.get("reply_func_from_nested_chats") or default_reply,
                config=chats.get("config"), trigger=lambda sender: True, position=0, use_async=use_async,
            )
            nested.register_hand_off(AFTER_WORK(agent=agent))
            agent.register_hand_off(ON_CONDITION(nested, handoff["condition"], handoff["available"]))
            created.append(nested)
        agent._nested_chat_handoffs = []  # registered: a second swarm run must not add them again
    return created


def _first_speaker(messages: list[dict[str, Any]], user_agent: Optional[UserProxyAgent],
                   swarm_agents: list[SwarmAgent]) -> tuple[Optional[Agent], list[Agent]]:
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
    swarm_agents = agents + nested
    executor = make_tool_executor(swarm_agents)
    messages = [{"role": "user", "content": messages}] if isinstance(messages, str) else messages
    first, temp_users = _first_speaker(messages, user_agent, swarm_agents)
    names = [a.name for a in swarm_agents]
    transition = create_swarm_transition(initial_agent, executor, names, user_agent, after_work)
    groupchat = GroupChat(
        agents=[executor, *swarm_agents, *([user_agent] if user_agent else temp_users)],
        messages=[], max_round=max_rounds, speaker_selection_method=transition, termination=termination,
    )
    manager = GroupChatManager(groupchat)
    shared = context_variables if context_variables is not None else {}
    for agent in [*swarm_agents, executor, manager]:
        agent._context_variables = shared
    return _Swarm(manager, first, messages)


def _finish(result: ChatResult, manager: GroupChatManager) -> None:
    # The temporary user is not part of the caller's swarm: its name is not reported.
    for message in result.chat_history:
        if message.get("name") == TEMP_USER_NAME:
            del message["name"]


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
    _finish(result, swarm.manager)
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
    _finish(result, swarm.manager)
    return result, context_variables, swarm.manager.last_speaker
