"""Response caches: on disk (shared between processes) or in memory.

Imports nothing else of the package; the model client (``oai``) builds on it.
"""

from .abstract_cache_base import AbstractCache
from .cache import Cache
from .cache_factory import CacheFactory
from .disk_cache import DiskCache
from .in_memory_cache import InMemoryCache
from .keys import get_key

__all__ = ["AbstractCache", "Cache", "CacheFactory", "DiskCache", "InMemoryCache", "get_key"]
