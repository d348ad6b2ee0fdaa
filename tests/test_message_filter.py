"""MessageFilterConfig / MessageFilterAgent: a participant replies from a filtered view of a real group chat."""

from __future__ import annotations

import asyncio
from typing import Any, Callable

import pytest

from autogen_classic import AssistantAgent, ConversableAgent, GroupChat, GroupChatManager, UserProxyAgent
from autogen_classic.agentchat.contrib.capabilities.agent_capability import AgentCapability
from autogen_classic.cache import Cache
from autogen_classic.agentchat.contrib.message_filter import (
    MessageFilterAgent,
    MessageFilterConfig,
    PerSourceFilter,
    filter_messages,
)
from autogen_classic.exception_utils import InvalidArgumentError
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply


# ----------------------------------------------------------------- helpers
def counting(name: str) -> ConversableAgent:
    """An agent without a model whose n-th reply is ``<name>n`` (so each message is recognisable)."""
    agent = ConversableAgent(name, llm_config=False, human_input_mode="NEVER", description=f"{name} helps")
    count = {"n": 0}

    def reply(recipient: Any, messages: Any = None, sender: Any = None, config: Any = None) -> tuple[bool, str]:
        count["n"] += 1
        return True, f"{name}{count['n']}"

    agent.register_reply([ConversableAgent, None], reply)
    return agent


def model_agent(server: ScriptedOpenAIServer, name: str, system: str) -> AssistantAgent:
    return AssistantAgent(name, llm_config=server.llm_config(), system_message=system)


def user(name: str, text: str) -> dict[str, Any]:
    return {"content": text, "name": name, "role": "user"}


def requests_with_system(server: ScriptedOpenAIServer, system: str) -> list[list[dict[str, Any]]]:
    """The message lists of the recorded requests whose system message is ``system``."""
    return [r["messages"] for r in server.requests if r["messages"][0] == {"content": system, "role": "system"}]


def reply_by_system(replies: dict[str, list[str]]) -> Callable[[dict[str, Any]], str]:
    """A responder answering each agent (recognised by its system message) from its own queue."""
    queues = {system: list(texts) for system, texts in replies.items()}
    return lambda body: queues[body["messages"][0]["content"]].pop(0)


def chat_a_u_b(server: ScriptedOpenAIServer, config: MessageFilterConfig, max_round: int) -> dict[str, Any]:
    """user, A (filtered, on the model) and B take turns (round robin)."""
    inner = model_agent(server, "inner", "SYS-A")
    a = MessageFilterAgent("A", wrapped_agent=inner, filter=config)
    b = counting("B")
    u = counting("user")
    gc = GroupChat([u, a, b], messages=[], max_round=max_round, speaker_selection_method="round_robin")
    manager = GroupChatManager(gc, llm_config=False)
    return {"inner": inner, "a": a, "b": b, "u": u, "gc": gc, "manager": manager}


# ----------------------------------------------------------------- in a group chat
def test_first_and_last_n_per_source_in_a_group_chat(scripted_server: ScriptedOpenAIServer) -> None:
    config = MessageFilterConfig(per_source=[
        PerSourceFilter(source="user", position="first", count=1),
        PerSourceFilter(source="B", position="last", count=2),
    ])
    parts = chat_a_u_b(scripted_server, config, max_round=8)
    scripted_server.set_responder(reply_by_system({"SYS-A": ["a1", "a2", "a3"]}))
    parts["u"].initiate_chat(parts["manager"], message="task", silent=True)

    # task, A, B, user, A, B, user, A
    assert [m["content"] for m in parts["gc"].messages] == ["task", "a1", "B1", "user1", "a2", "B2", "user2", "a3"]
    sys_a = {"content": "SYS-A", "role": "system"}
    assert [r["messages"] for r in scripted_server.requests] == [
        [sys_a, user("user", "task")],
        [sys_a, user("user", "task"), user("B", "B1")],
        # the last two of B, the first of user, in chat order; A's own replies and later user messages are dropped
        [sys_a, user("user", "task"), user("B", "B1"), user("B", "B2")],
    ]


def test_position_none_keeps_every_message_of_the_source(scripted_server: ScriptedOpenAIServer) -> None:
    config = MessageFilterConfig(per_source=[PerSourceFilter(source="user"), PerSourceFilter(source="A")])
    parts = chat_a_u_b(scripted_server, config, max_round=8)
    scripted_server.set_responder(reply_by_system({"SYS-A": ["a1", "a2", "a3"]}))
    parts["u"].initiate_chat(parts["manager"], message="task", silent=True)

    sys_a = {"content": "SYS-A", "role": "system"}
    own = lambda text: {"content": text, "name": "A", "role": "assistant"}  # noqa: E731
    assert scripted_server.requests[-1]["messages"] == [
        sys_a, user("user", "task"), own("a1"), user("user", "user1"), own("a2"), user("user", "user2"),
    ]  # every message of user and of A itself; B (not listed) is dropped


def test_other_agents_see_everything_and_stores_stay_whole(scripted_server: ScriptedOpenAIServer) -> None:
    inner = model_agent(scripted_server, "inner", "SYS-A")
    before = ConversableAgent("before", llm_config=False, human_input_mode="NEVER")
    inner.chat_messages[before].append(user("before", "an earlier chat of the wrapped agent"))
    a = MessageFilterAgent("A", inner, MessageFilterConfig([PerSourceFilter("user", "last", 1)]))
    c = model_agent(scripted_server, "C", "SYS-C")
    u = counting("user")
    gc = GroupChat([u, a, c], messages=[], max_round=6, speaker_selection_method="round_robin")
    manager = GroupChatManager(gc, llm_config=False)
    scripted_server.set_responder(reply_by_system({"SYS-A": ["a1", "a2"], "SYS-C": ["c1", "c2"]}))
    u.initiate_chat(manager, message="task", silent=True)

    everything = [m["content"] for m in gc.messages]
    assert everything == ["task", "a1", "c1", "user1", "a2", "c2"]
    # C is not filtered: its last request holds the whole chat.
    assert [m["content"] for m in requests_with_system(scripted_server, "SYS-C")[-1][1:]] == everything[:5]
    # A read only the last user message.
    assert requests_with_system(scripted_server, "SYS-A")[-1][1:] == [user("user", "user1")]
    # The wrapper stores the whole conversation; the wrapped agent's own store is as it was.
    assert [m["content"] for m in a.chat_messages[manager]] == everything
    assert dict(inner.chat_messages) == {before: [user("before", "an earlier chat of the wrapped agent")]}
    assert manager not in inner.chat_messages


def test_async_group_chat_filters_the_same_way(scripted_server: ScriptedOpenAIServer) -> None:
    config = MessageFilterConfig([PerSourceFilter("user", "first", 1), PerSourceFilter("B", "last", 1)])
    parts = chat_a_u_b(scripted_server, config, max_round=8)
    scripted_server.set_responder(reply_by_system({"SYS-A": ["a1", "a2", "a3"]}))
    asyncio.run(parts["u"].a_initiate_chat(parts["manager"], message="task", silent=True))

    assert [m["content"] for m in parts["gc"].messages] == ["task", "a1", "B1", "user1", "a2", "B2", "user2", "a3"]
    assert scripted_server.request_count == 3
    assert scripted_server.requests[-1]["messages"][1:] == [user("user", "task"), user("B", "B2")]
    assert dict(parts["inner"].chat_messages) == {}


def test_description_and_two_agent_chat(scripted_server: ScriptedOpenAIServer) -> None:
    inner = AssistantAgent("inner", llm_config=scripted_server.llm_config(), description="Plans trips.")
    config = MessageFilterConfig([PerSourceFilter("alice", "last", 1)])
    assert MessageFilterAgent("A", inner, config).description == "Plans trips."
    assert MessageFilterAgent("A", inner, config, description="Reads little.").description == "Reads little."

    # Outside a group chat too: the wrapped agent's termination rules apply (max_turns ends it here).
    a = MessageFilterAgent("A", inner, config)
    alice = counting("alice")
    scripted_server.add_replies("r1", "r2")
    alice.initiate_chat(a, message="hello", max_turns=2, silent=True)
    assert [r["messages"][1:] for r in scripted_server.requests] == [
        [user("alice", "hello")], [user("alice", "alice1")],
    ]
    assert [m["content"] for m in a.chat_messages[alice]] == ["hello", "r1", "alice1", "r2"]
    assert dict(inner.chat_messages) == {}


def test_the_chat_cache_serves_the_wrapped_agent(scripted_server: ScriptedOpenAIServer, tmp_path: Any) -> None:
    inner = model_agent(scripted_server, "inner", "SYS-A")
    a = MessageFilterAgent("A", inner, MessageFilterConfig([PerSourceFilter("user", "first", 1)]))
    scripted_server.add_reply("a1")
    with Cache.disk(cache_seed=3, cache_path_root=tmp_path) as cache:
        for _ in range(2):  # the second chat is answered from the cache
            u = counting("user")
            gc = GroupChat([u, a], messages=[], max_round=2, speaker_selection_method="round_robin")
            u.initiate_chat(GroupChatManager(gc, llm_config=False), message="task", silent=True, cache=cache)
            assert [m["content"] for m in gc.messages] == ["task", "a1"]
    assert scripted_server.request_count == 1
    assert inner.client_cache is None and a.client_cache is None  # lent for the chat only


def test_capability_on_a_plain_participant(scripted_server: ScriptedOpenAIServer) -> None:
    a = model_agent(scripted_server, "A", "SYS-A")
    config = MessageFilterConfig([PerSourceFilter("user", "first", 1), PerSourceFilter("B", "last", 1)])
    assert isinstance(config, AgentCapability)
    config.add_to_agent(a)
    with pytest.raises(InvalidArgumentError, match="already registered"):
        config.add_to_agent(a)
    b, u = counting("B"), counting("user")
    gc = GroupChat([u, a, b], messages=[], max_round=6, speaker_selection_method="round_robin")
    manager = GroupChatManager(gc, llm_config=False)
    scripted_server.add_replies("a1", "a2")
    u.initiate_chat(manager, message="task", silent=True)

    assert [r["messages"][1:] for r in scripted_server.requests] == [
        [user("user", "task")], [user("user", "task"), user("B", "B1")]]
    assert [m["content"] for m in a.chat_messages[manager]] == ["task", "a1", "B1", "user1", "a2", "B2"]  # whole


@pytest.mark.parametrize("wrapped", [False, True], ids=["capability", "MessageFilterAgent"])
def test_a_view_without_messages_is_a_clear_error(scripted_server: ScriptedOpenAIServer, wrapped: bool) -> None:
    config = MessageFilterConfig([PerSourceFilter("B", "last", 1)])
    inner = model_agent(scripted_server, "A" if not wrapped else "inner", "SYS-A")
    if wrapped:
        a: ConversableAgent = MessageFilterAgent("A", inner, config)
    else:
        config.add_to_agent(inner)
        a = inner
    u, b = counting("user"), counting("B")
    gc = GroupChat([u, a, b], messages=[], max_round=4, speaker_selection_method="round_robin")
    with pytest.raises(ValueError, match=(
        r"The message filter of 'A' left no message to reply to: none of the 1 messages is kept for the sources "
        r"\['B'\] .* Add PerSourceFilter\(source='user', position='first', count=1\)")):
        u.initiate_chat(GroupChatManager(gc, llm_config=False), message="task", silent=True)
    assert scripted_server.request_count == 0


def test_tool_call_and_results_stay_together(scripted_server: ScriptedOpenAIServer) -> None:
    caller = model_agent(scripted_server, "caller", "SYS-CALLER")
    executor = UserProxyAgent("executor", human_input_mode="NEVER", code_execution_config=False)

    @executor.register_for_execution()
    @caller.register_for_llm(description="Add two numbers.")
    def add(a: int, b: int) -> int:
        return a + b

    # Sees the executor's last message, a tool result whose call (by caller) it does not see: both dropped.
    partial = MessageFilterAgent("partial", model_agent(scripted_server, "p", "SYS-P"), MessageFilterConfig([
        PerSourceFilter("user", "first", 1), PerSourceFilter("executor", "last", 1)]))
    # Sees the call and its result: both kept.
    whole = MessageFilterAgent("whole", model_agent(scripted_server, "w", "SYS-W"), MessageFilterConfig([
        PerSourceFilter("user", "first", 1), PerSourceFilter("caller"), PerSourceFilter("executor", "last", 1)]))
    u = counting("user")
    gc = GroupChat([u, caller, executor, partial, whole], messages=[], max_round=5,
                   speaker_selection_method="round_robin")
    manager = GroupChatManager(gc, llm_config=False)
    scripted_server.add_replies(
        ScriptedReply(tool_calls=[{"id": "call_7", "name": "add", "arguments": {"a": 2, "b": 3}}]), "p1", "w1",
    )
    u.initiate_chat(manager, message="add 2 and 3", silent=True)

    assert [m["name"] for m in gc.messages] == ["user", "caller", "executor", "partial", "whole"]
    assert requests_with_system(scripted_server, "SYS-P") == [
        [{"content": "SYS-P", "role": "system"}, user("user", "add 2 and 3")],
    ]
    (seen,) = requests_with_system(scripted_server, "SYS-W")
    assert [(m["role"], m.get("tool_call_id")) for m in seen] == [
        ("system", None), ("user", None), ("assistant", None), ("tool", "call_7"),
    ]
    assert seen[2]["tool_calls"][0]["id"] == "call_7" and seen[3]["content"] == "5"


def test_a_filtered_executor_runs_the_calls_it_sees(scripted_server: ScriptedOpenAIServer) -> None:
    caller = model_agent(scripted_server, "caller", "SYS-CALLER")
    runner = UserProxyAgent("runner", human_input_mode="NEVER", code_execution_config=False)

    @runner.register_for_execution()
    @caller.register_for_llm(description="Add two numbers.")
    def add(a: int, b: int) -> int:
        return a + b

    executor = MessageFilterAgent("executor", runner, MessageFilterConfig([PerSourceFilter("caller", "last", 1)]))
    assert executor.can_execute_function("add") and "add" in executor.function_map
    u = counting("user")
    # After the call, "random" could pick anyone: the function-call filter picks the filtered executor, the only
    # participant able to run add.
    gc = GroupChat([u, caller, executor], messages=[], max_round=3,
                   speaker_selection_method=lambda last, g: caller if last is u else "random")
    manager = GroupChatManager(gc, llm_config=False)
    scripted_server.add_reply(ScriptedReply(tool_calls=[{"id": "call_1", "name": "add", "arguments": {"a": 1, "b": 4}}]))
    u.initiate_chat(manager, message="add", silent=True)
    assert [m["name"] for m in gc.messages] == ["user", "caller", "executor"]
    assert gc.messages[-1]["tool_responses"] == [{"tool_call_id": "call_1", "role": "tool", "content": "5"}]
    assert dict(runner.chat_messages) == {}


# ----------------------------------------------------------------- the filter itself
CHAT = [
    {"role": "system", "content": "intro", "name": "chat_manager"},
    user("user", "u1"),
    user("B", "b1"),
    {"role": "assistant", "content": "mine", "name": "A"},
    user("user", "u2"),
    user("B", "b2"),
    {"role": "user", "content": "no name"},
    user("B", "b3"),
    user("C", "c1"),
]


def contents(messages: list[dict[str, Any]]) -> list[str]:
    return [m["content"] for m in messages]


def test_filter_keeps_chat_order_system_messages_and_unions_filters() -> None:
    config = MessageFilterConfig([
        PerSourceFilter("B", "last", 1), PerSourceFilter("user", "first", 1), PerSourceFilter("user", "last", 1),
    ])
    assert contents(config.apply(CHAT)) == ["intro", "u1", "u2", "b3"]
    assert config.sources == ["B", "user"]
    assert contents(filter_messages(CHAT, [PerSourceFilter("B", "first", 2)])) == ["intro", "b1", "b2"]
    assert contents(filter_messages(CHAT, [PerSourceFilter("B", "first", 10)])) == ["intro", "b1", "b2", "b3"]
    assert contents(filter_messages(CHAT, [PerSourceFilter("nobody")])) == ["intro"]
    assert filter_messages([], config) == []


def test_filter_returns_copies() -> None:
    chat = [dict(m) for m in CHAT]
    view = filter_messages(chat, [PerSourceFilter("user")])
    view[0]["content"] = "changed"
    view[1]["content"] = "changed"
    assert chat == CHAT


def test_nameless_assistant_messages_belong_to_the_agent_and_function_results_follow_calls() -> None:
    chat = [
        user("user", "go"),
        {"role": "assistant", "content": None, "function_call": {"name": "f", "arguments": "{}"}},
        {"role": "function", "name": "f", "content": "42"},
        user("B", "b1"),
    ]
    assert contents(filter_messages(chat, [PerSourceFilter("A")], own_name="A")) == [None, "42"]
    assert contents(filter_messages(chat, [PerSourceFilter("A")])) == []  # no own name: no source
    assert contents(filter_messages(chat, [PerSourceFilter("user"), PerSourceFilter("B")], own_name="A")) == [
        "go", "b1"]
    pending = chat[:2]  # a call not answered yet is kept with its source
    assert contents(filter_messages(pending, [PerSourceFilter("A")], own_name="A")) == [None]


def test_filters_given_as_dicts() -> None:
    config = MessageFilterConfig(per_source=[{"source": "user", "position": "last", "count": 1}])
    assert config.per_source == [PerSourceFilter(source="user", position="last", count=1)]


# ----------------------------------------------------------------- bad configuration
@pytest.mark.parametrize(
    ("make", "error", "match"),
    [
        pytest.param(lambda: PerSourceFilter(""), ValueError, r"PerSourceFilter\.source must be", id="empty-source"),
        pytest.param(lambda: PerSourceFilter(3), ValueError, r"PerSourceFilter\.source .* got int 3", id="int-source"),
        pytest.param(lambda: PerSourceFilter("u", "middle", 1), ValueError,
                     r"PerSourceFilter\.position must be 'first', 'last' or None .* 'middle'", id="bad-position"),
        pytest.param(lambda: PerSourceFilter("u", "first"), ValueError,
                     r"PerSourceFilter\.count must be an int >= 1 when position='first' .* got NoneType", id="no-count"),
        pytest.param(lambda: PerSourceFilter("u", "last", 0), ValueError, r"PerSourceFilter\.count .* got int 0",
                     id="zero-count"),
        pytest.param(lambda: PerSourceFilter("u", "last", True), ValueError, r"PerSourceFilter\.count .* bool",
                     id="bool-count"),
        pytest.param(lambda: PerSourceFilter("u", "last", 1.5), ValueError, r"PerSourceFilter\.count", id="float"),
        pytest.param(lambda: PerSourceFilter("u", count=2), ValueError,
                     r"PerSourceFilter\.count=2 needs a position: set position='first' or 'last'", id="count-alone"),
        pytest.param(lambda: MessageFilterConfig([]), ValueError, r"per_source is empty", id="empty-config"),
        pytest.param(lambda: MessageFilterConfig(), TypeError, r"per_source", id="no-config"),
        pytest.param(lambda: MessageFilterConfig("user"), TypeError, r"per_source must be a list", id="str-config"),
        pytest.param(lambda: MessageFilterConfig(PerSourceFilter("u")), TypeError, r"per_source must be a list",
                     id="single-filter"),
        pytest.param(lambda: MessageFilterConfig([PerSourceFilter("u"), 3]), TypeError,
                     r"per_source\[1\] must be a PerSourceFilter", id="int-item"),
        pytest.param(lambda: MessageFilterConfig([{"source": "u", "last": 2}]), ValueError,
                     r"per_source\[0\] has unknown keys \['last'\]", id="dict-unknown-key"),
        pytest.param(lambda: MessageFilterConfig([{"count": 2}]), ValueError, r"per_source\[0\] needs a 'source'",
                     id="dict-no-source"),
        pytest.param(lambda: MessageFilterAgent("A", 3, MessageFilterConfig([PerSourceFilter("u")])), TypeError,
                     r"wrapped_agent must be an agent that replies .* got int 3", id="bad-wrapped"),
        pytest.param(lambda: MessageFilterAgent("A", counting("x"), [PerSourceFilter("u")]), TypeError,
                     r"filter must be a MessageFilterConfig; .* Wrap the list", id="list-filter"),
        pytest.param(lambda: MessageFilterConfig([PerSourceFilter("u")]).add_to_agent("agent"), TypeError,
                     r"add_to_agent needs a ConversableAgent", id="capability-on-str"),
    ],
)
def test_bad_configuration_names_the_field(make: Callable[[], Any], error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        make()
