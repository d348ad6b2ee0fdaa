"""Classic ``autogen.cache`` surface: Cache, DiskCache (with its ``.cache``), InMemoryCache, CacheFactory."""

from __future__ import annotations

import inspect
import logging
import os
from pathlib import Path

import diskcache
import pytest

import autogen_classic as autogen
from autogen_classic.cache import AbstractCache, Cache
from autogen_classic.cache.abstract_cache_base import AbstractCache as BaseAbstractCache
from autogen_classic.cache.cache import AbstractCache as CacheAbstractCache
from autogen_classic.cache.cache import Cache as DeepCache
from autogen_classic.cache.cache import CacheFactory
from autogen_classic.cache.cache_factory import CacheFactory as FactoryCacheFactory
from autogen_classic.cache.disk_cache import DiskCache
from autogen_classic.cache.in_memory_cache import InMemoryCache
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer


def test_deep_imports_are_the_same_objects() -> None:
    assert autogen.Cache is Cache is DeepCache
    assert AbstractCache is BaseAbstractCache is CacheAbstractCache
    assert CacheFactory is FactoryCacheFactory
    for store in (Cache.disk, Cache.in_memory):
        assert isinstance(store(), AbstractCache)


def test_signatures() -> None:
    assert list(inspect.signature(Cache).parameters) == ["config"]
    assert [(p.name, p.default) for p in inspect.signature(Cache.disk).parameters.values()] == [
        ("cache_seed", 42), ("cache_path_root", ".cache"),
    ]  # fmt: skip
    assert [(p.name, p.default) for p in inspect.signature(Cache.redis).parameters.values()] == [
        ("cache_seed", 42), ("redis_url", "redis://localhost:6379/0"),
    ]  # fmt: skip
    assert list(inspect.signature(Cache.cosmos_db).parameters) == [
        "connection_string", "container_id", "cache_seed", "client",
    ]  # fmt: skip
    assert [(p.name, p.default) for p in inspect.signature(CacheFactory.cache_factory).parameters.values()] == [
        ("seed", inspect.Parameter.empty), ("redis_url", None), ("cache_path_root", ".cache"), ("cosmosdb_config", None),
    ]  # fmt: skip
    assert [(p.name, p.default) for p in inspect.signature(InMemoryCache).parameters.values()] == [("seed", "")]
    assert list(inspect.signature(DiskCache).parameters)[0] == "seed"


def test_disk_cache_takes_its_directory_and_exposes_the_diskcache(tmp_path: Path) -> None:
    store = DiskCache(str(tmp_path / "my-cache"))
    store.set("k", [1, 2])
    assert isinstance(store.cache, diskcache.Cache)
    assert store.cache.directory == str(tmp_path / "my-cache")
    assert store.cache.get("k") == [1, 2] and len(store.cache) == 1
    store.cache.clear()  # scripts reach the diskcache API through .cache
    assert store.get("k", "gone") == "gone"
    store.close()


def test_with_cache_gives_the_underlying_store(tmp_path: Path) -> None:
    cache = Cache.disk(cache_seed=5, cache_path_root=str(tmp_path))
    assert cache.config == {"cache_seed": "5", "cache_path_root": str(tmp_path)}
    with cache as store:
        assert store is cache.cache and isinstance(store, DiskCache)
        assert store.get("k", "dflt") == "dflt"
        store.set("k", 1)
        assert isinstance(store.cache, diskcache.Cache)
        assert store.cache.directory == os.path.join(str(tmp_path), "5")
    assert cache.get("k") == 1


def test_cache_factory_builds_disk_caches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    store = CacheFactory.cache_factory("s")
    assert isinstance(store, DiskCache)
    store.set("k", "v")
    assert (tmp_path / ".cache" / "s").is_dir()
    assert CacheFactory.cache_factory(7, cache_path_root=str(tmp_path / "root")).get("k") is None
    assert (tmp_path / "root" / "7").is_dir()


def test_redis_url_chooses_a_redis_cache_that_checks_the_server() -> None:
    redis = pytest.importorskip("redis", reason="the redis extra is not installed")
    url = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    for make in (lambda: Cache.redis(redis_url=url), lambda: Cache({"redis_url": url}),
                 lambda: CacheFactory.cache_factory("s", redis_url=url)):  # fmt: skip
        with pytest.raises(redis.exceptions.ConnectionError, match="Cannot use the Redis cache at redis://127.0.0.1:1/0"):
            make()


def test_redis_cache_works_the_way_classic_tests_patch_it() -> None:
    # Classic test files replace the client with a mock at this exact path and check the calls made.
    pytest.importorskip("redis", reason="the redis extra is not installed")
    import pickle
    from unittest.mock import MagicMock, patch

    from autogen_classic.cache.redis_cache import RedisCache

    with patch("autogen_classic.cache.redis_cache.redis.Redis.from_url", return_value=MagicMock()) as from_url:
        url = "redis://localhost:6379/0"
        cache = RedisCache("test_seed", url)
        from_url.assert_called_with(url)
        assert cache.seed == "test_seed"
        client = from_url.return_value
        client.get.return_value = pickle.dumps("value")
        assert cache.get("key") == "value"
        client.get.assert_called_with("autogen:test_seed:key")
        client.get.return_value = None
        assert cache.get("missing", "fallback") == "fallback"
        cache.set("key", {"a": 1})
        client.set.assert_called_with("autogen:test_seed:key", pickle.dumps({"a": 1}))
        with RedisCache("test_seed", url) as entered:
            assert isinstance(entered, RedisCache)
        client.close.assert_called()


def test_cosmos_db_falls_back_to_a_disk_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.chdir(tmp_path)
    with caplog.at_level(logging.WARNING):
        cache = Cache.cosmos_db(connection_string="AccountEndpoint=x", container_id="c", cache_seed=3)
    assert isinstance(cache.cache, DiskCache) and cache.config["cache_seed"] == "3"
    assert "CosmosDBCache is not available. Fallback to DiskCache." in caplog.text


def test_cache_config_keys_and_seeds(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="Invalid config key: colour"):
        Cache({"colour": "red"})
    assert Cache.disk(cache_seed=1.5, cache_path_root=str(tmp_path)).config["cache_seed"] == "1.5"
    assert Cache({"cache_seed": 9, "cache_path_root": str(tmp_path)}).config["cache_seed"] == "9"


def test_in_memory_cache_returns_the_default_for_stored_none() -> None:
    store = InMemoryCache(seed=3)
    store.set("a", None)
    store.set("b", 0)
    assert store.get("a", "dflt") == "dflt" and store.get("b", "dflt") == 0
    with InMemoryCache() as plain:
        plain.set("k", "v")
        assert plain.get("k") == "v"


def test_a_disk_cache_from_with_serves_a_chat(
    scripted_server: ScriptedOpenAIServer, tmp_path: Path
) -> None:
    scripted_server.add_replies("cached answer", "fresh answer")
    assistant = autogen.AssistantAgent("assistant", llm_config=scripted_server.llm_config())
    user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False)
    with Cache.disk(cache_seed=11, cache_path_root=str(tmp_path)) as cache:
        first = user.initiate_chat(assistant, message="hi", max_turns=1, cache=cache, silent=True)
        second = user.initiate_chat(assistant, message="hi", max_turns=1, cache=cache, silent=True)
    assert first.summary == second.summary == "cached answer"
    assert scripted_server.request_count == 1
