"""``resume_group_chat`` / ``a_resume_group_chat``: a group chat stopped at any round and resumed with new
objects ends as the uninterrupted chat (in this process; ``test_durable_chaos.py`` kills real processes)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Optional

import pytest

import autogen_classic as autogen


class Crash(Exception):
    """Stands for the process dying in the middle of a round."""


def build(path: Path, crash_at: Optional[int] = None) -> tuple[Any, Any]:
    """A round-robin chat; ``ann`` is limited to 3 auto replies in a row, ``cat`` sums into its context."""
    user = autogen.ConversableAgent("user", llm_config=False, human_input_mode="NEVER", default_auto_reply="more")
    ann = autogen.ConversableAgent("ann", llm_config=False, human_input_mode="NEVER", default_auto_reply="ann",
                                   max_consecutive_auto_reply=3)
    cat = autogen.ConversableAgent("cat", llm_config=False, human_input_mode="NEVER", context_variables={"sum": 0})

    def cat_reply(recipient: Any, messages: Any, sender: Any, config: Any) -> tuple[bool, str]:
        if crash_at is not None and len(messages) >= crash_at:
            raise Crash()
        cat.context_variables["sum"] += len(messages)
        return True, f"sum {cat.context_variables['sum']}"

    cat.register_reply([autogen.Agent, None], cat_reply)
    groupchat = autogen.GroupChat(agents=[user, ann, cat], messages=[], max_round=30,
                                  speaker_selection_method="round_robin", transcript_path=str(path))
    return user, autogen.GroupChatManager(groupchat=groupchat, llm_config=False, silent=True)


def outcome(result: Any, manager: Any) -> tuple[Any, ...]:
    cat = manager.groupchat.agent_by_name("cat")
    return (autogen.load_transcript(manager.groupchat.transcript_path), cat.context_variables.to_dict(),
            result.summary, manager.end_reason, [r.to_dict() for r in manager.groupchat.selection_log])


@pytest.mark.parametrize("use_async", [False, True])
@pytest.mark.parametrize("crash_at", [1, 4, 6, 8])
def test_a_stopped_chat_resumes_to_the_uninterrupted_outcome(tmp_path: Path, use_async: bool, crash_at: int) -> None:
    user, manager = build(tmp_path / "whole.jsonl")
    expected = outcome(user.initiate_chat(manager, message="go", silent=True), manager)
    assert expected[3] == "ann gave no reply."  # the auto-reply counter ended it

    user, manager = build(tmp_path / "chat.jsonl", crash_at)
    with pytest.raises(Crash):
        user.initiate_chat(manager, message="go", silent=True)
    manager.groupchat.close_transcript()

    _, manager = build(tmp_path / "chat.jsonl")  # a new process would build them again
    if use_async:
        result = asyncio.run(autogen.a_resume_group_chat(manager))
    else:
        result = autogen.resume_group_chat(manager)
    got = outcome(result, manager)
    assert got[:4] == expected[:4]
    # The selection trace goes on too (only the time-dependent usage fields may differ).
    assert [r["chosen"] for r in got[4]] == [r["chosen"] for r in expected[4]]


def test_resuming_a_finished_chat_changes_nothing(tmp_path: Path) -> None:
    user, manager = build(tmp_path / "chat.jsonl")
    expected = outcome(user.initiate_chat(manager, message="go", silent=True), manager)
    manager.groupchat.close_transcript()
    _, manager = build(tmp_path / "chat.jsonl")
    assert outcome(autogen.resume_group_chat(manager), manager)[:4] == expected[:4]


def test_clear_errors(tmp_path: Path) -> None:
    ann = autogen.ConversableAgent("ann", llm_config=False, default_auto_reply="x")
    bob = autogen.ConversableAgent("bob", llm_config=False, default_auto_reply="y")
    without = autogen.GroupChatManager(groupchat=autogen.GroupChat([ann, bob], messages=[]), llm_config=False)
    with pytest.raises(ValueError, match="needs a group chat with a transcript.*transcript_path"):
        autogen.resume_group_chat(without)
    empty = autogen.GroupChatManager(
        groupchat=autogen.GroupChat([ann, bob], messages=[], transcript_path=str(tmp_path / "new.jsonl")),
        llm_config=False)
    with pytest.raises(ValueError, match="holds no message: there is nothing to resume"):
        autogen.resume_group_chat(empty)


def test_pattern_chats_take_a_transcript_path_and_resume_from_it(tmp_path: Path) -> None:
    import sys

    from autogen_classic.agentchat import initiate_group_chat, resume_pattern_group_chat, run_group_chat

    sys.path.insert(0, str(Path(__file__).parent))
    try:
        from durable_scenarios import build_pattern
    finally:
        sys.path.pop(0)
    pattern, _ = build_pattern()
    result, context, _ = initiate_group_chat(pattern, "help", max_rounds=40, transcript_path=tmp_path / "a.jsonl")
    messages = autogen.load_transcript(tmp_path / "a.jsonl")
    assert len(messages) == 20 and context.to_dict() == {"issues": 6, "severity": 17}

    pattern, _ = build_pattern()
    response = run_group_chat(pattern, "help", max_rounds=40, transcript_path=tmp_path / "b.jsonl")
    response.process()
    assert autogen.load_transcript(tmp_path / "b.jsonl") == messages

    # A transcript cut after message 10 (as a kill leaves it), with its checkpoint, resumes to the same end.
    for name in ("c.jsonl", "c.jsonl.state"):
        lines = (tmp_path / name.replace("c.", "a.")).read_text().splitlines(keepends=True)
        (tmp_path / name).write_text("".join(lines[:11]))
    pattern, _ = build_pattern()
    resumed, context, last = resume_pattern_group_chat(pattern, tmp_path / "c.jsonl", max_rounds=40)
    assert autogen.load_transcript(tmp_path / "c.jsonl") == messages
    assert context.to_dict() == {"issues": 6, "severity": 17} and last.name == "triage"
    assert resumed.summary == result.summary


def test_async_twins_check_their_keywords_against_the_sync_signature() -> None:
    import asyncio

    import autogen_classic as autogen
    from autogen_classic.agentchat import a_resume_pattern_group_chat

    cases = [
        (autogen.a_resume_group_chat(None, bogus=1), "resume_group_chat: got an unexpected keyword argument 'bogus'"),
        (autogen.a_fork_group_chat(None, [], 1, speakr="x"), "fork_group_chat: got an unexpected keyword argument 'speakr'"),
        (a_resume_pattern_group_chat(None, "chat.jsonl", max_round=3),
         "resume_pattern_group_chat: got an unexpected keyword argument 'max_round'"),
    ]
    for coroutine, text in cases:
        with pytest.raises(TypeError) as caught:
            asyncio.run(coroutine)
        assert str(caught.value) == text
