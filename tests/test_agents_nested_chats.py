"""Nested chats: an agent replies by running other chats (sync and async) and answering with a summary."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from autogen_classic import ConversableAgent
from autogen_classic.testing.io import ScriptedIOStream
from console_masks import mask_run_ids

SEP = "-" * 80
STARS = "*" * 80
BANNER = f"\n{STARS}\nStarting a new chat....\n\n{STARS}\n"


def _simple(name: str, reply: str) -> ConversableAgent:
    return ConversableAgent(name, llm_config=False, human_input_mode="NEVER", default_auto_reply=reply)


def _revise(recipient: ConversableAgent, messages: list[dict[str, Any]], sender: ConversableAgent, config: Any) -> str:
    return f"revise given: {messages[-1]['content']}"


def _team() -> tuple[ConversableAgent, ConversableAgent, ConversableAgent, ConversableAgent, list[dict[str, Any]]]:
    writer, critic = _simple("writer", "draft"), _simple("critic", "critique")
    boss, user = _simple("boss", "never used"), _simple("user", "thanks")
    queue = [
        {"recipient": writer, "max_turns": 1, "summary_method": "last_msg"},
        {"recipient": critic, "message": _revise, "max_turns": 1, "summary_method": "last_msg"},
    ]
    return writer, critic, boss, user, queue


# Each chat that runs out of turns ends with AG2 Classic 0.14.1's TERMINATING RUN line (run ids masked).
END = "\n>>>>>>>> TERMINATING RUN (ID): Maximum turns (1) reached\n"
EXPECTED_OUTPUT = (
    f"user (to boss):\n\nwrite a poem\n\n{SEP}\n"
    f"{BANNER}boss (to writer):\n\nwrite a poem\n\n{SEP}\nwriter (to boss):\n\ndraft\n\n{SEP}\n{END}"
    f"{BANNER}boss (to critic):\n\nrevise given: write a poem\nContext: \ndraft\n\n{SEP}\n"
    f"critic (to boss):\n\ncritique\n\n{SEP}\n{END}"
    f"boss (to user):\n\ncritique\n\n{SEP}\n{END}"
)


def _check_transcripts(writer: ConversableAgent, critic: ConversableAgent, boss: ConversableAgent,
                       history: list[dict[str, Any]]) -> None:
    # The first nested chat starts from the message received; the next ones get the earlier summaries.
    assert history == [
        {"content": "write a poem", "role": "assistant", "name": "user"},
        {"content": "critique", "role": "user", "name": "boss"},
    ]
    assert writer.chat_messages[boss] == [
        {"content": "write a poem", "role": "user", "name": "boss"},
        {"content": "draft", "role": "assistant", "name": "writer"},
    ]
    assert critic.chat_messages[boss][0] == {
        "content": "revise given: write a poem\nContext: \ndraft", "role": "user", "name": "boss"
    }


def test_nested_chats_reply_with_the_last_summary(console: ScriptedIOStream) -> None:
    writer, critic, boss, user, queue = _team()
    boss.register_nested_chats(queue, trigger=user)
    # Registered at position 2: after the termination / human-input check, before tools and the model.
    names = [entry["reply_func"].__name__ for entry in boss._reply_func_list]
    assert names[:3] == ["a_check_termination_and_human_reply", "check_termination_and_human_reply",
                         "summary_from_nested_chats"]
    result = user.initiate_chat(boss, message="write a poem", max_turns=1)
    _check_transcripts(writer, critic, boss, result.chat_history)
    assert mask_run_ids(console.output) == EXPECTED_OUTPUT


def test_async_nested_chats_give_the_same_transcript(console: ScriptedIOStream) -> None:
    writer, critic, boss, user, queue = _team()
    async_queue = [dict(chat, chat_id=index) for index, chat in enumerate(queue)]
    async_queue[1]["prerequisites"] = [0]
    boss.register_nested_chats(async_queue, trigger=user, use_async=True)
    result = asyncio.run(user.a_initiate_chat(boss, message="write a poem", max_turns=1))
    _check_transcripts(writer, critic, boss, result.chat_history)
    assert mask_run_ids(console.output) == EXPECTED_OUTPUT


def test_nested_chats_only_for_the_trigger(console: ScriptedIOStream) -> None:
    writer, critic, boss, user, queue = _team()
    boss.register_nested_chats(queue, trigger=lambda sender: sender is not user)
    result = user.initiate_chat(boss, message="hello", max_turns=1, silent=True)
    assert result.chat_history[-1]["content"] == "never used"
    assert writer.chat_messages == {}


def test_custom_reply_func_from_nested_chats(console: ScriptedIOStream) -> None:
    _, _, boss, user, queue = _team()
    seen: list[Any] = []

    def custom(chat_queue: list, recipient: ConversableAgent, messages: list, sender: ConversableAgent,
               config: Any) -> tuple[bool, str]:
        seen.append([len(chat_queue), recipient.name, messages[-1]["content"], sender.name, config])
        return True, "custom nested"

    boss.register_nested_chats(queue, trigger=user, reply_func_from_nested_chats=custom, position=0, config={"k": 1})
    assert boss._reply_func_list[0]["reply_func"].__name__ == "custom"
    result = user.initiate_chat(boss, message="write", max_turns=1, silent=True)
    assert seen == [[2, "boss", "write", "user", {"k": 1}]]
    assert result.chat_history[-1]["content"] == "custom nested"


def test_empty_first_message_skips_the_nested_chat(console: ScriptedIOStream) -> None:
    writer, _, boss, user, _ = _team()
    boss.register_nested_chats([{"recipient": writer, "max_turns": 1, "message": lambda *args: ""}], trigger=user)
    result = user.initiate_chat(boss, message="write", max_turns=1, silent=True)
    # No chat to run: the nested-chat reply is final with no message, so the boss does not answer.
    assert [m["content"] for m in result.chat_history] == ["write"]
    assert writer.chat_messages == {}


def test_register_nested_chats_validation() -> None:
    _, _, boss, user, queue = _team()
    with pytest.raises(ValueError, match="chat_id is required for async nested chats"):
        boss.register_nested_chats(queue, trigger=user, use_async=True)
    with_ids = [dict(chat, chat_id=index) for index, chat in enumerate(queue)]
    with pytest.raises(ValueError, match="reply_func_from_nested_chats must be a callable and a coroutine"):
        boss.register_nested_chats(with_ids, trigger=user, use_async=True,
                                   reply_func_from_nested_chats=lambda *args: (True, "x"))
    with pytest.raises(ValueError, match="reply_func_from_nested_chats must be a callable"):
        boss.register_nested_chats(queue, trigger=user, reply_func_from_nested_chats=42)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"chat_queue\[0\] has no 'recipient'"):
        boss.register_nested_chats([{"message": "x"}], trigger=user)
    with pytest.raises(TypeError, match="chat_queue must be a list of dicts"):
        boss.register_nested_chats("not a queue", trigger=user)  # type: ignore[arg-type]
