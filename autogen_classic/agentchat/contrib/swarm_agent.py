"""The classic ``autogen.agentchat.contrib.swarm_agent`` path: the swarm lives in the group chat package.

Besides the public names, ag2 0.7.3's module-level helpers that classic code and tests import: the tool
executor's name, the context-variables parameter's name, and the steps of starting a swarm
(``_prepare_swarm_agents`` ... ``_cleanup_temp_user_messages``) and of choosing its next speaker
(``_determine_next_agent``), each the step ``initiate_swarm_chat`` itself runs.
"""

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
from ..groupchat.swarm import CONTEXT_VARIABLES_PARAM as __CONTEXT_VARIABLES_PARAM_NAME__
from ..groupchat.swarm import TOOL_EXECUTOR_NAME as __TOOL_EXECUTOR_NAME__
from ..groupchat.swarm import cleanup_temp_user_messages as _cleanup_temp_user_messages
from ..groupchat.swarm import create_nested_chats as _create_nested_chats
from ..groupchat.swarm import determine_swarm_next_agent as _determine_next_agent
from ..groupchat.swarm import prepare_swarm_agents as _prepare_swarm_agents
from ..groupchat.swarm import process_swarm_messages as _process_initial_messages
from ..groupchat.swarm import setup_swarm_context_variables as _setup_context_variables

__all__ = ["AFTER_WORK", "ON_CONDITION", "UPDATE_SYSTEM_MESSAGE", "AfterWork", "AfterWorkOption", "OnCondition",
           "SwarmAgent", "SwarmResult", "a_initiate_swarm_chat", "create_swarm_transition", "initiate_swarm_chat"]
