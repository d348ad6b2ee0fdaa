"""The data of hand-offs (AG2 Classic 0.14's ``agentchat.group`` classes): context variables and expressions,
transition targets, conditions and ``Handoffs``.

The agent core imports this package (every agent has ``handoffs`` and ``context_variables``), so it
imports nothing of the agents or the group chat. The targets that need them live above: the nested
chat's and the group manager's with the group chat's hand-offs (``groupchat.handoffs``), the group chat
target with the group orchestration (``agentchat.group.targets.group_chat_target``). The classic paths
are under ``agentchat.group``.
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
from .function_target import (
    FunctionTarget,
    FunctionTargetMessage,
    FunctionTargetResult,
    broadcast,
    construct_broadcast_messages_list,
    validate_fn_sig,
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
    "Handoffs",
    "LLMCondition",
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
    "validate_fn_sig",
]
