"""The v2 model clients (autogen.llm_clients): content blocks, the chat-completions client, and both clients
behind OpenAIWrapper and agents. The Responses API client has tests of its own (test_llm_clients_responses.py).

Every client test talks HTTP to the scripted OpenAI-compatible server (or the embedded model) through the
real openai SDK.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import warnings

import pytest
from pydantic import BaseModel, ValidationError

import autogen_classic as autogen
from autogen_classic.llm_clients import (
    AudioContent,
    CitationContent,
    ContentParser,
    GenericContent,
    ImageContent,
    ModelClientV2,
    OpenAICompletionsClient,
    ReasoningContent,
    TextContent,
    ToolCallContent,
    ToolResultContent,
    UnifiedMessage,
    UnifiedResponse,
    VideoContent,
)
from autogen_classic.llm_clients.models import BaseContent, ContentType, UserRoleEnum, normalize_role
from autogen_classic.llm_clients.openai_responses_v2 import OpenAIResponsesV2Client
from autogen_classic.local import MODEL_NAME
from autogen_classic.oai.entries import OpenAIResponsesV2LLMConfigEntry
from autogen_classic.testing.scripted_server import ScriptedReply

WEATHER_TOOL = {
    "type": "function",
    "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}},
}


def completions(server) -> OpenAICompletionsClient:
    return OpenAICompletionsClient(api_key="sk-test", base_url=server.base_url, max_retries=0)


# ---------------------------------------------------------------- content blocks
def test_parser_gives_each_known_type_its_class() -> None:
    cases = {
        "text": ({"text": "hi"}, TextContent),
        "image": ({"image_url": "https://x/y.png"}, ImageContent),
        "audio": ({"transcript": "t"}, AudioContent),
        "video": ({"video_url": "v"}, VideoContent),
        "reasoning": ({"reasoning": "r"}, ReasoningContent),
        "citation": ({"url": "u", "title": "T", "snippet": "s"}, CitationContent),
        "tool_call": ({"id": "1", "name": "f", "arguments": "{}"}, ToolCallContent),
        "tool_result": ({"tool_call_id": "1", "output": "o"}, ToolResultContent),
    }
    for kind, (fields, cls) in cases.items():
        block = ContentParser.parse({"type": kind, **fields})
        assert type(block) is cls and block.type == kind


def test_unknown_types_are_kept_whole_in_generic_content() -> None:
    block = ContentParser.parse({"type": "reflection", "reflection": "hm", "confidence": 0.8})
    assert isinstance(block, GenericContent) and block.type == "reflection"
    assert block.reflection == "hm" and block.get("confidence") == 0.8 and block.get("nope", 5) == 5
    assert block.get_extra_fields() == {"reflection": "hm", "confidence": 0.8} == block.data
    assert block.get_all_fields() == {"type": "reflection", "extra": {}, "reflection": "hm", "confidence": 0.8}
    assert block.has_field("confidence") and not block.has_field("zz") and block.get_text() == ""
    assert ContentParser.parse({"foo": 1}).type == "unknown"


def test_a_known_type_that_does_not_fit_becomes_generic_with_a_warning() -> None:
    with pytest.warns(UserWarning, match="Failed to parse text as TextContent"):
        block = ContentParser.parse({"type": "text"})
    assert type(block) is GenericContent and block.type == "text"


def test_custom_types_can_be_registered() -> None:
    from typing import Literal

    class ReflectionContent(BaseContent):
        type: Literal["reflection"] = "reflection"
        reflection: str

        def get_text(self) -> str:
            return self.reflection

    ContentParser.register("reflection", ReflectionContent)
    try:
        block = ContentParser.parse({"type": "reflection", "reflection": "looked again"})
        assert isinstance(block, ReflectionContent) and block.get_text() == "looked again"
    finally:
        ContentParser._registry.pop("reflection")


def test_bad_blocks_and_registrations_get_clear_errors() -> None:
    with pytest.raises(TypeError, match="must be a subclass of BaseContent"):
        ContentParser.register("x", dict)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a content block must be a dict"):
        ContentParser.parse("text")  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="text"):
        TextContent()  # type: ignore[call-arg]
    with pytest.raises(ValidationError, match="Input should be a valid list"):
        UnifiedMessage(role="user", content="hi")  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="id"):
        UnifiedResponse(model="m", messages=[], provider="x")  # type: ignore[call-arg]


def test_blocks_read_as_text_the_classic_way() -> None:
    assert AudioContent(transcript="hello").get_text() == "audio transcript:hello"
    assert AudioContent().get_text() == "" == ImageContent().get_text() == VideoContent(video_url="v").get_text()
    assert CitationContent(url="u", title="T", snippet="s").get_text() == "citation: T"
    assert ToolCallContent(id="1", name="f", arguments="{}").get_text() == "tool call name: f tool call arguments: {}"
    assert ToolResultContent(tool_call_id="1", output="o").get_text() == "tool result: o"
    assert TextContent(text="a", foo=1).model_dump() == {"type": ContentType.TEXT, "extra": {}, "text": "a", "foo": 1}


def test_messages_parse_dicts_and_round_trip_through_json() -> None:
    message = UnifiedMessage(role="user", content=[
        {"type": "text", "text": "hi"}, {"type": "reflection", "x": 1}, {"type": "reasoning", "reasoning": "r"},
        {"type": "tool_call", "id": "1", "name": "f", "arguments": "{}"},
    ])
    assert [type(b).__name__ for b in message.content] == ["TextContent", "GenericContent", "ReasoningContent",
                                                           "ToolCallContent"]
    assert UnifiedMessage.model_validate(message.model_dump()) == message
    assert UnifiedMessage.model_validate_json(message.model_dump_json()) == message
    assert message.get_text() == "hi r tool call name: f tool call arguments: {}"
    assert [b.reasoning for b in message.get_reasoning()] == ["r"] and message.get_citations() == []
    assert [c.name for c in message.get_tool_calls()] == ["f"]
    assert message.get_content_by_type("reflection")[0].x == 1
    response = UnifiedResponse(id="1", model="m", provider="p", messages=[message], status="weird")
    assert UnifiedResponse.model_validate_json(response.model_dump_json()) == response
    assert response.text == message.get_text() and [b.reasoning for b in response.reasoning] == ["r"]
    assert len(response.get_content_by_type("tool_call")) == 1 and not response.is_standard_status()
    assert UnifiedResponse(id="1", model="m", provider="p", messages=[], status="completed").is_standard_status()


def test_roles_are_normalised() -> None:
    assert normalize_role("User") is UserRoleEnum.USER and normalize_role(None) is UserRoleEnum.ASSISTANT
    assert normalize_role("") is UserRoleEnum.ASSISTANT and normalize_role("critic") == "critic"
    assert UnifiedMessage(role="tool", content=[]).is_standard_role()
    assert not UnifiedMessage(role="critic", content=[]).is_standard_role()


# ---------------------------------------------------------------- chat-completions client
def test_completions_client_returns_a_unified_response(scripted_server) -> None:
    scripted_server.add_reply(ScriptedReply(content="Hello there", usage={"prompt_tokens": 1000, "completion_tokens": 500}))
    client = completions(scripted_server)
    response = client.create({"model": "gpt-4o", "messages": [{"role": "user", "content": "hi you"}]})
    assert scripted_server.requests == [{"model": "gpt-4o", "messages": [{"role": "user", "content": "hi you"}]}]
    assert response.provider == "openai" and response.status == "completed" and response.finish_reason == "stop"
    assert response.id == "chatcmpl-scripted-1" and response.text == "Hello there"
    assert response.messages[0].role is UserRoleEnum.ASSISTANT
    assert response.usage == {"prompt_tokens": 1000, "completion_tokens": 500, "total_tokens": 1500}
    assert response.cost == pytest.approx(0.0075)  # gpt-4o: $2.50 / $10 per million tokens, as in 0.14
    assert client.cost(response) == response.cost
    assert client.get_usage(response) == {"prompt_tokens": 1000, "completion_tokens": 500, "total_tokens": 1500,
                                          "cost": response.cost, "model": "gpt-4o"}
    assert client.message_retrieval(response) == ["Hello there"]
    assert all(callable(getattr(client, name)) for name in ("create", "create_v1_compatible", "cost", "get_usage"))
    assert ModelClientV2.RESPONSE_USAGE_KEYS == list(client.get_usage(response))


def test_completions_prices_by_the_longest_model_prefix(scripted_server) -> None:
    client = completions(scripted_server)
    usage = {"prompt_tokens": 1000, "completion_tokens": 500}
    costs = {}
    for model in ("gpt-4o-mini", "gpt-5-nano", "some-local-model"):
        scripted_server.add_reply(ScriptedReply(content="ok", usage=usage))
        costs[model] = client.create({"model": model, "messages": [{"role": "user", "content": "x"}]}).cost
    assert costs["gpt-4o-mini"] == pytest.approx(0.00045)
    assert costs["gpt-5-nano"] == pytest.approx(0.00025)
    assert costs["some-local-model"] == pytest.approx(0.025)  # unknown models: GPT-4 Turbo's price, as in 0.14


def test_completions_tool_calls_and_reasoning(scripted_server) -> None:
    scripted_server.add_reply(ScriptedReply(
        content=None, reasoning="Paris is a city", tool_calls=[{"name": "get_weather", "arguments": {"city": "Paris"},
                                                                "id": "call_a"}],
    ))
    client = completions(scripted_server)
    response = client.create({"model": "gpt-4o", "messages": [{"role": "user", "content": "weather?"}],
                              "tools": [WEATHER_TOOL]})
    assert scripted_server.requests[0]["tools"] == [WEATHER_TOOL]
    assert response.finish_reason == "tool_calls"
    (reasoning,) = response.reasoning
    assert reasoning.reasoning == "Paris is a city"
    (call,) = response.messages[0].get_tool_calls()
    assert (call.id, call.name, json.loads(call.arguments)) == ("call_a", "get_weather", {"city": "Paris"})
    assert client.message_retrieval(response) == [{
        "role": "assistant", "content": None,
        "tool_calls": [{"id": "call_a", "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}],
    }]


def test_completions_reply_text_leaves_the_reasoning_out(scripted_server) -> None:
    scripted_server.add_reply(ScriptedReply(content="42", reasoning="six times seven"))
    client = completions(scripted_server)
    response = client.create({"model": "gpt-4o", "messages": [{"role": "user", "content": "6*7?"}]})
    assert response.text == "six times seven 42"  # every block's text, as UnifiedResponse.text gives it
    assert client.message_retrieval(response) == ["42"]
    scripted_server.add_reply("v1 text")
    legacy = client.create_v1_compatible({"model": "unknown-model", "messages": [{"role": "user", "content": "x"}]})
    assert legacy["object"] == "chat.completion" and legacy["model"] == "unknown-model"
    assert legacy["choices"] == [{"index": 0, "message": {"role": "assistant", "content": "v1 text"},
                                  "finish_reason": "stop"}]
    assert legacy["usage"] == {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}
    assert legacy["cost"] == pytest.approx(7e-05)


def test_completions_structured_output_is_parsed(scripted_server) -> None:
    class City(BaseModel):
        name: str
        population: int

    scripted_server.add_reply('{"name": "Paris", "population": 2100000}')
    client = completions(scripted_server)
    response = client.create({"model": "gpt-4o", "messages": [{"role": "user", "content": "Paris?"}],
                              "response_format": City})
    assert scripted_server.requests[0]["response_format"]["type"] == "json_schema"
    (parsed,) = response.get_content_by_type("parsed")
    assert parsed.parsed == {"name": "Paris", "population": 2100000}


def test_reasoning_models_get_the_settings_they_take(scripted_server) -> None:
    scripted_server.add_reply("ok")
    client = completions(scripted_server)
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}]
    with pytest.warns(UserWarning, match="`temperature` is not supported with o1-mini"):
        client.create({"model": "o1-mini", "messages": messages, "temperature": 0.3, "max_tokens": 50})
    sent = scripted_server.requests[0]
    assert "temperature" not in sent and "max_tokens" not in sent and sent["max_completion_tokens"] == 50
    assert sent["messages"][0] == {"role": "user", "content": "System message: Be brief."}
    assert messages[0]["role"] == "system"  # the caller's messages are not changed


def test_settings_the_sdk_does_not_take_travel_in_the_body(scripted_server) -> None:
    scripted_server.add_reply("ok")
    completions(scripted_server).create({"model": "local", "messages": [{"role": "user", "content": "x"}],
                                         "top_k": 5, "stream": True})
    assert scripted_server.requests[0]["top_k"] == 5 and "stream" not in scripted_server.requests[0]


def test_a_request_without_a_model_is_refused_before_sending(scripted_server) -> None:
    for client in (completions(scripted_server), OpenAIResponsesV2Client(api_key="k", base_url=scripted_server.base_url)):
        with pytest.raises(TypeError, match="no 'model' in the request; add it to the config_list entry"):
            client.create({"messages": [{"role": "user", "content": "hi"}]})
    assert scripted_server.requests == []


def test_completions_client_against_the_embedded_model(embedded_server) -> None:
    client = OpenAICompletionsClient(base_url=embedded_server.base_url)
    response = client.create({"model": MODEL_NAME, "messages": [{"role": "user", "content": "Say hello."}],
                              "temperature": 0, "max_tokens": 8})
    assert response.text.strip() and response.model == MODEL_NAME
    assert response.usage["completion_tokens"] > 0 and response.cost > 0


# ---------------------------------------------------------------- through OpenAIWrapper and agents
@pytest.mark.parametrize(("api_type", "client_class"), [("openai_v2", OpenAICompletionsClient),
                                                       ("responses_v2", OpenAIResponsesV2Client)])
def test_the_api_type_selects_the_v2_client(scripted_server, api_type: str, client_class: type) -> None:
    scripted_server.add_reply(ScriptedReply(content="Hello there", usage={"prompt_tokens": 1000, "completion_tokens": 500}))
    wrapper = autogen.OpenAIWrapper(config_list=[scripted_server.config_entry("gpt-5", api_type=api_type)],
                                    cache_seed=None)
    assert [type(c) for c in wrapper._clients] == [client_class]
    response = wrapper.create(messages=[{"role": "user", "content": "hi"}])
    assert isinstance(response, UnifiedResponse) and response.text == "Hello there"
    assert response.cost == pytest.approx(0.00625)  # gpt-5: $1.25 / $10 per million tokens in both tables
    assert wrapper.extract_text_or_completion_object(response) == ["Hello there"]
    assert response.config_id == 0 and response.pass_filter is True
    assert wrapper.total_usage_summary == {"total_cost": pytest.approx(0.00625), "gpt-5": {
        "cost": pytest.approx(0.00625), "prompt_tokens": 1000, "completion_tokens": 500, "total_tokens": 1500}}
    assert json.loads(response.model_dump_json())["id"] == response.id  # still plain, serialisable data


def test_v2_answers_are_cached(scripted_server, tmp_path) -> None:
    scripted_server.add_reply(ScriptedReply(content="cached", reasoning="once"))
    wrapper = autogen.OpenAIWrapper(config_list=[scripted_server.config_entry("gpt-5", api_type="responses_v2")])
    with autogen.Cache.disk(cache_seed=7, cache_path_root=str(tmp_path)) as cache:
        first = wrapper.create(messages=[{"role": "user", "content": "hi"}], cache=cache)
        again = wrapper.create(messages=[{"role": "user", "content": "hi"}], cache=cache)
    assert scripted_server.request_count == 1
    assert isinstance(again, UnifiedResponse) and again.text == first.text == "once cached"
    assert wrapper.extract_text_or_completion_object(again) == ["cached"]
    assert wrapper.actual_usage_summary["gpt-5"]["total_tokens"] * 2 == wrapper.total_usage_summary["gpt-5"]["total_tokens"]


def test_the_entry_price_is_used_for_v2_answers(scripted_server) -> None:
    scripted_server.add_reply(ScriptedReply(content="ok", usage={"prompt_tokens": 1000, "completion_tokens": 1000}))
    entry = scripted_server.config_entry("my-model", api_type="openai_v2", price=[0.001, 0.002])
    response = autogen.OpenAIWrapper(config_list=[entry], cache_seed=None).create(messages=[{"role": "user", "content": "x"}])
    assert response.cost == pytest.approx(0.003)


def test_wrapper_errors_of_v2_clients(scripted_server, dead_base_url) -> None:
    wrapper = autogen.OpenAIWrapper(config_list=[{"api_type": "openai_v2", "base_url": scripted_server.base_url,
                                                  "api_key": "k"}], cache_seed=None)
    with pytest.raises(TypeError, match="no 'model'"):
        wrapper.create(messages=[{"role": "user", "content": "hi"}])
    scripted_server.add_reply("from the second entry")
    failover = autogen.OpenAIWrapper(config_list=[
        {"api_type": "responses_v2", "model": "gpt-5", "base_url": dead_base_url, "api_key": "k", "max_retries": 0},
        scripted_server.config_entry("gpt-5", api_type="openai_v2"),
    ], cache_seed=None)
    response = failover.create(messages=[{"role": "user", "content": "hi"}])
    assert response.text == "from the second entry" and response.config_id == 1


def test_a_v2_client_serves_async_requests(scripted_server) -> None:
    scripted_server.add_reply("async hello")
    wrapper = autogen.OpenAIWrapper(config_list=[scripted_server.config_entry(api_type="openai_v2")], cache_seed=None)
    response = asyncio.run(wrapper.a_create(messages=[{"role": "user", "content": "hi"}]))
    assert response.text == "async hello"


def _add(a: int, b: int) -> int:
    return a + b


@pytest.mark.parametrize("api_type", ["openai_v2", "responses_v2"])
def test_agents_chat_with_tools_through_a_v2_client(scripted_server, api_type: str) -> None:
    scripted_server.add_replies(
        ScriptedReply(content=None, tool_calls=[{"name": "add", "arguments": {"a": 1, "b": 2}, "id": "call_a"}]),
        "The sum is 3. TERMINATE",
    )
    config = {"config_list": [scripted_server.config_entry("gpt-5", api_type=api_type)], "cache_seed": None}
    assistant = autogen.AssistantAgent("assistant", llm_config=config)
    user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False,
                                  is_termination_msg=lambda m: "TERMINATE" in (m.get("content") or ""))
    autogen.register_function(_add, caller=assistant, executor=user, name="add", description="Add two numbers.")
    result = user.initiate_chat(assistant, message="add 1 and 2", silent=True)
    assert [m.get("content") for m in result.chat_history] == ["add 1 and 2", None, "3", "The sum is 3. TERMINATE"]
    assert result.chat_history[1]["tool_calls"][0]["function"]["name"] == "add"
    assert result.cost["usage_including_cached_inference"]["gpt-5"]["completion_tokens"] > 0
    second = scripted_server.requests[1]
    if api_type == "responses_v2":  # the server keeps the conversation: only the tool's output is sent
        assert second["previous_response_id"] == "resp_scripted_1"
        assert second["input"] == [{"type": "function_call_output", "call_id": "call_a", "output": "3"}]
    else:
        assert second["messages"][-1] == {"tool_call_id": "call_a", "role": "tool", "content": "3"}


def test_a_typed_responses_entry_in_an_llm_config(scripted_server) -> None:
    scripted_server.add_reply("typed hello")
    entry = OpenAIResponsesV2LLMConfigEntry(model="gpt-5", base_url=scripted_server.base_url, api_key="sk-test")
    agent = autogen.ConversableAgent("a", llm_config=autogen.LLMConfig(entry, cache_seed=None), human_input_mode="NEVER")
    assert agent.generate_reply([{"role": "user", "content": "hi"}]) == "typed hello"
    assert "input" in scripted_server.requests[0] and "messages" not in scripted_server.requests[0]


def test_classic_073_code_keeps_its_chat_completions_client(scripted_server) -> None:
    scripted_server.add_reply("classic")
    config = {"config_list": [scripted_server.config_entry()], "cache_seed": None}
    agent = autogen.AssistantAgent("a", llm_config=config)
    assert type(agent.client._clients[0]).__name__ == "OpenAIClient"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert agent.generate_reply([{"role": "user", "content": "hi"}]) == "classic"


def test_the_clients_share_one_owner_for_what_they_have_in_common() -> None:
    """Construction, endpoint attributes, usage keys and the Responses request each have one owner."""
    from autogen_classic.llm_clients import models
    from autogen_classic.llm_clients.models import content_blocks, unified_message, unified_response
    from autogen_classic.llm_clients.openai_responses import OpenAIResponsesClient
    from autogen_classic.llm_clients.responses.conversation import ResponsesConversation
    from autogen_classic.llm_clients.unified_client import UnifiedResponseClient

    assert set(models.__all__) == {*content_blocks.__all__, *unified_message.__all__, *unified_response.__all__}
    assert all(getattr(models, name) is getattr(content_blocks, name) for name in content_blocks.__all__)
    assert OpenAICompletionsClient.get_usage is UnifiedResponseClient.get_usage
    assert OpenAICompletionsClient.__init__ is UnifiedResponseClient.__init__
    assert OpenAIResponsesClient.create is ResponsesConversation.create
    # V2 only declares 0.14.1's answer type and goes through the same create
    assert inspect.signature(OpenAIResponsesV2Client.create).return_annotation in ("UnifiedResponse", UnifiedResponse)
    assert inspect.getsource(OpenAIResponsesV2Client.create).rstrip().endswith("return super().create(params)  # type: ignore[no-any-return]")
    response = UnifiedResponse(id="r", model="m", provider="p", messages=[], usage={"prompt_tokens": 2, "total_tokens": 2}, cost=0.5)
    shared = OpenAICompletionsClient.get_usage(response)
    assert shared == {"prompt_tokens": 2, "completion_tokens": 0, "total_tokens": 2, "cost": 0.5, "model": "m"}
    assert OpenAIResponsesV2Client.get_usage(response) == {**shared, "token_cost": 0.0, "image_cost": 0.0}
    for client in (OpenAICompletionsClient(api_key="k", base_url="http://127.0.0.1:9/v1"),
                   OpenAIResponsesV2Client(api_key="k", base_url="http://127.0.0.1:9/v1"),
                   OpenAIResponsesClient({"api_key": "k", "base_url": "http://127.0.0.1:9/v1"})):
        assert (client.base_url, client.secrets) == ("http://127.0.0.1:9/v1/", ["k"])
        assert repr(client) == f"{type(client).__name__}(base_url='http://127.0.0.1:9/v1/')"
        assert client.RESPONSE_USAGE_KEYS == ["prompt_tokens", "completion_tokens", "total_tokens", "cost", "model"]
