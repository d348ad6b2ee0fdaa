"""Classic import path ``autogen.oai.openai_utils``: config-list helpers, the price table and ``get_key``."""

from ..cache.keys import NON_CACHE_KEY, get_key
from .config_list import *  # noqa: F403 - every name of config_list, the helpers' owner
from .config_list import __all__ as _config_list_names
from .secrets import is_valid_api_key
from .usage import OAI_PRICE1K

__all__ = [*_config_list_names, "NON_CACHE_KEY", "OAI_PRICE1K", "get_key", "is_valid_api_key"]

# AG2 0.14 names the loader of autogen.llm_config.utils so here; it is the same function.
latest_config_list_from_json = config_list_from_json  # noqa: F405
