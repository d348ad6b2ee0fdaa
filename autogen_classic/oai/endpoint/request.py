"""Turning ``create(**config)`` plus one ``config_list`` entry into a request, and caching it."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Union

from openai.types.chat import ChatCompletion
from pydantic import BaseModel

from ...cache.disk_cache import DiskCache
from ...cache.keys import get_key
from ..usage import Price, normalize_price

__all__ = [
    "LEGACY_CACHE_DIR",
    "LEGACY_DEFAULT_CACHE_SEED",
    "SDK_FAST_PATH_KEY",
    "WRAPPER_KEYS",
    "PreparedCall",
    "decode_cached",
    "encode_for_cache",
    "formatted_retrieval",
    "instantiate",
    "legacy_disk_cache",
    "prepare_call",
    "response_format_param",
]

LEGACY_DEFAULT_CACHE_SEED = 41
LEGACY_CACHE_DIR = ".cache"

# The llm_config / config_list key that sends messages and tools past the openai SDK's per-request
# processing (see ``OpenAIClient``); off by default so that tracing tools see every request.
SDK_FAST_PATH_KEY = "sdk_fast_path"

# Keys the wrapper itself consumes; they are never sent to the endpoint.
WRAPPER_KEYS = frozenset(
    {
        "agent",
        "cache",
        "cache_seed",
        "filter_func",
        "allow_format_str_template",
        "context",
        "api_type",
        "api_version",
        "tags",
        "price",
        "model_client_cls",
        "structured_output",
        SDK_FAST_PATH_KEY,
    }
)

# Attributes set on a response for one call; they do not belong in the cache.
_PER_CALL_ATTRIBUTES = ("message_retrieval_function", "config_id", "pass_filter")
_CACHE_FORMAT = "autogen_classic.chat_completion.v1"

Template = Union[str, Callable[[dict[str, Any]], str], None]


def instantiate(
    template: Template, context: dict[str, Any] | None = None, allow_format_str_template: bool = False
) -> Any:
    """Fill a prompt template from ``context``.

    Args:
        template: a string (formatted with ``str.format(**context)`` only when
            ``allow_format_str_template`` is true) or a callable ``template(context) -> str``.
        context: the values to fill in; nothing happens when it is empty.
        allow_format_str_template: whether ``{name}`` fields in strings are filled.
    """
    if not context or template is None:
        return template
    if isinstance(template, str):
        return template.format(**context) if allow_format_str_template else template
    return template(context)


def response_format_param(response_format: Any) -> Any:
    """Return the wire form of ``response_format`` (a pydantic class becomes a strict JSON schema)."""
    if isinstance(response_format, type) and issubclass(response_format, BaseModel):
        try:
            from openai.lib._parsing._completions import type_to_response_format_param

            return type_to_response_format_param(response_format)
        except ImportError:  # the SDK moved its helper: build the same shape by hand
            return {
                "type": "json_schema",
                "json_schema": {
                    "name": response_format.__name__,
                    "schema": response_format.model_json_schema(),
                    "strict": True,
                },
            }
    return response_format


def json_object_form(response_format: Any) -> Any:
    """Return a ``json_schema`` response format in the form llama-cpp-python takes.

    Endpoints declared with ``"structured_output": "json_object"`` constrain a JSON object by a
    ``schema`` next to ``"type": "json_object"``; any other value is returned unchanged.
    """
    if isinstance(response_format, dict) and response_format.get("type") == "json_schema":
        schema = (response_format.get("json_schema") or {}).get("schema")
        return {"type": "json_object", "schema": schema} if schema else {"type": "json_object"}
    return response_format


@dataclass
class PreparedCall:
    """Everything needed to run (or look up) one request against one ``config_list`` entry."""

    params: dict[str, Any]
    cache: Any = None
    cache_key: str | None = None
    filter_func: Callable[..., bool] | None = None
    context: dict[str, Any] | None = None
    agent: Any = None
    price: Price | None = None
    formatter: type | None = None
    extras: dict[str, Any] = field(default_factory=dict)


_legacy_caches: dict[tuple[str, str], DiskCache] = {}
_legacy_lock = threading.Lock()


def legacy_disk_cache(seed: Any, root: str = LEGACY_CACHE_DIR) -> DiskCache:
    """Return the process-wide disk cache for a legacy ``cache_seed`` (opened once, reused)."""
    key = (os.path.abspath(root), str(seed))
    with _legacy_lock:
        cache = _legacy_caches.get(key)
        if cache is None:
            cache = _legacy_caches[key] = DiskCache(os.path.join(*key))
        return cache


def _check_cache(cache: Any) -> Any:
    if cache is not None and not (callable(getattr(cache, "get", None)) and callable(getattr(cache, "set", None))):
        raise TypeError(
            f"cache must be a Cache (e.g. Cache.disk() or Cache.in_memory()) or None, got {type(cache).__name__}"
        )
    return cache


def prepare_call(
    create_config: dict[str, Any], entry_config: dict[str, Any], convert_response_format: bool
) -> PreparedCall:
    """Merge the ``create`` arguments with one entry and split them into request and wrapper settings.

    Settings from ``llm_config``/``config_list`` take precedence over ``create`` keyword
    arguments, which act as defaults (the classic rule).

    Args:
        create_config: keyword arguments of ``create``.
        entry_config: the entry's settings (shared ``llm_config`` keys included), without client keys.
        convert_response_format: turn a pydantic ``response_format`` class into its JSON-schema form.
    """
    full = {**create_config, **entry_config}
    extras = {k: v for k, v in full.items() if k in WRAPPER_KEYS}
    params = {k: v for k, v in full.items() if k not in WRAPPER_KEYS}
    if "messages" not in params:
        if "prompt" in params:
            raise ValueError(
                "create: 'prompt' (the legacy completions API) is not supported; pass "
                "messages=[{'role': 'user', 'content': prompt}] instead."
            )
        raise ValueError("create: 'messages' is required, e.g. messages=[{'role': 'user', 'content': 'Hi'}].")
    messages = params["messages"]
    if not isinstance(messages, list):
        raise TypeError(f"create: messages must be a list of message dicts, got {type(messages).__name__}")
    context = extras.get("context")
    if context:
        allow = bool(extras.get("allow_format_str_template", False))
        params["messages"] = [
            {**m, "content": instantiate(m["content"], context, allow)}
            if isinstance(m, dict) and m.get("content")
            else m
            for m in messages
        ]
    formatter = None
    response_format = params.get("response_format")
    if isinstance(response_format, type) and issubclass(response_format, BaseModel):
        formatter = response_format
        if convert_response_format:
            params["response_format"] = response_format_param(response_format)
    if extras.get("structured_output") == "json_object" and params.get("response_format") is not None:
        params["response_format"] = json_object_form(params.get("response_format"))
    cache = _check_cache(extras.get("cache"))
    # No cache unless asked, as in AG2 Classic 0.14 (0.2 and 0.7.3 cached under LEGACY_DEFAULT_CACHE_SEED).
    cache_seed = extras.get("cache_seed")
    if cache is None and cache_seed is not None and cache_seed is not False:  # False is a classic "cache off"
        cache = legacy_disk_cache(cache_seed)
    return PreparedCall(
        params=params,
        cache=cache,
        cache_key=get_key(params) if cache is not None else None,
        filter_func=extras.get("filter_func"),
        context=context,
        agent=extras.get("agent"),
        price=normalize_price(extras.get("price")),
        formatter=formatter,
        extras=extras,
    )


def encode_for_cache(response: Any) -> Any:
    """Return what the cache stores for ``response``: plain JSON data for OpenAI completions."""
    if isinstance(response, ChatCompletion):
        data = response.model_dump(mode="json", exclude_none=False)
        for name in _PER_CALL_ATTRIBUTES:
            data.pop(name, None)
        return {"format": _CACHE_FORMAT, "data": data}
    return response


def decode_cached(value: Any) -> Any:
    """Inverse of ``encode_for_cache`` (custom-client responses come back as they were stored)."""
    if isinstance(value, dict) and value.get("format") == _CACHE_FORMAT:
        return ChatCompletion.model_validate(value["data"])
    return value


def formatted_retrieval(retrieve: Callable[[Any], list[Any]], formatter: type | None) -> Callable[[Any], list[Any]]:
    """Wrap a client's ``message_retrieval`` so structured output is shown through ``formatter.format()``."""
    if formatter is None or not callable(getattr(formatter, "format", None)):
        return retrieve

    def retrieval(response: Any) -> list[Any]:
        out: list[Any] = []
        for item in retrieve(response):
            if isinstance(item, str):
                try:
                    item = formatter.model_validate_json(item).format()  # type: ignore[attr-defined]
                except ValueError:
                    pass  # not valid for the schema: show the raw text rather than fail
            out.append(item)
        return out

    return retrieval
