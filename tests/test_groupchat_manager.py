"""GroupChatManager: the rounds of a group chat, end-to-end through ``initiate_chat`` with scripted agents."""

from __future__ import annotations

import asyncio
import random
from typing import Any, Optional

import pytest

from autogen_classic import Agent, ConversableAgent, GroupChat, GroupChatManager
from autogen_classic.io.base import IOStream
from autogen_classic.testing.io import ScriptedIOStream
from console_masks import mask_run_ids

SEP = "-" * 80


def scripted(name: str, reply: Any = "", **kwargs: Any) -> ConversableAgent:
    return ConversableAgent(name, llm_config=False, human_input_mode="NEVER", default_auto_reply=reply, **kwargs)


def block(sender: str, content: str) -> str:
    """One message as the manager prints it when receiving it."""
    return f"{sender} (to chat_manager):\n\n{content}\n\n{SEP}\n"


def next_speaker(name: str) -> str:
    return f"\nNext speaker: {name}\n\n"


def team() -> tuple[ConversableAgent, ConversableAgent, ConversableAgent, ConversableAgent]:
    return scripted("user", "u1"), scripted("alice", "a1"), scripted("bob", "b1"), scripted("carol", "TERMINATE")


def ended(reason: str) -> str:
    """AG2 Classic 0.14.1's last line of a chat (run id masked)."""
    return f"\n>>>>>>>> TERMINATING RUN (ID): {reason}\n"


def speakers(groupchat: GroupChat) -> list[str]:
    return [m["name"] for m in groupchat.messages]


# ----------------------------------------------------------------- round robin, termination, max_round
def test_round_robin_transcript_histories_and_result(console: ScriptedIOStream) -> None:
    user, alice, bob, carol = team()
    groupchat = GroupChat([user, alice, bob, carol], messages=[], max_round=10, speaker_selection_method="round_robin")
    manager = GroupChatManager(groupchat, llm_config=False)

    result = user.initiate_chat(manager, message="start")

    assert mask_run_ids(console.output) == (
        block("user", "start") + next_speaker("alice") + block("alice", "a1") + next_speaker("bob")
        + block("bob", "b1") + next_speaker("carol") + block("carol", "TERMINATE")
        + ended("Termination message condition on the GroupChatManager 'chat_manager' met")
    )
    assert groupchat.messages == [
        {"content": "start", "role": "user", "name": "user"},
        {"content": "a1", "role": "user", "name": "alice"},
        {"content": "b1", "role": "user", "name": "bob"},
        {"content": "TERMINATE", "role": "user", "name": "carol"},
    ]
    # Each participant sees its own messages as "assistant" and everyone else's as "user", named.
    assert alice.chat_messages[manager] == [
        {"content": "start", "name": "user", "role": "user"},
        {"content": "a1", "role": "assistant", "name": "alice"},
        {"content": "b1", "name": "bob", "role": "user"},
        {"content": "TERMINATE", "name": "carol", "role": "user"},
    ]
    assert [(m["name"], m["role"]) for m in result.chat_history] == [
        ("user", "assistant"), ("alice", "user"), ("bob", "user"), ("carol", "user")
    ]
    assert result.summary == ""  # last_msg without "TERMINATE"
    assert manager.end_reason == "carol sent a termination message."
    assert manager.last_speaker is carol
    assert manager.chat_messages_for_summary(user) is groupchat.messages


def test_manager_is_termination_msg_ends_the_chat(console: ScriptedIOStream) -> None:
    user, alice, bob, _ = team()
    bob = scripted("bob", "we are DONE")
    groupchat = GroupChat([user, alice, bob], messages=[], max_round=10, speaker_selection_method="round_robin")
    manager = GroupChatManager(groupchat, llm_config=False, is_termination_msg=lambda m: "DONE" in m["content"])

    user.initiate_chat(manager, message="start")

    assert speakers(groupchat) == ["user", "alice", "bob"]
    assert manager.end_reason == "bob sent a termination message."


def test_max_round_counts_every_message_including_the_first(console: ScriptedIOStream) -> None:
    user, alice, bob, _ = team()
    groupchat = GroupChat([user, alice, bob], messages=[], max_round=5, speaker_selection_method="round_robin")
    manager = GroupChatManager(groupchat, llm_config=False)

    user.initiate_chat(manager, message="start")

    assert speakers(groupchat) == ["user", "alice", "bob", "user", "alice"]
    assert console.output.count("Next speaker:") == 4
    assert manager.end_reason == "max_round (5) reached."


def test_a_speaker_without_reply_ends_the_chat(console: ScriptedIOStream) -> None:
    user, alice, _, _ = team()
    silent_bob = scripted("bob")
    silent_bob.register_reply(Agent, lambda recipient, messages, sender, config: (True, None))
    groupchat = GroupChat([user, alice, silent_bob], messages=[], max_round=10, speaker_selection_method="round_robin")
    manager = GroupChatManager(groupchat, llm_config=False)

    user.initiate_chat(manager, message="start")

    assert speakers(groupchat) == ["user", "alice"]
    assert mask_run_ids(console.output).endswith(next_speaker("bob") + ended("No reply generated"))
    assert manager.end_reason == "bob gave no reply."


def test_a_silent_manager_prints_only_the_first_message(console: ScriptedIOStream) -> None:
    user, alice, bob, _ = team()
    groupchat = GroupChat([user, alice, bob], messages=[], max_round=3,
                          speaker_selection_method=lambda last, gc: alice if last is user else None)
    manager = GroupChatManager(groupchat, llm_config=False, silent=True)

    user.initiate_chat(manager, message="start")

    assert console.output == block("user", "start")  # no "Next speaker", no replies, no end line
    assert speakers(groupchat) == ["user", "alice"]
    assert manager.end_reason == "Custom speaker selection function returned None. Terminating conversation."


# ----------------------------------------------------------------- random (seeded)
def test_random_selection_is_reproducible_with_a_seed(console: ScriptedIOStream) -> None:
    user, alice, bob, _ = team()
    agents = [user, alice, bob]
    groupchat = GroupChat(agents, messages=[], max_round=6, speaker_selection_method="random")
    manager = GroupChatManager(groupchat, llm_config=False)

    random.seed(2024)
    user.initiate_chat(manager, message="start")

    random.seed(2024)
    expected = ["user"] + [random.choice(agents).name for _ in range(5)]
    assert speakers(groupchat) == expected
    assert len(set(expected[1:])) > 1  # the seed really exercises the choice
    assert [line[len("Next speaker: "):] for line in console.output.splitlines() if line.startswith("Next speaker:")] \
        == expected[1:]


# ----------------------------------------------------------------- no eligible speaker
def test_no_eligible_speaker_ends_gracefully_with_the_reason(console: ScriptedIOStream) -> None:
    user, alice, bob, _ = team()

    def chooser(last_speaker: Agent, groupchat: GroupChat) -> Optional[Agent]:
        return alice if last_speaker is user else None

    groupchat = GroupChat([user, alice, bob], messages=[], max_round=10, speaker_selection_method=chooser)
    manager = GroupChatManager(groupchat, llm_config=False)

    result = user.initiate_chat(manager, message="start")

    assert speakers(groupchat) == ["user", "alice"]
    assert result.chat_history[-1]["content"] == "a1"
    last_lines = mask_run_ids(console.output).split(block("alice", "a1"))[1]
    assert last_lines == ended("No next speaker selected")  # 0.14.1's line; the reason is in end_reason
    assert manager.end_reason == groupchat.selection_log[-1].reason
    assert manager.end_reason == "Custom speaker selection function returned None. Terminating conversation."
    assert "Traceback" not in console.output


def test_no_eligible_speaker_from_policies(console: ScriptedIOStream) -> None:
    user, alice, bob, _ = team()

    class NobodyAfterAlice:
        def is_eligible(self, agent: Any, ctx: Any) -> bool:
            return ctx.last_speaker is None or getattr(ctx.last_speaker, "name", ctx.last_speaker) != "alice"

    groupchat = GroupChat(
        [user, alice, bob], messages=[], max_round=10, speaker_selection_method="round_robin",
        eligibility_policies=[NobodyAfterAlice()],
    )
    manager = GroupChatManager(groupchat, llm_config=False)

    user.initiate_chat(manager, message="start")

    assert speakers(groupchat) == ["user", "alice"]
    # Why nobody may speak is shown first; 0.14.1's line ends the chat.
    assert mask_run_ids(console.output).endswith(
        f"\n>>>>>>>> GROUP CHAT ENDED: {manager.end_reason}\n" + ended("No next speaker selected"))
    assert "NobodyAfterAlice" in str(manager.end_reason)


# ----------------------------------------------------------------- introductions
def test_send_introductions_reaches_every_agent_but_not_the_group_messages(console: ScriptedIOStream) -> None:
    user, alice, bob, _ = team()
    groupchat = GroupChat(
        [user, alice, bob], messages=[], max_round=2, speaker_selection_method="round_robin", send_introductions=True
    )
    manager = GroupChatManager(groupchat, llm_config=False)

    user.initiate_chat(manager, message="start")

    intro = groupchat.introductions_msg()
    assert intro.startswith(GroupChat.DEFAULT_INTRO_MSG)
    expected_intro = {"content": intro, "role": "user", "name": "chat_manager"}
    assert alice.chat_messages[manager][0] == expected_intro
    assert bob.chat_messages[manager][0] == expected_intro
    # The user had already sent the first message when the introductions went out.
    assert user.chat_messages[manager][:2] == [{"content": "start", "role": "assistant", "name": "user"}, expected_intro]
    assert speakers(groupchat) == ["user", "alice"]
    assert "Hello everyone" not in console.output  # sent silently
    # The task stays the group's first message and reaches the others (not the introduction in its place).
    assert groupchat.messages[0] == {"content": "start", "role": "user", "name": "user"}
    assert alice.chat_messages[manager][1] == {"content": "start", "role": "user", "name": "user"}


# ----------------------------------------------------------------- clear history
def run_clear_history_chat(command: Any) -> tuple[GroupChat, GroupChatManager, list[ConversableAgent]]:
    user, alice, bob = scripted("user", "u1"), scripted("alice", "a1"), scripted("bob", "b1")
    carol = scripted("carol", command)
    groupchat = GroupChat(
        [user, alice, bob, carol], messages=[], max_round=6, speaker_selection_method="round_robin",
        enable_clear_history=True,
    )
    manager = GroupChatManager(groupchat, llm_config=False)
    user.initiate_chat(manager, message="start")
    return groupchat, manager, [user, alice, bob, carol]


def test_clear_history_of_one_agent_keeping_n_messages(console: ScriptedIOStream) -> None:
    groupchat, manager, (_user, alice, bob, _carol) = run_clear_history_chat(
        {"content": "Ok. clear history bob 1. Then go on", "role": "user"}
    )
    assert "Next speaker: carol\n\nClearing history for bob except last 1 messages.\n" + block("carol", "Ok. Then go on") \
        in console.output
    assert [m["content"] for m in bob.chat_messages[manager]] == ["b1", "Ok. Then go on", "u1", "a1"]
    assert [m["content"] for m in alice.chat_messages[manager]] == ["start", "a1", "b1", "Ok. Then go on", "u1", "a1"]
    assert [m["content"] for m in groupchat.messages] == ["start", "a1", "b1", "Ok. Then go on", "u1", "a1"]


def test_clear_history_of_everyone(console: ScriptedIOStream) -> None:
    groupchat, manager, agents = run_clear_history_chat({"content": "clear history", "role": "user"})
    assert "Clearing history for all agents.\n" + block("carol", "") in console.output
    assert [m["content"] for m in groupchat.messages] == ["", "u1", "a1"]
    for agent in agents:
        assert [m["content"] for m in agent.chat_messages[manager]] == ["", "u1", "a1"]


def test_clear_history_of_everyone_keeping_n_messages(console: ScriptedIOStream) -> None:
    groupchat, manager, agents = run_clear_history_chat({"content": "clear history 2", "role": "user"})
    assert "Clearing history for all agents except last 2 messages.\n" in console.output
    assert [m["content"] for m in groupchat.messages] == ["a1", "b1", "", "u1", "a1"]
    assert [m["content"] for m in agents[0].chat_messages[manager]] == ["a1", "b1", "", "u1", "a1"]


def test_clear_history_in_a_plain_string_reply_and_only_the_command_words_are_cut(console: ScriptedIOStream) -> None:
    groupchat, _, _ = run_clear_history_chat("please CLEAR HISTORY alice now")
    assert "Clearing history for alice.\n" + block("carol", "please now") in console.output
    assert groupchat.messages[3]["content"] == "please now"


def test_text_that_only_looks_like_the_command_is_left_alone(console: ScriptedIOStream) -> None:
    groupchat, _, _ = run_clear_history_chat("the history is unclear history")
    assert "Clearing history" not in console.output
    assert groupchat.messages[3]["content"] == "the history is unclear history"


def test_clear_history_is_ignored_unless_enabled(console: ScriptedIOStream) -> None:
    user, alice, carol = scripted("user", "u1"), scripted("alice", "a1"), scripted("carol", "clear history")
    groupchat = GroupChat([user, alice, carol], messages=[], max_round=4, speaker_selection_method="round_robin")
    user.initiate_chat(GroupChatManager(groupchat, llm_config=False), message="start")
    assert [m["content"] for m in groupchat.messages] == ["start", "a1", "clear history", "u1"]


def test_clear_agents_history_method_returns_the_reply_without_the_command(console: ScriptedIOStream) -> None:
    alice, bob = scripted("alice"), scripted("bob")
    groupchat = GroupChat([alice, bob], messages=[{"content": "x", "role": "user", "name": "alice"}])
    manager = GroupChatManager(groupchat, llm_config=False)
    assert manager.clear_agents_history({"content": "so clear history bob 3, thanks"}, groupchat) == "so thanks"
    assert console.output == "Clearing history for bob except last 3 messages.\n"
    assert groupchat.messages == [{"content": "x", "role": "user", "name": "alice"}]  # only bob was cleared


# ----------------------------------------------------------------- admin takeover
def interrupt_once() -> Any:
    state = {"raised": False}

    def reply(recipient: Any, messages: Any, sender: Any, config: Any) -> tuple[bool, None]:
        if not state["raised"]:
            state["raised"] = True
            raise KeyboardInterrupt
        return False, None

    return reply


def test_keyboard_interrupt_lets_the_admin_speak(console: ScriptedIOStream) -> None:
    user, alice, bob = scripted("user", "u1"), scripted("alice", "a1"), scripted("bob", "b1")
    admin = scripted("Admin", "admin here")
    bob.register_reply(Agent, interrupt_once())
    groupchat = GroupChat([user, alice, bob, admin], messages=[], max_round=5, speaker_selection_method="round_robin")
    manager = GroupChatManager(groupchat, llm_config=False)

    user.initiate_chat(manager, message="start")

    assert speakers(groupchat) == ["user", "alice", "Admin", "user", "alice"]
    assert next_speaker("bob") + next_speaker("Admin") + block("Admin", "admin here") in console.output


def test_keyboard_interrupt_without_admin_propagates_and_restores_the_caches(console: ScriptedIOStream) -> None:
    user, alice, bob = scripted("user", "u1"), scripted("alice", "a1"), scripted("bob", "b1")
    bob.register_reply(Agent, interrupt_once())
    groupchat = GroupChat([user, alice, bob], messages=[], max_round=5, speaker_selection_method="round_robin")
    manager = GroupChatManager(groupchat, llm_config=False)
    cache = object()

    with pytest.raises(KeyboardInterrupt):
        user.initiate_chat(manager, message="start", cache=cache)

    assert speakers(groupchat) == ["user", "alice"]
    assert all(agent.client_cache is None for agent in (alice, bob))


# ----------------------------------------------------------------- settings, caches, plain agents
def test_settings_changed_after_the_manager_was_built_take_effect(console: ScriptedIOStream) -> None:
    user, alice, bob, _ = team()
    groupchat = GroupChat([user, alice, bob], messages=[], max_round=10, speaker_selection_method="round_robin")
    manager = GroupChatManager(groupchat, llm_config=False)

    groupchat.max_round = 3
    groupchat.speaker_selection_method = lambda last, gc: bob if last is not bob else alice
    user.initiate_chat(manager, message="start")

    assert speakers(groupchat) == ["user", "bob", "alice"]
    assert manager.groupchat is groupchat


def test_the_participants_use_the_chat_cache_during_the_chat_only(console: ScriptedIOStream) -> None:
    user, alice, bob, _ = team()
    seen: list[Any] = []

    def record_cache(recipient: Any, messages: Any, sender: Any, config: Any) -> tuple[bool, None]:
        seen.append(recipient.client_cache)
        return False, None

    alice.register_reply(Agent, record_cache)
    groupchat = GroupChat([user, alice, bob], messages=[], max_round=2, speaker_selection_method="round_robin")
    manager = GroupChatManager(groupchat, llm_config=False)
    cache = object()

    user.initiate_chat(manager, message="start", cache=cache)

    assert seen == [cache]
    assert alice.client_cache is None and alice.previous_cache is None


def test_run_chat_registered_on_a_plain_agent(console: ScriptedIOStream) -> None:
    user, alice, bob, _ = team()
    groupchat = GroupChat([user, alice, bob], messages=[], max_round=3, speaker_selection_method="round_robin")
    host = ConversableAgent("host", llm_config=False, human_input_mode="NEVER")
    host.register_reply(Agent, GroupChatManager.run_chat, config=groupchat, reset_config=GroupChat.reset)

    user.initiate_chat(host, message="start")

    assert speakers(groupchat) == ["user", "alice", "bob"]
    assert block("alice", "a1").replace("chat_manager", "host") in console.output
    assert "Next speaker: bob" in console.output


def test_the_last_speaker_is_visible_to_the_participants(console: ScriptedIOStream) -> None:
    user, alice, bob, _ = team()
    real_senders: list[str] = []

    def record(recipient: Any, messages: Any, sender: Any, config: Any) -> tuple[bool, None]:
        real_senders.append(sender.last_speaker.name)
        return False, None

    bob.register_reply(Agent, record)
    groupchat = GroupChat([user, alice, bob], messages=[], max_round=3, speaker_selection_method="round_robin")
    user.initiate_chat(GroupChatManager(groupchat, llm_config=False), message="start")
    assert real_senders == ["alice"]


def test_async_reply_functions_are_rejected_in_a_sync_group_chat(console: ScriptedIOStream) -> None:
    user, alice, bob, _ = team()

    async def async_reply(recipient: Any, messages: Any, sender: Any, config: Any) -> tuple[bool, str]:
        return True, "async"

    bob.register_reply(Agent, async_reply)
    groupchat = GroupChat([user, alice, bob], messages=[], max_round=3, speaker_selection_method="round_robin")
    with pytest.raises(RuntimeError, match="async_reply"):
        user.initiate_chat(GroupChatManager(groupchat, llm_config=False), message="start")


def test_manager_arguments_are_checked() -> None:
    groupchat = GroupChat([scripted("alice"), scripted("bob")], messages=[])
    with pytest.raises(ValueError, match="not allowed to make function/tool calls"):
        GroupChatManager(groupchat, llm_config={"config_list": [{"model": "m"}], "tools": [{"type": "function"}]})
    # Classic AutoGen accepts any groupchat when building the manager and fails when a chat starts.
    with pytest.warns(UserWarning, match="groupchat should be a GroupChat; got dict"):
        odd = GroupChatManager({"agents": []}, llm_config=False)  # type: ignore[arg-type]
    assert odd.groupchat == {"agents": []}
    with pytest.raises(AttributeError, match="'dict' object has no attribute 'agents': the groupchat of"):
        scripted("carol").initiate_chat(odd, message="hi")
    manager = GroupChatManager(groupchat, llm_config=False)
    assert (manager.name, manager.system_message, manager.human_input_mode) == (
        "chat_manager", "Group chat manager.", "NEVER"
    )


def test_reset_clears_the_group_chat(console: ScriptedIOStream) -> None:
    user, alice, bob, _ = team()
    groupchat = GroupChat([user, alice, bob], messages=[], max_round=3, speaker_selection_method="round_robin")
    manager = GroupChatManager(groupchat, llm_config=False)
    user.initiate_chat(manager, message="start")
    assert groupchat.messages
    manager.reset()
    assert groupchat.messages == [] and groupchat.selection_log == []
    assert manager.chat_messages == {}


# ----------------------------------------------------------------- sync and async
def run_both(build: Any) -> tuple[tuple[str, list, dict], tuple[str, list, dict]]:
    results = []
    for use_async in (False, True):
        stream = ScriptedIOStream()
        user, manager, groupchat, agents = build()
        with IOStream.set_default(stream):
            if use_async:
                asyncio.run(user.a_initiate_chat(manager, message="start"))
            else:
                user.initiate_chat(manager, message="start")
        histories = {a.name: a.chat_messages[manager] for a in agents}
        results.append((mask_run_ids(stream.output), groupchat.messages, histories))
    return results[0], results[1]


def test_sync_and_async_chats_produce_identical_transcripts() -> None:
    def build() -> Any:
        user, alice, bob = scripted("user", "u1"), scripted("alice", "a1"), scripted("bob", "b1")
        admin = scripted("Admin", "admin here")
        carol = scripted("carol", {"content": "clear history alice", "role": "user"})
        bob.register_reply(Agent, interrupt_once())
        agents = [user, alice, bob, admin, carol]
        groupchat = GroupChat(
            agents, messages=[], max_round=8, speaker_selection_method="round_robin", send_introductions=True,
            enable_clear_history=True,
        )
        return user, GroupChatManager(groupchat, llm_config=False), groupchat, agents

    sync_run, async_run = run_both(build)
    assert sync_run == async_run
    assert "Next speaker: Admin" in sync_run[0] and "Clearing history for alice." in sync_run[0]


@pytest.mark.parametrize("alice_says", ["TERMINATE", "a1"])
def test_sync_and_async_end_the_same_way_on_termination_and_no_eligible_speaker(alice_says: str) -> None:
    def build() -> Any:
        user, alice, bob = scripted("user", "u1"), scripted("alice", alice_says), scripted("bob", "b1")
        agents = [user, alice, bob]
        groupchat = GroupChat(agents, messages=[], max_round=8,
                              speaker_selection_method=lambda last, gc: alice if last is user else None)
        return user, GroupChatManager(groupchat, llm_config=False), groupchat, agents

    sync_run, async_run = run_both(build)
    assert sync_run == async_run
    # The last message is broadcast before the chat ends, in both modes.
    assert sync_run[2]["bob"][-1] == {"content": alice_says, "name": "alice", "role": "user"}
    last_line = sync_run[0].rstrip("\n").rsplit("\n", 1)[-1]
    assert last_line == (
        ">>>>>>>> TERMINATING RUN (ID): "
        + ("Termination message condition on the GroupChatManager 'chat_manager' met" if alice_says == "TERMINATE"
           else "No next speaker selected")
    )


# ----------------------------------------------------------------- auto selection and cost
def expected_usage(requests: list[dict[str, Any]], answers: list[str]) -> tuple[int, int]:
    """Token counts by the scripted server's rule: whitespace-separated words of the prompt and of the answer."""
    prompt = sum(max(1, sum(len(str(m.get("content") or "").split()) for m in r["messages"])) for r in requests)
    completion = sum(max(1, len(a.split())) for a in answers)
    return prompt, completion


def test_auto_selection_end_to_end_and_its_cost_is_counted(console: ScriptedIOStream, scripted_server: Any) -> None:
    user, alice, bob, carol = team()
    groupchat = GroupChat([user, alice, bob, carol], messages=[], max_round=10)
    manager = GroupChatManager(groupchat, llm_config=scripted_server.llm_config(model="gpt-4o"))
    answers = ["bob", "alice", "carol"]
    scripted_server.add_replies(*answers)

    result = user.initiate_chat(manager, message="start")

    assert speakers(groupchat) == ["user", "bob", "alice", "carol"]
    assert scripted_server.request_count == 3
    # The selector saw the conversation so far, ending with the selection prompt.
    last_request = scripted_server.requests[-1]["messages"]
    assert [m.get("content") for m in last_request][1:3] == ["start", "b1"]
    assert "Read the above conversation. Then select the next role from" in last_request[-1]["content"]

    prompt_tokens, completion_tokens = expected_usage(scripted_server.requests, answers)
    usage = result.cost["usage_including_cached_inference"]
    assert usage["gpt-4o"]["prompt_tokens"] == prompt_tokens
    assert usage["gpt-4o"]["completion_tokens"] == completion_tokens
    assert usage["total_cost"] == pytest.approx(prompt_tokens * 0.0025 / 1000 + completion_tokens * 0.01 / 1000)
    assert result.cost["usage_excluding_cached_inference"]["total_cost"] == pytest.approx(usage["total_cost"])
    assert groupchat.selection_client is not None
    assert [record.chosen for record in groupchat.selection_log] == ["bob", "alice", "carol"]


def test_the_cost_includes_the_participants_model_calls(console: ScriptedIOStream, scripted_server: Any) -> None:
    user = scripted("user", "u1")
    writer = ConversableAgent("writer", llm_config=scripted_server.llm_config(model="gpt-4o"), human_input_mode="NEVER")
    groupchat = GroupChat([user, writer], messages=[], max_round=2, speaker_selection_method="round_robin")
    manager = GroupChatManager(groupchat, llm_config=False)
    scripted_server.add_reply("a draft of two words")

    result = user.initiate_chat(manager, message="write")

    assert speakers(groupchat) == ["user", "writer"]
    assert result.cost["usage_including_cached_inference"]["gpt-4o"]["completion_tokens"] == 5
