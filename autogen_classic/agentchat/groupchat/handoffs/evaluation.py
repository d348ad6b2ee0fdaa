"""The one evaluator of hand-off conditions: whether an entry of ``agent.handoffs`` is available, whether it
holds, and which entry hands off now.

Every place that decides by a hand-off's conditions asks here: the context conditions (the agents' first
reply function), the LLM conditions' tools (offered while available) and the after-works (the transition),
for AG2 0.14's patterns and for the classic swarm alike (its callable ``available`` is an
``AvailableCondition`` of its own, ``SwarmAvailableCondition``). The order is the agent's: its entries are
tried as listed, the first that holds wins, and an entry's ``available`` is asked before its condition.
"""

from __future__ import annotations

from typing import Any, Optional

__all__ = ["available", "condition_label", "first_after_work", "first_context_condition", "holds"]


def available(entry: Any, agent: Any, messages: list[dict[str, Any]]) -> bool:
    """Whether a hand-off entry (``OnCondition``, ``OnContextCondition``) is offered now: its ``available``
    condition holds, or it has none.

    Args:
        entry: the hand-off entry.
        agent: the agent whose entry it is.
        messages: the conversation so far.
    """
    return bool(entry.available.is_available(agent, messages)) if entry.available else True


def holds(entry: Any, agent: Any, messages: list[dict[str, Any]]) -> bool:
    """Whether a context condition or an after-work entry hands off now: available, and its condition true
    on the agent's context variables (no condition: always).

    Args:
        entry: an ``OnContextCondition``.
        agent: the agent whose entry it is.
        messages: the conversation so far.
    """
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
