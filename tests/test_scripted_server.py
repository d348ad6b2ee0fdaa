"""The scripted OpenAI server, driven end to end by the real ``openai`` SDK."""

from __future__ import annotations

import asyncio
import json
import threading
import urllib.error
import urllib.request
from typing import Any, Dict, List

import openai
import pytest

from autogen_classic.io.base import IOStream
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply

USER = [{"role": "user", "content": "What is one plus two?"}]


def client(server: ScriptedOpenAIServer, **kwargs: Any) -> openai.OpenAI:
    kwargs.setdefault("max_retries", 0)
    return openai.OpenAI(base_url=server.base_url, api_key="sk-scripted-test", **kwargs)


def chat(server: ScriptedOpenAIServer, **kwargs: Any) -> Any:
    return client(server).chat.completions.create(model="scripted-model", messages=USER, **kwargs)


# ----- plain replies and recording -------------------------------------------------------------------------------
def test_text_reply_and_response_shape(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply("It is three.")
    response = chat(scripted_server)
    assert response.id == "chatcmpl-scripted-1"
    assert response.object == "chat.completion"
    assert response.model == "scripted-model"
    assert isinstance(response.created, int)
    choice = response.choices[0]
    assert choice.message.role == "assistant"
    assert choice.message.content == "It is three."
    assert choice.message.tool_calls is None
    assert choice.finish_reason == "stop"
    # prompt: "What is one plus two?" = 5 words, completion: 3 words
    assert (response.usage.prompt_tokens, response.usage.completion_tokens, response.usage.total_tokens) == (5, 3, 8)


def test_requests_and_headers_are_recorded(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("first", "second")
    assert scripted_server.pending_replies == 2
    c = client(scripted_server)
    c.chat.completions.create(model="model-a", messages=USER, temperature=0.5)
    second = c.chat.completions.create(model="model-b", messages=[{"role": "system", "content": "x"}, *USER])
    assert second.choices[0].message.content == "second"
    assert second.model == "model-b"
    assert scripted_server.request_count == 2
    assert scripted_server.pending_replies == 0
    assert scripted_server.requests[0] == {"model": "model-a", "messages": USER, "temperature": 0.5}
    assert scripted_server.requests[1]["messages"][0] == {"role": "system", "content": "x"}
    assert scripted_server.request_headers[0]["authorization"] == "Bearer sk-scripted-test"
    assert scripted_server.request_headers[1]["content-type"] == "application/json"


def test_usage_override_and_finish_reason_override(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply(
        ScriptedReply(content="x", usage={"prompt_tokens": 10, "completion_tokens": 2}, finish_reason="length")
    )
    response = chat(scripted_server)
    assert (response.usage.prompt_tokens, response.usage.completion_tokens, response.usage.total_tokens) == (10, 2, 12)
    assert response.choices[0].finish_reason == "length"


def test_response_format_is_recorded_and_content_returned_as_given(scripted_server: ScriptedOpenAIServer) -> None:
    schema = {"type": "object", "properties": {"answer": {"type": "integer"}}, "required": ["answer"]}
    response_format = {"type": "json_schema", "json_schema": {"name": "Answer", "schema": schema, "strict": True}}
    scripted_server.add_reply('{"answer": 3}')
    response = chat(scripted_server, response_format=response_format)
    assert json.loads(response.choices[0].message.content) == {"answer": 3}
    assert scripted_server.requests[0]["response_format"] == response_format


# ----- tool calls ------------------------------------------------------------------------------------------------
def test_tool_calls_get_ids_and_json_arguments(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply(
        ScriptedReply(
            tool_calls=[
                {"name": "add", "arguments": {"a": 1, "b": 2}},
                {"name": "mul", "arguments": '{"a": 3}', "id": "call_custom"},
            ]
        )
    )
    tools = [{"type": "function", "function": {"name": "add", "parameters": {"type": "object", "properties": {}}}}]
    response = chat(scripted_server, tools=tools)
    message = response.choices[0].message
    assert response.choices[0].finish_reason == "tool_calls"
    assert message.content is None
    assert [(c.id, c.type, c.function.name) for c in message.tool_calls] == [
        ("call_1", "function", "add"),
        ("call_custom", "function", "mul"),
    ]
    assert json.loads(message.tool_calls[0].function.arguments) == {"a": 1, "b": 2}
    assert message.tool_calls[1].function.arguments == '{"a": 3}'
    assert scripted_server.requests[0]["tools"] == tools


def test_legacy_function_call(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply(ScriptedReply(function_call={"name": "add", "arguments": '{"a": 1}'}))
    response = chat(scripted_server, functions=[{"name": "add", "parameters": {"type": "object", "properties": {}}}])
    assert response.choices[0].finish_reason == "function_call"
    assert response.choices[0].message.function_call.name == "add"
    assert response.choices[0].message.function_call.arguments == '{"a": 1}'


# ----- streaming ---------------------------------------------------------------------------------------------------
def test_streaming_content_in_pieces_with_usage_chunk(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply("Streaming works nicely.")
    chunks = list(chat(scripted_server, stream=True, stream_options={"include_usage": True}))
    assert all(chunk.object == "chat.completion.chunk" for chunk in chunks)
    assert chunks[0].choices[0].delta.role == "assistant"
    pieces = [c.choices[0].delta.content for c in chunks[1:] if c.choices and c.choices[0].delta.content]
    assert len(pieces) > 1
    assert "".join(pieces) == "Streaming works nicely."
    assert chunks[-2].choices[0].finish_reason == "stop"
    assert chunks[-1].choices == []
    assert chunks[-1].usage.completion_tokens == 3
    assert scripted_server.requests[0]["stream"] is True


def test_streaming_without_usage_has_no_usage_chunk(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply("hi")
    chunks = list(chat(scripted_server, stream=True))
    assert all(chunk.choices and chunk.usage is None for chunk in chunks)
    assert chunks[-1].choices[0].finish_reason == "stop"


def test_streaming_tool_call_deltas(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply(ScriptedReply(tool_calls=[{"name": "add", "arguments": {"a": 10, "b": 20}}]))
    chunks = list(chat(scripted_server, stream=True))
    deltas = [c.choices[0].delta.tool_calls[0] for c in chunks if c.choices[0].delta.tool_calls]
    assert (deltas[0].index, deltas[0].id, deltas[0].function.name) == (0, "call_1", "add")
    assert len(deltas) > 2 and all(d.id is None and d.function.name is None for d in deltas[1:])
    assert json.loads("".join(d.function.arguments for d in deltas)) == {"a": 10, "b": 20}
    assert chunks[-1].choices[0].finish_reason == "tool_calls"


# ----- errors and odd responses -------------------------------------------------------------------------------------
def test_rate_limit_with_retry_after(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply(ScriptedReply(status=429, headers={"Retry-After": "0"}, error_message="slow down"))
    with pytest.raises(openai.RateLimitError) as info:
        chat(scripted_server)
    assert info.value.status_code == 429
    assert info.value.response.headers["retry-after"] == "0"
    assert info.value.body["message"] == "slow down"
    assert info.value.code == "rate_limit_exceeded"


def test_sdk_retries_after_rate_limit(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies(ScriptedReply(status=429, headers={"Retry-After": "0"}), "after retry")
    response = client(scripted_server, max_retries=1).chat.completions.create(model="scripted-model", messages=USER)
    assert response.choices[0].message.content == "after retry"
    assert scripted_server.request_count == 2


def test_server_error(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply(ScriptedReply(status=500))
    with pytest.raises(openai.InternalServerError) as info:
        chat(scripted_server)
    assert info.value.status_code == 500


def test_unscripted_request_gets_500(scripted_server: ScriptedOpenAIServer) -> None:
    with pytest.raises(openai.InternalServerError, match="no reply scripted for this request"):
        chat(scripted_server)
    assert scripted_server.request_count == 1


def test_malformed_body(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply(ScriptedReply(raw_body="{not json"))
    with pytest.raises(json.JSONDecodeError):
        chat(scripted_server)


def test_empty_choices(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply(ScriptedReply(empty_choices=True))
    response = chat(scripted_server)
    assert response.choices == []
    assert response.usage.total_tokens >= 2


def test_truncated_body_is_a_connection_error(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies(ScriptedReply(content="x " * 200, truncate=True), "fine again")
    with pytest.raises(openai.APIConnectionError):
        chat(scripted_server)
    assert chat(scripted_server).choices[0].message.content == "fine again"


def test_delay_is_applied_before_answering(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply(ScriptedReply(content="slow", delay=1.0))
    with pytest.raises(openai.APITimeoutError):
        client(scripted_server, timeout=0.1).chat.completions.create(model="scripted-model", messages=USER)
    scripted_server.add_reply(ScriptedReply(content="slow but fine", delay=0.05))
    assert chat(scripted_server).choices[0].message.content == "slow but fine"


# ----- responder, default reply, concurrency -----------------------------------------------------------------------
def test_responder_answers_by_prompt_and_falls_back_to_queue(scripted_server: ScriptedOpenAIServer) -> None:
    def responder(body: Dict[str, Any]) -> Any:
        prompt = body["messages"][-1]["content"]
        return ScriptedReply(content=prompt.upper()) if prompt.startswith("shout") else None

    scripted_server.set_responder(responder)
    scripted_server.add_reply("from the queue")
    c = client(scripted_server)
    loud = c.chat.completions.create(model="m", messages=[{"role": "user", "content": "shout this"}])
    quiet = c.chat.completions.create(model="m", messages=[{"role": "user", "content": "say this"}])
    assert loud.choices[0].message.content == "SHOUT THIS"
    assert quiet.choices[0].message.content == "from the queue"
    assert scripted_server.pending_replies == 0


def test_default_reply_answers_unscripted_requests() -> None:
    with ScriptedOpenAIServer(default_reply="TERMINATE") as server:
        server.add_reply("queued first")
        assert chat(server).choices[0].message.content == "queued first"
        assert chat(server).choices[0].message.content == "TERMINATE"
        assert chat(server).choices[0].message.content == "TERMINATE"


def test_concurrent_requests_each_get_one_distinct_reply(scripted_server: ScriptedOpenAIServer) -> None:
    count = 8
    # the small delay keeps several requests in flight at once
    scripted_server.add_replies(*[ScriptedReply(content=f"reply {i}", delay=0.05) for i in range(count)])
    results: List[str] = []
    errors: List[BaseException] = []

    def worker() -> None:
        try:
            results.append(chat(scripted_server).choices[0].message.content)
        except BaseException as exc:  # pragma: no cover - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert errors == []
    assert sorted(results) == sorted(f"reply {i}" for i in range(count))
    assert scripted_server.request_count == count and scripted_server.pending_replies == 0


def test_async_client(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("async one", "async two")

    async def main() -> List[str]:
        async with openai.AsyncOpenAI(base_url=scripted_server.base_url, api_key="sk-scripted-test", max_retries=0) as c:
            responses = await asyncio.gather(
                *(c.chat.completions.create(model="scripted-model", messages=USER) for _ in range(2))
            )
        return sorted(r.choices[0].message.content for r in responses)

    assert asyncio.run(main()) == ["async one", "async two"]


# ----- other endpoints, configuration, lifecycle --------------------------------------------------------------------
def test_models_endpoint_lists_configured_models(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.config_entry(model="listed-model")
    ids = [model.id for model in client(scripted_server).models.list()]
    assert "scripted-model" in ids and "listed-model" in ids


def test_unknown_path_is_404(scripted_server: ScriptedOpenAIServer) -> None:
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(scripted_server.base_url + "/nowhere", timeout=5)
    assert info.value.code == 404
    assert "nowhere" in json.loads(info.value.read())["error"]["message"]


def test_llm_config_and_config_entry(scripted_server: ScriptedOpenAIServer) -> None:
    entry = {"model": "scripted-model", "base_url": scripted_server.base_url, "api_key": "sk-scripted-test"}
    assert scripted_server.config_entry() == entry
    assert scripted_server.config_entry(model="m2", price=[0, 0]) == {**entry, "model": "m2", "price": [0, 0]}
    assert scripted_server.llm_config(temperature=0) == {"config_list": [entry], "cache_seed": None, "temperature": 0}
    assert scripted_server.base_url.startswith("http://127.0.0.1:") and scripted_server.base_url.endswith("/v1")


def test_reset_clears_queue_responder_and_records(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("a", "b")
    chat(scripted_server)
    scripted_server.set_responder(lambda body: "responder")
    scripted_server.reset()
    assert (scripted_server.request_count, scripted_server.pending_replies) == (0, 0)
    assert scripted_server.requests == [] and scripted_server.request_headers == []
    with pytest.raises(openai.InternalServerError):
        chat(scripted_server)


def test_bad_script_input_is_rejected(scripted_server: ScriptedOpenAIServer) -> None:
    with pytest.raises(TypeError, match="reply must be a str or ScriptedReply"):
        scripted_server.add_reply(42)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="status"):
        ScriptedReply(status=99)
    with pytest.raises(ValueError, match="delay"):
        ScriptedReply(delay=-1)
    with pytest.raises(ValueError, match="tool_calls"):
        ScriptedReply(tool_calls=[{"arguments": "{}"}])
    with pytest.raises(TypeError, match="fn must be a callable"):
        scripted_server.set_responder("nope")  # type: ignore[arg-type]


def test_stop_is_idempotent_and_releases_the_server() -> None:
    server = ScriptedOpenAIServer().start()
    base_url = server.base_url
    server.add_reply("ok")
    assert chat(server).choices[0].message.content == "ok"
    server.stop()
    server.stop()
    with pytest.raises(RuntimeError, match="not running"):
        server.base_url
    with pytest.raises(openai.APIConnectionError):
        openai.OpenAI(base_url=base_url, api_key="sk-scripted-test", max_retries=0).models.list()


def test_console_fixture_is_the_default_stream(console: ScriptedIOStream) -> None:
    assert IOStream.get_default() is console
    IOStream.get_default().print("hello", "there")
    assert console.output == "hello there\n"
