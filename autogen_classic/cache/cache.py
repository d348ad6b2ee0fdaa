"""``Cache``: the user-facing handle on a response cache (disk or memory)."""

from __future__ import annotations

import os
from typing import Any, ClassVar

from .abstract_cache_base import ClosingContextManager
from .disk_cache import DiskCache
from .in_memory_cache import InMemoryCache



__all__ = ["Cache"]


class Cache(ClosingContextManager):
    """A response cache chosen by configuration; use ``Cache.disk()`` or ``Cache.in_memory()``.

    Pass it to ``initiate_chat(..., cache=cache)`` or ``OpenAIWrapper.create(cache=cache)``:
    a request already answered under the same seed is served from the cache without
    contacting the model. Use it as a context manager to close it when done::

        with Cache.disk(cache_seed=42) as cache:
            user.initiate_chat(assistant, message="2+2?", cache=cache)

    Args:
        config: ``{"cache_seed": ..., "cache_path_root": ...}`` for a disk cache or
            ``{"cache_seed": ..., "in_memory": True}`` for a memory cache.
    """

    ALLOWED_CONFIG_KEYS: ClassVar[list[str]] = [
        "cache_seed",
        "cache_path_root",
        "in_memory",
        "redis_url",
        "cosmos_db_config",
    ]

    def __init__(self, config: dict[str, Any]) -> None:
        if not isinstance(config, dict):
            raise TypeError(f"Cache: config must be a dict with keys from {self.ALLOWED_CONFIG_KEYS}")
        for key in config:
            if key not in self.ALLOWED_CONFIG_KEYS:
                raise ValueError(f"Invalid config key: {key}. Accepted keys: {', '.join(self.ALLOWED_CONFIG_KEYS)}")
        for key in ("redis_url", "cosmos_db_config"):
            if config.get(key):
                raise ValueError(
                    f"Cache: '{key}' is not supported by autogen-classic; use Cache.disk(cache_seed, cache_path_root) "
                    "(safe to share between processes) or Cache.in_memory(cache_seed)."
                )
        seed = config.get("cache_seed", 42)
        if not isinstance(seed, (str, int)) or isinstance(seed, bool):
            raise TypeError(f"Cache: cache_seed must be an int or a str, got {type(seed).__name__}")
        self.config: dict[str, Any] = {**config, "cache_seed": str(seed)}
        self.cache: DiskCache | InMemoryCache
        if config.get("in_memory"):
            self.cache = InMemoryCache(seed=self.config["cache_seed"])
        else:
            root = config.get("cache_path_root") or ".cache"
            if not isinstance(root, (str, os.PathLike)):
                raise TypeError(f"Cache: cache_path_root must be a directory path, got {type(root).__name__}")
            self.cache = DiskCache(self.config["cache_seed"], root)

    @staticmethod
    def disk(cache_seed: str | int = 42, cache_path_root: str | os.PathLike[str] = ".cache") -> Cache:
        """Return a cache stored under ``cache_path_root/cache_seed`` (shared between processes).

        Args:
            cache_seed: the seed; a different seed gives an independent cache. Defaults to 42.
            cache_path_root: the root directory. Defaults to ".cache".
        """
        return Cache({"cache_seed": cache_seed, "cache_path_root": cache_path_root})

    @staticmethod
    def in_memory(cache_seed: str | int = 42) -> Cache:
        """Return a cache held in memory for the life of this object.

        Args:
            cache_seed: the seed, which namespaces the keys. Defaults to 42.
        """
        return Cache({"cache_seed": cache_seed, "in_memory": True})

    def get(self, key: str, default: Any | None = None) -> Any | None:
        """Return the value stored under ``key``, or ``default`` when there is none."""
        return self.cache.get(key, default)

    def set(self, key: str, value: Any) -> None:
        """Store ``value`` under ``key``."""
        self.cache.set(key, value)

    def close(self) -> None:
        """Release the underlying store (a disk cache reopens itself if used again)."""
        self.cache.close()


    def __repr__(self) -> str:
        return f"Cache({self.cache!r})"
