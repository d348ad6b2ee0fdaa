"""Checking what ``LLMConfig`` is built from, and turning it into the plain content the agents read.

Bad values raise pydantic's ``ValidationError`` (a ``ValueError``), as AG2 0.14 does, with one line per
field: where it is (``temperature``, ``config_list.0.model``), what is wrong and how to fix it. Secret
values are masked in the message. A keyword ``LLMConfig`` does not take, or an endpoint that is not a
dict, raises ``TypeError`` as a Python call would, with the fix added.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from typing import Annotated, Any

from pydantic import Field, TypeAdapter, ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from ..oai.entries import (
    ENTRY_CLASSES,
    HIDDEN,
    ApplicationConfig,
    ConfigEntries,
    LLMConfigEntry,
    hide_secrets,
    is_hidden_name,
)
from ..oai.configuration.llm_options import LLMConfigOptions
from ._entry_view import ConfigListEntry

__all__ = [
    "APPLICATION_OPTIONS",
    "CONTENT_ORDER",
    "OPTION_NAMES",
    "build_content",
    "build_entry",
    "check_option_name",
    "not_a_mapping",
    "unexpected_keyword",
]

# The keyword options of LLMConfig, in the order of its signature.
OPTION_NAMES: tuple[str, ...] = (
    "top_p",
    "temperature",
    "max_tokens",
    "check_every_ms",
    "allow_format_str_template",
    "response_format",
    "timeout",
    "seed",
    "cache_seed",
    "parallel_tool_calls",
    "tools",
    "functions",
    "routing_method",
)
# Options that are request settings of every entry too (an entry's own value wins).
APPLICATION_OPTIONS: tuple[str, ...] = ("max_tokens", "top_p", "temperature")
# The order of the keys of an LLMConfig (and of its repr), as in AG2 0.14.
CONTENT_ORDER: tuple[str, ...] = (
    "max_tokens",
    "top_p",
    "temperature",
    "check_every_ms",
    "seed",
    "allow_format_str_template",
    "response_format",
    "timeout",
    "cache_seed",
    "parallel_tool_calls",
    "tools",
    "functions",
    "config_list",
    "routing_method",
)

_HINTS: dict[str, str] = {
    "temperature": "use a number from 0 to 1, e.g. 0.7",
    "top_p": "use a number from 0 to 1, e.g. 0.9",
    "max_tokens": "use a whole number >= 0, e.g. 1024",
    "max_completion_tokens": "use a whole number >= 0, e.g. 1024",
    "timeout": "use a number of seconds, e.g. 60 (or an openai.Timeout)",
    "seed": "use a whole number, e.g. 42",
    "cache_seed": "use a whole number naming the disk cache, e.g. 42 (leave it out for no cache)",
    "check_every_ms": "use a whole number of milliseconds",
    "allow_format_str_template": "use True or False",
    "parallel_tool_calls": "use True or False",
    "stream": "use True or False",
    "response_format": "use a pydantic model class, a JSON-schema dict or a str",
    "tools": "use a list of tool dicts like {'type': 'function', 'function': {...}}",
    "functions": "use a list of function schema dicts like {'name': ..., 'parameters': ...}",
    "routing_method": (
        "use 'fixed_order' (the entries are tried in order) or 'round_robin' (each request starts with the next entry)"
    ),
    "config_list": "give at least one endpoint, e.g. LLMConfig({'model': 'gpt-4o-mini', 'api_key': ...})",
    "model": "give the model (or Azure deployment) name as a non-empty str, e.g. 'gpt-4o-mini'",
    "api_key": "give the key as a str, or leave it out to use the provider's key variable such as OPENAI_API_KEY",
    "base_url": "give the endpoint's URL, e.g. 'http://localhost:8000/v1'",
    "api_type": (
        "use one of these api_type values; for another OpenAI-compatible server (vLLM, llama.cpp, LM Studio) use "
        "'openai' (or leave api_type out) and set its 'base_url'"
    ),
    "api_version": "give the Azure API version as a str, e.g. '2024-02-01'",
    "price": "give [prompt, completion] prices in USD per 1k tokens, e.g. [0.00015, 0.0006]",
    "tool_choice": "use one of the listed values",
    "reasoning_effort": "use one of the listed values",
    "verbosity": "use one of the listed values",
    "default_headers": "give a dict of header name -> value",
    "extra_body": "give a dict of the extra request fields",
    "extra_headers": "give a dict of header name -> str value",
    "http_client": "give an httpx.Client (built with the proxy or certificates to use)",
    "tags": "give a list of str, e.g. ['fast', 'cheap']",
    "aws_region": "give the AWS region as a str, e.g. 'us-east-1'",
}


_ENTRY = TypeAdapter(Annotated[ConfigEntries, Field(discriminator="api_type")])


def _hint(field: str, error_type: str) -> str:
    if error_type == "union_tag_invalid":
        return _HINTS["api_type"]
    if error_type == "union_tag_not_found":
        return "give the entry an 'api_type' such as 'openai'"
    return _HINTS.get(field, "check the value against the field's type")


def _shown_input(field: str, value: Any) -> Any:
    if is_hidden_name(field) and value is not None:
        return HIDDEN
    if isinstance(value, (Mapping, list, tuple)):
        return hide_secrets(value)
    return value


def _details(err: ValidationError, prefix: tuple[Any, ...]) -> list[InitErrorDetails]:
    """``err``'s errors, placed under ``prefix``, each with its fix and without secret values."""
    out: list[InitErrorDetails] = []
    for detail in err.errors(include_url=False):
        loc = tuple(detail.get("loc", ()))
        if prefix and loc and isinstance(loc[0], str) and loc[0] in ENTRY_CLASSES:
            loc = loc[1:]  # the api_type pydantic chose the entry class by: not a field
        field = next((p for p in reversed(prefix + loc) if isinstance(p, str)), "config_list")
        error_type = str(detail.get("type", "value_error"))
        message = str(detail.get("msg", "is invalid")).replace("{", "{{").replace("}", "}}")
        out.append(
            {
                "type": PydanticCustomError(error_type, f"{message}; {_hint(field, error_type)}"),
                "loc": prefix + loc,
                "input": _shown_input(field, detail.get("input")),
            }
        )
    return out


def _error(errors: list[InitErrorDetails]) -> ValidationError:
    return ValidationError.from_exception_data("_LLMConfig", errors)  # the title AG2 Classic 0.14 gives


def unexpected_keyword(name: str) -> TypeError:
    """The ``TypeError`` for a keyword ``LLMConfig`` does not take, with the closest option and the fix."""
    close = difflib.get_close_matches(name, OPTION_NAMES, n=1, cutoff=0.75)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return TypeError(
        f"LLMConfig.__init__() got an unexpected keyword argument {name!r}{hint}. LLMConfig takes its endpoints "
        f"as positional dicts or typed entries, e.g. LLMConfig({{'model': 'gpt-4o-mini', 'api_key': ...}}), and "
        f"these options as keywords: {', '.join(OPTION_NAMES)}. Settings of one endpoint go in its dict."
    )


def check_option_name(name: str) -> None:
    """Raise ``ValueError`` for a key an ``LLMConfig`` has no field for (setting ``llm_config[name]``)."""
    if name == "config_list" or name in OPTION_NAMES:
        return
    close = difflib.get_close_matches(name, OPTION_NAMES, n=1, cutoff=0.75)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ValueError(
        f"'LLMConfig' object has no field {name!r}{hint}. Its fields are config_list and the options "
        f"{', '.join(OPTION_NAMES)}; settings of one endpoint go in its entry of config_list."
    )


def not_a_mapping(value: Any) -> TypeError:
    """The ``TypeError`` for an endpoint given as something other than a dict or a typed entry."""
    extra = (
        " To pass a config list, unpack it: LLMConfig(*config_list)."
        if isinstance(value, (list, tuple))
        else " To name just a model, write LLMConfig({'model': ...})."
        if isinstance(value, str)
        else ""
    )
    return TypeError(
        f"'{type(value).__name__}' object is not a mapping: each positional argument of LLMConfig is one endpoint, "
        f"given as a dict such as {{'model': 'gpt-4o-mini', 'api_key': ...}} or as a typed entry such as "
        f"OpenAILLMConfigEntry(model=...).{extra}"
    )


def build_entry(config: Any, app: ApplicationConfig, index: int, errors: list[InitErrorDetails]) -> Any:
    """One validated entry (a typed entry), or None with its errors added to ``errors``.

    Args:
        config: a typed entry or a dict (``api_type`` "openai" when it has none).
        app: the options every entry takes (an entry's own values win).
        index: its position in ``config_list`` (for the messages).
        errors: where the errors of a bad entry go.
    """
    if isinstance(config, LLMConfigEntry):
        return config.apply_application_config(app)
    if not isinstance(config, Mapping):
        raise not_a_mapping(config)
    if "config_list" in config and "model" not in config:
        errors.append(
            {
                "type": PydanticCustomError(
                    "llm_config_in_entry",
                    "a whole llm_config (with 'config_list') was given as one endpoint; unpack its endpoints and "
                    "options instead: LLMConfig(*llm_config['config_list'], temperature=...), or "
                    "LLMConfig.ensure_config(llm_config)",
                ),
                "loc": ("config_list", index),
                "input": hide_secrets(dict(config)),
            }
        )
        return None
    raw = {"api_type": "openai", **app.model_dump(exclude_none=True), **config}
    try:
        return _ENTRY.validate_python(raw)
    except ValidationError as err:
        errors.extend(_details(err, ("config_list", index)))
        return None


def build_content(configs: Iterable[Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """The content of an ``LLMConfig``: its options (unset ones left out) and ``config_list``, in order.

    ``cache_seed`` is always present (None when not given): a client built from an ``LLMConfig``
    caches only when asked to, as in AG2 0.14.

    Args:
        configs: the endpoints, as dicts or typed entries (falsy ones are skipped).
        options: the keyword options (see ``OPTION_NAMES``).

    Raises:
        ValidationError: a value is invalid, or there is no endpoint.
        TypeError: an endpoint is neither a dict nor a typed entry.
    """
    errors: list[InitErrorDetails] = []
    try:
        app = ApplicationConfig(**{name: options.get(name) for name in APPLICATION_OPTIONS})
    except ValidationError as err:
        raise _error(_details(err, ())) from None
    entries = [build_entry(config, app, index, errors) for index, config in enumerate(c for c in configs if c)]
    rest = {name: options.get(name) for name in OPTION_NAMES if name not in APPLICATION_OPTIONS}
    rest["tools"] = list(rest.get("tools") or [])
    rest["functions"] = list(rest.get("functions") or [])
    try:
        settings = LLMConfigOptions(**rest)
    except ValidationError as err:
        errors.extend(_details(err, ()))
        settings = None
    if not entries and not errors:
        errors.append(
            {
                "type": PydanticCustomError(
                    "too_short", "List should have at least 1 item after validation, not 0; " + _HINTS["config_list"]
                ),
                "loc": ("config_list",),
                "input": [],
            }
        )
    if errors or settings is None:
        raise _error(errors)
    values: dict[str, Any] = {
        **app.model_dump(exclude_none=True),
        **{name: getattr(settings, name) for name in type(settings).model_fields},
    }
    content: dict[str, Any] = {}
    for name in CONTENT_ORDER:
        if name == "config_list":
            content[name] = [ConfigListEntry(entry.model_dump()) for entry in entries]
            continue
        value = values.get(name)
        if name == "cache_seed" or not (value is None or (isinstance(value, list) and not value)):
            content[name] = value
    return content
