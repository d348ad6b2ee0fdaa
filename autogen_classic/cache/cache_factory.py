"""``CacheFactory``: builds the store behind a ``Cache`` from its configuration."""

from __future__ import annotations

import logging
import os
from typing import Any

from .abstract_cache_base import AbstractCache
from .disk_cache import DiskCache
from .in_memory_cache import InMemoryCache  # noqa: F401 - importable here, as in classic AutoGen

__all__ = ["CacheFactory"]

logger = logging.getLogger(__name__)


class CacheFactory:
    """Chooses and builds a cache store (see ``cache_factory``)."""

    @staticmethod
    def cache_factory(
        seed: str | int,
        redis_url: str | None = None,
        cache_path_root: str = ".cache",
        cosmosdb_config: dict[str, Any] | None = None,
    ) -> AbstractCache:
        """Return a cache store for ``seed``: a ``RedisCache`` when ``redis_url`` is given,
        otherwise a ``DiskCache`` under ``cache_path_root/seed``.

        Args:
            seed: the seed (namespace) of the cache.
            redis_url: URL of a Redis server, e.g. ``"redis://localhost:6379/0"``; needs
                ``pip install "autogen-classic[redis]"``. Takes precedence over the other settings.
            cache_path_root: the root directory of disk caches. Defaults to ".cache".
            cosmosdb_config: Cosmos DB settings; Cosmos DB caches are not provided, so a disk cache
                is used instead (with a warning), as the classic package does without Cosmos DB.

        Raises:
            ImportError: ``redis_url`` is given and the ``redis`` package is not installed.
            RedisCacheConnectionError: the Redis server cannot be reached (a ``redis.exceptions.ConnectionError``).
        """
        if redis_url:
            # Imported here: the redis client is optional and slow to import.
            from .redis_cache import RedisCache

            return RedisCache(seed, redis_url)  # type: ignore[return-value]
        if cosmosdb_config:
            logger.warning("CosmosDBCache is not available. Fallback to DiskCache.")
        root = os.fspath(cache_path_root) if cache_path_root is not None else ".cache"
        return DiskCache(os.path.join(root, str(seed)))  # type: ignore[return-value]
