"""Conditional speaker transitions (``ConditionalEdge``): validation, selection, trace, errors, drawing, experiments."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
from typing import Any

import pytest

from autogen_classic import ConversableAgent, NoEligibleSpeaker
from autogen_classic.agentchat.groupchat import GroupChat, GroupChatManager
from autogen_classic.agentchat.groupchat.selection.trace import (
    ConditionOutcome,
    SelectionRecord,
    format_selection_log,
    selection_log_from_json,
    selection_log_to_json,
)
from autogen_classic.exception_utils import TransitionConditionError
from autogen_classic.experiments import condition_counts, records_to_rows, run_group_chats
from autogen_classic.graph_utils import (
    ConditionalEdge,
    check_graph_validity,
    describe_edge,
    has_self_loops,
    invert_disallowed_to_allowed,
    plain_transitions,
    speaker_transition_edges,
    transition_conditions,
    visualize_speaker_transitions_dict,
)

Team = tuple[ConversableAgent, ConversableAgent, ConversableAgent]


def _agent(name: str) -> ConversableAgent:
    return ConversableAgent(
        name, llm_config=False, human_input_mode="NEVER", default_auto_reply=f"{name} here.",
        description=f"The {name}.",
    )


@pytest.fixture
def team() -> Team:
    # Group order coder, critic, executor: round robin after the coder takes the critic when it may speak.
    return _agent("coder"), _agent("critic"), _agent("executor")


def after_four(gc: GroupChat) -> bool:
    return len(gc.messages) > 4


def too_early(gc: GroupChat) -> bool:
    return len(gc.messages) < 4


def _allowed_group(team: Team, method: str = "round_robin", max_round: int = 6) -> GroupChat:
    coder, critic, executor = team
    graph = {
        coder: [executor, ConditionalEdge(critic, after_four, label="after 4 messages")],
        executor: [coder],
        critic: [coder],
    }
    return GroupChat(agents=list(team), max_round=max_round, speaker_selection_method=method,
                     allowed_or_disallowed_speaker_transitions=graph, speaker_transitions_type="allowed")


def _disallowed_group(team: Team, method: str = "round_robin", max_round: int = 6) -> GroupChat:
    coder, critic, executor = team
    graph = {
        coder: [coder, ConditionalEdge(critic, too_early, label="too early")],
        critic: [critic],
        executor: [executor],
    }
    return GroupChat(agents=list(team), max_round=max_round, speaker_selection_method=method,
                     allowed_or_disallowed_speaker_transitions=graph, speaker_transitions_type="disallowed")


def _run(groupchat: GroupChat, opener: ConversableAgent, mode: str, message: str = "Write the code.") -> Any:
    manager = GroupChatManager(groupchat, llm_config=False, silent=True)
    if mode == "sync":
        opener.initiate_chat(manager, message=message, silent=True)
    else:
        asyncio.run(opener.a_initiate_chat(manager, message=message, silent=True))
    return manager


def _speakers(groupchat: GroupChat) -> list[str]:
    return [m["name"] for m in groupchat.messages]


def _steps(record: SelectionRecord) -> list[tuple[str, list[str]]]:
    return [(s.name, s.candidates) for s in record.steps]


def _outcomes(groupchat: GroupChat) -> list[tuple[int, str, bool | None, str, str]]:
    return [(r.round, c.edge, c.result, c.effect, c.rule) for r in groupchat.selection_log for c in r.conditions]


# ----------------------------------------------------------------- the edge and the graph helpers
def test_conditional_edge_is_frozen_and_named(team: Team) -> None:
    coder, critic, _ = team
    edge = ConditionalEdge(critic, after_four, label="after 4 messages")
    with pytest.raises(dataclasses.FrozenInstanceError):
        edge.label = "other"  # type: ignore[misc]
    assert describe_edge(coder, edge) == "coder -> critic [after 4 messages]"
    assert describe_edge(coder, ConditionalEdge(critic, after_four)) == "coder -> critic [after_four]"
    assert describe_edge(coder, ConditionalEdge(critic, lambda gc: True)) == "coder -> critic"
    assert describe_edge(coder, critic) == "coder -> critic"


def test_plain_view_and_conditions_of_an_allowed_graph(team: Team) -> None:
    coder, critic, executor = team
    gc = _allowed_group(team)
    edge = gc.allowed_or_disallowed_speaker_transitions[coder][1]
    # Classic readers see plain agents only; the conditions are kept apart.
    assert gc.allowed_speaker_transitions_dict == {coder: [executor, critic], executor: [coder], critic: [coder]}
    assert gc.transition_conditions == {(coder, critic): (edge, "allow_if")}
    # The user's graph is left as given.
    assert isinstance(gc.allowed_or_disallowed_speaker_transitions[coder][1], ConditionalEdge)


def test_plain_view_and_conditions_of_a_disallowed_graph(team: Team) -> None:
    coder, critic, executor = team
    gc = _disallowed_group(team)
    edge = gc.allowed_or_disallowed_speaker_transitions[coder][1]
    # The conditionally disallowed transition stays in the plain allowed graph; coder -> coder does not.
    assert gc.allowed_speaker_transitions_dict == {
        coder: [critic, executor], critic: [coder, executor], executor: [coder, critic]}
    assert gc.transition_conditions == {(coder, critic): (edge, "block_if")}


def test_graphs_without_conditions_are_used_as_given(team: Team) -> None:
    coder, critic, executor = team
    graph = {coder: [executor], executor: [coder, critic], critic: [coder]}
    gc = GroupChat(agents=list(team), allowed_or_disallowed_speaker_transitions=graph,
                   speaker_transitions_type="allowed", speaker_selection_method="round_robin")
    assert gc.allowed_speaker_transitions_dict is graph and gc.transition_conditions == {}
    assert plain_transitions(graph) is graph and transition_conditions(None, "allowed") == {}
    gc.select_speaker(coder, None)
    assert _steps(gc.selection_log[0]) == [("all", ["coder", "critic", "executor"]), ("transition_graph", ["executor"])]
    assert gc.selection_log[0].conditions == [] and gc.selection_log[0].to_dict()["conditions"] == []


def test_check_graph_validity_and_invert_accept_conditional_items(team: Team, caplog: pytest.LogCaptureFixture) -> None:
    coder, critic, executor = team
    agents = list(team)
    with caplog.at_level(logging.WARNING, logger="autogen_classic.graph_utils"):
        check_graph_validity({coder: [ConditionalEdge(critic, after_four)], critic: [executor], executor: [coder]},
                             agents)
    assert caplog.records == []  # the conditional target counts as an incoming edge of the critic
    allowed = invert_disallowed_to_allowed({coder: [coder, ConditionalEdge(critic, too_early)]}, agents)
    assert allowed[coder] == [critic, executor]
    assert has_self_loops({coder: [ConditionalEdge(coder, after_four)]}) is True
    assert has_self_loops({coder: [ConditionalEdge(critic, after_four)]}) is False


# ----------------------------------------------------------------- refused when the GroupChat is built
def _build(team: Team, item: Any, kind: str = "allowed", extra: list[Any] | None = None) -> GroupChat:
    coder, critic, executor = team
    graph = {coder: [executor, item, *(extra or [])], executor: [coder], critic: [coder]}
    return GroupChat(agents=list(team), allowed_or_disallowed_speaker_transitions=graph, speaker_transitions_type=kind)


async def _async_condition(gc: Any) -> bool:
    return True


@pytest.mark.parametrize("kind", ["allowed", "disallowed"])
@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda t: ConditionalEdge(t[1], "len(messages) > 4"),
         r"the condition of the conditional edge coder -> critic is not callable \(got str 'len\(messages\) > 4'\); "
         r"pass a plain function that takes the GroupChat and returns True or False, e\.g\. ConditionalEdge\(critic"),
        (lambda t: ConditionalEdge(_agent("zoe"), after_four),
         r"the conditional edge coder -> zoe leads to .*which is not an agent of the group chat "
         r"\['coder', 'critic', 'executor'\]; give ConditionalEdge the agent object itself"),
        (lambda t: ConditionalEdge("critic", after_four),
         r"the conditional edge coder -> 'critic' leads to 'critic', which is not an agent of the group chat"),
        (lambda t: ConditionalEdge(t[1], _async_condition),
         r"the condition of the conditional edge coder -> critic is an async function"),
        (lambda t: ConditionalEdge(t[1], after_four, label=4),
         r"the label of the conditional edge coder -> critic must be a str or None, got int 4"),
    ],
)
def test_malformed_conditional_edges_are_refused_naming_the_edge(
    team: Team, kind: str, make: Any, match: str
) -> None:
    with pytest.raises(ValueError, match=f"{kind}_speaker_transitions_dict: {match}"):
        _build(team, make(team), kind)


@pytest.mark.parametrize("kind", ["allowed", "disallowed"])
def test_a_target_listed_plainly_and_conditionally_is_refused(team: Team, kind: str) -> None:
    critic = team[1]
    with pytest.raises(ValueError, match=r"the transition coder -> critic is listed more than once and at least once "
                                         r"with a condition.*keep one entry"):
        _build(team, ConditionalEdge(critic, after_four), kind, extra=[critic])


# ----------------------------------------------------------------- selection in real chats
@pytest.mark.parametrize("mode", ["sync", "async"])
def test_allowed_graph_allows_the_edge_only_while_the_condition_holds(team: Team, mode: str) -> None:
    coder, critic, executor = team
    gc = _allowed_group(team)
    manager = _run(gc, coder, mode)

    assert _speakers(gc) == ["coder", "executor", "coder", "executor", "coder", "critic"]
    assert manager.end_reason == "max_round (6) reached."
    edge = "coder -> critic [after 4 messages]"
    assert _outcomes(gc) == [
        (0, edge, False, "blocked", "allow_if"),
        (2, edge, False, "blocked", "allow_if"),
        (4, edge, True, "allowed", "allow_if"),
    ]
    assert _steps(gc.selection_log[0]) == [
        ("all", ["coder", "critic", "executor"]),
        ("transition_graph", ["critic", "executor"]),
        ("transition_conditions", ["executor"]),
    ]
    assert gc.selection_log[0].reason == "the only eligible candidate"
    # After the executor no condition is asked: no extra step.
    assert _steps(gc.selection_log[1]) == [("all", ["coder", "critic", "executor"]), ("transition_graph", ["coder"])]
    assert _steps(gc.selection_log[4])[-1] == ("transition_conditions", ["critic", "executor"])
    assert gc.selection_log[4].reason == "round robin after coder"

    table = format_selection_log(gc.selection_log).splitlines()
    assert table[1].startswith("0  coder") and table[2] == f"    condition {edge}: returned False, critic blocked"
    assert f"    condition {edge}: returned True, critic allowed" in table


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_disallowed_graph_blocks_the_edge_only_while_the_condition_holds(team: Team, mode: str) -> None:
    coder = team[0]
    gc = _disallowed_group(team)
    _run(gc, coder, mode)

    assert _speakers(gc) == ["coder", "executor", "coder", "executor", "coder", "critic"]
    edge = "coder -> critic [too early]"
    assert _outcomes(gc) == [
        (0, edge, True, "blocked", "block_if"),
        (2, edge, True, "blocked", "block_if"),
        (4, edge, False, "allowed", "block_if"),
    ]
    assert _steps(gc.selection_log[0])[-2:] == [
        ("transition_graph", ["critic", "executor"]), ("transition_conditions", ["executor"])]
    assert "    condition coder -> critic [too early]: returned False, critic allowed" in format_selection_log(
        gc.selection_log)


@pytest.mark.parametrize("kind", ["allowed", "disallowed"])
@pytest.mark.parametrize("mode", ["sync", "async"])
def test_every_candidate_blocked_ends_the_chat_naming_the_edges(team: Team, kind: str, mode: str) -> None:
    coder, critic, executor = team
    if kind == "allowed":
        condition, why = (lambda gc: False), "its condition returned False"
        graph = {coder: [ConditionalEdge(critic, condition, label="never"),
                         ConditionalEdge(executor, condition, label="never")], critic: [coder], executor: [coder]}
    else:
        condition, why = (lambda gc: True), "its condition returned True"
        graph = {coder: [coder, ConditionalEdge(critic, condition, label="never"),
                         ConditionalEdge(executor, condition, label="never")]}
    gc = GroupChat(agents=list(team), max_round=5, speaker_selection_method="round_robin",
                   allowed_or_disallowed_speaker_transitions=graph, speaker_transitions_type=kind)
    manager = _run(gc, coder, mode)

    expected = ("No eligible speaker: the transition conditions block every candidate after coder: "
                f"coder -> critic [never] ({why}); coder -> executor [never] ({why}).")
    assert _speakers(gc) == ["coder"]
    assert manager.end_reason == expected
    record = gc.selection_log[0]
    assert record.chosen is None and record.reason == expected
    assert _steps(record)[-1] == ("transition_conditions", [])
    assert [(c.target, c.effect) for c in record.conditions] == [("critic", "blocked"), ("executor", "blocked")]
    with pytest.raises(NoEligibleSpeaker, match=r"block every candidate after coder"):
        gc.select_speaker(coder, None)


def _crashing_group(team: Team, kind: str) -> GroupChat:
    coder, critic, executor = team

    def review_due(gc: GroupChat) -> bool:
        if len(gc.messages) >= 3:
            return {}["reviews"]  # type: ignore[no-any-return]  # a bug in the condition: KeyError
        return kind == "disallowed"

    if kind == "allowed":
        graph: dict[Any, Any] = {coder: [executor, ConditionalEdge(critic, review_due, label="review due")],
                                 executor: [coder], critic: [coder]}
    else:
        graph = {coder: [coder, ConditionalEdge(critic, review_due, label="review due")],
                 executor: [executor, critic], critic: [critic]}
    return GroupChat(agents=list(team), max_round=8, speaker_selection_method="round_robin",
                     allowed_or_disallowed_speaker_transitions=graph, speaker_transitions_type=kind)


@pytest.mark.parametrize("kind", ["allowed", "disallowed"])
@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_condition_that_raises_stops_the_chat_with_its_messages(team: Team, kind: str, mode: str) -> None:
    gc = _crashing_group(team, kind)
    with pytest.raises(TransitionConditionError) as caught:
        _run(gc, team[0], mode)

    error = caught.value
    assert isinstance(error, RuntimeError)
    assert isinstance(error.__cause__, KeyError) and error.__cause__.args == ("reviews",)
    assert error.edge == "coder -> critic [review due]"
    assert str(error) == (
        "The condition of the speaker transition coder -> critic [review due] raised KeyError: 'reviews'. "
        "Fix the condition (it receives the GroupChat and must return True or False) or remove the edge "
        "from allowed_or_disallowed_speaker_transitions."
    )
    # Every message up to the failing selection is kept.
    assert _speakers(gc) == ["coder", "executor", "coder"]
    assert [m["content"] for m in gc.messages] == ["Write the code.", "executor here.", "coder here."]
    last = gc.selection_log[-1]
    assert last.chosen is None and last.reason.startswith("TransitionConditionError: The condition of the speaker")
    assert [(c.edge, c.result, c.effect) for c in last.conditions] == [("coder -> critic [review due]", None, "error")]
    assert "condition coder -> critic [review due]: the condition failed" in format_selection_log(gc.selection_log)


def test_a_condition_returning_none_is_refused_at_selection(team: Team) -> None:
    coder, critic, executor = team
    graph = {coder: [executor, ConditionalEdge(critic, lambda gc: None, label="forgot return")]}
    gc = GroupChat(agents=list(team), speaker_selection_method="round_robin",
                   allowed_or_disallowed_speaker_transitions=graph, speaker_transitions_type="allowed")
    with pytest.raises(TransitionConditionError, match=r"coder -> critic \[forgot return\] returned None; it must "
                                                       r"return True or False") as caught:
        gc.select_speaker(coder, None)
    assert caught.value.__cause__ is None


def test_the_condition_receives_the_group_chat(team: Team) -> None:
    coder, critic, executor = team
    seen: list[Any] = []

    def record_it(gc: Any) -> bool:
        seen.append(gc)
        return True

    gc = GroupChat(agents=list(team), speaker_selection_method="round_robin",
                   allowed_or_disallowed_speaker_transitions={coder: [ConditionalEdge(critic, record_it)]},
                   speaker_transitions_type="allowed")
    assert gc.select_speaker(coder, None) is critic
    assert seen == [gc] and seen[0] is gc


def test_random_selection_never_takes_a_blocked_speaker(team: Team) -> None:
    coder, critic, executor = team
    planner = _agent("planner")
    graph = {coder: [executor, planner, ConditionalEdge(critic, lambda gc: False, label="never")]}
    gc = GroupChat(agents=[*team, planner], speaker_selection_method="random",
                   allowed_or_disallowed_speaker_transitions=graph, speaker_transitions_type="allowed")
    random.seed(3)
    chosen = {gc.select_speaker(coder, None).name for _ in range(30)}
    assert chosen == {"executor", "planner"}
    assert all(_steps(r)[-1] == ("transition_conditions", ["executor", "planner"]) for r in gc.selection_log)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_auto_without_a_model_needs_none_until_two_are_allowed(team: Team, mode: str) -> None:
    # The graph and its conditions settle every turn with one candidate; the first turn with two needs the model,
    # and without one it is AG2 Classic 0.14's ValueError.
    gc = _allowed_group(team, method="auto")
    with pytest.raises(ValueError, match="does not have an LLM configuration"):
        _run(gc, team[0], mode)
    assert _speakers(gc) == ["coder", "executor", "coder", "executor", "coder"]
    assert [c.effect for r in gc.selection_log for c in r.conditions] == ["blocked", "blocked", "allowed"]


def test_graph_changed_in_place_is_rebuilt(team: Team) -> None:
    coder, critic, executor = team
    graph: dict[Any, list[Any]] = {coder: [executor], executor: [coder], critic: [coder]}
    gc = GroupChat(agents=list(team), speaker_selection_method="round_robin",
                   allowed_or_disallowed_speaker_transitions=graph, speaker_transitions_type="allowed")
    assert gc.select_speaker(coder, None) is executor
    graph[coder].append(ConditionalEdge(critic, lambda gc: True, label="always"))
    assert gc.select_speaker(coder, None) is critic
    assert gc.allowed_speaker_transitions_dict[coder] == [executor, critic]
    graph[coder][1] = ConditionalEdge(critic, lambda gc: False, label="never")
    assert gc.select_speaker(coder, None) is executor
    assert gc.selection_log[-1].conditions[0].edge == "coder -> critic [never]"
    graph[coder][1] = ConditionalEdge(critic, "oops")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="coder -> critic is not callable"):
        gc.select_speaker(coder, None)


def test_trace_round_trips_through_json(team: Team) -> None:
    gc = _allowed_group(team)
    _run(gc, team[0], "sync")
    restored = selection_log_from_json(selection_log_to_json(gc.selection_log))
    assert restored == gc.selection_log
    assert restored[0].to_dict()["conditions"] == [{
        "edge": "coder -> critic [after 4 messages]", "source": "coder", "target": "critic",
        "label": "after 4 messages", "result": False, "effect": "blocked", "rule": "allow_if",
    }]
    assert SelectionRecord.from_dict({"round": 0, "method": "auto", "last_speaker": None}).conditions == []
    with pytest.raises(ValueError, match="effect must be one of"):
        ConditionOutcome("a -> b", "a", "b", effect="maybe")  # type: ignore[arg-type]


# ----------------------------------------------------------------- drawing
def test_edge_attributes_mark_conditional_edges(team: Team) -> None:
    coder, critic, executor = team
    graph = {coder: [executor, ConditionalEdge(critic, after_four, label="after 4 messages")], critic: [coder]}
    assert speaker_transition_edges(graph) == [
        ("coder", "executor", {}),
        ("coder", "critic", {"conditional": True, "style": "dashed", "rule": "allow_if", "label": "after 4 messages"}),
        ("critic", "coder", {}),
    ]
    gc = _disallowed_group(team)
    edges = speaker_transition_edges(gc.allowed_speaker_transitions_dict, gc.transition_conditions)
    assert ("coder", "critic", {"conditional": True, "style": "dashed", "rule": "block_if",
                                "label": "unless too early"}) in edges
    assert [e for e in edges if e[2]] == [e for e in edges if (e[0], e[1]) == ("coder", "critic")]


def test_visualisation_draws_conditional_edges_dashed_and_labelled(team: Team, tmp_path: Any) -> None:
    matplotlib = pytest.importorskip("matplotlib")
    pytest.importorskip("networkx")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    coder, critic, executor = team
    graph = {coder: [executor, ConditionalEdge(critic, after_four, label="after 4 messages")], critic: [coder]}
    drawn = visualize_speaker_transitions_dict(graph, list(team), export_path=None)
    try:
        assert dict(drawn.edges[("coder", "critic")]) == {
            "conditional": True, "style": "dashed", "rule": "allow_if", "label": "after 4 messages"}
        assert dict(drawn.edges[("coder", "executor")]) == {}
        axes = plt.gcf().axes[0]
        assert sorted(p.get_linestyle() for p in axes.patches) == ["dashed", "solid", "solid"]
        assert "after 4 messages" in [t.get_text() for t in axes.texts]
    finally:
        plt.close("all")

    target = tmp_path / "graph.png"
    gc = _disallowed_group(team)
    drawn = visualize_speaker_transitions_dict(gc.allowed_speaker_transitions_dict, gc.agents, export_path=str(target),
                                               conditions=gc.transition_conditions)
    assert target.stat().st_size > 0
    assert drawn.edges[("coder", "critic")]["label"] == "unless too early"


# ----------------------------------------------------------------- experiments
def test_experiment_records_count_condition_outcomes(team: Team) -> None:
    def conditional() -> GroupChat:
        return _allowed_group((_agent("coder"), _agent("critic"), _agent("executor")))

    def plain() -> GroupChat:
        return GroupChat(agents=[_agent("coder"), _agent("critic")], max_round=3,
                         speaker_selection_method="round_robin")

    records = run_group_chats(conditional, 2, message="Write the code.", label="conditional")
    edge = "coder -> critic [after 4 messages]"
    assert [r.transition_conditions for r in records] == [{edge: {"allowed": 1, "blocked": 2}}] * 2
    assert records[0].off_graph == {}  # the conditional transition counts as allowed
    records += run_group_chats(plain, 1, message="Go.", label="plain")
    assert records[2].transition_conditions == {}

    rows = records_to_rows(records)
    assert [list(row) for row in rows] == [list(rows[0])] * 3
    assert (rows[0][f"allowed:{edge}"], rows[0][f"blocked:{edge}"]) == (1, 2)
    assert (rows[2][f"allowed:{edge}"], rows[2][f"blocked:{edge}"]) == (0, 0)
    assert condition_counts(records) == {edge: {"allowed": 2, "blocked": 4}}
    assert "allowed:" not in " ".join(records_to_rows(records[2:])[0])  # plain chats keep the classic columns


def test_experiment_records_a_failing_condition(team: Team) -> None:
    records = run_group_chats(
        lambda: _crashing_group((_agent("coder"), _agent("critic"), _agent("executor")), "allowed"),
        1, message="Write the code.", on_error="record",
    )
    assert records[0].error is not None and records[0].error.startswith(
        "TransitionConditionError: The condition of the speaker transition coder -> critic [review due] raised")
    assert records[0].speakers == ["coder", "executor", "coder"]
    assert records[0].transition_conditions == {"coder -> critic [review due]": {"allowed": 0, "blocked": 1}}
