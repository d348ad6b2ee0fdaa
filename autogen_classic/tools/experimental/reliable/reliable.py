"""The classic module ``autogen.tools.experimental.reliable.reliable``: its names, from ``agentchat.reliable.reliable``
(the module it stands for, where they are all importable)."""

from ....agentchat.reliable.reliable import (
    ExecutionAttempt,
    ReliableTool,
    ReliableToolContext,
    ReliableToolError,
    SuccessfulExecutionParameters,
    ToolExecutionDetails,
    ValidationResult,
    _configure_llm_for_structured_output,
    _get_last_non_empty_message_content,
    _get_reliable_tool_context,
    _set_reliable_tool_context,
    _validate_llm_config,
    get_runner_prompt,
    get_validator_prompt,
    reliable_function_wrapper,
)

__all__ = [
    "ExecutionAttempt", "ReliableTool", "ReliableToolContext", "ReliableToolError", "SuccessfulExecutionParameters",
    "ToolExecutionDetails", "ValidationResult", "_configure_llm_for_structured_output",
    "_get_last_non_empty_message_content", "_get_reliable_tool_context", "_set_reliable_tool_context",
    "_validate_llm_config", "get_runner_prompt", "get_validator_prompt", "reliable_function_wrapper",
]
