"""The texts the internal runner and validator agents see: system prompts, the kick-off, ground truth, the result
to validate and the reminder sent when the runner answers without calling the function.

These strings are the models' interface: they are kept word for word as the classic ``ReliableTool`` sends them.
"""

from __future__ import annotations

import json
from typing import Any, Optional

__all__ = [
    "HYPOTHESIS_DESCRIPTION",
    "get_runner_prompt",
    "get_validator_prompt",
]

HYPOTHESIS_DESCRIPTION = (
    "A clear, concise statement about the expected outcome or result format of the function call "
    "based on the provided inputs. This helps in assessing the relevance and potential success "
    "of the call, and guides validation."
)


def get_runner_prompt(task: str, agent_system_message: str, internal_tool_name: str) -> str:
    """The runner's system message for one run.

    Args:
        task: the task of the run.
        agent_system_message: ``system_message_addition_for_tool_calling``.
        internal_tool_name: the name the runner calls the wrapped function by (``execute_<function>``).
    """
    return f"""
You are an AI assistant responsible for invoking a specific function based on the user's task and conversation history.
Function to call: '{internal_tool_name}'
Analyze the previous attempt's outcome (if any, visible in history) and adjust the function arguments accordingly for this retry. If this is the first attempt, determine the best initial arguments based on the task and initial context.

You MUST invoke the function '{internal_tool_name}' exactly one time per response using a tool call format that the system can execute.
Do NOT just output text explaining what you would do, or asking for confirmation. Directly make the tool call.
Analyze the task description and *full conversation history* carefully to determine the correct arguments for the function call.
You MUST provide a 'hypothesis' argument summarizing the expected outcome or result format of the function call based on the inputs.

Base Instructions:
{agent_system_message}

Current Task:
{task}
"""


def get_validator_prompt(
    task: str, base_validator_system_message: str, dynamic_validation_addition: Optional[str] = None
) -> str:
    """The validator's system message for one run.

    Args:
        task: the task of the run.
        base_validator_system_message: ``system_message_addition_for_result_validation``.
        dynamic_validation_addition: the run's ``validation_prompt_addition`` (added when not blank).
    """
    dynamic_section = (
        f"\n\nAdditional Dynamic Requirements for This Specific Run:\n{dynamic_validation_addition.strip()}"
        if dynamic_validation_addition and dynamic_validation_addition.strip()
        else ""
    )
    return f"""
You are an AI validation assistant. You will receive a curated message list containing:
1. Initial context messages (original request, potentially prior conversation).
2. Provided ground truth information (if any).
3. The final result of a function call intended to accomplish the task.

Your goal is to validate if the *final function call result* meets ALL requirements based on the *entire context provided in the message list*. Consider the base task description, base validation rules, initial context/ground truth, and any dynamic requirements below.

Evaluate the *final function call result* (presented at the end of the message list) based on *all* information provided.

Base Validation Rules/Context:
{base_validator_system_message}{dynamic_section}

Base Task Description (for reference):
{task}
"""


def kickoff_message(task: str) -> dict[str, Any]:
    """The first message of the internal chat, asking the runner to call the function for ``task``."""
    return {
        "role": "user",
        "content": f"[[Task Kickoff]]: Please execute the required function call for the task: {task}",
    }


def ground_truth_messages(ground_truth: Optional[list[str]]) -> list[dict[str, Any]]:
    """One user message per ground-truth string, numbered from 1."""
    return [
        {"role": "user", "content": f"[[Provided Ground Truth {number}]]:\n{text}"}
        for number, text in enumerate(ground_truth or [], start=1)
    ]


def result_to_validate_message(result: Optional[str]) -> dict[str, Any]:
    """The message closing the validator's history: the function's result in a fenced block."""
    return {
        "role": "user",
        "content": f"--- Function Result to Validate ---\n```\n{result}\n```\n--- End of Result ---",
    }


def missing_call_reminder(internal_tool_name: str) -> str:
    """Appended to a runner answer that did not call the function (the runner then gets another turn)."""
    return (
        f"\n\n[[System Reminder: You MUST invoke the function '{internal_tool_name}' using a tool call. "
        "Provide all required arguments including 'hypothesis'.]]\n"
        "Correct your mistake and make a new attempt at invoking the tool."
    )


def _get_last_non_empty_message_content(messages: Optional[list[dict[str, Any]]]) -> Optional[str]:
    """The text of the last message that has any (text parts of a multimodal message joined by new lines;
    when it has no text part, its first non-empty part, as JSON for a dict)."""
    for message in reversed(messages or []):
        content = message.get("content")
        if isinstance(content, str) and content.strip():
            return content.strip()
        if isinstance(content, list) and content:
            texts = [
                part["text"].strip()
                for part in content
                if isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str)
                and part["text"].strip()
            ]
            if texts:
                return "\n".join(texts)
            for part in content:
                if part:
                    return json.dumps(part) if isinstance(part, dict) else str(part).strip()
    return None
