"""``LLMConfig``: a validated model configuration, the form AG2 0.14 scripts give agents as ``llm_config``.

An ``LLMConfig`` is built from endpoints (dicts or typed entries) and options::

    LLMConfig({"model": "gpt-4o-mini", "api_key": key}, temperature=0.2, cache_seed=42)
    LLMConfig.from_json(path="OAI_CONFIG_LIST", filter_dict={"model": ["gpt-4o-mini"]})

It is also the classic ``llm_config`` dict (``LLMConfig`` subclasses ``dict``): its items are the
options that were set, ``cache_seed`` (None: no cache) and ``config_list``, a list of plain entry
dicts. So ``llm_config["config_list"][0]["model"]``, ``OpenAIWrapper(**llm_config)``, ``json`` and
``pickle`` work as with a dict, and every part of the package that takes an ``llm_config`` dict
takes an ``LLMConfig`` unchanged. Options read as attributes too (``llm_config.temperature``), and
its ``repr`` never shows a key.
"""

from __future__ import annotations

import json
import types
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ValidationError
from typing_extensions import Self

from ..oai.config_list import config_list_from_json, filter_config
from ..oai.entries import ApplicationConfig, LLMConfigEntry, hide_secrets
from . import _current
from ._entry_view import ConfigListEntry, jsonable
from ._validation import (
    CONTENT_ORDER,
    OPTION_NAMES,
    build_content,
    build_entry,
    check_option_name,
    unexpected_keyword,
)

__all__ = ["ApplicationConfig", "LLMConfig", "LLMConfigEntry", "config_list_from_json", "filter_config"]

_F = TypeVar("_F", bound=Callable[..., Any])


class _ClassOrInstanceMethod(Generic[_F]):
    """A method that binds to the instance when called on one and to the class otherwise."""

    def __init__(self, func: _F) -> None:
        self.__func__ = func
        self.__doc__ = func.__doc__

    def __get__(self, instance: Any, owner: type) -> Any:
        return types.MethodType(self.__func__, owner if instance is None else instance)


def _copy_data(value: Any) -> Any:
    """A deep copy of the plain data in ``value``; other objects (clients, classes, functions) are shared."""
    if isinstance(value, (str, int, float, bool, type(None))):
        return value
    if isinstance(value, Mapping):
        copied = {key: _copy_data(item) for key, item in value.items()}
        return type(value)(copied) if type(value) in (dict, ConfigListEntry) else copied
    if isinstance(value, list):
        return [_copy_data(item) for item in value]
    if isinstance(value, tuple):
        return tuple(_copy_data(item) for item in value)
    return value


class LLMConfig(dict):  # type: ignore[type-arg]
    """A model configuration: one or more endpoints (tried in order) and the options shared by all.

    Args:
        *configs: the endpoints, each a dict (``{"model": ..., "api_key": ..., "base_url": ...}``;
            ``api_type`` defaults to "openai") or a typed entry such as ``OpenAILLMConfigEntry``.
        top_p: nucleus sampling, from 0 to 1 (also set on every entry that has none).
        temperature: randomness, from 0 to 1 (also set on every entry that has none).
        max_tokens: the most tokens per answer (also set on every entry that has none).
        check_every_ms: kept for compatibility; not used.
        allow_format_str_template: fill ``{name}`` fields of messages from the chat context.
        response_format: structured output: a pydantic model class, a JSON-schema dict or a str.
        timeout: seconds to wait for an answer (a number, or an ``openai.Timeout``).
        seed: the model's sampling seed.
        cache_seed: the seed of the disk cache of answers; None (the default) caches nothing.
        parallel_tool_calls: whether the model may ask for several tool calls at once.
        tools: tool schemas offered to the model.
        functions: legacy function schemas offered to the model.
        routing_method: "fixed_order" (the default: endpoints in order, the next on failure) or
            "round_robin" (each request starts with the next endpoint).

    Raises:
        pydantic.ValidationError: a value is invalid (the message names the field and the fix), an
            ``api_type`` is unknown, or there is no endpoint.
        TypeError: an unknown keyword, or an endpoint that is not a dict or a typed entry.

    The forms of AG2 0.8 to 0.13 still work, with a ``DeprecationWarning``: ``LLMConfig(config_list=[...])``,
    ``LLMConfig(api_type=..., model=..., api_key=...)``, ``with llm_config:`` blocks (agents built
    inside without an ``llm_config`` take it) and ``LLMConfig.get_current_llm_config()``.
    """

    __slots__ = ()

    def __init__(
        self,
        *configs: Any,
        top_p: float | None = None,
        temperature: float | None = None,
        max_tokens: int | None = None,
        check_every_ms: int | None = None,
        allow_format_str_template: bool | None = None,
        response_format: str | dict[str, Any] | BaseModel | type[BaseModel] | None = None,
        timeout: float | Any | None = None,
        seed: int | None = None,
        cache_seed: int | None = None,
        parallel_tool_calls: bool | None = None,
        tools: Iterable[Any] = (),
        functions: Iterable[Any] = (),
        routing_method: Literal["fixed_order", "round_robin"] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__()
        if kwargs:
            configs = _legacy_configs(configs, kwargs)
        options = {
            "top_p": top_p,
            "temperature": temperature,
            "max_tokens": max_tokens,
            "check_every_ms": check_every_ms,
            "allow_format_str_template": allow_format_str_template,
            "response_format": response_format,
            "timeout": timeout,
            "seed": seed,
            "cache_seed": cache_seed,
            "parallel_tool_calls": parallel_tool_calls,
            "tools": tools,
            "functions": functions,
            "routing_method": routing_method,
        }
        dict.update(self, build_content(configs, options))

    @classmethod
    def _from_content(cls, content: Mapping[str, Any]) -> Self:
        """An ``LLMConfig`` holding ``content`` as it is (already validated)."""
        new = cls.__new__(cls)
        dict.update(new, content)
        return new

    # ----------------------------------------------------------------- building
    @classmethod
    def ensure_config(cls, config: Any, /) -> LLMConfig:
        """An ``LLMConfig`` from what agents accept as ``llm_config``.

        Args:
            config: an ``LLMConfig`` (copied), a typed entry, one endpoint dict, a classic
                ``llm_config`` dict with ``config_list`` (its other keys are options), or a list of
                endpoints.
        """
        if isinstance(config, LLMConfig):
            return config.copy()
        if isinstance(config, LLMConfigEntry):
            return cls(config)
        if isinstance(config, Mapping):
            config = dict(config)  # the caller's dict is left as it is
            if "config_list" in config:
                config_list = config.pop("config_list")
                if isinstance(config_list, (Mapping, LLMConfigEntry)):
                    config_list = [config_list]
                return cls(*(config_list or []), **config)
            return cls(config)
        return cls(*config)

    @classmethod
    def from_json(
        cls,
        *,
        env: str | None = None,
        path: str | Path | None = None,
        file_location: str | None = None,
        filter_dict: dict[str, list[str | None] | set[str | None]] | None = None,
        **kwargs: Any,
    ) -> Self:
        """An ``LLMConfig`` from a JSON config list (``OAI_CONFIG_LIST``), optionally filtered.

        Args:
            env: an environment variable holding the JSON, or the path of a JSON file.
            path: a JSON file (looked up in ``file_location`` when given).
            file_location: the directory of ``path``.
            filter_dict: keep the entries matching it, e.g. ``{"model": ["gpt-4o-mini"]}`` or ``{"tags": ["fast"]}``.
            **kwargs: the options of ``LLMConfig`` (``temperature=``, ``cache_seed=``, ...).

        Raises:
            ValueError: neither or both of ``env`` and ``path`` are given.
            FileNotFoundError: the file does not exist.
        """
        if env is None and path is None:
            raise ValueError("Either 'env' or 'path' must be provided")
        if env is not None and path is not None:
            raise ValueError("Only one of 'env' or 'path' can be provided")
        config_list = config_list_from_json(
            env_or_file=env if env is not None else str(path),
            file_location=file_location,
            filter_dict=filter_dict,
        )
        return cls(*config_list, **kwargs)

    def where(self, *, exclude: bool = False, **kwargs: Any) -> LLMConfig:
        """A copy keeping the endpoints that match ``kwargs`` (e.g. ``model="gpt-4o"``, ``tags=["fast"]``).

        Args:
            exclude: keep the endpoints that do not match instead.
            **kwargs: field -> accepted value (or list of accepted values).

        Raises:
            ValueError: no endpoint is left.
        """
        kept = filter_config([dict(entry) for entry in self.get("config_list", [])], kwargs, exclude=exclude)
        if not kept:
            raise ValueError(f"No config found that satisfies the filter criteria: {kwargs}")
        content = {name: _copy_data(value) for name, value in self.items() if name != "config_list"}
        content["config_list"] = [ConfigListEntry(entry) for entry in kept]
        return type(self)._from_content({name: content[name] for name in _ordered(content)})

    # ----------------------------------------------------------------- pydantic-style views
    def model_dump(self, *args: Any, exclude_none: bool = True, **kwargs: Any) -> dict[str, Any]:
        """The configuration as plain data (secrets included: this is data, not a display).

        Args:
            exclude_none: leave out the options that are not set (the default).
            **kwargs: ``include``/``exclude`` (top-level names) and ``mode="json"`` as in pydantic.
        """
        data: dict[str, Any] = {}
        for name in CONTENT_ORDER if not exclude_none else _ordered(self):
            value = self.get(name, [] if name in ("tools", "functions") else None)
            if name == "config_list":
                value = [entry.model_dump(exclude_none=exclude_none) for entry in map(ConfigListEntry, value)]
            data[name] = value
        for name in self:
            data.setdefault(name, self[name])
        data = {
            name: value
            for name, value in data.items()
            if not (exclude_none and value is None) and not (isinstance(value, list) and not value)
        }
        include, exclude = kwargs.get("include"), kwargs.get("exclude")
        if include is not None:
            data = {name: value for name, value in data.items() if name in include}
        if exclude is not None:
            data = {name: value for name, value in data.items() if name not in exclude}
        return jsonable(data) if kwargs.get("mode") == "json" else data

    def model_dump_json(self, *args: Any, exclude_none: bool = True, **kwargs: Any) -> str:
        """``model_dump()`` as JSON text."""
        return json.dumps(jsonable(self.model_dump(*args, exclude_none=exclude_none, **kwargs)))

    @_ClassOrInstanceMethod
    def model_validate(self_or_cls: Any, *args: Any, **kwargs: Any) -> LLMConfig:  # noqa: N805 - either one
        """An ``LLMConfig`` from data shaped like ``model_dump()`` (``{"config_list": [...], "temperature": ...}``)."""
        data = args[0] if args else kwargs
        cls = self_or_cls if isinstance(self_or_cls, type) else type(self_or_cls)
        return cls.ensure_config(data)

    @_ClassOrInstanceMethod
    def model_validate_json(self_or_cls: Any, json_data: str | bytes, *args: Any, **kwargs: Any) -> LLMConfig:  # noqa: N805
        """An ``LLMConfig`` from JSON text shaped like ``model_dump_json()``."""
        cls = self_or_cls if isinstance(self_or_cls, type) else type(self_or_cls)
        return cls.ensure_config(json.loads(json_data))

    @_ClassOrInstanceMethod
    def model_validate_strings(self_or_cls: Any, obj: Any, *args: Any, **kwargs: Any) -> LLMConfig:  # noqa: N805
        """An ``LLMConfig`` from data shaped like ``model_dump()``."""
        cls = self_or_cls if isinstance(self_or_cls, type) else type(self_or_cls)
        return cls.ensure_config(obj)

    # ----------------------------------------------------------------- dict and attribute access
    def __missing__(self, key: str) -> Any:
        # An option that is not set reads as its default, as on AG2 0.14's LLMConfig.
        if key in ("tools", "functions"):
            return []
        if key in OPTION_NAMES:
            return None
        raise KeyError(f"Key '{key}' not found in {type(self).__name__}")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'") from None

    def __setattr__(self, name: str, value: Any) -> None:
        self[name] = value

    def __setitem__(self, key: str, value: Any) -> None:
        check_option_name(key)
        if key == "config_list":
            errors: list[Any] = []
            app = ApplicationConfig()
            entries = [build_entry(entry, app, index, errors) for index, entry in enumerate(value or [])]
            if errors:
                raise ValidationError.from_exception_data("_LLMConfig", errors)  # the title AG2 Classic 0.14 gives
            value = [ConfigListEntry(entry.model_dump()) for entry in entries]
        dict.__setitem__(self, key, value)

    # ----------------------------------------------------------------- copies
    def __copy__(self) -> LLMConfig:
        content = {name: list(value) if isinstance(value, list) else value for name, value in self.items()}
        content["config_list"] = [ConfigListEntry(entry) for entry in self.get("config_list", [])]
        return type(self)._from_content(content)

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> LLMConfig:
        return type(self)._from_content(_copy_data(dict(self)))

    def copy(self) -> LLMConfig:  # type: ignore[override]
        """A copy (its own ``config_list`` and entry dicts); values such as tool schemas are shared."""
        return self.__copy__()

    def deepcopy(self, memo: dict[int, Any] | None = None) -> LLMConfig:
        """A copy sharing no plain data (dicts, lists); objects such as an HTTP client are shared."""
        return self.__deepcopy__(memo)

    # ----------------------------------------------------------------- display
    def __repr__(self) -> str:
        shown = hide_secrets(self.model_dump())
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in shown.items())})"

    def __str__(self) -> str:
        return repr(self)

    # ----------------------------------------------------------------- deprecated forms (AG2 0.8 - 0.13)
    def __enter__(self) -> LLMConfig:
        _current.warn_deprecated(
            "'with llm_config:' (agents built inside take it as their llm_config)",
            "pass llm_config=... to each agent",
        )
        _current.push(self)
        return self

    def __exit__(self, *exc_info: Any) -> None:
        _current.pop(self)

    @classmethod
    def get_current_llm_config(cls, llm_config: LLMConfig | None = None) -> LLMConfig | None:
        """``llm_config`` when given, else (a copy of) the config of the enclosing ``with`` block, else None.

        Deprecated: AG2 0.14 removed ``with llm_config:`` blocks and this method.
        """
        _current.warn_deprecated("LLMConfig.get_current_llm_config()", "pass the LLMConfig where it is needed")
        return llm_config if llm_config is not None else current_llm_config()


def current_llm_config() -> LLMConfig | None:
    """A copy of the config of the innermost enclosing ``with llm_config:`` block, or None (no warning)."""
    config = _current.current()
    return config.copy() if config is not None else None


def _ordered(content: Iterable[str]) -> list[str]:
    names = list(content)
    return [name for name in CONTENT_ORDER if name in names] + [name for name in names if name not in CONTENT_ORDER]


def _legacy_configs(configs: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """The endpoints of the keyword forms of AG2 0.8 - 0.13 (with a ``DeprecationWarning``), or ``TypeError``."""
    kwargs = dict(kwargs)
    if "config_list" in kwargs:
        config_list = kwargs.pop("config_list")
        if kwargs:
            raise unexpected_keyword(next(iter(kwargs)))
        _current.warn_deprecated(
            "LLMConfig(config_list=[...])", "pass the entries as positional arguments, LLMConfig(*config_list)", 4
        )
        if isinstance(config_list, (Mapping, LLMConfigEntry)):
            config_list = [config_list]
        return (*configs, *(config_list or []))
    if not configs and ("model" in kwargs or "api_type" in kwargs):
        _current.warn_deprecated(
            "LLMConfig(api_type=..., model=..., ...) with the endpoint's settings as keywords",
            "pass the endpoint as a dict, LLMConfig({'api_type': ..., 'model': ..., 'api_key': ...})",
            4,
        )
        return (kwargs,)
    raise unexpected_keyword(next(iter(kwargs)))
