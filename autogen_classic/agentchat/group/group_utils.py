"""The classic path ``autogen.agentchat.group.group_utils``: preparing and running a group chat with hand-offs
(code in ``agentchat.groupchat.handoffs``)."""

from ...io.base import IOStream  # noqa: F401 - importable here, as in the classic module
from ..agent import Agent  # noqa: F401
from ..groupchat import GroupChat, GroupChatManager  # noqa: F401
from ..groupchat.handoffs import NO_AFTER_WORK_MATCHED as _NO_AFTER_WORK_MATCHED  # noqa: F401
from ..groupchat.handoffs import evaluate_after_works_conditions as _evaluate_after_works_conditions  # noqa: F401
from ..groupchat.handoffs import validate_handoff_target as _validate_handoff_target  # noqa: F401
from ..groupchat.handoffs.agents import _handoff_function as _create_on_condition_handoff_function  # noqa: F401
from ..groupchat.handoffs.agents import _run_oncontextconditions  # noqa: F401
from ..groupchat.handoffs import (  # noqa: F401
    GroupManagerTarget,
    GroupToolExecutor,
    cleanup_temp_user_messages,
    create_group_manager,
    create_group_transition,
    create_on_condition_handoff_functions,
    determine_next_agent,
    ensure_guardrail_agents_in_group,
    ensure_handoff_agents_in_group,
    establish_group_agent,
    get_last_agent_speaker,
    link_agents_to_group_manager,
    make_remove_function,
    prepare_exclude_transit_messages,
    prepare_group_agents,
    process_initial_messages,
    setup_context_variables,
    update_conditional_functions,
    wrap_agent_handoff_targets,
)
from ..groupchat.handoffs.events import AfterWorksTransitionEvent, OnContextConditionTransitionEvent  # noqa: F401
from ..transitions import (  # noqa: F401
    AgentNameTarget,
    AgentTarget,
    ContextVariables,
    RandomAgentTarget,
    TransitionTarget,
)
