"""Typed entries of the OpenAI family: OpenAI (and any OpenAI-compatible server), Azure OpenAI, DeepSeek,
the Responses API and the "v2" variants, with the TypedDicts of their plain form.

The chat-completions entries ("openai", "azure", "deepseek") build a working ``OpenAIClient``
(``create_client()``). The other three are served by clients of ``llm_clients``, which ``OpenAIWrapper``
builds (``oai.endpoint.providers`` names them): "responses" by ``OpenAIResponsesClient`` and
"responses_v2" by ``OpenAIResponsesV2Client``, both on the Responses API, and "openai_v2" by
``OpenAICompletionsClient`` (chat completions, answering with a ``UnifiedResponse``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import Field, HttpUrl

from ..endpoint.openai_client import OpenAIClient
from ..model_client import ModelClient
from .base import LLMConfigEntry, LLMConfigEntryDict

__all__ = [
    "AzureOpenAIEntryDict",
    "AzureOpenAILLMConfigEntry",
    "ChatCompletionsEntry",
    "DeepSeekEntryDict",
    "DeepSeekLLMConfigEntry",
    "OpenAIEntryDict",
    "OpenAILLMConfigEntry",
    "OpenAIResponsesEntryDict",
    "OpenAIResponsesLLMConfigEntry",
    "OpenAIResponsesV2LLMConfigEntry",
    "OpenAIV2EntryDict",
    "OpenAIV2LLMConfigEntry",
]

_ToolChoice = Literal["none", "auto", "required"]


class ChatCompletionsEntry(LLMConfigEntry):
    """An entry whose ``create_client()`` builds an ``OpenAIClient`` for its chat-completions endpoint.

    The Responses API and "v2" entries derive from ``OpenAILLMConfigEntry`` for its fields only: they are
    served by the clients of ``llm_clients`` (see the module notes), and their ``create_client()`` refuses.
    """

    def create_client(self) -> ModelClient:
        """An ``OpenAIClient`` for this endpoint, built from the entry's plain form."""
        return OpenAIClient(self.model_dump())  # type: ignore[return-value]


class OpenAIEntryDict(LLMConfigEntryDict, total=False):
    """The plain form of an ``OpenAILLMConfigEntry``."""

    api_type: Literal["openai"]

    price: list[float] | None
    tool_choice: _ToolChoice | None
    user: str | None
    stream: bool
    verbosity: Literal["low", "medium", "high"] | None
    extra_body: dict[str, Any] | None
    extra_headers: dict[str, str] | None
    reasoning_effort: Literal["none", "low", "minimal", "medium", "high", "xhigh"] | None
    max_completion_tokens: int | None


class OpenAILLMConfigEntry(ChatCompletionsEntry):
    """An OpenAI endpoint, or any OpenAI-compatible server (vLLM, llama.cpp, LM Studio) given as ``base_url``.

    ``extra_body`` carries fields the openai SDK does not know (vLLM's ``top_k``, ...), ``extra_headers``
    extra HTTP headers; ``price`` is ``[prompt, completion]`` in USD per 1k tokens.
    """

    api_type: Literal["openai"] = "openai"

    price: list[float] | None = Field(default=None, min_length=2, max_length=2)
    tool_choice: _ToolChoice | None = None
    user: str | None = None
    stream: bool = False
    verbosity: Literal["low", "medium", "high"] | None = None
    extra_body: dict[str, Any] | None = None
    extra_headers: dict[str, str] | None = None
    reasoning_effort: Literal["none", "low", "minimal", "medium", "high", "xhigh"] | None = None
    max_completion_tokens: int | None = None


class AzureOpenAIEntryDict(LLMConfigEntryDict, total=False):
    """The plain form of an ``AzureOpenAILLMConfigEntry``."""

    api_type: Literal["azure"]

    azure_ad_token_provider: str | Callable[[], str] | None
    stream: bool
    tool_choice: _ToolChoice | None
    user: str | None
    extra_headers: dict[str, str] | None
    reasoning_effort: Literal["low", "minimal", "medium", "high"] | None
    max_completion_tokens: int | None


class AzureOpenAILLMConfigEntry(ChatCompletionsEntry):
    """An Azure OpenAI deployment: ``base_url`` is the resource's endpoint, ``api_version`` the API version."""

    api_type: Literal["azure"] = "azure"

    azure_ad_token_provider: str | Callable[[], str] | None = None
    stream: bool = False
    tool_choice: _ToolChoice | None = None
    user: str | None = None
    extra_headers: dict[str, str] | None = None
    reasoning_effort: Literal["low", "minimal", "medium", "high"] | None = None
    max_completion_tokens: int | None = None


class DeepSeekEntryDict(LLMConfigEntryDict, total=False):
    """The plain form of a ``DeepSeekLLMConfigEntry``."""

    api_type: Literal["deepseek"]

    base_url: HttpUrl
    stream: bool
    tool_choice: _ToolChoice | None


class DeepSeekLLMConfigEntry(ChatCompletionsEntry):
    """DeepSeek's OpenAI-compatible endpoint (``https://api.deepseek.com/v1`` unless ``base_url`` says otherwise)."""

    api_type: Literal["deepseek"] = "deepseek"

    temperature: float | None = Field(default=None, ge=0.0, le=1.0)
    top_p: float | None = Field(None, ge=0.0, le=1.0)
    max_tokens: int = Field(8192, ge=1, le=8192)

    base_url: HttpUrl = HttpUrl("https://api.deepseek.com/v1")
    stream: bool = False
    tool_choice: _ToolChoice | None = None


class OpenAIResponsesEntryDict(LLMConfigEntryDict, total=False):
    """The plain form of an ``OpenAIResponsesLLMConfigEntry``."""

    api_type: Literal["responses"]

    tool_choice: _ToolChoice | None
    built_in_tools: list[Literal["web_search", "image_generation", "apply_patch", "shell"]] | None


class OpenAIResponsesLLMConfigEntry(OpenAILLMConfigEntry):
    """An OpenAI model through the Responses API (``api_type="responses"``, served by ``OpenAIResponsesClient``),
    with its built-in tools."""

    api_type: Literal["responses"] = "responses"  # type: ignore[assignment]
    tool_choice: _ToolChoice | None = "auto"
    built_in_tools: list[Literal["web_search", "image_generation", "apply_patch", "apply_patch_async", "shell"]] | None = (
        None
    )
    workspace_dir: str | None = None
    allowed_paths: list[str] | None = None
    allowed_commands: list[str] | None = None
    denied_commands: list[str] | None = None
    enable_command_filtering: bool = True
    dangerous_patterns: list[tuple[str, str]] | None = None

    def create_client(self) -> ModelClient:
        """Not available: the Responses API is reached through ``OpenAIWrapper``, not a client built here."""
        raise NotImplementedError(
            f"{type(self).__name__}.create_client is not available: put the entry in an LLMConfig (or a "
            "config_list) and let OpenAIWrapper build the client."
        )


class OpenAIV2EntryDict(LLMConfigEntryDict, total=False):
    """The plain form of an ``OpenAIV2LLMConfigEntry``."""

    api_type: Literal["openai_v2"]


class OpenAIV2LLMConfigEntry(OpenAILLMConfigEntry):
    """An OpenAI endpoint under ``api_type="openai_v2"``: chat completions answered as a ``UnifiedResponse``
    (``OpenAICompletionsClient`` of ``llm_clients``)."""

    api_type: Literal["openai_v2"] = "openai_v2"  # type: ignore[assignment]

    create_client = OpenAIResponsesLLMConfigEntry.create_client


class OpenAIResponsesV2LLMConfigEntry(OpenAILLMConfigEntry):
    """An OpenAI model through the Responses API under ``api_type="responses_v2"``, answered as a
    ``UnifiedResponse`` (``OpenAIResponsesV2Client`` of ``llm_clients``)."""

    api_type: Literal["responses_v2"] = "responses_v2"  # type: ignore[assignment]

    create_client = OpenAIResponsesLLMConfigEntry.create_client
