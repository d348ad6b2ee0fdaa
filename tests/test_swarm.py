"""Swarms on the group chat: hand-offs, context variables, after-work options, the selection trace, bad input.

The agents talk to the scripted OpenAI-compatible server; each agent's replies are scripted by its name,
read from the system message ("I am <name>. ...").
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Iterator

import pytest

import autogen_classic as autogen
from autogen_classic import (
    AFTER_WORK,
    ON_CONDITION,
    UPDATE_SYSTEM_MESSAGE,
    AfterWorkOption,
    SwarmAgent,
    SwarmResult,
    a_initiate_swarm_chat,
    initiate_swarm_chat,
)
from autogen_classic.agentchat.contrib import swarm_agent as classic_path
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply


class Script:
    """Per-agent reply queues, plus the requests each agent made (tools offered, system message)."""

    def __init__(self, server: ScriptedOpenAIServer) -> None:
        self.replies: dict[str, list[Any]] = {}
        self.requests: list[dict[str, Any]] = []
        server.set_responder(self)

    def __call__(self, body: dict[str, Any]) -> Any:
        system = body["messages"][0]["content"]
        name = system.split(".")[0].removeprefix("I am ")
        tools = [t["function"] for t in body.get("tools") or []]
        self.requests.append({"agent": name, "system": system, "tools": tools, "messages": body["messages"]})
        queue = self.replies.get(name) or []
        return queue.pop(0) if queue else f"{name} is done."

    def tools_of(self, agent: str) -> list[list[str]]:
        return [[t["name"] for t in r["tools"]] for r in self.requests if r["agent"] == agent]


def call(name: str, **arguments: Any) -> ScriptedReply:
    return ScriptedReply(content=None, tool_calls=[{"name": name, "arguments": arguments}])


@pytest.fixture(scope="module")
def server() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer(default_reply="unscripted") as s:
        yield s


@pytest.fixture
def script(server: ScriptedOpenAIServer) -> Iterator[Script]:
    server.reset()
    yield Script(server)
    server.set_responder(None)


def agent(server: ScriptedOpenAIServer, name: str, **kwargs: Any) -> SwarmAgent:
    return SwarmAgent(name, system_message=f"I am {name}.", llm_config=server.llm_config(), **kwargs)


def speakers(result: Any) -> list[Any]:
    return [m.get("name") for m in result.chat_history]


def test_names_and_classic_path() -> None:
    assert classic_path.SwarmAgent is SwarmAgent and classic_path.initiate_swarm_chat is initiate_swarm_chat
    assert autogen.OnCondition is ON_CONDITION and autogen.AfterWork is AFTER_WORK
    assert callable(classic_path.create_swarm_transition)
    assert [o.value for o in AfterWorkOption] == ["TERMINATE", "REVERT_TO_USER", "STAY", "SWARM_MANAGER"]


def test_single_handoff_and_trace(server: ScriptedOpenAIServer, script: Script) -> None:
    triage, refunds = agent(server, "triage"), agent(server, "refunds")
    triage.register_hand_off(ON_CONDITION(refunds, "The user wants a refund"))
    script.replies["triage"] = [call("transfer_triage_to_refunds")]
    result, ctx, last = initiate_swarm_chat(triage, "I want my money back", [triage, refunds])
    assert ctx is None and last is refunds
    assert result.chat_history[0] == {"content": "I want my money back", "role": "assistant"}
    assert speakers(result) == [None, "triage", "Tool_Execution", "refunds"]
    tool = result.chat_history[2]
    assert tool["content"] == "SwarmAgent --> refunds" and tool["role"] == "tool"
    assert tool["tool_responses"][0]["content"] == "SwarmAgent --> refunds"
    # The transfer tool is offered with the condition as its description.
    offered = script.requests[0]["tools"]
    assert offered == [{"name": "transfer_triage_to_refunds", "description": "The user wants a refund",
                        "parameters": {"type": "object", "properties": {}}}]
    manager_log = [r for r in result.chat_history]  # the trace lives on the group chat
    assert manager_log
    groupchat = _groupchat_of(refunds)
    reasons = [r.reason for r in groupchat.selection_log]
    assert "handoff: triage -> refunds, transfer_triage_to_refunds" in reasons
    assert reasons[-1].startswith("after work of the swarm (") or "TERMINATE" in reasons[-1]


def _groupchat_of(agent: SwarmAgent) -> Any:
    managers = [a for a in agent.chat_messages if isinstance(a, autogen.GroupChatManager)]
    return managers[-1].groupchat


def test_chained_handoffs_context_and_system_message(server: ScriptedOpenAIServer, script: Script) -> None:
    def record_refund(amount: int, context_variables: dict) -> SwarmResult:
        """Record a refund."""
        # The function gets a copy (the arguments pass through JSON, as in the classic package): the changes
        # reach the swarm through the returned SwarmResult.
        context_variables["refunded"] = amount
        context_variables["step"] = "refunded"
        return SwarmResult(values=f"Refunded {amount}", context_variables=context_variables, agent="closer")

    triage = agent(server, "triage")
    refunds = agent(server, "refunds", functions=[record_refund],
                    update_agent_state_before_reply=[UPDATE_SYSTEM_MESSAGE("I am refunds. refunded={refunded}")])
    closer = agent(server, "closer")
    triage.register_hand_off(ON_CONDITION(refunds, "refund"))
    script.replies["triage"] = [call("transfer_triage_to_refunds")]
    script.replies["refunds"] = [call("record_refund", amount=12)]
    ctx_in = {"refunded": 0}
    result, ctx, last = initiate_swarm_chat(triage, "money back", [triage, refunds, closer],
                                            context_variables=ctx_in)
    assert ctx is ctx_in and ctx == {"refunded": 12, "step": "refunded"}
    assert last is closer
    assert speakers(result) == [None, "triage", "Tool_Execution", "refunds", "Tool_Execution", "closer"]
    assert result.chat_history[4]["content"] == "Refunded 12"
    # context_variables is hidden from the model; the system message was rendered before the reply.
    tool = script.requests[1]["tools"][0]
    assert tool["name"] == "record_refund" and list(tool["parameters"]["properties"]) == ["amount"]
    assert tool["parameters"]["required"] == ["amount"]
    assert script.requests[1]["system"] == "I am refunds. refunded=0"
    reasons = [r.reason for r in _groupchat_of(closer).selection_log]
    assert "handoff: refunds -> closer, record_refund" in reasons


def test_unavailable_condition(server: ScriptedOpenAIServer, script: Script) -> None:
    a, b, c = agent(server, "a"), agent(server, "b"), agent(server, "c")
    a.register_hand_off([ON_CONDITION(b, "to b", available="b_open"),
                         ON_CONDITION(c, "to c", available=lambda ag, msgs: len(msgs) > 99)])
    initiate_swarm_chat(a, "hi", [a, b, c], context_variables={"b_open": False})
    assert script.tools_of("a") == [[]]
    script.requests.clear()
    initiate_swarm_chat(a, "hi", [a, b, c], context_variables={"b_open": True})
    assert script.tools_of("a") == [["transfer_a_to_b"]]


@pytest.mark.parametrize("option", ["TERMINATE", "STAY", "SWARM_MANAGER", "agent", "name", "callable"])
def test_after_work_options(server: ScriptedOpenAIServer, script: Script, option: str) -> None:
    a, b = agent(server, "a"), agent(server, "b")
    value: Any = {"TERMINATE": AfterWorkOption.TERMINATE, "STAY": AfterWorkOption.STAY,
                  "SWARM_MANAGER": AfterWorkOption.SWARM_MANAGER, "agent": b, "name": lambda last, messages, groupchat: "b",
                  "callable": lambda last, messages, groupchat: b}[option]
    a.register_hand_off(AFTER_WORK(value))
    b.register_hand_off(AFTER_WORK(AfterWorkOption.TERMINATE))
    if option == "SWARM_MANAGER":  # the manager's auto selection needs a model: none given is the classic ValueError
        with pytest.raises(ValueError, match="does not have an LLM configuration"):
            initiate_swarm_chat(a, "hi", [a, b], max_rounds=4)
        return
    result, _, last = initiate_swarm_chat(a, "hi", [a, b], max_rounds=4)
    expected = {"TERMINATE": [None, "a"], "STAY": [None, "a", "a", "a"], "agent": [None, "a", "b"],
                "name": [None, "a", "b"], "callable": [None, "a", "b"]}[option]
    assert speakers(result) == expected
    assert last.name == expected[-1]


def test_revert_to_user_and_user_agent(server: ScriptedOpenAIServer, script: Script) -> None:
    user = autogen.UserProxyAgent("customer", human_input_mode="NEVER", code_execution_config=False,
                                  default_auto_reply="thanks")
    a = agent(server, "a")
    a.register_hand_off(AFTER_WORK(AfterWorkOption.REVERT_TO_USER))
    result, _, last = initiate_swarm_chat(a, "hi", [a], user_agent=user, max_rounds=4)
    # The user agent speaks first and keeps its name; after the user, the last swarm agent again.
    assert speakers(result) == ["customer", "a", "customer", "a"]
    assert result.chat_history[2]["content"] == "thanks"
    # Without a user agent, REVERT_TO_USER ends the chat.
    result, _, last = initiate_swarm_chat(a, "hi", [a], max_rounds=4)
    assert speakers(result) == [None, "a"]


def test_swarm_after_work_and_max_rounds(server: ScriptedOpenAIServer, script: Script) -> None:
    a = agent(server, "a")
    result, _, last = initiate_swarm_chat(a, "hi", [a], max_rounds=3, after_work=AFTER_WORK(AfterWorkOption.STAY))
    assert speakers(result) == [None, "a", "a"]
    result, _, _ = initiate_swarm_chat(a, "hi", [a], max_rounds=5, after_work=AfterWorkOption.STAY)
    assert len(result.chat_history) == 5


def test_sync_and_async_same_transcript(server: ScriptedOpenAIServer, script: Script) -> None:
    def run(runner: Any) -> list[dict[str, Any]]:
        triage, refunds = agent(server, "triage"), agent(server, "refunds")
        triage.register_hand_off(ON_CONDITION(refunds, "refund"))
        script.replies["triage"] = [call("transfer_triage_to_refunds")]
        result, _, last = runner(triage, "money", [triage, refunds])
        assert last is refunds
        return [{k: v for k, v in m.items() if k != "tool_calls" and k != "tool_responses"}
                for m in result.chat_history]

    sync = run(initiate_swarm_chat)
    async_ = run(lambda *args: asyncio.run(a_initiate_swarm_chat(*args)))
    assert sync == async_ and len(sync) == 4


def test_messages_list_starts_from_named_agent(server: ScriptedOpenAIServer, script: Script) -> None:
    a, b = agent(server, "a"), agent(server, "b")
    msgs = [{"role": "user", "content": "hi"}, {"role": "assistant", "name": "b", "content": "hello from b"}]
    with pytest.raises(ValueError, match="Invalid swarm agent name in last message: nobody"):
        initiate_swarm_chat(a, [{"role": "user", "name": "nobody", "content": "x"}], [a, b])
    result, _, last = initiate_swarm_chat(b, [{"role": "user", "name": "b", "content": "hello"}], [a, b])
    assert speakers(result)[:2] == ["b", "b"]
    del msgs


def test_bad_input(server: ScriptedOpenAIServer, script: Script) -> None:
    a, b, outsider = agent(server, "a"), agent(server, "b"), agent(server, "outsider")
    with pytest.raises(AssertionError, match="'condition' must be a non-empty string"):
        ON_CONDITION(b, 42)  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="'target' must be a SwarmAgent or a Dict"):
        ON_CONDITION("b", "to b")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="TERMINATE, REVERT_TO_USER, STAY, SWARM_MANAGER"):
        AFTER_WORK("later")
    # As in ag2 0.7.3, an AFTER_WORK's value is checked when the hand-off is registered.
    with pytest.raises(ValueError, match="Invalid After Work value: .*it accepts an AfterWorkOption"):
        a.register_hand_off(AFTER_WORK(3))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="it accepts an AFTER_WORK"):
        initiate_swarm_chat(a, "hi", [a, b], after_work=3)  # type: ignore[arg-type]
    a.register_hand_off(ON_CONDITION(outsider, "to outsider"))
    with pytest.raises(ValueError, match="'a' hands off to 'outsider', which is not in the swarm"):
        initiate_swarm_chat(a, "hi", [a, b])
    with pytest.raises(ValueError, match="hand_to must be a list"):
        a.register_hand_off("b")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be a callable or a list of callables"):
        SwarmAgent("c", functions=3)  # type: ignore[arg-type]


def test_swarm_result_unknown_agent(server: ScriptedOpenAIServer, script: Script) -> None:
    def go() -> SwarmResult:
        """Go somewhere."""
        return SwarmResult(values="going", agent="nowhere")

    a, b = agent(server, "a", functions=[go]), agent(server, "b")
    script.replies["a"] = [call("go")]
    with pytest.raises(ValueError, match="No agent found with the name 'nowhere'. .*returned by go.*'b'"):
        initiate_swarm_chat(a, "hi", [a, b])
    assert json  # keep import used for readers extending the tests


def test_resume_from_several_messages(server: ScriptedOpenAIServer, script: Script) -> None:
    a, b = agent(server, "a"), agent(server, "b")
    msgs = [{"role": "user", "content": "x"}, {"role": "user", "name": "a", "content": "hello"}]
    result, _, last = initiate_swarm_chat(b, msgs, [a, b], max_rounds=4, after_work=AfterWorkOption.STAY)
    # As in the classic package: the replayed messages, then the initial agent, staying.
    assert speakers(result) == ["chat_manager", "a", "b", "b", "b"] and last is b


def test_nested_chat_handoff(server: ScriptedOpenAIServer, script: Script) -> None:
    a, b = agent(server, "a"), agent(server, "b")
    helper = autogen.AssistantAgent("helper", system_message="I am helper.", llm_config=server.llm_config())
    a.register_hand_off(ON_CONDITION({"chat_queue": [{"recipient": helper, "max_turns": 1, "summary_method":
                                                      "last_msg"}]}, "ask the helper"))
    script.replies["a"] = [call("transfer_a_to_nested_chat_a_1")]
    result, _, last = initiate_swarm_chat(a, "hi", [a, b], max_rounds=6)
    names = speakers(result)
    assert names[:4] == [None, "a", "Tool_Execution", "nested_chat_a_1"]
    assert result.chat_history[3]["content"] == "helper is done."
    assert names[4] == "a"  # the nested chat agent hands back to the agent that handed off


def _carryover_swarm(server: ScriptedOpenAIServer, script: Script, carryover: Any, use_async: bool = False,
                     message: Any = "Write it up") -> tuple[Any, list[dict[str, Any]]]:
    """a hands off to a nested chat with helper whose first chat carries ``carryover``; returns the result and
    the messages of helper's first request."""
    a = agent(server, "a")
    helper = autogen.AssistantAgent("helper", system_message="I am helper.", llm_config=server.llm_config())
    chat: dict[str, Any] = {"recipient": helper, "message": message, "max_turns": 1, "summary_method": "last_msg",
                            "chat_id": 1, "carryover_config": carryover}
    a.register_hand_off([ON_CONDITION({"chat_queue": [chat], "use_async": use_async}, "ask the helper"),
                         AFTER_WORK(AfterWorkOption.TERMINATE)])
    script.replies["a"] = [call("transfer_a_to_nested_chat_a_1"), "a wraps up."]
    messages = [{"role": "user", "content": "first msg"}, {"role": "user", "content": "second msg"}]
    if use_async:
        result, _, _ = asyncio.run(a_initiate_swarm_chat(a, messages, [a], max_rounds=6))
    else:
        result, _, _ = initiate_swarm_chat(a, messages, [a], max_rounds=6)
    first = next(r for r in script.requests if r["agent"] == "helper")
    return result, first["messages"]


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_nested_chat_carryover_all_messages(server: ScriptedOpenAIServer, script: Script, use_async: bool) -> None:
    _, received = _carryover_swarm(server, script, {"summary_method": "all"}, use_async)
    # The swarm's messages before the hand-off (the transfer call and its result are not carried over).
    assert received[-1]["content"] == "Write it up\nContext:\nfirst msg\nsecond msg"
    # The nested chat's summary reaches the swarm, and a, handed back to, answers it.
    back_to_a = [r for r in script.requests if r["agent"] == "a"][-1]["messages"]
    assert back_to_a[-1]["content"] == "helper is done." and back_to_a[-1]["name"] == "nested_chat_a_1"
    assert script.replies["a"] == []  # a answered after the nested chat


def test_nested_chat_carryover_last_message_and_callables(server: ScriptedOpenAIServer, script: Script) -> None:
    _, received = _carryover_swarm(server, script, {"summary_method": "last_msg"})
    assert received[-1]["content"] == "Write it up\nContext:\nsecond msg"

    script.requests.clear()
    seen: list[Any] = []

    def keep_first(agent: Any, messages: list[dict[str, Any]], summary_args: dict[str, Any]) -> str:
        seen.append((agent.name, summary_args))
        return "first was: " + messages[0]["content"]

    _, received = _carryover_swarm(server, script, {"summary_method": keep_first, "summary_args": {"k": 1}},
                                   message=lambda recipient, messages, sender, config: "Made by a callable")
    assert received[-1]["content"] == "Made by a callable\nContext:\nfirst was: first msg"
    assert seen == [("nested_chat_a_1", {"k": 1})]

    script.requests.clear()
    _, received = _carryover_swarm(server, script, {"summary_method": "last_msg"}, message="")
    assert received[-1]["content"] == "Context:\nsecond msg"


def test_nested_chat_carryover_reflection_asks_the_first_recipient(server: ScriptedOpenAIServer, script: Script) -> None:
    script.replies["first msg"] = ["A short summary."]  # the summary request's first message names the "agent"
    _, received = _carryover_swarm(server, script, {"summary_method": "reflection_with_llm",
                                                    "summary_args": {"summary_prompt": "Sum it up."}})
    summary_request = next(r for r in script.requests if r["messages"][-1]["content"] == "Sum it up.")
    assert [m["content"] for m in summary_request["messages"]] == ["first msg", "second msg", "Sum it up."]
    assert received[-1]["content"] == "Write it up\nContext:\nA short summary."


def test_nested_chat_carryover_bad_config_is_refused_at_registration(server: ScriptedOpenAIServer) -> None:
    a = agent(server, "a")
    helper = autogen.AssistantAgent("helper", llm_config=False)
    for config, match in [({"summary_method": "bogus"}, "agent 'a' has carryover_config summary_method='bogus'; "
                                                        "it accepts 'all', 'last_msg', 'reflection_with_llm' or a callable"),
                          ({"summary_args": {}}, "must contain a 'summary_method' key"),
                          ("all", "must be a dict with a 'summary_method' key")]:
        with pytest.raises(ValueError, match=match):
            a.register_hand_off(ON_CONDITION({"chat_queue": [{"recipient": helper, "message": "m",
                                                              "carryover_config": config}]}, "ask"))
    assert a._nested_chat_handoffs == []  # nothing half-registered
