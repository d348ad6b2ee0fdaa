"""The tree of a parsed ``ContextExpression``: each node evaluates itself with the variables.

Evaluation follows Python's rules (``and`` / ``or`` give the deciding operand, comparisons chain), by
walking the tree: no Python code is run from the text.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any, Callable

__all__ = ["COMPARISONS", "BoolOp", "Compare", "Const", "EvaluationProblem", "Len", "Negative", "Node", "Not",
           "UnknownName", "Var"]

class EvaluationProblem(Exception):
    """A problem met while evaluating (a comparison of values that do not compare ...)."""

    def __init__(self, message: str, pos: int) -> None:
        super().__init__(message)
        self.message, self.pos = message, pos


class Node:
    """A node of the tree; ``evaluate`` gets the variables (name -> value) and returns a value."""

    pos: int = 0

    def evaluate(self, variables: Any) -> Any:
        raise NotImplementedError


@dataclass
class Var(Node):
    name: str
    pos: int

    def evaluate(self, variables: Any) -> Any:
        value = variables.get(self.name)
        # Collections count as their truth value, as in the classic package (their length: len()).
        return bool(value) if isinstance(value, (list, dict, tuple)) else value


@dataclass
class Const(Node):
    value: Any
    pos: int

    def evaluate(self, variables: Any) -> Any:
        return self.value


@dataclass
class UnknownName(Node):
    name: str
    pos: int

    def evaluate(self, variables: Any) -> Any:
        raise EvaluationProblem(
            f"name '{self.name}' at position {self.pos} is not defined; write ${{{self.name}}} to read the context "
            f"variable '{self.name}' (or quote it, '{self.name}', for the text)",
            self.pos,
        )


@dataclass
class Len(Node):
    argument: Node
    pos: int

    def evaluate(self, variables: Any) -> Any:
        value = variables.get(self.argument.name) if isinstance(self.argument, Var) else self.argument.evaluate(variables)
        try:
            return len(value)
        except TypeError:
            return 0  # a value without a length counts as empty, as in the classic package


@dataclass
class Not(Node):
    operand: Node
    pos: int

    def evaluate(self, variables: Any) -> Any:
        return not self.operand.evaluate(variables)


@dataclass
class Negative(Node):
    operand: Node
    pos: int

    def evaluate(self, variables: Any) -> Any:
        value = self.operand.evaluate(variables)
        try:
            return -value
        except TypeError:
            raise EvaluationProblem(
                f"'-' at position {self.pos} cannot negate {type(value).__name__} {value!r}; negate numbers only",
                self.pos,
            ) from None


@dataclass
class BoolOp(Node):
    is_and: bool
    operands: list[Node]
    pos: int

    def evaluate(self, variables: Any) -> Any:
        value: Any = None
        for operand in self.operands:  # Python's short-circuit: the deciding operand is the result
            value = operand.evaluate(variables)
            if bool(value) != self.is_and:
                return value
        return value


COMPARISONS: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}


@dataclass
class Compare(Node):
    first: Node
    rest: list[tuple[str, int, Node]]  # (operator, its position, right operand)
    pos: int

    def evaluate(self, variables: Any) -> Any:
        left = self.first.evaluate(variables)
        result: Any = True
        for op, pos, node in self.rest:
            right = node.evaluate(variables)
            try:
                result = COMPARISONS[op](left, right)
            except TypeError:
                raise EvaluationProblem(
                    f"'{op}' at position {pos} cannot compare {type(left).__name__} {left!r} with "
                    f"{type(right).__name__} {right!r}; compare values of the same kind (numbers with numbers, "
                    "text with quoted text)",
                    pos,
                ) from None
            if not result:
                return result
            left = right
        return result
