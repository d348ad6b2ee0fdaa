"""The checkpoint beside a group chat transcript (``<transcript_path>.state``): one line per message, the state
a resumed run needs, torn and stale lines handled like the transcript's, corrupt lines reported."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import autogen_classic as autogen
from autogen_classic.agentchat.groupchat.durable.checkpoint_file import checkpoint_path, load_checkpoint


def counting_chat(path: Path, max_round: int = 6) -> tuple[Any, Any, Any]:
    """Two scripted agents; ``bob`` keeps a count in his context variables."""
    ann = autogen.ConversableAgent("ann", llm_config=False, human_input_mode="NEVER", default_auto_reply="hi")
    bob = autogen.ConversableAgent("bob", llm_config=False, human_input_mode="NEVER", context_variables={"seen": 0})

    def bob_reply(recipient: Any, messages: Any, sender: Any, config: Any) -> tuple[bool, str]:
        bob.context_variables["seen"] = len(messages)
        return True, f"bob saw {len(messages)}"

    bob.register_reply([autogen.Agent, None], bob_reply)
    groupchat = autogen.GroupChat(agents=[ann, bob], messages=[], max_round=max_round,
                                  speaker_selection_method="round_robin", transcript_path=str(path))
    manager = autogen.GroupChatManager(groupchat=groupchat, llm_config=False, silent=True)
    return ann, bob, manager


def test_one_line_per_message_with_the_state_at_that_moment(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    ann, bob, manager = counting_chat(path)
    ann.initiate_chat(manager, message="start", silent=True)
    manager.groupchat.close_transcript()

    checkpoint = load_checkpoint(checkpoint_path(path))
    assert checkpoint.indexes == list(range(6))
    assert [state["round"] for state in checkpoint.states] == [1, 2, 3, 4, 5, 6]
    assert checkpoint.state_at(5)["context"] == [[["bob"], {"seen": 5}]]
    assert checkpoint.state_at(2)["auto_replies"] == {"ann": {"chat_manager": 1}}  # bob's reply function counts none
    assert [r["chosen"] for r in checkpoint.state_at(5)["selection"]] == ["bob", "ann", "bob", "ann", "bob"]
    lines = [json.loads(line) for line in Path(checkpoint_path(path)).read_text().splitlines()]
    # Only what changed is written: one new selection record per line, the context when bob replied.
    assert all(len(line.get("selection", [])) <= 1 for line in lines)
    assert "context" not in lines[2] and "context" in lines[3]


def test_torn_and_stale_lines_are_ignored_and_cut_away(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    ann, _, manager = counting_chat(path, max_round=3)
    ann.initiate_chat(manager, message="start", silent=True)
    manager.groupchat.close_transcript()
    state_file = Path(checkpoint_path(path))
    before = state_file.read_bytes()
    # A crash after the checkpoint line of message 3 but before its transcript line, then a torn line.
    state_file.write_bytes(before + b'{"index": 3, "round": 4}\n{"index": 4, "rou')
    assert load_checkpoint(state_file).indexes == [0, 1, 2, 3]  # read as it is (the transcript decides)

    groupchat = autogen.GroupChat(agents=manager.groupchat.agents, messages=[], transcript_path=str(path))
    assert state_file.read_bytes() == before  # the line of a message that never counted, and the torn one, cut
    groupchat.close_transcript()


def test_a_corrupt_line_names_the_file_and_the_line(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    ann, _, manager = counting_chat(path, max_round=3)
    ann.initiate_chat(manager, message="start", silent=True)
    manager.groupchat.close_transcript()
    state_file = Path(checkpoint_path(path))
    lines = state_file.read_text().splitlines(keepends=True)
    state_file.write_text(lines[0] + "not json\n" + "".join(lines[2:]))
    with pytest.raises(ValueError, match=r"checkpoint .*chat.jsonl.state' line 2 is not valid JSON"):
        load_checkpoint(state_file)
    with pytest.raises(ValueError, match="line 2"):
        autogen.GroupChat(agents=manager.groupchat.agents, messages=[], transcript_path=str(path))
    state_file.write_text(lines[1] + lines[0] + "".join(lines[2:]))
    with pytest.raises(ValueError, match=r"line 2 has index 0 after index 1"):
        load_checkpoint(state_file)


def test_no_checkpoint_without_transcript_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    ann = autogen.ConversableAgent("ann", llm_config=False, human_input_mode="NEVER", default_auto_reply="hi")
    bob = autogen.ConversableAgent("bob", llm_config=False, human_input_mode="NEVER", default_auto_reply="yo")
    groupchat = autogen.GroupChat(agents=[ann, bob], messages=[], max_round=3, speaker_selection_method="round_robin")
    ann.initiate_chat(autogen.GroupChatManager(groupchat=groupchat, llm_config=False), message="x", silent=True)
    assert list(tmp_path.iterdir()) == []
