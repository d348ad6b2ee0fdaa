"""Offline token counting: a deterministic estimate of OpenAI (cl100k-style) token counts.

Exact counts need a model's BPE vocabulary, which tokenizer libraries download on first
use; nothing here may download at run time. So the count is an estimate made in two steps:

1. Pre-tokenise the text like the cl100k tokenizer does: contractions (``'s``, ``'ll``...),
   runs of letters with at most one leading space or punctuation mark, runs of up to three
   digits, runs of punctuation with trailing newlines, and runs of whitespace.
2. Split each piece that a BPE vocabulary would not hold whole into chunks: letter runs
   longer than ``_MAX_WORD_CHARS`` characters, punctuation runs longer than
   ``_MAX_PUNCT_CHARS`` and whitespace runs longer than ``_MAX_SPACE_CHARS``. Non-ASCII
   letters cost about one token per two characters, as in the real vocabularies.

The pieces concatenate back to the input exactly, so the same split is used both to count
and to truncate text to a number of tokens (:func:`truncate_to_tokens`). Over whole
documents of English prose or Python code the estimate is typically within a few percent of
cl100k's count, slightly on the high side (a safe direction for limits); single short
strings can differ by a token or two. It never needs a network, and the same text always
gives the same number.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Union

__all__ = [
    "count_token",
    "get_max_token_limit",
    "percentile_used",
    "split_tokens",
    "token_left",
    "truncate_to_tokens",
    "UnknownModelError",
]

logger = logging.getLogger(__name__)

_LETTER = r"[^\W\d_]"
_PUNCT = r"(?:(?!\s)[\W_])"  # neither letter, digit nor whitespace (``_`` included)
_PRE_TOKEN = re.compile(
    r"'(?i:[sdmt]|ll|ve|re)"
    rf"|(?:[^\r\n\w]|_)?{_LETTER}+"
    r"|\d{1,3}"
    rf"| ?{_PUNCT}+[\r\n]*"
    r"|\s*[\r\n]+"
    r"|\s+(?!\S)"
    r"|\s+"
)
_MAX_WORD_CHARS = 9
_MAX_PUNCT_CHARS = 3
_MAX_SPACE_CHARS = 8
_NON_ASCII_CHARS = 2

# Context windows of the OpenAI chat models (the classic table).
_MAX_TOKEN_LIMIT: dict[str, int] = {
    "gpt-3.5-turbo": 16385,
    "gpt-3.5-turbo-0125": 16385,
    "gpt-3.5-turbo-0301": 4096,
    "gpt-3.5-turbo-0613": 4096,
    "gpt-3.5-turbo-instruct": 4096,
    "gpt-3.5-turbo-16k": 16385,
    "gpt-3.5-turbo-16k-0613": 16385,
    "gpt-3.5-turbo-1106": 16385,
    "gpt-4": 8192,
    "gpt-4-turbo": 128000,
    "gpt-4-turbo-2024-04-09": 128000,
    "gpt-4-32k": 32768,
    "gpt-4-32k-0314": 32768,
    "gpt-4-0314": 8192,
    "gpt-4-0613": 8192,
    "gpt-4-32k-0613": 32768,
    "gpt-4-1106-preview": 128000,
    "gpt-4-0125-preview": 128000,
    "gpt-4-turbo-preview": 128000,
    "gpt-4-vision-preview": 128000,
    "gpt-4o": 128000,
    "gpt-4o-2024-05-13": 128000,
    "gpt-4o-2024-08-06": 128000,
    "gpt-4o-2024-11-20": 128000,
    "gpt-4o-mini": 128000,
    "gpt-4o-mini-2024-07-18": 128000,
}

# Tokens an image part costs at low detail; the real cost of a high-detail image depends on
# its size, which would mean fetching it, so this is a lower bound.
_IMAGE_TOKENS = 85


class UnknownModelError(KeyError, ValueError):
    """Raised by :func:`get_max_token_limit` for a model whose context window is not known.

    A ``KeyError`` (as in classic AutoGen) and a ``ValueError`` at once.
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def _chunks(piece: str, size: int) -> list[str]:
    return [piece[i : i + size] for i in range(0, len(piece), size)]


def _split_piece(piece: str) -> list[str]:
    if piece.isspace():
        return _chunks(piece, _MAX_SPACE_CHARS)
    if not piece.isascii():
        # Non-Latin scripts take several tokens per word in BPE vocabularies.
        return _chunks(piece, _NON_ASCII_CHARS)
    letters = piece.lstrip(" ") if piece[:1] == " " else piece
    if letters[:1].isalpha():
        return _chunks(piece, _MAX_WORD_CHARS + (len(piece) - len(letters)))
    if piece[:1] not in " " and len(piece) > 1 and piece[1:].isalpha():
        # A punctuation mark glued to a word ("(x", "_class") is one token with it.
        return [piece[: _MAX_WORD_CHARS + 1]] + _chunks(piece[_MAX_WORD_CHARS + 1 :], _MAX_WORD_CHARS)
    body = piece.rstrip("\r\n")
    tail = piece[len(body) :]
    parts = _chunks(body, _MAX_PUNCT_CHARS) or [""]
    parts[-1] += tail  # trailing newlines merge with the punctuation before them
    return [p for p in parts if p]


def split_tokens(text: str) -> list[str]:
    """Split ``text`` into estimated tokens; ``"".join(split_tokens(text)) == text`` always holds."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    pieces: list[str] = []
    for match in _PRE_TOKEN.finditer(text):
        pieces.extend(_split_piece(match.group()))
    return pieces


def truncate_to_tokens(text: str, n_tokens: int) -> str:
    """Return the longest prefix of ``text`` made of at most ``n_tokens`` estimated tokens."""
    if n_tokens <= 0:
        return ""
    return "".join(split_tokens(text)[:n_tokens])


def get_max_token_limit(model: str = "gpt-3.5-turbo-0613") -> int:
    """Return the context window (in tokens) of an OpenAI chat model.

    Azure-style aliases are accepted (``gpt-35-turbo`` for ``gpt-3.5-turbo``, ``gpt4`` for ``gpt-4``).

    Raises:
        UnknownModelError: (a ``KeyError`` and ``ValueError``) for a model not in the table.
    """
    canonical = re.sub(r"^gpt\-?35", "gpt-3.5", model)
    canonical = re.sub(r"^gpt4", "gpt-4", canonical)
    try:
        return _MAX_TOKEN_LIMIT[canonical]
    except KeyError:
        known = ", ".join(sorted(_MAX_TOKEN_LIMIT))
        raise UnknownModelError(f"model {model!r} has no known token limit; known models: {known}") from None


def count_token(input: Union[str, list, dict], model: str = "gpt-3.5-turbo-0613") -> int:
    """Estimate the number of tokens ``input`` uses with an OpenAI model.

    Args:
        input: a text (``str``), one message (``dict``) or a list of messages. Messages are
            counted like the OpenAI chat format: 3 tokens of framing per message, the tokens of
            every field (non-string values as JSON), 1 more for a ``name``, and 3 for the reply primer.
        model: the model name; only ``gpt-3.5-turbo-0301`` counts the framing differently.

    Returns:
        The estimated number of tokens (see the module docstring for the method).
    """
    if isinstance(input, str):
        return len(split_tokens(input))
    if isinstance(input, (list, dict)):
        return _count_message_tokens(input, model)
    raise ValueError(f"input must be str, list or dict, but we got {type(input)}")


def _count_message_tokens(messages: Union[list, dict], model: str) -> int:
    if isinstance(messages, dict):
        messages = [messages]
    per_message, per_name = (4, -1) if model == "gpt-3.5-turbo-0301" else (3, 1)
    total = 0
    for message in messages:
        total += per_message
        if not isinstance(message, dict):
            total += count_token(str(message))
            continue
        for key, value in message.items():
            if value is None:
                continue
            if key == "content" and isinstance(value, list):
                total += _count_content_parts(value)
                continue
            if not isinstance(value, str):
                try:
                    value = json.dumps(value)
                except TypeError:
                    logger.warning(
                        "Field %r of a message is not JSON serialisable (%s); not counted.", key, type(value)
                    )
                    continue
            total += len(split_tokens(value))
            if key == "name":
                total += per_name
    return total + 3


def _count_content_parts(parts: list) -> int:
    total = 0
    for part in parts:
        if isinstance(part, str):
            total += len(split_tokens(part))
        elif isinstance(part, dict):
            if isinstance(part.get("text"), str):
                total += len(split_tokens(part["text"]))
            if "image_url" in part:
                total += _IMAGE_TOKENS
    return total


def token_left(input: Union[str, list, dict], model: str = "gpt-3.5-turbo-0613") -> int:
    """Return how many tokens of ``model``'s context window are left after ``input``."""
    return get_max_token_limit(model) - count_token(input, model=model)


def percentile_used(input: Union[str, list, dict], model: str = "gpt-3.5-turbo-0613") -> float:
    """Return the fraction of ``model``'s context window that ``input`` uses."""
    return count_token(input, model=model) / get_max_token_limit(model)

