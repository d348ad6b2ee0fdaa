"""Keeping secrets out of errors, logs and caches."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["SECRET_KEYS", "is_secret_key", "redact", "scrub_text"]

SECRET_KEYS: frozenset[str] = frozenset(
    {
        "api_key",
        "admin_api_key",
        "azure_ad_token",
        "azure_ad_token_provider",
        "credentials",
        "webhook_secret",
        "workload_identity",
        "aws_secret_key",
        "aws_session_token",
        "gcp_auth_token",
    }
)

_SECRET_WORDS = ("key", "token", "secret", "password", "authorization", "credential")


def is_secret_key(name: str) -> bool:
    """True for config keys whose value must never be shown."""
    lowered = name.lower()
    return lowered in SECRET_KEYS or any(word in lowered for word in _SECRET_WORDS)


def redact(config: Mapping[str, Any]) -> dict[str, Any]:
    """Return a copy of ``config`` with secret values replaced by ``"***"`` (headers included)."""
    out: dict[str, Any] = {}
    for key, value in config.items():
        if is_secret_key(str(key)):
            out[key] = "***"
        elif isinstance(value, Mapping):
            out[key] = redact(value)
        else:
            out[key] = value
    return out


# Bearer tokens and OpenAI-style keys, in case an upstream message echoes one back.
_KEY_PATTERNS = [
    re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._\-]+"),
    re.compile(r"\bsk-[A-Za-z0-9_\-]{4,}"),
]


def scrub_text(text: str, *secrets: str) -> str:
    """Remove the given secret values and anything shaped like an API key from ``text``."""
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, "***")
    for pattern in _KEY_PATTERNS:
        text = pattern.sub(lambda m: (m.group(1) if m.groups() else "") + "***", text)
    return text
