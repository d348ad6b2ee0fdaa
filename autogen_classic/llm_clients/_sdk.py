"""What the OpenAI clients of this package share: the SDK client and its endpoint, request checks.

The clients talk to their endpoint through the official ``openai`` SDK only. Request settings the
SDK method does not take as arguments travel in ``extra_body`` (the server decides on them), as
they do for ``OpenAIClient``.
"""

from __future__ import annotations

import functools
import inspect
import os
from typing import Any, ClassVar

import openai

from ..oai.endpoint.sdk_parameters import REQUEST_OPTIONS, create_parameters
from ..oai.model_client import ModelClient

__all__ = [
    "LOCAL_PLACEHOLDER_KEY",
    "SdkEndpoint",
    "build_sdk_client",
    "require_model",
    "sdk_arguments",
    "split_for_sdk",
]

OPENAI_HOST = "https://api.openai.com"
# Local OpenAI-compatible servers (llama.cpp, vLLM, Ollama) ignore the key, but the SDK needs one.
LOCAL_PLACEHOLDER_KEY = "not-needed"


def build_sdk_client(api_key: Any, base_url: Any, timeout: Any, kwargs: dict[str, Any]) -> openai.OpenAI:
    """An ``openai.OpenAI`` client for the endpoint.

    Without a key (argument or ``OPENAI_API_KEY``), an endpoint other than OpenAI's own gets a
    placeholder key; OpenAI's own endpoint makes the SDK raise its error naming the variable.
    """
    base = None if base_url is None else str(base_url)
    if api_key is None and not os.environ.get("OPENAI_API_KEY") and base and not base.startswith(OPENAI_HOST):
        api_key = LOCAL_PLACEHOLDER_KEY
    settings = {key: value for key, value in kwargs.items() if value is not None}
    return openai.OpenAI(api_key=api_key, base_url=base, timeout=timeout, **settings)


class SdkEndpoint:
    """The endpoint attributes of a client that talks through an ``openai.OpenAI`` client.

    Attributes:
        client: the ``openai.OpenAI`` client requests go through.
        base_url: its base URL, as a string.
        max_retries: its number of retries.
        secrets: the API key the client was given (kept out of logs), or none.
    """

    RESPONSE_USAGE_KEYS: ClassVar[list[str]] = list(ModelClient.RESPONSE_USAGE_KEYS)

    def _use_client(self, client: Any, api_key: Any) -> None:
        self.client = client
        self.base_url = str(getattr(client, "base_url", "") or "")
        self.max_retries = int(getattr(client, "max_retries", 0) or 0)
        self.secrets = [api_key] if isinstance(api_key, str) and api_key else []

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self.base_url!r})"


def require_model(params: dict[str, Any], client_name: str) -> None:
    """Raise ``TypeError`` (the SDK's type for a missing argument) when the request names no model."""
    if not params.get("model"):
        raise TypeError(
            f"{client_name}.create: no 'model' in the request; add it to the config_list entry, to the llm_config "
            'or to the request, e.g. "model": "gpt-4o-mini".'
        )


def sdk_arguments(method: Any, fallback: frozenset[str]) -> frozenset[str]:
    """The argument names of an SDK method (read through any wrapper a tracing tool put on it)."""
    try:
        function = inspect.unwrap(method)
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return fallback
    if any(p.kind is p.VAR_KEYWORD for p in parameters.values()):
        return fallback  # a wrapper hiding the SDK's signature
    return frozenset(name for name in parameters if name != "self") | REQUEST_OPTIONS


@functools.lru_cache(maxsize=None)
def _known(method_key: str) -> frozenset[str]:
    if method_key == "responses":
        from openai.resources.responses import Responses

        return sdk_arguments(inspect.getattr_static(Responses, "create"), _RESPONSES_FALLBACK)
    return create_parameters()


_RESPONSES_FALLBACK = REQUEST_OPTIONS | frozenset(
    {
        "background", "conversation", "include", "input", "instructions", "max_output_tokens", "max_tool_calls",
        "metadata", "model", "parallel_tool_calls", "previous_response_id", "prompt", "prompt_cache_key",
        "reasoning", "safety_identifier", "service_tier", "store", "stream", "temperature", "text", "tool_choice",
        "tools", "top_logprobs", "top_p", "truncation", "user",
    }
)


def split_for_sdk(params: dict[str, Any], method_key: str) -> dict[str, Any]:
    """Return ``params`` with the keys the SDK method does not take moved into ``extra_body``."""
    known = _known(method_key)
    out = {key: value for key, value in params.items() if key in known}
    unknown = {key: value for key, value in params.items() if key not in known}
    if unknown:
        out["extra_body"] = {**unknown, **(params.get("extra_body") or {})}
    return out

