"""Saving and resuming a group chat: JSON round trips, validation, replay and continuing the chat."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from autogen_classic import ConversableAgent, GroupChat, GroupChatManager
from autogen_classic.io.base import IOStream
from autogen_classic.testing.io import ScriptedIOStream


def scripted(name: str, reply: Any = "") -> ConversableAgent:
    return ConversableAgent(name, llm_config=False, human_input_mode="NEVER", default_auto_reply=reply)


def setup(max_round: int = 10) -> tuple[GroupChatManager, GroupChat, list[ConversableAgent]]:
    agents = [scripted("user", "unused"), scripted("alice", "hi from alice"), scripted("bob", "hi from bob"),
              scripted("carol", "carol says")]
    groupchat = GroupChat(agents, messages=[], max_round=max_round, speaker_selection_method="round_robin")
    return GroupChatManager(groupchat, llm_config=False), groupchat, agents


PREVIOUS = [
    {"content": "start", "role": "user", "name": "user"},
    {"content": "hi from alice", "role": "user", "name": "alice"},
    {"content": "bob TERMINATE", "role": "user", "name": "bob"},
]


# ----------------------------------------------------------------- JSON round trips
def test_messages_round_trip_through_a_string() -> None:
    manager, _, _ = setup()
    messages = PREVIOUS + [{"content": None, "role": "assistant", "name": "alice",
                            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}]
    text = manager.messages_to_string(messages)
    assert isinstance(text, str)
    assert manager.messages_from_string(text) == messages
    assert manager.messages_to_string(manager.messages_from_string(text)) == text


@pytest.mark.parametrize("garbage", ["{bad", "", "not json at all"])
def test_messages_from_string_rejects_text_that_is_not_json(garbage: str) -> None:
    manager, _, _ = setup()
    with pytest.raises(ValueError, match="message_string is not a valid JSON string"):
        manager.messages_from_string(garbage)


@pytest.mark.parametrize("wrong_shape", ['{"content": "x"}', "[1, 2]", '"text"', '[{"content": "x"}, []]'])
def test_messages_from_string_rejects_json_of_the_wrong_shape(wrong_shape: str) -> None:
    manager, _, _ = setup()
    with pytest.raises(ValueError, match="message_string must be a JSON list of message objects"):
        manager.messages_from_string(wrong_shape)


def test_messages_from_string_and_to_string_check_their_argument_types() -> None:
    manager, _, _ = setup()
    with pytest.raises(TypeError, match="message_string must be a str"):
        manager.messages_from_string(b"[]")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="messages must be a list of message dicts"):
        manager.messages_to_string({"content": "x"})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="messages must hold only JSON values"):
        manager.messages_to_string([{"content": object()}])


# ----------------------------------------------------------------- resume
def test_resume_replays_every_message_but_the_last_and_returns_the_last(console: ScriptedIOStream) -> None:
    manager, groupchat, (_user, alice, bob, _carol) = setup()

    last_agent, last_message = manager.resume(messages=manager.messages_to_string(PREVIOUS),
                                              remove_termination_string="TERMINATE")

    assert last_agent is bob
    assert last_message == {"content": "bob ", "role": "user", "name": "bob"}
    assert console.output == "Prepared group chat with 3 events, the last speaker is bob\n"
    assert groupchat.messages == PREVIOUS[:2]
    assert alice.chat_messages[manager] == [
        {"content": "start", "name": "user", "role": "user"},
        {"content": "hi from alice", "name": "alice", "role": "assistant"},
    ]
    assert bob.chat_messages[manager] == [
        {"content": "start", "name": "user", "role": "user"},
        {"content": "hi from alice", "name": "alice", "role": "user"},
    ]
    assert manager.chat_messages[alice] == [
        {"content": "start", "name": "user", "role": "assistant"},
        {"content": "hi from alice", "name": "alice", "role": "user"},
    ]
    assert PREVIOUS[2]["content"] == "bob TERMINATE"  # the caller's messages are not modified


def test_the_resumed_chat_continues_where_it_stopped(console: ScriptedIOStream) -> None:
    manager, groupchat, _ = setup()
    last_agent, last_message = manager.resume(messages=PREVIOUS, remove_termination_string="TERMINATE", silent=True)
    groupchat.max_round = 3  # a setting changed before continuing takes effect

    result = last_agent.initiate_chat(manager, message=last_message, clear_history=False)

    assert [(m["name"], m["content"]) for m in groupchat.messages] == [
        ("user", "start"), ("alice", "hi from alice"), ("bob", "bob "), ("carol", "carol says"), ("user", "unused")
    ]
    assert [m["content"] for m in result.chat_history] == ["start", "hi from alice", "bob ", "carol says", "unused"]
    assert console.output.startswith("bob (to chat_manager):\n\nbob \n")
    assert "Next speaker: carol" in console.output


def test_a_saved_chat_is_resumed_by_new_agents(console: ScriptedIOStream) -> None:
    manager, groupchat, agents = setup(max_round=4)
    agents[0].initiate_chat(manager, message="start")
    saved = manager.messages_to_string(groupchat.messages)

    new_manager, new_groupchat, new_agents = setup(max_round=3)
    last_agent, last_message = new_manager.resume(saved, silent=True)

    assert last_agent is new_agents[3]
    assert last_message["content"] == "carol says"
    assert [m["name"] for m in new_groupchat.messages] == ["user", "alice", "bob"]
    last_agent.initiate_chat(new_manager, message=last_message, clear_history=False)
    assert [m["name"] for m in new_groupchat.messages] == ["user", "alice", "bob", "carol", "user", "alice"]


def test_messages_without_names_are_the_managers(console: ScriptedIOStream) -> None:
    manager, groupchat, (_user, alice, _, _) = setup()

    last_agent, last_message = manager.resume(
        [{"content": "task", "role": "assistant"}, {"content": "hello TERMINATE", "role": "user"}],
        remove_termination_string=lambda text: text.replace(" TERMINATE", "!"),
    )

    assert last_agent is manager
    assert last_message == {"content": "hello!", "role": "user", "name": "chat_manager"}
    assert groupchat.messages == [{"content": "task", "role": "assistant", "name": "chat_manager"}]
    assert alice.chat_messages[manager] == [{"content": "task", "role": "user", "name": "chat_manager"}]
    assert console.output.endswith("the last speaker is chat_manager\n")


def test_admin_messages_are_kept_and_the_admin_resumes_as_the_manager(console: ScriptedIOStream) -> None:
    manager, groupchat, (user, _, _, _) = setup()
    last_agent, _ = manager.resume(
        [{"content": "go", "role": "user", "name": "Admin"}, {"content": "more", "role": "user", "name": "Admin"}],
        silent=True,
    )
    assert last_agent is manager
    assert groupchat.messages == [{"content": "go", "role": "user", "name": "Admin"}]
    assert user.chat_messages[manager] == [{"content": "go", "role": "user", "name": "Admin"}]


def test_resume_turns_introductions_off(console: ScriptedIOStream) -> None:
    manager, groupchat, _ = setup()
    groupchat.send_introductions = True
    manager.resume(PREVIOUS, silent=True)
    assert groupchat.send_introductions is False


def test_multimodal_content_has_the_termination_string_removed_from_each_text_part(console: ScriptedIOStream) -> None:
    manager, _, _ = setup()
    image = {"type": "image_url", "image_url": {"url": "http://x/y.png"}}
    _, last_message = manager.resume(
        [{"content": [{"type": "text", "text": "done TERMINATE"}, image], "role": "user", "name": "alice"}],
        remove_termination_string="TERMINATE", silent=True,
    )
    assert last_message["content"] == [{"type": "text", "text": "done "}, image]


def test_a_last_message_that_still_terminates_is_warned_about(
    console: ScriptedIOStream, caplog: pytest.LogCaptureFixture
) -> None:
    manager, _, _ = setup()
    with caplog.at_level(logging.WARNING):
        manager.resume([{"content": "TERMINATE", "role": "user", "name": "bob"}], silent=True)
    assert "Last message meets termination criteria and this may terminate the chat." in caplog.text


@pytest.mark.parametrize(
    ("messages", "error", "match"),
    [
        ([], ValueError, "Cannot resume group chat as no messages were provided"),
        ("[]", ValueError, "Cannot resume group chat as no messages were provided"),
        ([{"content": "x", "name": "zed"}], ValueError, r"doesn't exist as agent in group chat: zed \(messages\[0\]\)"),
        ([{"content": "x", "name": "alice"}, {"role": "user", "name": "bob"}], ValueError, r"messages\[1\] has no 'content'"),
        ([{"content": "x", "name": 3}], TypeError, r"messages\[0\]\['name'\] must be a str"),
        ({"content": "x"}, TypeError, "messages must be a list of message dicts"),
        (["x"], TypeError, "item 0 is a str"),
        ("{oops", ValueError, "message_string is not a valid JSON string"),
    ],
)
def test_invalid_messages_are_rejected_before_anything_is_cleared(
    console: ScriptedIOStream, messages: Any, error: type, match: str
) -> None:
    manager, groupchat, agents = setup(max_round=3)
    agents[0].initiate_chat(manager, message="start")
    before = (list(groupchat.messages), [list(a.chat_messages[manager]) for a in agents])

    with pytest.raises(error, match=match):
        manager.resume(messages)

    assert (groupchat.messages, [a.chat_messages[manager] for a in agents]) == before


def test_remove_termination_string_is_checked() -> None:
    manager, _, _ = setup()
    with pytest.raises(TypeError, match="remove_termination_string must be None, a str, or a function"):
        manager.resume(PREVIOUS, remove_termination_string=3, silent=True)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="remove_termination_string must return a str"):
        manager.resume(PREVIOUS, remove_termination_string=lambda text: None, silent=True)  # type: ignore[arg-type]


def test_a_resume_matches_resume() -> None:
    def run(use_async: bool) -> tuple[str, Any, list, dict]:
        manager, groupchat, agents = setup()
        stream = ScriptedIOStream()
        with IOStream.set_default(stream):
            if use_async:
                last_agent, last_message = asyncio.run(manager.a_resume(PREVIOUS, "TERMINATE"))
            else:
                last_agent, last_message = manager.resume(PREVIOUS, "TERMINATE")
        histories = {a.name: a.chat_messages[manager] for a in agents}
        return stream.output, (last_agent.name, last_message), groupchat.messages, histories

    assert run(use_async=True) == run(use_async=False)
