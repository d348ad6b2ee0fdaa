"""Setting up a group chat with hand-offs: the opening messages, the shared context variables and the manager
(the group manager's selection prompt is set in ``manager_target``).

Checks that can be made before the chat starts are made here, so a bad pattern fails before any message
is sent: the initial agent must be one of the agents, a message may only name a member of the group, and a
``GroupManagerTarget`` needs a manager with a model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Union

from ...agent import Agent
from ...conversable_agent import ConversableAgent
from ...transitions import TransitionTarget
from ..group import GroupChat
from ..manager import GroupChatManager
from .manager_target import GroupManagerTarget

if TYPE_CHECKING:
    from ...transitions import ContextVariables

__all__ = [
    "TEMP_USER_NAME",
    "cleanup_temp_user_messages",
    "create_group_manager",
    "process_initial_messages",
    "setup_context_variables",
]

TEMP_USER_NAME = "_User"
"""The name of the user agent made for a chat started without one (left out of the returned history)."""


def process_initial_messages(
    messages: Union[list[dict[str, Any]], str],
    user_agent: Optional[ConversableAgent],
    agents: list[ConversableAgent],
    wrapped_agents: list[ConversableAgent],
) -> tuple[list[dict[str, Any]], Optional[ConversableAgent], list[str], list[Agent]]:
    """The opening messages as a list, the agent that sent the first one, the group's names, the temporary users.

    One message naming nobody, without a user agent: a temporary user "_User" (asked for input on every turn
    it gets) sends it. Otherwise the first message's ``name`` says who sent it (a member or the user agent);
    without a name, the user agent did.

    Raises:
        ValueError: a message names an agent that is not in the group.
    """
    if isinstance(messages, str):
        messages = [{"role": "user", "content": messages}]
    group = agents + wrapped_agents
    names = [agent.name for agent in group]
    temp_users: list[Agent] = []
    last_agent: Optional[ConversableAgent]
    if len(messages) == 1 and "name" not in messages[0] and not user_agent:
        last_agent = ConversableAgent(name=TEMP_USER_NAME, code_execution_config=False, human_input_mode="ALWAYS")
        temp_users.append(last_agent)
    else:
        first = messages[0]
        if "name" in first:
            if first["name"] in names:
                last_agent = next(agent for agent in group if agent.name == first["name"])
            elif user_agent and first["name"] == user_agent.name:
                last_agent = user_agent
            else:
                raise ValueError(
                    f"Invalid group agent name in last message: {first['name']}. The first message's 'name' must "
                    f"be one of the group's agents {names}"
                    + (f" or the user agent '{user_agent.name}'" if user_agent else "")
                    + "; remove it to have the user send the message."
                )
        else:
            last_agent = user_agent
    return messages, last_agent, names, temp_users


def setup_context_variables(
    tool_execution: ConversableAgent,
    agents: list[ConversableAgent],
    manager: GroupChatManager,
    user_agent: Optional[ConversableAgent],
    context_variables: ContextVariables,
) -> None:
    """Give every agent of the chat (the executor, the manager and the user too) the same context variables."""
    for agent in agents + [tool_execution, manager] + ([user_agent] if user_agent else []):
        agent.context_variables = context_variables


def cleanup_temp_user_messages(chat_result: Any) -> None:
    """Leave the temporary user's name ("_User") out of the messages of ``chat_result``."""
    for message in chat_result.chat_history:
        if message.get("name") == TEMP_USER_NAME:
            del message["name"]


def _uses_group_manager(agents: list[ConversableAgent], group_after_work: TransitionTarget) -> bool:
    if isinstance(group_after_work, GroupManagerTarget):
        return True
    for agent in agents:
        handoffs = agent.handoffs
        if (handoffs.get_context_conditions_by_target_type(GroupManagerTarget)
                or handoffs.get_llm_conditions_by_target_type(GroupManagerTarget)
                or any(isinstance(aw.target, GroupManagerTarget) for aw in handoffs.after_works)):
            return True
    return False


def create_group_manager(
    groupchat: GroupChat,
    group_manager_args: Optional[dict[str, Any]],
    agents: list[ConversableAgent],
    group_after_work: TransitionTarget,
) -> GroupChatManager:
    """The manager of the group chat, built with ``group_manager_args``.

    Raises:
        ValueError: ``group_manager_args`` holds "groupchat", or a ``GroupManagerTarget`` is used and the manager
            has no ``llm_config``.
    """
    manager_args = dict(group_manager_args or {})
    if "groupchat" in manager_args:
        raise ValueError("'groupchat' cannot be specified in group_manager_args as it is set by initiate_group_chat")
    manager = GroupChatManager(groupchat, **manager_args)
    manager._prints_termination_events = True  # type: ignore[attr-defined]  # why the chat ended, as 0.14 prints
    if manager.llm_config is False and _uses_group_manager(agents, group_after_work):
        raise ValueError(
            "The group manager doesn't have an LLM Config and it is required for any targets or after works using "
            "a GroupManagerTarget. Use the 'llm_config' in the group_manager_args parameter to specify the LLM "
            "Config for the group manager."
        )
    return manager
