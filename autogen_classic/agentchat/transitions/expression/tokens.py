"""The tokens of ``ContextExpression`` text, and the error found in an expression.

Errors carry the exception type the expression raises (``SyntaxError`` for text that is not an
expression, ``ValueError`` for an operation the language refuses) and the 0-based position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

__all__ = ["ALLOWED", "REFUSED_WORDS", "ExpressionProblem", "Token", "tokenize"]

ALLOWED = "allowed: ${name}, quoted strings, numbers, True/False/None, == != < <= > >=, and/or/not (& | !), len(${name}) and parentheses"
_NUMBER = re.compile(
    r"0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+"
    r"|(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?"
)
_NAME = re.compile(r"[^\W\d]\w*")
# Operators of the language, longest first.
_OPERATORS = ("==", "!=", "<=", ">=", "<", ">", "!", "&", "|", "-", "(", ")", ",")
# Python operators the language refuses (ValueError, as the classic package), with what to write instead.
_REFUSED = {
    "**": "arithmetic", "//": "arithmetic", "<<": "arithmetic", ">>": "arithmetic", "+": "arithmetic",
    "*": "arithmetic", "/": "arithmetic", "%": "arithmetic", "~": "arithmetic", "^": "arithmetic",
    "@": "arithmetic", "[": "indexing and lists", "]": "indexing and lists", "{": "dicts and sets",
    "}": "dicts and sets", ".": "attribute access", ":": "slices and lambdas",
}
_MISTYPED = {
    "===": "write == to compare",
    "&&": "write 'and' (or '&')",
    "||": "write 'or' (or '|')",
    "<>": "write != to compare",
    "=": "write == to compare",
}
REFUSED_WORDS = {
    "is": "identity tests are not allowed: compare with == or !=",
    "in": "membership tests are not allowed: compare with == or !=, or test len(${name})",
    "if": "conditional expressions are not allowed: combine conditions with and / or",
    "else": "conditional expressions are not allowed: combine conditions with and / or",
    "lambda": "lambdas are not allowed",
    "for": "comprehensions are not allowed",
    "await": "await is not allowed",
    "yield": "yield is not allowed",
}
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "0": "\0"}


class ExpressionProblem(Exception):
    """A problem found in an expression: ``kind`` is the exception type to raise, ``pos`` where."""

    def __init__(self, kind: type[Exception], message: str, pos: int) -> None:
        super().__init__(message)
        self.kind, self.message, self.pos = kind, message, pos


@dataclass
class Token:
    kind: str  # "var", "str", "num", "name", "op", "end"
    text: str
    pos: int
    value: Any = None

    def shown(self) -> str:
        return "the end of the expression" if self.kind == "end" else f"'{self.text}'"


# ----------------------------------------------------------------------------------------------- tokens
def tokenize(source: str) -> list[Token]:
    """The tokens of ``source``, ending with an "end" token."""
    tokens: list[Token] = []
    i, n = 0, len(source)
    while i < n:
        ch = source[i]
        if ch.isspace():
            i += 1
        elif source.startswith("${", i):
            tokens.append(_variable(source, i))
            i += len(tokens[-1].text)
        elif ch in "'\"":
            tokens.append(_string(source, i))
            i += len(tokens[-1].text)
        elif ch.isdigit() or (ch == "." and i + 1 < n and source[i + 1].isdigit()):
            tokens.append(_number(source, i))
            i += len(tokens[-1].text)
        elif _NAME.match(source, i):
            text = _NAME.match(source, i).group(0)  # type: ignore[union-attr]
            tokens.append(Token("name", text, i))
            i += len(text)
        else:
            tokens.append(_operator(source, i))
            i += len(tokens[-1].text)
    tokens.append(Token("end", "", n))
    return tokens


def _variable(source: str, start: int) -> Token:
    end = source.find("}", start + 2)
    if end < 0:
        raise ExpressionProblem(
            SyntaxError, f"'${{' at position {start} is not closed; write a variable as ${{name}}", start
        )
    name = source[start + 2 : end]
    if "." in name and all(part.isidentifier() for part in name.split(".")):
        # An attribute of a variable: AG2 Classic 0.14.1 refuses it as a ValueError with these words.
        head = name.split(".")[0]
        raise ExpressionProblem(
            ValueError,
            f"Operation type Attribute is not allowed in logical expressions ('${{{name}}}' at position {start}: "
            f"a context variable is read whole; keep '{name.split('.', 1)[1]}' in a variable of its own, or test "
            f"${{{head}}})",
            start,
        )
    if not name.isidentifier():
        what = "has no name" if not name.strip() else f"has the name '{name}', which is not one"
        raise ExpressionProblem(
            SyntaxError,
            f"'${{{name}}}' at position {start} {what}: a context variable is written ${{name}}, its name made of "
            "letters, digits and _ (not starting with a digit)",
            start,
        )
    return Token("var", source[start : end + 1], start, name)


def _string(source: str, start: int) -> Token:
    quote, i, chars = source[start], start + 1, []
    while i < len(source):
        ch = source[i]
        if ch == quote:
            return Token("str", source[start : i + 1], start, "".join(chars))
        if ch == "\\" and i + 1 < len(source):
            chars.append(_ESCAPES.get(source[i + 1], "\\" + source[i + 1]))
            i += 2
            continue
        chars.append(ch)
        i += 1
    raise ExpressionProblem(
        SyntaxError, f"the string starting at position {start} is not closed; end it with {quote}", start
    )


def _number(source: str, start: int) -> Token:
    match = _NUMBER.match(source, start)
    text = match.group(0) if match else source[start]
    end = start + len(text)
    if end < len(source) and (source[end].isalnum() or source[end] == "_"):
        raise ExpressionProblem(
            SyntaxError,
            f"invalid number '{text}{source[end]}...' at position {start}; leave a space after a number, and "
            "write a context variable as ${name}",
            start,
        )
    digits = text.replace("_", "")
    if digits[:2].lower() in ("0x", "0o", "0b"):
        value: Any = int(digits, 0)
    elif any(c in digits for c in ".eE"):
        value = float(digits)
    elif len(digits) > 1 and digits[0] == "0" and digits.strip("0"):
        raise ExpressionProblem(
            SyntaxError, f"the number '{text}' at position {start} has a leading zero; write {int(digits)}", start
        )
    else:
        value = int(digits)
    return Token("num", text, start, value)


def _operator(source: str, start: int) -> Token:
    for text, fix in _MISTYPED.items():  # the longer look-alikes first: "===" is not "==" then "="
        if text != "=" and source.startswith(text, start):
            raise ExpressionProblem(SyntaxError, f"'{text}' at position {start} is not an operator; {fix}", start)
    refused = [text for text in _REFUSED if source.startswith(text, start)]
    if refused and len(refused[0]) == 2:  # "<<" is refused before "<" is taken
        return _refuse(refused[0], start)
    for text in _OPERATORS:
        if source.startswith(text, start):
            return Token("op", text, start)
    if source.startswith("=", start):
        raise ExpressionProblem(SyntaxError, f"'=' at position {start} is not an operator; {_MISTYPED['=']}", start)
    if refused:
        return _refuse(refused[0], start)
    raise ExpressionProblem(
        SyntaxError, f"unexpected character '{source[start]}' at position {start}; {ALLOWED}", start
    )


def _refuse(text: str, start: int) -> Token:
    raise ExpressionProblem(
        ValueError, f"'{text}' at position {start} is not allowed ({_REFUSED[text]}); {ALLOWED}", start
    )
