"""``Handoffs``: an agent's hand-off conditions (``agent.handoffs``), in the order they are checked."""

from __future__ import annotations

from typing import Any, Union, overload

from pydantic import BaseModel, Field

from .on_conditions import OnCondition, OnContextCondition
from .target_base import TransitionTarget, describe

__all__ = ["Handoffs"]

_ON_CONDITION_FIX = "wrap it as OnCondition(target=AgentTarget(agent), condition=StringLLMCondition(prompt='...'))"
_ON_CONTEXT_FIX = (
    "wrap it as OnContextCondition(target=AgentTarget(agent), condition=ExpressionContextCondition(...))"
)


def _all_of(conditions: Any, kind: type, method: str, fix: str) -> list[Any]:
    if isinstance(conditions, (str, bytes, dict, BaseModel)) or not hasattr(conditions, "__iter__"):
        raise TypeError(f"Handoffs.{method} takes a list of {kind.__name__}; got {describe(conditions)}.")
    conditions = list(conditions)
    for index, condition in enumerate(conditions):
        if not isinstance(condition, kind):
            raise TypeError(
                f"All conditions must be of type {kind.__name__}: item {index} given to Handoffs.{method} is "
                f"{describe(condition)}; {fix}."
            )
    return conditions


def _one(condition: Any, kind: type, fix: str) -> Any:
    if not isinstance(condition, kind):
        raise TypeError(
            f"Expected an {kind.__name__} instance, got {type(condition).__name__}: {describe(condition)}; {fix}."
        )
    return condition


class Handoffs(BaseModel):
    """The hand-off conditions of an agent, checked in this order when its turn ends:

    1. the context conditions (``OnContextCondition``, no model involved),
    2. the LLM conditions (``OnCondition``, offered to the model as tools),
    3. the after-works (``OnContextCondition`` s; the one without a condition always holds, last).

    The methods return the ``Handoffs`` itself, so calls chain::

        agent.handoffs.add_context_conditions([...]).add_llm_condition(...).set_after_work(RevertToUserTarget())
    """

    context_conditions: list[OnContextCondition] = Field(default_factory=list)
    llm_conditions: list[OnCondition] = Field(default_factory=list)
    after_works: list[OnContextCondition] = Field(default_factory=list)

    def add_context_condition(self, condition: OnContextCondition) -> Handoffs:
        """Add one context condition.

        Args:
            condition: the ``OnContextCondition``.
        """
        self.context_conditions.append(_one(condition, OnContextCondition, _ON_CONTEXT_FIX))
        return self

    def add_context_conditions(self, conditions: list[OnContextCondition]) -> Handoffs:
        """Add several context conditions.

        Args:
            conditions: the ``OnContextCondition`` s.
        """
        self.context_conditions.extend(
            _all_of(conditions, OnContextCondition, "add_context_conditions", _ON_CONTEXT_FIX)
        )
        return self

    def add_llm_condition(self, condition: OnCondition) -> Handoffs:
        """Add one LLM condition.

        Args:
            condition: the ``OnCondition``.
        """
        self.llm_conditions.append(_one(condition, OnCondition, _ON_CONDITION_FIX))
        return self

    def add_llm_conditions(self, conditions: list[OnCondition]) -> Handoffs:
        """Add several LLM conditions.

        Args:
            conditions: the ``OnCondition`` s.
        """
        self.llm_conditions.extend(_all_of(conditions, OnCondition, "add_llm_conditions", _ON_CONDITION_FIX))
        return self

    def set_after_work(self, target: TransitionTarget) -> Handoffs:
        """Make ``target`` the only after-work (an ``OnContextCondition`` without a condition).

        Args:
            target: where the chat goes when the agent's turn ends with no other hand-off.
        """
        if not isinstance(target, TransitionTarget):
            fix = (
                f"AgentTarget({target.name})" if isinstance(getattr(target, "name", None), str)
                and not isinstance(target, str) else "RevertToUserTarget(), TerminateTarget(), AgentTarget(agent) ..."
            )
            raise TypeError(
                f"Expected a TransitionTarget instance, got {type(target).__name__}: {describe(target)}; use {fix}."
            )
        self.after_works = [OnContextCondition(target=target, condition=None)]
        return self

    def add_after_work(self, condition: OnContextCondition) -> Handoffs:
        """Add one after-work; the one without a condition (the fallback) stays last, and only one is kept.

        Args:
            condition: the ``OnContextCondition``.
        """
        if not isinstance(condition, OnContextCondition):
            raise TypeError(
                f"Expected an OnContextCondition instance, got {type(condition).__name__}: {describe(condition)}; "
                f"{_ON_CONTEXT_FIX} (for a plain target, use set_after_work(target))."
            )
        self._merge_after_works([condition])
        return self

    def add_after_works(self, conditions: list[OnContextCondition]) -> Handoffs:
        """Add several after-works; of those without a condition only the last given is kept, last.

        Args:
            conditions: the ``OnContextCondition`` s.
        """
        self._merge_after_works(_all_of(conditions, OnContextCondition, "add_after_works", _ON_CONTEXT_FIX))
        return self

    def _merge_after_works(self, conditions: list[OnContextCondition]) -> None:
        fallbacks = [c for c in conditions if c.condition is None]
        kept_fallback = [c for c in self.after_works if c.condition is None][:1]
        regular = [c for c in self.after_works if c.condition is not None]
        regular += [c for c in conditions if c.condition is not None]
        self.after_works = regular + (fallbacks[-1:] or kept_fallback)

    @overload
    def add(self, condition: OnContextCondition) -> Handoffs: ...

    @overload
    def add(self, condition: OnCondition) -> Handoffs: ...

    def add(self, condition: Union[OnContextCondition, OnCondition]) -> Handoffs:
        """Add one condition of either kind.

        Args:
            condition: an ``OnContextCondition`` or an ``OnCondition``.
        """
        if isinstance(condition, OnContextCondition):
            return self.add_context_condition(condition)
        if isinstance(condition, OnCondition):
            return self.add_llm_condition(condition)
        raise TypeError(
            f"Unsupported condition type: {type(condition).__name__} ({describe(condition)}); add an OnCondition "
            "or an OnContextCondition."
        )

    def add_many(self, conditions: list[Union[OnContextCondition, OnCondition]]) -> Handoffs:
        """Add several conditions of either kind (each kind keeps its order).

        Args:
            conditions: ``OnContextCondition`` s and ``OnCondition`` s.
        """
        conditions = _all_of(conditions, object, "add_many", "")
        for index, condition in enumerate(conditions):
            if not isinstance(condition, (OnContextCondition, OnCondition)):
                raise TypeError(
                    f"Unsupported condition type: {type(condition).__name__} (item {index}: {describe(condition)}); "
                    "add OnCondition or OnContextCondition objects."
                )
        context = [c for c in conditions if isinstance(c, OnContextCondition)]
        llm = [c for c in conditions if isinstance(c, OnCondition)]
        if context:
            self.add_context_conditions(context)
        if llm:
            self.add_llm_conditions(llm)
        return self

    def clear(self) -> Handoffs:
        """Remove every condition and after-work."""
        self.context_conditions.clear()
        self.llm_conditions.clear()
        self.after_works.clear()
        return self

    def get_llm_conditions_by_target_type(self, target_type: type) -> list[OnCondition]:
        """The LLM conditions whose target is a ``target_type``.

        Args:
            target_type: a ``TransitionTarget`` class.
        """
        return [c for c in self.llm_conditions if c.has_target_type(target_type)]

    def get_context_conditions_by_target_type(self, target_type: type) -> list[OnContextCondition]:
        """The context conditions whose target is a ``target_type``.

        Args:
            target_type: a ``TransitionTarget`` class.
        """
        return [c for c in self.context_conditions if c.has_target_type(target_type)]

    def get_llm_conditions_requiring_wrapping(self) -> list[OnCondition]:
        """The LLM conditions whose target must be wrapped in an agent."""
        return [c for c in self.llm_conditions if c.target_requires_wrapping()]

    def get_context_conditions_requiring_wrapping(self) -> list[OnContextCondition]:
        """The context conditions whose target must be wrapped in an agent."""
        return [c for c in self.context_conditions if c.target_requires_wrapping()]

    def set_llm_function_names(self) -> None:
        """Name each LLM condition's tool ``transfer_to_<target>_<n>`` (n from 1: unique even for one target)."""
        for index, condition in enumerate(self.llm_conditions):
            condition.llm_function_name = f"transfer_to_{condition.target.normalized_name()}_{index + 1}"
