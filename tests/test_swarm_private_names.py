"""The classic swarm's module-level helpers, called directly on real agents as ag2 0.7.3's own swarm tests call
them: ``__TOOL_EXECUTOR_NAME__``, ``_prepare_swarm_agents``, ``_create_nested_chats``, ``_process_initial_messages``,
``_setup_context_variables``, ``_cleanup_temp_user_messages`` and ``_determine_next_agent`` at
``agentchat.contrib.swarm_agent``, and the swarm's names re-exported by ``autogen.agentchat``.

The expected values are those ag2 0.7.3 gives for the same calls (one exception, said where it is).
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from autogen_classic.agentchat import ChatResult, ConversableAgent, GroupChat, GroupChatManager, UserProxyAgent
from autogen_classic.agentchat.contrib.swarm_agent import (
    __CONTEXT_VARIABLES_PARAM_NAME__,
    __TOOL_EXECUTOR_NAME__,
    AFTER_WORK,
    ON_CONDITION,
    AfterWorkOption,
    SwarmAgent,
    SwarmResult,
    _cleanup_temp_user_messages,
    _create_nested_chats,
    _determine_next_agent,
    _prepare_swarm_agents,
    _process_initial_messages,
    _setup_context_variables,
    create_swarm_transition,
    initiate_swarm_chat,
)
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply

TERMINATE = AFTER_WORK(AfterWorkOption.TERMINATE)


def _transfer_call(caller: str, function: str, call_id: str = "call_1") -> dict[str, Any]:
    return {"role": "assistant", "name": caller, "content": None,
            "tool_calls": [{"id": call_id, "type": "function", "function": {"name": function, "arguments": "{}"}}]}


# --------------------------------------------------------------------------- the names
def test_the_names_import_from_their_classic_paths() -> None:
    import autogen_classic.agentchat as agentchat
    from autogen_classic.agentchat import (  # ag2 0.7.3's autogen.agentchat re-exports the swarm
        AFTER_WORK as AW,
        ON_CONDITION as OC,
        UPDATE_SYSTEM_MESSAGE,
        AfterWorkOption as AWO,
        SwarmAgent as SA,
        SwarmResult as SR,
        a_initiate_swarm_chat,
        initiate_swarm_chat as isc,
    )
    from autogen_classic.agentchat.contrib import swarm_agent

    assert (SA, OC, AW, AWO, SR, isc) == (SwarmAgent, ON_CONDITION, AFTER_WORK, AfterWorkOption, SwarmResult,
                                          initiate_swarm_chat)
    assert swarm_agent.UPDATE_SYSTEM_MESSAGE is UPDATE_SYSTEM_MESSAGE
    assert swarm_agent.a_initiate_swarm_chat is a_initiate_swarm_chat
    for name in ("SwarmAgent", "ON_CONDITION", "AFTER_WORK", "AfterWorkOption", "SwarmResult",
                 "UPDATE_SYSTEM_MESSAGE", "initiate_swarm_chat", "a_initiate_swarm_chat"):
        assert name in agentchat.__all__
    assert __TOOL_EXECUTOR_NAME__ == "Tool_Execution"
    assert __CONTEXT_VARIABLES_PARAM_NAME__ == "context_variables"


@pytest.mark.parametrize("function, parameters", [
    (_prepare_swarm_agents, ["initial_agent", "agents"]),
    (_create_nested_chats, ["agent", "nested_chat_agents"]),
    (_process_initial_messages, ["messages", "user_agent", "agents", "nested_chat_agents"]),
    (_setup_context_variables, ["tool_execution", "agents", "manager", "context_variables"]),
    (_cleanup_temp_user_messages, ["chat_result"]),
    (_determine_next_agent, ["last_speaker", "groupchat", "initial_agent", "use_initial_agent", "tool_execution",
                             "swarm_agent_names", "user_agent", "swarm_after_work"]),
])
def test_classic_signatures(function: Any, parameters: list[str]) -> None:
    assert list(inspect.signature(function).parameters) == parameters


# --------------------------------------------------------------------------- _prepare_swarm_agents
def test_prepare_swarm_agents(scripted_server: ScriptedOpenAIServer) -> None:
    llm_config = scripted_server.llm_config()
    agent1 = SwarmAgent("agent1", llm_config=llm_config)
    agent2 = SwarmAgent("agent2", llm_config=llm_config)
    helper = SwarmAgent("helper", llm_config=False)

    def test_func1() -> str:
        """One."""
        return "one"

    def test_func2(city: str, context_variables: dict[str, Any]) -> str:
        """Two."""
        return city

    agent1.add_single_function(test_func1)
    agent2.add_single_function(test_func2)
    agent1.register_hand_off([ON_CONDITION(agent2, "to two"), ON_CONDITION(agent2, "to two again"),
                              AFTER_WORK(agent=agent2)])
    agent2.register_hand_off(ON_CONDITION({"chat_queue": [{"recipient": helper, "message": "m", "max_turns": 1}]},
                                          "ask the helper"))

    tool_executor, nested_chat_agents = _prepare_swarm_agents(agent1, [agent1, agent2])

    assert tool_executor.name == __TOOL_EXECUTOR_NAME__
    assert tool_executor.system_message == "Tool Execution"
    # The executor runs every agent's functions and transfer functions (unique names for a repeated target).
    assert sorted(tool_executor._function_map) == [
        "test_func1", "test_func2", "transfer_agent1_to_agent2", "transfer_agent1_to_agent2_2",
        "transfer_agent2_to_nested_chat_agent2_1"]
    assert [a.name for a in nested_chat_agents] == ["nested_chat_agent2_1"]
    assert isinstance(nested_chat_agents[0], SwarmAgent) and nested_chat_agents[0].after_work.agent is agent2
    # The model never sees the context_variables parameter.
    schema = next(t["function"] for t in agent2.llm_config["tools"] if t["function"]["name"] == "test_func2")
    assert schema["parameters"] == {"type": "object", "properties": {"city": {"type": "string", "description": "city"}},
                                    "required": ["city"]}


def test_prepare_swarm_agents_refuses_what_the_classic_refuses(scripted_server: ScriptedOpenAIServer) -> None:
    llm_config = scripted_server.llm_config()
    agent1, agent2 = SwarmAgent("agent1", llm_config=llm_config), SwarmAgent("agent2", llm_config=llm_config)
    agent3 = SwarmAgent("agent3", llm_config=llm_config)
    with pytest.raises(AssertionError, match="initial_agent must be a SwarmAgent"):
        _prepare_swarm_agents(ConversableAgent("invalid"), [agent1, agent2])
    with pytest.raises(AssertionError, match="Agents must be a list of SwarmAgents"):
        _prepare_swarm_agents(agent1, [agent1, ConversableAgent("invalid")])
    agent3.register_hand_off(AFTER_WORK(agent=SwarmAgent("missing")))
    with pytest.raises(AssertionError, match="Agent in hand-off must be in the agents list") as error:
        _prepare_swarm_agents(agent1, [agent1, agent2, agent3])
    assert isinstance(error.value, ValueError) and "'agent3' hands off to 'missing'" in str(error.value)


def test_the_prepared_executor_runs_tools_and_holds_the_hand_off(scripted_server: ScriptedOpenAIServer) -> None:
    llm_config = scripted_server.llm_config()
    received: list[dict[str, Any]] = []

    def record_order(order_id: str, context_variables: dict[str, Any]) -> SwarmResult:
        """Record the order."""
        received.append(dict(context_variables))
        return SwarmResult(values=f"Order {order_id} recorded", context_variables={"order_id": order_id})

    agent1 = SwarmAgent("agent1", llm_config=llm_config, functions=[record_order])
    agent2 = SwarmAgent("agent2", llm_config=llm_config)
    agent1.register_hand_off(ON_CONDITION(agent2, "to two"))
    tool_execution, nested = _prepare_swarm_agents(agent1, [agent1, agent2])
    groupchat = GroupChat(agents=[tool_execution, agent1, agent2, *nested], messages=[])
    manager = GroupChatManager(groupchat)
    context = {"customer": "Ada"}
    _setup_context_variables(tool_execution, [agent1, agent2], manager, context)

    call = {"role": "assistant", "name": "agent1", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "record_order", "arguments": '{"order_id": "A7"}'}},
        {"id": "c2", "type": "function", "function": {"name": "transfer_agent1_to_agent2", "arguments": "{}"}}]}
    reply = tool_execution.generate_reply(messages=[call], sender=agent1)

    assert reply["role"] == "tool" and reply["content"] == "Order A7 recorded\nSwarmAgent --> agent2"
    assert received == [{"customer": "Ada"}] and context == {"customer": "Ada", "order_id": "A7"}
    # The hand-off waits on the executor until the next speaker is chosen, then is spent.
    groupchat.messages = [{"role": "user", "content": "hi"}, call, {**reply, "name": __TOOL_EXECUTOR_NAME__}]
    names = ["agent1", "agent2"]
    assert _determine_next_agent(tool_execution, groupchat, agent1, False, tool_execution, names, None,
                                 TERMINATE) is agent2
    assert _determine_next_agent(tool_execution, groupchat, agent1, False, tool_execution, names, None,
                                 TERMINATE) is agent1  # after tool responses: back to the agent that called them
    # ag2 0.7.3 code may set the pending hand-off itself.
    tool_execution._next_agent = "agent2"
    assert _determine_next_agent(tool_execution, groupchat, agent1, False, tool_execution, names, None,
                                 TERMINATE) is agent2
    assert tool_execution._next_agent is None


# --------------------------------------------------------------------------- _determine_next_agent
@pytest.fixture
def plain_swarm() -> dict[str, Any]:
    b1, b2 = SwarmAgent("b1"), SwarmAgent("b2")
    user = UserProxyAgent("user", code_execution_config=False)
    tool_execution = SwarmAgent(__TOOL_EXECUTOR_NAME__)
    groupchat = GroupChat(agents=[tool_execution, b1, b2, user], messages=[])
    return {"b1": b1, "b2": b2, "user": user, "te": tool_execution, "groupchat": groupchat}


def _next(swarm: dict[str, Any], last: Any, messages: list[dict[str, Any]], after_work: Any,
          use_initial_agent: bool = False, user_agent: Any = None) -> Any:
    swarm["groupchat"].messages = messages
    return _determine_next_agent(
        last_speaker=last, groupchat=swarm["groupchat"], initial_agent=swarm["b1"], use_initial_agent=use_initial_agent,
        tool_execution=swarm["te"], swarm_agent_names=["b1", "b2"], user_agent=user_agent, swarm_after_work=after_work)


def test_determine_next_agent(plain_swarm: dict[str, Any]) -> None:
    s = plain_swarm
    b1, b2, user, te = s["b1"], s["b2"], s["user"], s["te"]
    said = [{"role": "user", "name": "b2", "content": "hello"}]
    assert _next(s, b2, [], TERMINATE, use_initial_agent=True) is b1
    assert _next(s, b2, [_transfer_call("b2", "f")], TERMINATE) is te
    assert _next(s, te, [{"role": "assistant", "name": "b2", "content": "x"},
                         {"role": "tool", "name": __TOOL_EXECUTOR_NAME__, "content": "r"}], TERMINATE) is b2
    assert _next(s, b2, said, TERMINATE) is None
    assert _next(s, b2, said, AfterWorkOption.TERMINATE) is None
    assert _next(s, b2, said, AFTER_WORK(AfterWorkOption.STAY)) is b2
    assert _next(s, b2, said, AFTER_WORK("stay")) is b2
    assert _next(s, b2, said, AFTER_WORK(AfterWorkOption.REVERT_TO_USER)) is None
    assert _next(s, b2, said, AFTER_WORK(AfterWorkOption.REVERT_TO_USER), user_agent=user) is user
    assert _next(s, b2, said, AFTER_WORK(AfterWorkOption.SWARM_MANAGER)) == "auto"
    assert _next(s, b2, said, AFTER_WORK(b1)) is b1
    # The user spoke: back to the swarm agent before it.
    assert _next(s, user, said + [{"role": "user", "name": "user", "content": "more"}], TERMINATE,
                 user_agent=user) is b2


def test_determine_next_agent_callable_after_work(plain_swarm: dict[str, Any]) -> None:
    s = plain_swarm
    seen: list[tuple[str, int, bool]] = []

    def after_work(last_speaker: SwarmAgent, messages: list[dict[str, Any]], groupchat: GroupChat) -> str:
        seen.append((last_speaker.name, len(messages), groupchat is s["groupchat"]))
        return "b1"

    said = [{"role": "user", "name": "b2", "content": "hello"}]
    assert _next(s, s["b2"], said, after_work) is s["b1"]
    assert _next(s, s["b2"], said, AFTER_WORK(after_work)) is s["b1"]
    assert seen == [("b2", 1, True)] * 2
    with pytest.raises(ValueError, match="Invalid After Work condition or return value from callable"):
        _next(s, s["b2"], said, lambda last_speaker, messages, groupchat: 42)
    with pytest.raises(ValueError, match="Invalid agent name in after_work: nobody"):
        _next(s, s["b2"], said, lambda last_speaker, messages, groupchat: "nobody")


def test_determine_next_agent_agent_level_after_work(plain_swarm: dict[str, Any]) -> None:
    s = plain_swarm
    said = [{"role": "user", "name": "b2", "content": "hello"}]
    s["b2"].register_hand_off(AFTER_WORK(s["b1"]))
    assert _next(s, s["b2"], said, TERMINATE) is s["b1"]  # the agent's own AFTER_WORK comes first
    s["b2"].after_work = AFTER_WORK(AfterWorkOption.STAY)  # assigned directly, as ag2 0.7.3 code may
    assert _next(s, s["b2"], said, TERMINATE) is s["b2"]
    s["b2"].after_work = None
    assert _next(s, s["b2"], said, TERMINATE) is None


def test_determine_next_agent_pending_hand_off(plain_swarm: dict[str, Any]) -> None:
    """An agent standing for the tool executor holds the pending hand-off in ``_next_agent``, as in ag2 0.7.3."""
    s = plain_swarm
    te = s["te"]
    te._next_agent = s["b2"]
    assert _next(s, s["b1"], [{"role": "user", "name": "b1", "content": "x"}], TERMINATE) is s["b2"]
    assert te._next_agent is None  # spent
    te._next_agent = "b1"
    assert _next(s, s["b2"], [{"role": "user", "name": "b2", "content": "x"}], TERMINATE) is s["b1"]
    te._next_agent = AfterWorkOption.STAY
    assert _next(s, s["b2"], [{"role": "user", "name": "b2", "content": "x"}], TERMINATE) is s["b2"]
    te._next_agent = "nobody"
    with pytest.raises(ValueError, match="No agent found with the name 'nobody'"):
        _next(s, s["b2"], [{"role": "user", "name": "b2", "content": "x"}], TERMINATE)


def test_determine_next_agent_without_a_swarm_agent(plain_swarm: dict[str, Any]) -> None:
    s = plain_swarm
    with pytest.raises(ValueError, match="found in the message history"):
        _next(s, s["user"], [{"role": "user", "name": "user", "content": "x"}], TERMINATE, user_agent=s["user"])


# --------------------------------------------------------------------------- _process_initial_messages
def test_process_initial_messages() -> None:
    agent1, agent2 = SwarmAgent("agent1"), SwarmAgent("agent2")
    nested_agent = SwarmAgent("nested_chat_agent1_1")
    user_agent = UserProxyAgent("test_user", code_execution_config=False)
    names = ["agent1", "agent2", "nested_chat_agent1_1"]

    processed, last_agent, swarm_agent_names, temp_user_list = _process_initial_messages(
        "Initial message", None, [agent1, agent2], [nested_agent])
    assert processed == [{"role": "user", "content": "Initial message"}]
    assert isinstance(last_agent, UserProxyAgent) and last_agent.name == "_User"
    assert temp_user_list == [last_agent] and swarm_agent_names == names

    for messages, user, expected in [
        ([{"role": "user", "content": "Test", "name": "agent1"}], user_agent, agent1),
        ([{"role": "user", "content": "Test", "name": "test_user"}], user_agent, user_agent),
        ([{"role": "user", "content": "Test", "name": "nested_chat_agent1_1"}], None, nested_agent),
        ([{"role": "user", "content": "Test"}], user_agent, user_agent),
        ([{"role": "user", "content": "T"}, {"role": "user", "content": "U"}], None, None),
    ]:
        processed, last_agent, swarm_agent_names, temp_user_list = _process_initial_messages(
            messages, user, [agent1, agent2], [nested_agent])
        assert processed is messages and last_agent is expected
        assert swarm_agent_names == names and temp_user_list == []

    with pytest.raises(ValueError, match="Invalid swarm agent name in last message: invalid_agent"):
        _process_initial_messages([{"role": "user", "content": "Test", "name": "invalid_agent"}], user_agent,
                                  [agent1, agent2], [nested_agent])


# --------------------------------------------------------------------------- _setup_context_variables
def test_setup_context_variables() -> None:
    tool_execution = SwarmAgent(__TOOL_EXECUTOR_NAME__)
    agent1, agent2 = SwarmAgent("agent1"), SwarmAgent("agent2")
    manager = GroupChatManager(GroupChat(agents=[tool_execution, agent1, agent2], messages=[]))
    test_context = {"test_key": "test_value"}

    assert _setup_context_variables(tool_execution, [agent1, agent2], manager, test_context) is None

    for agent in (tool_execution, agent1, agent2, manager):
        assert agent._context_variables is test_context
    agent1._context_variables["seen"] = True
    assert agent2.get_context("seen") is True and test_context["seen"] is True


# --------------------------------------------------------------------------- _cleanup_temp_user_messages
def test_cleanup_temp_user_messages() -> None:
    chat_result = ChatResult(chat_history=[
        {"role": "user", "name": "_User", "content": "Test 1"},
        {"role": "assistant", "name": "agent1", "content": "Response 1"},
        {"role": "user", "name": "_User", "content": "Test 2"},
    ])
    assert _cleanup_temp_user_messages(chat_result) is None
    assert chat_result.chat_history == [
        {"role": "user", "content": "Test 1"},
        {"role": "assistant", "name": "agent1", "content": "Response 1"},
        {"role": "user", "content": "Test 2"},
    ]


# --------------------------------------------------------------------------- _create_nested_chats
def test_create_nested_chats(scripted_server: ScriptedOpenAIServer) -> None:
    test_agent = SwarmAgent("test_agent", llm_config=scripted_server.llm_config())
    test_agent_2 = SwarmAgent("test_agent_2", llm_config=False)
    test_agent_2.register_reply([ConversableAgent, None],
                                lambda recipient, messages, sender, config: (True, "order 42, two items"), position=0)
    nested_chat_config = {
        "chat_queue": [{"recipient": test_agent_2, "message": "Extract the order details", "max_turns": 1,
                        "summary_method": "last_msg"}],
        "reply_func_from_nested_chats": "summary_from_nested_chats",
        "config": None,
        "use_async": False,
    }
    test_agent.register_hand_off(ON_CONDITION(target=nested_chat_config, condition="test condition"))
    nested_chat_agents: list[Any] = []

    assert _create_nested_chats(test_agent, nested_chat_agents) is None

    assert len(nested_chat_agents) == 1
    nested = nested_chat_agents[0]
    assert nested.name == f"nested_chat_{test_agent.name}_1" and isinstance(nested, SwarmAgent)
    assert nested.after_work.agent is test_agent  # hands back to the agent whose hand-off led to it
    # Handed off to, it runs the nested chat and answers with its summary.
    reply = nested.generate_reply(messages=[{"role": "user", "content": "please", "name": "other"}],
                                  sender=SwarmAgent("other"))
    assert reply == "order 42, two items"
    assert [m["content"] for m in test_agent_2.chat_messages[nested]] == ["Extract the order details",
                                                                         "order 42, two items"]
    # test_agent's hand-off now leads to the nested-chat agent: the swarm offers the transfer tool. Preparing the
    # swarm uses that agent (ag2 0.7.3 makes a second one here, with a second transfer tool "..._2").
    executor, agents = _prepare_swarm_agents(test_agent, [test_agent])
    assert agents == [nested] and "transfer_test_agent_to_nested_chat_test_agent_1" in executor._function_map


# --------------------------------------------------------------------------- the steps make a swarm chat
def _refund_desk(llm_config: dict[str, Any]) -> tuple[SwarmAgent, SwarmAgent]:
    def record_order(order_id: str, context_variables: dict[str, Any]) -> SwarmResult:
        """Record the order."""
        return SwarmResult(values=f"Order {order_id} recorded", context_variables={"order_id": order_id})

    triage = SwarmAgent("triage", system_message="I am triage.", llm_config=llm_config, functions=[record_order])
    refunds = SwarmAgent("refunds", system_message="I am refunds.", llm_config=llm_config)
    triage.register_hand_off(ON_CONDITION(refunds, "The user wants a refund"))
    return triage, refunds


def _script(server: ScriptedOpenAIServer) -> None:
    server.add_replies(
        ScriptedReply(content=None, tool_calls=[{"name": "record_order", "arguments": {"order_id": "A7"}},
                                                {"name": "transfer_triage_to_refunds", "arguments": {}}]),
        "Refund started.")


def test_the_steps_run_a_swarm_as_initiate_swarm_chat_does(scripted_server: ScriptedOpenAIServer) -> None:
    """ag2 0.7.3's ``initiate_swarm_chat`` is these steps; composed by hand they give the same chat."""
    triage, refunds = _refund_desk(scripted_server.llm_config())
    _script(scripted_server)
    agents = [triage, refunds]
    context = {"customer": "Ada"}
    tool_execution, nested_chat_agents = _prepare_swarm_agents(triage, agents)
    messages, last_agent, names, temp_users = _process_initial_messages("Refund please", None, agents,
                                                                        nested_chat_agents)
    transition = create_swarm_transition(initial_agent=triage, tool_execution=tool_execution,
                                         swarm_agent_names=names, user_agent=None, swarm_after_work=TERMINATE)
    groupchat = GroupChat(agents=[tool_execution] + agents + nested_chat_agents + temp_users, messages=[],
                          max_round=20, speaker_selection_method=transition)
    manager = GroupChatManager(groupchat)
    _setup_context_variables(tool_execution, agents, manager, context)
    result = last_agent.initiate_chat(manager, message=messages[0], clear_history=True)
    _cleanup_temp_user_messages(result)

    by_steps = [(m.get("name"), m.get("role"), m.get("content")) for m in result.chat_history]
    assert by_steps == [(None, "assistant", "Refund please"), ("triage", "assistant", "None"),
                        ("Tool_Execution", "tool", "Order A7 recorded\nSwarmAgent --> refunds"),
                        ("refunds", "user", "Refund started.")]
    assert context == {"customer": "Ada", "order_id": "A7"} and manager.last_speaker is refunds
    offered = [[t["function"]["name"] for t in r.get("tools") or []] for r in scripted_server.requests]
    assert offered == [["record_order", "transfer_triage_to_refunds"], []]

    # The same swarm through initiate_swarm_chat.
    scripted_server.reset()
    triage, refunds = _refund_desk(scripted_server.llm_config())
    _script(scripted_server)
    context = {"customer": "Ada"}
    result, returned, last = initiate_swarm_chat(triage, "Refund please", [triage, refunds],
                                                 context_variables=context)
    assert [(m.get("name"), m.get("role"), m.get("content")) for m in result.chat_history] == by_steps
    assert returned is context and context == {"customer": "Ada", "order_id": "A7"} and last is refunds
