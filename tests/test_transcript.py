"""Crash-safe group chat transcripts: written per message, locked, repaired after a crash, resumed once."""

from __future__ import annotations

import gc
import importlib.util
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from autogen_classic import Agent, ConversableAgent, GroupChat, GroupChatManager, load_transcript
from autogen_classic.agentchat.groupchat.transcript import TranscriptInUseError
from autogen_classic.io.base import IOStream
from autogen_classic.testing.io import ScriptedIOStream

TOTAL = 40

# A chat whose every reply is "message <its position in the chat>", so order and duplicates are visible.
CHAT_SCRIPT = textwrap.dedent(
    """
    import sys, time
    from autogen_classic import Agent, ConversableAgent, GroupChat, GroupChatManager, load_transcript

    def build(path, max_round, delay):
        agents = [ConversableAgent(n, llm_config=False, human_input_mode="NEVER") for n in ("ann", "ben", "cat")]
        groupchat = GroupChat(agents, messages=[], max_round=max_round, speaker_selection_method="round_robin",
                              transcript_path=path)

        def numbered(recipient, messages, sender, config):
            time.sleep(delay)  # slow enough to be killed in the middle of the chat
            return True, f"message {len(groupchat.messages)}"

        for agent in agents:
            agent.register_reply([Agent, None], numbered)
        return agents, groupchat, GroupChatManager(groupchat, llm_config=False, silent=True)

    def run(path, total, delay):
        agents, groupchat, manager = build(path, total, delay)
        agents[0].initiate_chat(manager, message="message 0", silent=True)
        return manager

    def resume(path, total, delay):
        messages = load_transcript(path)
        agents, groupchat, manager = build(path, total, delay)
        last_agent, last_message = manager.resume(messages=messages, silent=True)
        # The resumed chat counts its rounds from the last message: stop at `total` messages overall.
        groupchat.max_round = total + 1 - len(messages)
        last_agent.initiate_chat(manager, message=last_message, clear_history=False, silent=True)
        return manager

    if __name__ == "__main__":
        run(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]))
    """
)


def _script_namespace(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """Write the chat script (run as a child process) and import it here too (for resuming in-process)."""
    script = tmp_path / "numbered_chat.py"
    script.write_text(CHAT_SCRIPT)
    spec = importlib.util.spec_from_file_location("numbered_chat", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return script, vars(module)


def scripted(name: str, reply: Any = "") -> ConversableAgent:
    return ConversableAgent(name, llm_config=False, human_input_mode="NEVER", default_auto_reply=reply)


def setup(path: Path | None, max_round: int = 4) -> tuple[GroupChatManager, GroupChat, list[ConversableAgent]]:
    agents = [scripted("user", "from user"), scripted("alice", "from alice"), scripted("bob", "from bob")]
    groupchat = GroupChat(agents, messages=[], max_round=max_round, speaker_selection_method="round_robin",
                          transcript_path=path)
    manager = GroupChatManager(groupchat, llm_config=False, silent=True,
                               is_termination_msg=lambda m: "TERMINATE" in (m.get("content") or ""))
    return manager, groupchat, agents


def lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


# ----------------------------------------------------------------- crash and resume
def test_a_chat_killed_mid_run_resumes_from_its_transcript_without_duplicates(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    script, namespace = _script_namespace(tmp_path)
    child = subprocess.Popen([sys.executable, str(script), str(path), str(TOTAL), "0.05"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not (path.exists() and path.read_bytes().count(b"\n") >= 5):
            assert child.poll() is None, child.stderr.read().decode() if child.stderr else "child ended"
            assert time.monotonic() < deadline, "the chat never wrote 5 messages"
            time.sleep(0.01)
        # While the other process writes, this one is refused.
        with pytest.raises(TranscriptInUseError, match="already being written by another GroupChat"):
            GroupChat([scripted("a")], transcript_path=path)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
        if child.stderr:
            child.stderr.close()

    before = load_transcript(path)
    assert 5 <= len(before) < TOTAL
    assert [m["content"] for m in before] == [f"message {i}" for i in range(len(before))]
    with path.open("ab") as file:  # a crash in the middle of a write
        file.write(b'{"content": "message 99", "role": "us')
    assert load_transcript(path) == before

    manager = namespace["resume"](str(path), TOTAL, 0.0)

    after = load_transcript(path)
    assert after[: len(before)] == before
    assert [m["content"] for m in after] == [f"message {i}" for i in range(TOTAL)]
    assert [m["name"] for m in after] == ["ann", "ben", "cat"] * 13 + ["ann"]
    assert all(line.endswith("}") for line in lines(path)) and len(lines(path)) == TOTAL
    assert manager.end_reason == f"max_round ({TOTAL + 1 - len(before)}) reached."
    manager.groupchat.close_transcript()


def test_every_message_is_on_disk_as_soon_as_it_is_appended(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    _, namespace = _script_namespace(tmp_path)
    agents, groupchat, manager = namespace["build"](str(path), 6, 0.0)
    seen: list[tuple[int, int]] = []

    def reader(recipient: Any, messages: Any, sender: Any, config: Any) -> tuple[bool, None]:
        # Another reader of the file, while the chat object is alive and holds it open.
        seen.append((len(groupchat.messages), len(load_transcript(path))))
        return False, None

    for agent in agents:
        agent.register_reply([Agent, None], reader)
    agents[0].initiate_chat(manager, message="message 0", silent=True)

    assert seen == [(n, n) for n in range(1, 6)]
    assert load_transcript(path) == groupchat.messages
    assert lines(path)[0] == '{"content": "message 0", "role": "user", "name": "ann", "index": 0}'
    groupchat.close_transcript()


def test_resume_writes_the_given_messages_that_the_file_does_not_hold_yet(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    manager, groupchat, _ = setup(path, max_round=2)
    manager.resume(messages=[{"content": "start", "role": "user", "name": "user"},
                             {"content": "said before", "role": "user", "name": "alice"},
                             {"content": "Admin speaks", "role": "user", "name": "Admin"}], silent=True)
    # Replayed messages (also the admin's, who is not a participant) are written; the last one when the chat goes on.
    assert [m["content"] for m in load_transcript(path)] == ["start", "said before"]

    last_agent, last_message = manager.resume(messages=load_transcript(path) + [
        {"content": "bob later", "role": "user", "name": "bob"}], silent=True)
    last_agent.initiate_chat(manager, message=last_message, clear_history=False, silent=True)

    assert [(m["name"], m["content"]) for m in load_transcript(path)] == [
        ("user", "start"), ("alice", "said before"), ("bob", "bob later"), ("user", "from user")]
    assert load_transcript(path) == groupchat.messages


def test_a_termination_string_removed_on_resume_does_not_duplicate_the_last_message(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    manager, groupchat, agents = setup(path, max_round=2)
    agents[2].initiate_chat(manager, message="bob TERMINATE", silent=True)
    assert len(load_transcript(path)) == 1

    last_agent, last_message = manager.resume(load_transcript(path), remove_termination_string="TERMINATE",
                                              silent=True)
    last_agent.initiate_chat(manager, message=last_message, clear_history=False, silent=True)

    assert [m["content"] for m in load_transcript(path)] == ["bob TERMINATE", "from user"]
    assert [m["content"] for m in groupchat.messages] == ["bob ", "from user"]


def test_a_resumed_chat_that_goes_on_differently_is_recorded_from_there(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    manager, _, agents = setup(path, max_round=2)
    agents[0].initiate_chat(manager, message="first", silent=True)
    manager.resume(load_transcript(path), silent=True)

    agents[2].initiate_chat(manager, message="something else", clear_history=False, silent=True)

    assert [m["content"] for m in load_transcript(path)] == ["first", "from alice", "something else", "from user"]
    # A new chat (clear_history) resets the group chat: its messages are appended to the same file.
    agents[0].initiate_chat(manager, message="new chat", silent=True)
    assert [m["content"] for m in load_transcript(path)][-2:] == ["new chat", "from alice"]


def test_resume_refuses_messages_that_do_not_start_like_the_file(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    manager, groupchat, agents = setup(path, max_round=3)
    agents[0].initiate_chat(manager, message="first", silent=True)
    kept = list(groupchat.messages)

    with pytest.raises(ValueError, match=r"messages\[1\] given to resume differs from message 1 of transcript_path"):
        manager.resume([kept[0], {"content": "other", "role": "user", "name": "bob"}, kept[2]], silent=True)
    with pytest.raises(ValueError, match="already holds 3 messages but only 2 were given to resume"):
        manager.resume(kept[:2], silent=True)
    assert groupchat.messages == kept  # left untouched
    assert load_transcript(path) == kept


# ----------------------------------------------------------------- locking and closing
def test_a_second_writer_is_refused_until_the_first_is_closed_or_collected(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    first = GroupChat([scripted("a")], transcript_path=path)
    with pytest.raises(TranscriptInUseError) as refused:
        GroupChat([scripted("a")], transcript_path=str(path))
    assert repr(str(path)) in str(refused.value)
    assert "close_transcript()" in str(refused.value) and "different transcript_path" in str(refused.value)

    first.close_transcript()
    second = GroupChat([scripted("a")], transcript_path=path)
    with pytest.raises(ValueError, match="was closed with close_transcript"):
        first.append({"content": "late", "role": "user"}, first.agents[0])
    assert first.messages == []

    del second
    gc.collect()
    third = GroupChat([scripted("a")], transcript_path=path)
    third.append({"content": "hello", "role": "user"}, third.agents[0])
    assert load_transcript(path) == [{"content": "hello", "role": "user", "name": "a"}]
    third.close_transcript()
    third.close_transcript()  # idempotent


def test_without_transcript_path_no_file_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    manager, groupchat, agents = setup(None)
    agents[0].initiate_chat(manager, message="hi", silent=True)
    assert len(groupchat.messages) == 4
    assert list(tmp_path.iterdir()) == []
    groupchat.close_transcript()  # nothing to close


# ----------------------------------------------------------------- reading and repairing the file
def test_a_torn_last_line_is_ignored_and_cut_away_before_appending(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text('{"content": "one", "role": "user", "name": "a", "index": 0}\n{"content": "tw')
    assert load_transcript(path) == [{"content": "one", "role": "user", "name": "a"}]

    groupchat = GroupChat([scripted("a")], transcript_path=path)
    groupchat.append({"content": "two", "role": "user"}, groupchat.agents[0])
    groupchat.close_transcript()

    assert lines(path) == ['{"content": "one", "role": "user", "name": "a", "index": 0}',
                           '{"content": "two", "role": "user", "name": "a", "index": 1}']


def test_a_torn_utf8_character_on_the_last_line_is_a_torn_line(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_bytes(b'{"content": "one"}\n{"content": "\xc3')
    assert load_transcript(path) == [{"content": "one"}]


def test_a_complete_last_line_without_newline_is_kept_and_terminated(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text('{"content": "one", "role": "user", "name": "a", "index": 0}')
    assert len(load_transcript(path)) == 1

    groupchat = GroupChat([scripted("a")], transcript_path=path)
    groupchat.append({"content": "two", "role": "user"}, groupchat.agents[0])
    groupchat.close_transcript()

    assert [m["content"] for m in load_transcript(path)] == ["one", "two"]
    assert path.read_text().count("\n") == 2


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('{"content": "one"}\n{"content": \n{"content": "three"}\n', "line 2 is not valid JSON"),
        ('{"content": "one"}\n[1, 2]\n', "line 2 is not a JSON object"),
        ('{"content": "one", "index": 0}\n\n{"content": "one", "index": 0}\n',
         "line 3 has index 0 but it is message 1"),
    ],
    ids=["invalid-json", "not-an-object", "duplicated-line"],
)
def test_a_corrupt_line_before_the_last_is_an_error_naming_the_line(tmp_path: Path, text: str, error: str) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text(text)
    with pytest.raises(ValueError, match=error) as raised:
        load_transcript(path)
    assert str(path) in str(raised.value)
    with pytest.raises(ValueError, match=error):
        GroupChat([scripted("a")], transcript_path=path)
    assert path.read_text() == text  # not modified
    GroupChat([scripted("a")], transcript_path=tmp_path / "other.jsonl").close_transcript()  # the lock was released


def test_values_json_cannot_represent_are_written_as_text(tmp_path: Path) -> None:
    class Thing:
        def __str__(self) -> str:
            return "a thing"

    path = tmp_path / "chat.jsonl"
    groupchat = GroupChat([scripted("a")], transcript_path=path)
    groupchat.append({"content": Thing(), "role": "user", "context": {"item": Thing(), "ids": (1, 2)}},
                     groupchat.agents[0])
    cyclic: dict[str, Any] = {"content": "loop", "role": "user"}
    cyclic["self"] = cyclic
    groupchat.append(cyclic, groupchat.agents[0])
    groupchat.append({"content": "keys", "role": "user", "map": {1: "one"}}, groupchat.agents[0])
    groupchat.close_transcript()

    loaded = load_transcript(path)
    assert loaded[0] == {"content": "a thing", "role": "user", "name": "a",
                         "context": {"item": "a thing", "ids": [1, 2]}}
    assert loaded[1]["content"] == "loop" and isinstance(loaded[1]["self"], str)
    assert loaded[2]["map"] == {"1": "one"}


# ----------------------------------------------------------------- bad paths
def test_transcript_path_errors_name_the_argument(tmp_path: Path) -> None:
    agent = scripted("a")
    with pytest.raises(ValueError, match="transcript_path .* is a directory; give a file path such as"):
        GroupChat([agent], transcript_path=tmp_path)
    with pytest.raises(TypeError, match="transcript_path must be None, a str or an os.PathLike file path; got int"):
        GroupChat([agent], transcript_path=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="transcript_path must be None, a str or an os.PathLike file path; got bytes"):
        GroupChat([agent], transcript_path=b"chat.jsonl")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="transcript_path must be a non-empty file path"):
        GroupChat([agent], transcript_path="")
    with pytest.raises(FileNotFoundError, match="transcript_path .* cannot be opened for appending"):
        GroupChat([agent], transcript_path=tmp_path / "missing" / "chat.jsonl")
    (tmp_path / "file").write_text("")
    with pytest.raises(NotADirectoryError, match="give the path of a writable file in an existing directory"):
        GroupChat([agent], transcript_path=tmp_path / "file" / "chat.jsonl")
    with pytest.raises(TypeError, match="path must be a str or os.PathLike; got NoneType"):
        load_transcript(None)  # type: ignore[arg-type]
    with pytest.raises(FileNotFoundError):
        load_transcript(tmp_path / "nothing.jsonl")


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root may write anywhere")
def test_an_unwritable_transcript_path_is_an_os_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text("")
    path.chmod(0o444)
    with pytest.raises(PermissionError, match="transcript_path .* cannot be opened for appending"):
        GroupChat([scripted("a")], transcript_path=path)


def test_the_chat_prints_as_without_a_transcript(tmp_path: Path) -> None:
    outputs = []
    for path in (None, tmp_path / "chat.jsonl"):
        stream = ScriptedIOStream()
        with IOStream.set_default(stream):
            manager, groupchat, agents = setup(path, max_round=2)
            agents[0].initiate_chat(manager, message="hi")
            groupchat.close_transcript()
        outputs.append(stream.output)
    assert outputs[0] == outputs[1]
    assert "user (to chat_manager):\n\nhi\n" in outputs[0]
