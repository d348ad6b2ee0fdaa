"""An offline estimate of cl100k-style token counts, used when the exact encodings are not installed.

The estimate is made in two steps:

1. Pre-tokenise the text like the cl100k tokenizer does: contractions (``'s``, ``'ll``...),
   runs of letters with at most one leading space or punctuation mark, runs of up to three
   digits, runs of punctuation with trailing newlines, and runs of whitespace.
2. Split each piece that a BPE vocabulary would not hold whole into chunks: letter runs
   longer than ``_MAX_WORD_CHARS`` characters, punctuation runs longer than
   ``_MAX_PUNCT_CHARS`` and whitespace runs longer than ``_MAX_SPACE_CHARS``. Non-ASCII
   letters cost about one token per two characters, as in the real vocabularies.

The pieces concatenate back to the input exactly, so the same split serves to count and to
truncate. Over whole documents of English prose or Python code the estimate is typically within
a few percent of cl100k's count, slightly on the high side; single short strings can differ by a
token or two.
"""

from __future__ import annotations

import re

__all__ = ["split_tokens", "truncate_estimated"]

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
    """Split ``text`` into estimated tokens; ``"".join(split_tokens(text)) == text`` always holds.

    This is the offline estimate (no vocabulary needed); ``count_token`` counts exactly when
    the OpenAI encodings are installed.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    pieces: list[str] = []
    for match in _PRE_TOKEN.finditer(text):
        pieces.extend(_split_piece(match.group()))
    return pieces


def truncate_estimated(text: str, n_tokens: int) -> str:
    """The longest prefix of ``text`` made of at most ``n_tokens`` estimated tokens."""
    if n_tokens <= 0:
        return ""
    return "".join(split_tokens(text)[:n_tokens])
