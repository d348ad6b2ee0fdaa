"""Swarms (ag2 0.7.3): agents that hand off to each other, a face over the hand-off engine of
``groupchat/handoffs/``. ``conditions`` (the hand-off vocabulary), ``targets`` (that vocabulary as the engine's
targets and conditions), ``swarm_agent``, ``carryover`` (what a nested-chat hand-off carries over), ``style``
(where the swarm behaves otherwise than AG2 0.14's group chats, and its transition), ``chat_setup`` (the steps
of starting a swarm, one by one) and ``run`` (starting a swarm chat)."""

from .chat_setup import (
    HandOffOutsideSwarmError,
    check_swarm_agents,
    cleanup_temp_user_messages,
    create_nested_chats,
    prepare_swarm_agents,
    process_swarm_messages,
    setup_swarm_context_variables,
)
from .conditions import (
    AFTER_WORK,
    ON_CONDITION,
    UPDATE_SYSTEM_MESSAGE,
    AfterWork,
    AfterWorkOption,
    OnCondition,
    SwarmResult,
)
from .run import a_initiate_swarm_chat, initiate_swarm_chat
from .style import SWARM_STYLE, TOOL_EXECUTOR_NAME, create_swarm_transition, determine_swarm_next_agent
from .swarm_agent import CONTEXT_VARIABLES_PARAM, SwarmAgent

__all__ = ["AFTER_WORK", "CONTEXT_VARIABLES_PARAM", "ON_CONDITION", "SWARM_STYLE", "TOOL_EXECUTOR_NAME",
           "UPDATE_SYSTEM_MESSAGE", "AfterWork", "AfterWorkOption", "HandOffOutsideSwarmError", "OnCondition",
           "SwarmAgent", "SwarmResult", "a_initiate_swarm_chat", "check_swarm_agents", "cleanup_temp_user_messages",
           "create_nested_chats", "create_swarm_transition", "determine_swarm_next_agent", "initiate_swarm_chat",
           "prepare_swarm_agents", "process_swarm_messages", "setup_swarm_context_variables"]
