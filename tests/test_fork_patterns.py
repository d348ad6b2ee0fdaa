"""Forks from a transcript file and its checkpoint, forks of pattern chats, and studies of forks.

The recorded chats are the scripted ones of ``tests/durable_scenarios.py``: a classic group chat whose
agents keep context variables and an auto-reply limit, and a ``DefaultPattern`` whose tool updates the
context variables and hands off. Forks run on the real engine; nothing of it is mocked.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from autogen_classic import (
    ConversableAgent,
    GroupChat,
    GroupChatManager,
    a_fork_group_chat,
    a_fork_pattern_group_chat,
    fork_group_chat,
    fork_pattern_group_chat,
    load_transcript,
)
from autogen_classic.agentchat.groupchat.resume import messages_to_string
from autogen_classic.agentchat import initiate_group_chat
from autogen_classic.experiments import GroupChatFork, run_forks, run_group_chats
from autogen_classic.experiments.single import StudySettingsError

sys.path.insert(0, str(Path(__file__).parent))
try:
    import durable_scenarios as scenarios
finally:
    sys.path.pop(0)

ROUNDS = 40  # the scenarios' max_rounds


def said(messages: list[dict[str, Any]]) -> list[tuple[Any, Any]]:
    return [(m.get("name"), m.get("content")) for m in messages]


# ----------------------------------------------------------------- the records (once per module)
@pytest.fixture(scope="module")
def pattern_record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The pattern chat run whole into a transcript with its checkpoint: 20 messages, 6 issues."""
    path = tmp_path_factory.mktemp("pattern") / "chat.jsonl"
    pattern, _ = scenarios.build_pattern()
    result, context, last = initiate_group_chat(pattern, "help", max_rounds=ROUNDS, transcript_path=path)
    return {"path": path, "messages": load_transcript(path), "result": result, "context": context.to_dict(),
            "last": last.name}


@pytest.fixture(scope="module")
def classic_record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The classic chat run whole: it ends when ann's auto-reply limit (5) is reached."""
    path = tmp_path_factory.mktemp("classic") / "chat.jsonl"
    user, manager = scenarios.build_classic(str(path))
    result = user.initiate_chat(manager, message="start", silent=True)
    manager.groupchat.close_transcript()
    return {"path": path, "messages": load_transcript(path), "result": result, "end": manager.end_reason,
            "cat": manager.groupchat.agent_by_name("cat").context_variables.to_dict()}


def fork_pattern(messages: Any, at_round: int, **change: Any) -> tuple[Any, dict[str, Any], str]:
    pattern, _ = scenarios.build_pattern()
    result, context, last = fork_pattern_group_chat(pattern, messages, at_round, max_rounds=ROUNDS, **change)
    return result, context.to_dict(), last.name


def fresh_classic(tmp_path: Path, name: str = "fork.jsonl") -> GroupChatManager:
    _, manager = scenarios.build_classic(str(tmp_path / name))
    return manager


def test_the_records(pattern_record: dict[str, Any], classic_record: dict[str, Any]) -> None:
    assert len(pattern_record["messages"]) == 20 and pattern_record["context"] == {"issues": 6, "severity": 17}
    assert classic_record["end"] == "ann gave no reply." and classic_record["cat"]["n"] > 0


# ----------------------------------------------------------------- pattern forks from the transcript file
@pytest.mark.parametrize("at_round", [1, 2, 3, 4, 9, 13, 19])
def test_a_pattern_fork_without_change_goes_on_as_the_record(pattern_record: dict[str, Any], at_round: int) -> None:
    result, context, last = fork_pattern(pattern_record["path"], at_round)
    # Context variables, the pending hand-off and the rounds continue as recorded: the same chat to its end.
    assert said(result.chat_history) == said(pattern_record["result"].chat_history)
    assert context == pattern_record["context"] and last == pattern_record["last"]
    assert result.summary == pattern_record["result"].summary


def test_without_the_checkpoint_a_pattern_fork_starts_its_state_afresh(
    pattern_record: dict[str, Any], tmp_path: Path
) -> None:
    bare = tmp_path / "bare.jsonl"  # the transcript alone, as written before checkpoints existed
    shutil.copy(pattern_record["path"], bare)
    result, context, _ = fork_pattern(bare, 9)
    history = said(result.chat_history)
    assert history[:9] == said(pattern_record["messages"][:9])
    # The transition starts afresh (its initial agent first) and the issues count again from the initial 0.
    assert history[9][0] == "triage" and history[11] == ("tech", "tech handled issue 1 (severity 5)")
    assert context != pattern_record["context"]
    # A list (or a JSON string) of the same messages carries no checkpoint either: the same fork.
    assert said(fork_pattern(pattern_record["messages"], 9)[0].chat_history) == history
    assert said(fork_pattern(messages_to_string(pattern_record["messages"]), 9)[0].chat_history) == history


def test_another_context_value_changes_the_outcome(pattern_record: dict[str, Any]) -> None:
    # After billing's reply (issue 1) the record goes on to 6 issues; with issues=5 the next one is the sixth.
    result, context, last = fork_pattern(pattern_record["path"], 4, context_variables={"issues": 5})
    history = said(result.chat_history)
    assert history[:4] == said(pattern_record["messages"][:4])
    # Severity is the record's (restored from the checkpoint), the issue count the new value.
    assert history[5:] == [("_Group_Tool_Executor", "recorded 5"), ("tech", "tech handled issue 6 (severity 7)"),
                           ("triage", "[Handing off to Terminate]")]
    assert context == {"issues": 6, "severity": 7} and last == "triage"


def test_a_forced_speaker_overrides_the_pending_handoff(pattern_record: dict[str, Any]) -> None:
    # messages[2] is the tool's result, which left a hand-off to billing pending.
    assert said(pattern_record["messages"])[3][0] == "billing"
    result, context, _ = fork_pattern(pattern_record["path"], 3, speaker="tech")
    history = said(result.chat_history)
    assert history[3] == ("tech", "tech handled issue 1 (severity 2)")
    # The pending hand-off was used up by the forced turn: tech's after-work (triage) follows, not billing.
    assert history[4][0] == "triage" and history[5] == ("_Group_Tool_Executor", "recorded 5")
    assert context == {"issues": 6, "severity": 17}


def test_a_new_message_takes_the_round_of_the_recorded_speaker(pattern_record: dict[str, Any]) -> None:
    result, _, _ = fork_pattern(pattern_record["path"], 3, message="billing cannot help")
    history = said(result.chat_history)
    assert history[3] == ("billing", "billing cannot help") and history[4][0] == "triage"


def test_a_pattern_fork_from_the_first_message_and_a_chat_history(pattern_record: dict[str, Any]) -> None:
    # A ChatResult's history leaves the opening sender's name out: the pattern's user agent sent it.
    history = [dict(m) for m in pattern_record["result"].chat_history]
    result, _, _ = fork_pattern(history, 1, speaker="billing")
    assert said(result.chat_history)[:2] == [("user", "help"), ("billing", "billing handled issue 0 (severity 0)")]
    # The forced first turn replaced the initial agent's: the hand-offs go on from billing (to triage).
    assert said(result.chat_history)[2][0] == "triage"


@pytest.mark.parametrize("change", [{}, {"speaker": "tech"}, {"message": "other"}, {"context_variables": {"issues": 4}}])
def test_pattern_forks_sync_and_async_alike(pattern_record: dict[str, Any], change: dict[str, Any]) -> None:
    sync_result, sync_context, sync_last = fork_pattern(pattern_record["path"], 6, **change)
    pattern, _ = scenarios.build_pattern()
    result, context, last = asyncio.run(
        a_fork_pattern_group_chat(pattern, pattern_record["path"], 6, max_rounds=ROUNDS, **change))
    assert result.chat_history == sync_result.chat_history and result.summary == sync_result.summary
    assert context.to_dict() == sync_context and last.name == sync_last


def test_a_pattern_fork_writes_a_new_transcript_that_resumes(pattern_record: dict[str, Any], tmp_path: Path) -> None:
    result, context, _ = fork_pattern(pattern_record["path"], 4, context_variables={"issues": 5},
                                      transcript_path=tmp_path / "fork.jsonl")
    assert said(load_transcript(tmp_path / "fork.jsonl")) == said(result.chat_history)
    # The fork's own checkpoint carries its state: forking the fork without change repeats it.
    again, again_context, _ = fork_pattern(tmp_path / "fork.jsonl", 6)
    assert said(again.chat_history) == said(result.chat_history) and again_context == context


# ----------------------------------------------------------------- classic forks from the transcript file
def test_a_classic_fork_restores_counters_and_context(classic_record: dict[str, Any], tmp_path: Path) -> None:
    recorded = classic_record["messages"]
    for at_round in (5, 12, len(recorded) - 1):
        manager = fresh_classic(tmp_path, f"fork{at_round}.jsonl")
        result = fork_group_chat(manager, classic_record["path"], at_round)
        # cat's running total (a context variable) and ann's auto-reply count go on from the record.
        assert said(result.chat_history) == said(recorded)
        assert manager.end_reason == classic_record["end"]
        assert manager.groupchat.agent_by_name("cat").context_variables.to_dict() == classic_record["cat"]
    # From the messages alone, ann's count and cat's total start afresh: the chat runs on past the record's end.
    manager = fresh_classic(tmp_path, "bare.jsonl")
    result = fork_group_chat(manager, recorded, 12)
    assert len(result.chat_history) > len(recorded)


def test_a_classic_fork_continues_the_recorded_random_draws(tmp_path: Path) -> None:
    def build(path: Path) -> GroupChatManager:
        agents = [ConversableAgent(n, llm_config=False, human_input_mode="NEVER", default_auto_reply=f"{n} here")
                  for n in ("user", "ann", "ben", "cat")]
        groupchat = GroupChat(agents, messages=[], max_round=12, speaker_selection_method="random",
                              transcript_path=str(path))
        groupchat.random_source = random.Random(11)
        return GroupChatManager(groupchat, llm_config=False, silent=True)

    manager = build(tmp_path / "chat.jsonl")
    manager.groupchat.agents[0].initiate_chat(manager, message="go", silent=True)
    manager.groupchat.close_transcript()
    recorded = [m["name"] for m in load_transcript(tmp_path / "chat.jsonl")]
    fork = fork_group_chat(build(tmp_path / "a.jsonl"), tmp_path / "chat.jsonl", 5)
    assert [m["name"] for m in fork.chat_history] == recorded  # the random source's state was restored
    again = fork_group_chat(build(tmp_path / "b.jsonl"), load_transcript(tmp_path / "chat.jsonl"), 5)
    assert [m["name"] for m in again.chat_history] != recorded  # drawn afresh from the seed


def test_a_classic_fork_sync_and_async_alike(classic_record: dict[str, Any], tmp_path: Path) -> None:
    for index, change in enumerate([{}, {"speaker": "ben"}, {"context_variables": {"n": 1000}}]):
        sync_manager = fresh_classic(tmp_path, f"s{index}.jsonl")
        async_manager = fresh_classic(tmp_path, f"a{index}.jsonl")
        sync = fork_group_chat(sync_manager, classic_record["path"], 7, **change)
        async_ = asyncio.run(a_fork_group_chat(async_manager, classic_record["path"], 7, **change))
        assert sync.chat_history == async_.chat_history and sync_manager.end_reason == async_manager.end_reason


# ----------------------------------------------------------------- bad input
def test_a_str_naming_a_file_asks_for_a_path(classic_record: dict[str, Any], tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"is the name of a file, but a str is read as JSON messages.*give Path\("):
        fork_group_chat(fresh_classic(tmp_path), str(classic_record["path"]), 3)


def test_a_fork_into_the_records_own_transcript_is_refused(classic_record: dict[str, Any], tmp_path: Path) -> None:
    copy = tmp_path / "chat.jsonl"
    shutil.copy(classic_record["path"], copy)
    _, manager = scenarios.build_classic(str(tmp_path / "other.jsonl"))
    manager.groupchat.transcript_path = str(copy)  # as if built on the record's file
    with pytest.raises(ValueError, match="transcript_path is the recorded run's transcript"):
        fork_group_chat(manager, copy, 3)


def test_bad_pattern_fork_arguments_name_the_field(pattern_record: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=r"speaker 'ghost' is not an agent of the group chat"):
        fork_pattern(pattern_record["path"], 3, speaker="ghost")
    with pytest.raises(ValueError, match=r"at_round must be between 1 and 19"):
        fork_pattern(pattern_record["path"], 20)
    with pytest.raises(ValueError, match="holds no message"):
        fork_pattern([], 1)
    with pytest.raises(TypeError, match="fork_pattern_group_chat: got an unexpected keyword argument 'max_round'"):
        asyncio.run(a_fork_pattern_group_chat(scenarios.build_pattern()[0], pattern_record["path"], 3, max_round=5))


# ----------------------------------------------------------------- studies of forks
NAMES = ("user", "planner", "coder", "critic")


def counting_team() -> GroupChatManager:
    agents = []
    for name in NAMES:
        agent = ConversableAgent(name, llm_config=False, human_input_mode="NEVER")
        agent.register_reply([ConversableAgent, None],
                             lambda recipient, messages=None, sender=None, config=None, n=name: (True, f"{n}/{len(messages)}"))
        agents.append(agent)
    return GroupChatManager(GroupChat(agents, messages=[], max_round=6, speaker_selection_method="round_robin"),
                            llm_config=False, silent=True)


def recorded_counting() -> list[dict[str, Any]]:
    manager = counting_team()
    manager.groupchat.agents[0].initiate_chat(manager, message="task", silent=True)
    return list(manager.groupchat.messages)


RECORD = recorded_counting()
FORKS = [{"at_round": 1, "speaker": "critic"}, {"at_round": 3, "message": "stop here"}, {"at_round": 2}]


def make_fork(run: int) -> GroupChatFork:
    return GroupChatFork(counting_team(), RECORD, **FORKS[run])


@pytest.mark.parametrize("concurrency", [1, 2])
def test_a_study_of_forks_gives_one_record_per_fork(concurrency: int) -> None:
    records = run_group_chats(make_fork, len(FORKS), concurrency=concurrency, label="sweep")
    assert [r.run for r in records] == [0, 1, 2] and not records.failed
    assert [r.label for r in records] == ["sweep at_round=1 speaker=critic", "sweep at_round=3 message='stop here'",
                                          "sweep at_round=2"]
    for fork, record in zip(FORKS, records):
        by_hand = fork_group_chat(counting_team(), RECORD, **fork)
        assert said(record.messages) == said(by_hand.chat_history)
    assert records[0].speakers[:2] == ["user", "critic"]


def test_a_study_of_pattern_forks_sync_and_at_once(pattern_record: dict[str, Any]) -> None:
    changes = [{"at_round": 3, "speaker": "tech"}, {"at_round": 4, "context_variables": {"issues": 5}},
               {"at_round": 9, "label": "baseline"}]

    def factory(run: int) -> GroupChatFork:
        return GroupChatFork(scenarios.build_pattern()[0], pattern_record["path"], **changes[run])

    one_by_one = run_group_chats(factory, 3, max_rounds=ROUNDS)
    at_once = run_group_chats(factory, 3, max_rounds=ROUNDS, concurrency=2)
    for records in (one_by_one, at_once):
        assert [r.label for r in records] == ["at_round=3 speaker=tech", "at_round=4 context_variables={'issues': 5}",
                                              "baseline"]
        assert records[1].context_variables == {"issues": 6, "severity": 7}
        assert said(records[2].messages) == said(pattern_record["messages"])
        assert records[0].method == "DefaultPattern" and not records.failed
    assert [said(r.messages) for r in one_by_one] == [said(r.messages) for r in at_once]
    by_hand, _, _ = fork_pattern(pattern_record["path"], 3, speaker="tech")
    assert said(one_by_one[0].messages) == said(by_hand.chat_history)


def test_run_forks_runs_forks_of_a_transcript_file(classic_record: dict[str, Any], tmp_path: Path) -> None:
    names = iter(range(100))
    records = run_forks(lambda: fresh_classic(tmp_path, f"f{next(names)}.jsonl"), classic_record["path"],
                        [{"at_round": 7}, {"at_round": 7, "speaker": "ben"}])
    assert [r.label for r in records] == ["at_round=7", "at_round=7 speaker=ben"]
    assert said(records[0].messages) == said(classic_record["messages"])  # restored: the record's continuation
    assert records[1].speakers[7] == "ben"


def test_a_failed_fork_is_recorded_or_raised_naming_the_field() -> None:
    def bad(run: int) -> GroupChatFork:
        return GroupChatFork(counting_team(), RECORD, 2, speaker="ghost" if run == 0 else "critic")

    records = run_group_chats(bad, 2, on_error="record")
    assert records[0].failed and "speaker 'ghost' is not an agent of the group chat" in records[0].error
    assert records[0].label == "at_round=2 speaker=ghost" and not records[1].failed
    with pytest.raises(ValueError, match="speaker 'ghost'"):
        run_group_chats(bad, 2)


@pytest.mark.parametrize(
    "factory, settings, error, text",
    [
        (lambda: counting_team().groupchat, {}, StudySettingsError, "run_group_chats needs message="),
        (make_fork, {"message": "hi"}, StudySettingsError, "returned a GroupChatFork, so message must be left out"),
        (make_fork, {"sender": "user", "concurrency": 2}, StudySettingsError, "so sender must be left out"),
        (lambda run, other: None, {}, TypeError, "make_groupchat must take no argument, or one: run"),
        (lambda: GroupChatFork(3, RECORD, 1), {"on_error": "raise"}, TypeError, "GroupChatFork.chat must be"),
        (lambda: GroupChatFork(counting_team(), 5, 1), {}, TypeError, "GroupChatFork.messages must be"),
        (lambda: GroupChatFork(counting_team(), RECORD, "1"), {}, TypeError, "GroupChatFork.at_round must be an int"),
    ],
)
def test_bad_studies_of_forks_are_refused(factory: Any, settings: dict[str, Any], error: type, text: str) -> None:
    with pytest.raises(error) as caught:
        run_group_chats(factory, 2, **settings)
    assert text in str(caught.value)


def test_a_factory_may_take_the_run_index() -> None:
    seen: list[int] = []

    def factory(run: int) -> GroupChat:
        seen.append(run)
        return counting_team().groupchat

    records = run_group_chats(factory, 3, message="task")
    assert seen == [0, 1, 2] and [r.run for r in records] == [0, 1, 2] and not records.failed
