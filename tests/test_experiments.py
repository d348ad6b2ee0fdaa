"""run_group_chats and its summaries: records of many scripted group chats."""

from __future__ import annotations

import random
from typing import Any

import pytest

from autogen_classic import ConversableAgent, GroupChat, GroupChatManager
from autogen_classic.eligibility import TurnBudgetPolicy
from autogen_classic.experiments import (
    ChatRecord,
    RejectedChoice,
    allowed_transitions,
    format_table,
    records_to_rows,
    run_group_chats,
    speaker_counts,
    transition_counts,
)
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer


def _agent(name: str, text: str | None = None) -> ConversableAgent:
    return ConversableAgent(
        name, llm_config=False, human_input_mode="NEVER", default_auto_reply=text or f"{name} here.",
        description=f"The {name}.",
    )


def _team() -> list[ConversableAgent]:
    return [_agent("planner"), _agent("coder"), _agent("critic")]


def _factory(method: str = "round_robin", max_round: int = 4, graph: bool = False, **kwargs: Any) -> Any:
    calls: list[GroupChat] = []

    def make() -> GroupChat:
        planner, coder, critic = _team()
        extra: dict[str, Any] = dict(kwargs)
        if graph:
            extra["allowed_or_disallowed_speaker_transitions"] = {
                planner: [coder, critic], coder: [critic, planner], critic: [planner],
            }
            extra["speaker_transitions_type"] = "allowed"
        groupchat = GroupChat(
            agents=[planner, coder, critic], max_round=max_round, speaker_selection_method=method, **extra
        )
        calls.append(groupchat)
        return groupchat

    make.calls = calls  # type: ignore[attr-defined]
    return make


def test_round_robin_records_speakers_transitions_and_end_reason() -> None:
    make = _factory()
    records = run_group_chats(make, 3, message="Plan the release.")

    assert len(make.calls) == 3 and len({id(g) for g in make.calls}) == 3  # a fresh group chat per run
    assert [r.run for r in records] == [0, 1, 2]
    first = records[0]
    assert first.method == "round_robin"
    assert first.speakers == ["planner", "coder", "critic", "planner"]
    assert first.rounds == 4
    assert first.transitions == {("planner", "coder"): 1, ("coder", "critic"): 1, ("critic", "planner"): 1}
    assert first.end_reason == "max_round (4) reached."
    assert (first.selections, first.selection_calls, first.rejected) == (3, 0, [])
    assert first.messages[0]["content"] == "Plan the release."
    assert [m["content"] for m in first.messages[1:]] == ["coder here.", "critic here.", "planner here."]
    assert [s.chosen for s in first.selection_log] == ["coder", "critic", "planner"]
    assert first.off_graph == {} and first.error is None
    assert all(r.speakers == first.speakers for r in records)


def test_sender_name_and_method_override() -> None:
    records = run_group_chats(
        _factory("auto"), 1, message="Go.", sender="critic", speaker_selection_method="ROUND_ROBIN"
    )
    assert records[0].method == "round_robin"
    assert records[0].speakers == ["critic", "planner", "coder", "critic"]


def test_outside_sender_opens_the_chat() -> None:
    user = _agent("user")
    records = run_group_chats(_factory(max_round=3), 1, message="Hello team.", sender=user)
    assert records[0].speakers == ["user", "planner", "coder"]


def test_seed_makes_random_selection_repeat_and_restores_random_state() -> None:
    random.seed(1234)
    expected_next = random.random()
    random.seed(1234)
    first = run_group_chats(_factory("random", max_round=8), 4, message="Go.", seed=7)
    assert random.random() == expected_next  # the caller's random stream is untouched
    second = run_group_chats(_factory("random", max_round=8), 4, message="Go.", seed=7)
    assert [r.speakers for r in first] == [r.speakers for r in second]
    assert len({tuple(r.speakers) for r in first}) > 1  # each run has its own seed
    assert all(r.rounds == 8 for r in first)


def test_graph_is_respected_and_allowed_transitions_reported() -> None:
    records = run_group_chats(_factory("random", max_round=10, graph=True), 5, message="Go.", seed=0)
    expected = {
        ("planner", "coder"), ("planner", "critic"), ("coder", "critic"), ("coder", "planner"), ("critic", "planner"),
    }
    assert all(r.allowed == expected for r in records)
    assert set(transition_counts(records)) <= expected
    assert all(r.off_graph == {} for r in records)


def test_allowed_transitions_without_graph_follow_repeat_rule() -> None:
    a, b = _agent("a"), _agent("b")
    assert allowed_transitions(GroupChat(agents=[a, b], allow_repeat_speaker=False)) == {("a", "b"), ("b", "a")}
    assert ("a", "a") in allowed_transitions(GroupChat(agents=[a, b]))


def test_auto_records_calls_tokens_and_choices_rejected_by_the_graph(scripted_server: ScriptedOpenAIServer) -> None:
    # After planner the graph allows coder or critic; the model first names planner (not eligible), then critic.
    scripted_server.add_replies("planner", "critic")
    records = run_group_chats(
        _factory("auto", max_round=3, graph=True), 1, message="Plan.", llm_config=scripted_server.llm_config()
    )
    record = records[0]
    assert record.speakers == ["planner", "critic", "planner"]  # critic -> planner is the only edge: no call
    assert record.selection_calls == 2 and scripted_server.request_count == 2
    assert record.rejected == [RejectedChoice(0, "planner", ("planner",), ("coder", "critic"))]
    assert record.selection_tokens == sum(r.usage.get("total_tokens", 0) for r in record.selection_log) > 0
    assert record.agent_tokens == 0
    assert record.total_tokens == record.selection_tokens
    assert record.selection_log[0].reason.startswith("auto: the model named critic")


def test_choices_rejected_by_an_eligibility_policy(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("coder", "critic", "planner")
    records = run_group_chats(
        _factory("auto", max_round=3, eligibility_policies=[TurnBudgetPolicy({"coder": 0})]),
        1, message="Plan.", llm_config=scripted_server.llm_config(),
    )
    assert records[0].speakers == ["planner", "critic", "planner"]
    assert records[0].rejected == [RejectedChoice(0, "coder", ("coder",), ("planner", "critic"))]
    assert records[0].selection_calls == 3


def test_agent_tokens_count_the_participants_model_calls(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("one two three", "four five")

    writer = ConversableAgent("writer", llm_config=scripted_server.llm_config(), human_input_mode="NEVER")

    def make() -> GroupChat:
        return GroupChat(agents=[_agent("user"), writer], max_round=2, speaker_selection_method="round_robin")

    records = run_group_chats(make, 2, message="Write.")
    assert [r.messages[1]["content"] for r in records] == ["one two three", "four five"]
    assert scripted_server.request_count == 2
    # The scripted server counts words: the default system message (6) and "Write." (1) plus the completion;
    # the writer is shared by the runs, yet each record counts only its own run's calls.
    assert [r.agent_tokens for r in records] == [6 + 1 + 3, 6 + 1 + 2]
    assert records[0].selection_tokens == 0


def test_termination_message_ends_the_chat() -> None:
    def make() -> GroupChat:
        return GroupChat(
            agents=[_agent("a"), _agent("b", "TERMINATE"), _agent("c")], max_round=9,
            speaker_selection_method="round_robin",
        )

    record = run_group_chats(make, 1, message="Go.")[0]
    assert record.speakers == ["a", "b"]
    assert record.end_reason == "b sent a termination message."


def test_factory_may_return_a_manager() -> None:
    def make() -> GroupChatManager:
        groupchat = GroupChat(agents=_team(), max_round=2, speaker_selection_method="round_robin")
        return GroupChatManager(groupchat, llm_config=False, silent=True)

    assert run_group_chats(make, 1, message="Go.", label="managed")[0].label == "managed"
    with pytest.raises(ValueError, match="returned a GroupChatManager, so llm_config"):
        run_group_chats(make, 1, message="Go.", llm_config=False)


def test_errors_raise_or_are_recorded() -> None:
    def boom(*args: Any, **kwargs: Any) -> tuple[bool, Any]:
        raise RuntimeError("tool crashed")

    def make() -> GroupChat:
        team = _team()
        team[1].register_reply([ConversableAgent, None], boom)
        return GroupChat(agents=team, max_round=4, speaker_selection_method="round_robin")

    with pytest.raises(RuntimeError, match="tool crashed"):
        run_group_chats(make, 2, message="Go.")
    records = run_group_chats(make, 2, message="Go.", on_error="record")
    assert [r.error for r in records] == ["RuntimeError: tool crashed"] * 2
    assert records[0].speakers == ["planner"]


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"n": -1}, ValueError, "n must be the number of chats"),
        ({"n": True}, ValueError, "n must be the number of chats"),
        ({"sender": "nobody"}, ValueError, "sender 'nobody' is not an agent"),
        ({"sender": 3}, TypeError, "sender must be None"),
        ({"on_error": "ignore"}, ValueError, r"on_error must be one of \['raise', 'record'\]"),
        ({"seed": 1.5}, TypeError, "seed must be None or an int"),
        ({"speaker_selection_method": "loudest"}, ValueError, "speaker_selection_method is set to 'loudest'"),
    ],
)
def test_bad_arguments_are_named(kwargs: dict[str, Any], error: type[Exception], match: str) -> None:
    arguments: dict[str, Any] = {"n": 1, "message": "Go."}
    arguments.update(kwargs)
    n = arguments.pop("n")
    with pytest.raises(error, match=match):
        run_group_chats(_factory(), n, **arguments)


def test_factory_must_return_a_groupchat() -> None:
    with pytest.raises(TypeError, match="must return a GroupChat or a GroupChatManager; it returned list"):
        run_group_chats(list, 1, message="Go.")  # type: ignore[arg-type]
    assert run_group_chats(_factory(), 0, message="Go.") == []


def test_rows_are_flat_with_the_same_keys_and_summaries_add_up() -> None:
    records = run_group_chats(_factory(max_round=3), 2, message="Go.", label="rr")
    user = _agent("user")
    records += run_group_chats(_factory(max_round=2), 1, message="Go.", sender=user, label="outside")
    rows = records_to_rows(records)
    assert [list(row) for row in rows] == [list(rows[0])] * 3
    assert rows[0] == {
        "run": 0, "label": "rr", "method": "round_robin", "rounds": 3, "speakers": "planner > coder > critic",
        "end_reason": "max_round (3) reached.", "selections": 2, "selection_calls": 0, "rejected": 0,
        "off_graph": 0, "selection_tokens": 0, "agent_tokens": 0, "total_tokens": 0, "error": None,
        "turns:planner": 1, "turns:coder": 1, "turns:critic": 1, "turns:user": 0,
    }
    assert rows[2]["turns:user"] == 1 and rows[2]["speakers"] == "user > planner"
    assert transition_counts(records) == {("coder", "critic"): 2, ("planner", "coder"): 2, ("user", "planner"): 1}
    assert speaker_counts(records) == {"planner": 3, "coder": 2, "critic": 2, "user": 1}
    with pytest.raises(TypeError, match="records must hold ChatRecord objects"):
        records_to_rows([{"run": 0}])  # type: ignore[list-item]


def test_format_table_aligns_and_cuts_long_cells() -> None:
    rows = [{"run": 0, "speakers": "a > b", "error": None}, {"run": 10, "speakers": "x" * 12, "error": "E"}]
    assert format_table(rows, max_width=8).splitlines() == [
        "run  speakers  error",
        "0    a > b",
        "10   xxxxx...  E",
    ]
    assert format_table(rows, columns=["speakers"]).splitlines()[0] == "speakers"
    with pytest.raises(ValueError, match=r"columns \['nope'\] are not keys"):
        format_table(rows, columns=["nope"])
    with pytest.raises(ValueError, match="max_width must be an int >= 4"):
        format_table(rows, max_width=2)
    assert format_table([]) == ""


def test_chat_record_defaults() -> None:
    record = ChatRecord(run=0, method="auto", label=None, speakers=["a", "a", "b"], end_reason=None)
    assert record.transitions == {("a", "a"): 1, ("a", "b"): 1}
    assert record.off_graph == {("a", "a"): 1, ("a", "b"): 1}  # nothing recorded as allowed
