"""Cache keys: a stable hash of what was asked, never of who asked or with which secret."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

__all__ = ["NON_CACHE_KEY", "get_key"]

# Connection settings and secrets do not change the answer a model gives, and must never
# reach a cache file, so they are left out of the key. (A list, as classic code may extend it.)
NON_CACHE_KEY: list[str] = sorted(
    {
        "api_key",
        "admin_api_key",
        "base_url",
        "api_type",
        "api_version",
        "azure_endpoint",
        "azure_deployment",
        "azure_ad_token",
        "azure_ad_token_provider",
        "credentials",
        "organization",
        "project",
        "webhook_secret",
        "workload_identity",
        "default_headers",
        "default_query",
        "extra_headers",
        "extra_query",
        "http_client",
        "timeout",
        "max_retries",
        "aws_access_key",
        "aws_secret_key",
        "aws_session_token",
        "gcp_auth_token",
        "google_application_credentials",
    }
)
_NON_CACHE = frozenset(NON_CACHE_KEY)


def _jsonable(value: Any) -> Any:
    """Turn values json cannot encode into stable, equivalent JSON data."""
    model_json_schema = getattr(value, "model_json_schema", None)
    if isinstance(value, type) and callable(model_json_schema):
        # A pydantic class used as response_format: its schema is what the model sees.
        return {"__schema__": value.__name__, "schema": model_json_schema()}
    model_dump = getattr(value, "model_dump", None)
    if callable(model_dump):
        return model_dump(mode="json")
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, bytes):
        return value.hex()
    return repr(value)


def get_key(config: Mapping[str, Any]) -> str:
    """Return a stable key (SHA-256 hex digest) for a request.

    Args:
        config: the request parameters (``messages``, ``model``, ``temperature``, ``tools``, ...).
            Secrets and connection settings (``api_key``, ``API_KEY``, ``base_url``, ``timeout``, ...)
            are ignored, so they never influence or appear in a cache entry.

    Returns:
        A 64-character hexadecimal string; equal requests give equal keys in every process.
    """
    if not isinstance(config, Mapping):
        raise TypeError(f"get_key: config must be a dict of request parameters, got {type(config).__name__}")
    # Compared in lower case too: an "API_KEY" passed along with a request is no part of the question.
    cleaned = {k: v for k, v in config.items() if k not in _NON_CACHE and str(k).lower() not in _NON_CACHE}
    text = json.dumps(cleaned, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=_jsonable)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
