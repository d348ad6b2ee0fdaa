"""``ContextExpression``: a condition over context variables, such as ``${logged_in} and ${attempts} < 3``.

The text is parsed once, when the expression is made (:mod:`.expression_syntax`); evaluating walks the
parsed tree with the current variables. No Python code is ever run from the text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .context_variables import ContextVariables
from .expression import EvaluationProblem, ExpressionProblem, Node, first_missing, parse_expression

__all__ = ["ContextExpression"]


def _variables_of(context_variables: Any) -> Any:
    if isinstance(context_variables, ContextVariables):
        return context_variables.data
    if isinstance(context_variables, dict):
        return context_variables  # a plain dict of variables (the swarm of ag2 0.7.3 keeps one)
    raise TypeError(
        "ContextExpression.evaluate needs the context variables (a ContextVariables, or a dict of name -> value); "
        f"got {type(context_variables).__name__} {context_variables!r:.60}."
    )


@dataclass
class ContextExpression:
    """A logical expression over context variables.

    - A context variable is written ``${name}``: ``${logged_in}``, ``${attempts}``.
    - Literals: quoted strings (``'hello'``, ``"world"``), numbers (``3``, ``-1``, ``2.5``), ``True``,
      ``False``, ``None``.
    - Logical operators: ``not`` / ``!``, ``and`` / ``&``, ``or`` / ``|``; comparisons: ``>``, ``<``,
      ``>=``, ``<=``, ``==``, ``!=`` (chains such as ``1 < ${n} < 10`` work as in Python).
    - ``len(${name})``: the length of a list, string or dict (0 for a value without one).
    - Parentheses group.

    Examples: ``"not ${logged_in} and ${is_admin} or ${guest_checkout}"``,
    ``"!${logged_in} & ${is_admin} | ${guest_checkout}"``, ``"len(${orders}) > 0 & ${user_active}"``.

    A list, dict or tuple variable counts as its truth value (``${items}`` is True when not empty).
    ``and`` / ``or`` give the deciding operand, as in Python; the result is used as a truth value.

    Args:
        expression: the text of the expression.

    Raises:
        SyntaxError: when the text is not an expression (the message gives the position and the fix).
        ValueError: when it uses an operation the language does not allow (arithmetic, calls other than
            ``len``, indexing ...).
    """

    expression: str

    def __post_init__(self) -> None:
        if not isinstance(self.expression, str):
            raise ValueError(
                f"Error validating expression {self.expression!r}: an expression is a str such as "
                f"'${{logged_in}} and ${{attempts}} < 3'; got {type(self.expression).__name__}."
            )
        try:
            tree, names = parse_expression(self.expression)
        except ExpressionProblem as problem:
            if problem.kind is SyntaxError:
                error = SyntaxError(f"Invalid expression syntax in '{self.expression}': {problem.message}")
                error.offset, error.text = problem.pos + 1, self.expression
                raise error from None
            raise problem.kind(f"Error validating expression '{self.expression}': {problem.message}") from None
        self._tree: Node = tree
        # Names of the variables read, in order of appearance (repeats included).
        self._variable_names: list[str] = names

    def evaluate(self, context_variables: ContextVariables) -> bool:
        """Evaluate the expression with ``context_variables``.

        Args:
            context_variables: the variables (a ``ContextVariables``; a plain dict is accepted too).

        Returns:
            The value of the expression (a bool for comparisons and ``not``; ``and`` / ``or`` give the
            deciding operand, as in Python).

        Raises:
            KeyError: when a variable the expression reads is not set (every variable must be, even one
                an ``and`` / ``or`` would skip).
            ValueError: when values cannot be compared (a number with a string ...) or a bare name is used.
        """
        variables = _variables_of(context_variables)
        missing = first_missing(self._variable_names, variables)
        if missing is not None:
            raise KeyError(
                f"Missing context variable: '{missing}' (read by the expression '{self.expression}'); set it before "
                f"the condition is checked, e.g. ContextVariables(data={{'{missing}': ...}}) or "
                f"context_variables.set('{missing}', ...)"
            )
        try:
            return self._tree.evaluate(variables)  # type: ignore[no-any-return]
        except EvaluationProblem as problem:
            raise ValueError(f"Error evaluating expression '{self.expression}': {problem.message}") from None

    def __str__(self) -> str:
        return f"ContextExpression('{self.expression}')"
