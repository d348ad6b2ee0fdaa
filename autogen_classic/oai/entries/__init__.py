"""Typed ``config_list`` entries: one pydantic model per provider, chosen by ``api_type``.

``base`` holds ``ApplicationConfig`` / ``LLMConfigEntry``; ``openai_entries`` the OpenAI family;
``provider_entries`` the other providers; ``config_entries`` holds ``ConfigEntries``, the union ``LLMConfig``
validates its entries against, and ``ENTRY_CLASSES``, which maps each ``api_type`` to its class. Imports only oai's
``model_client``, ``secrets`` and ``endpoint`` (never ``client.py``).
"""

from __future__ import annotations

from . import base, openai_entries, provider_entries
from .base import *  # noqa: F403 - each module's __all__ names what it defines
from .config_entries import ENTRY_CLASSES, ConfigEntries, entry_class_for
from .openai_entries import *  # noqa: F403
from .provider_entries import *  # noqa: F403

__all__ = [
    *base.__all__,
    *openai_entries.__all__,
    *provider_entries.__all__,
    "ConfigEntries",
    "ENTRY_CLASSES",
    "entry_class_for",
]
