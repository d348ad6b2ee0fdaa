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

import base64
import functools
import importlib.util
import io
import json
import logging
import math
import os
import re
import urllib.request
from typing import Any, Union

__all__ = [
    "count_token",
    "get_max_token_limit",
    "num_tokens_from_functions",
    "num_tokens_from_gpt_image",
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
                total += _count_content_parts(value, model)
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


def _count_content_parts(parts: list, model: str) -> int:
    total = 0
    for part in parts:
        if isinstance(part, str):
            total += len(split_tokens(part))
        elif isinstance(part, dict):
            if isinstance(part.get("text"), str):
                total += len(split_tokens(part["text"]))
            if isinstance(part.get("image_url"), dict):
                total += _image_part_tokens(part["image_url"], model)
    return total


_image_warning_given = False


@functools.lru_cache(maxsize=1)
def _pillow_installed() -> bool:
    return importlib.util.find_spec("PIL") is not None


def _image_part_tokens(image_url: dict[str, Any], model: str) -> int:
    """An image part's tokens, as the classic count: 0 without Pillow or for a model that takes no images."""
    global _image_warning_given
    if not _pillow_installed():
        if not _image_warning_given:
            logger.warning('Pillow is not installed: images count 0 tokens (pip install "autogen-classic[test]" has it).')
            _image_warning_given = True
        return 0
    try:
        return num_tokens_from_gpt_image(
            image_data=image_url.get("url"), model=model, low_quality=image_url.get("detail") == "low"
        )
    except ValueError as exc:
        logger.warning("Image tokens not counted: %s", exc)
        return 0


def token_left(input: Union[str, list, dict], model: str = "gpt-3.5-turbo-0613") -> int:
    """Return how many tokens of ``model``'s context window are left after ``input``."""
    return get_max_token_limit(model) - count_token(input, model=model)


def percentile_used(input: Union[str, list, dict], model: str = "gpt-3.5-turbo-0613") -> float:
    """Return the fraction of ``model``'s context window that ``input`` uses.

    As in the classic package, the tokens are counted with the default model's message framing.
    """
    return count_token(input) / get_max_token_limit(model)


def _text_tokens(text: Any) -> int:
    return len(split_tokens(text if isinstance(text, str) else str(text)))


def num_tokens_from_functions(functions: list[dict[str, Any]], model: str = "gpt-3.5-turbo-0613") -> int:
    """Estimate the tokens a list of function definitions adds to a request.

    Follows the classic accounting of how OpenAI renders functions into the prompt: the
    name and description, each parameter's name, type, description and enum values, plus a
    fixed overhead per function and per list; only the text counts are estimates (see the
    module docstring).

    Args:
        functions: function schemas ``{"name", "description", "parameters": {"properties": ...}}``.
        model: the model name (accepted for compatibility; the estimate is the same for every model).

    Raises:
        KeyError: a function has no ``name`` or ``description``, as in the classic package.
    """
    total = 0
    for function in functions:
        tokens = _text_tokens(function["name"]) + _text_tokens(function["description"]) - 2
        parameters = function.get("parameters")
        if parameters is not None and "properties" in parameters:
            properties = parameters["properties"]
            for name, spec in properties.items():
                tokens += _text_tokens(name)
                for field in spec:
                    if field == "type":
                        tokens += 2 + _text_tokens(spec["type"])
                    elif field == "description":
                        tokens += 2 + _text_tokens(spec["description"])
                    elif field == "enum":
                        tokens -= 3
                        for option in spec["enum"]:
                            tokens += 3 + _text_tokens(option)
                    else:
                        logger.warning("Not supported field %s", field)
            tokens += 11
            if len(properties) == 0:
                tokens -= 2
        total += tokens
    return total + 12


# Image token accounting of OpenAI's vision models: scale into max_edge x min_edge, then count tiles.
_IMAGE_PARAMS: dict[str, dict[str, int]] = {
    "gpt-4-vision": {"max_edge": 2048, "min_edge": 768, "tile_size": 512, "base": 85, "per_tile": 170},
    "gpt-4o-mini": {"max_edge": 2048, "min_edge": 768, "tile_size": 512, "base": 2833, "per_tile": 5667},
    "gpt-4o": {"max_edge": 2048, "min_edge": 768, "tile_size": 512, "base": 85, "per_tile": 170},
}
_DATA_URI = re.compile(r"data:image/(?:png|jpeg);base64,")


def _image_size(image_data: Any) -> tuple[int, int]:
    from PIL import Image  # noqa: PLC0415 - optional dependency

    if isinstance(image_data, Image.Image):
        return image_data.size
    text = str(image_data).strip("'\"")
    if text.startswith(("http://", "https://")):
        with urllib.request.urlopen(text, timeout=30) as response:  # noqa: S310 - the caller's own image URL
            raw = response.read()
    elif _DATA_URI.match(text):
        raw = base64.b64decode(_DATA_URI.sub("", text, count=1))
    elif os.path.exists(text):
        with open(text, "rb") as handle:
            raw = handle.read()
    else:
        raw = base64.b64decode(text)
    with Image.open(io.BytesIO(raw)) as image:
        return image.size


def num_tokens_from_gpt_image(
    image_data: Any, model: str = "gpt-4-vision", low_quality: bool = False
) -> int:
    """Return the tokens an image costs with an OpenAI vision model (0 when Pillow is not installed).

    The image is scaled so its longest edge is at most 2048 pixels and its shortest at most 768;
    the cost is a base count plus a count per 512x512 tile covering it (only the base count at
    low detail).

    Args:
        image_data: a PIL image, a file path, a URL, a ``data:image/...;base64,`` URI or base64 text.
        model: "gpt-4-vision" (also "gpt-4-turbo", "gpt-4v"), "gpt-4o" or "gpt-4o-mini".
        low_quality: whether the image is sent with ``"detail": "low"``.

    Raises:
        ValueError: the model is not a vision model listed above.
    """
    if not _pillow_installed():  # as in the classic package without Pillow
        return 0
    if any(name in model for name in ("gpt-4-vision", "gpt-4-turbo", "gpt-4v", "gpt-4-v")):
        params = _IMAGE_PARAMS["gpt-4-vision"]
    elif "gpt-4o-mini" in model:
        params = _IMAGE_PARAMS["gpt-4o-mini"]
    elif "gpt-4o" in model:
        params = _IMAGE_PARAMS["gpt-4o"]
    else:
        raise ValueError(
            f"Model {model} is not supported. Choose 'gpt-4-vision', 'gpt-4-turbo', 'gpt-4v', 'gpt-4-v', 'gpt-4o', "
            "or 'gpt-4o-mini'."
        )
    if low_quality:
        return params["base"]
    width, height = _image_size(image_data)
    if max(width, height) > params["max_edge"]:
        scale = params["max_edge"] / max(width, height)
        width, height = int(width * scale), int(height * scale)
    if min(width, height) > params["min_edge"]:
        scale = params["min_edge"] / min(width, height)
        width, height = int(width * scale), int(height * scale)
    tiles = math.ceil(width / params["tile_size"]) * math.ceil(height / params["tile_size"])
    return params["base"] + params["per_tile"] * tiles


def _num_token_from_messages(messages: Union[list, dict], model: str = "gpt-3.5-turbo-0613") -> int:
    """The tokens of a list of messages (the classic private name, which classic tests import)."""
    return _count_message_tokens(messages, model)
