"""The conditions of hand-offs: asked of the model (LLM), checked on the context variables (context), and
whether a hand-off is offered at all (available)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, field_validator

from .context_expression import ContextExpression
from .context_str import ContextStr
from .context_variables import ContextVariables
from .target_base import describe

if TYPE_CHECKING:
    from ..conversable_agent import ConversableAgent

__all__ = [
    "AvailableCondition",
    "ContextCondition",
    "ContextStrLLMCondition",
    "ExpressionAvailableCondition",
    "ExpressionContextCondition",
    "LLMCondition",
    "StringAvailableCondition",
    "StringContextCondition",
    "StringLLMCondition",
]


def _as_expression(value: Any, owner: str) -> Any:
    # A plain str is taken as the expression's text (AG2 0.14 asks for a ContextExpression).
    if isinstance(value, str):
        return ContextExpression(value)
    if isinstance(value, (ContextExpression, dict)):
        return value
    raise ValueError(f"{owner}.expression should be a ContextExpression('${{name}} ...'); got {describe(value)}.")


class _ExpressionCondition(BaseModel):
    """A condition given as a ``ContextExpression`` (its text is accepted too), true when the expression is."""

    expression: ContextExpression

    def __init__(self, expression: ContextExpression, **data: Any) -> None:
        super().__init__(expression=expression, **data)

    @field_validator("expression", mode="before")
    @classmethod
    def _expression(cls, value: Any) -> Any:
        return _as_expression(value, cls.__name__)

    def _true_on(self, context_variables: ContextVariables) -> bool:
        return bool(self.expression.evaluate(context_variables))


# ----------------------------------------------------------------------------------------------- LLM
class LLMCondition(BaseModel):
    """A condition the model decides: its prompt describes when to take the hand-off."""

    def get_prompt(self, agent: ConversableAgent, messages: list[dict[str, Any]]) -> str:
        """The text that tells the model when to take the hand-off.

        Args:
            agent: the agent the model speaks for.
            messages: the conversation so far.
        """
        raise NotImplementedError("Requires subclasses to implement.")


class StringLLMCondition(LLMCondition):
    """A fixed prompt.

    Args:
        prompt: when to take the hand-off, e.g. ``"The user wants a refund"``.
    """

    prompt: str

    def __init__(self, prompt: str, **data: Any) -> None:
        super().__init__(prompt=prompt, **data)

    def get_prompt(self, agent: ConversableAgent, messages: list[dict[str, Any]]) -> str:
        """The prompt as given."""
        return self.prompt


class ContextStrLLMCondition(LLMCondition):
    """A prompt with ``{name}`` fields filled from the agent's context variables.

    Args:
        context_str: the prompt template.
    """

    context_str: ContextStr

    def __init__(self, context_str: ContextStr, **data: Any) -> None:
        if isinstance(context_str, str):  # the template's text, for a ContextStr
            context_str = ContextStr(template=context_str)
        super().__init__(context_str=context_str, **data)

    def get_prompt(self, agent: ConversableAgent, messages: list[dict[str, Any]]) -> str:
        """The prompt with the agent's context variables filled in."""
        result = self.context_str.format(agent.context_variables)
        return result if result is not None else ""


# ----------------------------------------------------------------------------------------------- context
class ContextCondition(BaseModel):
    """A condition checked on the context variables, without the model."""

    def evaluate(self, context_variables: ContextVariables) -> bool:
        """Whether the condition holds.

        Args:
            context_variables: the variables to check.
        """
        raise NotImplementedError("Requires subclasses to implement.")


class StringContextCondition(ContextCondition):
    """Holds when the named variable is set and truthy.

    Args:
        variable_name: the variable's name.
    """

    variable_name: str

    def evaluate(self, context_variables: ContextVariables) -> bool:
        """Whether the variable is set and truthy."""
        return bool(context_variables.get(self.variable_name, False))


class ExpressionContextCondition(ContextCondition, _ExpressionCondition):
    """Holds when the expression is true.

    Args:
        expression: a ``ContextExpression`` (its text is accepted too).
    """

    def evaluate(self, context_variables: ContextVariables) -> bool:
        """The truth of the expression with ``context_variables``."""
        return self._true_on(context_variables)


# ----------------------------------------------------------------------------------------------- available
class AvailableCondition(BaseModel):
    """Whether a hand-off is offered at all (checked before its condition)."""

    def is_available(self, agent: ConversableAgent, messages: list[dict[str, Any]]) -> bool:
        """Whether the hand-off is considered now.

        Args:
            agent: the agent whose hand-off it is.
            messages: the conversation so far.
        """
        raise NotImplementedError("Requires subclasses to implement.")


class StringAvailableCondition(AvailableCondition):
    """Available when the named context variable is set and truthy.

    Args:
        context_variable: the variable's name.
    """

    context_variable: str

    def __init__(self, context_variable: str, **data: Any) -> None:
        super().__init__(context_variable=context_variable, **data)

    def is_available(self, agent: ConversableAgent, messages: list[dict[str, Any]]) -> bool:
        """Whether the agent's variable is set and truthy."""
        return bool(agent.context_variables.get(self.context_variable, False))


class ExpressionAvailableCondition(AvailableCondition, _ExpressionCondition):
    """Available when the expression is true on the agent's context variables.

    Args:
        expression: a ``ContextExpression`` (its text is accepted too).
    """

    def is_available(self, agent: ConversableAgent, messages: list[dict[str, Any]]) -> bool:
        """The truth of the expression with the agent's context variables."""
        return self._true_on(agent.context_variables)
