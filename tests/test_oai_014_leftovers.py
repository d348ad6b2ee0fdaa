"""AG2 Classic 0.14 behaviour around the model client: ``ChatCompletionExtended`` and ``OpenAIResponsesClient``
at their classic paths (``api_type="responses"`` reaching the Responses API), the error for an unknown
``llm_config`` key, and the cache of a ``with Cache...:`` block serving the chats started inside it."""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path
from typing import Any

import openai
import pytest
from openai.types.chat import ChatCompletion
from openai.types.responses import Response

import autogen_classic as autogen
from autogen_classic import Cache, ConversableAgent, LLMConfig, OpenAIWrapper
from autogen_classic.agentchat.contrib.society_of_mind_agent import SocietyOfMindAgent
from autogen_classic.oai.client import ChatCompletionExtended, OpenAIResponsesClient
from autogen_classic.oai.client import OpenAIResponsesLLMConfigEntry
from autogen_classic.testing.scripted_server import API_KEY, ScriptedOpenAIServer, ScriptedReply

SYSTEM = "You are a helpful AI Assistant."


def _responses_config(server: ScriptedOpenAIServer, **extra: Any) -> dict[str, Any]:
    return {"config_list": [server.config_entry(api_type="responses", **extra)], "cache_seed": None}


def _add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


# ----------------------------------------------------------------- ChatCompletionExtended
def test_chat_completion_extended_is_one_class_at_every_classic_path() -> None:
    from autogen_classic.llm_clients.openai_responses_v2 import ChatCompletionExtended as from_v2_client
    from autogen_classic.llm_clients.responses.v1_format import ChatCompletionExtended as from_v1_format
    from autogen_classic.oai.model_client import ChatCompletionExtended as where_it_lives

    assert ChatCompletionExtended is where_it_lives is from_v2_client is from_v1_format
    assert issubclass(ChatCompletionExtended, ChatCompletion)
    completion = ChatCompletionExtended(id="c1", created=0, model="m", object="chat.completion", choices=[])
    assert (completion.cost, completion.config_id, completion.pass_filter, completion.message_retrieval_function) == (
        None, None, None, None)
    completion.cost = 0.5
    assert completion.model_dump()["cost"] == 0.5


# ----------------------------------------------------------------- OpenAIResponsesClient
def test_openai_responses_client_is_one_class_at_every_classic_path() -> None:
    from autogen_classic.llm_clients.openai_responses import OpenAIResponsesClient as where_it_lives
    from autogen_classic.oai.openai_responses import OpenAIResponsesClient as classic_module

    assert OpenAIResponsesClient is where_it_lives is classic_module
    assert list(inspect.signature(OpenAIResponsesClient).parameters) == ["client", "response_format"]
    assert OpenAIResponsesClient.RESPONSE_USAGE_KEYS == ["prompt_tokens", "completion_tokens", "total_tokens", "cost",
                                                         "model"]


def test_api_type_responses_chats_through_the_responses_api(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("Hello there", "Second answer")
    assistant = ConversableAgent("a", llm_config=_responses_config(scripted_server), human_input_mode="NEVER")
    user = ConversableAgent("u", llm_config=False, human_input_mode="NEVER", max_consecutive_auto_reply=1,
                            default_auto_reply="more please")

    result = user.initiate_chat(assistant, message="hi", max_turns=2, silent=True)

    assert isinstance(assistant.client._clients[0], OpenAIResponsesClient)
    # The replies are stored in AG2 0.14's shape: a list of text parts.
    assert result.chat_history == [
        {"content": "hi", "role": "assistant", "name": "u"},
        {"content": [{"type": "text", "role": "assistant", "text": "Hello there"}], "role": "user", "name": "a"},
        {"content": "more please", "role": "assistant", "name": "u"},
        {"content": [{"type": "text", "role": "assistant", "text": "Second answer"}], "role": "user", "name": "a"},
    ]
    first, second = scripted_server.requests
    # Responses API requests (input items, no messages); the second continues the first on the server.
    assert "messages" not in first and first["input"] == [
        {"role": "system", "content": [{"type": "input_text", "text": SYSTEM}]},
        {"role": "user", "content": [{"type": "input_text", "text": "hi"}]},
    ]
    assert second["previous_response_id"] == "resp_scripted_1"
    assert second["input"] == [{"role": "user", "content": [{"type": "input_text", "text": "more please"}]}]
    usage = result.cost["usage_including_cached_inference"]["scripted-model"]
    assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] == 4


def test_a_tool_call_through_the_responses_api_is_executed_and_answered(
    scripted_server: ScriptedOpenAIServer,
) -> None:
    scripted_server.add_replies(ScriptedReply(tool_calls=[{"name": "_add", "arguments": {"a": 1, "b": 2}}]),
                                ScriptedReply(content="It is 3", reasoning="1 + 2"))
    assistant = ConversableAgent("a", llm_config=_responses_config(scripted_server), human_input_mode="NEVER")
    user = ConversableAgent("u", llm_config=False, human_input_mode="NEVER")
    autogen.register_function(_add, caller=assistant, executor=user, description="Add two numbers.")

    result = user.initiate_chat(assistant, message="add 1 and 2", max_turns=2, silent=True)

    assert result.chat_history[1] == {
        "tool_calls": [{"id": "call_1", "function": {"name": "_add", "arguments": '{"a": 1, "b": 2}'},
                        "type": "function_call"}],
        "content": None, "role": "assistant",
    }
    assert result.chat_history[2]["tool_responses"] == [{"tool_call_id": "call_1", "role": "tool", "content": "3"}]
    # The reasoning item is not part of the reply.
    assert result.chat_history[3]["content"] == [{"type": "text", "role": "assistant", "text": "It is 3"}]
    first, second = scripted_server.requests
    assert first["tools"][0]["name"] == "_add" and first["tools"][0]["type"] == "function"
    assert second["input"] == [{"type": "function_call_output", "call_id": "call_1", "output": "3"}]
    assert second["previous_response_id"] == "resp_scripted_1"


def test_a_typed_responses_entry_in_an_llm_config_reaches_the_responses_api(
    scripted_server: ScriptedOpenAIServer,
) -> None:
    scripted_server.add_reply("typed")
    entry = OpenAIResponsesLLMConfigEntry(model="scripted-model", base_url=scripted_server.base_url, api_key=API_KEY)
    assistant = ConversableAgent("a", llm_config=LLMConfig(entry, cache_seed=None), human_input_mode="NEVER")

    reply = assistant.generate_reply([{"role": "user", "content": "hi"}])

    assert reply == {"content": [{"type": "text", "role": "assistant", "text": "typed"}], "role": "assistant",
                     "id": "resp_scripted_1"}
    assert "input" in scripted_server.requests[0] and "messages" not in scripted_server.requests[0]


def test_the_client_used_directly_returns_the_sdk_response(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies(ScriptedReply(content="one", usage={"input_tokens": 10, "output_tokens": 2}), "two")
    client = OpenAIResponsesClient(openai.OpenAI(base_url=scripted_server.base_url, api_key=API_KEY))
    assert client.previous_response_id is None and client.image_costs == 0

    response = client.create({"model": "scripted-model", "messages": [{"role": "user", "content": "hi"}]})

    assert isinstance(response, Response) and client.previous_response_id == response.id
    assert client.message_retrieval(response) == [
        {"role": "assistant", "id": response.id, "content": [{"type": "text", "role": "assistant", "text": "one"}]}
    ]
    assert OpenAIResponsesClient.get_usage(response) == {
        "prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12, "cost": 0, "model": "scripted-model",
        "reasoning_tokens": 0,
    }
    assert client.cost(response) == 0  # a model without a price
    # Responses API items are sent as they are, continuing the conversation.
    client.create({"model": "scripted-model", "input": [{"role": "user", "content": "and?"}]})
    assert scripted_server.requests[1]["previous_response_id"] == response.id
    with pytest.raises(TypeError, match="openai.OpenAI client"):
        OpenAIResponsesClient(object())


def test_responses_v2_entries_keep_their_own_client(scripted_server: ScriptedOpenAIServer) -> None:
    from autogen_classic.llm_clients.openai_responses_v2 import OpenAIResponsesV2Client

    wrapper = OpenAIWrapper(config_list=[scripted_server.config_entry(api_type="responses_v2"),
                                         scripted_server.config_entry(api_type="responses")])
    assert [type(c) for c in wrapper._clients] == [OpenAIResponsesV2Client, OpenAIResponsesClient]


def test_a_failing_responses_endpoint_fails_over_to_the_next_entry(
    scripted_server: ScriptedOpenAIServer, dead_base_url: str
) -> None:
    scripted_server.add_reply("from the second")
    dead = {"model": "scripted-model", "base_url": dead_base_url, "api_key": API_KEY, "api_type": "responses",
            "max_retries": 0}
    wrapper = OpenAIWrapper(config_list=[dead, scripted_server.config_entry(api_type="responses")], cache_seed=None)

    response = wrapper.create(messages=[{"role": "user", "content": "hi"}])

    assert response.config_id == 1
    assert wrapper.extract_text_or_completion_object(response)[0]["content"][0]["text"] == "from the second"


def test_responses_answers_are_cached_on_disk(scripted_server: ScriptedOpenAIServer, tmp_path: Path) -> None:
    scripted_server.add_reply("cached answer")
    wrapper = OpenAIWrapper(config_list=[scripted_server.config_entry(api_type="responses")])
    with Cache.disk(cache_path_root=str(tmp_path)) as cache:
        first = wrapper.create(messages=[{"role": "user", "content": "hi"}], cache=cache)
        second = wrapper.create(messages=[{"role": "user", "content": "hi"}], cache=cache)
    assert scripted_server.request_count == 1
    assert wrapper.extract_text_or_completion_object(second) == wrapper.extract_text_or_completion_object(first)


# ----------------------------------------------------------------- unknown llm_config keys
def test_an_unknown_llm_config_key_is_both_a_type_error_and_a_value_error() -> None:
    config = {"config_list": [{"model": "gpt-4o-mini", "api_key": "sk-test"}], "colour": 1}
    with pytest.raises(TypeError, match="unknown option 'colour'") as as_type_error:  # AG2 0.14's type
        ConversableAgent("a", llm_config=config)
    with pytest.raises(ValueError, match="unknown option 'colour'"):  # this package's type so far
        ConversableAgent("a", llm_config=config)
    assert "extra_body" in str(as_type_error.value)  # the fix is still named
    typo = {**config, "temprature": 0.1}
    typo.pop("colour")
    with pytest.raises(TypeError, match=r"'temprature' \(did you mean 'temperature'\?\)"):
        OpenAIWrapper(**typo)


def test_an_unknown_llm_config_keyword_is_a_type_error_as_in_ag2_014() -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        LLMConfig({"model": "gpt-4o-mini", "api_key": "sk-test"}, colour=1)


# ----------------------------------------------------------------- the cache of a with-block
def _pair(server: ScriptedOpenAIServer, **config: Any) -> tuple[ConversableAgent, ConversableAgent]:
    llm_config = {"config_list": [server.config_entry()], **config}
    assistant = ConversableAgent("a", llm_config=llm_config, human_input_mode="NEVER")
    return ConversableAgent("u", llm_config=False, human_input_mode="NEVER"), assistant


def _chat(user: ConversableAgent, assistant: ConversableAgent, **kwargs: Any) -> Any:
    return user.initiate_chat(assistant, message="hi", max_turns=1, silent=True, **kwargs)


def test_chats_inside_a_cache_block_use_its_cache(scripted_server: ScriptedOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scripted_server, "default_reply", ScriptedReply(content="fresh"))
    user, assistant = _pair(scripted_server, cache_seed=None)
    with Cache.in_memory(cache_seed="block") as store:
        block = Cache.get_current_cache()
        assert block is not None and block.cache is store
        first = _chat(user, assistant)
        second = _chat(user, assistant)
        assert scripted_server.request_count == 1  # the second chat was answered from the block's cache
        assert assistant.client_cache is None and user.client_cache is None  # lent for the chat only
    assert first.summary == second.summary == "fresh"
    assert Cache.get_current_cache() is None
    _chat(user, assistant)  # after the block: no cache again
    assert scripted_server.request_count == 2


def test_a_disk_cache_block_serves_chats_and_an_explicit_cache_wins(
    scripted_server: ScriptedOpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scripted_server, "default_reply", ScriptedReply(content="fresh"))
    user, assistant = _pair(scripted_server, cache_seed=None)
    other = Cache.disk(cache_seed="other", cache_path_root=str(tmp_path))
    with Cache.disk(cache_path_root=str(tmp_path)):
        _chat(user, assistant)
        _chat(user, assistant)
        assert scripted_server.request_count == 1
        _chat(user, assistant, cache=other)  # an explicit cache wins over the block's
        assert scripted_server.request_count == 2


def test_the_innermost_block_wins_and_the_outer_one_comes_back(scripted_server: ScriptedOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scripted_server, "default_reply", ScriptedReply(content="fresh"))
    user, assistant = _pair(scripted_server, cache_seed=None)
    with Cache.in_memory(cache_seed="outer"):
        _chat(user, assistant)
        with Cache.in_memory(cache_seed="inner"):
            _chat(user, assistant)  # a new, empty cache
            _chat(user, assistant)
        assert scripted_server.request_count == 2
        _chat(user, assistant)  # the outer block's cache again
        assert scripted_server.request_count == 2


def test_0_7_style_explicit_caches_behave_as_before(scripted_server: ScriptedOpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scripted_server, "default_reply", ScriptedReply(content="fresh"))
    user, assistant = _pair(scripted_server, cache_seed=None)
    # ag2 0.7: the block only closes the cache; chats are given it explicitly.
    with Cache.disk(cache_seed=7, cache_path_root=str(tmp_path)) as cache:
        _chat(user, assistant, cache=cache)
        _chat(user, assistant, cache=cache)
    assert scripted_server.request_count == 1
    # Outside any block an explicit cache serves its chat only; a chat without one asks the model.
    cache = Cache.disk(cache_seed=7, cache_path_root=str(tmp_path))
    _chat(user, assistant, cache=cache)
    _chat(user, assistant)
    assert scripted_server.request_count == 2
    assistant.client_cache = own = Cache.in_memory(cache_seed="own")
    _chat(user, assistant, cache=cache)
    assert assistant.client_cache is own


def test_a_reply_generated_outside_a_chat_does_not_use_the_block(scripted_server: ScriptedOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scripted_server, "default_reply", ScriptedReply(content="fresh"))
    _, assistant = _pair(scripted_server, cache_seed=None)
    with Cache.in_memory():
        assistant.generate_reply([{"role": "user", "content": "hi"}])
        assistant.generate_reply([{"role": "user", "content": "hi"}])
    assert scripted_server.request_count == 2  # as in AG2 0.14: only chats pick the block's cache


def test_the_summary_of_a_chat_in_a_block_uses_its_cache(scripted_server: ScriptedOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scripted_server, "default_reply", ScriptedReply(content="fresh"))
    assistant = ConversableAgent("a", llm_config=scripted_server.llm_config(), human_input_mode="NEVER")
    user = ConversableAgent("u", llm_config=scripted_server.llm_config(), human_input_mode="NEVER")
    with Cache.in_memory():
        for _ in range(2):
            user.initiate_chat(assistant, message="hi", max_turns=1, silent=True, summary_method="reflection_with_llm")
    assert scripted_server.request_count == 2  # the reply and the summary, once


def test_nested_chats_in_a_block_use_its_cache(scripted_server: ScriptedOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scripted_server, "default_reply", ScriptedReply(content="fresh"))
    inner = ConversableAgent("inner", llm_config=scripted_server.llm_config(), human_input_mode="NEVER")
    host = ConversableAgent("host", llm_config=False, human_input_mode="NEVER")
    host.register_nested_chats([{"recipient": inner, "message": "inner question", "max_turns": 1,
                                 "summary_method": "last_msg"}], trigger=lambda sender: True)
    user = ConversableAgent("u", llm_config=False, human_input_mode="NEVER")
    with Cache.in_memory():
        user.initiate_chat(host, message="go", max_turns=1, silent=True)
        user.initiate_chat(host, message="go", max_turns=1, silent=True)
    assert scripted_server.request_count == 1
    # With an explicit cache on the outer chat only, the nested chats ask the model (as in ag2 0.7 and AG2 0.14).
    outer = Cache.in_memory(cache_seed="outer")
    user.initiate_chat(host, message="go", max_turns=1, silent=True, cache=outer)
    user.initiate_chat(host, message="go", max_turns=1, silent=True, cache=outer)
    assert scripted_server.request_count == 3


@pytest.mark.parametrize("method", ["round_robin", "auto"])
def test_group_chats_in_a_block_use_its_cache_for_replies_and_selections(
    scripted_server: ScriptedOpenAIServer, method: str
) -> None:
    scripted_server.set_responder(
        lambda body: "y" if "Read the above conversation" in str(body.get("messages")) else "fresh"
    )
    config = {"config_list": [scripted_server.config_entry()], "cache_seed": None}
    x = ConversableAgent("x", llm_config=config, human_input_mode="NEVER", description="x")
    y = ConversableAgent("y", llm_config=config, human_input_mode="NEVER", description="y")
    user = ConversableAgent("u", llm_config=False, human_input_mode="NEVER")

    def manager() -> autogen.GroupChatManager:
        groupchat = autogen.GroupChat([user, x, y], messages=[], max_round=3, speaker_selection_method=method)
        return autogen.GroupChatManager(groupchat, llm_config=config)

    with Cache.in_memory():
        user.initiate_chat(manager(), message="go", silent=True)
        first = scripted_server.request_count
        user.initiate_chat(manager(), message="go", silent=True)
    assert first == (2 if method == "round_robin" else 4)  # "auto": a selection before each reply
    assert scripted_server.request_count == first  # the second group chat: replies and selections cached
    assert all(agent.client_cache is None for agent in (x, y, user))
    user.initiate_chat(manager(), message="go", silent=True)
    assert scripted_server.request_count == 2 * first  # outside the block, selections are never cached


def test_async_chats_in_a_block_use_its_cache(scripted_server: ScriptedOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scripted_server, "default_reply", ScriptedReply(content="fresh"))
    user, assistant = _pair(scripted_server, cache_seed=None)

    async def chats() -> None:
        with Cache.in_memory():
            for _ in range(2):
                await user.a_initiate_chat(assistant, message="hi", max_turns=1, silent=True)

    asyncio.run(chats())
    assert scripted_server.request_count == 1


def test_a_society_inside_a_block_prepares_from_the_cached_inner_chat(scripted_server: ScriptedOpenAIServer) -> None:
    config = scripted_server.llm_config()
    inner_a = autogen.AssistantAgent("inner_a", llm_config=config)
    inner_b = autogen.AssistantAgent("inner_b", llm_config=config)
    groupchat = autogen.GroupChat([inner_a, inner_b], messages=[], speaker_selection_method="round_robin",
                                  max_round=3)
    society = SocietyOfMindAgent("society", chat_manager=autogen.GroupChatManager(groupchat, llm_config=config),
                                 llm_config=config)
    user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False,
                                  is_termination_msg=lambda message: True)
    scripted_server.add_replies("A1", "TERMINATE", "prepared")
    with Cache.in_memory():
        first = user.initiate_chat(society, message="Q", silent=True)
        second = user.initiate_chat(society, message="Q", silent=True)
    # The inner chat (started without a cache) and the preparation both come from the block's cache.
    assert first.summary == second.summary == "prepared"
    assert scripted_server.request_count == 3
