"""OpenAIResponsesV2Client (autogen.llm_clients.openai_responses_v2) against the scripted server's Responses API
route (/v1/responses), through the real openai SDK: requests, answers, conversation state, costs, errors."""

from __future__ import annotations

import json

import openai
import pytest
from pydantic import BaseModel

from autogen_classic.llm_clients.models import CitationContent, GenericContent, ImageContent
from autogen_classic.llm_clients.openai_responses_v2 import (
    IMAGE_PRICING,
    ChatCompletionExtended,
    OpenAIResponsesV2Client,
    calculate_image_cost,
    calculate_token_cost,
)
from autogen_classic.testing.scripted_server import ScriptedReply

WEATHER_TOOL = {
    "type": "function",
    "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}},
}
CALL = {"name": "get_weather", "arguments": {"city": "Paris"}, "id": "call_a"}


def responses(server) -> OpenAIResponsesV2Client:
    return OpenAIResponsesV2Client(api_key="sk-test", base_url=server.base_url, max_retries=0)


def test_text_answer_usage_and_cost(scripted_server) -> None:
    scripted_server.add_reply(ScriptedReply(content="Hello there", usage={"input_tokens": 1000, "output_tokens": 500}))
    client = responses(scripted_server)
    messages = [{"role": "system", "content": "Be nice."}, {"role": "user", "content": "hi you"}]
    response = client.create({"model": "gpt-5", "messages": messages})
    assert scripted_server.requests == [{"model": "gpt-5", "input": [
        {"role": "system", "content": [{"type": "input_text", "text": "Be nice."}]},
        {"role": "user", "content": [{"type": "input_text", "text": "hi you"}]},
    ]}]
    assert (response.provider, response.status, response.finish_reason) == ("openai_responses", "completed", None)
    assert response.id == "resp_scripted_1" and response.text == "Hello there" and response.messages[0].role == "assistant"
    assert response.cost == pytest.approx(0.00625) == calculate_token_cost("gpt-5", 1000, 500)
    assert client.get_usage(response) == {
        "prompt_tokens": 1000, "completion_tokens": 500, "total_tokens": 1500, "cost": response.cost,
        "model": "gpt-5", "token_cost": response.cost, "image_cost": 0.0,
    }
    assert client.message_retrieval(response) == ["Hello there"] == client.unified_response_to_v1_messages(response)
    assert client.get_cumulative_usage()["total_cost"] == pytest.approx(0.00625) == client.get_total_costs()
    assert isinstance(response.provider_metadata["created"], int) and client.is_v1_compatible()


def test_costs_follow_the_price_table_or_a_custom_price(scripted_server) -> None:
    client = responses(scripted_server)
    for model in ("gpt-4.1-mini", "my-finetune"):
        scripted_server.add_reply(ScriptedReply(content="ok", usage={"input_tokens": 2000, "output_tokens": 1000}))
        client.create({"model": model, "messages": [{"role": "user", "content": "x"}]})
    assert client.get_token_costs() == pytest.approx(0.0024)  # gpt-4.1-mini: $0.40 / $1.60; unknown models cost 0
    client.set_custom_price(0.001, 0.002)
    scripted_server.add_reply(ScriptedReply(content="ok", usage={"input_tokens": 2000, "output_tokens": 1000}))
    assert client.create({"model": "my-finetune", "messages": [{"role": "user", "content": "x"}]}).cost == pytest.approx(0.004)
    client.clear_custom_price()
    client.reset_all_costs()
    assert client.get_cumulative_usage() == {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0,
                                             "token_cost": 0.0, "image_cost": 0.0, "total_cost": 0.0}


def test_price_helpers_match_the_classic_values() -> None:
    assert calculate_token_cost("gpt-5", 1000, 500, custom_price=(0.002, 0.004)) == pytest.approx(0.004)
    assert calculate_token_cost("unknown-model", 1000, 500) == 0.0
    assert calculate_image_cost() == (0.167, None)
    assert calculate_image_cost("DALL-E-3", "1024x1792", "hd") == (0.12, None)
    assert calculate_image_cost("dall-e-2", "256x256", "anything") == (0.016, None)
    assert calculate_image_cost("dall-e-3", "512x512") == (
        0.0, "Invalid size 512x512 for dall-e-3. Valid sizes: ['1024x1024', '1024x1792', '1792x1024']")
    assert calculate_image_cost("gpt-image-1", quality="ultra")[1] == (
        "Invalid quality 'ultra' for gpt-image-1. Valid qualities: ['low', 'medium', 'high']")
    assert calculate_image_cost("midjourney")[1] == f"Invalid model: midjourney. Valid models: {list(IMAGE_PRICING)}"


def test_tool_calls_and_the_conversation_kept_on_the_server(scripted_server) -> None:
    scripted_server.add_replies(ScriptedReply(content=None, tool_calls=[CALL]),
                                ScriptedReply(content="It is sunny", reasoning="The tool said so."))
    client = responses(scripted_server)
    history = [{"role": "user", "content": "weather in Paris?"}]
    first = client.create({"model": "gpt-5", "messages": history, "tools": [WEATHER_TOOL]})
    assert scripted_server.requests[0]["tools"] == [{"type": "function", "name": "get_weather", "strict": False,
                                                     "parameters": WEATHER_TOOL["function"]["parameters"]}]
    assert scripted_server.requests[0]["tool_choice"] == "auto"
    (call,) = first.messages[0].get_tool_calls()
    assert (call.id, call.name, call.arguments) == ("call_a", "get_weather", '{"city": "Paris"}')
    assert client.message_retrieval(first) == [{"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_a", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}]}]
    history += [client.message_retrieval(first)[0], {"role": "tool", "tool_call_id": "call_a", "content": "sunny"}]
    second = client.create({"model": "gpt-5", "messages": history, "tools": [WEATHER_TOOL]})
    sent = scripted_server.requests[1]
    assert sent["previous_response_id"] == "resp_scripted_1"
    assert sent["input"] == [{"type": "function_call_output", "call_id": "call_a", "output": "sunny"}]
    assert second.text == "The tool said so. It is sunny" and client.message_retrieval(second) == ["It is sunny"]
    (reasoning,) = second.reasoning
    assert reasoning.reasoning == "The tool said so."


def test_another_history_starts_a_new_conversation(scripted_server) -> None:
    scripted_server.add_replies("one", "two", "three")
    client = responses(scripted_server)
    client.create({"model": "gpt-5", "messages": [{"role": "user", "content": "first"}]})
    client.create({"model": "gpt-5", "messages": [{"role": "user", "content": "another peer"}]})
    client.reset_conversation()
    client.create({"model": "gpt-5", "input": "plain input"})
    assert ["previous_response_id" in r for r in scripted_server.requests] == [False, False, False]
    assert scripted_server.requests[2]["input"] == "plain input"
    scripted_server.add_reply("four")
    client.create({"model": "gpt-5", "input": [{"role": "user", "content": "go on"}]})
    assert scripted_server.requests[3]["previous_response_id"] == "resp_scripted_3"  # input items continue


def test_a_whole_history_with_tool_calls_is_sent_as_items(scripted_server) -> None:
    scripted_server.add_reply("Sunny, 21 degrees.")
    history = [
        {"role": "user", "content": "weather?"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "call_x", "type": "function",
                                                              "function": {"name": "get_weather", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_x", "content": "sunny"},
    ]
    assert responses(scripted_server).create({"model": "gpt-5", "messages": history}).text == "Sunny, 21 degrees."
    assert scripted_server.requests[0]["input"][1:] == [
        {"type": "function_call", "call_id": "call_x", "name": "get_weather", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_x", "output": "sunny"},
    ]


def test_multimodal_messages_become_input_parts(scripted_server) -> None:
    scripted_server.add_reply("a cat")
    message = OpenAIResponsesV2Client.create_multimodal_message("What is this?", ["https://example.com/cat.png"])
    chat_image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA", "detail": "low"}}
    responses(scripted_server).create({"model": "gpt-5", "messages": [message, {"role": "user", "content": [chat_image]}]})
    assert scripted_server.requests[0]["input"] == [
        {"role": "user", "content": [{"type": "input_text", "text": "What is this?"},
                                     {"type": "input_image", "image_url": "https://example.com/cat.png", "detail": "auto"}]},
        {"role": "user", "content": [{"type": "input_image", "image_url": "data:image/png;base64,AAAA", "detail": "low"}]},
    ]


def test_structured_output(scripted_server) -> None:
    class City(BaseModel):
        name: str
        population: int

    scripted_server.add_replies('{"name": "Paris", "population": 2100000}', '{"ok": true}')
    client = responses(scripted_server)
    response = client.create({"model": "gpt-5", "messages": [{"role": "user", "content": "Paris?"}], "response_format": City})
    assert scripted_server.requests[0]["text"]["format"]["type"] == "json_schema"
    assert client.get_parsed_object(response) == City(name="Paris", population=2100000)
    assert client.get_parsed_content(response).parsed_dict == {"name": "Paris", "population": 2100000}
    schema = {"type": "json_schema", "json_schema": {"name": "flag", "schema": {"type": "object"}, "strict": True}}
    client.create({"model": "gpt-5", "messages": [{"role": "user", "content": "ok?"}], "response_format": schema,
                   "verbosity": "low", "reasoning_effort": "minimal", "max_tokens": 20})
    sent = scripted_server.requests[1]
    assert sent["text"] == {"verbosity": "low", "format": {"type": "json_schema", "name": "flag",
                                                           "schema": {"type": "object"}, "strict": True}}
    assert sent["reasoning"] == {"effort": "minimal"} and sent["max_output_tokens"] == 20


def _raw(output: list, usage: dict | None = None) -> str:
    return json.dumps({"id": "resp_raw", "object": "response", "created_at": 1, "status": "completed", "model": "gpt-5",
                       "output": output, "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
                       "usage": usage or {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
                                          "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 3},
                                          "total_tokens": 15}})


def test_built_in_tools_and_their_output_items(scripted_server) -> None:
    text = "Paris is sunny today."
    scripted_server.add_reply(ScriptedReply(raw_body=_raw([
        {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "paris"}},
        {"type": "image_generation_call", "id": "ig_1", "status": "completed", "result": "iVBORw0KGgo="},
        {"type": "message", "id": "msg_1", "status": "completed", "role": "assistant", "content": [
            {"type": "output_text", "text": text, "annotations": [
                {"type": "url_citation", "url": "https://weather.example", "title": "Weather", "start_index": 0,
                 "end_index": 5}]}]},
        {"type": "code_interpreter_call", "id": "ci_1", "code": "print(1)", "status": "completed"},
        {"type": "brand_new_item", "id": "x_1", "detail": 7},
    ])))
    client = responses(scripted_server)
    client.set_web_search_params(search_context_size="low")
    client.set_image_output_params(quality="low", size="1024x1024")
    response = client.create({"model": "gpt-5", "messages": [{"role": "user", "content": "Weather and a picture"}],
                              "built_in_tools": ["web_search", "image_generation"], "tools": [WEATHER_TOOL]})
    assert [t["type"] for t in scripted_server.requests[0]["tools"]] == ["image_generation", "web_search", "function"]
    assert scripted_server.requests[0]["tools"][0] == {"type": "image_generation", "quality": "low", "size": "1024x1024",
                                                       "output_format": "png"}
    assert scripted_server.requests[0]["tools"][1] == {"type": "web_search", "search_context_size": "low"}
    (citation,) = client.get_citations(response)
    assert (citation.url, citation.title, citation.snippet) == ("https://weather.example", "Weather", "Paris")
    (search,) = client.get_web_search_calls(response)
    assert search.id == "ws_1" and search.status == "completed" and search.action["query"] == "paris"
    (image,) = client.get_generated_images(response)
    assert image.data_uri == "data:image/png;base64,iVBORw0KGgo=" and image.extra["generated"] is True
    assert response.usage["image_cost"] == 0.25 == client.get_image_costs()  # gpt-image-1, 1024x1536, high
    assert response.usage["reasoning_tokens"] == 3 and client.get_usage(response)["reasoning_tokens"] == 3
    (code,) = response.get_content_by_type("code_interpreter_call")
    assert code.tool_name == "code_interpreter" and code.code == "print(1)"
    assert isinstance(response.get_content_by_type("brand_new_item")[0], GenericContent)
    assert client.message_retrieval(response) == [{"role": "assistant", "content": [
        {"type": "text", "text": text}, {"type": "image_url", "image_url": {"url": image.data_uri}}]}]
    assert [type(b) for b in response.messages[0].content].count(CitationContent) == 1
    assert client.get_all_images(response) == [image] and isinstance(image, ImageContent)


def test_v1_compatible_answer(scripted_server) -> None:
    scripted_server.add_reply(ScriptedReply(raw_body=_raw([
        {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Checked."}]},
        {"type": "message", "id": "m", "status": "completed", "role": "assistant",
         "content": [{"type": "output_text", "text": "Calling.", "annotations": []}]},
        {"type": "function_call", "id": "fc", "call_id": "call_z", "name": "get_weather", "arguments": "{}"},
    ])))
    legacy = responses(scripted_server).create_v1_compatible({"model": "gpt-5", "messages": [{"role": "user", "content": "x"}]})
    assert isinstance(legacy, ChatCompletionExtended) and legacy.created == 1 and legacy.cost == pytest.approx(6.25e-05)
    choice = legacy.choices[0]
    assert choice.message.content == "[Reasoning: Checked.]\nCalling." and choice.finish_reason == "tool_calls"
    assert choice.message.tool_calls[0].function.name == "get_weather"
    assert (legacy.usage.prompt_tokens, legacy.usage.completion_tokens, legacy.usage.total_tokens) == (10, 5, 15)


def test_bad_requests_get_clear_errors_before_sending(scripted_server) -> None:
    client = responses(scripted_server)
    bad_part = [{"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "audio_clip", "url": "x"}]}]
    with pytest.raises(ValueError, match=r"messages\[0\]\.content\[1\]: unknown content part type 'audio_clip'"):
        client.create({"model": "gpt-5", "messages": bad_part})
    with pytest.raises(ValueError, match="legacy function-call messages"):
        client.create({"model": "gpt-5", "messages": [{"role": "function", "name": "f", "content": "1"}]})
    with pytest.raises(ValueError, match="give 'messages'"):
        client.create({"model": "gpt-5"})
    with pytest.raises(NotImplementedError, match=r"built_in_tools \['shell'\]"):
        client.create({"model": "gpt-5", "messages": [{"role": "user", "content": "ls"}], "built_in_tools": ["shell"]})
    with pytest.raises(ValueError, match="built_in_tools: unknown tool"):
        client.create({"model": "gpt-5", "messages": [{"role": "user", "content": "x"}], "built_in_tools": ["browser"]})
    with pytest.raises(ValueError, match="quality must be one of"):
        client.set_image_output_params(quality="ultra")
    with pytest.raises(ValueError, match="search_context_size must be 'low', 'medium', or 'high'"):
        client.set_web_search_params(search_context_size="huge")
    assert scripted_server.requests == []


def test_the_server_checks_requests_as_the_responses_api_does(scripted_server) -> None:
    client = responses(scripted_server)
    with pytest.raises(openai.BadRequestError, match="Previous response with id 'resp_nope' not found"):
        client.create({"model": "gpt-5", "input": "hi", "previous_response_id": "resp_nope"})
    orphan = [{"type": "function_call_output", "call_id": "call_unknown", "output": "1"}]
    with pytest.raises(openai.BadRequestError, match="No tool call found for function call output with call_id call_unknown"):
        client.create({"model": "gpt-5", "input": orphan})
    sdk = openai.OpenAI(api_key="k", base_url=scripted_server.base_url, max_retries=0)
    with pytest.raises(openai.BadRequestError, match="Missing required parameter: 'model'"):
        sdk.responses.create(input="hi")  # type: ignore[call-overload]
    with pytest.raises(openai.BadRequestError, match="'output_text' is for assistant messages"):
        sdk.responses.create(model="m", input=[{"role": "user", "content": [{"type": "output_text", "text": "x"}]}])
    assert scripted_server.pending_replies == 0 and len(scripted_server.requests) == 4


def test_the_sdk_reads_the_route_as_a_response(scripted_server) -> None:
    scripted_server.add_reply(ScriptedReply(content="Hi!", tool_calls=[CALL]))
    sdk = openai.OpenAI(api_key="k", base_url=scripted_server.base_url, max_retries=0)
    answer = sdk.responses.create(model="gpt-5", input="hello", instructions="Be brief.")
    assert answer.output_text == "Hi!" and answer.status == "completed" and answer.model == "gpt-5"
    assert [item.type for item in answer.output] == ["message", "function_call"]
    assert answer.output[1].call_id == "call_a" and json.loads(answer.output[1].arguments) == {"city": "Paris"}
    # Words count as tokens: "Be brief." and "hello" in; "Hi!" and the two words of the arguments out.
    assert (answer.usage.input_tokens, answer.usage.output_tokens, answer.usage.total_tokens) == (3, 3, 6)
