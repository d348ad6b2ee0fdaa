"""Swarms: agents that hand off to each other, on the group chat (the speaker selection is the swarm
transition). ``conditions`` (the hand-off vocabulary), ``swarm_agent``, ``executor`` (the tool executor),
``transition`` (the selection method) and ``run`` (starting a swarm chat)."""

from .conditions import AFTER_WORK, ON_CONDITION, UPDATE_SYSTEM_MESSAGE, AfterWork, AfterWorkOption, OnCondition, SwarmResult
from .run import a_initiate_swarm_chat, initiate_swarm_chat
from .swarm_agent import SwarmAgent
from .transition import create_swarm_transition

__all__ = ["AFTER_WORK", "ON_CONDITION", "UPDATE_SYSTEM_MESSAGE", "AfterWork", "AfterWorkOption", "OnCondition",
           "SwarmAgent", "SwarmResult", "a_initiate_swarm_chat", "create_swarm_transition", "initiate_swarm_chat"]
