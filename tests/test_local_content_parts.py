"""OpenAI content parts on the embedded SmolLM2 server: the real llama.cpp process, talked to with the openai client.

A message's ``content`` may be a list of parts (``[{"type": "text", "text": "..."}, ...]``) in any role. The
server shows the model the parts' texts one per line, and an image as ``<image>`` (the model reads text only),
so a request with parts must make a prompt of as many tokens as the same request with that text as a plain
string (the answers themselves may differ in a late token: llama.cpp evaluates a prompt it has cached in
other batches, with other rounding). Streamed answers carry no usage; they are checked to arrive.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import openai
import pytest

from autogen_classic import AssistantAgent, UserProxyAgent, local
from autogen_classic.agentchat.contrib.capabilities import transform_messages, transforms
from autogen_classic.code_utils import content_str
from autogen_classic.local import chat_request

ORDER_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "get_order_status",
        "description": "Look up where an order is.",
        "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]},
    },
}
IMAGE = {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}


def text_parts(*texts: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": text} for text in texts]


ROLES = ("system", "user", "assistant", "tool")


def conversation(*parted: str) -> list[dict[str, Any]]:
    """A conversation with a tool call and its result, in which the messages of the roles ``parted`` have
    content parts (the tool's result for ``"tool"``); the others have the same text as a string."""

    def content(role: str, *texts: str) -> Any:
        return text_parts(*texts) if role in parted else "\n".join(texts)

    call = {"name": "get_order_status", "arguments": json.dumps({"order_id": "48213"})}
    return [
        {"role": "system", "content": content("system", "You are the front desk of a shop.", "Answer briefly.")},
        {"role": "user", "content": content("user", "Hello, I am Ada.", "Where is my order 48213?")},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": call}]},
        {"role": "tool", "tool_call_id": "call_1", "content": content("tool", "Shipped Monday.", "Arrives Thursday.")},
        {"role": "assistant", "content": content("assistant", "Your order", "arrives on Thursday.")},
        {"role": "user", "content": content("user", "Thanks!", "When did it ship?")},
    ]  # fmt: skip


def client_for(base_url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=base_url, api_key="not-needed", max_retries=0, timeout=120)


def ask(base_url: str, messages: list[dict[str, Any]], stream: bool = False, **params: Any) -> tuple[str, Any]:
    """The answer (its text, or its tool call as ``name arguments``) and the prompt's size in tokens (None
    when streamed)."""
    response = client_for(base_url).chat.completions.create(
        model=local.MODEL_NAME, messages=messages, temperature=0, seed=0, max_tokens=12,  # type: ignore[arg-type]
        stream=stream, **params,
    )  # fmt: skip
    if not stream:
        message = response.choices[0].message
        calls = [f"{call.function.name} {call.function.arguments}" for call in message.tool_calls or []]
        return message.content or " ".join(calls), response.usage.prompt_tokens
    text, calls = "", []
    for chunk in response:
        delta = chunk.choices[0].delta
        text += delta.content or ""
        calls += [f"{call.function.name} {call.function.arguments}" for call in delta.tool_calls or []]
    return text or " ".join(calls), None


# ------------------------------------------------------------------------------------- the rendering alone
def test_parts_render_as_content_str_does() -> None:
    parts = [*text_parts("What is in", "this picture?"), IMAGE, {"type": "input_text", "text": "Be brief."}]
    assert chat_request.content_text(parts) == content_str(parts) == "What is in\nthis picture?\n<image>\nBe brief."
    assert chat_request.content_text(None) == "" and chat_request.content_text("as is") == "as is"
    refusal = [{"type": "refusal", "refusal": "I cannot help with that."}]
    assert chat_request.content_text(refusal) == "I cannot help with that."
    audio = {"type": "input_audio", "input_audio": {"data": "", "format": "wav"}}
    assert chat_request.content_text([audio, {"type": "file", "file": {"file_id": "f"}}]) == "<audio>\n<file>"


def test_a_request_body_is_rewritten_only_where_needed() -> None:
    plain = json.dumps({"messages": [{"role": "user", "content": "hi"}]}).encode()
    assert chat_request.accept_request(plain) is plain
    assert chat_request.accept_request(b"not json") == b"not json"
    body = json.dumps({"messages": [
        {"role": "system", "content": text_parts("a", "b")},
        {"role": "assistant", "content": None, "tool_calls": []},
        {"role": "user", "content": [IMAGE]},
    ]}).encode()  # fmt: skip
    assert json.loads(chat_request.accept_request(body))["messages"] == [
        {"role": "system", "content": "a\nb"},
        {"role": "assistant", "content": "", "tool_calls": []},
        {"role": "user", "content": "<image>"},
    ]
    unknown = {"messages": [{"role": "user", "content": [*text_parts("x"), {"type": "video"}]}]}
    says = r"messages\[0\]\.content\[1\]\.type must be one of"
    with pytest.raises(chat_request.ChatRequestError, match=says) as caught:
        chat_request.accept_request(json.dumps(unknown).encode())
    assert caught.value.param == "messages[0].content[1].type"
    assert isinstance(caught.value, ValueError)


# ---------------------------------------------------------------------------------- the default chat format
@pytest.mark.parametrize("role", ROLES)
def test_content_parts_in_each_role_are_read_as_their_text(embedded_server: local.EmbeddedServer, role: str) -> None:
    answer, prompt_tokens = ask(embedded_server.base_url, conversation(role))
    assert answer.strip()
    assert prompt_tokens == ask(embedded_server.base_url, conversation())[1]


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
def test_content_parts_with_and_without_tools(embedded_server: local.EmbeddedServer, stream: bool) -> None:
    url = embedded_server.base_url
    for params in ({}, {"tools": [ORDER_TOOL]}, {"tools": [ORDER_TOOL], "tool_choice": "required"}):
        answer, prompt_tokens = ask(url, conversation(*ROLES), stream, **params)
        assert answer.strip(), params
        if not stream:
            assert prompt_tokens == ask(url, conversation(), stream, **params)[1], params
    # The one tool, required: a call whose arguments follow its schema.
    name, arguments = answer.split(" ", 1)
    assert name == "get_order_status" and "order_id" in json.loads(arguments)


def test_an_image_part_is_shown_as_an_image_placeholder(embedded_server: local.EmbeddedServer) -> None:
    with_image = [{"role": "user", "content": [*text_parts("Describe this picture."), IMAGE]}]
    as_text = [{"role": "user", "content": "Describe this picture.\n<image>"}]
    without_image = [{"role": "user", "content": "Describe this picture."}]
    answer, prompt_tokens = ask(embedded_server.base_url, with_image)
    assert answer.strip() and prompt_tokens == ask(embedded_server.base_url, as_text)[1]
    assert prompt_tokens > ask(embedded_server.base_url, without_image)[1]


@pytest.mark.parametrize(
    ("content", "param", "says"),
    [
        ([*text_parts("hi"), {"type": "video", "url": "x"}], "messages[0].content[1].type", "must be one of"),
        (["hi"], "messages[0].content[0]", "must be a content part object"),
        ([{"type": "text"}], "messages[0].content[0].text", "must be the part's text as a string"),
    ],
)
def test_unreadable_parts_are_a_400_naming_the_field(
    embedded_server: local.EmbeddedServer, content: Any, param: str, says: str
) -> None:
    with pytest.raises(openai.BadRequestError, match=says) as caught:
        ask(embedded_server.base_url, [{"role": "user", "content": content}])
    assert caught.value.status_code == 400
    body: Any = caught.value.body
    assert body["param"] == param and body["type"] == "invalid_request_error"
    assert ask(embedded_server.base_url, [{"role": "user", "content": text_parts("Say hi.")}])[0].strip()


# ------------------------------------------------------------------------ the template-only chat format
@pytest.fixture(scope="module", params=[local.MODEL_TEMPLATE])
def format_server(request: pytest.FixtureRequest) -> Iterator[local.EmbeddedServer]:
    """A server started with the model's template alone (tools answered in text), for this module."""
    with local.EmbeddedServer(chat_format=request.param, n_ctx=2048) as server:
        yield server


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
def test_every_chat_format_takes_content_parts(format_server: local.EmbeddedServer, stream: bool) -> None:
    url = format_server.base_url
    for params in ({}, {"tools": [ORDER_TOOL]}):
        answer, prompt_tokens = ask(url, conversation(*ROLES), stream, **params)
        assert answer.strip(), params
        if not stream:
            assert prompt_tokens == ask(url, conversation(), stream, **params)[1], params
    image = [{"role": "user", "content": [*text_parts("Describe this picture."), IMAGE]}]
    answer, prompt_tokens = ask(url, image, stream)
    assert answer.strip()
    if not stream:
        assert prompt_tokens == ask(url, [{"role": "user", "content": "Describe this picture.\n<image>"}])[1]


# --------------------------------------------------------------------------------------- classic agents
def embedded_config(server: local.EmbeddedServer, **overrides: Any) -> dict[str, Any]:
    config = local.llm_config(**overrides)
    config["config_list"] = [{**config["config_list"][0], "base_url": server.base_url}]
    return config


def test_a_transform_messages_chat_with_content_parts(embedded_server: local.EmbeddedServer) -> None:
    # As in the classic transform-messages notebook: assistant turns as content parts, the history
    # limited and long messages cut by MessageTokenLimiter, which keeps the parts as a list.
    assistant = AssistantAgent("assistant", system_message="You are the Archivist. Answer briefly.",
                               llm_config=embedded_config(embedded_server, max_tokens=16))  # fmt: skip
    limiter = transforms.MessageTokenLimiter(max_tokens=1000, max_tokens_per_message=50, min_tokens=10)
    context_handling = transform_messages.TransformMessages(
        transforms=[transforms.MessageHistoryLimiter(max_messages=3), limiter]
    )
    context_handling.add_to_agent(assistant)
    messages = [
        {"role": "user", "content": "hello"},
        {"role": "assistant", "content": [{"type": "text", "text": "there"}]},
        {"role": "user", "content": "how"},
        {"role": "assistant", "content": [{"type": "text", "text": "are you doing?"}]},
        {"role": "user", "content": [{"type": "text", "text": "very " * 200 + "long question: what is 2 + 2?"}]},
    ]
    sent = limiter.apply_transform(copy.deepcopy(messages))
    assert isinstance(sent[-1]["content"], list)  # what reaches the server is still a list of parts
    reply = assistant.generate_reply(messages=copy.deepcopy(messages))
    assert isinstance(reply, str) and reply.strip()

    # A whole chat: the user's first message as content parts with an image, kept as parts in the history.
    user = UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False)
    first = {"role": "user", "content": [*text_parts("Hello, my name is Ada.", "What is in this picture?"), IMAGE]}
    result = user.initiate_chat(assistant, message=first, max_turns=1)
    history: list[dict[str, Any]] = result.chat_history or []
    assert history[0]["content"] == first["content"]
    assert isinstance(history[1]["content"], str) and history[1]["content"].strip()
    result = user.initiate_chat(assistant, message={"content": text_parts("What is my name?")}, max_turns=1,
                                clear_history=False)  # fmt: skip
    assert isinstance(result.summary, str) and result.summary.strip()
