"""Classic import path ``autogen.oai.openai_utils``: config-list helpers, the price table and ``get_key``."""

from ..cache.keys import NON_CACHE_KEY, get_key
from .config_list import (
    DEFAULT_AZURE_API_VERSION,
    config_list_from_dotenv,
    config_list_from_json,
    config_list_from_models,
    config_list_gpt4_gpt35,
    config_list_openai_aoai,
    filter_config,
    get_config,
    get_config_list,
    get_first_llm_config,
)
from .secrets import is_valid_api_key
from .usage import OAI_PRICE1K

__all__ = [
    "DEFAULT_AZURE_API_VERSION",
    "NON_CACHE_KEY",
    "OAI_PRICE1K",
    "config_list_from_dotenv",
    "config_list_from_json",
    "config_list_from_models",
    "config_list_gpt4_gpt35",
    "config_list_openai_aoai",
    "filter_config",
    "get_config",
    "get_config_list",
    "get_first_llm_config",
    "get_key",
    "is_valid_api_key",
]

# AG2 0.14 names the loader of autogen.llm_config.utils so here; it is the same function.
latest_config_list_from_json = config_list_from_json
