"""Tools and functions end to end: the schema sent to the model, calls executed by the executor, results sent back.

The model is the scripted OpenAI-compatible server; requests are asserted as the server recorded them.
Expected schemas, messages and console text match the reference (ag2 0.7.3) on the same scenarios.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

import pytest

from autogen_classic import AssistantAgent, ConversableAgent, UserProxyAgent, register_function
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply
from console_masks import mask_run_ids

SEP = "-" * 80


def _agents(server: ScriptedOpenAIServer, **llm_extra: Any) -> tuple[AssistantAgent, UserProxyAgent]:
    assistant = AssistantAgent("alice", llm_config=server.llm_config(**llm_extra))
    proxy = UserProxyAgent(
        "bob", human_input_mode="NEVER", code_execution_config=False,
        is_termination_msg=lambda m: "TERMINATE" in (m.get("content") or ""),
    )
    return assistant, proxy


def _tool_call(name: str, arguments: Any, call_id: str) -> dict[str, Any]:
    return {"name": name, "arguments": arguments, "id": call_id}


ADD_SCHEMA = {
    "type": "function",
    "function": {
        "description": "Add two numbers",
        "name": "add",
        "parameters": {
            "type": "object",
            "properties": {
                "a": {"type": "integer", "description": "first"},
                "b": {"type": "integer", "default": 1, "description": "second"},
            },
            "required": ["a"],
        },
    },
}
BOOM_SCHEMA = {
    "type": "function",
    "function": {"description": "Explodes", "name": "boom", "parameters": {"type": "object", "properties": {},
                                                                           "required": []}},
}


def test_tool_calls_end_to_end(console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies(
        ScriptedReply(tool_calls=[_tool_call("add", {"a": 2, "b": 3}, "c1"), _tool_call("boom", {}, "c2")]),
        "result is 5 TERMINATE",
    )
    alice, bob = _agents(scripted_server)

    @bob.register_for_execution()
    @alice.register_for_llm(description="Add two numbers")
    def add(a: Annotated[int, "first"], b: Annotated[int, "second"] = 1) -> int:
        return a + b

    def boom() -> str:
        raise RuntimeError("kaput")

    register_function(boom, caller=alice, executor=bob, description="Explodes")
    assert alice.llm_config["tools"] == [ADD_SCHEMA, BOOM_SCHEMA]
    assert sorted(bob.function_map) == ["add", "boom"]
    assert bob.can_execute_function(["add", "boom"]) and not alice.can_execute_function("add")

    result = bob.initiate_chat(alice, message="add")

    # The schema the model received, in the recorded request.
    assert scripted_server.requests[0]["tools"] == [ADD_SCHEMA, BOOM_SCHEMA]
    # The executor answered both calls; the failing tool's error is its result, not an exception.
    assert result.chat_history[2] == {
        "content": "5\n\nError: kaput",
        "tool_responses": [
            {"tool_call_id": "c1", "role": "tool", "content": "5"},
            {"tool_call_id": "c2", "role": "tool", "content": "Error: kaput"},
        ],
        "role": "tool",
        "name": "bob",
    }
    # The model got one tool message per call.
    assert scripted_server.requests[1]["messages"][2:] == [
        {"tool_calls": [
            {"id": "c1", "function": {"arguments": '{"a": 2, "b": 3}', "name": "add"}, "type": "function"},
            {"id": "c2", "function": {"arguments": "{}", "name": "boom"}, "type": "function"},
        ], "content": None, "role": "assistant"},
        {"tool_call_id": "c1", "role": "tool", "content": "5"},
        {"tool_call_id": "c2", "role": "tool", "content": "Error: kaput"},
    ]
    assert result.chat_history[-1]["content"] == "result is 5 TERMINATE"
    assert mask_run_ids(console.output) == (
        f"bob (to alice):\n\nadd\n\n{SEP}\n"
        "alice (to bob):\n\n"
        "***** Suggested tool call (c1): add *****\nArguments: \n{\"a\": 2, \"b\": 3}\n"
        "*****************************************\n"
        "***** Suggested tool call (c2): boom *****\nArguments: \n{}\n"
        "******************************************\n"
        f"\n{SEP}\n"
        "\n>>>>>>>> EXECUTING FUNCTION add...\nCall ID: c1\nInput arguments: {'a': 2, 'b': 3}\n"
        "\n>>>>>>>> EXECUTED FUNCTION add...\nCall ID: c1\nInput arguments: {'a': 2, 'b': 3}\nOutput:\n5\n"
        "\n>>>>>>>> EXECUTING FUNCTION boom...\nCall ID: c2\nInput arguments: {}\n"
        "\n>>>>>>>> EXECUTED FUNCTION boom...\nCall ID: c2\nInput arguments: {}\nOutput:\nError: kaput\n"
        "bob (to alice):\n\n"
        "***** Response from calling tool (c1) *****\n5\n*******************************************\n"
        f"\n{SEP}\n"
        "***** Response from calling tool (c2) *****\nError: kaput\n*******************************************\n"
        f"\n{SEP}\n"
        f"alice (to bob):\n\nresult is 5 TERMINATE\n\n{SEP}\n"
        "\n>>>>>>>> TERMINATING RUN (ID): Termination message condition on agent 'bob' met\n"
    )


def test_bad_arguments_and_unknown_tools_are_reported_to_the_model(
    console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer
) -> None:
    scripted_server.add_replies(
        ScriptedReply(tool_calls=[_tool_call("add", "{bad json", "c1"), _tool_call("nope", {}, "c2")]), "TERMINATE"
    )
    alice, bob = _agents(scripted_server)

    @bob.register_for_execution()
    @alice.register_for_llm(description="Add two numbers")
    def add(a: int, b: int) -> int:
        return a + b

    result = bob.initiate_chat(alice, message="add", max_turns=2)
    responses = result.chat_history[2]["tool_responses"]
    assert responses == [
        {"tool_call_id": "c1", "role": "tool", "content": (
            "Error: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)\n"
            " The argument must be in JSON format.")},
        {"tool_call_id": "c2", "role": "tool", "content": "Error: Function nope not found."},
    ]
    assert scripted_server.request_count == 2


def _add_agents_with(server: ScriptedOpenAIServer, func: Any) -> tuple[AssistantAgent, UserProxyAgent]:
    alice, bob = _agents(server)
    register_function(func, caller=alice, executor=bob, name="add", description="Add two numbers")
    return alice, bob


async def _async_add(a: int, b: int) -> int:
    await asyncio.sleep(0)
    return a + b


def _sync_add(a: int, b: int) -> int:
    return a + b


@pytest.mark.parametrize("func", [_sync_add, _async_add], ids=["sync_tool", "async_tool"])
@pytest.mark.parametrize("chat", ["sync", "async"])
def test_sync_and_async_tools_in_sync_and_async_chats(
    console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer, func: Any, chat: str
) -> None:
    scripted_server.add_replies(ScriptedReply(tool_calls=[_tool_call("add", {"a": 2, "b": 3}, "c1")]), "TERMINATE")
    alice, bob = _add_agents_with(scripted_server, func)
    if chat == "sync":
        result = bob.initiate_chat(alice, message="add")
    else:
        result = asyncio.run(bob.a_initiate_chat(alice, message="add"))
    assert result.chat_history[2]["tool_responses"] == [{"tool_call_id": "c1", "role": "tool", "content": "5"}]
    assert [m["content"] for m in result.chat_history] == ["add", None, "5", "TERMINATE"]


def test_legacy_function_call(console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies(ScriptedReply(function_call={"name": "add", "arguments": {"a": 1, "b": 2}}),
                                "TERMINATE")
    alice, bob = _agents(scripted_server)

    @bob.register_for_execution()
    @alice.register_for_llm(description="Add two numbers", api_style="function")
    def add(a: int, b: int) -> str:
        return f"sum={a + b}"

    assert "tools" not in alice.llm_config
    assert alice.llm_config["functions"] == [{
        "description": "Add two numbers", "name": "add",
        "parameters": {"type": "object", "properties": {"a": {"type": "integer", "description": "a"},
                                                        "b": {"type": "integer", "description": "b"}},
                       "required": ["a", "b"]},
    }]
    result = bob.initiate_chat(alice, message="add")
    assert scripted_server.requests[0]["functions"] == alice.llm_config["functions"]
    assert result.chat_history[1:3] == [
        {"function_call": {"arguments": '{"a": 1, "b": 2}', "name": "add"}, "content": None, "role": "assistant"},
        {"content": "sum=3", "name": "add", "role": "function"},
    ]
    assert scripted_server.requests[1]["messages"][-1] == {"content": "sum=3", "name": "add", "role": "function"}
    assert "***** Suggested function call: add *****\nArguments: \n{\"a\": 1, \"b\": 2}\n" in console.output
    assert "***** Response from calling function (add) *****\nsum=3\n" in console.output


def test_function_map_with_a_plain_function(console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer) -> None:
    functions = [{"name": "add", "description": "add",
                  "parameters": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}}}]
    scripted_server.add_replies(ScriptedReply(function_call={"name": "add", "arguments": {"a": 1, "b": 2}}),
                                "TERMINATE")
    alice = AssistantAgent("alice", llm_config=scripted_server.llm_config(functions=functions))
    bob = UserProxyAgent("bob", human_input_mode="NEVER", code_execution_config=False,
                         function_map={"add": lambda a, b: a + b})
    result = bob.initiate_chat(alice, message="add")
    # The int result is sent as text (the reference keeps the int and fails in the termination check).
    assert result.chat_history[2] == {"content": "3", "name": "add", "role": "function"}
    assert scripted_server.requests[0]["functions"] == functions
    assert result.chat_history[-1]["content"] == "TERMINATE"


def test_function_call_errors_are_returned(console: ScriptedIOStream) -> None:
    def fail(x: int) -> int:
        raise ValueError("no good")

    bob = ConversableAgent("bob", llm_config=False, human_input_mode="NEVER", function_map={"fail": fail})
    alice = ConversableAgent("alice", llm_config=False, human_input_mode="NEVER")
    alice.send({"function_call": {"name": "fail", "arguments": json.dumps({"x": 1})}}, bob, request_reply=True)
    assert alice.last_message(bob) == {"content": "Error: no good", "name": "fail", "role": "function"}
    alice.send({"function_call": {"name": "missing", "arguments": "{}"}}, bob, request_reply=True)
    assert alice.last_message(bob)["content"] == "Error: Function missing not found."


def test_register_for_llm_needs_an_llm_config_and_valid_names() -> None:
    proxy = UserProxyAgent("bob", code_execution_config=False)
    # The reference raises AssertionError with this text; InvalidStateError is a RuntimeError and an AssertionError.
    with pytest.raises(RuntimeError, match="To update a tool signature, agent must have an llm_config"):
        proxy.register_for_llm(description="x")(_sync_add)
    with pytest.raises(ValueError, match="Unsupported API style: rest"):
        proxy.register_for_llm(api_style="rest")(_sync_add)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Invalid name: bad name"):
        proxy.register_for_execution(name="bad name")(_sync_add)


def test_register_function_twice_warns_and_removal(scripted_server: ScriptedOpenAIServer) -> None:
    alice, bob = _agents(scripted_server)
    register_function(_sync_add, caller=alice, executor=bob, name="add", description="first")
    with pytest.warns(UserWarning, match="Function 'add' is being overridden."):
        register_function(_sync_add, caller=alice, executor=bob, name="add", description="second")
    assert [t["function"]["description"] for t in alice.llm_config["tools"]] == ["second"]
    alice.update_tool_signature("add", is_remove=True)
    assert "tools" not in alice.llm_config
    bob.register_function({"add": None})
    assert bob.function_map == {}


def test_arguments_are_converted_and_validated_from_type_hints(
    console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer
) -> None:
    scripted_server.add_replies(
        ScriptedReply(tool_calls=[_tool_call("add", {"a": "2", "b": "3"}, "c1"), _tool_call("add", {"a": "x"}, "c2")]),
        "TERMINATE",
    )
    alice, bob = _agents(scripted_server)

    @bob.register_for_execution()
    @alice.register_for_llm(description="Add two numbers")
    def add(a: int, b: int) -> int:
        return a + b

    assert bob.function_map["add"]._origin is add.func
    result = bob.initiate_chat(alice, message="add", max_turns=2)
    first, second = result.chat_history[2]["tool_responses"]
    assert first == {"tool_call_id": "c1", "role": "tool", "content": "5"}  # "2" + "3" as ints, as the reference
    assert second["content"].startswith("Error: 2 validation errors for add\na\n  Input should be a valid integer")
    assert "\nb\n  Field required [type=missing, input_value={'a': 'x'}, input_type=dict]" in second["content"]
