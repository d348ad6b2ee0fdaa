"""When to ask the human, what to ask, and what their answer means.

The decision is pure: it reads the input mode, whether the last message ends the
chat and the auto-reply budget, and says which prompt to show (if any). The agent
asks (sync or async) and applies the outcome, so both chat loops behave the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

__all__ = ["HUMAN_INPUT_MODES", "HumanInputPlan", "plan_human_input", "human_reply_message", "stop_reason"]

HUMAN_INPUT_MODES = ("ALWAYS", "TERMINATE", "NEVER")


@dataclass(frozen=True)
class HumanInputPlan:
    """What to do before auto-replying: stop at once, or ask with ``prompt`` (None: don't ask)."""

    prompt: Optional[str] = None
    stop: bool = False
    stop_if_empty: bool = False
    is_termination: bool = False  # the last message ends the chat
    exhausted: bool = False  # the auto-reply budget is spent


def plan_human_input(
    mode: str, *, is_termination: bool, auto_replies: int, max_auto_replies: int, agent_name: str, sender_name: str
) -> HumanInputPlan:
    """Decide whether the chat stops, whether to ask the human, and with which prompt."""
    if mode == "NEVER" and not is_termination and not auto_replies >= max_auto_replies:  # ">=": the classic error
        return _CARRY_ON  # the common case of every model reply: decided without building prompts
    stop_prompt = f"Please give feedback to {sender_name}. Press enter or type 'exit' to stop the conversation: "
    if mode == "ALWAYS":
        return HumanInputPlan(
            prompt=(
                f"Replying as {agent_name}. Provide feedback to {sender_name}. Press enter to skip and use auto-reply, "
                "or type 'exit' to end the conversation: "
            ),
            stop_if_empty=is_termination, is_termination=is_termination,
        )
    if auto_replies >= max_auto_replies:
        if mode == "NEVER":
            return HumanInputPlan(stop=True, is_termination=is_termination, exhausted=True)
        prompt = stop_prompt if is_termination else (
            f"Please give feedback to {sender_name}. Press enter to skip and use auto-reply, "
            "or type 'exit' to stop the conversation: "
        )
        return HumanInputPlan(prompt=prompt, stop_if_empty=is_termination, is_termination=is_termination,
                              exhausted=True)
    if is_termination:
        if mode == "NEVER":
            return HumanInputPlan(stop=True, is_termination=True)
        return HumanInputPlan(prompt=stop_prompt, stop_if_empty=True, is_termination=True)
    return _CARRY_ON


_CARRY_ON = HumanInputPlan()  # frozen, so one instance serves every "go on without asking"


def stop_reason(mode: str, plan: HumanInputPlan, reply: str, agent_name: str) -> Optional[str]:
    """Why the chat stops after ``plan`` and the human's ``reply`` (the ``termination_reason`` of the
    ``TerminationEvent`` AG2 Classic 0.14 sends), or None when no reason applies."""
    met = f"Termination message condition on agent '{agent_name}' met"
    if mode == "ALWAYS":
        if not reply and plan.is_termination:
            return met
        return "User requested to end the conversation" if reply == "exit" else None
    if plan.exhausted:
        if mode == "NEVER":
            return "Maximum number of consecutive auto-replies reached"
        if reply != "exit" and plan.is_termination:
            return met + " and no human input provided"
        return "User requested to end the conversation" if reply == "exit" else None
    if plan.is_termination:
        return met if mode == "NEVER" else met + " and no human input provided"
    return None


def human_reply_message(reply: str, last_message: dict[str, Any]) -> dict[str, Any]:
    """The message sent for a human's typed reply; pending calls are answered "USER INTERRUPTED"."""
    tool_returns: list[dict[str, Any]] = []
    if last_message.get("function_call"):
        tool_returns.append(
            {"role": "function", "name": last_message["function_call"].get("name", ""), "content": "USER INTERRUPTED"}
        )
    for call in last_message.get("tool_calls") or []:
        tool_returns.append({"role": "tool", "tool_call_id": call.get("id", ""), "content": "USER INTERRUPTED"})
    response: dict[str, Any] = {"role": "user", "content": reply}
    if tool_returns:
        response["tool_responses"] = tool_returns
    return response
