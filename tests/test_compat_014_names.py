"""Names AG2 0.14 code imports, at their 0.14 paths, with the behaviour observed on AG2 Classic 0.14.1.

Exceptions under both names, UpdateSystemMessage and ``functions=``, json_utils, Toolkit, Tool's
``parameters_json_schema``, LLMMessageType, content_str's newer content types, import_utils' test
helpers, the lower-level dependency-injection names, normilize_message_to_oai, the current cache,
format_chat_result.
"""

from __future__ import annotations

import asyncio
import inspect
import sys
import warnings
from typing import Annotated, Any

import pytest
from pydantic import BaseModel

import autogen_classic as autogen
from autogen_classic import ConversableAgent, GroupChat
from autogen_classic.agentchat import agent as agent_module
from autogen_classic.agentchat.chat import ChatResult, CostDict
from autogen_classic.agentchat.conversable_agent import UpdateSystemMessage, normilize_message_to_oai
from autogen_classic.agentchat.groupchat import SELECT_SPEAKER_PROMPT_TEMPLATE
from autogen_classic.cache import Cache
from autogen_classic.code_utils import content_str
from autogen_classic.coding.utils import format_chat_result
from autogen_classic.exception_utils import (
    AgentNameConflict,
    AgentNameConflictError,
    InvalidCarryOverType,
    InvalidCarryOverTypeError,
    NoEligibleSpeaker,
    NoEligibleSpeakerError,
    SenderRequired,
    SenderRequiredError,
    UndefinedNextAgent,
    UndefinedNextAgentError,
)
from autogen_classic.import_utils import (
    ModuleInfo,
    PatchCallable,
    PatchClass,
    PatchObject,
    PatchProperty,
    PatchStatic,
    is_coroutine_callable,
    patch_object,
    require_optional_import,
    run_for_optional_imports,
)
from autogen_classic.json_utils import resolve_json_references
from autogen_classic.tools import Tool, Toolkit, tool
from autogen_classic.tools.dependency_injection import FastDepends, inject, on, remove_params

ABSENT = "autogen_classic_absent_module_for_tests"


# ----------------------------------------------------------------- exceptions
@pytest.mark.parametrize(
    ("new", "old", "message"),
    [
        (AgentNameConflictError, AgentNameConflict, "Found multiple agents with the same name."),
        (NoEligibleSpeakerError, NoEligibleSpeaker, "No eligible speakers."),
        (SenderRequiredError, SenderRequired, "Sender is required but not provided."),
        (InvalidCarryOverTypeError, InvalidCarryOverType,
         "Carryover should be a string or a list of strings. Not adding carryover to the message."),
        (UndefinedNextAgentError, UndefinedNextAgent,
         "The provided agents list does not overlap with agents in the group."),
    ],
)
def test_each_exception_has_both_names(new: type, old: type, message: str) -> None:
    assert new is old and new.__bases__ == (Exception,)
    assert str(new()) == message and str(old("custom")) == "custom"
    for raised, caught in ((new, old), (old, new)):
        with pytest.raises(caught):
            raise raised()
    assert getattr(autogen, new.__name__) is new


def test_the_package_raises_the_014_error_types() -> None:
    a, b = ConversableAgent("a", llm_config=False), ConversableAgent("a", llm_config=False)
    group = GroupChat([a], messages=[])
    group.agents.append(b)  # 0.14 refuses duplicate names when the group chat is built; added later they conflict
    with pytest.raises(AgentNameConflictError):
        group.agent_by_name("a", raise_on_name_conflict=True)
    with pytest.raises(SenderRequiredError):
        a.register_reply("someone", lambda *args, **kwargs: (True, "x"))
        a.generate_reply(messages=[{"role": "user", "content": "hi"}], sender=None)


# ----------------------------------------------------------------- UpdateSystemMessage and functions=
def test_update_system_message_from_a_template_and_a_function() -> None:
    def describe(agent: Any, messages: list[dict[str, Any]]) -> str:
        return f"You are {agent.name}; {len(messages)} messages so far."

    bob = ConversableAgent(
        "bob", llm_config=False, default_auto_reply="ok", context_variables={"city": "Oslo"},
        update_agent_state_before_reply=[UpdateSystemMessage(describe), UpdateSystemMessage("You work in {city}.")],
    )
    assert bob.system_message == "You are a helpful AI Assistant."
    assert bob.generate_reply(messages=[{"role": "user", "content": "q"}]) == "ok"
    assert bob.system_message == "You work in Oslo."  # the later update wins

    one = ConversableAgent("one", llm_config=False, default_auto_reply="ok",
                           update_agent_state_before_reply=UpdateSystemMessage(describe))
    one.generate_reply(messages=[{"role": "user", "content": "q"}, {"role": "user", "content": "r"}])
    assert one.system_message == "You are one; 2 messages so far."

    unknown = ConversableAgent("u", llm_config=False, default_auto_reply="ok",
                               update_agent_state_before_reply=[UpdateSystemMessage("Hello {nobody}")])
    unknown.generate_reply(messages=[{"role": "user", "content": "q"}])
    assert unknown.system_message == "Hello {nobody}"  # kept as written, as in 0.14


def test_update_system_message_checks_its_argument() -> None:
    def untyped(agent, messages):  # type: ignore[no-untyped-def]
        return "x"

    with pytest.raises(ValueError, match="must accept two parameters"):
        UpdateSystemMessage(lambda agent: "x")
    with pytest.raises(ValueError, match="must return a string"):
        UpdateSystemMessage(untyped)
    with pytest.raises(ValueError, match="must be either a string or a callable"):
        UpdateSystemMessage(3)  # type: ignore[arg-type]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        UpdateSystemMessage("no fields")
    assert [str(w.message) for w in caught] == ["Update function string contains no variables. This is probably unintended."]
    with pytest.raises(ValueError, match="functions must be a list of callables"):
        ConversableAgent("x", llm_config=False, update_agent_state_before_reply="text")
    assert autogen.UpdateSystemMessage is autogen.agentchat.UpdateSystemMessage is UpdateSystemMessage


def test_functions_are_offered_to_the_model(scripted_server: Any) -> None:
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    agent = ConversableAgent("calc", llm_config=scripted_server.llm_config(), functions=[add])
    assert [t["function"]["name"] for t in agent.llm_config["tools"]] == ["add"]
    assert agent.llm_config["tools"][0]["function"]["description"] == "Add two numbers."
    assert "add" not in agent.function_map  # offered to the model only, as in 0.14
    with pytest.raises(AssertionError, match="agent must have an llm_config"):
        ConversableAgent("no_model", llm_config=False, functions=add)
    with pytest.raises(TypeError, match="Functions must be a callable or a list of callables"):
        ConversableAgent("bad", llm_config=False, functions=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="All elements in the functions list must be callable"):
        ConversableAgent("bad", llm_config=False, functions=[3])  # type: ignore[list-item]


# ----------------------------------------------------------------- json_utils
def test_resolve_json_references_inlines_local_references() -> None:
    class Inner(BaseModel):
        n: int

    class Outer(BaseModel):
        inner: Inner
        items: list[Inner]

    schema = Outer.model_json_schema()
    resolved = resolve_json_references(schema)
    assert resolved["properties"]["inner"] == schema["$defs"]["Inner"]
    assert resolved["properties"]["items"]["items"] == schema["$defs"]["Inner"]
    assert "$defs" in resolved and "$ref" in str(schema) and "$ref" not in str(resolved["properties"])
    # The whole node is replaced, also at the top; pointers are unescaped.
    assert resolve_json_references({"$ref": "#/$defs/A", "description": "x", "$defs": {"A": {"type": "string"}}}) == {
        "type": "string"}
    assert resolve_json_references({"p": {"$ref": "#/$defs/a~1b"}, "$defs": {"a/b": {"type": "null"}}})["p"] == {
        "type": "null"}


def test_resolve_json_references_errors() -> None:
    with pytest.raises(ValueError, match="Unresolvable JSON pointer: '\\$defs/Missing'"):
        resolve_json_references({"p": {"$ref": "#/$defs/Missing"}, "$defs": {}})
    with pytest.raises(RecursionError, match="refers to itself"):
        resolve_json_references({"p": {"$ref": "#/$defs/N"}, "$defs": {"N": {"properties": {"n": {"$ref": "#/$defs/N"}}}}})
    with pytest.raises(AttributeError, match="needs a JSON schema as a dict"):
        resolve_json_references("x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="only references inside the schema"):
        resolve_json_references({"p": {"$ref": "https://example.org/s.json"}})


# ----------------------------------------------------------------- Toolkit and Tool
def test_toolkit_registers_its_tools(scripted_server: Any) -> None:
    @tool(description="Add two numbers.")
    def add(a: int, b: int) -> int:
        return a + b

    @tool()
    def neg(a: int) -> int:
        """Negate."""
        return -a

    kit = Toolkit([add, neg])
    assert len(kit) == 2 and kit.tools == [add, neg] and kit.get_tool("neg") is neg
    model = ConversableAgent("model", llm_config=scripted_server.llm_config())
    runner = ConversableAgent("runner", llm_config=False)
    kit.register_for_llm(model)
    kit.register_for_execution(runner)
    assert [t["function"]["name"] for t in model.llm_config["tools"]] == ["add", "neg"]
    assert runner.function_map["add"](a=2, b="3") == "5"  # converted in, serialized out
    kit.remove_tool("neg")
    kit.set_tool(Tool(name="neg2", func_or_tool=neg))
    assert [t.name for t in kit.tools] == ["add", "neg2"]
    with pytest.raises(ValueError, match="Tool 'nope' not found in Toolkit."):
        kit.get_tool("nope")
    with pytest.raises(ValueError, match="Tool 'nope' not found in Toolkit."):
        kit.remove_tool("nope")
    with pytest.raises(AttributeError, match=r"tools\[0\] must be a Tool"):
        Toolkit(["add"])  # type: ignore[list-item]


def test_tool_with_an_explicit_parameters_schema(scripted_server: Any) -> None:
    def search(query: str, limit: int = 5) -> str:
        return f"{query}:{limit}"

    schema = {"type": "object", "properties": {"query": {"type": "string", "description": "words"}},
              "required": ["query"]}
    searcher = Tool(name="search", description="Search.", func_or_tool=search, parameters_json_schema=schema)
    agent = ConversableAgent("a", llm_config=scripted_server.llm_config())
    searcher.register_for_llm(agent)
    assert agent.llm_config["tools"] == [
        {"type": "function", "function": {"name": "search", "description": "Search.", "parameters": schema}}]
    assert searcher(query="x") == "x:5"
    with pytest.raises(TypeError, match="parameters_json_schema must be a JSON schema as a dict"):
        Tool(func_or_tool=search, parameters_json_schema="{}")  # type: ignore[arg-type]


# ----------------------------------------------------------------- small names
def test_llm_message_type_cost_dict_and_the_prompt_template() -> None:
    assert agent_module.LLMMessageType == dict[str, Any]
    from autogen_classic.types import LLMMessageType

    assert agent_module.LLMMessageType is LLMMessageType
    assert agent_module.Tool.__name__ == "Tool"  # the classic module's type variable
    cost: CostDict = {"usage_including_cached_inference": {}, "usage_excluding_cached_inference": {}}
    assert set(CostDict.__annotations__) == set(cost)
    a, b = ConversableAgent("a", llm_config=False), ConversableAgent("b", llm_config=False)
    assert GroupChat([a, b]).select_speaker_prompt_template == SELECT_SPEAKER_PROMPT_TEMPLATE
    from autogen_classic.agentchat import chat

    assert chat.content_str is content_str


# Observed on AG2 Classic 0.14.1 (ag2 0.7.3 joined the parts with "" instead of a newline).
CONTENT_CASES = [
    (None, ""), ("", ""), ("plain", "plain"), ([], ""),
    ([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}], "a\nb"),
    ([{"type": "text", "text": "```py\nprint(2)\n```"}, {"type": "image_url", "image_url": {"url": "x"}}],
     "```py\nprint(2)\n```\n<image>"),
    ([{"type": "input_text", "text": "hi"}, {"type": "input_image", "image_url": "u"}], "hi\n<image>"),
    ([{"type": "function"}], "<function>"), ([{"type": "tool_call", "name": "add"}], "<function: add>"),
    ([{"type": "tool_calls", "name": "f", "x": 1}], "<function: f>"),
    ([{"type": "apply_patch_call", "operation": {"type": "update_file", "path": "a.py", "diff": "+x"},
       "status": "completed"}], "<apply_patch_call: update_file on a.py (status: completed) diff: +x>"),
    ([{"type": "apply_patch_call"}],
     "<apply_patch_call: unknown_operation on unknown_path (status: unknown_status) diff: unknown_diff>"),
    ([{"type": "shell_call", "call_id": "c1", "action": {"commands": ["ls", "pwd"]}}],
     "[shell_call id=c1 commands=['ls', 'pwd']]"),
    ([{"type": "shell_call"}], "[shell_call id=<unknown> commands=[]]"),
    ([{"type": "text", "text": ""}, {"type": "text", "text": ""}], "\n"),
]


@pytest.mark.parametrize(("content", "text"), CONTENT_CASES)
def test_content_str_as_in_014(content: Any, text: str) -> None:
    assert content_str(content) == text


@pytest.mark.parametrize(
    ("content", "error", "message"),
    [
        (5, TypeError, "content must be None, str, or list, but got <class 'int'>"),
        ({"type": "text"}, TypeError, "content must be None, str, or list, but got <class 'dict'>"),
        ([{"type": "audio"}], ValueError, "Wrong content format: unknown type audio within the content"),
        ([{"text": "no type"}], AssertionError, "Wrong content format. Missing 'type' key in content's dict."),
        (["str item"], TypeError, "Wrong content format: every element should be dict if the content is a list."),
        ([{"type": "text"}], KeyError, "'text'"),
    ],
)
def test_content_str_errors_as_in_014(content: Any, error: type, message: str) -> None:
    with pytest.raises(error) as info:
        content_str(content)
    assert str(info.value) == message


# ----------------------------------------------------------------- import_utils
def test_module_info_parses_bounds_and_checks_versions() -> None:
    info = ModuleInfo.from_str("openai>=1.0,<3")
    assert (info.name, info.min_version, info.min_inclusive, info.max_version, info.max_inclusive) == (
        "openai", "1.0", True, "3", False)
    assert repr(info) == "openai>=1.0<3" and repr(ModuleInfo.from_str("c")) == "c"
    assert ModuleInfo(ABSENT).is_in_sys_modules() == f"'{ABSENT}' is not installed."
    import pydantic

    version = pydantic.__version__
    assert ModuleInfo("pydantic", min_version="1.0").is_in_sys_modules() is None
    assert ModuleInfo("pydantic", min_version=version, min_inclusive=True).is_in_sys_modules() is None
    assert ModuleInfo("pydantic", min_version=version).is_in_sys_modules() == (
        f"'pydantic' is installed, but the installed version {version} is too low (required 'pydantic>{version}').")
    assert "too high" in str(ModuleInfo("pydantic", max_version="1.0").is_in_sys_modules())
    with pytest.raises(ValueError, match="Invalid module information"):
        ModuleInfo.from_str("x>=")


def test_run_for_optional_imports_marks_and_fails_without_the_module() -> None:
    @run_for_optional_imports([ABSENT], "long-context")
    def needs_absent() -> int:
        return 1

    @run_for_optional_imports("json", "long-context")
    async def needs_json() -> int:
        return 2

    assert [m.name for m in needs_absent.pytestmark] == ["long_context"]
    with pytest.raises(ImportError, match=f"Missing module: {ABSENT}. Install using 'pip install autogen-classic"):
        needs_absent()
    assert asyncio.run(needs_json()) == 2


def test_patching_classes_members_and_exceptions() -> None:
    @require_optional_import(ABSENT, "x", except_for="helper")
    class Needs:
        def __init__(self) -> None:
            self.ok = True

        def work(self) -> int:
            return 1

        @staticmethod
        def helper() -> str:
            return "still works"

        @property
        def size(self) -> int:
            return 1

    with pytest.raises(ImportError, match=f"A module needed for .*__init__ is missing:\n - '{ABSENT}' is not installed."):
        Needs()
    assert Needs.helper() == "still works"
    with pytest.raises(ImportError):
        Needs.work(object())  # type: ignore[arg-type]
    with pytest.raises(ImportError):
        Needs.size.fget(object())  # type: ignore[attr-defined]

    def plain() -> int:
        return 3

    assert patch_object(plain, missing_modules={ABSENT: "missing"}, dep_target="x", except_for=["plain"]) is plain
    assert isinstance(PatchObject.create(plain, missing_modules=[ABSENT], dep_target="x"), PatchCallable)
    assert isinstance(PatchObject.create(staticmethod(plain), missing_modules=[ABSENT], dep_target="x"), PatchStatic)
    assert isinstance(PatchObject.create(property(plain), missing_modules=[ABSENT], dep_target="x"), PatchProperty)
    assert isinstance(PatchObject.create(Needs, missing_modules=[ABSENT], dep_target="x"), PatchClass)
    assert PatchObject.create(3, missing_modules=[ABSENT], dep_target="x") is None


def test_is_coroutine_callable_is_one_object_at_every_classic_path() -> None:
    from autogen_classic.agentchat import conversable_agent
    from autogen_classic.tools import dependency_injection, function_utils

    for module in (conversable_agent, dependency_injection, function_utils):
        assert module.is_coroutine_callable is is_coroutine_callable

    class Call:
        async def __call__(self) -> None: ...

    async def coro() -> None: ...

    assert is_coroutine_callable(coro) and is_coroutine_callable(Call())
    assert not is_coroutine_callable(Call) and not is_coroutine_callable(lambda: 1)


# ----------------------------------------------------------------- dependency injection, lower level
def test_inject_fills_dependencies_and_converts_arguments() -> None:
    calls: list[int] = []

    def provider() -> int:
        calls.append(1)
        return 5

    @inject
    def total(a: int, b: int = FastDepends(provider), c: int = FastDepends(provider)) -> int:
        return a + b + c

    assert total("2") == 12 and calls == [1]  # converted, and the provider called once (cached)
    assert total(1, b=10) == 11  # the dependency fills its parameter, as in 0.14

    @inject()
    async def product(a: int, b: Annotated[int, FastDepends(on(3))]) -> int:
        return a * b

    assert asyncio.run(product(2)) == 6
    with pytest.raises(Exception, match="1 validation error for .*total"):
        total("x")

    def f(a: int, b: int, c: int) -> None: ...

    remove_params(f, inspect.signature(f), ["b"])
    assert list(inspect.signature(f).parameters) == ["a", "c"]


# ----------------------------------------------------------------- normilize_message_to_oai
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("hi", "a"), (True, {"content": "hi", "role": "assistant", "name": "a"})),
        (({"content": "x", "name": "b"}, "a"), (True, {"content": "x", "name": "b", "role": "assistant"})),
        (({"content": None}, "a"), (False, {})),
        (({"function_call": {"name": "f", "arguments": "{}"}}, "a"),
         (True, {"function_call": {"name": "f", "arguments": "{}"}, "content": None, "role": "assistant"})),
        (({"role": "tool", "content": 5, "tool_call_id": "1"}, "a"),
         (True, {"content": 5, "tool_call_id": "1", "role": "tool", "name": "a"})),
        (({"content": "x", "override_role": "system"}, "a"), (True, {"content": "x", "role": "system", "name": "a"})),
        (({"content": "x", "role": "user"}, "a", "user"), (True, {"content": "x", "role": "user", "name": "a"})),
    ],
)
def test_normilize_message_to_oai_as_in_014(args: tuple, expected: tuple) -> None:
    assert normilize_message_to_oai(*args) == expected


# ----------------------------------------------------------------- the current cache
def test_the_cache_of_the_innermost_block_is_the_current_one() -> None:
    from autogen_classic.cache import cache_factory, in_memory_cache

    assert cache_factory.InMemoryCache is in_memory_cache.InMemoryCache
    assert Cache.get_current_cache() is None
    outer, inner = Cache.in_memory(cache_seed=1), Cache.in_memory(cache_seed=2)
    with outer as outer_store:
        assert Cache.get_current_cache() is outer and outer.cache is outer_store
        with inner:
            assert Cache.get_current_cache() is inner
            assert Cache.get_current_cache(outer) is outer  # an explicit cache wins
        assert Cache.get_current_cache() is outer
    assert Cache.get_current_cache() is None


def test_format_chat_result_summarises_a_chat() -> None:
    result = ChatResult(
        chat_id=7, summary="s" * 320 + "\nmore", cost={"usage_including_cached_inference": {"total_cost": 0.12345}},
        chat_history=[{"role": "user", "content": "a" * 150, "name": "u"}, {"role": "assistant", "content": "short"},
                      {"content": "x"}, {"role": "user", "content": None}], human_input=[],
    )
    text = format_chat_result(result)
    lines = text.split("\n")
    assert lines[:3] == ["=" * 80, "\U0001f4ca Exploration Session Summary", "=" * 80]
    assert "\u2022 Total messages: 4" in lines and "\u2022 Chat ID: 7" in lines and "\u2022 Cost: $0.1235" in lines
    assert f"   {'s' * 300}..." in lines
    assert lines[-6:] == ["\U0001f4dd Last 3 messages:", "   [assistant]: short", "   [unknown]: x", "   [user]: ", "",
                          "=" * 80]
    assert text.endswith("\n\n" + "=" * 80)


def test_sys_modules_unchanged_by_the_probes() -> None:
    assert ABSENT not in sys.modules
