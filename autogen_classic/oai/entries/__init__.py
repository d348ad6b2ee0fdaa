"""Typed ``config_list`` entries: one pydantic model per provider, chosen by ``api_type``.

``base`` holds ``ApplicationConfig`` / ``LLMConfigEntry``; ``openai_entries`` the OpenAI family;
``provider_entries`` the other providers. ``ConfigEntries`` is the union ``LLMConfig`` validates
its entries against, ``ENTRY_CLASSES`` maps each ``api_type`` to its class. Imports only oai's
``model_client``, ``secrets`` and ``endpoint`` (never ``client.py``).
"""

from __future__ import annotations

from typing import Union

from .base import HIDDEN, ApplicationConfig, LLMConfigEntry, LLMConfigEntryDict, hide_secrets, is_hidden_name
from .openai_entries import (
    AzureOpenAIEntryDict,
    AzureOpenAILLMConfigEntry,
    ChatCompletionsEntry,
    DeepSeekEntryDict,
    DeepSeekLLMConfigEntry,
    OpenAIEntryDict,
    OpenAILLMConfigEntry,
    OpenAIResponsesEntryDict,
    OpenAIResponsesLLMConfigEntry,
    OpenAIResponsesV2LLMConfigEntry,
    OpenAIV2EntryDict,
    OpenAIV2LLMConfigEntry,
)
from .provider_entries import (
    AnthropicLLMConfigEntry,
    AnthropicV2LLMConfigEntry,
    BedrockLLMConfigEntry,
    BedrockV2LLMConfigEntry,
    CerebrasLLMConfigEntry,
    CohereLLMConfigEntry,
    GeminiLLMConfigEntry,
    GroqLLMConfigEntry,
    MistralLLMConfigEntry,
    OllamaLLMConfigEntry,
    TogetherLLMConfigEntry,
)

__all__ = [
    "ENTRY_CLASSES",
    "HIDDEN",
    "AnthropicLLMConfigEntry",
    "AnthropicV2LLMConfigEntry",
    "ApplicationConfig",
    "AzureOpenAIEntryDict",
    "AzureOpenAILLMConfigEntry",
    "BedrockLLMConfigEntry",
    "BedrockV2LLMConfigEntry",
    "CerebrasLLMConfigEntry",
    "ChatCompletionsEntry",
    "CohereLLMConfigEntry",
    "ConfigEntries",
    "DeepSeekEntryDict",
    "DeepSeekLLMConfigEntry",
    "GeminiLLMConfigEntry",
    "GroqLLMConfigEntry",
    "LLMConfigEntry",
    "LLMConfigEntryDict",
    "MistralLLMConfigEntry",
    "OllamaLLMConfigEntry",
    "OpenAIEntryDict",
    "OpenAILLMConfigEntry",
    "OpenAIResponsesEntryDict",
    "OpenAIResponsesLLMConfigEntry",
    "OpenAIResponsesV2LLMConfigEntry",
    "OpenAIV2EntryDict",
    "OpenAIV2LLMConfigEntry",
    "TogetherLLMConfigEntry",
    "entry_class_for",
    "hide_secrets",
    "is_hidden_name",
]

# In the classic order (the order the tags are listed in when an api_type is unknown).
ConfigEntries = Union[
    AnthropicLLMConfigEntry,
    AnthropicV2LLMConfigEntry,
    CerebrasLLMConfigEntry,
    BedrockV2LLMConfigEntry,
    BedrockLLMConfigEntry,
    AzureOpenAILLMConfigEntry,
    DeepSeekLLMConfigEntry,
    OpenAILLMConfigEntry,
    OpenAIResponsesLLMConfigEntry,
    OpenAIV2LLMConfigEntry,
    CohereLLMConfigEntry,
    GeminiLLMConfigEntry,
    GroqLLMConfigEntry,
    MistralLLMConfigEntry,
    OllamaLLMConfigEntry,
    TogetherLLMConfigEntry,
    OpenAIResponsesV2LLMConfigEntry,
]

ENTRY_CLASSES: dict[str, type[LLMConfigEntry]] = {
    api_type: cls
    for cls in ConfigEntries.__args__  # type: ignore[attr-defined]
    for api_type in cls.model_fields["api_type"].annotation.__args__  # the Literal's values
}


def entry_class_for(api_type: str | None) -> type[LLMConfigEntry] | None:
    """The typed entry class of ``api_type`` ("openai" when None), or None for an unknown one."""
    return ENTRY_CLASSES.get("openai" if api_type is None else api_type)
