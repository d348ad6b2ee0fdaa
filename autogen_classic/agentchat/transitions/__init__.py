"""The data of hand-offs (AG2 Classic 0.14's ``agentchat.group`` classes): context variables and expressions,
transition targets, conditions and ``Handoffs``.

The agent core imports this package (every agent has ``handoffs`` and ``context_variables``), so it
imports nothing of the agents or the group chat: the few target methods that need them get them
from :mod:`.engine_hooks`, filled by those layers. The classic paths are under ``agentchat.group``.
"""

from .conditions import (
    AvailableCondition,
    ContextCondition,
    ContextStrLLMCondition,
    ExpressionAvailableCondition,
    ExpressionContextCondition,
    LLMCondition,
    StringAvailableCondition,
    StringContextCondition,
    StringLLMCondition,
)
from .context_expression import ContextExpression
from .context_str import ContextStr
from .context_variables import __CONTEXT_VARIABLES_PARAM_NAME__, ContextVariables
from .engine_hooks import GroupEngineNotLoadedError, engine_hook, has_engine_hook, register_engine_hook
from .function_target import (
    FunctionTarget,
    FunctionTargetMessage,
    FunctionTargetResult,
    broadcast,
    construct_broadcast_messages_list,
    validate_fn_sig,
)
from .group_targets import (
    GroupChatConfig,
    GroupChatTarget,
    GroupManagerSelectionMessage,
    GroupManagerSelectionMessageContextStr,
    GroupManagerSelectionMessageString,
    GroupManagerTarget,
    prepare_groupchat_auto_speaker,
)
from .handoffs import Handoffs
from .on_conditions import OnCondition, OnContextCondition
from .reply_result import ReplyResult
from .speaker_selection_result import SpeakerSelectionResult
from .target_base import __AGENT_WRAPPER_PREFIX__, TransitionTarget
from .targets import (
    AgentNameTarget,
    AgentTarget,
    AskUserTarget,
    NestedChatTarget,
    RandomAgentTarget,
    RevertToUserTarget,
    StayTarget,
    TerminateTarget,
)

__all__ = [
    "__AGENT_WRAPPER_PREFIX__",
    "__CONTEXT_VARIABLES_PARAM_NAME__",
    "AgentNameTarget",
    "AgentTarget",
    "AskUserTarget",
    "AvailableCondition",
    "ContextCondition",
    "ContextExpression",
    "ContextStr",
    "ContextStrLLMCondition",
    "ContextVariables",
    "ExpressionAvailableCondition",
    "ExpressionContextCondition",
    "FunctionTarget",
    "FunctionTargetMessage",
    "FunctionTargetResult",
    "GroupChatConfig",
    "GroupChatTarget",
    "GroupEngineNotLoadedError",
    "GroupManagerSelectionMessage",
    "GroupManagerSelectionMessageContextStr",
    "GroupManagerSelectionMessageString",
    "GroupManagerTarget",
    "Handoffs",
    "LLMCondition",
    "NestedChatTarget",
    "OnCondition",
    "OnContextCondition",
    "RandomAgentTarget",
    "ReplyResult",
    "RevertToUserTarget",
    "SpeakerSelectionResult",
    "StayTarget",
    "StringAvailableCondition",
    "StringContextCondition",
    "StringLLMCondition",
    "TerminateTarget",
    "TransitionTarget",
    "broadcast",
    "construct_broadcast_messages_list",
    "engine_hook",
    "has_engine_hook",
    "prepare_groupchat_auto_speaker",
    "register_engine_hook",
    "validate_fn_sig",
]
