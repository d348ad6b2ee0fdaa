"""What the loggers record about a source, and how logged values are encoded as JSON.

Agents, wrappers and clients are read duck-typed (``.name``, ``.client``, ``id(...)``, the
class name): this layer knows nothing of the classes that call it.
"""

from __future__ import annotations

import datetime
import decimal
import json
import os
import uuid
from typing import Any, Optional

from ..types import is_agent
from .logger_utils import convert
from .redaction import is_sensitive_key, redact_secrets

__all__ = [
    "SourceFields",
    "check_config",
    "config_data",
    "dumps_line",
    "encode_config",
    "encode_data",
    "encode_request",
    "encode_response",
    "function_name",
    "plain_data",
    "request_data",
    "safe_serialize",
    "source_fields",
    "wrapper_id_of",
]


class _Excluded(frozenset):
    """Names left out of logged constructor arguments: these, compared in lower case, and every secret name."""

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and (frozenset.__contains__(self, key.lower()) or is_sensitive_key(key))


# Constructor arguments never written to a log: the object itself, credentials (see redaction), the
# endpoint address and live connection objects (the classic exclusions).
_NOT_INIT_ARGS = _Excluded({"self", "__class__", "organization", "base_url", "http_client"})
# Request parameters never written to a log: the endpoint and connection (secrets are masked in place).
_NOT_REQUEST = frozenset({"self", "__class__", "organization", "base_url", "http_client"})

SourceFields = tuple[Optional[int], Optional[str], Optional[str], Optional[str]]


def source_fields(source: Any) -> SourceFields:
    """``(source_id, source_name, agent_module, agent_class_name)`` of an agent, a name or None.

    Module and class are filled for agents only, as in the classic events table.
    """
    if source is None:
        return None, None, None, None
    if isinstance(source, str):
        return id(source), source, None, None
    if is_agent(source):
        cls = type(source)
        return id(source), str(source.name), cls.__module__, cls.__name__
    name = getattr(source, "name", None)
    return id(source), str(name) if name is not None else type(source).__name__, None, None


def wrapper_id_of(agent: Any) -> Any:
    """``id(agent.client)``, or ``""`` for an agent without a model client (the classic value)."""
    client = getattr(agent, "client", None)
    return id(client) if client is not None else ""


def function_name(function: Any) -> str:
    """The name a function is logged under."""
    if isinstance(function, str):
        return function
    return str(getattr(function, "__name__", None) or type(function).__name__)


def _json_default(value: Any) -> Any:
    if isinstance(value, (uuid.UUID, datetime.date, datetime.time, decimal.Decimal, os.PathLike)):
        return str(value)
    return f"<<non-serializable: {type(value).__qualname__}>>"


def config_data(value: Any) -> Any:
    """Constructor arguments as JSON-ready data, agents as text: secrets left out, header values masked."""
    return redact_secrets(convert(value, _NOT_INIT_ARGS, is_agent))


def request_data(value: Any) -> Any:
    """A model request as JSON-ready data, the values of secret names masked (``"***REDACTED***"``)."""
    return redact_secrets(convert(value, _NOT_REQUEST, is_agent))


def plain_data(value: Any) -> Any:
    """Message, argument or return data as JSON-ready data, agents as text, secrets masked."""
    return redact_secrets(convert(value, (), is_agent))


def _dumps(data: Any, indent: Optional[int] = None) -> str:
    return json.dumps(data, default=_json_default, indent=indent)


def encode_config(value: Any) -> str:
    """``config_data(value)`` as JSON text."""
    return _dumps(config_data(value))


def encode_request(value: Any) -> str:
    """``request_data(value)`` as JSON text."""
    return _dumps(request_data(value))


def encode_data(value: Any) -> str:
    """``plain_data(value)`` as JSON text."""
    return _dumps(plain_data(value))


def encode_response(response: Any) -> str:
    """A model response as JSON text (indented, as classic logs hold it).

    A text answer, and a missing one (None), is written as ``{"response": text}`` (``{"response": null}``).
    """
    if response is None or isinstance(response, str):
        return _dumps({"response": response})
    return _dumps(plain_data(response), indent=4)


def safe_serialize(obj: Any) -> str:
    """``obj`` as JSON text; values JSON cannot hold become ``"<<non-serializable: Type>>"``.

    Args:
        obj: the value to write.
    """
    return _dumps(obj)


def dumps_line(record: dict[str, Any]) -> str:
    """One JSON line (no newline) for a record whose values are JSON-ready data."""
    return _dumps(record)


def check_config(config: Any, key: str, logger_type: str) -> dict[str, Any]:
    """Return a logger's ``config`` as a dict, refusing anything but a dict (or None) of its one key.

    Args:
        config: the ``config`` given to ``runtime_logging.start`` or the logger.
        key: the key this logger reads ("dbname" or "filename").
        logger_type: "sqlite" or "file", named in errors.
    """
    if config is None:
        return {}
    if not isinstance(config, dict):
        raise TypeError(
            f"runtime logging: config must be a dict (or None), got {type(config).__name__}; "
            f"e.g. config={{{key!r}: ...}} for logger_type={logger_type!r}."
        )
    unknown = sorted(str(name) for name in config if name != key)
    if unknown:
        raise ValueError(
            f"runtime logging: unknown config key(s) {unknown} for logger_type={logger_type!r}; "
            f"the only key is {key!r}."
        )
    return config
