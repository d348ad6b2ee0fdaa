"""``OnCondition`` (a hand-off the model takes, as a tool) and ``OnContextCondition`` (a hand-off taken when
the context variables say so, or unconditionally as an after-work)."""

from __future__ import annotations

from typing import Any, ClassVar, Optional

from pydantic import BaseModel, field_validator

from .conditions import AvailableCondition, ContextCondition, LLMCondition
from .target_base import TransitionTarget, describe, must_be_target

__all__ = ["OnCondition", "OnContextCondition"]


def _must_be(value: Any, kind: type, where: str, fix: str) -> Any:
    if value is None or isinstance(value, (kind, dict)):
        return value
    raise ValueError(f"{where} should be a {kind.__name__}; got {describe(value)}. Use {fix}.")


def _llm_condition(value: Any) -> Any:
    fix = f"StringLLMCondition(prompt={value!r})" if isinstance(value, str) else "StringLLMCondition(prompt='...')"
    if value is None:
        raise ValueError(f"OnCondition.condition is required (the model's cue); use {fix}.")
    return _must_be(value, LLMCondition, "OnCondition.condition", fix)


def _context_condition(value: Any) -> Any:
    fix = (
        f"ExpressionContextCondition(ContextExpression({value!r}))" if isinstance(value, str) and "$" in value
        else f"StringContextCondition(variable_name={value!r})" if isinstance(value, str)
        else "StringContextCondition(variable_name='...') or ExpressionContextCondition(ContextExpression('...'))"
    )
    return _must_be(value, ContextCondition, "OnContextCondition.condition", fix)


class _HandoffEntry(BaseModel):
    """What both kinds of hand-off entry share: the checks of ``target`` and ``available``, and questions on the
    target. Each kind declares its own fields (their order is the classic one)."""

    _owner: ClassVar[str] = ""  # the class named in error messages

    @field_validator("target", mode="before", check_fields=False)
    @classmethod
    def _target(cls, value: Any) -> Any:
        return must_be_target(value, f"{cls._owner}.target")

    @field_validator("available", mode="before", check_fields=False)
    @classmethod
    def _available(cls, value: Any) -> Any:
        fix = ("StringAvailableCondition('variable_name') or "
               "ExpressionAvailableCondition(ContextExpression('${name} ...'))")
        return _must_be(value, AvailableCondition, f"{cls._owner}.available", fix)

    def has_target_type(self, target_type: type) -> bool:
        """Whether the target is a ``target_type``.

        Args:
            target_type: a ``TransitionTarget`` class.
        """
        return isinstance(self.target, target_type)  # type: ignore[attr-defined]

    def target_requires_wrapping(self) -> bool:
        """Whether the target must be wrapped in an agent (a nested chat, a group chat)."""
        return self.target.needs_agent_wrapper()  # type: ignore[attr-defined,no-any-return]


class OnCondition(_HandoffEntry):  # noqa: N801 - classic name
    """A hand-off the model decides: offered to it as a tool (``transfer_to_<target>_<n>``).

    Conditions of this kind are checked after the context conditions and before the after-work.

    Args:
        target: where the hand-off leads.
        condition: when to take it, for the model (e.g. ``StringLLMCondition("The user wants a refund")``).
        available: whether the tool is offered at all (None: always).
        llm_function_name: the tool's name (set by ``Handoffs.set_llm_function_names``).
    """

    _owner: ClassVar[str] = "OnCondition"

    target: TransitionTarget
    condition: LLMCondition
    available: Optional[AvailableCondition] = None
    llm_function_name: Optional[str] = None

    _condition = field_validator("condition", mode="before")(_llm_condition)


class OnContextCondition(_HandoffEntry):  # noqa: N801 - classic name
    """A hand-off taken when its condition holds on the context variables (no model involved).

    Conditions of this kind are checked first, before the model's; with ``condition=None`` it always holds
    (the form after-works take).

    Args:
        target: where the hand-off leads.
        condition: when to take it (None: always).
        available: whether it is considered at all (None: always).
    """

    _owner: ClassVar[str] = "OnContextCondition"

    target: TransitionTarget
    condition: Optional[ContextCondition] = None
    available: Optional[AvailableCondition] = None

    _condition = field_validator("condition", mode="before")(_context_condition)
