"""A response cache in process memory."""

from __future__ import annotations

import threading
from typing import Any

from .abstract_cache_base import AbstractCache, ClosingContextManager

__all__ = ["AbstractCache", "InMemoryCache"]


class InMemoryCache(ClosingContextManager):
    """Keeps responses in a dict for the life of the object (lost when the process exits).

    Args:
        seed: the cache seed; it namespaces the keys so one store can serve several seeds.
    """

    def __init__(self, seed: str | int = "") -> None:
        self.seed = str(seed)
        self._data: dict[str, Any] = {}
        self._lock = threading.Lock()

    def _full_key(self, key: str) -> str:
        return f"{self.seed}_{key}" if self.seed else key

    def get(self, key: str, default: Any | None = None) -> Any | None:
        """Return the value stored under ``key``, or ``default`` (also when the stored value is None)."""
        with self._lock:
            value = self._data.get(self._full_key(key))
        return default if value is None else value

    def set(self, key: str, value: Any) -> None:
        """Store ``value`` under ``key``."""
        with self._lock:
            self._data[self._full_key(key)] = value

    def close(self) -> None:
        """Nothing to release; the entries stay available."""

    def __len__(self) -> int:
        return len(self._data)
