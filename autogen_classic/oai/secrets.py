"""Keeping secrets out of errors, logs and caches: the model client's view of ``logger.redaction``.

The rules (which names hold secrets, how values and text are masked) live in
``autogen_classic.logger.redaction``, below every layer that writes; this module re-exports them
for the model client and adds the one check that is the client's own, the shape of an OpenAI key.
"""

from __future__ import annotations

import re

from ..logger.redaction import (
    SENSITIVE_KEYS,
    exception_chain,
    is_secret_key,
    redact,
    redact_url,
    scrub_exception,
    scrub_text,
)

__all__ = [
    "SECRET_KEYS",
    "exception_chain",
    "is_secret_key",
    "is_valid_api_key",
    "redact",
    "redact_url",
    "scrub_exception",
    "scrub_text",
]

# The names whose values are secrets (compared in lower case).
SECRET_KEYS: frozenset[str] = SENSITIVE_KEYS

_OPENAI_KEY_SHAPE = re.compile(r"^sk-[A-Za-z0-9_-]{48,}$")


def is_valid_api_key(api_key: str) -> bool:
    """Whether ``api_key`` has the shape of an OpenAI API key ("sk-" and at least 48 more
    letters, digits, "_" or "-"). Only the shape is checked, not whether the key works.

    Args:
        api_key: the key to check.
    """
    return bool(_OPENAI_KEY_SHAPE.fullmatch(api_key))
