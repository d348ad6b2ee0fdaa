"""Keeping secrets out of errors, logs and caches."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = [
    "SECRET_KEYS",
    "exception_chain",
    "is_secret_key",
    "is_valid_api_key",
    "redact",
    "scrub_exception",
    "scrub_text",
]

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


_OPENAI_KEY_SHAPE = re.compile(r"^sk-[A-Za-z0-9_-]{48,}$")


def is_valid_api_key(api_key: str) -> bool:
    """Whether ``api_key`` has the shape of an OpenAI API key ("sk-" and at least 48 more
    letters, digits, "_" or "-"). Only the shape is checked, not whether the key works.

    Args:
        api_key: the key to check.
    """
    return bool(_OPENAI_KEY_SHAPE.fullmatch(api_key))


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


def _scrub_data(data: Any, secrets: tuple[str, ...]) -> Any:
    if isinstance(data, str):
        return scrub_text(data, *secrets)
    if isinstance(data, Mapping):
        return {key: _scrub_data(value, secrets) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        items = [_scrub_data(item, secrets) for item in data]
        if all(new is old for new, old in zip(items, data)):
            return data  # nothing to remove: keep the object (and its type) as it is
        if hasattr(data, "_fields"):  # a named tuple takes its fields as arguments
            return type(data)(*items)
        try:
            return type(data)(items)
        except TypeError:  # a sequence type that cannot be rebuilt from its items: plain values will do
            return tuple(items) if isinstance(data, tuple) else items
    return data


def scrub_exception(error: BaseException, *secrets: str) -> BaseException:
    """Scrub ``error`` and the errors chained to it in place, and return it.

    An endpoint may echo what it was sent (a key in a 401 message, say); the SDK keeps that text in
    the error's ``args``, ``message`` and ``body``, which tracebacks and reprs print.
    """
    for current in exception_chain(error):
        current.args = tuple(_scrub_data(arg, secrets) for arg in current.args)
        for attribute in ("message", "body"):
            value = getattr(current, attribute, None)
            if value is not None:
                try:
                    setattr(current, attribute, _scrub_data(value, secrets))
                except AttributeError:  # a read-only property: nothing stored to scrub
                    pass
    return error


def exception_chain(error: BaseException) -> list[BaseException]:
    """``error`` and the exceptions it was raised from (``__cause__``, else ``__context__``), outermost first."""
    chain: list[BaseException] = []
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain
