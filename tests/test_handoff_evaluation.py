"""Hand-off conditions have one evaluator, ``groupchat/handoffs/evaluation.py``: whether an entry is available and
whether it holds is asked there, for AG2 0.14's patterns and for the classic swarm alike (context conditions,
LLM conditions' tools, after-works)."""

from __future__ import annotations

import sys
from typing import Any

from autogen_classic import AFTER_WORK, ON_CONDITION, AfterWorkOption, ConversableAgent, SwarmAgent, initiate_swarm_chat
from autogen_classic.agentchat.group import (
    AgentTarget,
    ContextVariables,
    OnCondition,
    OnContextCondition,
    StringLLMCondition,
    TerminateTarget,
)
from autogen_classic.agentchat.group.available_condition import AvailableCondition
from autogen_classic.agentchat.group.context_condition import ContextCondition
from autogen_classic.agentchat.group.multi_agent_chat import initiate_group_chat
from autogen_classic.agentchat.group.patterns import DefaultPattern
from autogen_classic.agentchat.groupchat.handoffs import evaluation
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer

EVALUATOR = evaluation.__name__
ASKED_BY: list[tuple[str, str]] = []  # (what was asked, the module that asked)


def _asker(depth: int) -> str:
    return str(sys._getframe(depth + 1).f_globals["__name__"])


class RecordedAvailable(AvailableCondition):
    """Always available; records who asked."""

    def is_available(self, agent: Any, messages: list[dict[str, Any]]) -> bool:
        ASKED_BY.append(("available", _asker(1)))
        return True


class RecordedCondition(ContextCondition):
    """Holds when the variable ``go`` is set; records who asked."""

    def evaluate(self, context_variables: ContextVariables) -> bool:
        ASKED_BY.append(("condition", _asker(1)))
        return bool(context_variables.get("go", False))


def by_agent(server: ScriptedOpenAIServer, script: dict[str, list[Any]]) -> None:
    def respond(body: dict[str, Any]) -> Any:
        name = body["messages"][0]["content"].split(".")[0].removeprefix("I am ")
        queue = script.get(name) or []
        return queue.pop(0) if queue else f"{name} is done."

    server.set_responder(respond)


def test_patterns_ask_the_one_evaluator(scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream) -> None:
    ASKED_BY.clear()
    cfg = scripted_server.llm_config()
    a, b, c = (ConversableAgent(n, system_message=f"I am {n}.", llm_config=cfg) for n in "abc")
    # LLM condition (offered while available), context condition, after-works with and without a condition.
    a.handoffs.add_llm_condition(OnCondition(target=AgentTarget(b), condition=StringLLMCondition("to b"),
                                             available=RecordedAvailable()))
    b.handoffs.add_context_condition(OnContextCondition(target=AgentTarget(c), condition=RecordedCondition(),
                                                        available=RecordedAvailable()))
    a.handoffs.add_after_work(OnContextCondition(target=AgentTarget(b), condition=RecordedCondition()))
    c.handoffs.set_after_work(TerminateTarget())
    by_agent(scripted_server, {"a": ["a answers"]})
    pattern = DefaultPattern(initial_agent=a, agents=[a, b, c], context_variables=ContextVariables(data={"go": True}))
    result, _, _ = initiate_group_chat(pattern=pattern, messages="hi", max_rounds=10)
    assert [m.get("name") for m in result.chat_history][1:] == ["a", "b", "c"]
    assert result.chat_history[2]["content"] == "[Handing off to c]"
    assert {kind for kind, _ in ASKED_BY} == {"available", "condition"}
    assert {module for _, module in ASKED_BY} == {EVALUATOR}


def test_the_swarm_asks_the_one_evaluator(scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream) -> None:
    ASKED_BY.clear()
    cfg = scripted_server.llm_config()
    a, b = (SwarmAgent(n, system_message=f"I am {n}.", llm_config=cfg) for n in "ab")

    def open_now(agent: Any, messages: list[dict[str, Any]]) -> bool:
        # the callable <- SwarmAvailableCondition.is_available <- the evaluator
        ASKED_BY.append(("available", _asker(2)))
        return True

    a.register_hand_off([ON_CONDITION(b, "to b", available=open_now), AFTER_WORK(AfterWorkOption.TERMINATE)])
    a.handoffs.add_after_work(OnContextCondition(target=AgentTarget(b), condition=RecordedCondition()))
    b.register_hand_off(AFTER_WORK(AfterWorkOption.TERMINATE))
    by_agent(scripted_server, {"a": ["a answers"]})
    result, _, last = initiate_swarm_chat(a, "hi", [a, b], context_variables={"go": False}, max_rounds=6)
    assert last is a and [m.get("name") for m in result.chat_history][1:] == ["a"]
    assert {kind for kind, _ in ASKED_BY} == {"available", "condition"}
    assert {module for _, module in ASKED_BY} == {EVALUATOR}
