"""Building and filtering ``config_list``s: from JSON, from environment variables, from key lists."""

from __future__ import annotations

import copy
import json
import logging
import os
from collections.abc import Collection, Mapping
from typing import Any

from ..exception_utils import InvalidArgumentError

__all__ = [
    "DEFAULT_AZURE_API_VERSION",
    "config_list_from_dotenv",
    "config_list_from_json",
    "config_list_from_models",
    "config_list_gpt4_gpt35",
    "config_list_openai_aoai",
    "filter_config",
    "get_config",
    "get_config_list",
    "get_first_llm_config",
]

logger = logging.getLogger("autogen_classic.oai")

DEFAULT_AZURE_API_VERSION = "2024-02-01"


def get_config_list(
    api_keys: list[str],
    base_urls: list[str] | None = None,
    api_type: str | None = None,
    api_version: str | None = None,
) -> list[dict[str, Any]]:
    """Return one config per API key (blank keys are skipped).

    Args:
        api_keys: the API keys.
        base_urls: base URLs, one per key (same length as ``api_keys``).
        api_type: api type for every config, e.g. "azure".
        api_version: api version for every config, e.g. "2024-02-01".

    Raises:
        InvalidArgumentError: ``base_urls`` does not have one URL per key (a ``ValueError``,
            and an ``AssertionError`` as in the classic package).
        TypeError: ``api_keys`` is not a list of strings.
    """
    if isinstance(api_keys, str) or not isinstance(api_keys, (list, tuple)):
        raise TypeError("get_config_list: api_keys must be a list of key strings")
    if base_urls is not None and len(base_urls) != len(api_keys):
        # The classic text exactly: code compares the message (one base URL per key, or base_urls=None).
        raise InvalidArgumentError("The length of api_keys must match the length of base_urls")
    config_list: list[dict[str, Any]] = []
    for i, api_key in enumerate(api_keys):
        if not api_key or not api_key.strip():
            continue
        config: dict[str, Any] = {"api_key": api_key}
        if base_urls:
            config["base_url"] = base_urls[i]
        if api_type:
            config["api_type"] = api_type
        if api_version:
            config["api_version"] = api_version
        config_list.append(config)
    return config_list


def get_config(
    api_key: str | None,
    base_url: str | None = None,
    api_type: str | None = None,
    api_version: str | None = None,
) -> dict[str, Any]:
    """Return a config dict for one endpoint.

    ``base_url``, ``api_type`` and ``api_version`` may name environment variables: a value that
    is the name of a set variable is replaced by the variable's value.

    Args:
        api_key: the API key.
        base_url: the base URL (or the name of a variable holding it).
        api_type: the api type (or the name of a variable holding it).
        api_version: the api version (or the name of a variable holding it).
    """
    config: dict[str, Any] = {"api_key": api_key}
    if base_url:
        config["base_url"] = os.getenv(base_url, default=base_url)
    if api_type:
        config["api_type"] = os.getenv(api_type, default=api_type)
    if api_version:
        config["api_version"] = os.getenv(api_version, default=api_version)
    return config


def _read_lines(path: str | None, name: str | None) -> list[str] | None:
    if path is None or name is None:
        return None
    full = os.path.join(path, name)
    if not os.path.isfile(full):
        return None
    with open(full, encoding="utf-8") as handle:
        return [line.strip() for line in handle.read().splitlines()]


def config_list_openai_aoai(
    key_file_path: str | None = ".",
    openai_api_key_file: str | None = "key_openai.txt",
    aoai_api_key_file: str | None = "key_aoai.txt",
    openai_api_base_file: str | None = "base_openai.txt",
    aoai_api_base_file: str | None = "base_aoai.txt",
    exclude: str | None = None,
) -> list[dict[str, Any]]:
    """Build configs for OpenAI and Azure OpenAI from key files or environment variables.

    Keys and base URLs come from the files in ``key_file_path`` when present (one per line),
    otherwise from ``OPENAI_API_KEY`` / ``OPENAI_API_BASE`` and ``AZURE_OPENAI_API_KEY`` /
    ``AZURE_OPENAI_API_BASE`` (several values separated by new lines). The environment is
    only read, never modified.

    Args:
        key_file_path: directory of the key files; None reads the environment only.
        openai_api_key_file: file with OpenAI keys (None to skip).
        aoai_api_key_file: file with Azure OpenAI keys (None to skip).
        openai_api_base_file: file with OpenAI base URLs (None to skip).
        aoai_api_base_file: file with Azure OpenAI endpoints (None to skip).
        exclude: "openai" or "aoai" to leave that service out.

    Returns:
        OpenAI configs first, then Azure configs (with ``api_type="azure"`` and
        ``api_version=DEFAULT_AZURE_API_VERSION``). No ``model`` is set; add one or filter.
    """
    if exclude not in (None, "openai", "aoai"):
        raise ValueError(f"config_list_openai_aoai: exclude must be None, 'openai' or 'aoai', got {exclude!r}")

    def values(file_name: str | None, env_name: str) -> list[str] | None:
        from_file = _read_lines(key_file_path, file_name)
        if from_file is not None:
            return from_file
        env = os.environ.get(env_name)
        return None if env is None else env.split("\n")

    openai_configs: list[dict[str, Any]] = []
    if exclude != "openai":
        keys = values(openai_api_key_file, "OPENAI_API_KEY") or []
        bases = values(openai_api_base_file, "OPENAI_API_BASE")
        if bases is not None and len(bases) != len(keys):
            bases = (bases * len(keys))[: len(keys)] if len(bases) == 1 else None
            if bases is None:
                logger.warning(
                    "OPENAI_API_BASE has a different number of lines than OPENAI_API_KEY; base URLs ignored."
                )
        openai_configs = get_config_list(keys, base_urls=bases)
    aoai_configs: list[dict[str, Any]] = []
    if exclude != "aoai":
        keys = values(aoai_api_key_file, "AZURE_OPENAI_API_KEY") or []
        bases = values(aoai_api_base_file, "AZURE_OPENAI_API_BASE") or []
        if len(bases) == 1 and len(keys) > 1:
            bases = bases * len(keys)
        if keys and len(bases) != len(keys):
            logger.warning("Azure OpenAI keys found without one endpoint per key (AZURE_OPENAI_API_BASE); skipped.")
        else:
            aoai_configs = get_config_list(
                keys, base_urls=bases or None, api_type="azure", api_version=DEFAULT_AZURE_API_VERSION
            )
    return openai_configs + aoai_configs


def config_list_from_models(
    key_file_path: str | None = ".",
    openai_api_key_file: str | None = "key_openai.txt",
    aoai_api_key_file: str | None = "key_aoai.txt",
    aoai_api_base_file: str | None = "base_aoai.txt",
    exclude: str | None = None,
    model_list: list[str] | None = None,
) -> list[dict[str, Any]]:
    """``config_list_openai_aoai`` repeated for each model of ``model_list`` (models first)."""
    base = config_list_openai_aoai(
        key_file_path=key_file_path,
        openai_api_key_file=openai_api_key_file,
        aoai_api_key_file=aoai_api_key_file,
        aoai_api_base_file=aoai_api_base_file,
        exclude=exclude,
    )
    if not model_list:
        return base
    return [{**config, "model": model} for model in model_list for config in base]


def config_list_gpt4_gpt35(
    key_file_path: str | None = ".",
    openai_api_key_file: str | None = "key_openai.txt",
    aoai_api_key_file: str | None = "key_aoai.txt",
    aoai_api_base_file: str | None = "base_aoai.txt",
    exclude: str | None = None,
) -> list[dict[str, Any]]:
    """Configs for "gpt-4" followed by "gpt-3.5-turbo" (see ``config_list_from_models``)."""
    return config_list_from_models(
        key_file_path, openai_api_key_file, aoai_api_key_file, aoai_api_base_file, exclude, ["gpt-4", "gpt-3.5-turbo"]
    )


def _satisfies(value: Any, accepted: Collection[Any]) -> bool:
    """The classic rule: a missing (or None) value never matches; a list matches when any item is accepted."""
    if value is None:
        return False
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(item in accepted for item in value)
    try:
        return value in accepted
    except TypeError:  # an unhashable value tested against a set
        return any(value == item for item in accepted)


def _check_config_list(config_list: Any) -> None:
    """Refuse anything but a list of dicts (a lone dict or a list of model names is a common slip)."""
    example = '[{"model": "gpt-4o-mini", "api_key": "..."}]'
    if isinstance(config_list, Mapping):
        raise TypeError(
            "filter_config: config_list must be a list of dicts, one per endpoint, got a single dict; "
            f"wrap it in a list: [{{...}}], e.g. {example}."
        )
    if isinstance(config_list, (str, bytes)) or not isinstance(config_list, (list, tuple)):
        raise TypeError(
            f"filter_config: config_list must be a list of dicts, one per endpoint, e.g. {example}; "
            f"got {type(config_list).__name__}."
        )
    for index, config in enumerate(config_list):
        if not isinstance(config, Mapping):
            raise TypeError(
                f"filter_config: config_list must be a list of dicts, but config_list[{index}] is "
                f"{type(config).__name__} {config!r:.40}; use e.g. {example}."
            )


def filter_config(
    config_list: list[dict[str, Any]],
    filter_dict: dict[str, list[str | None] | set[str | None]] | None,
    exclude: bool = False,
) -> list[dict[str, Any]]:
    """Keep the configs that match ``filter_dict`` (or, with ``exclude``, those that match none of its keys).

    Args:
        config_list: the configs.
        filter_dict: ``{key: accepted values}`` (a list or set; a single value such as
            ``{"api_type": "azure"}`` means that value). A config matches a key when its value is
            accepted, or, for a list value such as ``tags``, when any of its items is accepted. A
            config without the key (or with None) matches no value, as in the classic package.
        exclude: keep the configs for which no key of ``filter_dict`` matches instead.

    Returns:
        The filtered list (the same list when ``filter_dict`` is empty or None).

    Raises:
        TypeError: ``config_list`` is not a list of dicts, or ``filter_dict`` is not a dict, or
            one of its values is None.
    """
    _check_config_list(config_list)
    if not filter_dict:
        return config_list
    if not isinstance(filter_dict, Mapping):
        raise TypeError("filter_config: filter_dict must be a dict of key -> list of accepted values")
    normalized: dict[str, Collection[Any]] = {}
    for key, accepted in filter_dict.items():
        if accepted is None:
            raise TypeError(
                f"filter_config: filter_dict[{key!r}] is None; give the accepted values as a list, e.g. ['gpt-4o']"
            )
        if isinstance(accepted, (str, bytes)) or not isinstance(accepted, Collection):
            accepted = [accepted]  # a single accepted value
        normalized[key] = accepted
    return [
        config
        for config in config_list
        if all(_satisfies(config.get(key), accepted) != exclude for key, accepted in normalized.items())
    ]


def config_list_from_json(
    env_or_file: str | os.PathLike[str] = "OAI_CONFIG_LIST",
    file_location: str | os.PathLike[str] | None = "",
    filter_dict: dict[str, list[str | None] | set[str | None]] | None = None,
) -> list[dict[str, Any]]:
    """Load a config list from an environment variable or a JSON file, then filter it.

    Args:
        env_or_file: the name of an environment variable holding the JSON (or a path to it), or
            a file name looked up in ``file_location``. Defaults to "OAI_CONFIG_LIST".
        file_location: directory of the file.
        filter_dict: see ``filter_config``.

    Raises:
        TypeError: ``env_or_file`` or ``file_location`` is not a str (or os.PathLike).
        FileNotFoundError: neither the variable nor the file exists (the message says where it looked).
        ValueError: the JSON is invalid or is not a list of dicts (its content is never echoed,
            since it holds API keys).
    """
    if not isinstance(env_or_file, (str, os.PathLike)):
        raise TypeError(
            "config_list_from_json: env_or_file must be the name of an environment variable or a file path "
            f"(a str, default 'OAI_CONFIG_LIST'), got {type(env_or_file).__name__} {env_or_file!r:.40}."
        )
    if file_location is not None and not isinstance(file_location, (str, os.PathLike)):
        raise TypeError(
            "config_list_from_json: file_location must be the directory of the file (a str or os.PathLike) "
            f"or None, got {type(file_location).__name__} {file_location!r:.40}."
        )
    env_or_file = os.fspath(env_or_file)
    env_value = os.environ.get(env_or_file)
    if env_value:
        if os.path.isfile(env_value):
            source = f"file {env_value!r} named by environment variable {env_or_file}"
            with open(env_value, encoding="utf-8") as handle:
                text = handle.read()
        else:
            source = f"environment variable {env_or_file}"
            text = env_value
    else:
        path = os.path.join(file_location, env_or_file) if file_location else env_or_file
        if not os.path.isfile(path):
            raise FileNotFoundError(
                f"config_list_from_json: no environment variable {env_or_file!r} and no file {path!r}. "
                f"Set {env_or_file} to the JSON list (or to a file path), or create the file."
            )
        source = f"file {path!r}"
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    try:
        config_list = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(
            f"config_list_from_json: {source} is not valid JSON (line {err.lineno}, column {err.colno}: {err.msg})."
        ) from None
    if not isinstance(config_list, list) or not all(isinstance(c, dict) for c in config_list):
        raise ValueError(
            f"config_list_from_json: {source} must hold a JSON list of objects, e.g. "
            '[{"model": "gpt-4o-mini", "api_key": "..."}].'
        )
    return filter_config(config_list, filter_dict)


_DOTENV_DEFAULT_MODELS = ("gpt-4", "gpt-3.5-turbo")


def _load_dotenv(dotenv_file_path: str | os.PathLike[str] | None) -> None:
    try:
        from dotenv import find_dotenv, load_dotenv  # noqa: PLC0415 - needed only here
    except ImportError:
        raise ImportError("config_list_from_dotenv needs python-dotenv: pip install python-dotenv") from None
    if dotenv_file_path:
        if os.path.exists(dotenv_file_path):
            load_dotenv(dotenv_file_path)
        else:
            logger.warning("The specified .env file %s does not exist.", dotenv_file_path)
        return
    found = find_dotenv(usecwd=True)
    if found:
        load_dotenv(found)
    else:
        logger.warning("No .env file found. Loading configurations from environment variables.")


def config_list_from_dotenv(
    dotenv_file_path: str | None = None,
    model_api_key_map: dict[str, Any] | None = None,
    filter_dict: dict[str, list[str | None] | set[str | None]] | None = None,
) -> list[dict[str, str | set[str]]]:
    """Build a config list from a ``.env`` file (loaded into the environment) and environment variables.

    Variables already set in the environment keep their values.

    Args:
        dotenv_file_path: the ``.env`` file; None looks for one from the current directory upwards.
            A missing file only logs a warning: the environment is used as it is.
        model_api_key_map: ``{model: config}`` where config is the name of the variable holding
            the key (e.g. ``"OPENAI_API_KEY"``) or a dict with ``"api_key_env_var"`` and other
            settings (``base_url``, ``api_type``, ``api_version``, ...; a value naming a set
            environment variable is replaced by its value). "gpt-4" and "gpt-3.5-turbo" are
            always added with ``OPENAI_API_KEY`` unless the map names them.
        filter_dict: see ``filter_config``.

    Returns:
        One config (with ``model`` and ``api_key``) per model whose key variable is set and
        non-empty; models without a key are skipped with a warning.
    """
    _load_dotenv(dotenv_file_path)
    key_map: dict[str, Any] = dict(model_api_key_map or {})
    for model in _DOTENV_DEFAULT_MODELS:
        key_map.setdefault(model, "OPENAI_API_KEY")

    config_list: list[dict[str, Any]] = []
    for model, spec in key_map.items():
        if isinstance(spec, str):
            config = get_config(api_key=os.getenv(spec))
        elif isinstance(spec, Mapping):
            settings = {k: v for k, v in spec.items() if k != "api_key_env_var"}
            known = {k: settings.pop(k) for k in ("base_url", "api_type", "api_version") if k in settings}
            api_key = os.getenv(spec.get("api_key_env_var", "OPENAI_API_KEY"))
            config = {**get_config(api_key=api_key, **known), **settings}
        else:
            logger.warning("Unsupported type %s for model %s configuration", type(spec), model)
            continue
        api_key = config.get("api_key")
        if not api_key or not str(api_key).strip():
            logger.warning(
                "API key not found or empty for model %s. Please ensure path to .env file is correct.", model
            )
            continue
        config["model"] = model
        config_list.append(config)

    config_list = filter_config(config_list, filter_dict)
    if not config_list:
        logger.error("No configurations loaded.")
        return []
    logger.info("Models available: %s", [config["model"] for config in config_list])
    return config_list


def get_first_llm_config(llm_config: Mapping[str, Any]) -> dict[str, Any]:
    """The first endpoint of ``llm_config`` as a new plain dict.

    Args:
        llm_config: an ``llm_config`` dict or an ``LLMConfig``; one without ``config_list`` but with a
            ``model`` is itself the endpoint (a deep copy of it is returned).

    Raises:
        ValueError: ``llm_config`` has neither ``config_list`` nor ``model``, or its ``config_list`` is empty.
    """
    if "config_list" not in llm_config:
        if "model" in llm_config:
            return copy.deepcopy(dict(llm_config))
        raise ValueError(
            "llm_config must be a valid config dictionary: give it a 'config_list' of endpoints (or a 'model')."
        )
    config_list = llm_config["config_list"]
    if not config_list:
        raise ValueError("Config list must contain at least one config.")
    first = config_list[0]
    return copy.deepcopy(dict(first) if isinstance(first, Mapping) else first.model_dump())
