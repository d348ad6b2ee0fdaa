"""0.4-style selector_func / candidate_func in real group chats, through the selection adapters."""

from __future__ import annotations

import asyncio
from typing import Any, Callable, Optional, Sequence

import pytest

from autogen_classic import ConversableAgent, GroupChat, GroupChatManager
from autogen_classic.agentchat.groupchat.selection.adapters import (
    CandidateFuncPolicy,
    MessageView,
    SelectorFuncMethod,
    candidate_func_policy,
    message_views,
    selector_func_method,
)
from autogen_classic.eligibility import CooldownPolicy, SelectionContext
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer


def fixed(name: str) -> ConversableAgent:
    """An agent without a model that always says ``<name> here``."""
    return ConversableAgent(
        name, llm_config=False, human_input_mode="NEVER", default_auto_reply=f"{name} here", description=f"{name} role"
    )


@pytest.fixture
def team() -> list[ConversableAgent]:
    return [fixed("planner"), fixed("searcher"), fixed("analyst")]


def run(chat_async: bool, sender: ConversableAgent, manager: GroupChatManager, message: str = "task") -> None:
    if chat_async:
        asyncio.run(sender.a_initiate_chat(manager, message=message, silent=True))
    else:
        sender.initiate_chat(manager, message=message, silent=True)


def speakers(gc: GroupChat) -> list[str]:
    return [m["name"] for m in gc.messages]


# ----------------------------------------------------------------- the message view
def test_message_view_reads_like_a_04_message_and_a_dict() -> None:
    text = {"role": "user", "content": "hello", "name": "planner"}
    call = {"role": "assistant", "content": None, "name": "searcher",
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "search", "arguments": '{"q": 1}'}}]}
    result = {"role": "tool", "content": "found", "name": "searcher",
              "tool_responses": [{"tool_call_id": "c1", "role": "tool", "content": "found"}]}
    legacy = {"role": "function", "name": "search", "content": "old"}
    views = message_views([text, call, result, legacy])

    assert [v.type for v in views] == ["TextMessage", "ToolCallRequestEvent", "ToolCallExecutionEvent",
                                       "ToolCallExecutionEvent"]
    assert [v.source for v in views[:3]] == ["planner", "searcher", "searcher"]
    assert views[0].content == "hello" and views[0]["content"] == "hello" and views[0].get("name") == "planner"
    assert views[0].models_usage is None and views[0].metadata == {}
    assert "tool_calls" in views[1] and "tool_calls" not in views[0] and len(views[0]) == 3
    assert dict(views[0]) == text and views[0] == text
    assert [v.to_text() for v in views] == ["hello", 'search({"q": 1})', "found", "old"]
    assert MessageView({"content": [{"type": "text", "text": "multi"}]}).to_text() == "multi"
    assert MessageView({"content": "x"}).source is None
    assert repr(views[0]) == "MessageView(source='planner', type='TextMessage', content='hello')"


def test_message_view_is_read_only() -> None:
    message = {"role": "assistant", "name": "a", "content": [{"type": "text", "text": "hi"}],
               "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}
    view = MessageView(message)
    with pytest.raises(AttributeError, match="MessageView is read-only: cannot set 'content'"):
        view.content = "changed"  # type: ignore[misc]
    with pytest.raises(TypeError):
        view["content"] = "changed"  # type: ignore[index]
    view.content.append("more")
    view["tool_calls"][0]["id"] = "changed"
    view.to_dict()["name"] = "changed"
    assert message["content"] == [{"type": "text", "text": "hi"}]
    assert message["tool_calls"][0]["id"] == "c" and message["name"] == "a"
    with pytest.raises(TypeError, match="MessageView needs a message dict; got str"):
        MessageView("hello")  # type: ignore[arg-type]


# ----------------------------------------------------------------- selector_func
@pytest.mark.parametrize("chat_async", [False, True], ids=["sync", "async"])
def test_selector_func_chooses_and_falls_back(team: list[ConversableAgent], chat_async: bool) -> None:
    planner, searcher, analyst = team
    seen: list[list[tuple[str, str, str]]] = []

    def selector_func(messages: Sequence[Any]) -> Optional[str]:
        seen.append([(m.source, m.type, m.content) for m in messages])
        if messages[-1].source != planner.name:
            return planner.name  # the planner checks after every other speaker
        return None

    method = selector_func_method(selector_func, fallback="round_robin")
    gc = GroupChat(team, messages=[], max_round=6, speaker_selection_method=method)
    run(chat_async, searcher, GroupChatManager(gc, llm_config=False))

    # searcher opens; planner; round robin after planner -> searcher; planner; analyst; planner
    assert speakers(gc) == ["searcher", "planner", "searcher", "planner", "searcher", "planner"]
    assert seen[0] == [("searcher", "TextMessage", "task")]
    assert seen[1] == [("searcher", "TextMessage", "task"), ("planner", "TextMessage", "planner here")]
    records = gc.selection_log
    assert [r.method for r in records] == ["callable", "round_robin", "callable", "round_robin", "callable"]
    assert records[0].reason == "selector_func selector_func chose planner"
    assert records[1].reason.startswith(
        "selector_func selector_func returned None: round_robin selection chooses; "
        "the custom selection function chose the method 'round_robin'; round robin after planner")
    assert method.last_reason == "selector_func selector_func chose planner"
    assert repr(method) == "SelectorFuncMethod(selector_func, fallback='round_robin')"


@pytest.mark.parametrize("chat_async", [False, True], ids=["sync", "async"])
def test_fallback_auto_asks_the_model_about_the_candidates_only(
    team: list[ConversableAgent], scripted_server: ScriptedOpenAIServer, chat_async: bool
) -> None:
    planner, searcher, analyst = team

    def selector_func(messages: Sequence[Any]) -> Optional[str]:
        return None  # always let the model choose

    def candidate_func(messages: Sequence[Any]) -> list[str]:
        return [searcher.name, analyst.name]

    gc = GroupChat(team, messages=[], max_round=2, speaker_selection_method=selector_func_method(selector_func),
                   eligibility_policies=[candidate_func_policy(candidate_func)])
    manager = GroupChatManager(gc, llm_config=scripted_server.llm_config())
    scripted_server.add_reply("analyst")
    run(chat_async, planner, manager)

    assert speakers(gc) == ["planner", "analyst"]
    assert scripted_server.request_count == 1
    request = scripted_server.requests[0]["messages"]
    assert request[0] == {"role": "system", "content": gc.select_speaker_msg([searcher, analyst])}
    assert "searcher: searcher role" in request[0]["content"] and "planner role" not in request[0]["content"]
    assert request[-1]["content"] == (
        "Read the above conversation. Then select the next role from ['searcher', 'analyst'] to play. "
        "Only return the role.")
    record = gc.selection_log[0]
    assert record.method == "auto" and record.chosen == "analyst"
    assert [(s.name, s.candidates) for s in record.steps][-1] == (
        "policy:candidate_func(candidate_func)", ["searcher", "analyst"])


def test_selector_func_errors(team: list[ConversableAgent]) -> None:
    planner = team[0]
    names = "'planner', 'searcher', 'analyst'"
    gc = GroupChat(team, messages=[], max_round=3, speaker_selection_method=selector_func_method(lambda m: "writer"))
    with pytest.raises(ValueError, match=(
        rf"selector_func <lambda> returned 'writer', which is not the name of an agent of the group chat \({names}\)\. "
        r"Return one of these names, or None to let auto selection choose\.")):
        planner.initiate_chat(GroupChatManager(gc, llm_config=False), message="task", silent=True)

    gc = GroupChat(team, messages=[], max_round=3, speaker_selection_method=selector_func_method(lambda m: 3))
    with pytest.raises(TypeError, match=r"selector_func <lambda> must return an agent's name \(str\) or None; got int"):
        asyncio.run(planner.a_initiate_chat(GroupChatManager(gc, llm_config=False), message="task", silent=True))

    # An agent instead of its name is accepted.
    gc = GroupChat(team, messages=[], max_round=2, speaker_selection_method=selector_func_method(lambda m: team[2]))
    planner.initiate_chat(GroupChatManager(gc, llm_config=False), message="task", silent=True)
    assert speakers(gc) == ["planner", "analyst"]

    with pytest.raises(TypeError, match=r"selector_func must be a function selector_func\(messages\) -> str \| None"):
        selector_func_method("planner")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"fallback must be one of \['auto', 'manual', 'random', 'round_robin'\]"):
        selector_func_method(lambda m: None, fallback="model")
    assert SelectorFuncMethod(lambda m: None, fallback="Round_Robin").fallback == "round_robin"


# ----------------------------------------------------------------- candidate_func
@pytest.mark.parametrize("chat_async", [False, True], ids=["sync", "async"])
def test_candidate_func_narrows_and_runs_once_per_selection(team: list[ConversableAgent], chat_async: bool) -> None:
    planner, searcher, analyst = team
    calls: list[int] = []

    def candidate_func(messages: Sequence[Any]) -> list[str]:
        calls.append(len(messages))
        if messages[-1].source == planner.name:
            return [analyst.name]  # the planner hands over to the analyst only
        return [planner.name]

    policy = candidate_func_policy(candidate_func)
    gc = GroupChat(team, messages=[], max_round=5, speaker_selection_method="random", eligibility_policies=[policy])
    run(chat_async, planner, GroupChatManager(gc, llm_config=False))

    assert speakers(gc) == ["planner", "analyst", "planner", "analyst", "planner"]
    assert calls == [1, 2, 3, 4]  # one call per selection, though each judges three agents
    assert [s.candidates for s in gc.selection_log[0].steps if s.name.startswith("policy:")] == [["analyst"]]
    assert policy.name == "candidate_func(candidate_func)" and repr(policy) == "CandidateFuncPolicy(candidate_func)"


def test_candidate_func_with_other_policies_and_a_custom_name(team: list[ConversableAgent]) -> None:
    planner, searcher, analyst = team
    policy = candidate_func_policy(lambda m: [planner.name, searcher.name], name="planning_pair")
    gc = GroupChat(team, messages=[], max_round=4, speaker_selection_method="round_robin",
                   eligibility_policies=[CooldownPolicy(1), policy])
    run(False, planner, GroupChatManager(gc, llm_config=False))
    assert speakers(gc) == ["planner", "searcher", "planner", "searcher"]
    assert [s.name for s in gc.selection_log[0].steps][-2:] == ["policy:CooldownPolicy", "policy:planning_pair"]


@pytest.mark.parametrize("chat_async", [False, True], ids=["sync", "async"])
def test_candidate_func_returning_no_one_ends_the_chat(team: list[ConversableAgent], chat_async: bool) -> None:
    def nobody(messages: Sequence[Any]) -> list[str]:
        return []

    gc = GroupChat(team, messages=[], max_round=5, eligibility_policies=[candidate_func_policy(nobody)])
    manager = GroupChatManager(gc, llm_config=False)
    run(chat_async, team[0], manager)
    reason = ("No eligible agents after applying eligibility policies. Checked 3 candidates: "
              "['planner', 'searcher', 'analyst']. Applied 1 policy/policies. "
              "No eligible speaker: the eligibility policy candidate_func(nobody) excluded every candidate "
              "(planner, searcher, analyst).")
    assert speakers(gc) == ["planner"]
    assert manager.end_reason == reason
    assert gc.selection_log[0].chosen is None and gc.selection_log[0].reason == reason


@pytest.mark.parametrize(
    ("result", "error", "match"),
    [
        pytest.param(["planner", "writer"], ValueError,
                     r"candidate_func bad returned 'writer', not the name of an agent of the group chat "
                     r"\('planner', 'searcher', 'analyst'\)\. Return names of these agents only\.", id="unknown"),
        pytest.param(None, TypeError, r"candidate_func bad must return a list of agent names; got NoneType None\. "
                     r"Return \[\] when no one may speak", id="none"),
        pytest.param("planner", TypeError, r"got str 'planner'\. Return a list: \['planner'\]\.", id="bare-str"),
        pytest.param([3], TypeError, r"candidate_func bad must return agent names \(str\); got 3", id="int-item"),
    ],
)
def test_candidate_func_bad_results(team: list[ConversableAgent], result: Any, error: type, match: str) -> None:
    def bad(messages: Sequence[Any]) -> Any:
        return result

    gc = GroupChat(team, messages=[], max_round=3, eligibility_policies=[candidate_func_policy(bad)])
    with pytest.raises(error, match=match):
        team[0].initiate_chat(GroupChatManager(gc, llm_config=False), message="task", silent=True)


def test_candidate_func_policy_arguments_and_cache(team: list[ConversableAgent]) -> None:
    with pytest.raises(TypeError, match=r"candidate_func must be a function candidate_func\(messages\) -> list\[str\]"):
        candidate_func_policy(["planner"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="name must be a non-empty str"):
        CandidateFuncPolicy(lambda m: [], name="")
    calls: list[int] = []
    policy = candidate_func_policy(lambda m: calls.append(1) or [team[1]])  # agents are accepted for names
    first = SelectionContext(round=0, last_speaker=team[0], participants=team, messages=[{"content": "x", "name": "a"}])
    second = SelectionContext(round=0, last_speaker=team[0], participants=team, messages=[{"content": "x", "name": "a"}])
    assert [policy.is_eligible(a, first) for a in team] == [False, True, False]
    assert [policy.is_eligible(a, second) for a in team] == [False, True, False]
    assert len(calls) == 2  # equal contexts of two selections: one call each
