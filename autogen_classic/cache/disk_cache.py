"""A response cache on disk, shared safely between threads and processes."""

from __future__ import annotations

import os
from typing import Any

import diskcache

from .abstract_cache_base import AbstractCache, ClosingContextManager

__all__ = ["AbstractCache", "DiskCache"]


# The real class, to tell it from a replacement of ``diskcache.Cache`` (see ``DiskCache.close``).
_DISKCACHE_CLASS = diskcache.Cache


class DiskCache(ClosingContextManager):
    """Stores responses in a ``diskcache`` directory (SQLite in WAL mode plus files).

    Several processes may open the same directory at once: every ``get``/``set`` is a
    single SQLite transaction, so a reader sees either the old or the new value, never
    a torn one.

    Args:
        seed: the cache directory (as in the classic package, e.g. ``"./.cache/41"``), or, when
            ``cache_path_root`` is given, the name of a sub-directory of it.
        cache_path_root: optional directory holding one sub-directory per seed.

    Attributes:
        cache: the underlying ``diskcache.Cache`` (opened on first use).
    """

    def __init__(self, seed: str | int, cache_path_root: str | os.PathLike[str] | None = None) -> None:
        self.seed = str(seed)
        self.directory = self.seed if cache_path_root is None else os.path.join(os.fspath(cache_path_root), self.seed)
        self._cache: diskcache.Cache | None = None

    @property
    def cache(self) -> diskcache.Cache:
        """The underlying ``diskcache.Cache``."""
        # Opened lazily so that building a client or agent never touches the disk.
        if self._cache is None:
            self._cache = diskcache.Cache(self.directory)
        return self._cache

    def get(self, key: str, default: Any | None = None) -> Any | None:
        """Return the value stored under ``key``, or ``default``."""
        return self.cache.get(key, default)

    def set(self, key: str, value: Any) -> None:
        """Store ``value`` (pickled) under ``key``."""
        self.cache.set(key, value)

    def close(self) -> None:
        """Close the underlying ``diskcache.Cache``; a later ``get``/``set`` reopens it.

        A cache never used has no connection to close, and is not opened just to be closed. When
        ``diskcache.Cache`` has been replaced (a test double, a subclass of the user's), that object
        is built and closed as in classic AutoGen, which opens it when the ``DiskCache`` is made.
        """
        if self._cache is None and diskcache.Cache is _DISKCACHE_CLASS:
            return
        self.cache.close()

    def __len__(self) -> int:
        return len(self.cache)

    def __repr__(self) -> str:
        return f"DiskCache(directory={self.directory!r})"
