"""``LLMConfig``, the model configuration of AG2 0.14 (classic path ``autogen.llm_config``).

Sits at the level of ``oai``: it may import oai-level code (the typed entries of ``oai.entries``,
the config-list helpers) and never anything above (tools, coding, agents).

- ``config``: ``LLMConfig`` itself;
- ``entry`` / ``types``: the typed entries (defined in ``oai.entries``, re-exported here);
- ``client``: the ``ModelClient`` protocol; ``utils``: ``config_list_from_json`` and ``filter_config``.
"""

from .client import ModelClient
from .config import LLMConfig

__all__ = ("LLMConfig", "ModelClient")
