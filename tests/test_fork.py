"""Forking a recorded group chat (fork_group_chat / a_fork_group_chat) and sweeping forks (run_forks)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from autogen_classic import (
    ConversableAgent,
    GroupChat,
    GroupChatManager,
    a_fork_group_chat,
    fork_group_chat,
    load_transcript,
)
from autogen_classic.experiments import fork_label, run_forks

NAMES = ("user", "planner", "coder", "critic")


def counting(name: str) -> ConversableAgent:
    """An agent whose n-th reply is ``<name>-<n>/<messages it has seen>``: deterministic given its history."""
    agent = ConversableAgent(name, llm_config=False, human_input_mode="NEVER")
    count = {"n": 0}

    def reply(recipient: Any, messages: Any = None, sender: Any = None, config: Any = None) -> tuple[bool, str]:
        count["n"] += 1
        return True, f"{name}-{count['n']}/{len(messages)}"

    agent.register_reply([ConversableAgent, None], reply)
    return agent


def build(method: Any = "round_robin", max_round: int = 6, **kwargs: Any) -> GroupChatManager:
    groupchat = GroupChat([counting(n) for n in NAMES], messages=[], max_round=max_round,
                          speaker_selection_method=method, **kwargs)
    return GroupChatManager(groupchat, llm_config=False, silent=True)


def record(method: Any = "round_robin", max_round: int = 6, **kwargs: Any) -> list[dict[str, Any]]:
    manager = build(method, max_round, **kwargs)
    manager.groupchat.agents[0].initiate_chat(manager, message="task", silent=True)
    return list(manager.groupchat.messages)


def said(messages: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(m["name"], m["content"]) for m in messages]


RECORD = record()


def test_the_record() -> None:
    assert said(RECORD) == [("user", "task"), ("planner", "planner-1/1"), ("coder", "coder-1/2"),
                            ("critic", "critic-1/3"), ("user", "user-1/4"), ("planner", "planner-2/5")]


# ----------------------------------------------------------------- what a fork gives
@pytest.mark.parametrize("at_round", [1, 2, 3, 4, 5])
def test_another_speaker_keeps_the_first_messages_then_goes_its_own_way(at_round: int) -> None:
    manager = build()
    result = fork_group_chat(manager, RECORD, at_round, speaker="critic")
    history = said(result.chat_history)
    assert history[:at_round] == said(RECORD[:at_round])
    # The critic replies to the kept messages; round robin goes on after it, as a whole run would.
    assert history[at_round] == ("critic", f"critic-1/{at_round}")
    order = [NAMES[(NAMES.index("critic") + i) % 4] for i in range(1, 6 - at_round)]
    assert [name for name, _ in history[at_round + 1:]] == order
    # max_round bounds the fork as it bounded the record: the rounds count from the opening message.
    assert len(history) == 6 and manager.end_reason == "max_round (6) reached."
    assert result.chat_history == manager.groupchat.messages
    # Every agent holds the whole forked conversation, as after a whole run.
    planner = manager.groupchat.agent_by_name("planner")
    assert [m["content"] for m in planner.chat_messages[manager]] == [c for _, c in history]


def test_the_speaker_may_be_the_agent_object() -> None:
    manager = build()
    coder = manager.groupchat.agent_by_name("coder")
    result = fork_group_chat(manager, RECORD, 1, speaker=coder)
    assert said(result.chat_history)[1] == ("coder", "coder-1/1")


def test_another_message_is_said_by_the_recorded_speaker() -> None:
    manager = build()
    result = fork_group_chat(manager, RECORD, 2, message="Skip the plan.")
    history = said(result.chat_history)
    assert history[:3] == said(RECORD[:2]) + [("coder", "Skip the plan.")]
    assert [name for name, _ in history[3:]] == ["critic", "user", "planner"]
    assert history[3] == ("critic", "critic-1/3")  # the critic answered the new message


def test_speaker_and_message_together_say_exactly_that() -> None:
    result = fork_group_chat(build(), RECORD, 2, speaker="user", message={"content": "Stop.", "role": "user"})
    assert said(result.chat_history)[2] == ("user", "Stop.")
    assert said(result.chat_history)[3][0] == "planner"


def test_a_new_message_may_end_the_chat() -> None:
    manager = build()
    result = fork_group_chat(manager, RECORD, 3, message="TERMINATE")
    assert said(result.chat_history) == said(RECORD[:3]) + [("critic", "TERMINATE")]
    assert manager.end_reason == "critic sent a termination message." and manager.groupchat.is_complete


def test_a_new_last_message_reaches_max_round() -> None:
    manager = build()
    result = fork_group_chat(manager, RECORD, 5, message="last word")
    assert said(result.chat_history)[-1] == ("planner", "last word") and len(result.chat_history) == 6
    assert manager.end_reason == "max_round (6) reached."


def test_no_change_is_the_baseline_and_repeats_a_deterministic_record() -> None:
    for at_round in range(1, 6):
        result = fork_group_chat(build(), RECORD, at_round)
        # Each agent's counter starts afresh, but it sees the same history: the same words where it counts.
        assert [m["name"] for m in result.chat_history] == [m["name"] for m in RECORD]
        assert said(result.chat_history)[:at_round] == said(RECORD[:at_round])


def test_context_variables_are_set_before_the_round() -> None:
    seen: list[Any] = []
    manager = build()
    critic = manager.groupchat.agent_by_name("critic")

    def read(recipient: Any, messages: Any = None, sender: Any = None, config: Any = None) -> tuple[bool, str]:
        seen.append(recipient.get_context("mood"))
        return True, f"mood {recipient.get_context('mood')}"

    critic.register_reply([ConversableAgent, None], read)
    result = fork_group_chat(manager, RECORD, 3, context_variables={"mood": "grumpy"})
    assert said(result.chat_history)[3] == ("critic", "mood grumpy") and seen == ["grumpy"]


def test_the_record_is_not_changed() -> None:
    before = [dict(m) for m in RECORD]
    fork_group_chat(build(), RECORD, 2, message="changed")
    assert RECORD == before


# ----------------------------------------------------------------- repeatable, sync equals async
@pytest.mark.parametrize("fork", [{"speaker": "critic"}, {"message": "other"}, {}])
def test_the_same_fork_twice_gives_the_same_chat(fork: dict[str, Any]) -> None:
    first = fork_group_chat(build(), RECORD, 2, **fork)
    second = fork_group_chat(build(), RECORD, 2, **fork)
    assert first.chat_history == second.chat_history and first.summary == second.summary


def test_random_selection_repeats_with_a_seeded_source() -> None:
    recorded = record("random", max_round=8)
    results = []
    for _ in range(2):
        manager = build("random", max_round=8)
        manager.groupchat.random_source = random.Random(5)
        results.append(said(fork_group_chat(manager, recorded, 3, speaker="coder").chat_history))
    assert results[0] == results[1] and results[0][3][0] == "coder"


@pytest.mark.parametrize("fork", [{"speaker": "critic"}, {"message": "other"}, {}, {"context_variables": {"a": 1}}])
def test_async_twin_equals_sync(fork: dict[str, Any]) -> None:
    sync_manager, async_manager = build(), build()
    sync = fork_group_chat(sync_manager, RECORD, 3, **fork)
    async_ = asyncio.run(a_fork_group_chat(async_manager, RECORD, 3, **fork))
    assert sync.chat_history == async_.chat_history
    assert sync_manager.end_reason == async_manager.end_reason
    for name in NAMES:
        sync_agent = sync_manager.groupchat.agent_by_name(name)
        async_agent = async_manager.groupchat.agent_by_name(name)
        assert sync_agent.chat_messages[sync_manager] == async_agent.chat_messages[async_manager]


def test_a_fork_from_a_transcript_into_a_new_transcript(tmp_path: Any) -> None:
    manager = build(transcript_path=str(tmp_path / "chat.jsonl"))
    manager.groupchat.agents[0].initiate_chat(manager, message="task", silent=True)
    recorded = load_transcript(str(tmp_path / "chat.jsonl"))
    manager.groupchat.close_transcript()
    fork = build(transcript_path=str(tmp_path / "fork.jsonl"))
    result = fork_group_chat(fork, recorded, 2, speaker="critic")
    fork.groupchat.close_transcript()
    assert load_transcript(str(tmp_path / "fork.jsonl")) == result.chat_history == fork.groupchat.messages
    assert said(result.chat_history)[:2] == said(RECORD[:2])


# ----------------------------------------------------------------- errors
@pytest.mark.parametrize(
    "at_round, kwargs, error, text",
    [
        (0, {}, ValueError, "at_round must be between 1 and 5 for these 6 messages"),
        (6, {}, ValueError, "at_round must be between 1 and 5"),
        (-1, {}, ValueError, "at_round must be between 1 and 5"),
        ("2", {}, TypeError, "at_round must be an int"),
        (True, {}, TypeError, "at_round must be an int"),
        (2, {"speaker": "reviewer"}, ValueError,
         "speaker 'reviewer' is not an agent of the group chat; its agents are ['user', 'planner', 'coder', 'critic']"),
        (2, {"speaker": 3}, TypeError, "speaker must be an agent of the group chat or its name"),
        (2, {"message": 3}, TypeError, "message must be a str (the new content) or a message dict"),
        (2, {"message": {"content": "x", "name": "critic"}}, ValueError,
         "message names 'critic', but messages[2] is said by 'coder'"),
        (2, {"context_variables": ["a"]}, TypeError, "context_variables must be a dict"),
    ],
)
def test_bad_arguments_are_refused_before_anything_changes(
    at_round: Any, kwargs: dict[str, Any], error: type[Exception], text: str
) -> None:
    manager = build()
    with pytest.raises(error, match=None) as caught:
        fork_group_chat(manager, RECORD, at_round, **kwargs)
    assert text in str(caught.value)
    assert manager.groupchat.messages == [] and not manager.groupchat.agents[1].chat_messages


def test_an_agent_of_another_setup_is_refused_by_name() -> None:
    other = build().groupchat.agent_by_name("critic")
    with pytest.raises(ValueError, match=r"give its name, speaker='critic'"):
        fork_group_chat(build(), RECORD, 2, speaker=other)


def test_a_group_chat_that_is_not_empty_is_refused() -> None:
    manager = build()
    manager.groupchat.agents[0].initiate_chat(manager, message="task", silent=True)
    with pytest.raises(ValueError, match="already holds 6 message.*a fork starts on a fresh setup"):
        fork_group_chat(manager, RECORD, 2)


def test_a_max_round_without_room_is_refused() -> None:
    with pytest.raises(ValueError, match=r"max_round \(3\) leaves no round after the 3 kept messages"):
        fork_group_chat(build(max_round=3), RECORD, 3, speaker="critic")


def test_unknown_recorded_names_are_refused_by_resume() -> None:
    strange = [dict(m) for m in RECORD]
    strange[1]["name"] = "ghost"
    with pytest.raises(ValueError, match="ghost"):
        fork_group_chat(build(), strange, 3)


def test_a_last_kept_message_of_no_agent_is_refused() -> None:
    messages = [dict(m) for m in RECORD]
    messages[1] = {"content": "42", "role": "function", "name": "compute"}
    with pytest.raises(ValueError, match=r"messages\[1\], the last kept message, was sent by 'compute'"):
        fork_group_chat(build(), messages, 2)


def test_a_record_ending_earlier_with_the_forks_settings_is_explained() -> None:
    messages = [dict(m) for m in RECORD]
    messages[2]["content"] = "TERMINATE"  # the record went on (other settings); this manager stops there
    with pytest.raises(ValueError, match="the chat ends at the last replayed message"):
        fork_group_chat(build(), messages, 3, speaker="user")


def test_context_variables_need_agents_that_keep_them() -> None:
    manager = build()
    for agent in manager.groupchat.agents:
        del agent.context_variables  # stands for agents of another kind
    with pytest.raises(NotImplementedError, match="supported: speaker, message"):
        fork_group_chat(manager, RECORD, 2, context_variables={"a": 1})


# ----------------------------------------------------------------- sweeping forks
def test_a_sweep_gives_one_record_per_fork_in_order() -> None:
    forks = [{"at_round": k, "speaker": name} for k in (1, 3) for name in ("coder", "critic")] + [{"at_round": 2}]
    records = run_forks(build, RECORD, forks)
    assert len(records) == 5 and [r.run for r in records] == [0, 1, 2, 3, 4]
    assert [r.label for r in records] == [
        "at_round=1 speaker=coder", "at_round=1 speaker=critic", "at_round=3 speaker=coder",
        "at_round=3 speaker=critic", "at_round=2",
    ]
    for fork, rec in zip(forks, records):
        expected = said(fork_group_chat(build(), RECORD, **fork).chat_history)
        assert said(rec.messages) == expected and rec.speakers == [n for n, _ in expected]
        assert rec.end_reason == "max_round (6) reached." and not rec.failed
    assert records[0].speakers[1] == "coder" and records[3].speakers[3] == "critic"


def test_a_sweep_seeds_every_fork_alike() -> None:
    recorded = record("random", max_round=8)
    forks = [{"at_round": 2}, {"at_round": 2}]
    first, second = run_forks(lambda: build("random", max_round=8), recorded, forks, seed=3)
    assert first.speakers == second.speakers


def test_a_sweep_records_failed_forks_or_raises() -> None:
    forks = [{"at_round": 2, "speaker": "ghost"}, {"at_round": 2, "speaker": "critic"}]
    records = run_forks(build, RECORD, forks, on_error="record")
    assert records[0].failed and "speaker 'ghost' is not an agent" in records[0].error
    assert not records[1].failed and len(records.failed) == 1
    with pytest.raises(ValueError, match="speaker 'ghost'"):
        run_forks(build, RECORD, forks)


def test_a_sweep_builds_a_manager_for_a_group_chat() -> None:
    records = run_forks(lambda: build().groupchat, RECORD, [{"at_round": 1, "speaker": "critic"}])
    assert records[0].speakers[:2] == ["user", "critic"]


@pytest.mark.parametrize(
    "forks, kwargs, error, text",
    [
        ({"at_round": 1}, {}, TypeError, "forks must be a list of dicts"),
        ([3], {}, TypeError, "forks[0] must be a dict"),
        ([{"speaker": "critic"}], {}, ValueError, "forks[0] has no 'at_round'"),
        ([{"at_round": 1, "who": "x"}], {}, ValueError, "forks[0] has the unknown key(s) ['who']"),
        ([{"at_round": 1, "speaker": object()}], {}, TypeError, "forks[0]['speaker'] must be an agent's name"),
        ([{"at_round": 1}], {"on_error": "skip"}, ValueError, "on_error must be one of"),
        ([{"at_round": 1}], {"seed": "1"}, TypeError, "seed must be None or an int"),
    ],
)
def test_bad_sweeps_are_refused_before_any_fork_runs(
    forks: Any, kwargs: dict[str, Any], error: type[Exception], text: str
) -> None:
    built: list[Any] = []
    with pytest.raises(error) as caught:
        run_forks(lambda: built.append(1) or build(), RECORD, forks, **kwargs)
    assert text in str(caught.value) and built == []


def test_fork_labels() -> None:
    assert fork_label({"at_round": 2, "message": {"content": "hi"}}) == "at_round=2 message='hi'"
    assert fork_label({"at_round": 4, "context_variables": {"a": 1}}) == "at_round=4 context_variables={'a': 1}"
