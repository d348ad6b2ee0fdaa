"""The classic path ``autogen.agentchat.group.targets.function_target``: FunctionTarget and its result (code in ``agentchat.transitions``)."""

from ...agent import Agent  # noqa: F401 - importable here, as in the classic module
from ...transitions import (  # noqa: F401 - importable here, as in the classic module
    AgentNameTarget,
    AgentTarget,
    ContextVariables,
    FunctionTarget,
    FunctionTargetMessage,
    FunctionTargetResult,
    RevertToUserTarget,
    SpeakerSelectionResult,
    StayTarget,
    TransitionTarget,
    broadcast,
    construct_broadcast_messages_list,
    validate_fn_sig,
)

__all__ = ["FunctionTarget", "FunctionTargetMessage", "FunctionTargetResult", "broadcast"]
