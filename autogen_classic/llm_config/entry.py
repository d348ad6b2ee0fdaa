"""Classic path ``autogen.llm_config.entry``: the base of the typed entries (defined in ``oai.entries.base``)."""

from ..oai.entries import ApplicationConfig, LLMConfigEntry, LLMConfigEntryDict
from ..oai.model_client import ModelClient  # noqa: F401 - importable here, as in the classic module

__all__ = ["ApplicationConfig", "LLMConfigEntry", "LLMConfigEntryDict"]
