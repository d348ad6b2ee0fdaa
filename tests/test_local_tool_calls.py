"""Tool calls on the embedded SmolLM2 server: the real llama.cpp process, talked to with the openai client.

Which tool the model picks is its own business (it is a 135M model, see bench/bench_local_tools.py);
these tests check the shape of what comes back and that agents can act on it. A choice is made
deterministic where a test needs one: ``tool_choice="required"`` with a single tool, or a named
``tool_choice``.
"""

from __future__ import annotations

import json
import re
from typing import Any

import openai
import pytest

from autogen_classic import (
    ON_CONDITION,
    AssistantAgent,
    ConversableAgent,
    SwarmAgent,
    UserProxyAgent,
    initiate_swarm_chat,
    local,
)
from autogen_classic.local import server as server_module

ORDER_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "get_order_status",
        "description": "Look up where an order is.",
        "parameters": {
            "type": "object",
            "properties": {"order_id": {"type": "string", "description": "the order number"}},
            "required": ["order_id"],
        },
    },
}
TOOLS: list[dict[str, Any]] = [
    {"type": "function", "function": {"name": name, "description": f"Hand the customer to the {name[12:]} agent.",
                                      "parameters": {"type": "object", "properties": {}}}}
    for name in ("transfer_to_sales", "transfer_to_refunds", "transfer_to_triage")
] + [ORDER_TOOL]  # fmt: skip
NAMES = {tool["function"]["name"] for tool in TOOLS}
SYSTEM: dict[str, Any] = {"role": "system", "content": "You are the front desk of an online shop."}


def client_for(server: local.EmbeddedServer) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.base_url, api_key="not-needed", max_retries=0, timeout=120)


def ask(server: local.EmbeddedServer, messages: list[dict[str, Any]], **params: Any) -> Any:
    return client_for(server).chat.completions.create(
        model=local.MODEL_NAME, messages=messages, temperature=0, seed=0, **params  # type: ignore[arg-type]
    )


def assert_well_formed_call(call: Any, offered: set[str]) -> dict[str, Any]:
    """The call has an id, type function, an offered name and a JSON object of arguments; return them."""
    assert isinstance(call.id, str) and re.fullmatch(r"call_[0-9a-f]{24}", call.id)
    assert call.type == "function"
    assert call.function.name in offered
    arguments = json.loads(call.function.arguments)
    assert isinstance(arguments, dict)
    schema = next(t["function"]["parameters"] for t in TOOLS if t["function"]["name"] == call.function.name)
    assert set(schema.get("required", [])) <= set(arguments)
    return arguments


def embedded_config(server: local.EmbeddedServer, **overrides: Any) -> dict[str, Any]:
    config = local.llm_config(**overrides)
    config["config_list"] = [{**config["config_list"][0], "base_url": server.base_url}]
    return config


def test_the_embedded_server_makes_tool_calls_by_default(embedded_server: local.EmbeddedServer) -> None:
    assert embedded_server.chat_format == server_module.TOOL_CHAT_FORMAT == "autogen-classic-tools"
    assert local.EmbeddedServer(chat_format=local.MODEL_TEMPLATE).chat_format == "chat_template.default"
    for other in (" ", "chatml-function-calling"):
        with pytest.raises(ValueError, match="chat_format must be 'autogen-classic-tools' .* or 'chat_template.default'"):
            local.EmbeddedServer(chat_format=other)


def test_required_tool_choice_returns_a_well_formed_tool_call(embedded_server: local.EmbeddedServer) -> None:
    message = {"role": "user", "content": "Where is my order 48213?"}
    response = ask(embedded_server, [SYSTEM, message], tools=TOOLS, tool_choice="required")
    choice = response.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.role == "assistant" and choice.message.content is None
    assert len(choice.message.tool_calls) == 1
    assert_well_formed_call(choice.message.tool_calls[0], NAMES)
    assert response.model == local.MODEL_NAME
    assert response.usage.prompt_tokens > 0 and response.usage.completion_tokens > 0


def test_tools_without_tool_choice_give_a_call_or_text(embedded_server: local.EmbeddedServer) -> None:
    # What agents send: tools and no tool_choice. The model may call a tool or answer; either is well formed.
    for text in ("Where is my order 48213?", "Hello!"):
        response = ask(embedded_server, [SYSTEM, {"role": "user", "content": text}], tools=TOOLS, max_tokens=24)
        choice = response.choices[0]
        if choice.message.tool_calls:
            assert choice.finish_reason == "tool_calls" and choice.message.content is None
            assert_well_formed_call(choice.message.tool_calls[0], NAMES)
        else:
            assert choice.finish_reason in ("stop", "length")
            assert isinstance(choice.message.content, str) and choice.message.content.strip()


def test_a_named_tool_choice_calls_that_tool_with_schema_arguments(embedded_server: local.EmbeddedServer) -> None:
    choice = {"type": "function", "function": {"name": "get_order_status"}}
    message = {"role": "user", "content": "Has order 77120 shipped?"}
    call = ask(embedded_server, [SYSTEM, message], tools=TOOLS, tool_choice=choice).choices[0].message.tool_calls[0]
    arguments = assert_well_formed_call(call, {"get_order_status"})
    assert isinstance(arguments["order_id"], str)
    with pytest.raises(openai.BadRequestError, match="tool_choice names the function 'nope'"):
        ask(embedded_server, [message], tools=TOOLS, tool_choice={"type": "function", "function": {"name": "nope"}})


def test_a_streamed_tool_call_arrives_whole(embedded_server: local.EmbeddedServer) -> None:
    stream = ask(embedded_server, [SYSTEM, {"role": "user", "content": "Order 5531?"}], tools=[ORDER_TOOL],
                 tool_choice="required", stream=True)  # fmt: skip
    chunks = list(stream)
    calls = [call for chunk in chunks for call in chunk.choices[0].delta.tool_calls or []]
    assert len(calls) == 1 and calls[0].index == 0
    assert_well_formed_call(calls[0], {"get_order_status"})
    assert chunks[-1].choices[0].finish_reason == "tool_calls"


def test_legacy_functions_get_a_function_call(embedded_server: local.EmbeddedServer) -> None:
    message = {"role": "user", "content": "Where is order 90017?"}
    response = ask(embedded_server, [SYSTEM, message], functions=[ORDER_TOOL["function"]],
                   function_call={"name": "get_order_status"})  # fmt: skip
    choice = response.choices[0]
    assert choice.finish_reason == "function_call" and not choice.message.tool_calls
    assert choice.message.function_call.name == "get_order_status"
    assert "order_id" in json.loads(choice.message.function_call.arguments)


def test_plain_chat_and_tool_choice_none_answer_in_text(embedded_server: local.EmbeddedServer) -> None:
    plain = ask(embedded_server, [{"role": "user", "content": "Say hello."}], max_tokens=8).choices[0]
    assert isinstance(plain.message.content, str) and plain.message.content.strip()
    assert not plain.message.tool_calls
    none = ask(embedded_server, [SYSTEM, {"role": "user", "content": "Where is order 1?"}], tools=TOOLS,
               tool_choice="none", max_tokens=8).choices[0]  # fmt: skip
    assert none.message.content and not none.message.tool_calls


def test_a_conversation_with_calls_and_results_is_answered(embedded_server: local.EmbeddedServer) -> None:
    # The assistant's call (content None) and the tool's result are shown to the model, with tools or without.
    arguments = json.dumps({"order_id": "48213"})
    history: list[dict[str, Any]] = [
        SYSTEM,
        {"role": "user", "content": "Where is my order 48213?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "get_order_status", "arguments": arguments}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "Shipped on Monday, arrives Thursday."},
    ]  # fmt: skip
    without = ask(embedded_server, history, max_tokens=16).choices[0]
    assert isinstance(without.message.content, str) and without.message.content.strip()
    with_tools = ask(embedded_server, history, tools=TOOLS, max_tokens=16).choices[0]
    if with_tools.message.tool_calls:
        assert_well_formed_call(with_tools.message.tool_calls[0], NAMES)
    else:
        assert with_tools.message.content


def test_an_agent_executes_the_models_tool_call(embedded_server: local.EmbeddedServer) -> None:
    looked_up: list[str] = []
    assistant = AssistantAgent(
        "assistant", system_message="You look up orders.",
        llm_config=embedded_config(embedded_server, tool_choice="required", max_tokens=32),
    )  # fmt: skip
    user = UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False)

    @user.register_for_execution()
    @assistant.register_for_llm(description="Look up where an order is.")
    def get_order_status(order_id: str) -> str:
        looked_up.append(order_id)
        return f"Order {order_id} arrives on Thursday."

    result = user.initiate_chat(assistant, message="Where is my order 48213?", max_turns=2)
    history: list[dict[str, Any]] = result.chat_history or []
    call_message = history[1]
    assert call_message["role"] == "assistant"
    assert call_message["tool_calls"][0]["function"]["name"] == "get_order_status"
    assert len(looked_up) == 1  # executed once, through the user's registered function
    response = history[2]
    assert response["role"] == "tool"
    assert response["tool_responses"][0]["tool_call_id"] == call_message["tool_calls"][0]["id"]
    assert response["tool_responses"][0]["content"] == f"Order {looked_up[0]} arrives on Thursday."


def test_a_swarm_hands_off_on_the_embedded_model(embedded_server: local.EmbeddedServer) -> None:
    # One hand-off offered and a tool call required: the transfer is the model's only possible answer.
    triage = SwarmAgent("triage", system_message="You route customers.",
                        llm_config=embedded_config(embedded_server, tool_choice="required"))  # fmt: skip
    refunds = SwarmAgent("refunds", system_message="You handle refunds. Answer briefly.",
                         llm_config=embedded_config(embedded_server, max_tokens=16))  # fmt: skip
    triage.register_hand_off(ON_CONDITION(refunds, "The customer wants money back"))
    result, _, last = initiate_swarm_chat(triage, "I want my money back", [triage, refunds], max_rounds=4)
    history: list[dict[str, Any]] = result.chat_history or []
    assert last is refunds
    assert [m.get("name") for m in history] == [None, "triage", "Tool_Execution", "refunds"]
    assert history[1]["tool_calls"][0]["function"]["name"] == "transfer_triage_to_refunds"
    assert history[2]["content"] == "SwarmAgent --> refunds"
    assert isinstance(history[3]["content"], str) and history[3]["content"].strip()


def test_conversable_agent_reads_the_servers_tool_call(embedded_server: local.EmbeddedServer) -> None:
    # generate_reply on its own: the tool call comes back as the classic message dict.
    agent = ConversableAgent("desk", llm_config=embedded_config(embedded_server, tools=[ORDER_TOOL],
                                                                 tool_choice="required"))  # fmt: skip
    reply = agent.generate_reply(messages=[{"role": "user", "content": "Where is order 48213?"}])
    assert isinstance(reply, dict) and reply["role"] == "assistant"
    assert reply["tool_calls"][0]["function"]["name"] == "get_order_status"
    assert json.loads(reply["tool_calls"][0]["function"]["arguments"])["order_id"]


def test_a_forwarded_calls_none_text_is_not_shown_to_the_model() -> None:
    # Agents forward a call's null content as the text "None"; the model must not see (and copy) it.
    from autogen_classic.local import tool_calls

    call = {"id": "c1", "type": "function", "function": {"name": "transfer_to_sales", "arguments": "{}"}}
    plain = tool_calls.plain_messages([{"role": "assistant", "content": "None", "tool_calls": [call]}], True, str)
    assert plain == [{"role": "assistant", "content": tool_calls._call_text("transfer_to_sales", "{}")}]
    said = tool_calls.plain_messages([{"role": "assistant", "content": "None"}], False, str)
    assert said == [{"role": "assistant", "content": "None"}]  # a text answer "None" is kept as it is


def test_arguments_hold_the_declared_parameters_only(embedded_server: local.EmbeddedServer) -> None:
    # llama.cpp lets a model add properties of its own unless the schema says otherwise; a function takes
    # only what it declares, so the grammar allows only that.
    choice = {"type": "function", "function": {"name": "get_order_status"}}
    for text in ("Where is my order 48213?", "Is order 5531 late? It was a gift, please hurry."):
        call = ask(embedded_server, [SYSTEM, {"role": "user", "content": text}], tools=TOOLS,
                   tool_choice=choice).choices[0].message.tool_calls[0]  # fmt: skip
        assert set(json.loads(call.function.arguments)) == {"order_id"}
    open_schema = {"type": "object", "properties": {"note": {"type": "string"}}, "additionalProperties": True}
    from autogen_classic.local import tool_calls

    assert tool_calls._bounded(open_schema)["additionalProperties"] is True  # a schema that says so keeps it


def test_the_function_is_chosen_by_its_description(embedded_server: local.EmbeddedServer) -> None:
    # Which function a request calls is scored against each description ("The following message is about
    # ..."), not guessed from a list: the same request goes where the descriptions send it.
    def tool(name: str, description: str) -> dict[str, Any]:
        return {"type": "function", "function": {"name": name, "description": description,
                                                 "parameters": {"type": "object", "properties": {}}}}  # fmt: skip

    first, second = "route_a", "route_b"
    money = "Payments, invoices, charges and refunds."
    crashes = "Technical problems: errors, crashes, things that do not work."
    request = [{"role": "user", "content": "I was charged twice this month."}]
    one = ask(embedded_server, request, tools=[tool(first, money), tool(second, crashes)], tool_choice="required")
    other = ask(embedded_server, request, tools=[tool(first, crashes), tool(second, money)], tool_choice="required")
    assert one.choices[0].message.tool_calls[0].function.name == first
    assert other.choices[0].message.tool_calls[0].function.name == second
    from autogen_classic.local import tool_calls

    assert tool_calls.choice_prompts({"name": "x", "description": money}) == (
        "The following message is about payments, invoices, charges and refunds.\n\nMessage: ",
        "Topic: Payments, invoices, charges and refunds.\nMessage: ",
    )
    assert tool_calls.choice_prompts({"name": "transfer_to_sales"})[1] == "Topic: transfer to sales\nMessage: "
