"""A response cache on a Redis server, shared by every process that uses the same URL and seed.

Needs the ``redis`` client package (``pip install "autogen-classic[redis]"``). Only this module imports
it, and the package loads this module only when a Redis cache is asked for (the client is slow to import).
"""

from __future__ import annotations

import logging
import pickle
import threading
import time
from typing import Any, ClassVar
from urllib.parse import parse_qsl, urlencode, urlsplit

from .abstract_cache_base import AbstractCache, ClosingContextManager

__all__ = ["REDIS_EXTRA_HINT", "AbstractCache", "RedisCache", "RedisCacheConnectionError", "scrub_redis_url"]

logger = logging.getLogger(__name__)

REDIS_EXTRA_HINT = 'pip install "autogen-classic[redis]"'
KEY_PREFIX = "autogen"
# Without them a dead host (not a refused port) can stall a chat on the OS's TCP timeouts;
# ``socket_timeout``/``socket_connect_timeout`` in the URL's query take precedence.
DEFAULT_SOCKET_TIMEOUT = 5.0

try:  # a module attribute, as in the classic module (tests patch ``redis_cache.redis.Redis.from_url``)
    import redis
except ImportError:  # only without the extra, where building a RedisCache raises ImportError first
    redis = None  # type: ignore[assignment]

try:  # the base class must be the classic one, so ``except redis.exceptions.ConnectionError`` still works
    from redis.exceptions import ConnectionError as _RedisConnectionError
except ImportError:

    class _RedisConnectionError(Exception):  # type: ignore[no-redef]
        """Stands in for ``redis.exceptions.ConnectionError`` when redis is not installed."""


class RedisCacheConnectionError(_RedisConnectionError, ConnectionError):  # type: ignore[misc]
    """The Redis server of a ``RedisCache`` cannot be used when the cache is built.

    A ``redis.exceptions.ConnectionError`` (what classic AutoGen raises when Redis is unreachable)
    and a built-in ``ConnectionError``. The message names the URL, with any password replaced by ``***``.
    """


def scrub_redis_url(redis_url: str) -> str:
    """Return ``redis_url`` with the password (in the user part or a ``password=`` query) replaced by ``***``."""
    try:
        parts = urlsplit(redis_url)
        netloc = parts.netloc
        if "@" in netloc:
            userinfo, _, hostinfo = netloc.rpartition("@")
            if ":" in userinfo:
                userinfo = userinfo.split(":", 1)[0] + ":***"
            elif userinfo:  # a lone user part may well be a token: hide it too
                userinfo = "***"
            netloc = f"{userinfo}@{hostinfo}"
        query = parts.query
        if query:
            pairs = parse_qsl(query, keep_blank_values=True)
            if any(name.lower() == "password" for name, _ in pairs):
                query = urlencode([(n, "***" if n.lower() == "password" else v) for n, v in pairs], safe="*")
        if netloc == parts.netloc and query == parts.query:
            return redis_url
        # Built by hand: urlunsplit drops the "//" of "unix:///path" when there is no host part.
        return f"{parts.scheme}://{netloc}{parts.path}" + (f"?{query}" if query else "") + (
            f"#{parts.fragment}" if parts.fragment else ""
        )
    except ValueError:
        # Not parseable as a URL: show only what cannot hold a secret.
        return redis_url.split("@")[-1] if "@" in redis_url else redis_url


def _start_hint(redis_url: str) -> str:
    """A command that starts a Redis server where ``redis_url`` points."""
    try:
        parts = urlsplit(redis_url)
        port = parts.port or 6379
    except ValueError:
        return "e.g. `redis-server`"
    if parts.scheme == "unix":
        return f"e.g. `redis-server --port 0 --unixsocket {parts.path}`"
    return f"e.g. `redis-server --port {port}`, or `docker run -p {port}:6379 redis`"


def _import_redis() -> Any:
    if redis is None:
        raise ImportError(
            f"RedisCache needs the 'redis' package, which is not installed: {REDIS_EXTRA_HINT} "
            "(or use Cache.disk() / Cache.in_memory(), which need no server)."
        )
    return redis


class RedisCache(ClosingContextManager):
    """Stores responses on a Redis server under ``autogen:<seed>:<key>``, pickled.

    Every process using the same ``redis_url`` and ``seed`` shares the entries; the client is
    thread-safe, so concurrent chats may use one ``RedisCache``. The server is contacted when the
    cache is built, so a wrong URL fails at once with ``RedisCacheConnectionError``.

    If the server goes away later, the cache logs ONE warning and behaves as an empty cache that
    stores nothing (chats go on uncached); it tries the server again every ``RETRY_INTERVAL``
    seconds and resumes when it answers.

    Only point it at a Redis server you trust: like the classic cache, values are pickled, and
    unpickling data written by someone else can run code.

    Args:
        seed: the seed (namespace) of the cache; the keys are prefixed with ``autogen:<seed>:``.
        redis_url: the server, e.g. ``"redis://localhost:6379/0"``, ``"redis://:password@host:6379/0"``,
            ``"rediss://..."`` (TLS) or ``"unix:///path/redis.sock"``.

    Attributes:
        seed: the seed as given.
        cache: the ``redis.Redis`` client.

    Raises:
        ImportError: the ``redis`` package is not installed.
        TypeError, ValueError: ``redis_url`` is not a string or not a Redis URL.
        RedisCacheConnectionError: the server cannot be reached or refuses the credentials.
    """

    # Seconds between attempts to reach a server that went away; while it is away, calls cost nothing.
    RETRY_INTERVAL: ClassVar[float] = 30.0

    def __init__(self, seed: str | int, redis_url: str) -> None:
        client_module = _import_redis()
        if not isinstance(redis_url, str):
            raise TypeError(
                "RedisCache: redis_url must be a str such as 'redis://localhost:6379/0', "
                f"got {type(redis_url).__name__}"
            )
        if not redis_url.strip():
            raise ValueError("RedisCache: redis_url is empty; pass one such as 'redis://localhost:6379/0'")
        self.seed = seed
        self._url = scrub_redis_url(redis_url)
        self._errors: tuple[type[BaseException], ...] = (client_module.exceptions.RedisError, OSError)
        try:
            self.cache = client_module.Redis.from_url(redis_url)
        except ValueError as err:
            raise ValueError(
                f"RedisCache: redis_url {self._url!r} is not a Redis URL ({err}); "
                "use redis://host:port/db, rediss://host:port/db or unix:///path/to/redis.sock"
            ) from None
        # Timeouts for the connections to come, unless the URL's query set them.
        pool_kwargs = getattr(getattr(self.cache, "connection_pool", None), "connection_kwargs", None)
        if isinstance(pool_kwargs, dict):
            pool_kwargs.setdefault("socket_timeout", DEFAULT_SOCKET_TIMEOUT)
            pool_kwargs.setdefault("socket_connect_timeout", DEFAULT_SOCKET_TIMEOUT)
        self._lock = threading.Lock()
        self._down_since: float | None = None  # monotonic time of the last failure while the server is away
        try:
            self.cache.ping()
        except self._errors as err:
            self.cache.close()
            raise RedisCacheConnectionError(self._unreachable_message(err, redis_url)) from None

    # ----------------------------------------------------------------- messages
    def _reason(self, err: BaseException, redis_url: str | None = None) -> str:
        text = (str(err) or type(err).__name__).rstrip(".")
        try:
            password = urlsplit(redis_url).password if redis_url else None
        except ValueError:
            password = None
        return text.replace(password, "***") if password else text

    def _unreachable_message(self, err: BaseException, redis_url: str) -> str:
        reason = self._reason(err, redis_url)
        if "auth" in type(err).__name__.lower() or "password" in reason.lower() or "NOAUTH" in reason:
            fix = "check the user name and password in redis_url (redis://user:password@host:port/db)"
        else:
            fix = f"start a Redis server there ({_start_hint(redis_url)}) or pass the URL of a running one as redis_url"
        return (
            f"Cannot use the Redis cache at {self._url}: {reason}. To fix: {fix}. "
            f"(The Redis client comes with {REDIS_EXTRA_HINT}; "
            "Cache.disk() or Cache.in_memory() cache without a server.)"
        )

    # ----------------------------------------------------------------- outage handling
    def _available(self) -> bool:
        """False while the server is away and the retry interval has not passed."""
        with self._lock:
            down_since = self._down_since
        return down_since is None or time.monotonic() - down_since >= self.RETRY_INTERVAL

    def _failed(self, err: BaseException) -> None:
        with self._lock:
            first = self._down_since is None
            self._down_since = time.monotonic()
        if first:  # one warning per outage, not one per call
            logger.warning(
                "The Redis cache at %s is unavailable (%s: %s); continuing without it: answers are "
                "neither served from nor stored in the cache until it is reachable again "
                "(retried every %g s).",
                self._url,
                type(err).__name__,
                self._reason(err),
                self.RETRY_INTERVAL,
            )

    def _succeeded(self) -> None:
        if self._down_since is None:  # the common case: no lock needed
            return
        with self._lock:
            was_down, self._down_since = self._down_since is not None, None
        if was_down:
            logger.info("The Redis cache at %s is reachable again; caching resumes.", self._url)

    # ----------------------------------------------------------------- the cache protocol
    def _prefixed_key(self, key: str) -> str:
        """The Redis key of ``key``: ``autogen:<seed>:<key>``."""
        return f"{KEY_PREFIX}:{self.seed}:{key}"

    def get(self, key: str, default: Any | None = None) -> Any | None:
        """Return the value stored under ``key``, or ``default`` when there is none (or Redis is away)."""
        if not self._available():
            return default
        try:
            raw = self.cache.get(self._prefixed_key(key))
        except self._errors as err:
            self._failed(err)
            return default
        self._succeeded()
        if raw is None:
            return default
        try:
            return pickle.loads(raw)
        except Exception as err:  # noqa: BLE001 - an unreadable entry is a miss; the fresh answer replaces it
            logger.warning("Ignoring an unreadable Redis cache entry %s (%s: %s).", key, type(err).__name__, err)
            return default

    def set(self, key: str, value: Any) -> None:
        """Store ``value`` (pickled) under ``key``; skipped, after one warning, while Redis is away.

        Raises:
            pickle.PicklingError, TypeError, AttributeError: ``value`` cannot be pickled.
        """
        data = pickle.dumps(value)  # before any network call: an unpicklable value is the caller's error
        if not self._available():
            return
        try:
            self.cache.set(self._prefixed_key(key), data)
        except self._errors as err:
            self._failed(err)
            return
        self._succeeded()

    def close(self) -> None:
        """Close the connections to the server; a later ``get``/``set`` reconnects."""
        self.cache.close()

    def __repr__(self) -> str:
        return f"RedisCache(seed={self.seed!r}, redis_url={self._url!r})"
