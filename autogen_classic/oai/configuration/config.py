"""Validation of ``llm_config`` dicts and their ``config_list`` entries (pydantic).

An ``llm_config`` holds settings shared by every endpoint (``cache_seed``, ``temperature``,
``tools``, ``timeout``, ...) and a ``config_list`` of endpoints tried in order. Keys that are
not known here are passed to the endpoint unchanged. Bad values raise ``ValueError`` naming
the key and the fix; secret values are never echoed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Literal, Union

from pydantic import (
    ConfigDict,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
    field_validator,
)

from ..secrets import is_secret_key
from .llm_options import SharedOptions

__all__ = [
    "MISSING_MODEL_MESSAGE",
    "ConfigEntry",
    "LLMConfigModel",
    "validate_config_entry",
    "validate_llm_config",
]

# A network address: a host name or IP with an optional port and path, or a URL of another scheme.
_ADDRESS = re.compile(r"^(?:[A-Za-z][A-Za-z0-9+.-]*://\S*|[A-Za-z0-9._-]+(?::\d+)?(?:/\S*)?|\[[0-9A-Fa-f:.]+\](?::\d+)?(?:/\S*)?)$")


def _looks_like_address(value: str) -> bool:
    """Whether ``value`` is a network address (``localhost:8000``, ``ftp://host``) rather than other text."""
    return not value.strip() or bool(_ADDRESS.match(value.strip()))


# The classic wording, kept so that existing scripts matching on it keep working.
MISSING_MODEL_MESSAGE = (
    "When using OpenAI or Azure OpenAI endpoints, specify a non-empty 'model' either in 'llm_config' "
    "or in each config of 'config_list'."
)

_HINTS: dict[str, str] = {
    "config_list": "use a non-empty list of dicts, one per endpoint, e.g. [{'model': 'gpt-4o-mini', 'api_key': ...}]",
    "model": "use the model (or Azure deployment) name as a string, e.g. 'gpt-4o-mini'",
    "api_key": (
        "use the key as a string (or a function returning it), or leave it out to read the provider's key "
        "variable such as OPENAI_API_KEY"
    ),
    "base_url": "use the endpoint URL, e.g. 'http://localhost:11434/v1' for Ollama",
    "api_type": (
        "use a provider name such as 'openai', 'azure', 'anthropic', 'google', 'mistral', 'groq', 'together', "
        "'cerebras', 'ollama', 'deepseek' or 'cohere'; for another OpenAI-compatible server (vLLM, llama.cpp) "
        "use 'openai' (or leave api_type out) and set its 'base_url'"
    ),
    "api_version": "use the Azure API version as a string, e.g. '2024-02-01'",
    "timeout": "use the number of seconds as a positive number, e.g. 60",
    "max_retries": "use a whole number >= 0, e.g. 2",
    "price": "use [prompt_price_per_1k_tokens, completion_price_per_1k_tokens], e.g. [0.0025, 0.01]",
    "model_client_cls": "use the class name as a string and call register_model_client(TheClass)",
    "default_headers": "use a dict of header name to string value",
    "temperature": "use a number, e.g. 0 or 0.7",
    "top_p": "use a number between 0 and 1",
    "max_tokens": "use a positive whole number, e.g. 1024",
    "n": "use a positive whole number",
    "seed": "use a whole number",
    "stream": "use True or False",
    "tools": "use a list of tool dicts like {'type': 'function', 'function': {'name': ..., 'parameters': ...}}",
    "functions": "use a list of function schema dicts like {'name': ..., 'parameters': ...}",
    "tool_choice": "use 'auto', 'none', 'required' or {'type': 'function', 'function': {'name': ...}}",
    "response_format": (
        "use {'type': 'json_object'}, {'type': 'json_schema', 'json_schema': {...}}, a pydantic model class or a str"
    ),
    "stop": "use a string or a list of strings",
    "filter_func": "use a function (context, response) -> bool",
    "structured_output": (
        "use 'json_schema' (OpenAI's structured outputs), 'json_object' (a JSON object constrained by a 'schema', "
        "as llama-cpp-python takes it) or False when the endpoint has no structured output"
    ),
}

Number = Union[StrictFloat, StrictInt]


class _Settings(SharedOptions):
    """Keys allowed both at the top of ``llm_config`` and in each ``config_list`` entry.

    The options ``LLMConfig`` declares too (``timeout``, ``response_format``, ...) come from ``SharedOptions``,
    checked here as given (strict): the wrapper sends values as they are.
    """

    model_config = ConfigDict(extra="allow", arbitrary_types_allowed=True, strict=True)

    model: StrictStr | None = None
    api_key: StrictStr | Callable[[], str] | None = None  # the SDK also takes a function returning the key
    base_url: StrictStr | None = None
    api_type: StrictStr | None = None
    api_version: StrictStr | None = None
    max_retries: StrictInt | None = None
    price: Number | list[Number] | None = None
    tags: Any = None  # only used by filter_config
    model_client_cls: StrictStr | None = None
    default_headers: dict[StrictStr, StrictStr] | None = None
    cache_seed: Any = None  # None or False: no legacy disk cache; any other value names one
    temperature: Number | None = None
    top_p: Number | None = None
    max_tokens: StrictInt | None = None
    n: StrictInt | None = None
    stream: StrictBool | None = None
    tool_choice: StrictStr | dict[StrictStr, Any] | None = None
    stop: StrictStr | list[StrictStr] | None = None
    filter_func: Callable[..., Any] | None = None
    structured_output: Literal["json_schema", "json_object"] | Literal[False] | None = None

    @field_validator("price", mode="before")
    @classmethod
    def _price(cls, value: Any) -> Any:
        if isinstance(value, tuple):
            value = list(value)
        if isinstance(value, list):
            if len(value) != 2:
                raise ValueError("must hold exactly two prices (prompt, completion)")
            if any(isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0 for v in value):
                raise ValueError("prices must be numbers >= 0")
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0:
            raise ValueError("must be >= 0")
        return value

    @field_validator("base_url")
    @classmethod
    def _base_url(cls, value: str | None) -> str | None:
        # An address without its scheme ("localhost:8000", another scheme) is a mistake worth stopping
        # here. Any other text (a placeholder such as "some url") is accepted, as classic AutoGen accepts
        # it, so the wrapper can be built and logged; the endpoint refuses it at the first request.
        if value is not None and not value.startswith(("http://", "https://")) and _looks_like_address(value):
            raise ValueError("must start with http:// or https://")
        return value

    @field_validator("timeout")
    @classmethod
    def _timeout(cls, value: Any) -> Any:
        if isinstance(value, (int, float)) and value <= 0:
            raise ValueError("must be > 0 seconds")
        return value

    @field_validator("max_retries")
    @classmethod
    def _max_retries(cls, value: int | None) -> int | None:
        if value is not None and value < 0:
            raise ValueError("must be >= 0")
        return value

    @field_validator("max_tokens", "n")
    @classmethod
    def _positive(cls, value: int | None) -> int | None:
        if value is not None and value <= 0:
            raise ValueError("must be > 0")
        return value

    @field_validator("response_format")
    @classmethod
    def _response_format(cls, value: Any) -> Any:
        # A dict is sent as the request's response_format: it must be one the API knows.
        if isinstance(value, dict) and value.get("type") not in ("text", "json_object", "json_schema"):
            raise ValueError("'type' must be 'text', 'json_object' or 'json_schema'")
        return value


class ConfigEntry(_Settings):
    """One endpoint of a ``config_list``: ``model`` plus connection, price and request settings."""


class LLMConfigModel(_Settings):
    """A whole ``llm_config``: shared settings plus the ``config_list`` of endpoints."""

    config_list: list[ConfigEntry] | None = None


_BRANCH_NAMES = frozenset({"int", "float", "str", "bool", "dict", "list", "type", "callable", "Timeout"})


def _path(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif not isinstance(part, str) or not part.isidentifier() or part in _BRANCH_NAMES:
            continue  # pydantic's names for union branches ("is-instance[...]", "float") say nothing to the user
        else:
            out += f".{part}" if out else part
    return out


def _describe(value: Any, key: str) -> str:
    if is_secret_key(key) or "header" in key.lower():  # headers may carry credentials
        return f"{type(value).__name__}, value hidden"
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 60 else text[:57] + '...'}"


def _format_errors(err: ValidationError, prefix: str, raw: Mapping[str, Any]) -> str:
    lines: list[str] = []
    seen: set[str] = set()
    for detail in err.errors(include_url=False):
        path = _path(tuple(detail.get("loc", ())))
        if path in seen:
            continue  # one line per key, even when several union branches failed
        seen.add(path)
        key = path.rsplit(".", 1)[-1].split("[")[0] or "llm_config"
        value = _lookup(raw, tuple(detail.get("loc", ())))
        reason = str(detail.get("msg", "is invalid"))
        reason = reason.removeprefix("Value error, ")
        hint = _HINTS.get(key, "check the value")
        lines.append(f"{prefix}{path}: {reason} (got {_describe(value, key)}); {hint}.")
    return "Invalid llm_config:\n  " + "\n  ".join(lines)


def _lookup(raw: Any, loc: tuple[Any, ...]) -> Any:
    value = raw
    for part in loc:
        if (
            isinstance(value, Mapping)
            and part in value
            or isinstance(value, (list, tuple))
            and isinstance(part, int)
            and part < len(value)
        ):
            value = value[part]
    return value


def validate_config_entry(entry: Mapping[str, Any], index: int = 0) -> dict[str, Any]:
    """Validate one ``config_list`` entry and return a plain copy of it.

    Args:
        entry: the entry dict.
        index: its position in ``config_list`` (used in error messages).
    """
    if not isinstance(entry, Mapping):
        raise ValueError(  # noqa: TRY004 - every llm_config mistake is a ValueError, as classic code expects
            f"Invalid llm_config:\n  config_list[{index}]: must be a dict (got {type(entry).__name__}); "
            f"{_HINTS['config_list']}."
        )
    key = _hashable_entry(entry)
    if key is None or key not in _VALID_ENTRIES:
        try:
            ConfigEntry.model_validate(dict(entry))
        except ValidationError as err:
            raise ValueError(_format_errors(err, f"config_list[{index}].", entry)) from None
        if key is not None:
            _VALID_ENTRIES[key] = None
            if len(_VALID_ENTRIES) > _VALID_ENTRIES_KEPT:
                del _VALID_ENTRIES[next(iter(_VALID_ENTRIES))]  # the oldest
    return dict(entry)


# Entries found valid, by content: a study builds its agents afresh for every chat from the same
# config_list, and each agent validated the same entries again. Only entries of plain hashable values.
_VALID_ENTRIES: dict[Any, None] = {}
_VALID_ENTRIES_KEPT = 256


def _hashable_entry(entry: Mapping[str, Any]) -> Any:
    """``entry``'s items as a hashable key (types included, so 1 and True differ); None when a value is not."""
    try:
        key = tuple(sorted((name, type(value), value) for name, value in entry.items()))
        hash(key)
    except TypeError:
        return None
    return key


def validate_llm_config(llm_config: Mapping[str, Any]) -> dict[str, Any]:
    """Validate an ``llm_config`` and return a copy with ``config_list`` as a list of dict copies.

    Args:
        llm_config: shared settings plus ``config_list``. Without ``config_list`` (or with an
            empty one) the top-level settings describe the one endpoint. A ``model`` may be left
            out everywhere and given to ``create()``; a request without one fails with TypeError.

    Raises:
        TypeError: ``llm_config`` is not a dict.
        ValueError: a key has a wrong type or value. The message names the key and the fix.
    """
    if not isinstance(llm_config, Mapping):
        raise TypeError(f"llm_config must be a dict (or False to disable the model), got {type(llm_config).__name__}.")
    config = dict(llm_config)
    config_list = config.get("config_list")
    if "config_list" in config and config_list is not None and not isinstance(config_list, (list, tuple)):
        raise ValueError(
            f"Invalid llm_config:\n  config_list: must be a list of dicts (got {type(config_list).__name__}); "
            f"{_HINTS['config_list']}."
        )
    if config_list is not None:
        for index, entry in enumerate(config_list):
            validate_config_entry(entry, index)
    try:
        LLMConfigModel.model_validate(config)
    except ValidationError as err:
        raise ValueError(_format_errors(err, "", config)) from None

    if config_list is None:
        return config
    config["config_list"] = [dict(entry) for entry in config_list]
    return config
