"""The classic ``autogen.agentchat.contrib.swarm_agent`` path: the swarm lives in the group chat package."""

from ..groupchat.swarm import (
    AFTER_WORK,
    ON_CONDITION,
    UPDATE_SYSTEM_MESSAGE,
    AfterWork,
    AfterWorkOption,
    OnCondition,
    SwarmAgent,
    SwarmResult,
    a_initiate_swarm_chat,
    create_swarm_transition,
    initiate_swarm_chat,
)

__all__ = ["AFTER_WORK", "ON_CONDITION", "UPDATE_SYSTEM_MESSAGE", "AfterWork", "AfterWorkOption", "OnCondition",
           "SwarmAgent", "SwarmResult", "a_initiate_swarm_chat", "create_swarm_transition", "initiate_swarm_chat"]
