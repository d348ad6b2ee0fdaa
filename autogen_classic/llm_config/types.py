"""Classic path ``autogen.llm_config.types``: every typed entry, and ``ConfigEntries``, their union.

The entries are defined in ``oai.entries``.
"""

from ..oai.entries import (
    AnthropicLLMConfigEntry,
    AnthropicV2LLMConfigEntry,
    AzureOpenAILLMConfigEntry,
    BedrockLLMConfigEntry,
    BedrockV2LLMConfigEntry,
    CerebrasLLMConfigEntry,
    CohereLLMConfigEntry,
    ConfigEntries,
    DeepSeekLLMConfigEntry,
    GeminiLLMConfigEntry,
    GroqLLMConfigEntry,
    MistralLLMConfigEntry,
    OllamaLLMConfigEntry,
    OpenAILLMConfigEntry,
    OpenAIResponsesLLMConfigEntry,
    OpenAIResponsesV2LLMConfigEntry,
    OpenAIV2LLMConfigEntry,
    TogetherLLMConfigEntry,
)

__all__ = [
    "AnthropicLLMConfigEntry",
    "AnthropicV2LLMConfigEntry",
    "AzureOpenAILLMConfigEntry",
    "BedrockLLMConfigEntry",
    "BedrockV2LLMConfigEntry",
    "CerebrasLLMConfigEntry",
    "CohereLLMConfigEntry",
    "ConfigEntries",
    "DeepSeekLLMConfigEntry",
    "GeminiLLMConfigEntry",
    "GroqLLMConfigEntry",
    "MistralLLMConfigEntry",
    "OllamaLLMConfigEntry",
    "OpenAILLMConfigEntry",
    "OpenAIResponsesLLMConfigEntry",
    "OpenAIResponsesV2LLMConfigEntry",
    "OpenAIV2LLMConfigEntry",
    "TogetherLLMConfigEntry",
]
