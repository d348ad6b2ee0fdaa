"""Classic model-client internals, used the way classic AutoGen tests and scripts use them.

The hooks of ``OpenAIClient`` (overridden in subclasses, patched on the class), the SDK client at
``_oai_client`` (replaced or patched in place), the chunk hooks of ``OpenAIWrapper`` and the keyword
call of the summary reply. Requests go to the scripted OpenAI-compatible server over real HTTP.
"""

from __future__ import annotations

import asyncio
from typing import Any
from unittest.mock import MagicMock, patch

import openai
import pytest
from openai.types.chat import ChatCompletion
from openai.types.chat.chat_completion_chunk import (
    ChoiceDeltaFunctionCall,
    ChoiceDeltaToolCall,
    ChoiceDeltaToolCallFunction,
)

import autogen_classic as autogen
from autogen_classic import ConversableAgent, OpenAIWrapper
from autogen_classic.oai.client import OpenAIClient
from autogen_classic.testing.scripted_server import API_KEY, ScriptedOpenAIServer, ScriptedReply

NAME_ERROR = (
    "Invalid 'messages[1].name': string does not match pattern. Expected a string that matches the pattern "
    "'^[a-zA-Z0-9_-]+$'."
)


def _completion(text: str = "from the mock", model: str = "gpt-4o") -> ChatCompletion:
    return ChatCompletion.model_validate(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1,
            "model": model,
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5},
        }
    )


@pytest.fixture
def mock_oai_client(scripted_server: ScriptedOpenAIServer) -> OpenAIClient:
    # As classic tests build it: a ready SDK client wrapped by OpenAIClient.
    return OpenAIClient(openai.OpenAI(api_key=API_KEY, base_url=scripted_server.base_url), None)


# ----------------------------------------------------------------------------- the static hooks
class TestOpenAIClientBadRequestsError:
    def test_is_agent_name_error_message(self) -> None:
        assert OpenAIClient._is_agent_name_error_message("Invalid 'messages[0].something") is False
        for i in range(5):
            message = f"Invalid 'messages[{i}].name': string does not match pattern. Expected a string ..."
            assert OpenAIClient._is_agent_name_error_message(message) is True

    @pytest.mark.parametrize(
        "error_message, raise_new_error",
        [
            (NAME_ERROR, True),
            ("Invalid 'messages[1].name': string too long.", False),
            ("Something else went wrong.", False),
        ],
    )
    def test_handle_openai_bad_request_error(self, error_message: str, raise_new_error: bool) -> None:
        def raise_bad_request_error(error_message: str) -> None:
            mock_response = MagicMock()
            mock_response.json.return_value = {"error": {"message": error_message}}
            raise openai.BadRequestError(error_message, response=mock_response, body=error_message)

        wrapped = OpenAIClient._handle_openai_bad_request_error(raise_bad_request_error)
        if raise_new_error:
            with pytest.raises(
                ValueError, match="This error typically occurs when the agent name contains invalid characters"
            ) as info:
                wrapped(error_message)
            assert "Here is the full BadRequestError from openai:" in str(info.value)
        else:
            with pytest.raises(openai.BadRequestError):
                wrapped(error_message)


class TestDeepSeekPatch:
    @pytest.mark.parametrize(
        "messages, expected_messages",
        [
            (
                [{"role": "user", "content": "a"}, {"role": "system", "content": "s"}],
                [{"role": "system", "content": "s"}, {"role": "user", "content": "a"}],
            ),
            (
                [{"role": "system", "content": "s"}, {"role": "user", "content": "a"}],
                [{"role": "system", "content": "s"}, {"role": "user", "content": "a"}],
            ),
            ([{"role": "user", "content": "a"}], [{"role": "user", "content": "a"}]),
        ],
    )
    def test_move_system_message_to_beginning(
        self, messages: list[dict[str, str]], expected_messages: list[dict[str, str]]
    ) -> None:
        OpenAIClient._move_system_message_to_beginning(messages)
        assert messages == expected_messages

    @pytest.mark.parametrize(
        "model, should_patch",
        [("deepseek-reasoner", True), ("deepseek-chat", False), ("gpt-4o", False), (None, False)],
    )
    def test_patch_messages_for_deepseek_reasoner(self, model: str | None, should_patch: bool) -> None:
        messages = [
            {"role": "user", "content": "first"},
            {"role": "system", "content": "be brief"},
            {"role": "user", "content": "second"},
            {"role": "assistant", "content": "reply"},
        ]
        kwargs: dict[str, Any] = {"messages": messages}
        if model:
            kwargs["model"] = model
        actual = OpenAIClient._patch_messages_for_deepseek_reasoner(**kwargs)
        if should_patch:
            assert actual == {
                "model": model,
                "messages": [
                    {"role": "system", "content": "be brief"},
                    {"role": "user", "content": "first"},
                    {"role": "assistant", "content": "second"},
                    {"role": "user", "content": "reply"},
                ],
            }
        else:
            assert actual == kwargs


class TestReasoningModelParams:
    def test_remove_unsupported_params(self, mock_oai_client: OpenAIClient) -> None:
        params = {
            "model": "o1-mini",
            "temperature": 0.7,
            "frequency_penalty": 1.0,
            "presence_penalty": 0.5,
            "top_p": 0.9,
            "logprobs": 10,
            "top_logprobs": 5,
            "logit_bias": {1: 2},
        }
        with pytest.warns(UserWarning, match=".*is not supported with o1-mini model.*"):
            mock_oai_client._process_reasoning_model_params(params)
        assert params == {"model": "o1-mini"}

    def test_max_tokens_replacement(self, mock_oai_client: OpenAIClient) -> None:
        params = {"model": "o1-mini", "max_tokens": 100}
        mock_oai_client._process_reasoning_model_params(params)
        assert params == {"model": "o1-mini", "max_completion_tokens": 100}

    @pytest.mark.parametrize("model, merged", [("o1-mini", True), ("o1-preview", True), ("o1", False)])
    def test_system_message_handling(self, mock_oai_client: OpenAIClient, model: str, merged: bool) -> None:
        params = {"model": model, "messages": [{"role": "system", "content": "Be nice"}, {"role": "user", "content": "x"}]}
        mock_oai_client._process_reasoning_model_params(params)
        first = params["messages"][0]  # type: ignore[index]
        if merged:
            assert first == {"role": "user", "content": "System message: Be nice"}
        else:
            assert first == {"role": "system", "content": "Be nice"}


# ----------------------------------------------------------------------------- the hooks are called on requests
def test_a_subclass_override_of_process_reasoning_model_params_shapes_the_request(
    scripted_server: ScriptedOpenAIServer,
) -> None:
    seen: list[dict[str, Any]] = []

    class RecordingClient(OpenAIClient):
        def _process_reasoning_model_params(self, params: dict[str, Any]) -> None:
            seen.append(dict(params))
            super()._process_reasoning_model_params(params)
            params["reasoning_effort"] = "low"

    scripted_server.add_replies("thought it through", "plain")
    client = RecordingClient(openai.OpenAI(api_key=API_KEY, base_url=scripted_server.base_url))
    messages = [{"role": "system", "content": "Be nice"}, {"role": "user", "content": "Hi"}]
    with pytest.warns(UserWarning, match="`temperature` is not supported with o1-mini model"):
        response = client.create({"model": "o1-mini", "messages": messages, "temperature": 0.3, "max_tokens": 50})
    assert client.message_retrieval(response) == ["thought it through"]
    sent = scripted_server.requests[0]
    assert "temperature" not in sent and "max_tokens" not in sent
    assert sent["max_completion_tokens"] == 50 and sent["reasoning_effort"] == "low"
    assert sent["messages"][0] == {"role": "user", "content": "System message: Be nice"}
    assert messages[0] == {"role": "system", "content": "Be nice"}  # the chat's own messages are left alone
    assert seen[0]["temperature"] == 0.3
    client.create({"model": "gpt-4o", "messages": messages, "temperature": 0.3})  # not a reasoning model
    assert len(seen) == 1 and scripted_server.requests[1]["temperature"] == 0.3


def test_patch_of_the_deepseek_hook_on_the_class_sees_every_request(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("one", "two")
    wrapper = OpenAIWrapper(config_list=[scripted_server.config_entry("deepseek-reasoner")], cache_seed=None)
    messages = [
        {"role": "user", "content": "Hi"},
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Anyone there?"},
    ]
    original = OpenAIClient._patch_messages_for_deepseek_reasoner
    with patch.object(OpenAIClient, "_patch_messages_for_deepseek_reasoner", side_effect=original) as hook:
        wrapper.create(messages=messages)
        asyncio.run(wrapper.a_create(messages=messages))
    assert hook.call_count == 2
    assert hook.call_args.kwargs["model"] == "deepseek-reasoner"
    for sent in scripted_server.requests:
        assert [m["role"] for m in sent["messages"]] == ["system", "user", "assistant", "user"]
        assert sent["messages"][-1] == {"role": "user", "content": "continue"}
    assert [m["role"] for m in messages] == ["user", "system", "user"]  # the caller's list unchanged


def test_a_refused_agent_name_becomes_the_classic_value_error(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies(
        ScriptedReply(status=400, error_message=NAME_ERROR), ScriptedReply(status=400, error_message=NAME_ERROR)
    )
    wrapper = OpenAIWrapper(**scripted_server.llm_config())
    with pytest.raises(ValueError, match="agent name contains invalid characters") as info:
        wrapper.create(messages=[{"role": "user", "content": "hi", "name": "my agent"}])
    assert NAME_ERROR in str(info.value)
    with pytest.raises(ValueError, match="agent name contains invalid characters"):
        asyncio.run(wrapper.a_create(messages=[{"role": "user", "content": "hi", "name": "my agent"}]))


def test_patching_the_agent_name_check_keeps_the_sdk_error(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply(ScriptedReply(status=400, error_message=NAME_ERROR))
    client = OpenAIClient(openai.OpenAI(api_key=API_KEY, base_url=scripted_server.base_url, max_retries=0))
    with patch.object(OpenAIClient, "_is_agent_name_error_message", return_value=False) as check:
        with pytest.raises(openai.BadRequestError):
            client.create({"model": "m", "messages": [{"role": "user", "content": "hi", "name": "my agent"}]})
    check.assert_called_with(NAME_ERROR)


# ----------------------------------------------------------------------------- the SDK client at _oai_client
def test_a_replaced_oai_client_serves_sync_and_async_requests(scripted_server: ScriptedOpenAIServer) -> None:
    client = OpenAIWrapper(**scripted_server.llm_config())
    client._clients[0]._oai_client = MagicMock()
    client._clients[0]._oai_client.chat.completions.create.return_value = _completion()
    response = client.create(messages=[{"role": "user", "content": "2+2="}])
    assert client.extract_text_or_completion_object(response) == ["from the mock"]
    response = asyncio.run(client.a_create(messages=[{"role": "user", "content": "2+2="}]))
    assert client.extract_text_or_completion_object(response) == ["from the mock"]
    create = client._clients[0]._oai_client.chat.completions.create
    assert create.call_count == 2
    assert create.call_args.kwargs["messages"] == [{"role": "user", "content": "2+2="}]
    assert scripted_server.request_count == 0  # nothing reached the network


def test_whatever_a_replaced_oai_client_returns_is_the_response(scripted_server: ScriptedOpenAIServer) -> None:
    client = OpenAIWrapper(**scripted_server.llm_config())
    client._clients[0]._oai_client = MagicMock()
    answer = MagicMock()
    client._clients[0]._oai_client.chat.completions.create.return_value = answer
    assert client.create(messages=[{"role": "user", "content": "x"}]) is answer
    assert scripted_server.request_count == 0


def test_patch_object_on_oai_client_create_reaches_an_agent_chat(scripted_server: ScriptedOpenAIServer) -> None:
    assistant = autogen.AssistantAgent("assistant", llm_config=scripted_server.llm_config())
    user = autogen.UserProxyAgent(
        "user", human_input_mode="NEVER", code_execution_config=False, max_consecutive_auto_reply=0
    )
    oai_client = assistant.client._clients[0]._oai_client  # type: ignore[union-attr]
    with patch.object(oai_client.chat.completions, "create", return_value=_completion("mocked answer")) as create:
        result = user.initiate_chat(assistant, message="hello", max_turns=1, silent=True)
        async_result = asyncio.run(user.a_initiate_chat(assistant, message="hello again", max_turns=1, silent=True))
    assert result.chat_history[-1]["content"] == "mocked answer"
    assert async_result.chat_history[-1]["content"] == "mocked answer"
    assert create.call_count == 2
    assert create.call_args.kwargs["messages"][-1] == {"content": "hello again", "role": "user", "name": "user"}
    assert scripted_server.request_count == 0


def test_oai_client_is_the_sdk_client_requests_go_through(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply("real answer")
    wrapper = OpenAIWrapper(**scripted_server.llm_config())
    sdk = wrapper._clients[0]._oai_client
    assert isinstance(sdk, openai.OpenAI) and str(sdk.base_url).startswith(scripted_server.base_url)
    with patch.object(sdk.chat.completions, "create", wraps=sdk.chat.completions.create) as create:
        response = wrapper.create(messages=[{"role": "user", "content": "hi"}])
    assert wrapper.extract_text_or_completion_object(response) == ["real answer"]
    assert create.call_args.kwargs["messages"] == [{"role": "user", "content": "hi"}]


# ----------------------------------------------------------------------------- streamed chunks
def test__update_dict_from_chunk() -> None:
    mock = MagicMock()
    for empty in ({}, []):
        mock.c = empty
        with pytest.raises(NotImplementedError):
            OpenAIWrapper._update_dict_from_chunk(mock, {}, "c")
    expected: dict[str, Any] = {}
    d: dict[str, Any] = {}
    for i, value in enumerate([0, 1, False, True, 0.0, 1.0]):
        field = "abcdef"[i]
        setattr(mock, field, value)
        d = expected.copy()
        assert OpenAIWrapper._update_dict_from_chunk(mock, d, field) == 1
        expected[field] = value
        assert d == expected
    for piece, whole in (("beginning", "beginning"), (" and", "beginning and"), (" end", "beginning and end")):
        mock.s = piece
        OpenAIWrapper._update_dict_from_chunk(mock, d, "s")
        assert d["s"] == whole
    mock.n = None
    assert OpenAIWrapper._update_dict_from_chunk(mock, d, "n") == 0 and "n" not in d


def test__update_function_call_and_tool_calls_from_chunk() -> None:
    function_chunks = [
        ChoiceDeltaFunctionCall(arguments=None, name="get_current_weather"),
        ChoiceDeltaFunctionCall(arguments='{"', name=None),
        ChoiceDeltaFunctionCall(arguments='location": "Paris"}', name=None),
    ]
    call, tokens = None, 0
    for chunk in function_chunks:
        call, tokens = OpenAIWrapper._update_function_call_from_chunk(chunk, call, tokens)
    assert call == {"name": "get_current_weather", "arguments": '{"location": "Paris"}'}
    assert tokens == len(function_chunks)

    tool_chunks = [
        ChoiceDeltaToolCall(
            index=0, id="call_1", type="function",
            function=ChoiceDeltaToolCallFunction(arguments="", name="get_current_weather"),
        ),
        ChoiceDeltaToolCall(index=0, function=ChoiceDeltaToolCallFunction(arguments='{"city": ')),
        ChoiceDeltaToolCall(index=0, function=ChoiceDeltaToolCallFunction(arguments='"Paris"}')),
    ]
    tool_call: dict[str, Any] | None = None
    for chunk in tool_chunks:
        tool_call, tokens = OpenAIWrapper._update_tool_calls_from_chunk(chunk, tool_call, 0)
    assert tool_call == {
        "index": 0,
        "id": "call_1",
        "type": "function",
        "function": {"name": "get_current_weather", "arguments": '{"city": "Paris"}'},
    }
    with pytest.raises(NotImplementedError, match="Tool call type custom"):
        OpenAIWrapper._update_tool_calls_from_chunk(MagicMock(type="custom"), None, 0)


def test_a_patched_chunk_hook_assembles_a_streamed_tool_call(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply(
        ScriptedReply(tool_calls=[{"id": "call_7", "name": "get_weather", "arguments": {"city": "Paris"}}])
    )
    wrapper = OpenAIWrapper(**scripted_server.llm_config(stream=True))
    original = OpenAIWrapper._update_dict_from_chunk
    with patch.object(OpenAIWrapper, "_update_dict_from_chunk", side_effect=original) as hook:
        response = wrapper.create(messages=[{"role": "user", "content": "weather?"}])
    assert hook.call_count > 2
    assert {call.args[2] for call in hook.call_args_list} >= {"index", "id", "name", "arguments"}
    (tool_call,) = response.choices[0].message.tool_calls
    assert tool_call.id == "call_7" and tool_call.type == "function"
    assert tool_call.function.name == "get_weather" and tool_call.function.arguments == '{"city": "Paris"}'
    assert "index" not in tool_call.model_dump()  # a position, not part of the message


# ----------------------------------------------------------------------------- the summary reply's model call
def test_the_reflection_summary_passes_messages_by_keyword(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply("Hello back")
    assistant = autogen.AssistantAgent("assistant", llm_config=scripted_server.llm_config())
    user = autogen.UserProxyAgent(
        "user", human_input_mode="NEVER", code_execution_config=False, max_consecutive_auto_reply=0
    )
    with patch.object(ConversableAgent, "_generate_oai_reply_from_client", return_value="the summary") as summary:
        result = user.initiate_chat(
            assistant, message="Hello", max_turns=1, summary_method="reflection_with_llm", silent=True
        )
    assert result.summary == "the summary"
    messages = summary.call_args.kwargs["messages"]
    assert messages[-1] == {"role": "system", "content": ConversableAgent.DEFAULT_SUMMARY_PROMPT}
    assert summary.call_args.kwargs["llm_client"] is assistant.client


# ----------------------------------------------------------------------------- base_url placeholders
def test_a_placeholder_base_url_builds_and_is_refused_on_use() -> None:
    wrapper = OpenAIWrapper(config_list=[{"model": "gpt-4", "api_key": "some_key", "base_url": "some url"}])
    with pytest.raises(ValueError, match="base_url 'some url' is not a URL; it must start with http:// or https://"):
        wrapper.create(messages=[{"role": "user", "content": "hi"}], cache_seed=None)
    with pytest.raises(ValueError, match="must start with http:// or https://"):
        OpenAIWrapper(config_list=[{"model": "gpt-4", "api_key": "some_key", "base_url": "localhost:8000"}])
