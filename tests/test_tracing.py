"""Tracing tools see every model request the agents make.

OpenTelemetry's OpenAI instrumentation (``opentelemetry-instrumentation-openai-v2``), Langfuse and
similar tools wrap the openai SDK's ``chat.completions.create``. Real chats run against the scripted
server with the instrumentation installed, and the spans are compared with the bodies the server
received: the request model, every message and the token usage. Plain ``(*args, **kwargs)``
wrappers of ``create``, on the class or on one client, must see ``messages=`` and ``tools=`` and
must not change which options are accepted.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

import openai
import pytest
from openai.resources.chat.completions import AsyncCompletions, Completions

from autogen_classic import AssistantAgent, GroupChat, GroupChatManager, UserProxyAgent
from autogen_classic.oai import OpenAIWrapper
from autogen_classic.oai.configuration.options import accepted_options
from autogen_classic.oai.endpoint.openai_client import OpenAIClient
from autogen_classic.oai.endpoint.sdk_parameters import create_parameters
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply

Mode = Literal["sync", "async", "stream"]
NAMES = ("ann", "ben", "cat")
ROUNDS = 4  # messages in the finished group chat: the opening and three replies
# The schema alice's ``add`` tool is sent with.
ADD_TOOL = {
    "type": "function",
    "function": {
        "description": "Add two numbers",
        "name": "add",
        "parameters": {
            "type": "object",
            "properties": {"a": {"type": "integer", "description": "a"}, "b": {"type": "integer", "description": "b"}},
            "required": ["a", "b"],
        },
    },
}


# ----------------------------------------------------------------- OpenTelemetry
@dataclass
class Telemetry:
    """What the OpenAI instrumentation exported: finished spans and log events."""

    spans: Any
    logs: Any

    def chat_spans(self) -> list[Any]:
        return [s for s in self.spans.get_finished_spans() if s.attributes.get("gen_ai.operation.name") == "chat"]

    def message_events(self) -> list[Any]:
        records = [data.log_record for data in self.logs.get_finished_logs()]
        return [r for r in records if r.event_name == "gen_ai.client.inference.operation.details"]


@pytest.fixture
def telemetry(monkeypatch: pytest.MonkeyPatch) -> Iterator[Telemetry]:
    """OpenAIInstrumentor on in-memory span and log exporters, recording message content; removed after."""
    pytest.importorskip("opentelemetry.sdk")
    openai_v2 = pytest.importorskip("opentelemetry.instrumentation.openai_v2")
    from opentelemetry.sdk._logs import LoggerProvider
    from opentelemetry.sdk._logs.export import InMemoryLogRecordExporter, SimpleLogRecordProcessor
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    # This release of the instrumentation takes span_only / event_only / span_and_event (it warns about
    # "true" and records no content); the setting is read when instrument() runs.
    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "span_and_event")
    originals = [inspect.getattr_static(cls, "create") for cls in (Completions, AsyncCompletions)]
    spans, logs = InMemorySpanExporter(), InMemoryLogRecordExporter()
    tracer_provider, logger_provider = TracerProvider(), LoggerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(spans))
    logger_provider.add_log_record_processor(SimpleLogRecordProcessor(logs))
    instrumentor = openai_v2.OpenAIInstrumentor()
    instrumentor.instrument(tracer_provider=tracer_provider, logger_provider=logger_provider)
    try:
        yield Telemetry(spans, logs)
    finally:
        instrumentor.uninstrument()
        tracer_provider.shutdown()
        logger_provider.shutdown()
    assert [inspect.getattr_static(cls, "create") for cls in (Completions, AsyncCompletions)] == originals


def as_traced(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The request's messages in the instrumentation's form (``gen_ai.input.messages``)."""
    traced = []
    for message in messages:
        role, content = message["role"], message.get("content")
        if role == "tool":
            parts = [{"type": "tool_call_response", "id": message["tool_call_id"], "response": content}]
        else:
            parts = [
                {"type": "tool_call", "id": call["id"], "name": call["function"]["name"],
                 "arguments": json.loads(call["function"]["arguments"])}
                for call in message.get("tool_calls") or []
            ]
            if isinstance(content, str):
                parts.append({"type": "text", "content": content})
        traced.append({"role": role, "parts": parts})
    return traced


def usage_for(body: dict[str, Any]) -> dict[str, int]:
    """The token usage the scripted model reports for a request (different for every request of a chat)."""
    return {"prompt_tokens": 100 + len(body["messages"]), "completion_tokens": 10 + len(body["messages"])}


def assert_spans_match_requests(
    telemetry: Telemetry, server: ScriptedOpenAIServer, client: OpenAIWrapper | None = None
) -> None:
    """One span per request, carrying the request's model, messages and token usage.

    With ``client`` (the only client of the chat): its own usage summary agrees with the spans.
    """
    spans, events = telemetry.chat_spans(), telemetry.message_events()
    assert len(spans) == len(events) == server.request_count > 0
    for span, event, body in zip(spans, events, server.requests):
        attributes = span.attributes
        assert attributes["gen_ai.request.model"] == body["model"]
        assert attributes["gen_ai.response.model"] == body["model"]
        assert json.loads(attributes["gen_ai.input.messages"]) == as_traced(body["messages"])
        assert json.loads(json.dumps(event.attributes["gen_ai.input.messages"])) == as_traced(body["messages"])
        usage = usage_for(body)
        assert attributes["gen_ai.usage.input_tokens"] == usage["prompt_tokens"]
        assert attributes["gen_ai.usage.output_tokens"] == usage["completion_tokens"]
    if client is not None:
        traced: dict[str, list[int]] = {}
        for span in spans:
            tokens = traced.setdefault(span.attributes["gen_ai.request.model"], [0, 0])
            tokens[0] += span.attributes["gen_ai.usage.input_tokens"]
            tokens[1] += span.attributes["gen_ai.usage.output_tokens"]
        counted = {
            model: [usage["prompt_tokens"], usage["completion_tokens"]]
            for model, usage in (client.actual_usage_summary or {}).items()
            if model != "total_cost"
        }
        assert traced == counted


# ----------------------------------------------------------------- chats
def tool_responder(body: dict[str, Any]) -> ScriptedReply:
    """alice calls the ``add`` tool, then answers with its result."""
    if body["messages"][-1]["role"] == "tool":
        return ScriptedReply(content="The sum is 5. TERMINATE", usage=usage_for(body))
    return ScriptedReply(tool_calls=[{"name": "add", "arguments": {"a": 2, "b": 3}, "id": "c1"}], usage=usage_for(body))


def tool_chat(server: ScriptedOpenAIServer, **llm: Any) -> tuple[UserProxyAgent, AssistantAgent]:
    """bob asks alice to add; alice calls the ``add`` tool, bob runs it, alice answers."""
    server.set_responder(tool_responder)
    alice = AssistantAgent("alice", llm_config=server.llm_config(**llm))
    bob = UserProxyAgent("bob", human_input_mode="NEVER", code_execution_config=False,
                         is_termination_msg=lambda m: "TERMINATE" in (m.get("content") or ""))

    @bob.register_for_execution()
    @alice.register_for_llm(description="Add two numbers")
    def add(a: int, b: int) -> int:
        return a + b

    return bob, alice


def run_two_agent(bob: UserProxyAgent, alice: AssistantAgent, mode: Mode) -> Any:
    if mode == "async":
        return asyncio.run(bob.a_initiate_chat(alice, message="Add 2 and 3.", silent=True))
    return bob.initiate_chat(alice, message="Add 2 and 3.", silent=True)


def group_responder(body: dict[str, Any]) -> ScriptedReply:
    """The selector names the agent after the last speaker; a speaker says which message it writes."""
    first = body["messages"][0]
    turn = [m for m in body["messages"] if m.get("role") != "system"]
    if first.get("role") == "system" and "role play game" in (first.get("content") or ""):
        return ScriptedReply(content=NAMES[(NAMES.index(turn[-1]["name"]) + 1) % len(NAMES)], usage=usage_for(body))
    return ScriptedReply(content=f"message {len(turn)}", usage=usage_for(body))


@pytest.mark.parametrize("mode", ["sync", "async", "stream"])
def test_two_agent_chat_is_traced_with_model_messages_and_usage(
    telemetry: Telemetry, scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream, mode: Mode
) -> None:
    bob, alice = tool_chat(scripted_server, temperature=0, **({"stream": True} if mode == "stream" else {}))
    result = run_two_agent(bob, alice, "async" if mode == "async" else "sync")
    assert result.summary == "The sum is 5. "
    assert scripted_server.request_count == 2
    assert all(body["tools"] == [ADD_TOOL] and body["temperature"] == 0 for body in scripted_server.requests)
    assert_spans_match_requests(telemetry, scripted_server, alice.client)
    second = json.loads(telemetry.chat_spans()[1].attributes["gen_ai.input.messages"])
    assert [m["role"] for m in second[-2:]] == ["assistant", "tool"]  # the tool call and its result were traced
    assert {s.attributes["gen_ai.request.temperature"] for s in telemetry.chat_spans()} == {0}


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_group_chat_with_auto_selection_is_traced(
    telemetry: Telemetry, scripted_server: ScriptedOpenAIServer, mode: Mode
) -> None:
    scripted_server.set_responder(group_responder)
    speakers = {"config_list": [scripted_server.config_entry("speaker-model")], "cache_seed": None}
    selector = {"config_list": [scripted_server.config_entry("selector-model")], "cache_seed": None}
    agents = [AssistantAgent(name, llm_config=speakers) for name in NAMES]
    groupchat = GroupChat(agents, messages=[], max_round=ROUNDS, speaker_selection_method="auto")
    manager = GroupChatManager(groupchat, llm_config=selector, silent=True)
    if mode == "async":
        asyncio.run(agents[0].a_initiate_chat(manager, message="message 0", silent=True))
    else:
        agents[0].initiate_chat(manager, message="message 0", silent=True)
    assert [(m["name"], m["content"]) for m in groupchat.messages] == [
        (NAMES[i % 3], f"message {i}") for i in range(ROUNDS)
    ]
    models = [body["model"] for body in scripted_server.requests]
    assert models.count("selector-model") == ROUNDS - 1 and models.count("speaker-model") == ROUNDS - 1
    assert_spans_match_requests(telemetry, scripted_server)


def test_options_are_checked_the_same_while_instrumented(
    telemetry: Telemetry, scripted_server: ScriptedOpenAIServer
) -> None:
    accepted_options.cache_clear()  # the option names are read under the instrumentation's wrapper
    create_parameters.cache_clear()
    try:
        with pytest.raises(ValueError) as info:
            OpenAIWrapper(**scripted_server.llm_config(temprature=0.5))
        OpenAIWrapper(**scripted_server.llm_config(temperature=0, top_k=3))
    finally:
        accepted_options.cache_clear()
        create_parameters.cache_clear()
    assert str(info.value).startswith("OpenAIWrapper: unknown option 'temprature' (did you mean 'temperature'?).")
    assert scripted_server.request_count == 0


# ----------------------------------------------------------------- plain wrappers of create
class Recorder:
    """A plain ``(*args, **kwargs)`` wrapper, as tracing tools install one: records each call's kwargs."""

    def __init__(self, target: Callable[..., Any], method: bool) -> None:
        self.target = target
        self.calls: list[dict[str, Any]] = []
        self.wrapper: Callable[..., Any]
        if method:  # installed on the class: receives self

            def wrapper(self_: Any, *args: Any, **kwargs: Any) -> Any:
                self.calls.append(kwargs)
                return self.target(self_, *args, **kwargs)

        else:

            def wrapper(*args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]
                self.calls.append(kwargs)
                return self.target(*args, **kwargs)

        self.wrapper = wrapper


@contextlib.contextmanager
def class_wrapper() -> Iterator[Recorder]:
    """A plain wrapper on ``Completions.create`` (the class), removed on exit; the SDK's names are read again."""
    original = inspect.getattr_static(Completions, "create")
    recorder = Recorder(original, method=True)
    Completions.create = recorder.wrapper  # type: ignore[method-assign]
    create_parameters.cache_clear()
    try:
        yield recorder
    finally:
        Completions.create = original  # type: ignore[method-assign]
        create_parameters.cache_clear()


def test_the_sdk_parameters_are_read_from_the_sdk_under_any_wrapper() -> None:
    create_parameters.cache_clear()
    unwrapped = create_parameters()
    assert {"messages", "tools", "model", "temperature", "response_format", "extra_body"} <= unwrapped
    assert "top_k" not in unwrapped and "self" not in unwrapped
    with class_wrapper():  # a wrapper hiding the SDK's function: the SDK's typed request body is read
        assert list(inspect.signature(Completions.create).parameters) == ["self_", "args", "kwargs"]
        assert create_parameters() == unwrapped
    original = inspect.getattr_static(Completions, "create")

    @functools.wraps(original)
    def traced(*args: Any, **kwargs: Any) -> Any:
        return original(*args, **kwargs)

    Completions.create = traced  # type: ignore[method-assign]
    create_parameters.cache_clear()
    try:  # a wrapper that leads back to the SDK's function: its signature is read
        assert create_parameters() == unwrapped
    finally:
        Completions.create = original  # type: ignore[method-assign]
        create_parameters.cache_clear()


def test_a_class_wrapper_sees_messages_and_tools_as_keyword_arguments(
    scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream
) -> None:
    bob, alice = tool_chat(scripted_server, temperature=0, top_k=7)
    with class_wrapper() as recorder:
        run_two_agent(bob, alice, "sync")
    assert len(recorder.calls) == scripted_server.request_count == 2
    for kwargs, body in zip(recorder.calls, scripted_server.requests):
        assert kwargs["messages"] == body["messages"] and kwargs["messages"][-1]["role"] in ("user", "tool")
        assert kwargs["tools"] == [ADD_TOOL] == body["tools"]
        assert (kwargs["model"], kwargs["temperature"], kwargs["stream"]) == ("scripted-model", 0, False)
        assert kwargs["extra_body"] == {"top_k": 7} and body["top_k"] == 7  # unknown to the SDK: extra_body


def test_a_plain_wrapper_on_one_client_installed_after_its_first_request_sees_the_next(
    scripted_server: ScriptedOpenAIServer,
) -> None:
    sdk = openai.OpenAI(api_key="sk-scripted-test", base_url=scripted_server.base_url, max_retries=0)
    client = OpenAIClient(sdk)
    scripted_server.add_replies("one", "two", "three")
    request = {"model": "scripted-model", "messages": [{"role": "user", "content": "hi"}], "temperature": 0}
    client.create(request)
    recorder = Recorder(sdk.chat.completions.create, method=False)
    sdk.chat.completions.create = recorder.wrapper  # type: ignore[method-assign]
    assert client.message_retrieval(client.create({**request, "tools": [ADD_TOOL]})) == ["two"]
    client.create({**request, "stream": True})
    assert [(c["messages"], c.get("tools"), c["temperature"]) for c in recorder.calls] == [
        (request["messages"], [ADD_TOOL], 0), (request["messages"], None, 0)
    ]


# ----------------------------------------------------------------- the sdk_fast_path opt-in
@pytest.mark.parametrize("stream", [False, True])
def test_sdk_fast_path_sends_the_same_body_past_the_wrappers(
    scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream, stream: bool
) -> None:
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "name": "ann", "content": "Add 1 and 2."}]
    default = OpenAIWrapper(**scripted_server.llm_config(temperature=0, top_k=2))
    fast = OpenAIWrapper(**scripted_server.llm_config(temperature=0, top_k=2, sdk_fast_path=True))
    scripted_server.add_replies("3", "3", "3", "3")
    with class_wrapper() as recorder:
        for wrapper in (default, fast):
            wrapper.create(messages=messages, tools=[ADD_TOOL], stream=stream)
            asyncio.run(wrapper.a_create(messages=messages, tools=[ADD_TOOL], stream=stream))
    sync_default, async_default, sync_fast, async_fast = scripted_server.requests
    assert sync_default == async_default == sync_fast == async_fast
    assert (sync_fast["messages"], sync_fast["tools"], sync_fast["top_k"]) == (messages, [ADD_TOOL], 2)
    assert "sdk_fast_path" not in sync_fast
    # The class wrapper sees the sync requests: the default one whole; the fast one not at all (it is the
    # client's post of the same body) or, streamed, without messages or tools (they travel in extra_body).
    seen_default, *seen_fast = recorder.calls
    assert (seen_default["messages"], seen_default["tools"]) == (messages, [ADD_TOOL])
    if not stream:
        assert seen_fast == []
        return
    (seen,) = seen_fast
    assert seen["messages"] == [] and "tools" not in seen
    assert seen["extra_body"] == {"messages": messages, "tools": [ADD_TOOL], "top_k": 2}


def test_sdk_fast_path_takes_true_or_false_only(scripted_server: ScriptedOpenAIServer) -> None:
    with pytest.raises(ValueError, match=r"'sdk_fast_path' must be True or False, got str 'yes'"):
        OpenAIWrapper(**scripted_server.llm_config(sdk_fast_path="yes"))
    assert OpenAIWrapper(**scripted_server.llm_config(sdk_fast_path=False))._clients[0].sdk_fast_path is False


# ----------------------------------------------------------------- options under a class wrapper
def test_options_are_accepted_and_refused_the_same_under_a_class_wrapper(
    scripted_server: ScriptedOpenAIServer,
) -> None:
    scripted_server.add_reply("fine")
    accepted_options.cache_clear()  # the option names are read under the wrapper
    try:
        with class_wrapper() as recorder:
            agent = AssistantAgent("alice", llm_config=scripted_server.llm_config(temperature=0))
            assert agent.generate_reply([{"role": "user", "content": "hi"}]) == "fine"
            assert recorder.calls[0]["temperature"] == 0
            with pytest.raises(ValueError) as info:
                OpenAIWrapper(**scripted_server.llm_config(temprature=0.5))
    finally:
        accepted_options.cache_clear()
    assert str(info.value).startswith("OpenAIWrapper: unknown option 'temprature' (did you mean 'temperature'?).")
