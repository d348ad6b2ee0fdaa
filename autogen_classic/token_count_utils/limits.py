"""The context windows of the OpenAI models (the classic table) and ``get_max_token_limit``."""

from __future__ import annotations

import re

__all__ = ["UnknownModelError", "get_max_token_limit"]

# Context windows in tokens, as the classic package lists them (a model's dated snapshots included).
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
    **dict.fromkeys(
        [
            "gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-5-pro", "gpt-5-search-api",
            "gpt-5.1", "gpt-5.1-chat-latest", "gpt-5.1-codex", "gpt-5.1-codex-mini", "gpt-5.1-codex-max",
            "codex-mini-latest",
            "gpt-5.2", "gpt-5.2-chat-latest", "gpt-5.2-pro", "gpt-5.2-codex", "gpt-5.2-codex-max",
            "gpt-5.3", "gpt-5.3-chat-latest",
            "gpt-5.4", "gpt-5.4-chat-latest", "gpt-5.4-pro",
        ],
        128000,
    ),
    **dict.fromkeys(
        [
            "gpt-4.1", "gpt-4.1-2025-04-14", "gpt-4.1-mini", "gpt-4.1-mini-2025-04-14",
            "gpt-4.1-nano", "gpt-4.1-nano-2025-04-14",
        ],
        1047576,
    ),
    "o1": 200000,
    "o1-2024-12-17": 200000,
    "o1-mini": 128000,
    "o1-mini-2024-09-12": 128000,
    "o1-preview": 128000,
    "o1-preview-2024-09-12": 128000,
    "o1-pro": 200000,
    "o1-pro-2025-03-19": 200000,
    "o3": 200000,
    "o3-mini": 200000,
    "o3-mini-2025-01-31": 200000,
    "o4-mini": 200000,
    "o4-mini-2025-04-16": 200000,
}


class UnknownModelError(KeyError, ValueError):
    """Raised by :func:`get_max_token_limit` for a model whose context window is not known.

    A ``KeyError`` (as in classic AutoGen) and a ``ValueError`` at once.
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


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
        known = ", ".join(_MAX_TOKEN_LIMIT)
        raise UnknownModelError(f"model {model!r} has no known token limit; known models: {known}") from None
