"""The records of a ``ReliableTool`` run: attempts, validations, the run's context, its details and its error.

The run's context travels between the internal agents inside the group chat's context variables, as JSON
text under one key (``_get_reliable_tool_context`` / ``_set_reliable_tool_context``): the tool function, the
validator's hooks and the caller all read and write the same record that way.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import MutableMapping
from typing import Any, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError

__all__ = [
    "ExecutionAttempt",
    "ReliableToolContext",
    "ReliableToolError",
    "SuccessfulExecutionParameters",
    "ToolExecutionDetails",
    "ValidationResult",
]

# One logger for the whole tool, under the classic module's name, so that a filter or level set on it covers every part.
logger = logging.getLogger("autogen_classic.tools.experimental.reliable.reliable")


class ValidationResult(BaseModel):
    """Represents the outcome of a single validation step."""

    # The validator's structured output: passed or not, and why. The docstring above is part of the JSON schema
    # sent to the model (its "description"), so it is kept as the classic tool sends it.

    model_config = ConfigDict(extra="forbid")
    validation_result: bool
    justification: str

    def __str__(self) -> str:
        status = "Passed" if self.validation_result else "Failed"
        return f"Validation Result: {status}\nJustification: {self.justification}"

    def format(self) -> str:
        """The verdict as JSON text: the content the validator's message carries."""
        return self.model_dump_json()


class ExecutionAttempt(BaseModel):
    """One call of the wrapped function: its arguments, the runner's hypothesis, and what came of it."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    timestamp: float = Field(default_factory=time.time)
    attempt_args: list[Any] = Field(default_factory=list)
    attempt_kwargs: dict[str, Any] = Field(default_factory=dict)
    hypothesis: Optional[str] = None
    error: Optional[str] = None
    result_data: Optional[Any] = None
    result_str: Optional[str] = None
    validation: Optional[ValidationResult] = None

    @property
    def did_execute_successfully(self) -> bool:
        """Whether the function returned without raising."""
        return self.error is None

    @property
    def did_validate_successfully(self) -> bool:
        """Whether the validator passed the result."""
        return self.validation is not None and self.validation.validation_result


class ReliableToolContext(BaseModel):
    """The state of one run: the task, what the caller gave, and every attempt so far."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    task: str
    reliable_tool_name: str
    start_time: float = Field(default_factory=time.time)
    dynamic_validation_input: Optional[str] = None
    attempts: list[ExecutionAttempt] = Field(default_factory=list)
    initial_messages: Optional[list[dict[str, Any]]] = Field(
        default=None, description="Initial messages provided to the tool run."
    )
    initial_ground_truth: Optional[list[str]] = Field(
        default=None, description="Initial ground truth strings provided."
    )

    @property
    def attempt_count(self) -> int:
        """How many attempts were made."""
        return len(self.attempts)

    @property
    def latest_attempt(self) -> Optional[ExecutionAttempt]:
        """The last attempt, or None before the first."""
        return self.attempts[-1] if self.attempts else None

    @property
    def is_complete_and_successful(self) -> bool:
        """Whether the last attempt both ran and passed validation (the run's outcome)."""
        latest = self.latest_attempt
        return latest is not None and latest.did_execute_successfully and latest.did_validate_successfully

    def get_final_result_data(self) -> Any:
        """The value the function returned in the validated attempt (None when the run did not succeed)."""
        if self.is_complete_and_successful and self.latest_attempt:
            return self.latest_attempt.result_data
        return None

    def get_final_result_str(self) -> Any:
        """The text the validator judged in the validated attempt (None when the run did not succeed)."""
        if self.is_complete_and_successful and self.latest_attempt:
            return self.latest_attempt.result_str
        return None

    def get_failure_summary(self) -> str:
        """Why the run failed, from its last attempt."""
        latest = self.latest_attempt
        if latest is None:
            return "No execution attempts were made."
        if not latest.did_execute_successfully:
            return f"Execution failed: {latest.error}"
        if not latest.did_validate_successfully:
            justification = (
                latest.validation.justification if latest.validation else "Validation result missing or invalid"
            )
            return f"Execution succeeded but failed validation (Justification: {justification})"
        return "Execution completed but overall status indicates failure (Internal inconsistency)."


class SuccessfulExecutionParameters(BaseModel):
    """The arguments of the call whose result passed validation."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    attempt_args: list[Any]
    attempt_kwargs: dict[str, Any]


class ToolExecutionDetails(BaseModel):
    """What ``run_and_get_details`` returns: the outcome of a run without raising, and its full context."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    task: str
    is_overall_successful: bool
    failure_reason: Optional[str] = None
    successful_parameters: Optional[SuccessfulExecutionParameters] = None
    final_tool_context: ReliableToolContext


class ReliableToolError(Exception):
    """A ``ReliableTool`` run ended without a validated result.

    Args:
        message: what went wrong (for a failed run: ``"ReliableTool '<name>' failed. Last failure: <why>"``).
        final_context: the run's context when it ended (its attempts), if there is one.
    """

    def __init__(self, message: str, final_context: Optional[ReliableToolContext] = None):
        super().__init__(message)
        self.final_context = final_context


def _get_reliable_tool_context(context_variables: Any, context_key: str) -> ReliableToolContext:
    """The run's context stored under ``context_key`` in ``context_variables``.

    Raises:
        KeyError: nothing is stored under the key.
        ValueError: what is stored there is not a context's JSON text.
    """
    context_data = context_variables.get(context_key)
    if context_data is None:
        raise KeyError(f"ReliableToolContext key '{context_key}' not found in ContextVariables.")
    try:
        if isinstance(context_data, str):
            return ReliableToolContext.model_validate_json(context_data)
        raise TypeError(
            f"Unexpected type {type(context_data)} for context key '{context_key}'. "
            "Expected ReliableToolContext, str, or dict."
        )
    except (ValidationError, json.JSONDecodeError, TypeError) as error:
        logger.warning("Failed loading ReliableToolContext '%s'. Error: %s. Type: %s.", context_key, error,
                       type(context_data).__name__)
        raise ValueError(f"Failed loading ReliableToolContext key '{context_key}': {error}") from error


def _set_reliable_tool_context(
    context_variables: MutableMapping[str, Any], context_key: str, context: ReliableToolContext
) -> None:
    """Store ``context`` as JSON text under ``context_key`` (JSON, so that it survives any copy of the variables).

    Raises:
        TypeError: ``context`` is not a ``ReliableToolContext``.
        ValueError: it cannot be serialized (e.g. a result that is not JSON data and has no ``str``).
    """
    if not isinstance(context, ReliableToolContext):
        raise TypeError(f"Object to set must be a ReliableToolContext, got {type(context)}.")
    try:
        context_variables[context_key] = context.model_dump_json(warnings="warn")
    except (ValidationError, TypeError) as error:
        logger.error("Failed serializing ReliableToolContext key '%s': %s", context_key, error)
        raise ValueError(f"Critical error serializing ReliableToolContext: {error}") from error
