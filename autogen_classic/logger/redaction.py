"""Keeping secrets out of everything the package writes: logs, transcripts, run directories, errors.

The one place that knows which names hold secrets and how they are masked. It sits at the bottom of
the package (it imports nothing of it), so the loggers, the model client, the group chat and the
studies all use the same rules:

- A value stored under a secret name (``api_key``, ``API_KEY``, ``password``, ``Authorization``, ...,
  compared without regard to case) is replaced by ``"***REDACTED***"``, at any depth and inside lists.
- The values of header maps (``default_headers``, ``extra_headers``, ``headers``) are replaced too:
  any header may carry a credential.
- The JSON text of a model's tool or function call (the ``arguments`` of a message) and of a
  tool's reply (the ``content`` of a ``"tool"`` or ``"function"`` message) is redacted inside,
  since the arguments a model writes and the values a tool returns may hold a key.
- A password written into a URL setting (``base_url="https://user:secret@host"``) is masked.
- Text (an error message) is scrubbed of given secret values and of key-shaped words.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

__all__ = [
    "CLASSIC_SENSITIVE_KEYS",
    "REDACTED",
    "SENSITIVE_KEYS",
    "exception_chain",
    "get_sensitive_exclude_keys",
    "is_secret_key",
    "is_sensitive_key",
    "redact",
    "redact_secrets",
    "redact_url",
    "scrub_exception",
    "scrub_text",
]

REDACTED = "***REDACTED***"

# The names classic AutoGen (0.14) masks, compared in lower case.
CLASSIC_SENSITIVE_KEYS: frozenset[str] = frozenset(
    {
        "api_key",
        "api-key",
        "apikey",
        "password",
        "secret",
        "credential",
        "authorization",
        "bearer",
        "access_token",
        "refresh_token",
        "auth_token",
        "api_token",
        "azure_ad_token",
        "azure_ad_token_provider",
        "azure_endpoint",
    }
)

# Names this package masks as well: the credential settings of the providers it configures, the
# credential headers it may send, and the plain words people name secrets with.
_MORE_SENSITIVE_KEYS = frozenset(
    {
        "token",
        "credentials",
        "passwd",
        "admin_api_key",
        "openai_api_key",
        "azure_openai_api_key",
        "x-api-key",
        "proxy-authorization",
        "ocp-apim-subscription-key",
        "client_secret",
        "private_key",
        "session_token",
        "id_token",
        "webhook_secret",
        "workload_identity",
        "aws_access_key",
        "aws_secret_key",
        "aws_session_token",
        "gcp_auth_token",
    }
)

SENSITIVE_KEYS: frozenset[str] = CLASSIC_SENSITIVE_KEYS | _MORE_SENSITIVE_KEYS

# Endings that make any name a secret one (``db_password``, ``anthropic_api_key``, ``x-goog-api-key``).
# Not "_token": model settings such as ``eos_token`` hold none.
_SENSITIVE_ENDINGS = ("_api_key", "-api-key", "_secret", "_secret_key", "_password")

# Maps whose every value is a header: any header may carry a credential.
_HEADER_MAPS = frozenset({"default_headers", "extra_headers", "headers", "http_headers"})

# Names of settings that hold a URL (``base_url``, ``websocket_base_url``, ``api_base``): a password
# written into one is masked. Message text is left as it is.
_URL_ENDINGS = ("url", "uri", "endpoint", "api_base")

# Where a model writes a call's arguments as JSON text; and, in a tool's reply, the returned value.
_JSON_TEXT_KEYS = frozenset({"arguments"})
_REPLY_JSON_KEYS = frozenset({"arguments", "content"})

# Nesting deeper than this is not data worth keeping: redact_secrets masks it whole.
_SECRETS_DEPTH = 100


def is_sensitive_key(name: Any) -> bool:
    """Whether a value stored under ``name`` is a secret (``api_key``, ``API_KEY``, ``Authorization``, ...).

    Exact names, compared in lower case, plus a few endings (``_api_key``, ``_secret``, ``_password``):
    ``max_tokens`` or ``cache_key`` are not secrets.

    Args:
        name: a dict key; only text can be a secret name.
    """
    if not isinstance(name, str):
        return False
    lowered = name.lower()
    return lowered in SENSITIVE_KEYS or lowered.endswith(_SENSITIVE_ENDINGS)


_SECRET_WORDS = ("key", "token", "secret", "password", "authorization", "credential")


def is_secret_key(name: str) -> bool:
    """Whether a setting called ``name`` may hold a secret, by a looser rule than :func:`is_sensitive_key`.

    Also true for any name containing "key", "token", "secret", "password", "authorization" or
    "credential": right for deciding whether an error message may echo a value, too broad for
    masking the data written to a log.

    Args:
        name: the setting's name.
    """
    lowered = name.lower()
    return is_sensitive_key(lowered) or any(word in lowered for word in _SECRET_WORDS)


def get_sensitive_exclude_keys() -> tuple[str, ...]:
    """The names a logger leaves out of the constructor arguments it records.

    ``"self"`` and ``"__class__"`` (the object itself), then every sensitive name.
    """
    return ("self", "__class__", *sorted(SENSITIVE_KEYS))


@functools.lru_cache(maxsize=4096)
def _name_rule(name: str) -> tuple[bool, str]:
    """Whether ``name`` is a secret name, and ``name`` in lower case.

    Remembered: every event and log record is redacted before it is written, and its dicts use the
    same few keys again and again.
    """
    return is_sensitive_key(name), name.lower()


class _Walk:
    """One redaction pass: ``depth`` levels of containers, cycles cut."""

    def __init__(self, when_too_deep: Any) -> None:
        self.when_too_deep = when_too_deep  # what a container past the depth limit becomes
        self.active: set[int] = set()  # ids of the containers on the current path

    def value(self, data: Any, depth: int) -> Any:
        kind = type(data)  # exact types first: events and records are plain dicts, lists and text
        if kind in _PLAIN_TYPES or isinstance(data, (str, int, float, bool, type(None))):
            return data
        mapping = kind is dict or isinstance(data, Mapping)
        if not mapping and not isinstance(data, (list, tuple, set)):
            return data
        if depth <= 0:
            return data if self.when_too_deep is _KEEP else self.when_too_deep
        if not data and (kind is dict or kind is list):
            return kind()  # nothing inside to mask or to follow
        if id(data) in self.active:
            return f"<<circular reference: {type(data).__qualname__}>>"
        self.active.add(id(data))
        try:
            if mapping:
                # A tool's or function's reply holds its return value as JSON text under "content".
                json_keys = _REPLY_JSON_KEYS if data.get("role") in ("tool", "function") else _JSON_TEXT_KEYS
                return {key: self.entry(key, item, depth, json_keys) for key, item in data.items()}
            items = [self.value(item, depth - 1) for item in data]
            if isinstance(data, list):
                return items
            if isinstance(data, tuple) and hasattr(data, "_fields"):  # a named tuple takes its fields as arguments
                return type(data)(*items)
            try:
                return type(data)(items)
            except TypeError:  # a sequence type that cannot be rebuilt from its items
                return items
        finally:
            self.active.discard(id(data))

    def entry(self, key: Any, item: Any, depth: int, json_keys: frozenset[str]) -> Any:
        if type(key) is str:
            secret, lowered = _name_rule(key)
        else:
            secret, lowered = is_sensitive_key(key), key.lower() if isinstance(key, str) else None
        if secret:
            return REDACTED
        if lowered is not None:
            if lowered in _HEADER_MAPS:
                if isinstance(item, Mapping):
                    return dict.fromkeys(item, REDACTED)
                return item if item is None else REDACTED
            if isinstance(item, str):
                if lowered in json_keys:
                    return self.json_text(item, depth)
                if lowered.endswith(_URL_ENDINGS) and "://" in item:
                    return redact_url(item)
                return item  # other text is kept as it is (what ``value`` would return)
        return self.value(item, depth - 1)

    def json_text(self, text: str, depth: int) -> str:
        """JSON text (a call's arguments) with its secrets masked; other text unchanged."""
        lowered = text.lower()
        if not any(name in lowered for name in _CHEAP_HINTS):
            return text
        try:
            data = json.loads(text)
        except ValueError:
            return text
        if not isinstance(data, (dict, list)):
            return text
        cleaned = self.value(data, depth - 1)
        return text if cleaned == data else json.dumps(cleaned)


_KEEP = object()
_PLAIN_TYPES = frozenset({str, int, float, bool, type(None)})
# Fragments of which at least one appears in any text holding a secret name (cheap pre-check).
_CHEAP_HINTS = ("key", "token", "secret", "password", "passwd", "credential", "authorization", "bearer",
                "azure_endpoint", "workload_identity", "headers", "://")


def redact(data: Any, depth: int = 10) -> Any:
    """Return a copy of ``data`` with the values of secret names replaced by ``"***REDACTED***"``.

    Dicts are copied key by key; lists, tuples and sets item by item (to ``depth`` levels of
    containers, as in classic AutoGen; deeper data is returned as it is). Names are compared
    without regard to case: ``api_key``, ``API_KEY``, ``password``, ``secret``, ``authorization``,
    ``access_token``, ``azure_endpoint``, ... (see ``SENSITIVE_KEYS``). Header maps
    (``default_headers``, ...) keep their header names with every value masked; a call's JSON
    ``arguments`` text is masked inside; a password in a URL is masked. Other text is not changed.

    Args:
        data: the value to copy (dicts, lists, tuples, sets and plain values; other objects are
            returned as they are).
        depth: how many levels of containers to go into.
    """
    return _Walk(_KEEP).value(data, depth)


def redact_secrets(data: Any) -> Any:
    """:func:`redact` at every depth: what the package applies before writing anything.

    Cycles become ``"<<circular reference: Type>>"``; containers nested deeper than 100 levels are
    masked whole.

    Args:
        data: the value to copy.
    """
    return _Walk(REDACTED).value(data, _SECRETS_DEPTH)


def redact_url(url: str) -> str:
    """Return ``url`` with a password in its user part and the values of secret query parameters masked.

    ``https://user:pw@host/v1`` becomes ``https://user:***REDACTED***@host/v1`` (a lone user part,
    often a token, is masked whole); ``?api-key=...``, ``?key=...``, ``?sig=...`` values too. Text
    that is not a URL comes back unchanged.

    Args:
        url: the URL (or any text).
    """
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    if not parts.scheme or not parts.netloc:
        return url
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, host = netloc.rpartition("@")
        user, colon, _ = userinfo.partition(":")
        netloc = f"{user}:{REDACTED}@{host}" if colon else f"{REDACTED}@{host}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        if any(_secret_parameter(name) for name, _ in pairs):
            query = urlencode([(n, REDACTED if _secret_parameter(n) else v) for n, v in pairs], safe="*")
    if netloc == parts.netloc and query == parts.query:
        return url
    return f"{parts.scheme}://{netloc}{parts.path}" + (f"?{query}" if query else "") + (
        f"#{parts.fragment}" if parts.fragment else ""
    )


def _secret_parameter(name: str) -> bool:
    return is_sensitive_key(name) or name.lower() in ("key", "sig", "code", "access_token")


# ----------------------------------------------------------------- text (error messages)
# Bearer tokens and OpenAI-style keys, in case an upstream message echoes one back.
_KEY_PATTERNS = [
    re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._\-]+"),
    re.compile(r"\bsk-[A-Za-z0-9_\-]{4,}"),
]


def scrub_text(text: str, *secrets: str) -> str:
    """Remove the given secret values and anything shaped like an API key from ``text`` (each becomes ``***``).

    Args:
        text: an error message or any text that may echo a secret.
        *secrets: the values to remove (shorter than 4 characters: ignored).
    """
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

    Args:
        error: the error to scrub.
        *secrets: the secret values to remove (besides anything shaped like a key).
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
    """``error`` and the exceptions it was raised from (``__cause__``, else ``__context__``), outermost first.

    Args:
        error: the outermost error.
    """
    chain: list[BaseException] = []
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain
