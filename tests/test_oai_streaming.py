"""stream=True: tokens go to the console stream as they arrive; the full completion comes back."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from autogen_classic.io.base import IOStream
from autogen_classic.oai import OpenAIWrapper
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply

USER = [{"role": "user", "content": "tell me a story"}]
STORY = "Once upon a time, a small robot learned to stream."


class RecordingStream(ScriptedIOStream):
    """Also records, for each printed piece, how many requests the server had answered by then."""

    def __init__(self, server: ScriptedOpenAIServer) -> None:
        super().__init__()
        self.server = server
        self.pieces: list[str] = []

    def print(self, *objects: Any, sep: str = " ", end: str = "\n", flush: bool = False) -> None:
        super().print(*objects, sep=sep, end=end, flush=flush)
        self.pieces.append(sep.join(str(o) for o in objects) + end)


def test_stream_prints_pieces_and_returns_full_completion(
    scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream
) -> None:
    client = OpenAIWrapper(**scripted_server.llm_config(stream=True))
    scripted_server.add_reply(ScriptedReply(content=STORY, usage={"prompt_tokens": 4, "completion_tokens": 11}))
    response = client.create(messages=USER)
    assert console.output == STORY + "\n"
    assert client.extract_text_or_completion_object(response) == [STORY]
    assert response.choices[0].finish_reason == "stop"
    assert (response.usage.prompt_tokens, response.usage.completion_tokens, response.usage.total_tokens) == (4, 11, 15)
    body = scripted_server.requests[0]
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}


def test_stream_arrives_in_several_pieces(scripted_server: ScriptedOpenAIServer) -> None:
    stream = RecordingStream(scripted_server)
    client = OpenAIWrapper(**scripted_server.llm_config())
    scripted_server.add_reply(STORY)
    with IOStream.set_default(stream):
        client.create(messages=USER, stream=True)
    texts = [p for p in stream.pieces if p.strip()]
    assert len(texts) > 5  # one print per streamed piece, not one print at the end
    assert "".join(stream.pieces).replace("\x1b[32m", "").replace("\x1b[0m", "") == STORY + "\n"


def test_stream_tool_calls_are_assembled(scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream) -> None:
    client = OpenAIWrapper(**scripted_server.llm_config())
    calls = [
        {"name": "add", "arguments": {"a": 12345, "b": 67890}},
        {"name": "mul", "arguments": {"a": 3, "b": 4}, "id": "call_x"},
    ]
    scripted_server.add_reply(ScriptedReply(tool_calls=calls))
    response = client.create(messages=USER, stream=True, tools=[{"type": "function", "function": {"name": "add"}}])
    (message,) = client.extract_text_or_completion_object(response)
    assert [c.function.name for c in message.tool_calls] == ["add", "mul"]
    assert [json.loads(c.function.arguments) for c in message.tool_calls] == [
        {"a": 12345, "b": 67890},
        {"a": 3, "b": 4},
    ]
    assert [c.id for c in message.tool_calls] == ["call_1", "call_x"]
    assert response.choices[0].finish_reason == "tool_calls"
    assert console.output == ""  # arguments are not echoed


def test_stream_legacy_function_call(scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream) -> None:
    client = OpenAIWrapper(**scripted_server.llm_config())
    scripted_server.add_reply(ScriptedReply(function_call={"name": "lookup", "arguments": '{"q": "weather today"}'}))
    (message,) = client.extract_text_or_completion_object(client.create(messages=USER, stream=True))
    assert message.function_call.name == "lookup"
    assert json.loads(message.function_call.arguments) == {"q": "weather today"}


def test_stream_without_usage_chunk_estimates_usage(
    scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream
) -> None:
    client = OpenAIWrapper(**scripted_server.llm_config())
    scripted_server.add_reply(STORY)
    response = client.create(messages=USER, stream=True, stream_options=None)
    assert "stream_options" not in scripted_server.requests[0]
    assert response.usage.completion_tokens > 0 and response.usage.prompt_tokens > 0
    assert response.usage.total_tokens == response.usage.prompt_tokens + response.usage.completion_tokens


def test_async_stream(scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream) -> None:
    client = OpenAIWrapper(**scripted_server.llm_config())
    scripted_server.add_reply(STORY)
    response = asyncio.run(client.a_create(messages=USER, stream=True))
    assert console.output == STORY + "\n"
    assert client.extract_text_or_completion_object(response) == [STORY]


def test_cut_stream_fails_over_after_partial_output(
    scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream
) -> None:
    entries = [scripted_server.config_entry(model="m1", max_retries=0), scripted_server.config_entry(model="m2")]
    client = OpenAIWrapper(config_list=entries, cache_seed=None)
    scripted_server.add_replies(ScriptedReply(content=STORY, truncate=True), "second try")
    response = client.create(messages=USER, stream=True)
    assert client.extract_text_or_completion_object(response) == ["second try"]
    lines = console.output.splitlines()
    assert lines[-1] == "second try"
    # The cut attempt ended its line with a marker, so partial text is not mistaken for a reply.
    assert lines[0].endswith(" [stream interrupted]")
    text = lines[0].removesuffix(" [stream interrupted]")
    assert text and STORY.startswith(text) and text != STORY


def test_stream_is_counted_in_usage(scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream) -> None:
    client = OpenAIWrapper(**scripted_server.llm_config())
    scripted_server.add_reply(ScriptedReply(content="short", usage={"prompt_tokens": 5, "completion_tokens": 1}))
    client.create(messages=USER, stream=True)
    summary: dict[str, Any] = client.actual_usage_summary  # type: ignore[assignment]
    assert summary["scripted-model"]["total_tokens"] == 6
