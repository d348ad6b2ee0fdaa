"""Settings of ``OpenAIWrapper`` itself: the request routing, the classic lists of the SDK clients'
keyword arguments, and the DEBUG record of the cache a client answers through."""

from __future__ import annotations

import logging
from functools import lru_cache
from typing import Any

from .model_client import ModelClient

__all__ = [
    "AOPENAI_FALLBACK_KWARGS",
    "OPENAI_FALLBACK_KWARGS",
    "ROUTING_METHODS",
    "log_cache_seed_value",
    "routing_method_of",
]

logger = logging.getLogger("autogen_classic.oai")

# The keyword arguments of the SDK's OpenAI / AzureOpenAI clients, as classic code names them: AzureOpenAI
# takes OpenAI's but ``provider``, and its own endpoint settings.
_SHARED_CLIENT_KWARGS = {
    "api_key",
    "organization",
    "project",
    "base_url",
    "websocket_base_url",
    "timeout",
    "max_retries",
    "default_headers",
    "default_query",
    "http_client",
    "_strict_response_validation",
    "webhook_secret",
    "workload_identity",
    "_enforce_credentials",
    "admin_api_key",
}
OPENAI_FALLBACK_KWARGS = _SHARED_CLIENT_KWARGS | {"provider"}
AOPENAI_FALLBACK_KWARGS = _SHARED_CLIENT_KWARGS | {
    "azure_endpoint",
    "azure_deployment",
    "api_version",
    "azure_ad_token",
    "azure_ad_token_provider",
}

ROUTING_METHODS = ("fixed_order", "round_robin")


@lru_cache(maxsize=128)
def log_cache_seed_value(cache_seed_value: str | int, client: ModelClient) -> None:
    """Log (DEBUG, once per seed and client) that a client answers through the cache of ``cache_seed_value``."""
    logger.debug("Using cache with seed value %s for client %s", cache_seed_value, type(client).__name__)


def routing_method_of(value: Any) -> str:
    """``value`` checked as a ``routing_method`` ("fixed_order" when None)."""
    if value is None:
        return "fixed_order"
    if value not in ROUTING_METHODS:
        raise ValueError(
            f"routing_method must be 'fixed_order' (try the entries in order) or 'round_robin' (each request starts "
            f"with the next entry); got {value!r}."
        )
    return str(value)
