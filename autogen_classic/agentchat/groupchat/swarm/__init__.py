"""Swarms (ag2 0.7.3): agents that hand off to each other, a face over the hand-off engine of
``groupchat/handoffs/``. ``conditions`` (the hand-off vocabulary), ``targets`` (that vocabulary as the engine's
targets and conditions), ``swarm_agent``, ``carryover`` (what a nested-chat hand-off carries over), ``style``
(where the swarm behaves otherwise than AG2 0.14's group chats, and its transition) and ``run`` (starting a
swarm chat)."""

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
from .style import SWARM_STYLE, create_swarm_transition
from .swarm_agent import SwarmAgent

__all__ = ["AFTER_WORK", "ON_CONDITION", "SWARM_STYLE", "UPDATE_SYSTEM_MESSAGE", "AfterWork", "AfterWorkOption",
           "OnCondition", "SwarmAgent", "SwarmResult", "a_initiate_swarm_chat", "create_swarm_transition",
           "initiate_swarm_chat"]
