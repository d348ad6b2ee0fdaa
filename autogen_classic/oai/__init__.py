"""The model-client layer: OpenAIWrapper, config lists, usage, llm_config checks (configuration/), endpoints
(endpoint/), the typed config_list entries (entries/).

Imports only the layers below (io, cache, exception_utils, token_count_utils, local): never tools, coding or agents.
"""

from ..cache import Cache
from ..cache.keys import get_key
from .client import OpenAIWrapper
from .config_list import (
    config_list_from_dotenv,
    config_list_from_json,
    config_list_from_models,
    config_list_gpt4_gpt35,
    config_list_openai_aoai,
    filter_config,
    get_config_list,
    get_first_llm_config,
)
from .configuration.config import ConfigEntry, LLMConfigModel, validate_llm_config
from .endpoint.openai_client import OpenAIClient
from .entries import (
    AnthropicLLMConfigEntry,
    AzureOpenAILLMConfigEntry,
    BedrockLLMConfigEntry,
    CerebrasLLMConfigEntry,
    CohereLLMConfigEntry,
    DeepSeekLLMConfigEntry,
    GeminiLLMConfigEntry,
    GroqLLMConfigEntry,
    MistralLLMConfigEntry,
    OllamaLLMConfigEntry,
    OpenAILLMConfigEntry,
    OpenAIResponsesLLMConfigEntry,
    OpenAIV2LLMConfigEntry,
    TogetherLLMConfigEntry,
)
from .errors import AllEndpointsFailedError, AllEndpointsTimedOutError, EndpointAttempt
from .model_client import ModelClient
from .usage import OAI_PRICE1K, gather_usage_summary

__all__ = [
    "AnthropicLLMConfigEntry",
    "AzureOpenAILLMConfigEntry",
    "BedrockLLMConfigEntry",
    "CerebrasLLMConfigEntry",
    "CohereLLMConfigEntry",
    "DeepSeekLLMConfigEntry",
    "GeminiLLMConfigEntry",
    "GroqLLMConfigEntry",
    "MistralLLMConfigEntry",
    "OllamaLLMConfigEntry",
    "OpenAILLMConfigEntry",
    "OpenAIResponsesLLMConfigEntry",
    "OpenAIV2LLMConfigEntry",
    "TogetherLLMConfigEntry",
    "get_first_llm_config",
    "OAI_PRICE1K",
    "AllEndpointsFailedError",
    "AllEndpointsTimedOutError",
    "Cache",
    "ConfigEntry",
    "EndpointAttempt",
    "LLMConfigModel",
    "ModelClient",
    "OpenAIClient",
    "OpenAIWrapper",
    "config_list_from_dotenv",
    "config_list_from_json",
    "config_list_from_models",
    "config_list_gpt4_gpt35",
    "config_list_openai_aoai",
    "filter_config",
    "gather_usage_summary",
    "get_config_list",
    "get_key",
    "validate_llm_config",
]
