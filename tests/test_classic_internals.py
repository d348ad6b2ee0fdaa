"""Classic internals of the caches, tools, messages, runtime logging, code functions and transforms.

Each test uses the name the way classic AutoGen code and tests do: patched at its classic path with
``unittest.mock``, subclassed, or deep-imported and called. No ``from __future__ import annotations``
here: the tools' annotations are read as objects, as in classic test files.
"""

import inspect
import json
import sqlite3
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Optional, get_type_hints
from unittest.mock import MagicMock, patch

import pytest

import autogen_classic as autogen
from autogen_classic import Agent
from autogen_classic.agentchat.contrib.capabilities.transforms import TextMessageCompressor, TextMessageContentName
from autogen_classic.cache.disk_cache import DiskCache
from autogen_classic.cache.in_memory_cache import InMemoryCache
from autogen_classic.coding import FunctionWithRequirements, LocalCommandLineCodeExecutor
from autogen_classic.function_utils import get_function_schema
from autogen_classic.logger.logger_utils import get_current_ts, to_dict
from autogen_classic.messages.agent_messages import MessageRole
from autogen_classic.messages.client_messages import _change_usage_summary_format
from autogen_classic.oai.openai_utils import get_config_list
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer
from autogen_classic.tools.dependency_injection import (
    ChatContext,
    Depends,
    Field,
    _is_depends_param,
    _remove_injected_params_from_signature,
    _string_metadata_to_description_field,
    inject_params,
)


# ----------------------------------------------------------------------------- DiskCache (classic mocks)
class TestDiskCache:
    seed = "test_seed"

    @patch("autogen_classic.cache.disk_cache.diskcache.Cache", return_value=MagicMock())
    def test_init(self, mock_cache: MagicMock) -> None:
        cache = DiskCache(self.seed)
        assert isinstance(cache.cache, MagicMock)
        mock_cache.assert_called_with(self.seed)

    @patch("autogen_classic.cache.disk_cache.diskcache.Cache", return_value=MagicMock())
    def test_get_and_set(self, mock_cache: MagicMock) -> None:
        cache = DiskCache(self.seed)
        cache.cache.get.return_value = "value"
        assert cache.get("key") == "value"
        cache.cache.get.assert_called_with("key", None)
        cache.set("key", "other")
        cache.cache.set.assert_called_with("key", "other")

    @patch("autogen_classic.cache.disk_cache.diskcache.Cache", return_value=MagicMock())
    def test_context_manager(self, mock_cache: MagicMock) -> None:
        with DiskCache(self.seed) as cache:
            assert isinstance(cache, DiskCache)
            instance = cache.cache
        instance.close.assert_called()

    @patch("autogen_classic.cache.disk_cache.diskcache.Cache", return_value=MagicMock())
    def test_close_before_first_use(self, mock_cache: MagicMock) -> None:
        cache = DiskCache(self.seed)
        cache.close()
        cache.cache.close.assert_called()

    def test_a_real_cache_never_used_is_not_opened_to_be_closed(self, tmp_path: Path) -> None:
        directory = tmp_path / "never"
        cache = DiskCache(str(directory))
        cache.close()
        assert not directory.exists()
        cache.set("k", "v")  # usable afterwards
        cache.close()
        assert cache.get("k") == "v"
        cache.close()


# ----------------------------------------------------------------------------- InMemoryCache
def test_in_memory_cache_prefixed_key_and_store() -> None:
    cache = InMemoryCache(seed="test")
    assert cache._prefixed_key("key") == "test_key"
    assert InMemoryCache()._prefixed_key("key") == "key"
    cache.set("key", "value")
    assert cache._cache == {"test_key": "value"} and cache.get("key") == "value"
    assert cache._data is cache._cache


def test_a_subclass_prefixed_key_namespaces_the_store() -> None:
    class TenantCache(InMemoryCache):
        def _prefixed_key(self, key: str) -> str:
            return f"tenant-a/{super()._prefixed_key(key)}"

    with TenantCache(seed=7) as cache:
        cache.set("k", "v")
        assert cache._cache == {"tenant-a/7_k": "v"}
        assert cache.get("k") == "v" and cache.get("other", "default") == "default"


# ----------------------------------------------------------------------------- dependency injection
def test_a_provider_gets_the_tool_call_arguments_it_names() -> None:
    def add_two(a: int, b: Annotated[int, Depends(lambda a: a + 2)]) -> int:
        return a + b

    assert inject_params(add_two)(a=1) == 4

    def scaled(x: int) -> int:
        return x * 10

    def show(x: int, y: Annotated[int, Depends(scaled)]) -> str:
        return f"{x} {y}"

    # The model sends "2": the provider's own annotation converts it, as the tool's does.
    assert inject_params(show)(x="2") == "2 20"


def test_a_provider_filled_from_arguments_in_an_agent_tool_call(scripted_server: ScriptedOpenAIServer) -> None:
    caller = autogen.ConversableAgent("caller", llm_config=scripted_server.llm_config())
    executor = autogen.ConversableAgent("executor", llm_config=False, human_input_mode="NEVER")

    def account_of(user_id: int) -> str:
        return f"account-{user_id:03d}"

    @executor.register_for_execution()
    @caller.register_for_llm(description="the balance of a user")
    def balance(user_id: int, account: Annotated[str, Depends(account_of)]) -> str:
        return f"{account}: 10 EUR"

    assert list(caller.llm_config["tools"][0]["function"]["parameters"]["properties"]) == ["user_id"]  # type: ignore[index]
    ok, reply = executor.execute_function({"name": "balance", "arguments": '{"user_id": "7"}'})
    assert ok and reply["content"] == "account-007: 10 EUR"


def test_injected_parameter_helpers() -> None:
    def f(
        a: int,
        ctx: ChatContext,
        b: Annotated[int, Depends(lambda: 3)],
        c: int = Depends(lambda: 2),
        d: Annotated[str, "d description"] = "x",
        e: Optional[Annotated[str, "e description"]] = None,
    ) -> int:
        return a

    params = inspect.signature(f).parameters
    assert [name for name, p in params.items() if _is_depends_param(p)] == ["b", "c"]
    assert _remove_injected_params_from_signature(f) is f
    assert list(inspect.signature(f).parameters) == ["a", "d", "e"]

    assert _string_metadata_to_description_field(f) is f
    hints = get_type_hints(f, include_extras=True)
    (meta,) = hints["d"].__metadata__
    assert isinstance(meta, Field) and meta.description == "d description"
    (inner,) = hints["e"].__args__[0].__metadata__
    assert isinstance(inner, Field) and inner.description == "e description"

    static = staticmethod(lambda x, y=Depends(lambda: 1): x)
    visible = _remove_injected_params_from_signature(static)
    assert list(inspect.signature(visible).parameters) == ["x"]
    assert list(inspect.signature(static.__func__).parameters) == ["x", "y"]  # the function itself untouched


def test_function_utils_logger_is_patchable_at_its_classic_path() -> None:
    def no_return(a: int, b=1):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
        return a

    with patch("autogen_classic.function_utils.logger.warning") as warning:
        get_function_schema(no_return, description="d")
    texts = [call.args[0] for call in warning.call_args_list]
    assert any("The return type of the function 'no_return' is not annotated" in t for t in texts)
    assert any("with default values are not annotated: 'b'" in t for t in texts)


# ----------------------------------------------------------------------------- messages
def test_change_usage_summary_format_and_message_role() -> None:
    usage = {"total_cost": 0.1, "gpt-4": {"cost": 0.1, "prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}}
    assert _change_usage_summary_format(usage, None) == {
        "actual": {
            "usages": [{"cost": 0.1, "prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3, "model": "gpt-4"}],
            "total_cost": 0.1,
        },
        "total": {"usages": None, "total_cost": None},
    }
    assert _change_usage_summary_format()["actual"] == {"usages": None, "total_cost": None}
    assert MessageRole.__args__ == ("assistant", "function", "tool")  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------- runtime logging
SAMPLE_REQUEST = {"messages": [{"content": "hi", "role": "user"}], "model": "gpt-4", "api_key": "sk-secret-123456"}
SAMPLE_RESPONSE = {
    "id": "chatcmpl-1",
    "choices": [{"finish_reason": "stop", "index": 0, "message": {"content": "hello", "role": "assistant"}}],
    "created": 1,
    "model": "gpt-4",
    "object": "chat.completion",
    "usage": {"completion_tokens": 1, "prompt_tokens": 1, "total_tokens": 2},
}


@pytest.fixture
def db_connection(monkeypatch: pytest.MonkeyPatch) -> Iterator[sqlite3.Connection]:
    # stop() keeps the logger object (as the classic does): put the module's state back afterwards.
    monkeypatch.setattr(autogen.runtime_logging, "autogen_logger", autogen.runtime_logging.autogen_logger)
    autogen.runtime_logging.start(config={"dbname": ":memory:"})
    con = autogen.runtime_logging.get_connection()
    assert con is not None
    con.row_factory = sqlite3.Row
    yield con
    autogen.runtime_logging.stop()


def _sample_completion(response: Any) -> dict[str, Any]:
    return {
        "invocation_id": str(uuid.uuid4()),
        "client_id": 140609438577184,
        "wrapper_id": 140610167717744,
        "agent": "some_assistant",
        "request": SAMPLE_REQUEST,
        "response": response,
        "is_cached": 0,
        "cost": 0.347,
        "start_time": get_current_ts(),
    }


@pytest.mark.parametrize(
    "response, expected",
    [
        (SAMPLE_RESPONSE, SAMPLE_RESPONSE),
        (None, {"response": None}),
        ("error in response", {"response": "error in response"}),
    ],
)
def test_log_completion(response: Any, expected: Any, db_connection: sqlite3.Connection) -> None:
    autogen.runtime_logging.log_chat_completion(**_sample_completion(response))
    (row,) = db_connection.execute("SELECT request, response, cost, source_name FROM chat_completions").fetchall()
    assert json.loads(row["response"]) == expected
    if response is None:
        assert row["response"] == '{"response": null}'
    request = json.loads(row["request"])
    assert request["api_key"] != SAMPLE_REQUEST["api_key"] and "sk-secret" not in row["request"]
    assert row["cost"] == 0.347 and row["source_name"] == "some_assistant"


def test_logging_a_value_sqlite_cannot_store_logs_an_error(db_connection: sqlite3.Connection) -> None:
    sample = _sample_completion(SAMPLE_RESPONSE)
    sample["is_cached"] = {"foo": "bar"}
    with patch("autogen_classic.logger.sqlite_logger.logger.error") as error:
        autogen.runtime_logging.log_chat_completion(**sample)
    error.assert_called_once()
    assert error.call_args.args[0].startswith("[sqlite logger]Error running query with query")
    assert "sk-secret" not in str(error.call_args.args)
    autogen.runtime_logging.log_chat_completion(**_sample_completion(SAMPLE_RESPONSE))  # logging goes on
    assert db_connection.execute("SELECT COUNT(*) FROM chat_completions").fetchone()[0] == 1


def test_a_wrapper_with_a_placeholder_base_url_is_logged(db_connection: sqlite3.Connection) -> None:
    llm_config = {"config_list": [{"model": "gpt-4", "api_key": "some_key", "base_url": "some url"}]}
    wrapper = autogen.OpenAIWrapper(**llm_config)
    autogen.runtime_logging.log_new_wrapper(wrapper, {"llm_config": llm_config, "base_config": {}})
    rows = db_connection.execute("SELECT session_id, init_args FROM oai_wrappers").fetchall()
    assert rows
    for row in rows:
        assert str(uuid.UUID(row["session_id"], version=4)) == row["session_id"]
        saved = json.loads(row["init_args"])
        assert "config_list" in saved and "base_config" in saved
        assert "api_key" not in saved["config_list"][0] and "base_url" not in saved["config_list"][0]


def test_to_dict_with_one_agent_type_as_no_recursive() -> None:
    alice = autogen.ConversableAgent("alice", human_input_mode="NEVER", llm_config=False)

    class Foo:
        def __init__(self) -> None:
            self.a = 1.234
            self.d = None
            self.test_function = lambda x, y: x + y
            self.extra_key = "remove this key"
            self.path = Path("/to/something")

    class Bar:
        def build(self) -> None:
            self.foo_val = [Foo()]
            self.o = {"key_1": None, "key_2": [{"nested_key_1": ["nested_val_1"]}]}
            self.agents = [alice]
            self.first_agent = alice

    bar = Bar()
    bar.build()
    result = to_dict(bar, exclude=("key_1", "extra_key"), no_recursive=(Agent))
    assert result["foo_val"] == [
        {"a": 1.234, "d": None, "test_function": "self.test_function = lambda x, y: x + y", "path": "/to/something"}
    ]
    assert result["o"] == {"key_2": [{"nested_key_1": ["nested_val_1"]}]}
    assert result["agents"] == [str(alice)] and result["first_agent"] == str(alice)


# ----------------------------------------------------------------------------- functions for code executors
def test_a_function_from_text_shows_its_annotations_in_the_prompt() -> None:
    func = FunctionWithRequirements.from_str(
        '''
def add_two_numbers(a: int, b: int) -> int:
    """Add two numbers together."""
    return a + b
'''
    )
    with tempfile.TemporaryDirectory() as temp_dir:
        executor = LocalCommandLineCodeExecutor(work_dir=temp_dir, functions=[func])
        prompt = executor.format_functions_for_prompt()
    assert 'def add_two_numbers(a: int, b: int) -> int:\n    """Add two numbers together."""\n' in prompt


# ----------------------------------------------------------------------------- transforms and config helpers
def test_text_message_content_name_refuses_a_non_bool_deduplicate_as_classic() -> None:
    for value in ("yes", None, 1):
        with pytest.raises(AssertionError, match="deduplicate must be True or False"):
            TextMessageContentName(deduplicate=value)  # type: ignore[arg-type]
    assert TextMessageContentName(deduplicate=False).apply_transform(
        [{"role": "user", "content": "bob:\nhi", "name": "bob"}]
    ) == [{"role": "user", "content": "bob:\nbob:\nhi", "name": "bob"}]


def test_text_message_compressor_refuses_fractional_savings_as_classic() -> None:
    class HalfTokens:
        def compress_text(self, text: str, **compression_params: Any) -> dict[str, Any]:
            return {"compressed_prompt": text[: len(text) // 2], "origin_tokens": 10, "compressed_tokens": 7.5}

    compressor = TextMessageCompressor(text_compressor=HalfTokens(), cache=InMemoryCache())
    with pytest.raises(AssertionError, match="whole token counts"):
        compressor.apply_transform([{"role": "user", "content": "a long message"}])


def test_get_config_list_length_mismatch_has_the_classic_text() -> None:
    with pytest.raises(AssertionError) as info:
        get_config_list(["k1", "k2"], base_urls=["http://a"])
    assert str(info.value) == "The length of api_keys must match the length of base_urls"
