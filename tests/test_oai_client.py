"""OpenAIWrapper against the scripted server: requests, tools, response formats, custom clients."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any

import pytest
from openai.types.chat import ChatCompletion, ChatCompletionMessage
from pydantic import BaseModel

from autogen_classic.oai import OpenAIWrapper
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply

USER = [{"role": "user", "content": "What is 2 + 2?"}]
ADD_TOOL = {
    "type": "function",
    "function": {
        "name": "add",
        "description": "Add two numbers",
        "parameters": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}},
    },
}


def test_create_returns_completion_with_classic_attributes(scripted_server: ScriptedOpenAIServer) -> None:
    client = OpenAIWrapper(**scripted_server.llm_config(temperature=0, max_tokens=50))
    scripted_server.add_reply("4")
    response = client.create(messages=USER)
    assert isinstance(response, ChatCompletion)
    assert response.choices[0].message.content == "4"
    assert (response.config_id, response.pass_filter, response.cost) == (0, True, 0)
    assert client.extract_text_or_completion_object(response) == ["4"]
    dumped = response.model_dump(mode="json")  # still serialisable, with the classic extras
    assert (dumped["cost"], dumped["config_id"], dumped["pass_filter"]) == (0, 0, True)
    assert "message_retrieval_function" not in dumped
    assert OpenAIWrapper.extract_text_or_completion_object(response) == ["4"]
    assert scripted_server.requests == [
        {"model": "scripted-model", "messages": USER, "temperature": 0, "max_tokens": 50, "stream": False}
    ]
    # the key goes in the header, never in the body
    assert scripted_server.request_headers[0]["authorization"] == "Bearer sk-scripted-test"


def test_request_settings_pass_through_and_config_wins_over_create_kwargs(
    scripted_server: ScriptedOpenAIServer,
) -> None:
    config = scripted_server.llm_config(temperature=0.2, seed=7)
    config["config_list"][0]["top_p"] = 0.5
    client = OpenAIWrapper(**config)
    scripted_server.add_reply("ok")
    client.create(messages=USER, temperature=1.0, presence_penalty=0.3, user="u1", top_k=40, repetition_penalty=1.1)
    body = scripted_server.requests[0]
    assert (body["temperature"], body["top_p"], body["seed"]) == (0.2, 0.5, 7)
    assert (body["presence_penalty"], body["user"]) == (0.3, "u1")
    # settings the SDK has no argument for still reach OpenAI-compatible servers
    assert (body["top_k"], body["repetition_penalty"]) == (40, 1.1)
    for wrapper_only in ("cache_seed", "api_key", "base_url", "price", "tags", "agent", "cache"):
        assert wrapper_only not in body


@pytest.mark.parametrize("stream", [False, True])
def test_messages_and_tools_reach_the_server_as_given(scripted_server: ScriptedOpenAIServer, stream: bool) -> None:
    # They skip the SDK's typed walk (sent through extra_body) and must arrive unchanged, once.
    messages = [{"role": "system", "content": "Be brief."},
                {"role": "user", "name": "ann", "content": [{"type": "text", "text": "Add 1 and 2."}]}]
    tools = [{"type": "function", "function": {"name": "add", "parameters": {"type": "object", "properties": {}}}}]
    client = OpenAIWrapper(**scripted_server.llm_config())
    scripted_server.add_replies("3", "3")
    client.create(messages=messages, tools=tools, stream=stream, extra_body={"top_k": 5})
    raw = scripted_server.requests[0]
    assert (raw["messages"], raw["tools"], raw["top_k"], raw["stream"]) == (messages, tools, 5, stream)
    asyncio.run(client.a_create(messages=messages, functions=[tools[0]["function"]], cache_seed=None))
    assert scripted_server.requests[1]["functions"] == [tools[0]["function"]]
    assert scripted_server.requests[1]["messages"] == messages


def _completion_body(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": "chatcmpl-7", "object": "chat.completion", "created": 1700000000, "model": "scripted-model",
        "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None,
                     "message": {"role": "assistant", "content": "seven", "refusal": None}}],
        "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}, "vendor_field": {"k": 1},
    }
    body.update(overrides)
    return body


@pytest.mark.parametrize("asynchronous", [False, True])
def test_completion_read_fast_equals_the_sdks_own_parse(scripted_server: ScriptedOpenAIServer, asynchronous: bool) -> None:
    # The body is read by pydantic's validator; the object must be the one the SDK itself would build,
    # extra vendor fields and the request id included.
    body = _completion_body()
    scripted_server.add_reply(ScriptedReply(raw_body=json.dumps(body), headers={"x-request-id": "req_42"}))
    client = OpenAIWrapper(**scripted_server.llm_config())
    response = asyncio.run(client.a_create(messages=USER)) if asynchronous else client.create(messages=USER)
    expected = ChatCompletion.construct(**body)
    for model in (response, expected):
        for extra in ("cost", "config_id", "pass_filter", "message_retrieval_function"):
            model.__dict__.pop(extra, None)
            (model.__pydantic_extra__ or {}).pop(extra, None)
    assert response.model_dump(exclude_unset=True) == expected.model_dump(exclude_unset=True)
    assert response.vendor_field == {"k": 1}
    assert response._request_id == "req_42"


@pytest.mark.parametrize("asynchronous", [False, True])
def test_completion_the_validator_refuses_is_still_accepted_as_before(
    scripted_server: ScriptedOpenAIServer, asynchronous: bool
) -> None:
    # Some servers send a finish reason outside the OpenAI list and leave out "created": the SDK's
    # lenient reading takes over, so such answers keep working.
    body = _completion_body()
    del body["created"]
    body["choices"][0]["finish_reason"] = "eos_token"
    scripted_server.add_reply(ScriptedReply(raw_body=json.dumps(body)))
    client = OpenAIWrapper(**scripted_server.llm_config())
    response = asyncio.run(client.a_create(messages=USER)) if asynchronous else client.create(messages=USER)
    assert client.extract_text_or_completion_object(response) == ["seven"]
    assert response.choices[0].finish_reason == "eos_token"
    assert response.usage.total_tokens == 4


def test_wrapper_built_from_base_config_only(scripted_server: ScriptedOpenAIServer) -> None:
    client = OpenAIWrapper(
        model="scripted-model", base_url=scripted_server.base_url, api_key="sk-scripted-test", cache_seed=None
    )
    scripted_server.add_reply("hi")
    assert client.extract_text_or_completion_object(client.create(messages=USER)) == ["hi"]


def test_tool_calls_come_back_as_message_objects(scripted_server: ScriptedOpenAIServer) -> None:
    client = OpenAIWrapper(**scripted_server.llm_config(tools=[ADD_TOOL]))
    scripted_server.add_reply(ScriptedReply(tool_calls=[{"name": "add", "arguments": {"a": 2, "b": 2}}]))
    response = client.create(messages=USER, tool_choice="auto")
    (message,) = client.extract_text_or_completion_object(response)
    assert isinstance(message, ChatCompletionMessage)
    assert message.tool_calls[0].id == "call_1"
    assert message.tool_calls[0].function.name == "add"
    assert json.loads(message.tool_calls[0].function.arguments) == {"a": 2, "b": 2}
    assert scripted_server.requests[0]["tools"] == [ADD_TOOL]
    assert scripted_server.requests[0]["tool_choice"] == "auto"


def test_legacy_function_call(scripted_server: ScriptedOpenAIServer) -> None:
    functions = [{"name": "add", "parameters": {"type": "object", "properties": {}}}]
    client = OpenAIWrapper(**scripted_server.llm_config(functions=functions))
    scripted_server.add_reply(ScriptedReply(function_call={"name": "add", "arguments": '{"a": 1}'}))
    (message,) = client.extract_text_or_completion_object(client.create(messages=USER))
    assert message.function_call.name == "add" and message.function_call.arguments == '{"a": 1}'
    assert scripted_server.requests[0]["functions"] == functions


def test_response_format_json_object(scripted_server: ScriptedOpenAIServer) -> None:
    client = OpenAIWrapper(**scripted_server.llm_config())
    scripted_server.add_reply('{"answer": 4}')
    response = client.create(messages=USER, response_format={"type": "json_object"})
    assert json.loads(client.extract_text_or_completion_object(response)[0]) == {"answer": 4}
    assert scripted_server.requests[0]["response_format"] == {"type": "json_object"}


class Answer(BaseModel):
    value: int
    unit: str


class FormattedAnswer(Answer):
    def format(self) -> str:
        return f"{self.value} {self.unit}"


def test_response_format_pydantic_class_sends_strict_json_schema(scripted_server: ScriptedOpenAIServer) -> None:
    client = OpenAIWrapper(**scripted_server.llm_config(response_format=Answer))
    scripted_server.add_reply('{"value": 4, "unit": "apples"}')
    response = client.create(messages=USER)
    sent = scripted_server.requests[0]["response_format"]
    assert sent["type"] == "json_schema"
    assert sent["json_schema"]["name"] == "Answer" and sent["json_schema"]["strict"] is True
    assert set(sent["json_schema"]["schema"]["properties"]) == {"value", "unit"}
    assert "stream" not in scripted_server.requests[0]  # as AG2 Classic 0.14's structured requests
    assert client.extract_text_or_completion_object(response) == ['{"value": 4, "unit": "apples"}']


def test_response_format_with_format_method_is_shown_formatted(scripted_server: ScriptedOpenAIServer) -> None:
    client = OpenAIWrapper(**scripted_server.llm_config())
    scripted_server.add_reply('{"value": 4, "unit": "apples"}')
    response = client.create(messages=USER, response_format=FormattedAnswer)
    assert client.extract_text_or_completion_object(response) == ["4 apples"]


def test_response_format_json_schema_dict(scripted_server: ScriptedOpenAIServer) -> None:
    schema = {"type": "json_schema", "json_schema": {"name": "n", "schema": {"type": "object"}, "strict": True}}
    client = OpenAIWrapper(**scripted_server.llm_config(response_format=schema))
    scripted_server.add_reply("{}")
    client.create(messages=USER)
    assert scripted_server.requests[0]["response_format"] == schema


def test_context_templates(scripted_server: ScriptedOpenAIServer) -> None:
    client = OpenAIWrapper(**scripted_server.llm_config())
    scripted_server.add_replies("a", "b", "c")
    client.create(messages=[{"role": "user", "content": "Say {word}"}], context={"word": "hi"})
    client.create(
        messages=[{"role": "user", "content": "Say {word}"}], context={"word": "hi"}, allow_format_str_template=True
    )
    client.create(messages=[{"role": "user", "content": lambda ctx: f"Say {ctx['word']}!"}], context={"word": "yo"})
    contents = [r["messages"][0]["content"] for r in scripted_server.requests]
    assert contents == ["Say {word}", "Say hi", "Say yo!"]
    assert OpenAIWrapper.instantiate("x {a}", {"a": 1}, True) == "x 1"


def test_filter_func_moves_to_next_entry_and_last_answer_is_kept(scripted_server: ScriptedOpenAIServer) -> None:
    entries = [scripted_server.config_entry(model="m1"), scripted_server.config_entry(model="m2")]
    client = OpenAIWrapper(config_list=entries, cache_seed=None)

    def yes_or_no(context: dict[str, Any], response: Any) -> bool:
        return client.extract_text_or_completion_object(response)[0] in ("Yes.", "No.")

    scripted_server.add_replies("Maybe.", "Yes.")
    response = client.create(messages=USER, filter_func=yes_or_no)
    assert client.extract_text_or_completion_object(response) == ["Yes."]
    assert (response.config_id, response.pass_filter) == (1, True)
    assert [r["model"] for r in scripted_server.requests] == ["m1", "m2"]
    scripted_server.add_replies("Maybe.", "Perhaps.")
    response = client.create(messages=USER, filter_func=yes_or_no)
    assert client.extract_text_or_completion_object(response) == ["Perhaps."]
    assert (response.config_id, response.pass_filter) == (1, False)


def test_create_argument_errors(scripted_server: ScriptedOpenAIServer) -> None:
    client = OpenAIWrapper(**scripted_server.llm_config())
    with pytest.raises(ValueError, match="'messages' is required"):
        client.create()
    with pytest.raises(ValueError, match="'prompt' .* is not supported"):
        client.create(prompt="hi")
    with pytest.raises(TypeError, match="cache must be a Cache"):
        client.create(messages=USER, cache="yes")
    assert scripted_server.request_count == 0


def test_a_create_is_really_async(scripted_server: ScriptedOpenAIServer) -> None:
    client = OpenAIWrapper(**scripted_server.llm_config())
    seen: list[str] = []

    def responder(body: dict[str, Any]) -> str:
        seen.append(body["messages"][0]["content"])
        return "re: " + body["messages"][0]["content"]

    scripted_server.set_responder(responder)

    async def main() -> list[Any]:
        calls = [client.a_create(messages=[{"role": "user", "content": f"q{i}"}]) for i in range(3)]
        return await asyncio.gather(*calls)

    responses = asyncio.run(main())
    assert [client.extract_text_or_completion_object(r)[0] for r in responses] == ["re: q0", "re: q1", "re: q2"]
    assert sorted(seen) == ["q0", "q1", "q2"]
    # a second event loop gets its own connection pool
    assert client.extract_text_or_completion_object(asyncio.run(client.a_create(messages=USER)))[0].startswith("re:")


# ----------------------------------------------------------------------------- custom model clients
class EchoClient:
    """A ModelClient that answers locally by echoing the last message."""

    def __init__(self, config: dict[str, Any], prefix: str = "echo") -> None:
        self.model = config["model"]
        self.prefix = prefix
        self.calls: list[dict[str, Any]] = []

    def create(self, params: dict[str, Any]) -> SimpleNamespace:
        self.calls.append(params)
        if params["messages"][-1]["content"] == "fail":
            raise ConnectionError("echo backend down")
        text = f"{self.prefix}: {params['messages'][-1]['content']}"
        message = SimpleNamespace(content=text, tool_calls=None, function_call=None)
        usage = SimpleNamespace(prompt_tokens=3, completion_tokens=2, total_tokens=5)
        return SimpleNamespace(choices=[SimpleNamespace(message=message)], model=self.model, usage=usage)

    def message_retrieval(self, response: SimpleNamespace) -> list[str]:
        return [choice.message.content for choice in response.choices]

    def cost(self, response: SimpleNamespace) -> float:
        return 0.25

    @staticmethod
    def get_usage(response: SimpleNamespace) -> dict[str, Any]:
        return {
            "prompt_tokens": 3,
            "completion_tokens": 2,
            "total_tokens": 5,
            "cost": response.cost,
            "model": response.model,
        }


def test_custom_model_client_must_be_registered() -> None:
    client = OpenAIWrapper(config_list=[{"model": "local-echo", "model_client_cls": "EchoClient"}], cache_seed=None)
    with pytest.raises(RuntimeError, match=r"Model client\(s\) \['EchoClient'\] are not activated"):
        client.create(messages=USER)
    with pytest.raises(ValueError, match='"model_client_cls": "Answer"'):
        client.register_model_client(Answer)
    client.register_model_client(EchoClient, prefix="bot")
    response = client.create(messages=USER)
    assert client.extract_text_or_completion_object(response) == ["bot: What is 2 + 2?"]
    assert response.cost == 0.25 and response.config_id == 0
    assert client.total_usage_summary == {
        "total_cost": 0.25,
        "local-echo": {"cost": 0.25, "prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5},
    }
    assert asyncio.run(client.a_create(messages=USER)).cost == 0.25  # sync create in a worker thread


def test_custom_client_failure_fails_over_to_openai_entry(scripted_server: ScriptedOpenAIServer) -> None:
    client = OpenAIWrapper(
        config_list=[{"model": "local-echo", "model_client_cls": "EchoClient"}, scripted_server.config_entry()],
        cache_seed=None,
    )
    client.register_model_client(EchoClient)
    scripted_server.add_reply("from the server")
    response = client.create(messages=[{"role": "user", "content": "fail"}])
    assert client.extract_text_or_completion_object(response) == ["from the server"]
    assert response.config_id == 1


def test_azure_entry_calls_the_deployment_route(scripted_server: ScriptedOpenAIServer) -> None:
    root = scripted_server.base_url[: -len("/v1")]
    entry = {
        "model": "gpt-3.5-turbo",
        "api_type": "azure",
        "base_url": root,
        "api_key": "az-SECRET-123456",
        "api_version": "2024-02-01",
        "max_retries": 0,
    }
    client = OpenAIWrapper(config_list=[entry], cache_seed=None)
    with pytest.raises(Exception) as info:  # the scripted server only speaks the OpenAI route
        client.create(messages=USER)
    message = str(info.value)
    assert f"gpt-3.5-turbo at {root} (azure): HTTP 404" in message
    # dots are dropped from the deployment name and the api version is sent, as Azure expects
    assert "/openai/deployments/gpt-35-turbo/chat/completions?api-version=2024-02-01" in message
    assert "az-SECRET-123456" not in message


def test_model_client_usage_keys() -> None:
    from autogen_classic.oai import ModelClient

    assert ModelClient.RESPONSE_USAGE_KEYS == ["prompt_tokens", "completion_tokens", "total_tokens", "cost", "model"]


class AsyncEchoClient(EchoClient):
    """Adds a native async create; the wrapper must await it rather than use a thread."""

    async def a_create(self, params: dict[str, Any]) -> SimpleNamespace:
        await asyncio.sleep(0)
        response = self.create(params)
        response.choices[0].message.content += " (async)"
        return response


def test_custom_client_native_a_create() -> None:
    client = OpenAIWrapper(
        config_list=[{"model": "local-echo", "model_client_cls": "AsyncEchoClient"}], cache_seed=None
    )
    client.register_model_client(AsyncEchoClient)
    response = asyncio.run(client.a_create(messages=USER))
    assert client.extract_text_or_completion_object(response) == ["echo: What is 2 + 2? (async)"]
