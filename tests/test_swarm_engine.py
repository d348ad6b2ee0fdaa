"""The classic swarm runs on the one hand-off engine (``groupchat/handoffs/``), configured by its style.

The swarm's ``Tool_Execution`` is the engine's ``GroupToolExecutor``, its transition the engine's
``GroupTransition``; ``ON_CONDITION`` / ``AFTER_WORK`` are kept as the engine's ``OnCondition`` and after-work
target in ``agent.handoffs``. So AG2 0.14's hand-offs work on swarm agents too, and what the engine adds
(a pending hand-off read by ``HandoffTermination``) serves both APIs. Where the two APIs disagree, each keeps
its own behaviour (the ``HandoffStyle``); those points are tested here against what ag2 0.7.3 does.
"""

from __future__ import annotations

import asyncio
from typing import Any

from autogen_classic import (
    AFTER_WORK,
    ON_CONDITION,
    AfterWorkOption,
    ConversableAgent,
    GroupChatManager,
    HandoffTermination,
    SwarmAgent,
    SwarmResult,
    UserProxyAgent,
    a_initiate_swarm_chat,
    initiate_swarm_chat,
)
from autogen_classic.agentchat.contrib.swarm_agent import create_swarm_transition
from autogen_classic.agentchat.group import (
    AgentNameTarget,
    AgentTarget,
    ContextExpression,
    ContextVariables,
    ExpressionContextCondition,
    OnCondition,
    OnContextCondition,
    ReplyResult,
    StringAvailableCondition,
    StringLLMCondition,
    TerminateTarget,
)
from autogen_classic.agentchat.group.group_tool_executor import GroupToolExecutor
from autogen_classic.agentchat.group.multi_agent_chat import initiate_group_chat
from autogen_classic.agentchat.group.patterns import DefaultPattern
from autogen_classic.agentchat.groupchat.handoffs import GROUP_STYLE, GroupTransition
from autogen_classic.agentchat.groupchat.swarm import SWARM_STYLE
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply


def call(name: str, **arguments: Any) -> ScriptedReply:
    return ScriptedReply(content=None, tool_calls=[{"name": name, "arguments": arguments}])


def by_agent(server: ScriptedOpenAIServer, script: dict[str, list[Any]]) -> None:
    """Answer each request from the queue of the agent named by its system message ("I am <name>.")."""

    def respond(body: dict[str, Any]) -> Any:
        name = body["messages"][0]["content"].split(".")[0].removeprefix("I am ")
        queue = script.get(name) or []
        return queue.pop(0) if queue else f"{name} is done."

    server.set_responder(respond)


def swarm_agent(server: ScriptedOpenAIServer, name: str, **kwargs: Any) -> SwarmAgent:
    return SwarmAgent(name, system_message=f"I am {name}.", llm_config=server.llm_config(), **kwargs)


def manager_of(agent: Any) -> GroupChatManager:
    return [a for a in agent.chat_messages if isinstance(a, GroupChatManager)][-1]


def names(result: Any) -> list[Any]:
    return [m.get("name") for m in result.chat_history]


def test_the_swarm_is_the_engine_in_its_style(scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream) -> None:
    triage, refunds = swarm_agent(scripted_server, "triage"), swarm_agent(scripted_server, "refunds")
    triage.register_hand_off([ON_CONDITION(refunds, "The user wants a refund", available="open"),
                              AFTER_WORK(AfterWorkOption.STAY)])
    # The classic hand-offs are kept as the engine's conditions.
    [condition] = triage.handoffs.llm_conditions
    assert isinstance(condition, OnCondition) and condition.condition == StringLLMCondition("The user wants a refund")
    assert condition.available == StringAvailableCondition("open")
    assert len(triage.handoffs.after_works) == 1 and triage.after_work.agent is AfterWorkOption.STAY

    by_agent(scripted_server, {"triage": [call("transfer_triage_to_refunds")]})
    initiate_swarm_chat(triage, "refund please", [triage, refunds], context_variables={"open": True}, max_rounds=4)
    groupchat = manager_of(triage).groupchat
    executor = groupchat.agents[0]
    assert type(executor) is GroupToolExecutor and executor.name == "Tool_Execution"
    assert executor.style is SWARM_STYLE and executor.system_message == "Tool Execution"
    assert isinstance(groupchat.speaker_selection_method, GroupTransition)
    assert condition.llm_function_name == "transfer_triage_to_refunds"
    # One executor: the swarm's group has no other agent running tools.
    assert [a.name for a in groupchat.agents] == ["Tool_Execution", "triage", "refunds", "_User"]
    # As in ag2 0.7.3, the transfer function is one of the agent's functions once offered; nothing printed the
    # transition the way AG2 0.14 does.
    assert "transfer_triage_to_refunds" in triage.function_map
    assert "handoff" not in "".join(console.chunks)

    transition = create_swarm_transition(triage, GroupToolExecutor(style=SWARM_STYLE), ["triage"], None,
                                         AFTER_WORK(AfterWorkOption.TERMINATE))
    assert isinstance(transition, GroupTransition) and transition.style is SWARM_STYLE


def test_0_14_hand_offs_on_swarm_agents(scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream) -> None:
    a, b, c = (swarm_agent(scripted_server, n) for n in "abc")

    def upgrade(context_variables: dict) -> ReplyResult:
        """Upgrade the customer."""
        return ReplyResult(message="upgraded", target=AgentTarget(c), context_variables={"vip": True})

    a.add_functions([upgrade])
    # A context condition of AG2 0.14, over the swarm's plain dict of context variables.
    b.handoffs.add_context_condition(OnContextCondition(
        target=AgentTarget(a), condition=ExpressionContextCondition(ContextExpression("${vip} == False"))))
    b.register_hand_off(AFTER_WORK(c))
    c.register_hand_off(AFTER_WORK(AfterWorkOption.TERMINATE))
    a.register_hand_off(ON_CONDITION(b, "to b"))
    by_agent(scripted_server, {"a": [call("transfer_a_to_b"), call("upgrade")]})
    state = {"vip": False}
    result, context, last = initiate_swarm_chat(a, "hi", [a, b, c], context_variables=state, max_rounds=10)
    # b hands back to a at once (its context condition); a's tool returns a 0.14 ReplyResult naming c.
    assert names(result) == [None, "a", "Tool_Execution", "b", "a", "Tool_Execution", "c"]
    assert result.chat_history[3]["content"] == "[Handing off to a]"
    assert context is state and state == {"vip": True} and last is c
    reasons = [r.reason for r in manager_of(a).groupchat.selection_log]
    assert "handoff: b -> a, ${vip} == False" in reasons
    assert "handoff: a -> c, upgrade" in reasons


def test_where_the_apis_disagree_each_keeps_its_own(scripted_server: ScriptedOpenAIServer,
                                                    console: ScriptedIOStream) -> None:
    seen: list[Any] = []

    def note(text: str, context_variables: dict) -> str:
        """Note something."""
        seen.append(type(context_variables).__name__)
        context_variables["noted"] = text  # a copy, as in ag2 0.7.3: only a SwarmResult changes the swarm's
        return {"noted": text}  # type: ignore[return-value]

    a = swarm_agent(scripted_server, "a", functions=[note])
    a.register_hand_off(AFTER_WORK(AfterWorkOption.REVERT_TO_USER))
    by_agent(scripted_server, {"a": [call("note", text="x")]})
    state: dict[str, Any] = {}
    result, _, _ = initiate_swarm_chat(a, "hi", [a], context_variables=state, max_rounds=5)
    assert seen == ["dict"] and state == {}
    # The response text is str() of the result (AG2 0.14 would send JSON); REVERT_TO_USER without a user agent
    # ends the chat (AG2 0.14's RevertToUserTarget raises).
    assert result.chat_history[2]["content"] == "{'noted': 'x'}"
    assert names(result) == [None, "a", "Tool_Execution", "a"]
    # The printed call shows the context variables among the arguments, as ag2 0.7.3 prints it.
    assert "Input arguments: {'text': 'x', 'context_variables': {}}" in "".join(console.chunks)

    # A SwarmResult asking to STAY stays with the agent that called the tool (not with the tool executor).
    def hold() -> SwarmResult:
        """Hold on."""
        return SwarmResult(values="holding", agent=AfterWorkOption.STAY)

    b = swarm_agent(scripted_server, "b", functions=[hold])
    by_agent(scripted_server, {"b": [call("hold")]})
    result, _, last = initiate_swarm_chat(b, "hi", [b], max_rounds=4)
    assert names(result) == [None, "b", "Tool_Execution", "b"] and last is b
    assert GROUP_STYLE.resolve_pending_for_agent is False and SWARM_STYLE.resolve_pending_for_agent is True


def test_a_swarm_runs_twice_with_its_nested_chat(scripted_server: ScriptedOpenAIServer,
                                                 console: ScriptedIOStream) -> None:
    a, b = swarm_agent(scripted_server, "a"), swarm_agent(scripted_server, "b")
    helper = ConversableAgent("helper", system_message="I am helper.", llm_config=scripted_server.llm_config())
    a.register_hand_off([ON_CONDITION({"chat_queue": [{"recipient": helper, "max_turns": 1,
                                                       "summary_method": "last_msg"}]}, "ask the helper"),
                         ON_CONDITION(b, "to b"), AFTER_WORK(AfterWorkOption.TERMINATE)])
    for _ in range(2):
        scripted_server.reset()
        by_agent(scripted_server, {"a": [call("transfer_a_to_nested_chat_a_1"), "a wraps up."]})
        result, _, last = initiate_swarm_chat(a, "hi", [a, b], max_rounds=8)
        assert names(result) == [None, "a", "Tool_Execution", "nested_chat_a_1", "a"] and last is a
        assert result.chat_history[3]["content"] == "helper is done."
        # As in ag2 0.7.3, the nested chat's transfer comes after the agent's other hand-offs.
        offered = [t["function"]["name"] for t in scripted_server.requests[0]["tools"]]
        assert offered == ["transfer_a_to_b", "transfer_a_to_nested_chat_a_1"]
    assert [n.name for n in a._nested_chat_agents] == ["nested_chat_a_1"]  # made once, used again


def test_async_swarm_runs_async_functions_on_the_engine(scripted_server: ScriptedOpenAIServer,
                                                        console: ScriptedIOStream) -> None:
    async def look_up(order: str, context_variables: dict) -> SwarmResult:
        """Look an order up."""
        await asyncio.sleep(0)
        return SwarmResult(values=f"found {order}", agent="b", context_variables={"order": order})

    a, b = swarm_agent(scripted_server, "a", functions=[look_up]), swarm_agent(scripted_server, "b")
    user = UserProxyAgent("customer", human_input_mode="NEVER", code_execution_config=False)
    by_agent(scripted_server, {"a": [call("look_up", order="A-1")]})
    state: dict[str, Any] = {}
    result, _, last = asyncio.run(a_initiate_swarm_chat(a, "hi", [a, b], user_agent=user, context_variables=state))
    assert names(result) == ["customer", "a", "Tool_Execution", "b"] and last is b
    assert result.chat_history[2]["content"] == "found A-1" and state == {"order": "A-1"}
    offered = scripted_server.requests[0]["tools"][0]["function"]
    assert offered["name"] == "look_up" and offered["parameters"]["required"] == ["order"]


def test_handoff_termination_reads_a_pending_0_14_hand_off(scripted_server: ScriptedOpenAIServer,
                                                           console: ScriptedIOStream) -> None:
    def refund(amount: int, context_variables: ContextVariables) -> ReplyResult:
        """Refund an amount."""
        return ReplyResult(message=f"Refunded {amount}", target=AgentNameTarget("support"))

    cfg = scripted_server.llm_config()
    billing = ConversableAgent("billing", system_message="I am billing.", llm_config=cfg, functions=[refund])
    support = ConversableAgent("support", system_message="I am support.", llm_config=cfg)
    support.handoffs.set_after_work(TerminateTarget())
    by_agent(scripted_server, {"billing": [call("refund", amount=5)]})
    pattern = DefaultPattern(initial_agent=billing, agents=[billing, support],
                             group_manager_args={"is_termination_msg": HandoffTermination("support")})
    result, _, _ = initiate_group_chat(pattern=pattern, messages="refund", max_rounds=10)
    # The tool's ReplyResult hands off to support: the chat stops before support speaks.
    assert names(result)[-1] == "_Group_Tool_Executor" and result.chat_history[-1]["content"] == "Refunded 5"
    assert result.termination is not None and result.termination.details["form"] == "context"
