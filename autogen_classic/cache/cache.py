"""``Cache``: the user-facing handle on a response cache (disk, memory or Redis)."""

from __future__ import annotations

import os
from contextvars import ContextVar
from types import TracebackType
from typing import Any, ClassVar

from .abstract_cache_base import AbstractCache
from .cache_factory import CacheFactory
from .in_memory_cache import InMemoryCache

__all__ = ["AbstractCache", "Cache", "CacheFactory"]


class Cache:
    """A response cache chosen by configuration: ``Cache.disk()``, ``Cache.in_memory()`` or ``Cache.redis()``.

    Pass it to ``initiate_chat(..., cache=cache)`` or ``OpenAIWrapper.create(cache=cache)``:
    a request already answered under the same seed is served from the cache without
    contacting the model. Use it as a context manager to close it when done; as in the classic
    package, ``with`` gives the underlying store (e.g. the ``DiskCache``)::

        with Cache.disk(cache_seed=42) as cache:
            user.initiate_chat(assistant, message="2+2?", cache=cache)

    Chats started inside the ``with`` block without ``cache=`` (nested chats and group chats included)
    use it too, as in AG2 0.14; an explicit ``cache=`` wins (``get_current_cache``).

    Args:
        config: ``{"cache_seed": ..., "cache_path_root": ...}`` for a disk cache,
            ``{"cache_seed": ..., "in_memory": True}`` for a memory cache or
            ``{"cache_seed": ..., "redis_url": ...}`` for a Redis cache. The seed is kept as a str.

    Raises:
        ValueError: an unknown key, or both ``redis_url`` and ``in_memory``.
        ImportError: ``redis_url`` is given and the ``redis`` package is not installed.
        RedisCacheConnectionError: the Redis server at ``redis_url`` cannot be reached
            (a ``redis.exceptions.ConnectionError``, as classic code catches it).
    """

    ALLOWED_CONFIG_KEYS: ClassVar[list[str]] = [
        "cache_seed",
        "redis_url",
        "cache_path_root",
        "cosmos_db_config",
        "in_memory",
    ]

    def __init__(self, config: dict[str, Any]) -> None:
        if not isinstance(config, dict):
            raise TypeError(f"Cache: config must be a dict with keys from {self.ALLOWED_CONFIG_KEYS}")
        for key in config:
            if key not in self.ALLOWED_CONFIG_KEYS:
                raise ValueError(f"Invalid config key: {key}. Accepted keys: {', '.join(self.ALLOWED_CONFIG_KEYS)}")
        if config.get("redis_url") and config.get("in_memory"):
            raise ValueError(
                "Cache: give either redis_url (a Redis cache) or in_memory=True (a memory cache), not both"
            )
        self.config: dict[str, Any] = {**config, "cache_seed": str(config.get("cache_seed", 42))}
        self.cache: AbstractCache
        if config.get("in_memory"):
            self.cache = InMemoryCache(seed=self.config["cache_seed"])
        else:
            root = config.get("cache_path_root") or ".cache"
            if not isinstance(root, (str, os.PathLike)):
                raise TypeError(f"Cache: cache_path_root must be a directory path, got {type(root).__name__}")
            self.cache = CacheFactory.cache_factory(
                seed=self.config["cache_seed"],
                redis_url=config.get("redis_url"),
                cache_path_root=root,  # type: ignore[arg-type]
                cosmosdb_config=config.get("cosmos_db_config"),
            )

    @staticmethod
    def disk(cache_seed: str | int = 42, cache_path_root: str = ".cache") -> Cache:
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

    @staticmethod
    def redis(cache_seed: str | int = 42, redis_url: str = "redis://localhost:6379/0") -> Cache:
        """Return a cache on the Redis server at ``redis_url``, shared by every process using it.

        Entries live under ``autogen:<cache_seed>:<key>``. Needs ``pip install "autogen-classic[redis]"``.
        If the server goes away during a chat, the chat goes on uncached after one logged warning.

        Args:
            cache_seed: the seed; a different seed gives an independent cache. Defaults to 42.
            redis_url: the Redis server URL. Defaults to "redis://localhost:6379/0".

        Raises:
            ImportError: the ``redis`` package is not installed.
            RedisCacheConnectionError: the server cannot be reached (a ``redis.exceptions.ConnectionError``).
        """
        return Cache({"cache_seed": cache_seed, "redis_url": redis_url})

    @staticmethod
    def cosmos_db(
        connection_string: str | None = None,
        container_id: str | None = None,
        cache_seed: str | int = 42,
        client: Any | None = None,
    ) -> Cache:
        """A Cosmos DB cache: not provided, so this is a disk cache under ``.cache/cache_seed``
        (with a warning), as the classic package does when Cosmos DB is not installed.

        Args:
            connection_string: the Cosmos DB connection string.
            container_id: the container id.
            cache_seed: the seed. Defaults to 42.
            client: an existing Cosmos DB client.
        """
        cosmos_db_config = {
            "connection_string": connection_string,
            "database_id": "autogen_cache",
            "container_id": container_id,
            "client": client,
        }
        return Cache({"cache_seed": str(cache_seed), "cosmos_db_config": cosmos_db_config})

    # The cache of the innermost ``with Cache...:`` block (per thread and task): chats started inside
    # the block without a cache use it (AG2 0.14).
    _current_cache: ClassVar[ContextVar[Any]] = ContextVar("autogen_classic_current_cache", default=None)

    @classmethod
    def get_current_cache(cls, cache: "Cache | None" = None) -> "Cache | None":
        """Return ``cache`` if given, else the cache of the innermost ``with Cache...:`` block (None outside one).

        Args:
            cache: an explicit cache, which wins.
        """
        if cache is not None:
            return cache
        return cls._current_cache.get()  # type: ignore[no-any-return]

    def __enter__(self) -> Any:
        """Make this the current cache and enter the underlying store's context; return the store (e.g. ``DiskCache``)."""
        self._tokens = [*getattr(self, "_tokens", []), Cache._current_cache.set(self)]
        return self.cache.__enter__()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Close the underlying store; the enclosing block's cache (if any) is current again."""
        try:
            return self.cache.__exit__(exc_type, exc_value, traceback)
        finally:
            tokens = getattr(self, "_tokens", [])
            if tokens:
                try:
                    Cache._current_cache.reset(tokens.pop())
                except (ValueError, RuntimeError):  # exited in another context than it was entered in
                    Cache._current_cache.set(None)

    def get(self, key: str, default: Any | None = None) -> Any | None:
        """Return the value stored under ``key``, or ``default`` when there is none."""
        return self.cache.get(key, default)

    def set(self, key: str, value: Any) -> None:
        """Store ``value`` under ``key``."""
        self.cache.set(key, value)

    def close(self) -> None:
        """Release the underlying store (a disk or Redis cache reconnects if used again)."""
        self.cache.close()

    def __repr__(self) -> str:
        return f"Cache({self.cache!r})"
