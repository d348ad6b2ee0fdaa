"""Classic path ``autogen.llm_config.utils``: loading and filtering config lists (defined in ``oai.config_list``)."""

from ..oai.config_list import config_list_from_json, filter_config

__all__ = ["config_list_from_json", "filter_config"]
