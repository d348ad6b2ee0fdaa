"""Benchmark of the model-client layer against the scripted OpenAI server on 127.0.0.1.

Per call it reports:

- raw: the ``openai`` SDK's own request time (``client.chat.completions.create``);
- wrapper: the same uncached request through ``OpenAIWrapper.create``, and its added overhead;
- cache hits: ``OpenAIWrapper.create`` answered from ``Cache.in_memory()`` and ``Cache.disk()``;
- the request route: the same uncached request through ``create``'s typed walk of messages and
  tools (``"sdk_fast_path": False``, the route taken while a tracing tool wraps the SDK) and by the
  default route past it (nothing wraps the SDK here), for a short chat and a longer one with tools,
  as wall time and as CPU time of the calling thread (the server's thread excluded); no target, the
  table says what skipping the walk saves.

Targets: the wrapper adds under 10% to an uncached request, and a cache hit is at least
20x faster than the request it replaces. Raw and wrapper calls are interleaved and medians
are compared, so machine load affects both alike.

Usage: ``python bench/bench_client.py [--quick] [--calls N]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable

import openai

from autogen_classic.cache import Cache
from autogen_classic.io.base import IOStream
from autogen_classic.oai import OpenAIWrapper
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer

MESSAGES = [
    {"role": "system", "content": "You are a helpful AI assistant. Solve tasks using your coding and language skills."},
    {"role": "user", "content": "Write a short poem about caching. " * 10},
    {"role": "assistant", "content": "Bits remembered, time reclaimed. " * 8},
    {"role": "user", "content": "Now explain it in one sentence."},
]
REPLY = "A cache keeps answers close so the same question never travels twice. " * 4
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": f"tool_{i}",
            "description": "Look something up.",
            "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
        },
    }
    for i in range(3)
]
# (name, messages, tools) of the chats the two request routes are measured on.
FAST_PATH_CHATS = [("4 messages", MESSAGES, None), ("20 messages, 3 tools", MESSAGES * 5, TOOLS)]


def _time(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _median_us(samples: list[float]) -> float:
    return statistics.median(samples) * 1e6


def _timed(fn: Callable[[], object]) -> tuple[float, float]:
    """Wall time and CPU time of this thread for one call of ``fn``."""
    wall, cpu = time.perf_counter(), time.thread_time()
    fn()
    return time.perf_counter() - wall, time.thread_time() - cpu


def run_fast_path(calls: int) -> list[tuple[str, float, str]]:
    """Measure the two request routes (the typed walk, and the default past it); return table rows."""
    rows: list[tuple[str, float, str]] = []
    with ScriptedOpenAIServer(default_reply=REPLY) as server:
        entry = server.config_entry()
        walk = OpenAIWrapper(config_list=[{**entry, "sdk_fast_path": False}], cache_seed=None)
        default = OpenAIWrapper(config_list=[entry], cache_seed=None)
        for name, messages, tools in FAST_PATH_CHATS:
            extra = {"tools": tools} if tools else {}
            calls_of = {
                "walk": lambda m=messages, e=extra: walk.create(messages=m, **e),
                "default": lambda m=messages, e=extra: default.create(messages=m, **e),
            }
            before = len(server.requests)
            for call in calls_of.values():
                call()
            sent_walk, sent_default = server.requests[before:before + 2]
            assert sent_walk == sent_default, "the routes sent different request bodies"
            for _ in range(max(5, calls // 10)):
                for call in calls_of.values():
                    call()
            samples: dict[str, list[tuple[float, float]]] = {key: [] for key in calls_of}
            for i in range(calls):  # interleaved, in alternating order
                for key in (list(calls_of) if i % 2 else list(reversed(calls_of))):
                    samples[key].append(_timed(calls_of[key]))
            wall = {key: _median_us([w for w, _ in s]) for key, s in samples.items()}
            cpu = {key: _median_us([c for _, c in s]) for key, s in samples.items()}
            saved_cpu = cpu["walk"] - cpu["default"]
            rows += [
                (f"{name}: typed walk, wall", wall["walk"], "the route while a tracing tool wraps the SDK"),
                (f"{name}: default, wall", wall["default"],
                 f"{wall['walk'] - wall['default']:+.0f} µs saved per request"),
                (f"{name}: typed walk, client CPU", cpu["walk"], "CPU time of the calling thread"),
                (f"{name}: default, client CPU", cpu["default"],
                 f"{saved_cpu:+.0f} µs saved ({100.0 * saved_cpu / cpu['walk']:.0f}% of the walk)"),
            ]
    return rows


def run(calls: int) -> tuple[list[tuple[str, float, str]], dict[str, bool]]:
    """Run the measurements; return table rows (name, median µs, note) and target checks."""
    with ScriptedOpenAIServer(default_reply=REPLY) as server:
        entry = server.config_entry()
        raw_client = openai.OpenAI(api_key=entry["api_key"], base_url=entry["base_url"])
        wrapper = OpenAIWrapper(config_list=[entry], cache_seed=None)

        def raw_call() -> object:
            return raw_client.chat.completions.create(model=entry["model"], messages=MESSAGES)

        # Time the SDK call inside the wrapper too (an instance attribute on the wrapper's own
        # SDK client), so the wrapper's own work per call is measured without network noise.
        sdk_completions = wrapper._clients[0]._client.chat.completions
        sdk_create = sdk_completions.create
        inner: list[float] = []

        def timed_sdk_create(**kwargs: object) -> object:
            start = time.perf_counter()
            try:
                return sdk_create(**kwargs)
            finally:
                inner.append(time.perf_counter() - start)

        sdk_completions.create = timed_sdk_create  # type: ignore[method-assign]

        def wrapped_call() -> object:
            return wrapper.create(messages=MESSAGES)

        for _ in range(max(5, calls // 10)):  # warm connection pools and lazy imports
            raw_call()
            wrapped_call()
        raw: list[float] = []
        wrapped: list[float] = []
        inner.clear()
        for i in range(calls):  # interleave so drift and load hit both alike
            if i % 2:
                raw.append(_time(raw_call))
                wrapped.append(_time(wrapped_call))
            else:
                wrapped.append(_time(wrapped_call))
                raw.append(_time(raw_call))

        hits: dict[str, list[float]] = {}
        with tempfile.TemporaryDirectory() as root:
            for name, cache in (("in-memory", Cache.in_memory()), ("disk", Cache.disk(42, root))):
                wrapper.create(messages=MESSAGES, cache=cache)  # fill
                before = server.request_count
                hits[name] = [_time(lambda c=cache: wrapper.create(messages=MESSAGES, cache=c)) for _ in range(calls)]
                assert server.request_count == before, "a cache hit reached the server"
                cache.close()

    raw_us, wrapped_us = _median_us(raw), _median_us(wrapped)
    own_us = _median_us([total - sdk for total, sdk in zip(wrapped, inner)])
    own_pct = 100.0 * own_us / raw_us
    difference = wrapped_us - raw_us
    rows = [
        ("raw openai request", raw_us, "baseline"),
        ("OpenAIWrapper.create, uncached", wrapped_us, f"{difference:+.0f} µs end to end (includes server noise)"),
        ("  wrapper's own work per call", own_us, f"{own_pct:.1f}% of the raw request"),
    ]
    checks = {"wrapper overhead < 10%": own_pct < 10.0}
    for name, samples in hits.items():
        hit_us = _median_us(samples)
        speedup = raw_us / hit_us
        rows.append((f"cache hit ({name})", hit_us, f"{speedup:.0f}x faster than the request"))
        checks[f"{name} cache hit >= 20x faster"] = speedup >= 20.0
    return rows, checks


def _print_table(rows: list[tuple[str, float, str]]) -> None:
    width = max(len(name) for name, _, _ in rows)
    print(f"{'measurement'.ljust(width)}  {'per call':>12}  note")
    print(f"{'-' * width}  {'-' * 12}  {'-' * 40}")
    for name, micros, note in rows:
        print(f"{name.ljust(width)}  {micros:>9.0f} µs  {note}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer calls (a smoke run of a few seconds)")
    parser.add_argument(
        "--calls", type=int, default=None, help="calls per measurement (default 400, or 60 with --quick)"
    )
    args = parser.parse_args(argv)
    calls = args.calls or (60 if args.quick else 400)
    if calls < 2:
        parser.error("--calls must be at least 2")
    with IOStream.set_default(ScriptedIOStream()):  # keep any console output out of the table
        rows, checks = run(calls)
        fast_rows = run_fast_path(calls)
    print(f"OpenAIWrapper benchmark against the scripted server ({calls} calls each, medians)")
    _print_table(rows)
    print()
    print("Request routes: the SDK's typed walk (taken while a tracing tool wraps the SDK) and the default past it")
    _print_table(fast_rows)
    print()
    for name, ok in checks.items():
        print(f"[{'PASS' if ok else 'MISS'}] {name}")
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
