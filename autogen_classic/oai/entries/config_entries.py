"""``ConfigEntries``: the union of every typed entry, which ``LLMConfig`` validates its entries against,
and the entry class of each ``api_type``."""

from __future__ import annotations

from typing import Union

from .base import LLMConfigEntry
from .openai_entries import (
    AzureOpenAILLMConfigEntry,
    DeepSeekLLMConfigEntry,
    OpenAILLMConfigEntry,
    OpenAIResponsesLLMConfigEntry,
    OpenAIResponsesV2LLMConfigEntry,
    OpenAIV2LLMConfigEntry,
)
from .provider_entries import *  # noqa: F403 - every provider's entry (its __all__ names just those)

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
# Every entry of the union, and the union: the names of the classic path llm_config.types.
__all__ = sorted([*(entry.__name__ for entry in ConfigEntries.__args__), "ConfigEntries"])  # type: ignore[attr-defined]

ENTRY_CLASSES: dict[str, type[LLMConfigEntry]] = {
    api_type: cls
    for cls in ConfigEntries.__args__  # type: ignore[attr-defined]
    for api_type in cls.model_fields["api_type"].annotation.__args__  # the Literal's values
}


def entry_class_for(api_type: str | None) -> type[LLMConfigEntry] | None:
    """The typed entry class of ``api_type`` ("openai" when None), or None for an unknown one."""
    return ENTRY_CLASSES.get("openai" if api_type is None else api_type)
