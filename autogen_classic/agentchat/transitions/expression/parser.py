"""The parser of ``ContextExpression`` text: recursive descent over the tokens, building the tree.

Grammar (Python's precedence, lowest first)::

    or_expr    := and_expr (("or" | "|") and_expr)*
    and_expr   := not_expr (("and" | "&") not_expr)*
    not_expr   := ("not" | "!") not_expr | comparison
    comparison := unary (("==" | "!=" | "<" | "<=" | ">" | ">=") unary)*     # chains like 1 < ${n} < 10
    unary      := "-" unary | primary
    primary    := ${name} | 'text' | "text" | number | True | False | None | len(${name}) | ( or_expr )

Nothing here runs Python code: the tree is evaluated by walking it (:mod:`.tree`).
Errors say where (0-based character position) and how to fix the expression: ``SyntaxError`` for
text that is not an expression, ``ValueError`` for an operation the language does not allow.
"""

from __future__ import annotations

import keyword
from typing import Any, Callable, Optional

from .tokens import ALLOWED, REFUSED_WORDS, ExpressionProblem, Token, tokenize
from .tree import COMPARISONS, BoolOp, Compare, Const, Len, Negative, Node, Not, UnknownName, Var

__all__ = ["first_missing", "parse_expression"]


class _Parser:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens, self.index = tokens, 0

    def peek(self) -> Token:
        return self.tokens[self.index]

    def take(self) -> Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def is_op(self, *texts: str) -> bool:
        token = self.peek()
        return token.kind == "op" and token.text in texts

    def is_word(self, *words: str) -> bool:
        token = self.peek()
        return token.kind == "name" and token.text in words

    def parse(self) -> Node:
        if self.peek().kind == "end":
            raise ExpressionProblem(
                SyntaxError, "the expression is empty; write a condition such as ${logged_in} and ${attempts} < 3", 0
            )
        node = self.or_expr()
        token = self.peek()
        if token.kind != "end":
            if token.kind == "op" and token.text == ")":
                raise ExpressionProblem(
                    SyntaxError, f"')' at position {token.pos} closes no '('; remove it or add the '('", token.pos
                )
            raise ExpressionProblem(
                SyntaxError,
                f"unexpected {token.shown()} at position {token.pos}; join conditions with and / or (& / |) and "
                "compare with == != < <= > >=",
                token.pos,
            )
        return node

    def _after(self, operator_token: Token) -> None:
        if self.peek().kind == "end":
            raise ExpressionProblem(
                SyntaxError,
                f"'{operator_token.text}' at position {operator_token.pos} has nothing after it; add a value after it "
                "or remove it",
                operator_token.pos,
            )

    def _joined(self, word: str, op: str, operand: Callable[[], Node], is_and: bool) -> Node:
        """Operands joined by ``word`` or ``op`` (``and`` / ``&``, ``or`` / ``|``): one is itself, more a BoolOp."""
        start = self.peek().pos
        operands = [operand()]
        while self.is_word(word) or self.is_op(op):
            self._after(self.take())
            operands.append(operand())
        return operands[0] if len(operands) == 1 else BoolOp(is_and, operands, start)

    def or_expr(self) -> Node:
        return self._joined("or", "|", self.and_expr, is_and=False)

    def and_expr(self) -> Node:
        return self._joined("and", "&", self.not_expr, is_and=True)

    def not_expr(self) -> Node:
        if self.is_word("not") or self.is_op("!"):
            token = self.take()
            self._after(token)
            return Not(self.not_expr(), token.pos)
        return self.comparison()

    def comparison(self) -> Node:
        start = self.peek().pos
        first = self.unary()
        rest: list[tuple[str, int, Node]] = []
        while self.is_op(*COMPARISONS):
            token = self.take()
            self._after(token)
            rest.append((token.text, token.pos, self.unary()))
        if self.is_op("-"):
            token = self.peek()
            raise ExpressionProblem(
                ValueError, f"'-' at position {token.pos} is not allowed (arithmetic); {ALLOWED}", token.pos
            )
        if self.is_word(*REFUSED_WORDS):
            token = self.peek()
            raise ExpressionProblem(
                ValueError, f"'{token.text}' at position {token.pos}: {REFUSED_WORDS[token.text]}", token.pos
            )
        return first if not rest else Compare(first, rest, start)

    def unary(self) -> Node:
        if self.is_op("-"):
            token = self.take()
            self._after(token)
            return Negative(self.unary(), token.pos)
        return self.primary()

    def primary(self) -> Node:
        token = self.take()
        if token.kind == "var":
            return Var(token.value, token.pos)
        if token.kind in ("str", "num"):
            return Const(token.value, token.pos)
        if token.kind == "name":
            return self._word(token)
        if token.kind == "op" and token.text == "(":
            self._after(token)
            node = self.or_expr()
            if not self.is_op(")"):
                raise ExpressionProblem(
                    SyntaxError,
                    f"'(' at position {token.pos} was never closed (found {self.peek().shown()} at position "
                    f"{self.peek().pos}); add ')'",
                    token.pos,
                )
            self.take()
            return node
        what = "nothing" if token.kind == "end" else token.shown()
        raise ExpressionProblem(
            SyntaxError,
            f"expected a value at position {token.pos} (a ${{name}}, a quoted string, a number, True/False/None, "
            f"len(${{name}}) or a parenthesised condition), found {what}",
            token.pos,
        )

    def _word(self, token: Token) -> Node:
        constants = {"True": True, "False": False, "None": None}
        if token.text in constants:
            return Const(constants[token.text], token.pos)
        if token.text in REFUSED_WORDS:
            raise ExpressionProblem(
                ValueError, f"'{token.text}' at position {token.pos}: {REFUSED_WORDS[token.text]}", token.pos
            )
        if keyword.iskeyword(token.text):
            raise ExpressionProblem(
                SyntaxError, f"expected a value at position {token.pos}, found the keyword '{token.text}'", token.pos
            )
        if token.text == "len":
            return self._len(token)
        if self.is_op("("):
            raise ExpressionProblem(
                ValueError,
                f"Only the len() function is allowed, got: {token.text} (at position {token.pos}); test a length "
                "with len(${name}) and compare values with == != < <= > >=",
                token.pos,
            )
        return UnknownName(token.text, token.pos)

    def _len(self, token: Token) -> Node:
        if not self.is_op("("):
            raise ExpressionProblem(
                SyntaxError, f"'len' at position {token.pos} must be called: write len(${{name}})", token.pos
            )
        opening = self.take()
        arguments: list[Node] = []
        if not self.is_op(")"):
            self._after(opening)
            arguments.append(self.or_expr())
            while self.is_op(","):
                self.take()
                arguments.append(self.or_expr())
        if not self.is_op(")"):
            raise ExpressionProblem(
                SyntaxError, f"'len(' at position {token.pos} was never closed; write len(${{name}})", token.pos
            )
        self.take()
        if len(arguments) != 1:
            raise ExpressionProblem(
                ValueError,
                f"len() function must have exactly one argument, got {len(arguments)} (at position {token.pos}); "
                "write len(${name})",
                token.pos,
            )
        argument = arguments[0]
        if not (isinstance(argument, Var) or (isinstance(argument, Const) and isinstance(argument.value, str))):
            raise ExpressionProblem(
                ValueError,
                f"len() at position {token.pos} takes a context variable, as len(${{items}}) (or a quoted string)",
                token.pos,
            )
        return Len(argument, token.pos)


def parse_expression(source: str) -> tuple[Node, list[str]]:
    """The tree of ``source`` and the names of the variables it reads, in order of appearance.

    Raises:
        ExpressionProblem: with the exception type (``SyntaxError`` or ``ValueError``) and position.
    """
    tokens = tokenize(source)
    names = [token.value for token in tokens if token.kind == "var"]
    return _Parser(tokens).parse(), names


def first_missing(names: list[str], variables: Any) -> Optional[str]:
    """The first of ``names`` that ``variables`` does not hold."""
    for name in names:
        if name not in variables:
            return name
    return None
