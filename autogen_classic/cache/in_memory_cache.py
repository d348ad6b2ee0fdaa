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

    Attributes:
        _cache: the dict holding the entries, under their prefixed keys (the classic attribute).
    """

    def __init__(self, seed: str | int = "") -> None:
        self._seed = str(seed)
        self._cache: dict[str, Any] = {}
        self._lock = threading.Lock()

    @property
    def seed(self) -> str:
        """The seed, as a string."""
        return self._seed

    @property
    def _data(self) -> dict[str, Any]:
        # An earlier name of ``_cache``; the same dict.
        return self._cache

    def _prefixed_key(self, key: str) -> str:
        """The key an entry is stored under: ``"<seed>_<key>"``, or ``key`` alone without a seed.

        ``get`` and ``set`` go through this method, so a subclass can change the namespacing.
        """
        separator = "_" if self._seed else ""
        return f"{self._seed}{separator}{key}"

    def get(self, key: str, default: Any | None = None) -> Any | None:
        """Return the value stored under ``key``, or ``default`` (also when the stored value is None)."""
        full_key = self._prefixed_key(key)
        with self._lock:
            value = self._cache.get(full_key)
        return default if value is None else value

    def set(self, key: str, value: Any) -> None:
        """Store ``value`` under ``key``."""
        full_key = self._prefixed_key(key)
        with self._lock:
            self._cache[full_key] = value

    def close(self) -> None:
        """Nothing to release; the entries stay available."""

    def __len__(self) -> int:
        return len(self._cache)
