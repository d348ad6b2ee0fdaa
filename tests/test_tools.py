"""Function/tool support: schemas, argument loading, serialization, execution and replies.

The expected schemas below were produced by the reference implementation (ag2 0.7.3,
through ``Tool(...).tool_schema``) for the same signatures, and are compared including key order.
"""

from __future__ import annotations

import asyncio
import enum
import json
import logging
from typing import Annotated, Any, Literal, Optional, Union

import pytest
from pydantic import BaseModel, Field, ValidationError

import autogen_classic.function_utils as classic_function_utils
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.tools import (
    a_execute_function,
    a_function_call_reply,
    a_tool_calls_reply,
    execute_function,
    format_json_str,
    function_call_reply,
    get_function_schema,
    get_param_annotations,
    get_typed_signature,
    load_basemodels_if_needed,
    serialize_to_str,
    tool_calls_reply,
    validate_function_map,
    wrap_function,
)


# ----------------------------------------------------------------------------- signatures


class Currency(BaseModel):
    currency: Annotated[Literal["USD", "EUR"], Field(description="Currency symbol")]
    amount: Annotated[float, Field(0, description="Amount of currency", ge=0)]


class Point(BaseModel):
    x: int
    y: int = 0


class Line(BaseModel):
    start: Point
    end: Point


class Color(str, enum.Enum):
    red = "red"
    green = "green"


def s1(a: Annotated[str, "Parameter a"], b: int = 2, c: Annotated[float, "Parameter c"] = 0.1) -> None: ...
def s2(x: int, y: str, z: float, w: bool) -> str: ...
def s3(unit: Annotated[Literal["celsius", "fahrenheit"], "Temperature unit"] = "celsius") -> str: ...
def s4(a: Optional[int] = None, b: Annotated[Optional[str], "maybe b"] = None) -> str: ...
def s5(items: list[int], names: Annotated[list[str], "the names"], m: dict[str, int]) -> str: ...
def s6(
    base_amount: Annotated[float, "Amount of currency in base_currency"],
    base_currency: Annotated[Literal["USD", "EUR"], "Base currency"] = "USD",
) -> str: ...
def s7(
    base: Annotated[Currency, "Base currency: amount and currency symbol"],
    quote_currency: Annotated[Literal["USD", "EUR"], "Quote currency symbol"] = "USD",
) -> Currency: ...
def s8(line: Line) -> str: ...
def s9() -> str: ...
def s10(u: Union[int, str], t: tuple[int, str], anything: Any) -> str: ...
def s11(color: Color = Color.red, tags: Optional[list[str]] = None) -> str: ...
def s12(a: Annotated[int, "first"], b: Annotated[int, "second"]) -> int: ...
def s13(cell: Annotated[str, "Valid Python cell to execute."]) -> str: ...
def s14(n: "int", opts: dict = {}) -> str: ...  # noqa: B006
def s15(x: int | None = 3, ys: list[float] | None = None) -> str: ...


SIGNATURES = [s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15]

EXPECTED_PARAMETERS: dict[str, dict[str, Any]] = {
    "s1": {"type": "object",
     "properties": {"a": {"type": "string", "description": "Parameter a"},
                    "b": {"type": "integer", "default": 2, "description": "b"},
                    "c": {"type": "number", "default": 0.1, "description": "Parameter c"}},
     "required": ["a"]},
    "s2": {"type": "object",
     "properties": {"x": {"type": "integer", "description": "x"},
                    "y": {"type": "string", "description": "y"},
                    "z": {"type": "number", "description": "z"},
                    "w": {"type": "boolean", "description": "w"}},
     "required": ["x", "y", "z", "w"]},
    "s3": {"type": "object",
     "properties": {"unit": {"enum": ["celsius", "fahrenheit"],
                             "type": "string",
                             "default": "celsius",
                             "description": "Temperature unit"}},
     "required": []},
    "s4": {"type": "object",
     "properties": {"a": {"anyOf": [{"type": "integer"}, {"type": "null"}],
                          "default": None,
                          "description": "a"},
                    "b": {"anyOf": [{"type": "string"}, {"type": "null"}],
                          "default": None,
                          "description": "maybe b"}},
     "required": []},
    "s5": {"type": "object",
     "properties": {"items": {"items": {"type": "integer"}, "type": "array", "description": "items"},
                    "names": {"items": {"type": "string"}, "type": "array", "description": "the names"},
                    "m": {"additionalProperties": {"type": "integer"}, "type": "object", "description": "m"}},
     "required": ["items", "names", "m"]},
    "s6": {"type": "object",
     "properties": {"base_amount": {"type": "number", "description": "Amount of currency in base_currency"},
                    "base_currency": {"enum": ["USD", "EUR"],
                                      "type": "string",
                                      "default": "USD",
                                      "description": "Base currency"}},
     "required": ["base_amount"]},
    "s7": {"type": "object",
     "properties": {"base": {"properties": {"currency": {"description": "Currency symbol",
                                                         "enum": ["USD", "EUR"],
                                                         "title": "Currency",
                                                         "type": "string"},
                                            "amount": {"default": 0,
                                                       "description": "Amount of currency",
                                                       "minimum": 0,
                                                       "title": "Amount",
                                                       "type": "number"}},
                             "required": ["currency"],
                             "title": "Currency",
                             "type": "object",
                             "description": "Base currency: amount and currency symbol"},
                    "quote_currency": {"enum": ["USD", "EUR"],
                                       "type": "string",
                                       "default": "USD",
                                       "description": "Quote currency symbol"}},
     "required": ["base"]},
    # The reference leaves "$defs" inside properties.line, where "#/$defs/Point" does not resolve;
    # the definitions are moved to the root of "parameters".
    "s8": {"type": "object",
     "properties": {"line": {"properties": {"start": {"$ref": "#/$defs/Point"},
                                            "end": {"$ref": "#/$defs/Point"}},
                             "required": ["start", "end"],
                             "title": "Line",
                             "type": "object",
                             "description": "line"}},
     "required": ["line"],
     "$defs": {"Point": {"properties": {"x": {"title": "X", "type": "integer"},
                                        "y": {"default": 0, "title": "Y", "type": "integer"}},
                         "required": ["x"],
                         "title": "Point",
                         "type": "object"}}},
    "s9": {"type": "object", "properties": {}, "required": []},
    "s10": {"type": "object",
     "properties": {"u": {"anyOf": [{"type": "integer"}, {"type": "string"}], "description": "u"},
                    "t": {"maxItems": 2,
                          "minItems": 2,
                          "prefixItems": [{"type": "integer"}, {"type": "string"}],
                          "type": "array",
                          "description": "t"},
                    "anything": {"description": "anything"}},
     "required": ["u", "t", "anything"]},
    "s11": {"type": "object",
     "properties": {"color": {"enum": ["red", "green"],
                              "title": "Color",
                              "type": "string",
                              "default": "red",
                              "description": "color"},
                    "tags": {"anyOf": [{"items": {"type": "string"}, "type": "array"}, {"type": "null"}],
                             "default": None,
                             "description": "tags"}},
     "required": []},
    "s12": {"type": "object",
     "properties": {"a": {"type": "integer", "description": "first"},
                    "b": {"type": "integer", "description": "second"}},
     "required": ["a", "b"]},
    "s13": {"type": "object",
     "properties": {"cell": {"type": "string", "description": "Valid Python cell to execute."}},
     "required": ["cell"]},
    "s14": {"type": "object",
     "properties": {"n": {"type": "integer", "description": "n"},
                    "opts": {"additionalProperties": True,
                             "type": "object",
                             "default": {},
                             "description": "opts"}},
     "required": ["n"]},
    "s15": {"type": "object",
     "properties": {"x": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": 3, "description": "x"},
                    "ys": {"anyOf": [{"items": {"type": "number"}, "type": "array"}, {"type": "null"}],
                           "default": None,
                           "description": "ys"}},
     "required": []},
}


# ----------------------------------------------------------------------------- schemas


@pytest.mark.parametrize("func", SIGNATURES, ids=[f.__name__ for f in SIGNATURES])
def test_schema_matches_reference(func: Any) -> None:
    schema = get_function_schema(func, description=f"fn {func.__name__}")
    expected = {
        "type": "function",
        "function": {"description": f"fn {func.__name__}", "name": func.__name__,
                     "parameters": EXPECTED_PARAMETERS[func.__name__]},
    }
    assert schema == expected
    # Same key order too, so the JSON sent to the model is byte-identical.
    assert json.dumps(schema) == json.dumps(expected)


def test_schema_name_override_and_enum_default_kept_as_given() -> None:
    schema = get_function_schema(s11, name="paint", description="Paint it.")
    assert schema["function"]["name"] == "paint"
    assert schema["function"]["description"] == "Paint it."
    assert schema["function"]["parameters"]["properties"]["color"]["default"] is Color.red


def test_schema_requires_annotations_for_parameters_without_default() -> None:
    def f(a, b, c: int, d=1):  # type: ignore[no-untyped-def]
        return a

    with pytest.raises(TypeError) as info:
        get_function_schema(f, description="f")
    assert str(info.value) == (
        "All parameters of the function 'f' without default values must be annotated. "
        "The annotations are missing for the following parameters: 'a', 'b'"
    )


def test_schema_warns_and_skips_unannotated_defaults(caplog: pytest.LogCaptureFixture) -> None:
    def f(a: int, b=1, c=2):  # type: ignore[no-untyped-def]
        return a

    with caplog.at_level(logging.WARNING):
        schema = get_function_schema(f, description="f")
    assert schema["function"]["parameters"] == {
        "type": "object", "properties": {"a": {"type": "integer", "description": "a"}}, "required": ["a"],
    }
    messages = [r.getMessage() for r in caplog.records]
    assert "The following parameters of the function 'f' with default values are not annotated: 'b', 'c'." in messages
    assert any("The return type of the function 'f' is not annotated" in m for m in messages)


def test_schema_no_return_warning_for_annotated_none(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        get_function_schema(s1, description="f")
    assert not any("return type" in r.getMessage() for r in caplog.records)


def test_schema_rejects_non_description_metadata_and_bad_description() -> None:
    def f(a: Annotated[int, 42]) -> int:
        return a

    with pytest.raises(ValueError, match="parameter a"):
        get_function_schema(f, description="f")
    with pytest.raises(TypeError, match="description must be a str"):
        get_function_schema(s9, description=None)  # type: ignore[arg-type]


def test_schema_accepts_pydantic_field_description() -> None:
    def f(n: Annotated[int, Field(description="how many", ge=1)]) -> int:
        return n

    props = get_function_schema(f, description="f")["function"]["parameters"]["properties"]
    assert props == {"n": {"minimum": 1, "type": "integer", "description": "how many"}}


def test_schema_of_method_and_variadics() -> None:
    class Calc:
        def add(self, a: Annotated[int, "left"], *rest: int, **options: str) -> int:
            return a

    params = get_function_schema(Calc().add, description="add")["function"]["parameters"]
    assert params == {"type": "object", "properties": {"a": {"type": "integer", "description": "left"}},
                      "required": ["a"]}


def test_typed_signature_resolves_string_annotations() -> None:
    sig = get_typed_signature(s14)
    assert sig.parameters["n"].annotation is int
    assert get_param_annotations(sig) == {"n": int, "opts": dict}
    assert get_param_annotations(get_typed_signature(lambda a, b=1: a)) == {}


def test_classic_import_path_reexports() -> None:
    assert classic_function_utils.get_function_schema is get_function_schema
    assert classic_function_utils.serialize_to_str is serialize_to_str
    assert classic_function_utils.load_basemodels_if_needed is load_basemodels_if_needed


# ----------------------------------------------------------------------------- arguments and returns


def test_load_basemodels_converts_dicts_and_keeps_instances() -> None:
    seen: list[Any] = []

    @load_basemodels_if_needed
    def f(base: Annotated[Currency, "base"], other: Optional[Point] = None, n: int = 0) -> str:
        seen.append((base, other, n))
        return "ok"

    assert f(base={"currency": "EUR", "amount": 2}, other={"x": 1}, n=3) == "ok"
    assert seen[-1] == (Currency(currency="EUR", amount=2), Point(x=1, y=0), 3)
    instance = Currency(currency="USD", amount=1)
    f(base=instance)
    assert seen[-1][0] is instance and seen[-1][1] is None
    with pytest.raises(ValidationError):
        f(base={"currency": "GBP"})


def test_load_basemodels_async_stays_async() -> None:
    @load_basemodels_if_needed
    async def f(p: Point) -> int:
        return p.x + p.y

    assert asyncio.iscoroutinefunction(f)
    assert asyncio.run(f(p={"x": 2, "y": 5})) == 7


class _Opaque:
    def __str__(self) -> str:
        return "<opaque>"


@pytest.mark.parametrize(
    "value, text",
    [
        ("plain", "plain"),
        (Currency(currency="USD", amount=1.5), '{"currency":"USD","amount":1.5}'),
        ({"ü": [1, None, True]}, '{"ü": [1, null, true]}'),
        (3, "3"),
        (None, "null"),
        (_Opaque(), "<opaque>"),
    ],
)
def test_serialize_to_str(value: Any, text: str) -> None:
    assert serialize_to_str(value) == text


def test_wrap_function_sync_and_async() -> None:
    def convert(base: Annotated[Currency, "base"], quote: Literal["USD", "EUR"] = "USD") -> Currency:
        """Convert money."""
        return Currency(currency=quote, amount=base.amount * 2)

    async def total(p: Point, scale: int = 1) -> dict[str, int]:
        return {"total": (p.x + p.y) * scale}

    wrapped = wrap_function(convert)
    assert (wrapped.__name__, wrapped.__doc__) == ("convert", "Convert money.")
    assert wrapped._origin is convert  # type: ignore[attr-defined]
    assert not asyncio.iscoroutinefunction(wrapped)
    assert wrapped(base={"currency": "EUR", "amount": 3}, quote="EUR") == '{"currency":"EUR","amount":6.0}'

    a_wrapped = wrap_function(total, inject_params={"scale": 10})
    assert asyncio.iscoroutinefunction(a_wrapped)
    assert asyncio.run(a_wrapped(p={"x": 1, "y": 2})) == '{"total": 30}'


# ----------------------------------------------------------------------------- execution


def add(a: int, b: int = 1) -> int:
    return a + b


def boom(x: str) -> str:
    raise ValueError("bad x " + x)


async def a_add(a: int, b: int) -> int:
    await asyncio.sleep(0)
    return a + b


FUNCTIONS = {"add": add, "boom": boom, "a_add": a_add, "echo": lambda text: text, "nothing": lambda: None}


def executing(name: str, call_id: Any, arguments: str) -> str:
    return f"\n>>>>>>>> EXECUTING FUNCTION {name}...\nCall ID: {call_id}\nInput arguments: {arguments}\n"


def executed(name: str, call_id: Any, arguments: str, output: Any) -> str:
    """AG2 Classic 0.14.1's block after every execution outside a silent chat (0.7.3 printed it when verbose)."""
    return f"\n>>>>>>>> EXECUTED FUNCTION {name}...\nCall ID: {call_id}\nInput arguments: {arguments}\nOutput:\n{output}\n"


def test_execute_function_success_prints_the_classic_line(
    console: ScriptedIOStream, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("ANSI_COLORS_DISABLED", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    ok, result = execute_function(FUNCTIONS, {"name": "add", "arguments": '{"a": 2, "b": 3}'}, call_id="c1")
    assert (ok, result) == (True, {"name": "add", "role": "function", "content": 5})
    assert console.output == executing("add", "c1", "{'a': 2, 'b': 3}") + executed("add", "c1", "{'a': 2, 'b': 3}", 5)
    assert console.raw_output == (
        "\x1b[35m" + executing("add", "c1", "{'a': 2, 'b': 3}")[:-1] + "\x1b[0m\n"
        + "\x1b[35m" + executed("add", "c1", "{'a': 2, 'b': 3}", 5)[:-1] + "\x1b[0m\n"
    )


def test_execute_function_not_found(console: ScriptedIOStream) -> None:
    assert execute_function(FUNCTIONS, {"name": "nope", "arguments": "{}"}) == (
        False, {"name": "nope", "role": "function", "content": "Error: Function nope not found."})
    assert console.output == executed("nope", None, "{}", "Error: Function nope not found.")


def test_execute_function_bad_json(console: ScriptedIOStream) -> None:
    ok, result = execute_function(FUNCTIONS, {"name": "add", "arguments": '{"a": 2, '})
    assert not ok
    assert result["content"] == (
        "Error: Expecting property name enclosed in double quotes: line 1 column 10 (char 9)\n"
        " The argument must be in JSON format."
    )
    ok, result = execute_function(FUNCTIONS, {"name": "add", "arguments": "[1, 2]"})
    assert not ok and result["content"].endswith("got list\n The argument must be in JSON format.")
    # Nothing is executed; the failure is shown without arguments, as AG2 Classic 0.14.1 shows it.
    assert console.output == executed(
        "add", None, "None",
        "Error: Expecting property name enclosed in double quotes: line 1 column 10 (char 9)\n"
        " The argument must be in JSON format.",
    ) + executed("add", None, "None", result["content"])


def test_execute_function_tool_raising_and_bad_arguments(console: ScriptedIOStream) -> None:
    assert execute_function(FUNCTIONS, {"name": "boom", "arguments": '{"x": "q"}'}, call_id="c4") == (
        False, {"name": "boom", "role": "function", "content": "Error: bad x q"})
    _, result = execute_function(FUNCTIONS, {"name": "add", "arguments": '{"c": 1}'})
    assert result["content"] == "Error: add() got an unexpected keyword argument 'c'"
    _, result = execute_function(FUNCTIONS, {"name": "add"})
    assert result["content"] == "Error: add() missing 1 required positional argument: 'a'"
    assert console.output == (
        executing("boom", "c4", "{'x': 'q'}") + executed("boom", "c4", "{'x': 'q'}", "Error: bad x q")
        + executing("add", None, "{'c': 1}")
        + executed("add", None, "{'c': 1}", "Error: add() got an unexpected keyword argument 'c'")
        + executing("add", None, "{}")
        + executed("add", None, "{}", "Error: add() missing 1 required positional argument: 'a'")
    )


def test_execute_function_repairs_newlines_and_empty_arguments(console: ScriptedIOStream) -> None:
    ok, result = execute_function(FUNCTIONS, {"name": "echo", "arguments": '{\n"text": "line1\nline2\tx"\n}'})
    assert (ok, result["content"]) == (True, "line1\nline2\tx")
    assert execute_function(FUNCTIONS, {"name": "nothing", "arguments": ""}) == (
        True, {"name": "nothing", "role": "function", "content": None})


def test_execute_function_verbose(console: ScriptedIOStream) -> None:
    execute_function(FUNCTIONS, {"name": "echo", "arguments": '{"text": "hi"}'}, call_id="v", verbose=True)
    execute_function(FUNCTIONS, {"name": "nf", "arguments": '{"a": 1}'}, call_id="v", verbose=True)
    assert console.output == (
        executing("echo", "v", "{'text': 'hi'}")
        + "\n>>>>>>>> EXECUTED FUNCTION echo...\nCall ID: v\nInput arguments: {'text': 'hi'}\nOutput:\nhi\n"
        + "\n>>>>>>>> EXECUTED FUNCTION nf...\nCall ID: v\nInput arguments: {}\nOutput:\n"
          "Error: Function nf not found.\n"
    )


def test_execute_function_prints_to_given_iostream(console: ScriptedIOStream) -> None:
    other = ScriptedIOStream()
    execute_function(FUNCTIONS, {"name": "add", "arguments": '{"a": 1}'}, call_id="z", iostream=other)
    assert other.output == executing("add", "z", "{'a': 1}") + executed("add", "z", "{'a': 1}", 2)
    assert console.output == ""


def test_sync_execute_runs_async_function_to_completion(console: ScriptedIOStream) -> None:
    assert execute_function(FUNCTIONS, {"name": "a_add", "arguments": '{"a": 1, "b": 2}'}) == (
        True, {"name": "a_add", "role": "function", "content": 3})


def test_a_execute_function_awaits_async_and_calls_sync(console: ScriptedIOStream) -> None:
    async def run() -> list[Any]:
        return [
            await a_execute_function(FUNCTIONS, {"name": "a_add", "arguments": '{"a": 1, "b": 2}'}, call_id="x"),
            await a_execute_function(FUNCTIONS, {"name": "add", "arguments": '{"a": 1, "b": 2}'}, call_id="y"),
            await a_execute_function(FUNCTIONS, {"name": "boom", "arguments": '{"x": "1"}'}),
            await a_execute_function(FUNCTIONS, {"name": "gone"}),
        ]

    assert asyncio.run(run()) == [
        (True, {"name": "a_add", "role": "function", "content": 3}),
        (True, {"name": "add", "role": "function", "content": 3}),
        (False, {"name": "boom", "role": "function", "content": "Error: bad x 1"}),
        (False, {"name": "gone", "role": "function", "content": "Error: Function gone not found."}),
    ]
    assert console.output == (
        executing("a_add", "x", "{'a': 1, 'b': 2}") + executed("a_add", "x", "{'a': 1, 'b': 2}", 3)
        + executing("add", "y", "{'a': 1, 'b': 2}") + executed("add", "y", "{'a': 1, 'b': 2}", 3)
        + executing("boom", None, "{'x': '1'}") + executed("boom", None, "{'x': '1'}", "Error: bad x 1")
        + executed("gone", None, "{}", "Error: Function gone not found.")
    )


# ----------------------------------------------------------------------------- replies

TOOL_CALLS = [
    {"id": "t1", "type": "function", "function": {"name": "add", "arguments": '{"a": 1, "b": 2}'}},
    {"id": "t2", "type": "function", "function": {"name": "missing", "arguments": "{}"}},
    {"type": "function", "function": {"name": "a_add", "arguments": '{"a": 5, "b": 2}'}},
    {"id": "t4", "type": "function", "function": {"name": "boom", "arguments": '{"x": "z"}'}},
    {"id": "t5", "type": "function", "function": {"name": "nothing", "arguments": "{}"}},
]


def test_tool_calls_reply_multiple_calls(console: ScriptedIOStream) -> None:
    assert tool_calls_reply(FUNCTIONS, TOOL_CALLS) == {
        "role": "tool",
        "tool_responses": [
            {"tool_call_id": "t1", "role": "tool", "content": 3},
            {"tool_call_id": "t2", "role": "tool", "content": "Error: Function missing not found."},
            {"role": "tool", "content": 7},
            {"tool_call_id": "t4", "role": "tool", "content": "Error: bad x z"},
            {"tool_call_id": "t5", "role": "tool", "content": ""},
        ],
        "content": "3\n\nError: Function missing not found.\n\n7\n\nError: bad x z\n\n",
    }
    assert console.output == (
        executing("add", "t1", "{'a': 1, 'b': 2}") + executed("add", "t1", "{'a': 1, 'b': 2}", 3)
        + executed("missing", "t2", "{}", "Error: Function missing not found.")
        + executing("a_add", None, "{'a': 5, 'b': 2}") + executed("a_add", None, "{'a': 5, 'b': 2}", 7)
        + executing("boom", "t4", "{'x': 'z'}") + executed("boom", "t4", "{'x': 'z'}", "Error: bad x z")
        + executing("nothing", "t5", "{}") + executed("nothing", "t5", "{}", None)  # the returned value, as 0.14.1
    )


def test_tool_calls_reply_without_calls() -> None:
    assert tool_calls_reply(FUNCTIONS, []) is None
    assert tool_calls_reply(FUNCTIONS, None) is None
    assert asyncio.run(a_tool_calls_reply(FUNCTIONS, [])) is None


def test_sync_tool_calls_reply_inside_running_loop(console: ScriptedIOStream) -> None:
    async def run() -> Any:
        return tool_calls_reply(FUNCTIONS, TOOL_CALLS[2:3])

    assert asyncio.run(run())["tool_responses"] == [{"role": "tool", "content": 7}]
    assert console.output == executing("a_add", None, "{'a': 5, 'b': 2}") + executed("a_add", None, "{'a': 5, 'b': 2}", 7)


def test_a_tool_calls_reply_runs_concurrently_and_keeps_order(console: ScriptedIOStream) -> None:
    async def main() -> Any:
        first_started = asyncio.Event()

        async def waits_for_second() -> str:
            first_started.set()
            await second_done.wait()  # completes only if the second call runs meanwhile
            return "first"

        async def second() -> str:
            await first_started.wait()
            second_done.set()
            return "second"

        second_done = asyncio.Event()
        functions = {**FUNCTIONS, "first": waits_for_second, "second": second}
        calls = [{"id": "a", "function": {"name": "first", "arguments": "{}"}},
                 {"id": "b", "function": {"name": "second", "arguments": "{}"}},
                 {"id": "c", "function": {"name": "add", "arguments": '{"a": 1}'}},
                 {"function": {"name": "nope", "arguments": "{}"}}]
        return await asyncio.wait_for(a_tool_calls_reply(functions, calls), timeout=10)

    assert asyncio.run(main()) == {
        "role": "tool",
        "tool_responses": [
            {"tool_call_id": "a", "role": "tool", "content": "first"},
            {"tool_call_id": "b", "role": "tool", "content": "second"},
            {"tool_call_id": "c", "role": "tool", "content": 2},
            {"role": "tool", "content": "Error: Function nope not found."},
        ],
        "content": "first\n\nsecond\n\n2\n\nError: Function nope not found.",
    }
    # Each execution is announced when it starts and when it ends: "second" ends while "first" waits.
    assert console.output == (
        executing("first", "a", "{}") + executing("second", "b", "{}") + executed("second", "b", "{}", "second")
        + executing("add", "c", "{'a': 1}") + executed("add", "c", "{'a': 1}", 2)
        + executed("nope", None, "{}", "Error: Function nope not found.") + executed("first", "a", "{}", "first")
    )


def test_function_call_reply_sync_and_async(console: ScriptedIOStream) -> None:
    message = {"role": "assistant", "content": None, "function_call": {"name": "add", "arguments": '{"a": 4}'}}
    assert function_call_reply(FUNCTIONS, message) == {"name": "add", "role": "function", "content": 5}
    assert function_call_reply(FUNCTIONS, {"role": "assistant", "content": "hi"}) is None
    assert function_call_reply(FUNCTIONS, {"role": "assistant", "content": None, "function_call": None}) is None

    a_message = {"role": "assistant", "content": None, "id": "fid",
                 "function_call": {"name": "a_add", "arguments": '{"a": 4, "b": 1}'}}
    assert asyncio.run(a_function_call_reply(FUNCTIONS, a_message)) == {
        "name": "a_add", "role": "function", "content": 5}
    assert asyncio.run(a_function_call_reply(FUNCTIONS, {"role": "assistant", "function_call": None})) is None
    assert console.output == (
        executing("add", None, "{'a': 4}") + executed("add", None, "{'a': 4}", 5)
        + executing("a_add", "fid", "{'a': 4, 'b': 1}") + executed("a_add", "fid", "{'a': 4, 'b': 1}", 5)
    )


# ----------------------------------------------------------------------------- helpers


def test_validate_function_map() -> None:
    validate_function_map({"add": add, "w": wrap_function(add)})
    validate_function_map({})
    with pytest.raises(TypeError, match=r"function_map must be a dict .* got list"):
        validate_function_map([add])
    with pytest.raises(TypeError, match=r"function_map keys must be function names \(str\); key 3 is a int"):
        validate_function_map({3: add})
    with pytest.raises(TypeError, match=r"function_map\['x'\] must be a callable"):
        validate_function_map({"add": add, "x": "not callable"})


@pytest.mark.parametrize(
    "raw, parsed",
    [
        ('{\n"tool": "python",\n"query": "print(1)\nprint(2)"\n}', {"tool": "python", "query": "print(1)\nprint(2)"}),
        ('{\n  "location": "Boston, MA"\n}', {"location": "Boston, MA"}),
        ('{"args": "a\na\ta"}', {"args": "a\na\ta"}),
        ('{"a": "say \\"hi\\"\n"}', {"a": 'say "hi"\n'}),
        ('{"a": "x\\\\",\n"b": "y\nz"}', {"a": "x\\", "b": "y\nz"}),
        ('{"a": "\r"}', {"a": "\r"}),
    ],
)
def test_format_json_str(raw: str, parsed: dict[str, Any]) -> None:
    assert json.loads(format_json_str(raw)) == parsed


def test_an_async_tool_run_from_sync_code_raises_its_own_error_without_a_stray_context() -> None:
    """The error of a coroutine run from sync code carries no leftover of the check for a running loop."""
    from autogen_classic.agentchat.termination.base import run_sync
    from autogen_classic.tools.execution import run_coroutine_sync

    async def failing() -> str:
        raise ValueError("the tool failed")

    for runner in (run_coroutine_sync, run_sync):
        with pytest.raises(ValueError, match="the tool failed") as info:
            runner(failing())
        assert info.value.__context__ is None and info.value.__cause__ is None
