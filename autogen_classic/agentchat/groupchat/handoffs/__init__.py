"""The engine of hand-offs (AG2 Classic 0.14's group orchestration), on this package's group chat.

``executor`` (the group's tool executor), ``evaluation`` (the one evaluator of hand-off conditions: which
entry is available, which holds), ``agents`` (making agents group members: hand-off tools, context
conditions, wrapper agents, checks), ``nested_chat_target`` and ``manager_target`` (the targets that make
a wrapper agent or set the manager's selection prompt), ``transition`` (the speaker selection method: who speaks
next, and why,
for the selection trace), ``chat_setup`` (opening messages, context variables, the manager) and ``events``
(the transition events). The classic paths are ``agentchat.group.group_utils`` and
``agentchat.group.group_tool_executor``; the patterns and ``initiate_group_chat`` are in ``agentchat.group``.
``style`` holds what differs between AG2 0.14's group chats and the classic swarm, which runs on this engine.
"""

from .agents import (
    validate_handoff_target,
    create_on_condition_handoff_functions,
    ensure_guardrail_agents_in_group,
    ensure_handoff_agents_in_group,
    establish_group_agent,
    link_agents_to_group_manager,
    make_remove_function,
    prepare_exclude_transit_messages,
    prepare_group_agents,
    update_conditional_functions,
    wrap_agent_handoff_targets,
)
from .chat_setup import (
    TEMP_USER_NAME,
    cleanup_temp_user_messages,
    create_group_manager,
    process_initial_messages,
    setup_context_variables,
)
from .evaluation import available, condition_label, first_after_work, holds
from .events import (
    AfterWorksTransitionEvent,
    OnConditionLLMTransitionEvent,
    OnContextConditionTransitionEvent,
    ReplyResultTransitionEvent,
)
from .executor import TOOL_EXECUTOR_NAME, GroupToolExecutor
from .manager_target import (
    GroupManagerSelectionMessage,
    GroupManagerSelectionMessageContextStr,
    GroupManagerSelectionMessageString,
    GroupManagerTarget,
    prepare_groupchat_auto_speaker,
)
from .nested_chat_target import NestedChatTarget
from .style import GROUP_STYLE, HandoffStyle, handoff_reason
from .transition import (
    NO_AFTER_WORK_MATCHED,
    GroupTransition,
    create_group_transition,
    determine_next_agent,
    evaluate_after_works_conditions,
    get_last_agent_speaker,
)

__all__ = [
    "GROUP_STYLE",
    "NO_AFTER_WORK_MATCHED",
    "available",
    "evaluate_after_works_conditions",
    "first_after_work",
    "holds",
    "validate_handoff_target",
    "TEMP_USER_NAME",
    "TOOL_EXECUTOR_NAME",
    "AfterWorksTransitionEvent",
    "GroupManagerSelectionMessage",
    "GroupManagerSelectionMessageContextStr",
    "GroupManagerSelectionMessageString",
    "GroupManagerTarget",
    "GroupToolExecutor",
    "GroupTransition",
    "HandoffStyle",
    "NestedChatTarget",
    "OnConditionLLMTransitionEvent",
    "OnContextConditionTransitionEvent",
    "ReplyResultTransitionEvent",
    "cleanup_temp_user_messages",
    "condition_label",
    "create_group_manager",
    "create_group_transition",
    "create_on_condition_handoff_functions",
    "determine_next_agent",
    "ensure_guardrail_agents_in_group",
    "ensure_handoff_agents_in_group",
    "establish_group_agent",
    "get_last_agent_speaker",
    "handoff_reason",
    "link_agents_to_group_manager",
    "make_remove_function",
    "prepare_exclude_transit_messages",
    "prepare_group_agents",
    "prepare_groupchat_auto_speaker",
    "process_initial_messages",
    "setup_context_variables",
    "update_conditional_functions",
    "wrap_agent_handoff_targets",
]
