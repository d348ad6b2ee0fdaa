"""LLMConfig, the model configuration of AG2 0.14, as 0.14 scripts use it.

Its forms (positional endpoints, typed entries, ``from_json``, options, ``where``), dict-like access,
hidden keys, validation, the deprecated forms of AG2 0.8 - 0.13, and every place that takes an
``llm_config``: agents, ``OpenAIWrapper``, group chats, ``run_group_chats``, ``SocietyOfMindAgent``,
reflection summaries. Chats run on the scripted OpenAI-compatible server (a real HTTP endpoint).
Dict configurations of ag2 0.7.3 keep working unchanged.
"""

from __future__ import annotations

import copy
import json
import pickle
import warnings
from pathlib import Path
from typing import Any, Callable

import pytest
from pydantic import ValidationError

import autogen_classic as autogen
from autogen_classic import (
    AssistantAgent,
    ConversableAgent,
    GroupChat,
    GroupChatManager,
    LLMConfig,
    UserProxyAgent,
    runtime_logging,
)
from autogen_classic.agentchat.contrib.society_of_mind_agent import SocietyOfMindAgent
from autogen_classic.experiments import run_group_chats
from autogen_classic.llm_config.config import LLMConfig as ClassicPathLLMConfig
from autogen_classic.llm_config.entry import ApplicationConfig, LLMConfigEntry
from autogen_classic.llm_config.types import (
    AnthropicLLMConfigEntry,
    BedrockLLMConfigEntry,
    CerebrasLLMConfigEntry,
    DeepSeekLLMConfigEntry,
    OllamaLLMConfigEntry,
    OpenAIResponsesLLMConfigEntry,
)
from autogen_classic.oai import OpenAIWrapper
from autogen_classic.oai.client import AzureOpenAILLMConfigEntry, OpenAILLMConfigEntry
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply

KEY = "sk-test-" + "k3y" * 20  # shaped like an OpenAI key, so a leak is easy to find
HIDDEN = "**********"


def _entry(server: ScriptedOpenAIServer, model: str = "scripted-model", **extra: Any) -> dict[str, Any]:
    return server.config_entry(model, **extra)


# ----------------------------------------------------------------- forms
def test_one_endpoint_as_a_dict() -> None:
    config = LLMConfig({"api_type": "openai", "model": "gpt-4o-mini", "api_key": KEY})
    assert config["config_list"][0]["model"] == "gpt-4o-mini"
    assert config.config_list[0].model == "gpt-4o-mini"  # attribute reads, as on the typed entries
    assert config.model_dump() == {
        "config_list": [{"api_type": "openai", "model": "gpt-4o-mini", "api_key": KEY, "tags": [], "stream": False}]
    }
    assert LLMConfig({"model": "gpt-4o-mini"})["config_list"][0]["api_type"] == "openai"  # the default api_type


def test_several_endpoints_and_options_shared_by_all() -> None:
    config = LLMConfig(
        {"model": "gpt-4o-mini", "temperature": 0.9},
        {"api_type": "azure", "model": "gpt-4o", "base_url": "https://example.azure.com", "api_version": "2024-02-01"},
        temperature=0.3, max_tokens=100, top_p=0.5, cache_seed=42, timeout=60, seed=7, parallel_tool_calls=True,
        allow_format_str_template=True, check_every_ms=10, routing_method="round_robin",
        tools=[{"type": "function", "function": {"name": "f", "parameters": {}}}],
    )
    first, second = config["config_list"]
    assert first["temperature"] == 0.9 and second["temperature"] == 0.3  # an endpoint's own value wins
    assert first["max_tokens"] == second["max_tokens"] == 100 and second["top_p"] == 0.5
    assert second["api_type"] == "azure" and second["base_url"] == "https://example.azure.com/"
    assert (config["cache_seed"], config["timeout"], config["seed"], config.routing_method) == (42, 60, 7, "round_robin")
    assert list(config.model_dump()) == [
        "max_tokens", "top_p", "temperature", "check_every_ms", "seed", "allow_format_str_template", "timeout",
        "cache_seed", "parallel_tool_calls", "tools", "config_list", "routing_method",
    ]


def test_typed_entries() -> None:
    entry = OpenAILLMConfigEntry(model="gpt-4o-mini", api_key=KEY)
    config = LLMConfig(entry, AzureOpenAILLMConfigEntry(model="gpt-4o", base_url="https://a.example"), temperature=0.2)
    assert [e["api_type"] for e in config["config_list"]] == ["openai", "azure"]
    assert config["config_list"][0] == {
        "temperature": 0.2, "api_type": "openai", "model": "gpt-4o-mini", "api_key": KEY, "tags": [], "stream": False,
    }
    assert entry.temperature is None  # the entry given is left as it is
    assert entry["api_key"] == KEY and dict(entry)["api_key"] == KEY and "model" in entry
    assert isinstance(entry, LLMConfigEntry) and isinstance(ApplicationConfig(), ApplicationConfig)
    assert config == LLMConfig(
        {"model": "gpt-4o-mini", "api_key": KEY},
        {"api_type": "azure", "model": "gpt-4o", "base_url": "https://a.example"},
        temperature=0.2,
    )


def test_typed_entries_of_other_providers_keep_their_defaults_and_ranges() -> None:
    assert DeepSeekLLMConfigEntry(model="deepseek-chat").model_dump()["base_url"] == "https://api.deepseek.com/v1"
    assert OllamaLLMConfigEntry(model="llama3").model_dump()["num_ctx"] == 2048
    assert AnthropicLLMConfigEntry(model="claude").max_tokens == 4096
    assert CerebrasLLMConfigEntry(model="llama", temperature=1.4).temperature == 1.4
    assert OpenAIResponsesLLMConfigEntry(model="o3").tool_choice == "auto"
    with pytest.raises(ValidationError, match="aws_region"):
        BedrockLLMConfigEntry(model="m")
    with pytest.raises(ValidationError, match="max_tokens"):
        AnthropicLLMConfigEntry(model="claude", max_tokens=0)
    with pytest.raises(ValidationError, match="price"):
        OpenAILLMConfigEntry(model="m", price=[1.0])


def test_from_json_with_a_file_an_environment_variable_and_filters(tmp_path: Path, monkeypatch: Any) -> None:
    entries = [
        {"model": "gpt-4o", "api_key": KEY},
        {"model": "gpt-4o-mini", "api_key": KEY, "tags": ["cheap"]},
        {"model": "dep", "api_type": "azure", "base_url": "https://a.example", "api_version": "2024-02-01"},
    ]
    path = tmp_path / "OAI_CONFIG_LIST"
    path.write_text(json.dumps(entries))

    config = LLMConfig.from_json(path=path, filter_dict={"model": ["gpt-4o-mini"]}, temperature=0.5)
    assert [e["model"] for e in config["config_list"]] == ["gpt-4o-mini"] and config["temperature"] == 0.5
    assert [e["model"] for e in LLMConfig.from_json(path=path, filter_dict={"tags": ["cheap"]}).config_list] == [
        "gpt-4o-mini"
    ]
    assert len(LLMConfig.from_json(path="OAI_CONFIG_LIST", file_location=str(tmp_path))["config_list"]) == 3

    monkeypatch.setenv("MY_CONFIG_JSON", json.dumps(entries[:1]))
    assert [e["model"] for e in LLMConfig.from_json(env="MY_CONFIG_JSON")["config_list"]] == ["gpt-4o"]
    monkeypatch.setenv("MY_CONFIG_FILE", str(path))  # a variable naming the file
    assert len(LLMConfig.from_json(env="MY_CONFIG_FILE")["config_list"]) == 3

    with pytest.raises(ValueError, match="Either 'env' or 'path' must be provided"):
        LLMConfig.from_json()
    with pytest.raises(ValueError, match="Only one of 'env' or 'path' can be provided"):
        LLMConfig.from_json(env="MY_CONFIG_JSON", path=path)
    with pytest.raises(FileNotFoundError):
        LLMConfig.from_json(path=tmp_path / "missing.json")
    with pytest.raises(ValidationError, match="config_list"):
        LLMConfig.from_json(path=path, filter_dict={"model": ["nothing-matches"]})


def test_where_keeps_the_matching_endpoints_and_the_options() -> None:
    config = LLMConfig({"model": "a", "tags": ["x"]}, {"model": "b"}, {"api_type": "azure", "model": "c"}, timeout=9)
    assert [e["model"] for e in config.where(model="b")["config_list"]] == ["b"]
    assert [e["model"] for e in config.where(api_type="azure", exclude=True)["config_list"]] == ["a", "b"]
    assert [e["model"] for e in config.where(tags=["x"])["config_list"]] == ["a"]
    assert config.where(model="b")["timeout"] == 9
    with pytest.raises(ValueError, match="No config found that satisfies the filter criteria"):
        config.where(model="z")


def test_dict_like_access_copies_and_equality() -> None:
    config = LLMConfig({"model": "gpt-4o-mini", "api_key": KEY}, temperature=0.1)
    assert config.get("temperature") == 0.1 and config.get("missing", 5) == 5
    assert "config_list" in config and "temperature" in config and "missing" not in config
    assert config["top_p"] is None and config["tools"] == [] and config.top_p is None  # unset options read as unset
    with pytest.raises(KeyError, match="Key 'missing' not found in LLMConfig"):
        config["missing"]  # noqa: B018
    with pytest.raises(AttributeError, match="no attribute 'missing'"):
        config.missing  # noqa: B018
    assert dict(**config)["config_list"][0]["model"] == "gpt-4o-mini"

    for duplicate in (config.copy(), config.deepcopy(), copy.copy(config), copy.deepcopy(config),
                      pickle.loads(pickle.dumps(config))):
        assert isinstance(duplicate, LLMConfig) and duplicate == config and duplicate is not config
        assert duplicate["config_list"][0] is not config["config_list"][0]
    changed = config.copy()
    changed["temperature"] = 0.7
    changed.temperature = 0.8
    assert changed["temperature"] == 0.8 and config["temperature"] == 0.1 and changed != config
    with pytest.raises(ValueError, match="has no field 'temprature'.*did you mean 'temperature'"):
        changed["temprature"] = 1

    assert json.loads(config.model_dump_json())["config_list"][0]["model"] == "gpt-4o-mini"
    assert LLMConfig.model_validate(config.model_dump()) == config
    assert LLMConfig.ensure_config({"config_list": [{"model": "gpt-4o-mini", "api_key": KEY}], "temperature": 0.1}) == config
    assert LLMConfig.ensure_config(config) == config and LLMConfig.ensure_config(config) is not config


def test_repr_and_str_never_show_a_key() -> None:
    config = LLMConfig(
        {"model": "gpt-4o-mini", "api_key": KEY, "default_headers": {"Authorization": f"Bearer {KEY}"}},
        BedrockLLMConfigEntry(model="m", aws_region="us-east-1", aws_secret_key=KEY, base_url="http://gw.example"),
    )
    for text in (repr(config), str(config), repr(config["config_list"]), str(config.config_list[1]),
                 repr(OpenAILLMConfigEntry(model="m", api_key=KEY)), f"{config}"):
        assert KEY not in text and HIDDEN in text
    assert repr(LLMConfig({"model": "gpt-4o-mini", "api_key": KEY}, temperature=0.2)) == (
        "LLMConfig(temperature=0.2, config_list=[{'temperature': 0.2, 'api_type': 'openai', 'model': 'gpt-4o-mini', "
        "'api_key': '**********', 'tags': [], 'stream': False}])"
    )
    assert repr(config["config_list"][0]).startswith("OpenAILLMConfigEntry(api_type='openai', model='gpt-4o-mini'")
    assert config["config_list"][0]["api_key"] == KEY  # the data keeps the key: clients are built from it


def test_the_classic_paths_give_the_same_objects() -> None:
    assert autogen.LLMConfig is LLMConfig is ClassicPathLLMConfig
    assert autogen.agentchat.conversable_agent.LLMConfig is LLMConfig
    assert autogen.oai.OpenAILLMConfigEntry is OpenAILLMConfigEntry
    from autogen_classic.llm_config import ModelClient
    from autogen_classic.oai import ModelClient as OaiModelClient

    assert ModelClient is OaiModelClient


# ----------------------------------------------------------------- validation
BAD_INPUTS: list[tuple[str, Callable[[], Any], type[BaseException], tuple[str, ...]]] = [
    ("unknown option", lambda: LLMConfig({"model": "m"}, temprature=0.1), TypeError,
     ("unexpected keyword argument 'temprature'", "did you mean 'temperature'")),
    ("temperature not a number", lambda: LLMConfig({"model": "m"}, temperature="hot"), ValidationError,
     ("temperature", "valid number", "from 0 to 1")),
    ("temperature out of range", lambda: LLMConfig({"model": "m"}, temperature=1.5), ValidationError,
     ("temperature", "less than or equal to 1")),
    ("entry temperature", lambda: LLMConfig({"model": "m", "temperature": "hot"}), ValidationError,
     ("config_list.0.temperature", "from 0 to 1")),
    ("unknown api_type", lambda: LLMConfig({"model": "m", "api_type": "foo", "api_key": KEY}), ValidationError,
     ("config_list.0", "'foo'", "api_type", "'openai'", "base_url")),
    ("missing model", lambda: LLMConfig({"api_type": "openai"}), ValidationError,
     ("config_list.0.model", "Field required", "model")),
    ("no endpoint", lambda: LLMConfig(), ValidationError, ("config_list", "at least 1 item")),
    ("max_tokens", lambda: LLMConfig({"model": "m"}, max_tokens="ten"), ValidationError, ("max_tokens", "whole number")),
    ("timeout", lambda: LLMConfig({"model": "m"}, timeout="soon"), ValidationError, ("timeout", "seconds")),
    ("cache_seed", lambda: LLMConfig({"model": "m"}, cache_seed="x"), ValidationError, ("cache_seed", "whole number")),
    ("routing_method", lambda: LLMConfig({"model": "m"}, routing_method="random"), ValidationError,
     ("routing_method", "round_robin")),
    ("price", lambda: LLMConfig({"model": "m", "price": [1.0]}), ValidationError, ("config_list.0.price", "[prompt")),
    ("endpoint not a dict", lambda: LLMConfig("gpt-4o"), TypeError, ("'str' object is not a mapping", "{'model'")),
    ("config list not unpacked", lambda: LLMConfig([{"model": "m"}]), TypeError, ("not a mapping", "*config_list")),
    ("whole llm_config as an endpoint", lambda: LLMConfig({"config_list": [{"model": "m"}]}), ValidationError,
     ("config_list.0", "LLMConfig(*llm_config['config_list']")),
    ("agent llm_config of a wrong type", lambda: ConversableAgent("a", llm_config="gpt-4o"), TypeError,
     ("llm_config must be a dict", "LLMConfig")),
]


@pytest.mark.parametrize(("build", "error", "words"), [c[1:] for c in BAD_INPUTS], ids=[c[0] for c in BAD_INPUTS])
def test_bad_input_raises_the_classic_type_naming_the_field_and_the_fix(
    build: Callable[[], Any], error: type[BaseException], words: tuple[str, ...]
) -> None:
    with pytest.raises(error) as caught:
        build()
    message = str(caught.value)
    for word in words:
        assert word in message
    assert KEY not in message


def test_validation_errors_are_value_errors_with_one_line_per_field() -> None:
    with pytest.raises(ValueError) as caught:  # noqa: PT011 - a pydantic ValidationError is a ValueError
        LLMConfig({"model": "m", "temperature": "hot"}, {"api_type": "openai"}, timeout="x")
    err = caught.value
    assert isinstance(err, ValidationError)
    assert [".".join(map(str, e["loc"])) for e in err.errors()] == [
        "config_list.0.temperature", "config_list.1.model", "timeout",
    ]


# ----------------------------------------------------------------- the forms of AG2 0.8 - 0.13
def test_config_list_keyword_is_deprecated_but_works() -> None:
    with pytest.warns(DeprecationWarning, match=r"LLMConfig\(config_list=\[...\]\) is deprecated.*LLMConfig\(\*config_list\)"):
        config = LLMConfig(config_list=[{"model": "gpt-4o-mini", "api_key": KEY}], temperature=0.2)
    assert config == LLMConfig({"model": "gpt-4o-mini", "api_key": KEY}, temperature=0.2)


def test_endpoint_settings_as_keywords_are_deprecated_but_work() -> None:
    with pytest.warns(DeprecationWarning, match="pass the endpoint as a dict"):
        config = LLMConfig(api_type="openai", model="gpt-4o-mini", api_key=KEY, temperature=0.2)
    assert config == LLMConfig({"api_type": "openai", "model": "gpt-4o-mini", "api_key": KEY}, temperature=0.2)
    with pytest.raises(TypeError, match="unexpected keyword argument 'model'"):
        LLMConfig({"model": "a"}, model="b")  # endpoints already given: the keyword is a mistake


def test_with_block_gives_its_config_to_agents_built_inside() -> None:
    config = LLMConfig({"model": "gpt-4o-mini", "api_key": KEY})
    other = LLMConfig({"model": "gpt-4o", "api_key": KEY})
    with pytest.warns(DeprecationWarning, match="'with llm_config:'"):
        with config:
            inside = AssistantAgent("inside")
            explicit = ConversableAgent("explicit", llm_config=False)
            user = UserProxyAgent("user")  # llm_config=False by default: no model
            with other:
                nested = ConversableAgent("nested")
            with pytest.warns(DeprecationWarning, match="get_current_llm_config"):
                assert LLMConfig.get_current_llm_config() == config
    assert inside.llm_config == config and inside.llm_config is not config and inside.client is not None
    assert nested.llm_config == other
    assert explicit.llm_config is False and user.llm_config is False
    assert ConversableAgent("after").llm_config is False  # the block is over
    with pytest.warns(DeprecationWarning):
        assert LLMConfig.get_current_llm_config() is None
        assert LLMConfig.get_current_llm_config(config) is config


def test_the_removed_forms_warn_only_when_used() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        LLMConfig({"model": "gpt-4o-mini"}, temperature=0.1).where(model="gpt-4o-mini")


# ----------------------------------------------------------------- agents
@pytest.mark.parametrize(
    "make",
    [
        lambda e: LLMConfig(e),
        lambda e: OpenAILLMConfigEntry(**e),
        lambda e: [e],
        lambda e: LLMConfig.from_json(env="SCRIPTED_CONFIG"),
    ],
    ids=["LLMConfig", "typed entry", "list of endpoints", "from_json"],
)
def test_agents_built_from_each_form_keep_an_llm_config(
    make: Callable[[dict[str, Any]], Any], scripted_server: ScriptedOpenAIServer, monkeypatch: Any
) -> None:
    monkeypatch.setenv("SCRIPTED_CONFIG", json.dumps([_entry(scripted_server)]))
    given = make(_entry(scripted_server))
    for agent in (ConversableAgent("a", llm_config=given), AssistantAgent("b", llm_config=given),
                  UserProxyAgent("c", llm_config=given)):
        assert isinstance(agent.llm_config, LLMConfig)
        assert agent.llm_config["config_list"][0]["model"] == "scripted-model"  # the classic read
        assert agent.llm_config.config_list[0].base_url == scripted_server.base_url
        assert isinstance(agent.client, OpenAIWrapper)
    if isinstance(given, LLMConfig):
        agent = ConversableAgent("d", llm_config=given)
        given["temperature"] = 0.9
        assert agent.llm_config is not given and agent.llm_config.get("temperature") is None


def test_two_agent_chat_driven_through_an_llm_config(
    scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream
) -> None:
    config = LLMConfig(_entry(scripted_server), temperature=0.2, max_tokens=50)
    assistant = AssistantAgent("assistant", llm_config=config)
    user = UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False, max_consecutive_auto_reply=1)
    scripted_server.add_replies("Paris.", "TERMINATE", "The capital is Paris.")

    result = user.initiate_chat(assistant, message="Capital of France?", summary_method="reflection_with_llm")

    assert [m["content"] for m in result.chat_history] == ["Capital of France?", "Paris.", "", "TERMINATE"]
    assert result.summary == "The capital is Paris."
    first = scripted_server.requests[0]
    assert (first["model"], first["temperature"], first["max_tokens"]) == ("scripted-model", 0.2, 50)
    assert "tags" not in first and "api_type" not in first  # settings of the client, not of the request
    # No cache unless cache_seed is given (AG2 0.14): the same question asks the model again.
    again = AssistantAgent("assistant", llm_config=config)
    scripted_server.add_reply("Paris again.")
    assert again.generate_reply([{"role": "user", "content": "Capital of France?"}]) == "Paris again."
    assert config["cache_seed"] is None and scripted_server.request_count == 4


def test_tools_registered_on_an_agent_built_from_an_llm_config(
    scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream
) -> None:
    config = LLMConfig(_entry(scripted_server))
    assistant = AssistantAgent("assistant", llm_config=config)
    user = UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False,
                          is_termination_msg=lambda m: "TERMINATE" in (m.get("content") or ""))

    @user.register_for_execution()
    @assistant.register_for_llm(description="Add two numbers.")
    def add(a: int, b: int) -> int:
        return a + b

    assert isinstance(assistant.llm_config, LLMConfig) and assistant.llm_config.tools[0]["function"]["name"] == "add"
    assert "tools" not in config  # the LLMConfig given is left as it is
    scripted_server.add_replies(
        ScriptedReply(tool_calls=[{"name": "add", "arguments": {"a": 2, "b": 3}, "id": "c1"}]), "5 TERMINATE"
    )
    result = user.initiate_chat(assistant, message="2 + 3?")
    assert [t["function"]["name"] for t in scripted_server.requests[0]["tools"]] == ["add"]
    assert result.chat_history[2]["tool_responses"][0]["content"] == "5"


def test_an_ollama_entry_sends_no_unlimited_max_tokens(scripted_server: ScriptedOpenAIServer) -> None:
    wrapper = OpenAIWrapper(**LLMConfig(OllamaLLMConfigEntry(model="llama3", base_url=scripted_server.base_url)))
    scripted_server.add_reply("ok")
    wrapper.create(messages=[{"role": "user", "content": "hi"}])
    sent = scripted_server.requests[-1]
    assert "max_tokens" not in sent and "num_predict" not in sent  # num_predict=-1 means no limit


def test_a_group_chat_whose_manager_and_selector_use_llm_configs(
    scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream
) -> None:
    config = LLMConfig(_entry(scripted_server))
    selector = LLMConfig(_entry(scripted_server, "selector-model"), temperature=0.0)
    writer = AssistantAgent("writer", llm_config=config, description="Writes the draft.")
    critic = AssistantAgent("critic", llm_config=config, description="Reviews the draft.")
    groupchat = GroupChat([writer, critic], messages=[], max_round=3, select_speaker_auto_llm_config=selector)
    manager = GroupChatManager(groupchat, llm_config=config)

    def answer(body: dict[str, Any]) -> str:
        return "critic" if body["model"] == "selector-model" else "Looks good."

    scripted_server.set_responder(answer)
    result = writer.initiate_chat(manager, message="Here is my draft.")

    assert [(m.get("name"), m["content"]) for m in result.chat_history][:2] == [
        ("writer", "Here is my draft."), ("critic", "Looks good."),
    ]
    models = [r["model"] for r in scripted_server.requests]
    assert models[0] == "selector-model" and "scripted-model" in models
    assert isinstance(groupchat.select_speaker_auto_llm_config, LLMConfig)
    assert isinstance(manager.llm_config, LLMConfig)


def test_run_group_chats_with_an_llm_config(scripted_server: ScriptedOpenAIServer) -> None:
    def make() -> GroupChat:
        agents = [ConversableAgent(n, llm_config=False, human_input_mode="NEVER", default_auto_reply=f"{n} here.",
                                   description=f"The {n}.") for n in ("planner", "coder")]
        return GroupChat(agents=agents, max_round=2, speaker_selection_method="auto")

    scripted_server.add_replies("coder")
    records = run_group_chats(make, 1, message="Plan.", llm_config=LLMConfig(_entry(scripted_server)))
    assert records[0].speakers == ["planner", "coder"] and records[0].selection_calls == 1


def test_society_of_mind_agent_with_llm_configs(
    scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream
) -> None:
    config = LLMConfig(_entry(scripted_server))
    first = AssistantAgent("inner_a", llm_config=config, system_message="You are A.")
    second = AssistantAgent("inner_b", llm_config=config, system_message="You are B.")
    groupchat = GroupChat([first, second], messages=[], speaker_selection_method="round_robin", max_round=3)
    society = SocietyOfMindAgent("society", chat_manager=GroupChatManager(groupchat, llm_config=config),
                                 llm_config=config)
    user = UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False,
                          is_termination_msg=lambda m: True)
    scripted_server.add_replies("A1", "TERMINATE", "The prepared answer.")
    result = user.initiate_chat(society, message="Question?")
    assert [m["content"] for m in result.chat_history] == ["Question?", "The prepared answer."]
    assert isinstance(society.llm_config, LLMConfig)


def test_openai_wrapper_takes_llm_configs_typed_entries_and_round_robin(
    scripted_server: ScriptedOpenAIServer,
) -> None:
    wrapper = OpenAIWrapper(**LLMConfig(_entry(scripted_server), temperature=0.3))
    scripted_server.add_reply("one")
    response = wrapper.create(messages=[{"role": "user", "content": "hi"}])
    assert wrapper.extract_text_or_completion_object(response) == ["one"]
    assert scripted_server.requests[-1]["temperature"] == 0.3

    entries = [OpenAILLMConfigEntry(**_entry(scripted_server, "first")), OpenAILLMConfigEntry(**_entry(scripted_server, "second"))]
    wrapper = OpenAIWrapper(**LLMConfig(*entries, routing_method="round_robin"))
    scripted_server.add_replies("a", "b", "c")
    for _ in range(3):
        wrapper.create(messages=[{"role": "user", "content": "hi"}])
    assert [r["model"] for r in scripted_server.requests[-3:]] == ["first", "second", "first"]

    typed = OpenAIWrapper(config_list=entries)
    scripted_server.add_replies("d")
    typed.create(messages=[{"role": "user", "content": "hi"}])
    assert scripted_server.requests[-1]["model"] == "first"
    with pytest.raises(ValueError, match="routing_method must be 'fixed_order'"):
        OpenAIWrapper(config_list=[_entry(scripted_server)], routing_method="random")


def test_logs_never_show_the_key(scripted_server: ScriptedOpenAIServer, tmp_path: Path) -> None:
    log_file = tmp_path / "run.log"
    runtime_logging.start(logger_type="file", config={"filename": str(log_file)})
    try:
        config = LLMConfig(_entry(scripted_server, api_key=KEY))
        agent = AssistantAgent("assistant", llm_config=config)
        scripted_server.add_reply("fine")
        agent.generate_reply([{"role": "user", "content": "hi"}])
    finally:
        runtime_logging.stop()
    text = log_file.read_text()
    assert "scripted-model" in text and KEY not in text


# ----------------------------------------------------------------- dict configurations (ag2 0.7.3) are unchanged
def test_a_dict_llm_config_still_works_as_before(
    scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream
) -> None:
    given = {"config_list": [_entry(scripted_server)], "cache_seed": None, "temperature": 0.4}
    assistant = AssistantAgent("assistant", llm_config=given)
    assert type(assistant.llm_config) is dict and assistant.llm_config == given
    assert assistant.llm_config is not given  # a copy, as before
    assert assistant.llm_config["config_list"][0]["model"] == "scripted-model"
    user = UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False, max_consecutive_auto_reply=0)
    scripted_server.add_reply("Hello.")
    result = user.initiate_chat(assistant, message="Hi")
    assert [m["content"] for m in result.chat_history] == ["Hi", "Hello."]
    assert scripted_server.requests[0]["temperature"] == 0.4
    with pytest.raises(ValueError, match="unknown option 'temprature'"):
        AssistantAgent("bad", llm_config={"config_list": [_entry(scripted_server)], "temprature": 1})


# ----------------------------------------------------------------- one declaration of the shared options
def test_llm_config_and_the_wrapper_check_their_shared_options_against_one_declaration() -> None:
    import openai

    from autogen_classic.llm_config import _validation
    from autogen_classic.oai.configuration import config as wrapper_schema
    from autogen_classic.oai.configuration.llm_options import LLMConfigOptions, SharedOptions

    assert issubclass(LLMConfigOptions, SharedOptions) and issubclass(wrapper_schema._Settings, SharedOptions)
    assert _validation.LLMConfigOptions is LLMConfigOptions
    endpoint = {"model": "gpt-4o-mini", "api_key": KEY}
    # Values one of the two took and the other refused: both take them now, the agent's path included.
    for options in ({"timeout": 1.5}, {"timeout": openai.Timeout(5.0)}, {"response_format": "json_object"}):
        config = LLMConfig(endpoint, **options)
        OpenAIWrapper(**config)
        OpenAIWrapper(config_list=[endpoint], **options)
    # What both refuse, both still refuse, each with its own wording.
    with pytest.raises(ValidationError, match="seconds"):
        LLMConfig(endpoint, timeout="soon")
    with pytest.raises(ValueError, match="timeout: Input should be a valid number"):
        OpenAIWrapper(config_list=[endpoint], timeout="soon")
    for build in (lambda: LLMConfig(endpoint, response_format=int), lambda: OpenAIWrapper(config_list=[endpoint], response_format=int)):
        with pytest.raises(ValueError, match="must be a pydantic BaseModel subclass"):
            build()
