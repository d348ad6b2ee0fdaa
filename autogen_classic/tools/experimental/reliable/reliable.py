"""The classic module ``autogen.tools.experimental.reliable.reliable``: its names, from ``agentchat.reliable``."""

from ....agentchat.reliable.llm_configs import _configure_llm_for_structured_output, _validate_llm_config
from ....agentchat.reliable.models import (
    ExecutionAttempt,
    ReliableToolContext,
    ReliableToolError,
    SuccessfulExecutionParameters,
    ToolExecutionDetails,
    ValidationResult,
    _get_reliable_tool_context,
    _set_reliable_tool_context,
)
from ....agentchat.reliable.prompts import (
    _get_last_non_empty_message_content,
    get_runner_prompt,
    get_validator_prompt,
)
from ....agentchat.reliable.reliable import ReliableTool
from ....agentchat.reliable.wrapper import reliable_function_wrapper

__all__ = [
    "ExecutionAttempt", "ReliableTool", "ReliableToolContext", "ReliableToolError", "SuccessfulExecutionParameters",
    "ToolExecutionDetails", "ValidationResult", "_configure_llm_for_structured_output",
    "_get_last_non_empty_message_content", "_get_reliable_tool_context", "_set_reliable_tool_context",
    "_validate_llm_config", "get_runner_prompt", "get_validator_prompt", "reliable_function_wrapper",
]
