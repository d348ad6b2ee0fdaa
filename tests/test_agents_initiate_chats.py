"""Sequences of chats: initiate_chats (carryover, exclusions, banners) and a_initiate_chats (prerequisites)."""

from __future__ import annotations

import asyncio
import warnings
from typing import Any

import pytest

import autogen_classic as autogen
from autogen_classic import AssistantAgent, ConversableAgent, UserProxyAgent
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer

STARS = "*" * 80
BANNER = f"\n{STARS}\nStarting a new chat....\n\n{STARS}\n"


def _simple(name: str, reply: str = "") -> ConversableAgent:
    return ConversableAgent(name, llm_config=False, human_input_mode="NEVER", default_auto_reply=reply)


def test_initiate_chats_carryover_exclusions_and_banners(
    console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer
) -> None:
    scripted_server.add_replies("first answer TERMINATE", "second answer")
    alice = AssistantAgent("alice", llm_config=scripted_server.llm_config())
    carol = _simple("carol", "carol says")
    bob = UserProxyAgent("bob", human_input_mode="NEVER", code_execution_config=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = bob.initiate_chats([
            {"recipient": alice, "message": "task one", "max_turns": 1, "carryover": "pre"},
            {"recipient": carol, "message": "task two", "max_turns": 1,
             "summary_method": lambda sender, recipient, args: "custom:" + str(args)},
            {"recipient": alice, "message": "task three", "max_turns": 1,
             "finished_chat_indexes_to_exclude_from_carryover": [0], "verbose": True},
        ])
    assert [r.summary for r in results] == ["first answer ", "custom:{'cache': None}", "second answer"]
    # The first chat's own carryover, then the summaries of the earlier chats (minus excluded ones).
    assert scripted_server.requests[0]["messages"][1]["content"] == "task one\nContext: \npre"
    assert results[1].chat_history[0]["content"] == "task two\nContext: \nfirst answer "
    assert scripted_server.requests[1]["messages"][1]["content"] == "task three\nContext: \ncustom:{'cache': None}"
    assert bob.get_chat_results() == results
    assert bob.get_chat_results(1) is results[1]
    assert [str(w.message) for w in caught] == [
        "Repetitive recipients detected: The chat history will be cleared by default if a recipient appears more "
        "than once. To retain the chat history, please set 'clear_history=False' in the configuration of the "
        "repeating agent."
    ]
    output = console.output
    assert output.startswith(BANNER + "bob (to alice):\n\ntask one\nContext: \npre\n")
    assert output.count("Starting a new chat....") == 3
    # verbose shows the message and the carryover in the banner.
    assert f"Starting a new chat....\nMessage:\ntask three\nCarryover:\ncustom:{{'cache': None}}\n\n{STARS}\n" in output


def test_module_level_initiate_chats_needs_senders(console: ScriptedIOStream) -> None:
    alice, bob = _simple("alice", "a"), _simple("bob")
    results = autogen.initiate_chats([{"sender": bob, "recipient": alice, "message": "hi", "max_turns": 1,
                                       "silent": True}])
    assert [m["content"] for m in results[0].chat_history] == ["hi", "a"]
    assert console.output == ""  # a silent chat prints no banner either
    with pytest.raises(ValueError, match=r"chat_queue\[0\] has no 'sender'"):
        autogen.initiate_chats([{"recipient": alice, "message": "hi"}])
    with pytest.raises(ValueError, match=r"chat_queue\[0\] has no 'recipient'"):
        bob.initiate_chats([{"message": "hi"}])
    with pytest.raises(TypeError, match="chat_queue must be a list"):
        bob.initiate_chats({"recipient": alice})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="summary_method must be a string from"):
        bob.initiate_chats([{"recipient": alice, "message": "a", "max_turns": 1},
                            {"recipient": alice, "message": "b", "summary_method": "bogus"}])
    assert alice.chat_messages[bob][0]["content"] == "hi"  # the bad queue ran no chat


def test_initiate_chats_without_message_warns_and_asks(console: ScriptedIOStream) -> None:
    console.add_inputs("typed")
    alice, bob = _simple("alice", "a"), _simple("bob")
    with pytest.warns(UserWarning, match="message is not provided in a chat_queue entry"):
        results = bob.initiate_chats([{"recipient": alice, "max_turns": 1}])
    assert results[0].chat_history[0]["content"] == "typed"
    assert console.prompts == [">"]


def test_a_initiate_chats_prerequisites_and_carryover(console: ScriptedIOStream) -> None:
    alice, carol = _simple("alice", "alice says"), _simple("carol", "carol says")
    dave = _simple("dave", "dave says")
    bob = UserProxyAgent("bob", human_input_mode="NEVER", code_execution_config=False)
    results = asyncio.run(bob.a_initiate_chats([
        {"chat_id": 1, "recipient": alice, "message": "task one", "max_turns": 1, "silent": True},
        {"chat_id": 2, "recipient": carol, "message": "task two", "max_turns": 1, "prerequisites": [1],
         "silent": True},
        {"chat_id": 3, "recipient": dave, "message": "task three", "max_turns": 1, "prerequisites": [1, 2],
         "silent": True},
    ]))
    assert sorted(results) == [1, 2, 3]
    assert {k: r.chat_id for k, r in results.items()} == {1: 1, 2: 2, 3: 3}
    assert results[1].chat_history[0]["content"] == "task one"
    assert results[2].chat_history == [
        {"content": "task two\nContext: \nalice says", "role": "assistant", "name": "bob"},
        {"content": "carol says", "role": "user", "name": "carol"},
    ]
    assert results[3].chat_history[0]["content"] == "task three\nContext: \nalice says\ncarol says"
    assert results[3].summary == "dave says"


@pytest.mark.filterwarnings("ignore:Repetitive recipients detected")
def test_a_initiate_chats_validation(console: ScriptedIOStream) -> None:
    alice, bob = _simple("alice", "a"), _simple("bob")

    def run(queue: list[dict[str, Any]]) -> Any:
        return asyncio.run(bob.a_initiate_chats(queue))

    with pytest.raises(ValueError, match="Each chat must have a unique id for async multi-chat execution."):
        run([{"recipient": alice, "message": "x"}])
    with pytest.raises(ValueError, match="repeats chat_id 1"):
        run([{"chat_id": 1, "recipient": alice, "message": "x"}, {"chat_id": 1, "recipient": alice, "message": "y"}])
    with pytest.raises(ValueError, match="Prerequisite chat id is not int."):
        run([{"chat_id": 1, "recipient": alice, "message": "x", "prerequisites": ["0"]}])
    with pytest.raises(ValueError, match=r"unknown prerequisites \[9\]"):
        run([{"chat_id": 1, "recipient": alice, "message": "x", "prerequisites": [9]}])
    with pytest.raises(ValueError, match="form a cycle"):
        run([{"chat_id": 1, "recipient": alice, "message": "x", "prerequisites": [2]},
             {"chat_id": 2, "recipient": alice, "message": "y", "prerequisites": [1]}])
    assert bob.chat_messages[alice] == []
