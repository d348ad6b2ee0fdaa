"""The one evaluator of hand-off conditions, for the patterns and the classic swarm alike: whether an entry of
``agent.handoffs`` is available, whether it holds, and which hands off now (entries are tried as listed, the
first that holds wins; an entry's ``available`` is asked before its condition)."""

from __future__ import annotations

from typing import Any, Optional

__all__ = ["available", "condition_label", "first_after_work", "first_context_condition", "holds"]


def available(entry: Any, agent: Any, messages: list[dict[str, Any]]) -> bool:
    """Whether a hand-off entry (``OnCondition``, ``OnContextCondition``) is offered now: its ``available``
    condition holds, or it has none."""
    return bool(entry.available.is_available(agent, messages)) if entry.available else True


def holds(entry: Any, agent: Any, messages: list[dict[str, Any]]) -> bool:
    """Whether a context condition or an after-work entry hands off now: available, and its condition true
    on the agent's context variables (no condition: always)."""
    return available(entry, agent, messages) and (
        entry.condition is None or bool(entry.condition.evaluate(agent.context_variables))
    )


def first_context_condition(agent: Any, messages: list[dict[str, Any]]) -> Optional[Any]:
    """The first of ``agent``'s ``OnContextCondition`` s that holds, or None."""
    for entry in agent.handoffs.context_conditions:
        if holds(entry, agent, messages):
            return entry
    return None


def first_after_work(agent: Any, messages: list[dict[str, Any]]) -> Optional[Any]:
    """The first of ``agent``'s after-work entries that holds, or None (also for an agent without hand-offs)."""
    handoffs = getattr(agent, "handoffs", None)
    for entry in getattr(handoffs, "after_works", None) or ():
        if holds(entry, agent, messages):
            return entry
    return None


def condition_label(condition: Any) -> str:
    """A context condition as people read it: its expression, ``${variable}``, or "always" (no condition)."""
    if condition is None:
        return "always"
    expression = getattr(condition, "expression", None)
    if expression is not None:
        return str(getattr(expression, "expression", expression))
    variable = getattr(condition, "variable_name", None)
    if variable is not None:
        return f"${{{variable}}}"
    return type(condition).__name__
