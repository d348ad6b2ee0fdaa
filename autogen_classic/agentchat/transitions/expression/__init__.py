"""The language of ``ContextExpression``: tokens, parser and tree (see :mod:`.parser` for the grammar)."""

from .parser import first_missing, parse_expression
from .tokens import ExpressionProblem
from .tree import EvaluationProblem, Node

__all__ = ["EvaluationProblem", "ExpressionProblem", "Node", "first_missing", "parse_expression"]
