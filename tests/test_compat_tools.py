"""Classic tool scripts: dependency injection, ``execute_function``, schemas with nested models.

Written the way classic AutoGen scripts use the API. Expected values (schemas, contents, error
texts) were observed on ag2 0.7.3 for the same scripts; where this package deliberately differs
the test says so.
"""

import asyncio
import inspect
import json
from typing import Annotated, Any, Optional

import jsonschema
import pytest
from pydantic import BaseModel

import autogen_classic as autogen
from autogen_classic.exception_utils import InvalidArgumentError, InvalidArgumentTypeError, InvalidStateError
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply
from autogen_classic.tools import BaseContext, ChatContext, Depends, Tool, tool
from autogen_classic.tools.dependency_injection import Field, get_context_params, inject_params, on

OFFLINE = {"config_list": [{"model": "gpt-4", "api_key": "sk-offline", "base_url": "http://127.0.0.1:9/v1"}]}


def _pair(server: ScriptedOpenAIServer) -> tuple[autogen.AssistantAgent, autogen.UserProxyAgent]:
    alice = autogen.AssistantAgent("alice", llm_config={**server.llm_config(), "cache_seed": None})
    bob = autogen.UserProxyAgent(
        "bob", human_input_mode="NEVER", code_execution_config=False,
        is_termination_msg=lambda m: "TERMINATE" in (m.get("content") or ""),
    )
    return alice, bob


def _executor() -> autogen.ConversableAgent:
    return autogen.ConversableAgent("executor", llm_config=False, human_input_mode="NEVER")


class Account(BaseContext, BaseModel):
    username: str
    balance: int = 10


# ---------------------------------------------------------------- dependency injection end to end

BALANCE_TOOL = {
    "type": "function",
    "function": {
        "description": "Get the balance",
        "name": "get_balance",
        "parameters": {
            "type": "object",
            "properties": {"currency": {"type": "string", "description": "currency code"}},
            "required": ["currency"],
        },
    },
}


def test_injected_parameters_are_hidden_from_the_model_and_filled_in(
    console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer
) -> None:
    scripted_server.add_replies(
        ScriptedReply(tool_calls=[{"name": "get_balance", "arguments": {"currency": "EUR"}, "id": "c1"}]),
        "done TERMINATE",
    )
    alice, bob = _pair(scripted_server)
    seen: list[dict[str, Any]] = []

    def get_balance(
        currency: Annotated[str, "currency code"],
        ctx: ChatContext,
        account: Annotated[Account, Depends(Account(username="ann"))],
        rate: Annotated[float, Depends(on(1.5))],
    ) -> str:
        seen.append({"agent": ctx._agent, "sizes": {a.name: len(m) for a, m in ctx.chat_messages.items()},
                     "last": ctx.last_message})
        return f"{account.username}: {account.balance * rate} {currency}"

    autogen.register_function(get_balance, caller=alice, executor=bob, description="Get the balance")
    result = bob.initiate_chat(alice, message="balance?", max_turns=3)

    # What the model received: only `currency` (as ag2 0.7.3 sends).
    assert scripted_server.requests[0]["tools"] == [BALANCE_TOOL]
    assert result.chat_history[2]["tool_responses"] == [
        {"tool_call_id": "c1", "role": "tool", "content": "ann: 15.0 EUR"}
    ]
    # The ChatContext is the executor's chat, seen while the tool runs (same as the reference).
    assert seen[0]["agent"] is bob
    assert seen[0]["sizes"] == {"alice": 2}
    assert seen[0]["last"]["tool_calls"][0]["function"] == {"arguments": '{"currency": "EUR"}', "name": "get_balance"}


def test_injection_in_async_tools_and_async_chats(
    console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer
) -> None:
    scripted_server.add_replies(
        ScriptedReply(tool_calls=[{"name": "lookup", "arguments": {"key": "k"}, "id": "c1"}]), "TERMINATE"
    )
    alice, bob = _pair(scripted_server)

    async def token_provider() -> str:
        return "tok"

    @bob.register_for_execution()
    @alice.register_for_llm(description="Look up")
    async def lookup(key: str, ctx: ChatContext, token: Annotated[str, Depends(token_provider)]) -> dict:
        await asyncio.sleep(0)
        return {"key": key, "token": token, "last_role": ctx.last_message["role"]}

    assert alice.llm_config["tools"][0]["function"]["parameters"] == {
        "type": "object", "properties": {"key": {"type": "string", "description": "key"}}, "required": ["key"],
    }
    result = asyncio.run(bob.a_initiate_chat(alice, message="go", max_turns=2))
    assert result.chat_history[2]["tool_responses"][0]["content"] == (
        '{"key": "k", "token": "tok", "last_role": "assistant"}'
    )


def test_tool_object_with_context_and_default_style_depends(console: ScriptedIOStream) -> None:
    executor = _executor()
    caller = autogen.ConversableAgent("caller", llm_config=OFFLINE)

    def greet(name: str, ctx: ChatContext, punctuation: str = Depends(on("!"))) -> str:
        return f"hi {name}{punctuation} ({type(ctx).__name__})"

    greet_tool = Tool(func_or_tool=greet, description="Greet")
    assert greet_tool._chat_context_param_names == ["ctx"]
    assert str(inspect.signature(greet_tool.func)) == "(name: str) -> str"
    greet_tool.register_for_llm(caller)
    greet_tool.register_for_execution(executor)
    assert caller.llm_config["tools"][0]["function"]["parameters"]["properties"] == {
        "name": {"type": "string", "description": "name"}
    }
    assert executor.execute_function({"name": "greet", "arguments": '{"name": "ann"}'}) == (
        True, {"name": "greet", "role": "function", "content": "hi ann! (ChatContext)"},
    )


def test_dependency_providers_nested_cached_and_generators() -> None:
    log: list[str] = []

    def connection() -> Any:
        log.append("open")
        yield "conn"
        log.append("close")

    def repository(conn: Annotated[str, Depends(connection)]) -> str:
        log.append("repo")
        return f"repo({conn})"

    def counted() -> int:
        log.append("counted")
        return 2

    def query(q: str, repo: Annotated[str, Depends(repository)], a: Annotated[int, Depends(counted)],
              b: Annotated[int, Depends(counted)]) -> str:
        log.append("run")
        return f"{repo}:{q}:{a + b}"

    run = Tool(func_or_tool=query, description="Query")
    assert run(q="x") == "repo(conn):x:4"
    # The provider shared by two parameters runs once per call; the generator is closed after the call.
    assert log == ["open", "repo", "counted", "run", "close"]
    assert run.tool_schema["function"]["parameters"]["required"] == ["q"]


def test_inject_params_converts_arguments_and_ignores_unknown_ones() -> None:
    def add(a: int, b: int = 1) -> int:
        return a + b

    injected = inject_params(add)
    assert injected(a="2", b="3") == 5  # converted from the type hints, as the reference
    assert injected(a=2, unknown="x") == 3  # arguments the function does not take are ignored, as the reference
    with pytest.raises(Exception, match="1 validation error for add"):
        injected(a="x")


def test_get_context_params_and_field() -> None:
    def f(a: int, ctx: ChatContext, acc: Annotated[Account, Depends(Account(username="x"))],
          maybe: Optional[ChatContext] = None) -> None:
        pass

    assert get_context_params(f, subclass=ChatContext) == ["ctx", "maybe"]
    assert get_context_params(f, subclass=BaseContext) == ["ctx", "acc", "maybe"]
    assert Field("the city").description == "the city"

    def g(city: Annotated[str, Field(description="the city")]) -> str:
        return city

    assert Tool(func_or_tool=g, description="x").tool_schema["function"]["parameters"]["properties"] == {
        "city": {"type": "string", "description": "the city"}
    }


def test_bad_dependencies_fail_when_the_tool_is_made() -> None:
    async def provider() -> int:
        return 1

    def sync_tool(x: Annotated[int, Depends(provider)]) -> int:
        return x

    with pytest.raises(InvalidArgumentError, match="You cannot use async dependency `provider` at sync main"):
        Tool(func_or_tool=sync_tool, description="x")

    def not_callable(x: Annotated[int, Depends(5)]) -> int:
        return x

    with pytest.raises(InvalidArgumentTypeError, match=r"Depends\(5\) for parameter 'x'.*Depends\(on\(value\)\)"):
        Tool(func_or_tool=not_callable, description="x")


def test_chat_context_called_directly_without_a_context_is_an_error() -> None:
    def needs(a: int, ctx: ChatContext) -> int:
        return a

    with pytest.raises(Exception, match="1 validation error for needs\nctx\n"):
        Tool(func_or_tool=needs, description="x")(a=1)


# ---------------------------------------------------------------- execute_function / a_execute_function


def test_execute_function_signature_and_results(console: ScriptedIOStream) -> None:
    executor = _executor()
    for method in (autogen.ConversableAgent.execute_function, autogen.ConversableAgent.a_execute_function):
        parameters = inspect.signature(method).parameters.values()
        assert [(p.name, p.default) for p in parameters] == [
            ("self", inspect.Parameter.empty), ("func_call", inspect.Parameter.empty), ("call_id", None),
            ("verbose", False),
        ]
    assert inspect.iscoroutinefunction(autogen.ConversableAgent.a_execute_function)

    @executor.register_for_execution()
    def divide(a: int, b: int) -> float:
        return a / b

    assert executor.execute_function({"name": "divide", "arguments": '{"a": 6, "b": 3}'}, call_id="c1") == (
        True, {"name": "divide", "role": "function", "content": "2.0"},
    )
    assert console.output.endswith(
        "\n>>>>>>>> EXECUTING FUNCTION divide...\nCall ID: c1\nInput arguments: {'a': 6, 'b': 3}\n"
        "\n>>>>>>>> EXECUTED FUNCTION divide...\nCall ID: c1\nInput arguments: {'a': 6, 'b': 3}\nOutput:\n2.0\n"
    )
    assert executor.execute_function({"name": "nope", "arguments": "{}"}) == (
        False, {"name": "nope", "role": "function", "content": "Error: Function nope not found."},
    )
    assert executor.execute_function({"name": "divide", "arguments": "{a: 1"}) == (
        False,
        {"name": "divide", "role": "function",
         "content": "Error: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)\n"
                    " The argument must be in JSON format."},
    )
    assert executor.execute_function({"name": "divide", "arguments": '{"a": 1, "b": 0}'}) == (
        False, {"name": "divide", "role": "function", "content": "Error: division by zero"},
    )
    console.chunks.clear()
    ok, result = asyncio.run(executor.a_execute_function({"name": "divide", "arguments": '{"a": 1, "b": 0}'},
                                                         verbose=True))
    assert (ok, result["content"]) == (False, "Error: division by zero")
    assert console.output.endswith(
        "\n>>>>>>>> EXECUTED FUNCTION divide...\nCall ID: None\nInput arguments: {'a': 1, 'b': 0}\nOutput:\n"
        "Error: division by zero\n"
    )


def test_overridden_execute_function_is_used_by_the_tool_replies(
    console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer
) -> None:
    calls: list[tuple[str, Optional[str]]] = []

    class AuditedProxy(autogen.UserProxyAgent):
        def execute_function(self, func_call: dict, call_id: Optional[str] = None, verbose: bool = False) -> Any:
            calls.append(("sync", call_id))
            ok, result = super().execute_function(func_call, call_id=call_id, verbose=verbose)
            return ok, {**result, "content": f"[audited] {result['content']}"}

        async def a_execute_function(self, func_call: dict, call_id: Optional[str] = None,
                                     verbose: bool = False) -> Any:
            calls.append(("async", call_id))
            return await super().a_execute_function(func_call, call_id=call_id, verbose=verbose)

    alice = autogen.AssistantAgent("alice", llm_config=scripted_server.llm_config())
    bob = AuditedProxy("bob", human_input_mode="NEVER", code_execution_config=False)

    def double(x: int) -> int:
        return 2 * x

    async def a_double(x: int) -> int:
        return 2 * x

    autogen.register_function(double, caller=alice, executor=bob, description="Double")
    autogen.register_function(a_double, caller=alice, executor=bob, description="Double (async)")
    message = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "double", "arguments": '{"x": 2}'}},
        {"id": "c2", "type": "function", "function": {"name": "a_double", "arguments": '{"x": 3}'}},
    ]}
    ok, reply = bob.generate_tool_calls_reply([message])
    # As the reference: a sync reply runs async functions through a_execute_function.
    assert calls == [("sync", "c1"), ("async", "c2")]
    assert ok and [r["content"] for r in reply["tool_responses"]] == ["[audited] 4", "6"]
    calls.clear()
    ok, reply = bob.generate_function_call_reply(
        [{"role": "assistant", "content": None, "function_call": {"name": "double", "arguments": '{"x": 5}'}}]
    )
    assert calls == [("sync", None)] and reply["content"] == "[audited] 10"


# ---------------------------------------------------------------- registration errors and classic usages


def test_register_for_llm_without_llm_config_is_an_invalid_state() -> None:
    proxy = autogen.UserProxyAgent("bob", code_execution_config=False)

    def f(x: int) -> int:
        return x

    with pytest.raises(InvalidStateError, match="To update a tool signature, agent must have an llm_config") as info:
        proxy.register_for_llm(description="x")(f)
    assert isinstance(info.value, AssertionError)  # what the reference raised
    assert "register_for_execution" in str(info.value)
    with pytest.raises(AssertionError, match="To update a function signature"):
        proxy.register_for_llm(description="x", api_style="function")(f)
    with pytest.raises(ValueError, match="Unsupported API style: rest"):
        proxy.register_for_llm(api_style="rest")(f)  # type: ignore[arg-type]


def test_classic_registration_styles_and_return_values(console: ScriptedIOStream) -> None:
    caller = autogen.ConversableAgent("caller", llm_config=OFFLINE)
    executor = _executor()

    class Out(BaseModel):
        x: int
        s: str = "é"

    def ret_model(x: int) -> Out:
        return Out(x=x)

    def ret_dict(x: int) -> dict:
        return {"x": x, "s": "é"}

    def ret_none(x: int) -> None:
        return None

    for func in (ret_model, ret_dict, ret_none):
        autogen.register_function(func, caller=caller, executor=executor, description=func.__name__)
    contents = [executor.execute_function({"name": f, "arguments": '{"x": 3}'})[1]["content"]
                for f in ("ret_model", "ret_dict", "ret_none")]
    assert contents == ['{"x":3,"s":"é"}', '{"x": 3, "s": "é"}', "null"]

    @caller.register_for_llm(api_style="function", description="legacy")
    def legacy(q: Annotated[str, "query"], n: int = 2) -> str:
        return q * n

    assert caller.llm_config["functions"] == [{
        "description": "legacy", "name": "legacy",
        "parameters": {"type": "object", "properties": {
            "q": {"type": "string", "description": "query"}, "n": {"type": "integer", "default": 2, "description": "n"},
        }, "required": ["q"]},
    }]
    renamed = Tool(func_or_tool=legacy, name="renamed", description="renamed tool")
    renamed.register_for_llm(caller)
    renamed.register_for_execution(executor)
    assert caller.llm_config["tools"][-1]["function"]["name"] == "renamed"
    assert executor.execute_function({"name": "renamed", "arguments": '{"q": "ab"}'})[1]["content"] == "abab"
    assert renamed.realtime_tool_schema == {"type": "function", **renamed.tool_schema["function"]}

    @tool(description="deco")
    def deco(v: Annotated[int, "value"]) -> int:
        return v + 1

    assert (deco(v=1), deco.name, deco.description) == (2, "deco", "deco")


# ---------------------------------------------------------------- schemas whose $refs resolve


class Item(BaseModel):
    name: str
    qty: int = 1


class Order(BaseModel):
    items: list[Item]
    note: Optional[str] = None


class Node(BaseModel):
    value: int
    children: list["Node"] = []


def place(
    order: Annotated[Order, "the order"],
    extra: list[Item],
    gift: Optional[Order] = None,
    tree: Optional[Node] = None,
) -> str:
    return f"{len(order.items)}+{len(extra)} {type(order.items[0]).__name__} {type(gift).__name__} {tree}"


def _validator(schema: dict[str, Any]) -> jsonschema.Draft202012Validator:
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_nested_model_parameters_give_resolvable_schemas() -> None:
    parameters = Tool(func_or_tool=place, description="Place").tool_schema["function"]["parameters"]
    # Definitions live once at the root of `parameters`, where "#/$defs/..." points.
    assert sorted(parameters["$defs"]) == ["Item", "Node", "Order"]
    assert all("$defs" not in p for p in parameters["properties"].values())
    assert parameters["properties"]["extra"] == {"items": {"$ref": "#/$defs/Item"}, "type": "array",
                                                 "description": "extra"}
    validator = _validator(parameters)
    good = {
        "order": {"items": [{"name": "pen", "qty": 2}]},
        "extra": [{"name": "ink"}],
        "gift": {"items": [], "note": None},
        "tree": {"value": 1, "children": [{"value": 2, "children": [{"value": 3}]}]},
    }
    validator.validate(good)
    for bad in (
        {**good, "extra": [{"qty": 1}]},  # list of models: name missing
        {**good, "order": {"items": [{"name": 5}]}},  # nested model: wrong type
        {**good, "gift": {"items": [{"qty": "x"}]}},  # Optional model
        {**good, "tree": {"value": 1, "children": [{"value": "deep"}]}},  # recursive model
    ):
        with pytest.raises(jsonschema.ValidationError):
            validator.validate(bad)


def test_model_arguments_reach_the_function_as_models(console: ScriptedIOStream) -> None:
    executor = _executor()
    executor.register_for_execution()(place)
    arguments = {"order": {"items": [{"name": "pen"}]}, "extra": [], "gift": {"items": []}}
    assert executor.execute_function({"name": "place", "arguments": json.dumps(arguments)})[1]["content"] == (
        "1+0 Item Order None"
    )


def test_two_parameters_sharing_a_sub_model_and_same_named_models() -> None:
    class Pair(BaseModel):
        left: Item
        right: Item

    def share(a: Pair, b: list[Pair], c: Item) -> str:
        return "ok"

    parameters = Tool(func_or_tool=share, description="x").tool_schema["function"]["parameters"]
    assert sorted(parameters["$defs"]) == ["Item", "Pair"]
    _validator(parameters).validate({"a": {"left": {"name": "l"}, "right": {"name": "r"}},
                                     "b": [{"left": {"name": "l"}, "right": {"name": "r"}}], "c": {"name": "c"}})

    other_item = type("Item", (BaseModel,), {"__annotations__": {"sku": int}})
    other_order = type("Holder", (BaseModel,), {"__annotations__": {"item": other_item}})

    def clash(mine: list[Item], theirs: other_order) -> str:  # type: ignore[valid-type]
        return "ok"

    parameters = Tool(func_or_tool=clash, description="x").tool_schema["function"]["parameters"]
    assert sorted(parameters["$defs"]) == ["Item", "Item_2"]
    validator = _validator(parameters)
    validator.validate({"mine": [{"name": "a"}], "theirs": {"item": {"sku": 1}}})
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({"mine": [{"name": "a"}], "theirs": {"item": {"name": "a"}}})
