"""``CacheFactory``: builds the store behind a ``Cache`` from its configuration."""

from __future__ import annotations

import logging
import os
from typing import Any

from .abstract_cache_base import AbstractCache
from .disk_cache import DiskCache

__all__ = ["REDIS_NOT_SUPPORTED", "CacheFactory"]

logger = logging.getLogger(__name__)

REDIS_NOT_SUPPORTED = (
    "'redis_url' is not supported yet: Redis caches come in a later release of autogen-classic. "
    "Until then use Cache.disk(cache_seed, cache_path_root) (safe to share between processes) "
    "or Cache.in_memory(cache_seed)."
)


class CacheFactory:
    """Chooses and builds a cache store (see ``cache_factory``)."""

    @staticmethod
    def cache_factory(
        seed: str | int,
        redis_url: str | None = None,
        cache_path_root: str = ".cache",
        cosmosdb_config: dict[str, Any] | None = None,
    ) -> AbstractCache:
        """Return a cache store for ``seed``: a ``DiskCache`` under ``cache_path_root/seed``.

        Args:
            seed: the seed (namespace) of the cache.
            redis_url: URL of a Redis server; Redis caches are not supported yet (ValueError).
            cache_path_root: the root directory of disk caches. Defaults to ".cache".
            cosmosdb_config: Cosmos DB settings; Cosmos DB caches are not provided, so a disk cache
                is used instead (with a warning), as the classic package does without Cosmos DB.

        Raises:
            ValueError: ``redis_url`` is given.
        """
        if redis_url:
            raise ValueError(f"Cache: {REDIS_NOT_SUPPORTED}")
        if cosmosdb_config:
            logger.warning("CosmosDBCache is not available. Fallback to DiskCache.")
        root = os.fspath(cache_path_root) if cache_path_root is not None else ".cache"
        return DiskCache(os.path.join(root, str(seed)))  # type: ignore[return-value]
