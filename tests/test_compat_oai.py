"""Classic ``autogen.oai`` surface: names, signatures, config lists, cache_seed, model-less entries,
OPENAI_BASE_URL and the classic config keys, used the way classic scripts use them."""

from __future__ import annotations

import asyncio
import inspect
import warnings
from pathlib import Path
from typing import Any

import openai
import pytest
from pydantic import BaseModel

import autogen_classic as autogen
from autogen_classic.exception_utils import InvalidArgumentError
from autogen_classic.oai import (
    Cache,
    ModelClient,
    OpenAIWrapper,
    config_list_from_dotenv,
    config_list_from_json,
    config_list_from_models,
    config_list_gpt4_gpt35,
    config_list_openai_aoai,
    filter_config,
    get_config_list,
)
from autogen_classic.oai.client import (
    ERROR,
    LEGACY_CACHE_DIR,
    LEGACY_DEFAULT_CACHE_SEED,
    OAI_PRICE1K,
    OPEN_API_BASE_URL_PREFIX,
    TOOL_ENABLED,
    FormatterProtocol,
    ModelToolNotSupportedError,
    OpenAIClient,
    PlaceHolderClient,
    get_key,
    is_valid_api_key,
)
from autogen_classic.oai.client_utils import should_hide_tools, validate_parameter
from autogen_classic.oai.openai_utils import (
    DEFAULT_AZURE_API_VERSION,
    NON_CACHE_KEY,
    get_config,
)
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer
from autogen_classic.token_count_utils import (
    count_token,
    get_max_token_limit,
    num_tokens_from_functions,
    percentile_used,
    token_left,
)

USER = [{"role": "user", "content": "What is 2 + 2?"}]
SDK_MISSING_MODEL = (
    "Missing required arguments; Expected either ('messages' and 'model') or ('messages', 'model' and 'stream') "
    "arguments to be given"
)


@pytest.fixture(autouse=True)
def _no_ambient_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "AZURE_OPENAI_API_KEY", "AZURE_OPENAI_ENDPOINT",
                 "AZURE_OPENAI_AD_TOKEN", "OPENAI_API_VERSION"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)


def _chat(llm_config: dict[str, Any] | bool, message: str = "hi") -> Any:
    assistant = autogen.AssistantAgent("assistant", llm_config=llm_config)
    user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False)
    return user.initiate_chat(assistant, message=message, max_turns=1, silent=True)


# ----------------------------------------------------------------------------- names and signatures
def test_classic_constants() -> None:
    assert ERROR is None and TOOL_ENABLED is True
    assert (LEGACY_DEFAULT_CACHE_SEED, LEGACY_CACHE_DIR) == (41, ".cache")
    assert OPEN_API_BASE_URL_PREFIX == "https://api.openai.com"
    assert DEFAULT_AZURE_API_VERSION == "2024-02-01"
    assert isinstance(NON_CACHE_KEY, list) and {"api_key", "base_url", "api_type", "api_version"} <= set(NON_CACHE_KEY)
    assert OAI_PRICE1K["gpt-4o-mini"] == (0.000150, 0.000600)
    assert issubclass(ModelToolNotSupportedError, Exception)
    assert get_key({"messages": USER, "api_key": "sk-a"}) == get_key({"messages": USER, "api_key": "sk-b"})
    assert autogen.oai.Cache is Cache and autogen.oai.ModelClient is ModelClient
    assert PlaceHolderClient({"model_client_cls": "X"}).config == {"model_client_cls": "X"}


def _params(func: Any) -> list[tuple[str, Any]]:
    return [(p.name, p.default) for p in inspect.signature(func).parameters.values()]


def test_signatures_follow_the_classic_package() -> None:
    empty = inspect.Parameter.empty
    keys = [("key_file_path", "."), ("openai_api_key_file", "key_openai.txt"), ("aoai_api_key_file", "key_aoai.txt")]
    assert _params(config_list_openai_aoai) == keys + [
        ("openai_api_base_file", "base_openai.txt"), ("aoai_api_base_file", "base_aoai.txt"), ("exclude", None),
    ]  # fmt: skip
    assert _params(config_list_from_models) == keys + [
        ("aoai_api_base_file", "base_aoai.txt"), ("exclude", None), ("model_list", None),
    ]  # fmt: skip
    assert _params(config_list_gpt4_gpt35) == keys + [("aoai_api_base_file", "base_aoai.txt"), ("exclude", None)]
    assert _params(filter_config) == [("config_list", empty), ("filter_dict", empty), ("exclude", False)]
    assert _params(get_config_list) == [("api_keys", empty), ("base_urls", None), ("api_type", None), ("api_version", None)]
    assert _params(get_config) == [("api_key", empty), ("base_url", None), ("api_type", None), ("api_version", None)]
    assert _params(config_list_from_dotenv) == [("dotenv_file_path", None), ("model_api_key_map", None), ("filter_dict", None)]
    assert [n for n, _ in _params(config_list_from_json)] == ["env_or_file", "file_location", "filter_dict"]
    assert _params(OpenAIClient) == [("client", empty), ("response_format", None)]
    assert _params(validate_parameter) == [
        (n, empty) for n in ("params", "param_name", "allowed_types", "allow_None", "default_value",
                             "numerical_bound", "allowed_values")
    ]  # fmt: skip
    assert _params(should_hide_tools) == [("messages", empty), ("tools", empty), ("hide_tools_param", empty)]
    assert _params(num_tokens_from_functions) == [("functions", empty), ("model", "gpt-3.5-turbo-0613")]
    for func in (count_token, percentile_used, token_left):
        assert _params(func) == [("input", empty), ("model", "gpt-3.5-turbo-0613")]
    assert _params(get_max_token_limit) == [("model", "gpt-3.5-turbo-0613")]
    assert [p.kind for p in inspect.signature(OpenAIWrapper).parameters.values()] == [
        inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.VAR_KEYWORD,
    ]  # fmt: skip


def test_is_valid_api_key() -> None:
    assert is_valid_api_key("sk-" + "a1_-" * 12)
    assert not is_valid_api_key("sk-short")
    assert not is_valid_api_key("pk-" + "a" * 48)


# ----------------------------------------------------------------------------- client_utils
@pytest.mark.parametrize(
    "args, value, warning",
    [
        (({"t": 0.5}, "t", (int, float), True, 0.7, (0, 1), None), 0.5, None),
        (({"t": 5}, "t", (int, float), True, 0.7, (0, 1), None), 0.7,
         "Config error - t has numerical bounds, >= 0 and <= 1, or can be None, defaulting to 0.7."),
        (({"t": 5}, "t", (int, float), False, 0.7, (None, 1), None), 0.7,
         "Config error - t has numerical bounds <= 1, defaulting to 0.7."),
        (({"t": -5}, "t", (int, float), False, 0.7, (0, None), None), 0.7,
         "Config error - t has numerical bounds, >= 0, defaulting to 0.7."),
        (({"t": "x"}, "t", (int, float), True, 0.7, None, None), 0.7,
         "Config error - t must be of type (int, float) or None, defaulting to 0.7."),
        (({"t": "x"}, "t", int, False, 3, None, None), 3, "Config error - t must be of type int, defaulting to 3."),
        (({"t": None}, "t", int, False, 3, None, None), 3, "Config error - t cannot be None, defaulting to 3."),
        (({"m": "c"}, "m", str, True, "a", None, ["a", "b"]), "a",
         "Config error - m must be one of these values [['a', 'b']], or can be None, defaulting to a."),
        (({"m": "b"}, "m", str, False, "a", None, ["a", "b"]), "b", None),
        (({}, "m", str, True, None, None, ["a"]), None, None),
    ],
)  # fmt: skip
def test_validate_parameter(args: tuple[Any, ...], value: Any, warning: str | None) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert validate_parameter(*args) == value
    assert [str(w.message) for w in caught] == ([warning] if warning else [])
    assert all(w.category is UserWarning for w in caught)


def test_validate_parameter_refuses_a_tuple_of_allowed_values() -> None:
    with pytest.raises(TypeError, match="allowed_values should be a list or None, got tuple"):
        validate_parameter({}, "x", int, True, None, None, ("a",))  # type: ignore[arg-type]


def test_should_hide_tools() -> None:
    tools = [{"type": "function", "function": {"name": n}} for n in ("f", "g")]
    start = [{"role": "user", "content": "x"}]
    one = start + [
        {"role": "assistant", "tool_calls": [{"id": "1", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "1", "content": "r"},
    ]
    both = one + [
        {"role": "assistant", "tool_calls": [{"id": "2", "function": {"name": "g", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "2", "content": "r"},
    ]
    table = {p: [should_hide_tools(m, tools, p) for m in (start, one, both)] for p in ("never", "if_any_run", "if_all_run")}
    assert table == {"never": [False] * 3, "if_any_run": [False, True, True], "if_all_run": [False, False, True]}
    assert should_hide_tools(both, [], "if_any_run") is False
    with pytest.raises(TypeError, match=r"hide_tools_param is not a valid value \['if_all_run','if_any_run','never'\]"):
        should_hide_tools(one, tools, "sometimes")


def test_structured_output_class_is_a_formatter() -> None:
    class Answer(BaseModel):
        x: int

        def format(self) -> str:
            return f"x={self.x}"

    assert isinstance(Answer, FormatterProtocol) and isinstance(Answer(x=1), FormatterProtocol)
    assert not isinstance(object(), FormatterProtocol)


# ----------------------------------------------------------------------------- cache_seed
def test_cache_seed_false_turns_the_cache_off(
    scripted_server: ScriptedOpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    scripted_server.add_replies("first", "second")
    config = {"config_list": [scripted_server.config_entry()], "cache_seed": False}
    assert _chat(config, "same question").summary == "first"
    assert _chat(config, "same question").summary == "second"
    assert scripted_server.request_count == 2
    assert not (tmp_path / ".cache").exists()


@pytest.mark.parametrize("seed, directory", [(7, "7"), ("run-a", "run-a"), (True, "True")])
def test_any_other_cache_seed_names_a_disk_cache(
    seed: Any, directory: str, scripted_server: ScriptedOpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    scripted_server.add_replies("cached", "fresh")
    client = OpenAIWrapper(config_list=[scripted_server.config_entry()], cache_seed=seed)
    assert client.create(messages=USER).choices[0].message.content == "cached"
    assert client.create(messages=USER).choices[0].message.content == "cached"
    assert scripted_server.request_count == 1
    assert (tmp_path / ".cache" / directory).is_dir()


# ----------------------------------------------------------------------------- entries without a model
def test_entry_without_model_fails_at_request_time_like_the_sdk(scripted_server: ScriptedOpenAIServer) -> None:
    entry = {"base_url": scripted_server.base_url, "api_key": "sk-test"}
    assistant = autogen.AssistantAgent("assistant", llm_config={"config_list": [entry], "cache_seed": None})
    user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False)
    with pytest.raises(TypeError) as info:
        user.initiate_chat(assistant, message="hi", max_turns=1, silent=True)
    assert str(info.value).startswith(SDK_MISSING_MODEL)
    assert scripted_server.request_count == 0

    scripted_server.add_reply("from m2")
    client = OpenAIWrapper(config_list=[entry], cache_seed=None)
    assert client.create(messages=USER, model="m2").choices[0].message.content == "from m2"
    assert scripted_server.requests[-1]["model"] == "m2"


def test_model_may_come_from_the_top_level_or_a_config_without_config_list(
    scripted_server: ScriptedOpenAIServer,
) -> None:
    scripted_server.add_replies("a", "b", "c")
    entry = {"base_url": scripted_server.base_url, "api_key": "sk-test"}
    OpenAIWrapper(config_list=[entry], model="top", cache_seed=None).create(messages=USER)
    OpenAIWrapper(model="single", cache_seed=None, **entry).create(messages=USER)
    OpenAIWrapper(config_list=[], model="empty-list", cache_seed=None, **entry).create(messages=USER)
    assert [r["model"] for r in scripted_server.requests] == ["top", "single", "empty-list"]


# ----------------------------------------------------------------------------- filter_config / get_config_list
CONFIGS = [
    {"model": "gpt-4"},
    {"model": "gpt-4o-mini", "api_type": "azure"},
    {"model": "gpt-4o", "api_type": "openai", "tags": ["a", "fast"]},
    {"model": "x", "tags": ["zz"]},
]


@pytest.mark.parametrize(
    "filter_dict, exclude, models",
    [
        ({"api_type": "azure"}, False, ["gpt-4o-mini"]),
        ({"api_type": ["azure"]}, False, ["gpt-4o-mini"]),
        ({"api_type": {"azure"}}, False, ["gpt-4o-mini"]),
        ({"model": ("gpt-4",)}, False, ["gpt-4"]),
        ({"api_type": [None]}, False, []),
        ({"api_type": [None, "openai"]}, False, ["gpt-4o"]),
        ({"tags": ["fast"]}, False, ["gpt-4o"]),
        ({"tags": "fast"}, False, ["gpt-4o"]),
        ({"api_type": ["azure"]}, True, ["gpt-4", "gpt-4o", "x"]),
        ({"model": "gpt-4"}, True, ["gpt-4o-mini", "gpt-4o", "x"]),
        # with exclude, a config is kept only when none of the keys matches
        ({"model": ["gpt-4"], "api_type": ["azure"]}, True, ["gpt-4o", "x"]),
        ({"model": ["gpt-4o"], "api_type": ["openai"]}, True, ["gpt-4", "gpt-4o-mini", "x"]),
        ({}, False, ["gpt-4", "gpt-4o-mini", "gpt-4o", "x"]),
        (None, False, ["gpt-4", "gpt-4o-mini", "gpt-4o", "x"]),
    ],
)
def test_filter_config_semantics(filter_dict: Any, exclude: bool, models: list[str]) -> None:
    assert [c["model"] for c in filter_config(CONFIGS, filter_dict, exclude=exclude)] == models


def test_filter_dict_with_a_plain_value_in_config_list_from_json(monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    monkeypatch.setenv("OAI_CONFIG_LIST", json.dumps(CONFIGS))
    assert autogen.config_list_from_json("OAI_CONFIG_LIST", filter_dict={"api_type": "azure"}) == [CONFIGS[1]]


def test_get_config_list_length_mismatch_is_an_invalid_argument() -> None:
    with pytest.raises(InvalidArgumentError, match="The length of api_keys must match the length of base_urls"):
        get_config_list(["a", "b"], ["http://u/v1"])
    with pytest.raises(AssertionError):  # classic code catching AssertionError still catches it
        get_config_list(["k"], base_urls=[])
    assert get_config_list([" k ", "", "  "], api_type="azure", api_version="v") == [
        {"api_key": " k ", "api_type": "azure", "api_version": "v"}
    ]


def test_get_config_reads_named_environment_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_BASE", "http://from-env/v1")
    assert get_config("k", base_url="MY_BASE", api_type="azure", api_version="2024-02-01") == {
        "api_key": "k", "base_url": "http://from-env/v1", "api_type": "azure", "api_version": "2024-02-01",
    }  # fmt: skip
    assert get_config(None) == {"api_key": None}


def test_config_list_from_dotenv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DOTENV_OPENAI", "DOTENV_GROQ", "DOTENV_BASE"):
        monkeypatch.delenv(name, raising=False)
    env = tmp_path / ".env"
    env.write_text("OPENAI_API_KEY=sk-from-dotenv\nDOTENV_GROQ=gsk-1\nDOTENV_BASE=https://api.groq.com/openai/v1\n")
    try:
        config_list = config_list_from_dotenv(
            dotenv_file_path=str(env),
            model_api_key_map={
                "llama-3.3-70b": {"api_key_env_var": "DOTENV_GROQ", "api_type": "groq", "base_url": "DOTENV_BASE"},
                "missing-model": "DOTENV_OPENAI",
            },
        )
        assert config_list == [
            {"api_key": "gsk-1", "base_url": "https://api.groq.com/openai/v1", "api_type": "groq",
             "model": "llama-3.3-70b"},
            {"api_key": "sk-from-dotenv", "model": "gpt-4"},
            {"api_key": "sk-from-dotenv", "model": "gpt-3.5-turbo"},
        ]  # fmt: skip
        assert config_list_from_dotenv(str(env), filter_dict={"model": ["gpt-4"]}) == [
            {"api_key": "sk-from-dotenv", "model": "gpt-4"}
        ]
    finally:  # the .env file was loaded into the environment, as in the classic package
        for name in ("OPENAI_API_KEY", "DOTENV_GROQ", "DOTENV_BASE"):
            monkeypatch.delenv(name, raising=False)
    assert config_list_from_dotenv(str(tmp_path / "absent.env")) == []


# ----------------------------------------------------------------------------- OPENAI_BASE_URL
def test_openai_base_url_is_honoured_without_a_key(
    scripted_server: ScriptedOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", scripted_server.base_url)
    scripted_server.add_reply("local answer")
    client = OpenAIWrapper(config_list=[{"model": "local-model"}], cache_seed=None)
    assert scripted_server.base_url in repr(client)
    assert client.create(messages=USER).choices[0].message.content == "local answer"
    assert scripted_server.requests[0]["model"] == "local-model"


def test_errors_name_the_openai_base_url(dead_base_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", dead_base_url)
    client = OpenAIWrapper(config_list=[{"model": "m", "max_retries": 0}], cache_seed=None)
    with pytest.raises(Exception) as info:  # noqa: PT011 - the type is the failover error; the message matters
        client.create(messages=USER)
    assert dead_base_url in str(info.value) and "api.openai.com" not in str(info.value)


def test_the_hosted_openai_endpoint_still_needs_a_key() -> None:
    with pytest.raises(ValueError, match="OPENAI_API_KEY"):
        OpenAIWrapper(config_list=[{"model": "gpt-4o-mini"}])


# ----------------------------------------------------------------------------- classic config keys
class Answer(BaseModel):
    x: int

    def format(self) -> str:
        return f"x is {self.x}"


def test_classic_config_keys_run(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply('{"x": 3}')
    entry = scripted_server.config_entry(tags=["cloud"], price=[1, 2], api_version="2024-02-01", my_server_option=5)
    result = _chat(
        {"config_list": [entry], "temperature": 0.1, "timeout": 30, "cache_seed": None, "response_format": Answer}
    )
    assert result.summary == "x is 3"
    body = scripted_server.requests[0]
    assert body["temperature"] == 0.1 and body["my_server_option"] == 5  # unknown entry keys reach the server
    assert body["response_format"]["json_schema"]["name"] == "Answer"
    assert not {"tags", "price", "api_version", "timeout", "cache_seed"} & set(body)
    usage = result.cost["usage_including_cached_inference"]["scripted-model"]
    assert usage["cost"] == pytest.approx((usage["prompt_tokens"] * 1 + usage["completion_tokens"] * 2) / 1000)


def test_llm_config_false_builds_no_client() -> None:
    assert autogen.AssistantAgent("assistant", llm_config=False).client is None


def test_azure_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", "https://res.openai.azure.com")
    monkeypatch.setenv("OPENAI_API_VERSION", "2024-02-01")
    monkeypatch.setenv("AZURE_OPENAI_AD_TOKEN", "token")
    client = OpenAIWrapper(config_list=[{"model": "gpt-4", "api_type": "azure"}])
    assert "https://res.openai.azure.com (azure)" in repr(client)


def test_azure_ad_token_provider(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = {"model": "gpt-4", "api_type": "azure", "base_url": "https://res.openai.azure.com",
             "api_version": "2024-02-01"}  # fmt: skip
    OpenAIWrapper(config_list=[{**entry, "azure_ad_token_provider": lambda: "token"}])
    monkeypatch.setitem(__import__("sys").modules, "azure.identity", None)  # not installed
    with pytest.raises(ImportError, match="azure-identity"):
        OpenAIWrapper(config_list=[{**entry, "azure_ad_token_provider": "DEFAULT"}])


def test_openai_client_wraps_a_ready_sdk_client(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies('{"x": 3}', '{"x": 4}')
    client = OpenAIClient(openai.OpenAI(api_key="sk-test", base_url=scripted_server.base_url), response_format=Answer)
    response = client.create({"model": "m", "messages": USER})
    assert client.message_retrieval(response) == ["x is 3"]
    assert scripted_server.requests[0]["response_format"]["type"] == "json_schema"
    response = asyncio.run(client.a_create({"model": "m", "messages": USER}))
    assert response.choices[0].message.content == '{"x": 4}'
    assert client.get_usage(response)["model"] == response.model


# ----------------------------------------------------------------------------- token counting
def test_num_tokens_from_functions_follows_the_classic_accounting() -> None:
    # Every text here is one token in OpenAI's cl100k vocabulary, so the classic count is known exactly:
    # name + description - 2, per property its name, 2 + type, 2 + description, enum -3 + (3 + value) each,
    # 11 per parameters block (-2 when empty), 12 per list.
    add = {"name": "add", "description": "Add",
           "parameters": {"type": "object", "properties": {"a": {"type": "integer", "description": "first"}}}}
    convert = {"name": "convert", "description": "Convert money",
               "parameters": {"type": "object", "properties": {"currency": {"type": "string", "enum": ["USD", "EUR"]}}}}
    ping = {"name": "ping", "description": "Ping", "parameters": {"type": "object", "properties": {}}}
    assert num_tokens_from_functions([add]) == 30
    assert num_tokens_from_functions([convert]) == 33
    assert num_tokens_from_functions([ping]) == 21
    assert num_tokens_from_functions([add, convert, ping], model="gpt-4") == 30 + 33 + 21 - 24
    with pytest.raises(KeyError):
        num_tokens_from_functions([{"name": "f"}])


def test_percentile_used_and_token_left() -> None:
    assert percentile_used("hello world", model="gpt-4") == pytest.approx(2 / 8192)
    assert token_left("hello world", model="gpt-4") == 8192 - 2
    assert get_max_token_limit("gpt-35-turbo") == 16385


def test_num_tokens_from_gpt_image() -> None:
    import base64
    import io

    from autogen_classic.token_count_utils import num_tokens_from_gpt_image

    image_module = pytest.importorskip("PIL.Image")
    big = image_module.new("RGB", (2500, 2500), color="red")
    assert num_tokens_from_gpt_image(big, model="gpt-4-vision") == 765  # 4 tiles of 512 after scaling to 768
    assert num_tokens_from_gpt_image(big, model="gpt-4o-mini") == 2833 + 4 * 5667
    assert num_tokens_from_gpt_image(big, model="gpt-4o", low_quality=True) == 85
    buffer = io.BytesIO()
    image_module.new("RGB", (1024, 300)).save(buffer, format="PNG")
    data = base64.b64encode(buffer.getvalue()).decode()
    assert num_tokens_from_gpt_image(f"data:image/png;base64,{data}", model="gpt-4o") == 85 + 2 * 170
    with pytest.raises(ValueError, match="Model llama is not supported"):
        num_tokens_from_gpt_image(big, model="llama")


def test_api_key_may_be_a_function(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply("ok")
    entry = {"model": "m", "base_url": scripted_server.base_url, "api_key": lambda: "sk-from-function"}
    OpenAIWrapper(config_list=[entry], cache_seed=None).create(messages=USER)
    assert scripted_server.request_headers[0]["authorization"] == "Bearer sk-from-function"
