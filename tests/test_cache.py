"""Response caches: disk and memory stores, keys, the legacy cache_seed, and sharing between processes."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from autogen_classic.cache import Cache, DiskCache, InMemoryCache, get_key
from autogen_classic.oai import OpenAIWrapper
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply

USER = [{"role": "user", "content": "What is the capital of France?"}]
SECRET = "sk-cache-SECRET-0123456789abcdef"


def _all_bytes(root: Path) -> bytes:
    return b"".join(p.read_bytes() for p in root.rglob("*") if p.is_file())


# ----------------------------------------------------------------------------- stores
def test_disk_cache_persists_per_seed(tmp_path: Path) -> None:
    with Cache.disk(cache_seed=7, cache_path_root=tmp_path) as cache:
        assert cache.get("k") is None and cache.get("k", "dflt") == "dflt"
        cache.set("k", {"v": [1, 2]})
        assert cache.get("k") == {"v": [1, 2]}
    assert (tmp_path / "7").is_dir()
    assert Cache.disk(7, tmp_path).get("k") == {"v": [1, 2]}  # a new handle sees it
    assert Cache.disk(8, tmp_path).get("k") is None  # another seed does not
    closed = Cache.disk(7, tmp_path)
    closed.close()
    assert closed.get("k") == {"v": [1, 2]}  # a closed disk cache reopens on use


def test_in_memory_cache_is_per_object_and_namespaced_by_seed() -> None:
    cache = Cache.in_memory(cache_seed=1)
    cache.set("k", 1)
    assert cache.get("k") == 1
    assert Cache.in_memory(cache_seed=1).get("k") is None
    store = InMemoryCache(seed="a")
    store.set("k", "x")
    assert store._data == {"a_k": "x"}


def test_cache_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="Invalid config key: colour"):
        Cache({"colour": "red"})
    with pytest.raises(ValueError, match="either redis_url .* or in_memory=True"):
        Cache({"redis_url": "redis://localhost", "in_memory": True})
    assert Cache.disk(cache_seed=1.5, cache_path_root=tmp_path).config["cache_seed"] == "1.5"  # any seed, as a str
    assert Cache({"cache_seed": 3, "cache_path_root": str(tmp_path)}).config["cache_seed"] == "3"


def test_keys_are_stable_and_ignore_secrets_and_connection_settings() -> None:
    params = {"model": "gpt-4o", "messages": USER, "temperature": 0}
    key = get_key(params)
    assert len(key) == 64 and int(key, 16) >= 0
    assert get_key(dict(reversed(list(params.items())))) == key
    assert get_key({**params, "api_key": SECRET, "base_url": "http://x", "timeout": 3, "api_version": "v"}) == key
    assert get_key({**params, "temperature": 1}) != key
    assert get_key({**params, "model": "gpt-4o-mini"}) != key
    assert get_key({**params, "messages": USER + [{"role": "user", "content": "more"}]}) != key
    with pytest.raises(TypeError, match="config must be a dict"):
        get_key([1, 2])  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- through the wrapper
def test_cache_hit_makes_no_request_and_returns_the_same_answer(
    scripted_server: ScriptedOpenAIServer, tmp_path: Path
) -> None:
    client = OpenAIWrapper(**scripted_server.llm_config())
    scripted_server.add_reply(ScriptedReply(tool_calls=[{"name": "lookup", "arguments": {"city": "Paris"}}]))
    with Cache.disk(cache_path_root=tmp_path) as cache:
        first = client.create(messages=USER, cache=cache)
        second = client.create(messages=USER, cache=cache)
    assert scripted_server.request_count == 1
    assert second.model_dump(exclude={"config_id", "pass_filter"}) == first.model_dump(
        exclude={"config_id", "pass_filter"}
    )
    (message,) = client.extract_text_or_completion_object(second)
    assert message.tool_calls[0].function.name == "lookup"
    scripted_server.add_reply("different question, different answer")
    third = client.create(
        messages=USER + [{"role": "user", "content": "And Spain?"}], cache=Cache.disk(cache_path_root=tmp_path)
    )
    assert client.extract_text_or_completion_object(third) == ["different question, different answer"]


def test_repeated_conversation_with_same_cache_makes_zero_requests(
    scripted_server: ScriptedOpenAIServer, tmp_path: Path
) -> None:
    def converse(client: OpenAIWrapper, cache: Cache) -> list[str]:
        history: list[dict] = [{"role": "user", "content": "Count with me."}]
        said: list[str] = []
        for _ in range(3):
            text = client.extract_text_or_completion_object(client.create(messages=history, cache=cache))[0]
            said.append(text)
            history += [{"role": "assistant", "content": text}, {"role": "user", "content": "next"}]
        return said

    scripted_server.add_replies("one", "two", "three")
    first = converse(OpenAIWrapper(**scripted_server.llm_config()), Cache.disk(42, tmp_path))
    again = OpenAIWrapper(**scripted_server.llm_config())
    second = converse(again, Cache.disk(42, tmp_path))
    assert first == second == ["one", "two", "three"]
    assert scripted_server.request_count == 3
    assert again.actual_usage_summary is None and again.total_usage_summary is not None


def test_no_cache_unless_a_seed_is_given_and_then_on_disk(
    scripted_server: ScriptedOpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    config = scripted_server.llm_config()
    del config["cache_seed"]  # AG2 Classic 0.14's default: nothing cached (0.2 and 0.7.3 cached under seed 41)
    scripted_server.add_replies("Paris", "Lyon")
    assert OpenAIWrapper(**config).create(messages=USER).choices[0].message.content == "Paris"
    assert OpenAIWrapper(**config).create(messages=USER).choices[0].message.content == "Lyon"
    assert scripted_server.request_count == 2 and not (tmp_path / ".cache").exists()
    scripted_server.add_reply("Paris")  # the classic seed, asked for: cached on disk under .cache/41
    assert OpenAIWrapper(**{**config, "cache_seed": 41}).create(messages=USER).choices[0].message.content == "Paris"
    assert OpenAIWrapper(**{**config, "cache_seed": 41}).create(messages=USER).choices[0].message.content == "Paris"
    assert scripted_server.request_count == 3
    assert (tmp_path / ".cache" / "41").is_dir()
    scripted_server.add_reply("fresh")  # another seed is another cache
    assert OpenAIWrapper(**{**config, "cache_seed": 5}).create(messages=USER).choices[0].message.content == "fresh"
    assert (tmp_path / ".cache" / "5").is_dir()


def test_cache_seed_none_disables_and_cache_argument_wins(
    scripted_server: ScriptedOpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    client = OpenAIWrapper(**scripted_server.llm_config())  # cache_seed=None
    scripted_server.add_replies("a", "b")
    client.create(messages=USER)
    client.create(messages=USER)
    assert scripted_server.request_count == 2 and not (tmp_path / ".cache").exists()
    seeded = OpenAIWrapper(**scripted_server.llm_config(cache_seed=99))
    memory = Cache.in_memory()
    scripted_server.add_reply("from memory cache")
    seeded.create(messages=USER, cache=memory)
    assert not (tmp_path / ".cache").exists()  # the explicit cache replaced the legacy one
    assert seeded.create(messages=USER, cache=memory).choices[0].message.content == "from memory cache"


def test_cache_files_never_hold_the_api_key(scripted_server: ScriptedOpenAIServer, tmp_path: Path) -> None:
    entry = scripted_server.config_entry(api_key=SECRET, default_headers={"X-Api-Token": SECRET})
    client = OpenAIWrapper(config_list=[entry], cache_seed=None)
    scripted_server.add_reply("secret-free")
    with Cache.disk(cache_path_root=tmp_path) as cache:
        client.create(messages=USER, cache=cache)
    data = _all_bytes(tmp_path)
    assert b"secret-free" in data and SECRET.encode() not in data
    assert scripted_server.request_headers[0]["authorization"] == f"Bearer {SECRET}"


def test_streamed_answer_is_cached(scripted_server: ScriptedOpenAIServer, tmp_path: Path, console: object) -> None:
    client = OpenAIWrapper(**scripted_server.llm_config(stream=True))
    scripted_server.add_reply("streamed once")
    cache = Cache.in_memory()
    client.create(messages=USER, cache=cache)
    assert client.create(messages=USER, cache=cache).choices[0].message.content == "streamed once"
    assert scripted_server.request_count == 1


# ----------------------------------------------------------------------------- two processes, one directory
_CHILD = textwrap.dedent(
    """
    import sys
    from autogen_classic.cache import Cache
    from autogen_classic.oai import OpenAIWrapper
    base_url, root, name = sys.argv[1], sys.argv[2], sys.argv[3]
    cache = Cache.disk(42, root)
    for i in range(40):
        cache.set(f"{name}-{i}", {"writer": name, "i": i})
    client = OpenAIWrapper(config_list=[{"model": "scripted-model", "base_url": base_url, "api_key": "sk-x", "max_retries": 0}], cache_seed=None)
    response = client.create(messages=[{"role": "user", "content": "What is the capital of France?"}], cache=cache)
    print(response.choices[0].message.content)
    from autogen_classic.cache import get_key
    print(get_key({"messages": [{"role": "user", "content": "é"}], "model": "m"}))
    """
)


def test_two_processes_share_one_cache_directory(scripted_server: ScriptedOpenAIServer, tmp_path: Path) -> None:
    client = OpenAIWrapper(**scripted_server.llm_config())
    scripted_server.add_reply("Paris, cached by the parent")
    client.create(messages=USER, cache=Cache.disk(42, tmp_path))
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, scripted_server.base_url, str(tmp_path), "child"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "12345"},
    )
    parent_cache = Cache.disk(42, tmp_path)
    written = 0
    while child.poll() is None or written < 40:  # keep writing while the child writes too
        parent_cache.set(f"parent-{written}", {"writer": "parent", "i": written})
        written += 1
        time.sleep(0.005)  # leave the CPU to the child
    out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    assert out.splitlines()[0] == "Paris, cached by the parent"
    assert scripted_server.request_count == 1  # the child did not ask the model
    # cache keys do not depend on the process (hash seed, dict order)
    assert out.splitlines()[1] == get_key({"model": "m", "messages": [{"role": "user", "content": "é"}]})
    shared = DiskCache(42, tmp_path)
    assert all(shared.get(f"child-{i}") == {"writer": "child", "i": i} for i in range(40))
    assert all(shared.get(f"parent-{i}") == {"writer": "parent", "i": i} for i in range(written))


def test_repeated_agent_chat_with_same_cache_replays_transcript(
    scripted_server: ScriptedOpenAIServer, tmp_path: Path, console: object
) -> None:
    import autogen_classic as autogen

    def chat() -> autogen.ChatResult:
        assistant = autogen.AssistantAgent("assistant", llm_config=scripted_server.llm_config(model="gpt-4o-mini"))
        user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False)
        with Cache.disk(cache_seed=42, cache_path_root=tmp_path) as cache:
            return user.initiate_chat(assistant, message="Name a prime.", cache=cache, max_turns=2)

    scripted_server.add_replies("7", "11")
    first = chat()
    second = chat()
    assert scripted_server.request_count == 2
    assert second.chat_history == first.chat_history
    assert [m["content"] for m in first.chat_history if m.get("name") == "assistant"] == ["7", "11"]
    assert first.cost["usage_excluding_cached_inference"]["total_cost"] > 0
    assert second.cost["usage_excluding_cached_inference"] == {"total_cost": 0}
    assert second.cost["usage_including_cached_inference"] == first.cost["usage_including_cached_inference"]


class _UnpicklableClient:
    """A custom client whose responses hold a lambda, which no disk cache can store."""

    def __init__(self, config: dict) -> None:
        self.model = config["model"]

    def create(self, params: dict) -> SimpleNamespace:
        message = SimpleNamespace(content="fresh", tool_calls=None, function_call=None)
        return SimpleNamespace(choices=[SimpleNamespace(message=message)], model=self.model, hook=lambda: None)

    def message_retrieval(self, response: SimpleNamespace) -> list[str]:
        return [c.message.content for c in response.choices]

    def cost(self, response: SimpleNamespace) -> float:
        return 0.0

    @staticmethod
    def get_usage(response: SimpleNamespace) -> dict:
        return {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2, "cost": 0.0, "model": response.model}


def test_unstorable_response_is_still_returned(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    client = OpenAIWrapper(config_list=[{"model": "m", "model_client_cls": "_UnpicklableClient"}], cache_seed=None)
    client.register_model_client(_UnpicklableClient)
    with caplog.at_level(logging.WARNING, logger="autogen_classic.oai"):
        response = client.create(messages=USER, cache=Cache.disk(1, tmp_path))
    assert client.extract_text_or_completion_object(response) == ["fresh"]
    assert "could not be cached" in caplog.text
    assert len(DiskCache(1, tmp_path)) == 0
