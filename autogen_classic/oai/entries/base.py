"""The base of the typed ``config_list`` entries: ``ApplicationConfig``, ``LLMConfigEntry`` and its TypedDict.

A typed entry is a pydantic model describing one model endpoint. It reads like a dict
(``entry["model"]``, ``entry.get(...)``, ``in``, ``keys()``, ``**entry``), dumps to the plain
``config_list`` dict that ``OpenAIWrapper`` takes (``model_dump()``, without the None values), and
never shows a secret in its ``repr``/``str``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from typing import Any

import openai
from pydantic import BaseModel, ConfigDict, Field, HttpUrl, SecretStr, ValidationInfo, field_serializer, field_validator
from typing_extensions import Required, Self, TypedDict

from ..model_client import ModelClient
from ..secrets import is_secret_key

# The HTTP client class of the installed OpenAI SDK (httpx's, or its successor package's in newer SDKs): the
# type an entry's ``http_client`` takes, without requiring a package the SDK no longer uses.
httpxClient: type = next(c for c in openai.DefaultHttpxClient.__mro__ if c.__name__ == "Client")

__all__ = [
    "HIDDEN",
    "ApplicationConfig",
    "LLMConfigEntry",
    "LLMConfigEntryDict",
    "hide_secrets",
    "is_hidden_name",
]

# What a secret value looks like in a repr (the classic mask).
HIDDEN = "**********"

# Settings whose every value is a header: any header may carry a credential.
_HEADER_MAPS = frozenset({"default_headers", "extra_headers", "headers", "http_headers"})


def is_hidden_name(name: Any) -> bool:
    """Whether the value stored under ``name`` is masked in a repr (``api_key``, ``aws_secret_key``, ...).

    Counts such as ``max_tokens`` are not secrets, though their names contain "token".
    """
    if not isinstance(name, str):
        return False
    return is_secret_key(name) and not name.lower().endswith("tokens")


def hide_secrets(data: Any) -> Any:
    """A copy of plain ``data`` (dicts, lists) with every secret value replaced by ``HIDDEN``.

    Header maps keep their header names and lose every value.
    """
    if isinstance(data, Mapping):
        out: dict[Any, Any] = {}
        for key, value in data.items():
            if is_hidden_name(key) and value is not None:
                out[key] = HIDDEN
            elif isinstance(key, str) and key.lower() in _HEADER_MAPS and isinstance(value, Mapping):
                out[key] = dict.fromkeys(value, HIDDEN)
            else:
                out[key] = hide_secrets(value)
        return out
    if isinstance(data, list):
        return [hide_secrets(item) for item in data]
    if isinstance(data, tuple):
        return tuple(hide_secrets(item) for item in data)
    return data


class LLMConfigEntryDict(TypedDict, total=False):
    """The keys of a plain ``config_list`` entry (for type checkers); ``api_type`` is required."""

    api_type: Required[str]
    model: str
    max_tokens: int | None
    top_p: float | None
    temperature: float | None

    api_key: SecretStr | str | None
    api_version: str | None
    base_url: HttpUrl | str | None
    voice: str | None
    http_client: httpxClient | None
    model_client_cls: str | None
    response_format: str | dict[str, Any] | BaseModel | type[BaseModel] | None
    default_headers: Mapping[str, Any] | None
    tags: list[str]


class ApplicationConfig(BaseModel):
    """The request settings an ``LLMConfig`` may give once for every entry: ``max_tokens``, ``top_p``, ``temperature``."""

    max_tokens: int | None = Field(default=None, ge=0, description="The most tokens the model may generate.")
    top_p: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="Nucleus sampling: only the tokens of the top_p probability mass are considered.",
    )
    temperature: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="Randomness of the answer: 0 for the most likely tokens, higher for more varied text.",
    )


class LLMConfigEntry(ApplicationConfig, ABC):
    """One model endpoint of a ``config_list``, validated: the base of the provider-specific entries.

    Fields beyond the declared ones are kept (they travel to the endpoint as request settings).
    """

    api_type: str
    model: str = Field(..., min_length=1)

    api_key: SecretStr | None = None
    api_version: str | None = None

    base_url: HttpUrl | None = None
    http_client: httpxClient | None = None

    voice: str | None = None
    model_client_cls: str | None = None
    response_format: str | dict[str, Any] | BaseModel | type[BaseModel] | None = None
    default_headers: Mapping[str, Any] | None = None
    tags: list[str] = Field(default_factory=list)

    model_config = ConfigDict(extra="allow", arbitrary_types_allowed=True)

    def apply_application_config(self, application_config: ApplicationConfig) -> Self:
        """A copy of this entry whose unset (or zero) ``max_tokens``/``top_p``/``temperature`` come from ``application_config``.

        Args:
            application_config: the settings given once for every entry.
        """
        new_entry = self.model_copy()
        new_entry.max_tokens = new_entry.max_tokens or application_config.max_tokens
        new_entry.top_p = new_entry.top_p or application_config.top_p
        new_entry.temperature = new_entry.temperature or application_config.temperature
        return new_entry

    @abstractmethod
    def create_client(self) -> ModelClient:
        """A model client for this entry."""

    @field_validator("base_url", mode="before")
    @classmethod
    def check_base_url(cls, v: HttpUrl | str | None, info: ValidationInfo) -> str | None:
        """Take a URL without a scheme (``localhost:8000/v1``) as ``http://``; websocket URLs are kept."""
        if v is None:
            return None
        if not str(v).startswith(("https://", "http://", "wss://", "ws://")):
            return f"http://{v}"
        return str(v)

    @field_serializer("base_url", when_used="unless-none")
    def serialize_base_url(self, v: HttpUrl | None) -> str | None:
        """The URL as text."""
        return str(v) if v is not None else None

    @field_serializer("api_key", when_used="unless-none")
    def serialize_api_key(self, v: SecretStr) -> str:
        """The key itself: a dump is what a client is built from (only reprs mask it)."""
        return v.get_secret_value()

    def model_dump(self, *args: Any, exclude_none: bool = True, **kwargs: Any) -> dict[str, Any]:
        """The entry as a plain ``config_list`` dict; None values are left out unless ``exclude_none=False``."""
        return BaseModel.model_dump(self, *args, exclude_none=exclude_none, **kwargs)

    def model_dump_json(self, *args: Any, exclude_none: bool = True, **kwargs: Any) -> str:
        """The entry as JSON text (secrets included: this is data, not a display)."""
        return BaseModel.model_dump_json(self, *args, exclude_none=exclude_none, **kwargs)

    def get(self, key: str, default: Any | None = None) -> Any:
        """The value of field ``key`` (a secret as plain text), or ``default`` when there is no such field."""
        value = getattr(self, key, default)
        return value.get_secret_value() if isinstance(value, SecretStr) else value

    def __getitem__(self, key: str) -> Any:
        try:
            value = getattr(self, key)
        except AttributeError:
            raise KeyError(f"Key '{key}' not found in {self.__class__.__name__}") from None
        return value.get_secret_value() if isinstance(value, SecretStr) else value

    def __setitem__(self, key: str, value: Any) -> None:
        setattr(self, key, value)

    def __contains__(self, key: str) -> bool:
        return hasattr(self, key)

    def items(self) -> Iterable[tuple[str, Any]]:
        """The items of ``model_dump()``."""
        return self.model_dump().items()

    def keys(self) -> Iterable[str]:
        """The keys of ``model_dump()`` (so ``**entry`` and ``dict(entry)`` give the plain entry)."""
        return self.model_dump().keys()

    def values(self) -> Iterable[Any]:
        """The values of ``model_dump()``."""
        return self.model_dump().values()

    def __repr__(self) -> str:
        shown = hide_secrets(self.model_dump())
        return f"{self.__class__.__name__}({', '.join(f'{k}={v!r}' for k, v in shown.items())})"

    def __str__(self) -> str:
        return repr(self)
