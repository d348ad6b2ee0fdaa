"""ag2 0.7.3's swarm and tool-registration details, as its own tests use them.

Swarm: agent names given as str (``SwarmResult.agent``, ``initiate_swarm_chat(after_work=...)``, an after-work
callable's return), ``AfterWorkOption``s in a ``SwarmResult``, and the checks of ``ON_CONDITION``, ``AFTER_WORK``
and ``register_hand_off``. Tools: the schema offered to the model and the call with omitted arguments for
functions with defaults and injected (``Depends`` / ``BaseContext`` / ``ChatContext``) parameters, through every
way of registering them. Expected values are those ag2 0.7.3 gives for the same calls.

No ``from __future__ import annotations``: as in classic tests, annotations are real types (the signatures
compared below print them as such).
"""

import asyncio
import enum
import inspect
import json
import re
from typing import Annotated, Any, Literal, Optional, Union
from unittest.mock import MagicMock, patch

import pytest
from pydantic import BaseModel

from autogen_classic.agentchat.contrib.swarm_agent import (
    AFTER_WORK,
    ON_CONDITION,
    AfterWorkOption,
    SwarmAgent,
    SwarmResult,
    _determine_next_agent,
    _prepare_swarm_agents,
    initiate_swarm_chat,
)
from autogen_classic.agentchat.conversable_agent import ConversableAgent, register_function
from autogen_classic.agentchat.groupchat import GroupChat
from autogen_classic.agentchat.user_proxy_agent import UserProxyAgent
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply
from autogen_classic.tools import BaseContext, ChatContext, Depends, Tool, tool
from autogen_classic.tools.dependency_injection import (
    _remove_injected_params_from_signature,
    _string_metadata_to_description_field,
)
from autogen_classic.tools.function_utils import get_function_schema

TEST_MESSAGES = [{"role": "user", "content": "Initial message"}]


def call(name: str, **arguments: Any) -> ScriptedReply:
    return ScriptedReply(content=None, tool_calls=[{"name": name, "arguments": arguments}])


def by_agent(server: ScriptedOpenAIServer, replies: dict[str, list[Any]]) -> None:
    """Answer each agent from its own queue (the agent is named by its system message, "I am <name>.")."""

    def respond(body: dict[str, Any]) -> Any:
        name = body["messages"][0]["content"].split(".")[0].removeprefix("I am ")
        queue = replies.get(name) or []
        return queue.pop(0) if queue else f"{name} is done."

    server.set_responder(respond)


def swarm_agent(server: ScriptedOpenAIServer, name: str, **kwargs: Any) -> SwarmAgent:
    return SwarmAgent(name, system_message=f"I am {name}.", llm_config=server.llm_config(), **kwargs)


def turns(result: Any) -> list[tuple[Any, Any]]:
    return [(m.get("name"), m.get("content")) for m in result.chat_history]


# ------------------------------------------------------------------------------------------ swarm: the checks
def test_on_condition_checks_its_arguments() -> None:
    agent2 = SwarmAgent("agent2")
    for target in (ConversableAgent("test_conversable_agent"), "agent2", 3, [agent2]):
        with pytest.raises(AssertionError, match="'target' must be a SwarmAgent or a Dict"):
            ON_CONDITION(target=target, condition="test condition")  # type: ignore[arg-type]
    for condition in ("", "  ", 3):
        with pytest.raises(AssertionError, match="'condition' must be a non-empty string"):
            ON_CONDITION(target=agent2, condition=condition)  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="'condition' must be a non-empty string"):
        ON_CONDITION(target=agent2)
    for available in (3, True):
        with pytest.raises(AssertionError, match="'available' must be a callable or a string"):
            ON_CONDITION(agent2, "c", available)  # type: ignore[arg-type]
    assert ON_CONDITION(agent2, "c", "flag").available == "flag" and ON_CONDITION(None, "c").target is None
    assert ON_CONDITION({"chat_queue": []}, "c").target == {"chat_queue": []}


def test_after_work_takes_an_option_name_and_checks_the_rest_at_registration() -> None:
    assert [AFTER_WORK(name).agent for name in ("terminate", "Stay", "swarm_manager")] == [
        AfterWorkOption.TERMINATE, AfterWorkOption.STAY, AfterWorkOption.SWARM_MANAGER]
    # A str is never an agent's name here.
    with pytest.raises(ValueError, match="^'AGENT_2' is not a valid AfterWorkOption"):
        AFTER_WORK("agent_2")
    with pytest.raises(ValueError, match="^'' is not a valid AfterWorkOption"):
        AFTER_WORK("")
    # Other values are taken as they are and refused by register_hand_off.
    agent = SwarmAgent("agent")
    for value in (123, None, {}):
        assert AFTER_WORK(value).agent == value  # type: ignore[arg-type]
        with pytest.raises(AssertionError, match="Invalid After Work value"):
            agent.register_hand_off(AFTER_WORK(value))  # type: ignore[arg-type]
    assert agent.after_work is None


def test_register_hand_off_refuses_what_is_no_hand_off() -> None:
    agent, agent2 = SwarmAgent("agent"), SwarmAgent("agent2")
    for hand_to in ("agent2", {"target": agent2}, None, (ON_CONDITION(agent2, "c"),)):
        with pytest.raises(ValueError, match="hand_to must be a list of ON_CONDITION or AFTER_WORK"):
            agent.register_hand_off(hand_to)  # type: ignore[arg-type]
    for item in ("agent2", agent2):
        with pytest.raises(ValueError, match="Invalid hand off condition, must be either ON_CONDITION or AFTER_WORK"):
            agent.register_hand_off([item])  # type: ignore[list-item]
    agent.register_hand_off([])
    # Nothing is registered for an ON_CONDITION without a target (0.7.3 ignores it).
    with pytest.warns(UserWarning, match="has no target and is ignored"):
        agent.register_hand_off(ON_CONDITION(None, "c"))
    assert agent.handoffs.llm_conditions == []


def test_invalid_parameters() -> None:
    agent1, agent2 = SwarmAgent("agent1"), SwarmAgent("agent2")
    with pytest.raises(AssertionError, match="initial_agent must be a SwarmAgent"):
        initiate_swarm_chat("not_an_agent", TEST_MESSAGES, [agent1, agent2])  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="Agents must be a list of SwarmAgents"):
        initiate_swarm_chat(agent1, TEST_MESSAGES, ["not_an_agent", agent2])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="Invalid agent name in after_work: invalid"):
        initiate_swarm_chat(initial_agent=agent1, agents=[agent1, agent2], after_work="invalid", messages=TEST_MESSAGES)


# --------------------------------------------------------------------------------- swarm: names as strings
def test_string_agent_params_for_transfer(scripted_server: ScriptedOpenAIServer) -> None:
    def hello_world(context_variables: dict) -> SwarmResult:  # type: ignore[type-arg]
        return SwarmResult(values="Hello, World!", context_variables=context_variables, agent="agent_2")

    config = scripted_server.llm_config()
    agent_1 = SwarmAgent("agent_1", system_message="Call hello_world().", llm_config=config, functions=[hello_world])
    agent_2 = SwarmAgent("agent_2", system_message="Report what was said.", llm_config=config)
    # The classic test's mocked replies: a tool call without an id, then plain text.
    agent_1.register_reply([ConversableAgent, None], MagicMock(return_value=(True, {
        "role": "assistant", "name": "agent_1", "content": "I will call the hello_world function.",
        "tool_calls": [{"type": "function", "function": {"name": "hello_world", "arguments": "{}"}}]})))
    agent_2.register_reply([ConversableAgent, None], MagicMock(return_value=(True, {
        "role": "assistant", "name": "agent_2",
        "content": "The previous agent called hello_world and got: Hello, World!"})))

    chat_result, final_context, last = initiate_swarm_chat(
        initial_agent=agent_1, agents=[agent_1, agent_2], messages="Begin by calling the hello_world() function.",
        after_work=AFTER_WORK(AfterWorkOption.TERMINATE), max_rounds=5)

    assert chat_result.chat_history[3]["name"] == "agent_2"
    assert turns(chat_result) == [
        (None, "Begin by calling the hello_world() function."),
        ("agent_1", "I will call the hello_world function."),
        ("Tool_Execution", "Hello, World!"),
        ("agent_2", "The previous agent called hello_world and got: Hello, World!"),
    ]
    assert final_context is None and last is agent_2
    assert scripted_server.request_count == 0


@pytest.mark.parametrize("name", ["carol", "TERMINATE", "terminate"])
def test_swarm_result_unknown_name(scripted_server: ScriptedOpenAIServer, name: str) -> None:
    def go() -> SwarmResult:
        """Go."""
        return SwarmResult(values="went", agent=name)

    alice, bob = swarm_agent(scripted_server, "alice", functions=[go]), swarm_agent(scripted_server, "bob")
    by_agent(scripted_server, {"alice": [call("go")]})
    # A str is always an agent's name, never an option.
    with pytest.raises(ValueError, match=re.escape(f"No agent found with the name '{name}'. Ensure the agent exists "
                                                   "in the swarm")):
        initiate_swarm_chat(alice, "start", [alice, bob], max_rounds=6)


@pytest.mark.parametrize(("option", "with_user", "expected"), [
    (AfterWorkOption.TERMINATE, False, [(None, "start"), ("alice", "None"), ("Tool_Execution", "went")]),
    (AfterWorkOption.TERMINATE, True, [("user", "start"), ("alice", "None"), ("Tool_Execution", "went")]),
    (AfterWorkOption.REVERT_TO_USER, False, [(None, "start"), ("alice", "None"), ("Tool_Execution", "went")]),
    (AfterWorkOption.REVERT_TO_USER, True, [("user", "start"), ("alice", "None"), ("Tool_Execution", "went"),
                                            ("user", "user says hi"), ("alice", "a done")]),
    (AfterWorkOption.STAY, False, [(None, "start"), ("alice", "None"), ("Tool_Execution", "went"),
                                   ("alice", "a done")]),
    (AfterWorkOption.STAY, True, [("user", "start"), ("alice", "None"), ("Tool_Execution", "went"),
                                  ("alice", "a done")]),
])
def test_swarm_result_after_work_option(scripted_server: ScriptedOpenAIServer, option: AfterWorkOption,
                                        with_user: bool, expected: list[tuple[Any, Any]]) -> None:
    def go(context_variables: dict) -> SwarmResult:  # type: ignore[type-arg]
        """Go."""
        return SwarmResult(values="went", agent=option, context_variables={"k": 1})

    alice, bob = swarm_agent(scripted_server, "alice", functions=[go]), swarm_agent(scripted_server, "bob")
    by_agent(scripted_server, {"alice": [call("go"), "a done"]})
    user = UserProxyAgent("user", human_input_mode="NEVER", default_auto_reply="user says hi",
                          code_execution_config=False) if with_user else None
    context: dict[str, Any] = {"s": 0}
    result, out_context, _ = initiate_swarm_chat(alice, "start", [alice, bob], user_agent=user, max_rounds=6,
                                                 context_variables=context)
    assert turns(result) == expected
    assert out_context is context and context == {"s": 0, "k": 1}


def test_swarm_result_swarm_manager_needs_a_model(scripted_server: ScriptedOpenAIServer) -> None:
    # 0.7.3's manager has no model and falls back to the next agent in order; here (as in 0.14.1) an "auto"
    # selection without a model is the ValueError (docs/migrating.md, the version table).
    def go() -> SwarmResult:
        """Go."""
        return SwarmResult(values="went", agent=AfterWorkOption.SWARM_MANAGER)

    alice = swarm_agent(scripted_server, "alice", functions=[go])
    by_agent(scripted_server, {"alice": [call("go")]})
    with pytest.raises(ValueError, match="does not have an LLM configuration"):
        initiate_swarm_chat(alice, "start", [alice], max_rounds=6)


def test_initiate_swarm_chat_after_work_names_an_agent(scripted_server: ScriptedOpenAIServer) -> None:
    alice, bob = swarm_agent(scripted_server, "alice"), swarm_agent(scripted_server, "bob")
    by_agent(scripted_server, {"alice": ["a plain"], "bob": ["b done"]})
    result, _, last = initiate_swarm_chat(alice, "start", [alice, bob], max_rounds=3, after_work="bob")
    assert turns(result) == [(None, "start"), ("alice", "a plain"), ("bob", "b done")] and last is bob
    # Also after a tool's response went back to the agent that called it.
    def noop() -> str:
        """Nothing."""
        return "x"

    alice = swarm_agent(scripted_server, "alice", functions=[noop])
    by_agent(scripted_server, {"alice": [call("noop"), "a done"], "bob": ["b done", "b again"]})
    result, _, last = initiate_swarm_chat(alice, "start", [alice, bob], max_rounds=6, after_work="bob")
    assert turns(result) == [(None, "start"), ("alice", "None"), ("Tool_Execution", "x"), ("alice", "a done"),
                             ("bob", "b done"), ("bob", "b again")]
    with pytest.raises(ValueError, match="Invalid agent name in after_work: carol"):
        initiate_swarm_chat(alice, "start", [alice, bob], after_work="carol")
    # 0.7.3 takes every str as an agent's name (ValueError here); this package also takes an option's name.
    by_agent(scripted_server, {"alice": ["a plain", "a2"]})
    result, _, _ = initiate_swarm_chat(alice, "start", [alice], max_rounds=3, after_work="stay")
    assert turns(result) == [(None, "start"), ("alice", "a plain"), ("alice", "a2")]


@pytest.mark.parametrize(("returned", "error"), [
    ("carol", "Invalid agent name in after_work: carol"),
    ("TERMINATE", "Invalid agent name in after_work: TERMINATE"),
    (None, "Invalid After Work condition or return value from callable"),
])
def test_after_work_callable_returning_a_name(scripted_server: ScriptedOpenAIServer, returned: Any,
                                              error: str) -> None:
    alice, bob = swarm_agent(scripted_server, "alice"), swarm_agent(scripted_server, "bob")
    by_agent(scripted_server, {"alice": ["a plain"], "bob": ["b done"]})
    result, _, _ = initiate_swarm_chat(alice, "start", [alice, bob], max_rounds=3,
                                       after_work=AFTER_WORK(lambda last, messages, groupchat: "bob"))
    assert turns(result) == [(None, "start"), ("alice", "a plain"), ("bob", "b done")]
    by_agent(scripted_server, {"alice": ["a plain"]})
    with pytest.raises(ValueError, match=error):
        initiate_swarm_chat(alice, "start", [alice, bob], after_work=lambda last, messages, groupchat: returned)


def test_after_work_options() -> None:
    agent1, agent2 = SwarmAgent("agent1"), SwarmAgent("agent2")
    user_agent = UserProxyAgent("test_user")
    mock_reply = MagicMock(return_value=(True, "This is a mock response from the agent."))
    agent1.register_reply([ConversableAgent, None], mock_reply)
    agent2.register_reply([ConversableAgent, None], mock_reply)
    test_messages = [{"role": "user", "content": "Initial message"},
                     {"role": "assistant", "name": "agent1", "content": "Response"}]

    def names(**kwargs: Any) -> list[Any]:
        result, _, _ = initiate_swarm_chat(initial_agent=agent1, messages=test_messages, agents=[agent1, agent2],
                                           max_rounds=4, **kwargs)
        return [m.get("name") for m in result.chat_history]

    agent1.after_work = AFTER_WORK(AfterWorkOption.TERMINATE)
    result, _, last = initiate_swarm_chat(initial_agent=agent1, messages=TEST_MESSAGES, agents=[agent1, agent2])
    assert last is agent1 and len(result.chat_history) == 2
    agent1.after_work = AFTER_WORK(AfterWorkOption.REVERT_TO_USER)
    with patch("builtins.input", return_value="continue"):
        assert names(user_agent=user_agent) == ["chat_manager", "agent1", "agent1", "test_user", "agent1"]
    agent1.after_work = AFTER_WORK(AfterWorkOption.STAY)
    assert names() == ["chat_manager", "agent1", "agent1", "agent1", "agent1"]
    agent1.after_work = AFTER_WORK(lambda last_speaker, messages, groupchat: agent2)
    assert names() == ["chat_manager", "agent1", "agent1", "agent2"]
    agent1.after_work = AFTER_WORK(lambda last_speaker, messages, groupchat: "agent2")
    assert names() == ["chat_manager", "agent1", "agent1", "agent2"]
    agent1.after_work = None
    assert names(after_work="agent2") == ["chat_manager", "agent1", "agent1", "agent2", "agent2"]


def test_swarmresult_afterworkoption() -> None:
    """A hand-off pending on the tool executor (as a SwarmResult leaves it), decided by _determine_next_agent."""

    def next_speaker(pending: Any, swarm_after_work: Any) -> Any:
        last_speaker_agent = SwarmAgent("dummy_1")
        tool_executor, _ = _prepare_swarm_agents(last_speaker_agent, [last_speaker_agent])
        user = UserProxyAgent("User")
        groupchat = GroupChat(agents=[last_speaker_agent], messages=[
            {"tool_calls": "", "role": "tool", "content": "Test message"},
            {"role": "tool", "content": "Test message 2", "name": "dummy_1"},
            {"role": "assistant", "content": "Test message 3", "name": "dummy_1"},
        ])
        tool_executor._next_agent = pending
        return _determine_next_agent(last_speaker=last_speaker_agent, groupchat=groupchat,
                                     initial_agent=last_speaker_agent, use_initial_agent=False,
                                     tool_execution=tool_executor, swarm_agent_names=["dummy_1"], user_agent=user,
                                     swarm_after_work=swarm_after_work)

    assert next_speaker(AfterWorkOption.TERMINATE, AfterWorkOption.STAY) is None
    stay = next_speaker(AfterWorkOption.STAY, AfterWorkOption.TERMINATE)
    assert isinstance(stay, SwarmAgent) and stay.name == "dummy_1"
    # The user agent itself, though the group chat does not hold it.
    user = next_speaker(AfterWorkOption.REVERT_TO_USER, AfterWorkOption.TERMINATE)
    assert isinstance(user, UserProxyAgent) and user.name == "User"
    assert next_speaker(AfterWorkOption.SWARM_MANAGER, AfterWorkOption.TERMINATE) == "auto"
    assert next_speaker("dummy_1", AfterWorkOption.TERMINATE).name == "dummy_1"
    with pytest.raises(ValueError, match=re.escape("No agent found with the name 'nobody'.")):
        next_speaker("nobody", AfterWorkOption.TERMINATE)
    assert [next_speaker(None, after).name for after in ("dummy_1", AfterWorkOption.REVERT_TO_USER)] == [
        "dummy_1", "User"]
    with pytest.raises(ValueError, match="Invalid agent name in after_work: zzz"):
        next_speaker(None, "zzz")


# --------------------------------------------------------------------------------------- swarm functions
def test_swarm_functions_with_defaults(scripted_server: ScriptedOpenAIServer) -> None:
    def f_defaults(a: int, b: int = 2, context_variables: dict = None) -> SwarmResult:  # type: ignore
        """Defaults."""
        updated = dict(context_variables or {})
        updated["sum"] = a + b
        return SwarmResult(values=f"{a}|{b}", context_variables=updated)

    def f_ctx_first(context_variables: dict, x: Optional[str] = None, n: float = 0.5) -> str:  # type: ignore[type-arg]
        """Ctx first."""
        return f"{x}|{n}|{sorted(context_variables)}"

    def f_no_args() -> str:
        """No args."""
        return "none"

    def f_all_default(x: str = "d", context_variables: dict[str, Any] = {}) -> SwarmResult:  # noqa: B006
        return SwarmResult(values=x, agent="bob", context_variables={"x": x})

    alice = swarm_agent(scripted_server, "alice", functions=[f_defaults, f_ctx_first, f_no_args, f_all_default])
    bob = swarm_agent(scripted_server, "bob")
    by_agent(scripted_server, {"alice": [ScriptedReply(content=None, tool_calls=[
        {"name": "f_defaults", "arguments": {"a": 1}}, {"name": "f_ctx_first", "arguments": {}},
        {"name": "f_no_args", "arguments": {}}, {"name": "f_all_default", "arguments": {}}])], "bob": ["b done"]})
    result, context, last = initiate_swarm_chat(alice, "go", [alice, bob], context_variables={"start": 1},
                                                max_rounds=6)
    assert scripted_server.requests[0]["tools"] == [
        {"type": "function", "function": {"description": "Defaults.", "name": "f_defaults", "parameters": {
            "type": "object", "properties": {"a": {"type": "integer", "description": "a"},
                                             "b": {"type": "integer", "default": 2, "description": "b"}},
            "required": ["a"]}}},
        {"type": "function", "function": {"description": "Ctx first.", "name": "f_ctx_first", "parameters": {
            "type": "object", "properties": {
                "x": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None, "description": "x"},
                "n": {"type": "number", "default": 0.5, "description": "n"}}}}},
        {"type": "function", "function": {"description": "No args.", "name": "f_no_args",
                                          "parameters": {"type": "object", "properties": {}}}},
        {"type": "function", "function": {"description": "", "name": "f_all_default", "parameters": {
            "type": "object", "properties": {"x": {"type": "string", "default": "d", "description": "x"}}}}},
    ]
    assert turns(result)[2:] == [("Tool_Execution", "1|2\nNone|0.5|['start', 'sum']\nnone\nd"), ("bob", "b done")]
    assert context == {"start": 1, "sum": 3, "x": "d"} and last is bob


# ----------------------------------------------------------------------------------------- tool registration
class MyContext(BaseContext, BaseModel):
    b: int


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


def _dep3() -> int:
    return 3


def _signatures() -> dict[str, tuple[Any, dict[str, Any]]]:
    """Fresh functions (registration rewrites a function's signature) and the arguments the model sends."""

    def f_defaults(a: int, b: int = 2, c: float = 1.5, d: bool = True, e: str = "e") -> str:
        return f"{a}|{b}|{c}|{d}|{e}"

    def f_annot(a: Annotated[int, "first"], b: Annotated[str, "second"] = "x") -> str:
        return f"{a}|{b}"

    def f_optional(a: Optional[int] = None, b: Optional[str] = "s", c: Annotated[Optional[int], "cee"] = None) -> str:
        return f"{a}|{b}|{c}"

    def f_none_default(a: int = None, b: Annotated[str, "bee"] = None) -> str:  # type: ignore[assignment]
        return f"{a}|{b}"

    def f_containers(a: list[int] = [1, 2], b: dict[str, int] = {"k": 1},  # noqa: B006
                     c: tuple[int, int] = (1, 2)) -> str:
        return f"{a}|{b}|{c}"

    def f_literal_enum(a: Literal["x", "y"] = "x", b: Color = Color.RED) -> str:
        return f"{a}|{b}"

    def f_dep_last(a: int, ctx: Annotated[MyContext, Depends(MyContext(b=2))], b: int = 4) -> str:
        return f"{a}|{ctx.b}|{b}"

    def f_dep_first(ctx: Annotated[MyContext, Depends(MyContext(b=7))], a: int, b: Annotated[int, "bee"] = 4) -> str:
        return f"{ctx.b}|{a}|{b}"

    def f_dep_default(a: int, ctx: MyContext = Depends(MyContext(b=9)), c: str = "c") -> str:
        return f"{a}|{ctx.b}|{c}"

    def f_dep_func(a: int, d: Annotated[int, Depends(_dep3)], e: int = 1) -> str:
        return f"{a}|{d}|{e}"

    def f_chat(a: int, chat: ChatContext, b: int = 1) -> str:
        return f"{a}|{type(chat).__name__}|{b}"

    def f_kwonly(a: int, *, b: int = 4, c: Annotated[str, "cee"] = "c") -> str:
        return f"{a}|{b}|{c}"

    async def af_defaults(a: int, b: Annotated[int, "bee"] = 2,
                          ctx: Annotated[MyContext, Depends(MyContext(b=5))] = None) -> str:  # type: ignore[assignment]
        await asyncio.sleep(0)
        return f"{a}|{b}|{ctx.b}"

    async def af_optional(a: Optional[int] = None, chat: ChatContext = None) -> str:  # type: ignore[assignment]
        return f"{a}|{type(chat).__name__}"

    def f_union(a: Union[int, str] = 1, b: Optional[Union[int, str]] = None) -> str:
        return f"{a!r}|{b!r}"

    args = {"f_defaults": {"a": 1}, "f_annot": {"a": 1}, "f_literal_enum": {"b": "blue"}, "f_dep_last": {"a": 1},
            "f_dep_first": {"a": 1}, "f_dep_default": {"a": 1}, "f_dep_func": {"a": 2}, "f_chat": {"a": 1},
            "f_kwonly": {"a": 1}, "af_defaults": {"a": 1}, "f_union": {"a": "z"}}
    found = {name: value for name, value in locals().items() if callable(value)}
    return {name: (func, args.get(name, {})) for name, func in found.items()}


_INT, _NULL = {"type": "integer"}, {"type": "null"}
EXPECTED: dict[str, tuple[dict[str, Any], list[str], str]] = {
    "f_defaults": ({"a": {"description": "a", **_INT}, "b": {"default": 2, "description": "b", **_INT},
                    "c": {"default": 1.5, "description": "c", "type": "number"},
                    "d": {"default": True, "description": "d", "type": "boolean"},
                    "e": {"default": "e", "description": "e", "type": "string"}}, ["a"], "1|2|1.5|True|e"),
    "f_annot": ({"a": {"description": "first", **_INT},
                 "b": {"default": "x", "description": "second", "type": "string"}}, ["a"], "1|x"),
    "f_optional": ({"a": {"anyOf": [_INT, _NULL], "default": None, "description": "a"},
                    "b": {"anyOf": [{"type": "string"}, _NULL], "default": "s", "description": "b"},
                    "c": {"anyOf": [_INT, _NULL], "default": None, "description": "cee"}}, [], "None|s|None"),
    "f_none_default": ({"a": {"default": None, "description": "a", **_INT},
                        "b": {"default": None, "description": "bee", "type": "string"}}, [], "None|None"),
    "f_containers": ({"a": {"default": [1, 2], "description": "a", "items": _INT, "type": "array"},
                      "b": {"additionalProperties": _INT, "default": {"k": 1}, "description": "b", "type": "object"},
                      "c": {"default": (1, 2), "description": "c", "maxItems": 2, "minItems": 2,
                            "prefixItems": [_INT, _INT], "type": "array"}}, [], "[1, 2]|{'k': 1}|(1, 2)"),
    "f_literal_enum": ({"a": {"default": "x", "description": "a", "enum": ["x", "y"], "type": "string"},
                        "b": {"default": Color.RED, "description": "b", "enum": ["red", "blue"], "title": "Color",
                              "type": "string"}}, [], "x|Color.BLUE"),
    "f_dep_last": ({"a": {"description": "a", **_INT}, "b": {"default": 4, "description": "b", **_INT}}, ["a"],
                   "1|2|4"),
    "f_dep_first": ({"a": {"description": "a", **_INT}, "b": {"default": 4, "description": "bee", **_INT}}, ["a"],
                    "7|1|4"),
    "f_dep_default": ({"a": {"description": "a", **_INT}, "c": {"default": "c", "description": "c", "type": "string"}},
                      ["a"], "1|9|c"),
    "f_dep_func": ({"a": {"description": "a", **_INT}, "e": {"default": 1, "description": "e", **_INT}}, ["a"],
                   "2|3|1"),
    "f_chat": ({"a": {"description": "a", **_INT}, "b": {"default": 1, "description": "b", **_INT}}, ["a"],
               "1|ChatContext|1"),
    "f_kwonly": ({"a": {"description": "a", **_INT}, "b": {"default": 4, "description": "b", **_INT},
                  "c": {"default": "c", "description": "cee", "type": "string"}}, ["a"], "1|4|c"),
    "af_defaults": ({"a": {"description": "a", **_INT}, "b": {"default": 2, "description": "bee", **_INT}}, ["a"],
                    "1|2|5"),
    "af_optional": ({"a": {"anyOf": [_INT, _NULL], "default": None, "description": "a"}}, [], "None|ChatContext"),
    "f_union": ({"a": {"anyOf": [_INT, {"type": "string"}], "default": 1, "description": "a"},
                 "b": {"anyOf": [_INT, {"type": "string"}, _NULL], "default": None, "description": "b"}}, [],
                "'z'|None"),
}


def _register(path: str, func: Any, name: str, caller: ConversableAgent, executor: ConversableAgent) -> None:
    if path == "decorators":
        executor.register_for_execution()(caller.register_for_llm(description=f"desc {name}")(func))
    elif path == "register_function":
        register_function(func, caller=caller, executor=executor, description=f"desc {name}")
    elif path == "Tool":
        registered = Tool(name=name, description=f"desc {name}", func_or_tool=func)
        registered.register_for_llm(caller)
        registered.register_for_execution(executor)
    else:  # the @tool decorator, then the agents' decorators with the Tool
        decorated = tool(description=f"desc {name}")(func)
        caller.register_for_llm()(decorated)
        executor.register_for_execution()(decorated)


@pytest.mark.parametrize("path", ["decorators", "register_function", "Tool", "tool_decorator"])
def test_tool_schemas_and_calls_with_defaults(scripted_server: ScriptedOpenAIServer, path: str) -> None:
    caller = ConversableAgent("caller", llm_config=scripted_server.llm_config(), human_input_mode="NEVER")
    executor = ConversableAgent("executor", llm_config=False, human_input_mode="NEVER")
    for name, (func, arguments) in _signatures().items():
        _register(path, func, name, caller, executor)
        properties, required, result = EXPECTED[name]
        schema = next(t for t in caller.llm_config["tools"] if t["function"]["name"] == name)
        assert schema == {"type": "function", "function": {"description": f"desc {name}", "name": name, "parameters": {
            "type": "object", "properties": properties, "required": required}}}, name
        message = {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}]}
        if inspect.iscoroutinefunction(func):
            _, reply = asyncio.run(executor.a_generate_tool_calls_reply([message]))
        else:
            _, reply = executor.generate_tool_calls_reply([message])
        assert reply["tool_responses"][0]["content"] == result, name


def test_remove_injected_params_and_register(scripted_server: ScriptedOpenAIServer) -> None:
    def build() -> list[Any]:
        def f_with_annotated(a: int, ctx: Annotated[MyContext, Depends(MyContext(b=2))]) -> int:
            return a + ctx.b

        async def f_with_annotated_async(a: int, ctx: Annotated[MyContext, Depends(MyContext(b=2))]) -> int:
            return a + ctx.b

        def f_without_annotated(a: int, ctx: MyContext = Depends(MyContext(b=3))) -> int:
            return a + ctx.b

        def f_without_annotated_and_depends(a: int, ctx: MyContext = MyContext(b=4)) -> int:
            return a + ctx.b

        def f_without_MyContext(a: int, ctx: Annotated[int, Depends(lambda a: a + 2)]) -> int:  # noqa: N802
            return a + ctx

        async def f_without_MyContext_async(a: int, ctx: Annotated[int, Depends(lambda a: a + 2)]) -> int:  # noqa: N802
            return a + ctx

        return [f_with_annotated, f_with_annotated_async, f_without_annotated, f_without_annotated_and_depends,
                f_without_MyContext, f_without_MyContext_async]

    expected_tools = [{"type": "function", "function": {"description": "Example function", "name": "f", "parameters": {
        "type": "object", "properties": {"a": {"type": "integer", "description": "a"}}, "required": ["a"]}}}]
    for func, result in zip(build(), ["3", "3", "4", "5", "4", "4"]):
        agent = ConversableAgent(name="agent", llm_config=scripted_server.llm_config())
        executor = ConversableAgent(name="executor", llm_config=False)
        registered = agent.register_for_llm(description="Example function", name="f")(func)
        executor.register_for_execution(name="f")(registered)
        assert agent.llm_config["tools"] == expected_tools
        message = {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"a": 1}'}}]}
        run = executor.a_generate_tool_calls_reply if inspect.iscoroutinefunction(func) else None
        _, reply = asyncio.run(run([message])) if run else executor.generate_tool_calls_reply([message])
        assert reply["tool_responses"][0]["content"] == result, func.__name__
    for func in build():
        assert str(inspect.signature(_remove_injected_params_from_signature(func))) == "(a: int) -> int"


def test_string_metadata_to_description_field() -> None:
    def f(a: int, b: Annotated[int, "b description"]) -> int:
        return a + b

    b_param = inspect.signature(_string_metadata_to_description_field(f)).parameters["b"]
    assert b_param.annotation.__metadata__[0].description == "b description"


def test_schema_refusals() -> None:
    def f(a: int, ctx: Annotated[int, Depends(_dep3)]) -> int:
        return a

    # get_function_schema itself does not remove injected parameters (Tool and the agents do).
    with pytest.raises(ValueError, match=re.escape("Invalid Depends(_dep3) for parameter ctx, should be a "
                                                   "DescriptionField")):
        get_function_schema(f, name="f", description="d")

    with pytest.raises(ValueError, match=re.escape("Parameter 'func_or_tool' must be a function, method or a Tool "
                                                   "instance, it is '<class 'staticmethod'>' instead.")):
        Tool(name="stat", description="s", func_or_tool=staticmethod(_dep3))  # type: ignore[arg-type]


def test_chat_context_with_defaults_end_to_end(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies(call("get_weather", city="Paris"), "done TERMINATE")
    assistant = ConversableAgent("assistant", llm_config=scripted_server.llm_config(), human_input_mode="NEVER")
    user = UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False, max_consecutive_auto_reply=2,
                          is_termination_msg=lambda m: "TERMINATE" in (m.get("content") or ""))
    seen: dict[str, Any] = {}

    @user.register_for_execution()
    @assistant.register_for_llm(description="Get weather")
    def get_weather(city: Annotated[str, "City"], chat_context: ChatContext, unit: Annotated[str, "Unit"] = "C",
                    days: Optional[int] = None) -> str:
        seen["messages"] = len(chat_context.chat_messages[assistant])
        seen["last"] = chat_context.last_message["content"] if chat_context.last_message else None
        return f"{city} 20{unit} {days}"

    result = user.initiate_chat(assistant, message="weather?")
    assert scripted_server.requests[0]["tools"] == [{"type": "function", "function": {
        "description": "Get weather", "name": "get_weather", "parameters": {"type": "object", "properties": {
            "city": {"type": "string", "description": "City"},
            "unit": {"type": "string", "default": "C", "description": "Unit"},
            "days": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None, "description": "days"}},
            "required": ["city"]}}}]
    assert [(m.get("name"), m.get("role"), m.get("content")) for m in result.chat_history] == [
        ("user", "assistant", "weather?"), (None, "assistant", None), ("user", "tool", "Paris 20C None"),
        ("assistant", "user", "done TERMINATE")]
    assert seen == {"messages": 2, "last": None}
