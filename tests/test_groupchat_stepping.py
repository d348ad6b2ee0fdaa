"""Step-by-step group chats (begin / step / invoke / continue_chat) and termination conditions in a chat."""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

import pytest

from autogen_classic import (
    ConversableAgent,
    ExternalTermination,
    GroupChat,
    GroupChatComplete,
    GroupChatManager,
    MaxMessageTermination,
    SourceMatchTermination,
    StopMessage,
    TextMentionTermination,
)
from autogen_classic.io.base import IOStream
from autogen_classic.messages.run_events import GroupChatEndMessage
from autogen_classic.testing.io import ScriptedIOStream


def scripted(name: str, reply: Any = "", **kwargs: Any) -> ConversableAgent:
    return ConversableAgent(name, llm_config=False, human_input_mode="NEVER", default_auto_reply=reply, **kwargs)


def counting(name: str) -> ConversableAgent:
    """An agent whose n-th reply is ``<name>-<n>``."""
    agent = scripted(name)
    count = {"n": 0}

    def reply(recipient: Any, messages: Any = None, sender: Any = None, config: Any = None) -> tuple[bool, str]:
        count["n"] += 1
        return True, f"{name}-{count['n']}"

    agent.register_reply([ConversableAgent, None], reply)
    return agent


def team(method: Any = "round_robin", max_round: int = 8, **kwargs: Any) -> tuple[Any, Any, Any]:
    user = scripted("user", "u")
    agents = [user, counting("planner"), counting("coder"), counting("critic")]
    groupchat = GroupChat(agents, messages=[], max_round=max_round, speaker_selection_method=method, **kwargs)
    return user, GroupChatManager(groupchat, llm_config=False), groupchat


def transcript(groupchat: GroupChat) -> list[tuple[str, str]]:
    return [(m["name"], m["content"]) for m in groupchat.messages]


# ----------------------------------------------------------------- stepping equals a whole run
@pytest.mark.parametrize("method", ["round_robin", "random"])
def test_stepping_gives_the_whole_run(console: ScriptedIOStream, method: str) -> None:
    random.seed(7)
    user, manager, groupchat = team(method)
    whole = user.initiate_chat(manager, message="task")
    expected, expected_log = transcript(groupchat), [r.chosen for r in groupchat.selection_log]

    random.seed(7)
    user, manager, groupchat = team(method)
    assert manager.begin(user, "task") == [{"content": "task", "role": "user", "name": "user"}]
    first = manager.step()
    assert [m["name"] for m in first] == [expected[1][0]]
    assert len(groupchat.messages) == 2 and manager.last_speaker.name == expected[1][0]
    three = manager.step(3)
    assert [(m["name"], m["content"]) for m in three] == expected[2:5]
    result = manager.continue_chat()
    assert transcript(groupchat) == expected
    assert [r.chosen for r in groupchat.selection_log] == expected_log
    assert manager.end_reason == "max_round (8) reached." and groupchat.is_complete is False
    assert [m["content"] for m in result.chat_history] == [c for _, c in expected]
    assert result.termination is None and whole.termination is None
    # Every participant holds the same conversation as after the whole run.
    assert [m["content"] for m in user.chat_messages[manager]] == [c for _, c in expected]


def test_async_stepping_gives_the_same_chat(console: ScriptedIOStream) -> None:
    user, manager, groupchat = team()
    user.initiate_chat(manager, message="task")
    expected = transcript(groupchat)

    async def steps() -> list[tuple[str, str]]:
        user2, manager2, groupchat2 = team()
        await manager2.a_begin(user2, "task")
        await manager2.a_step(2)
        await manager2.a_invoke(groupchat2.agents[3])  # critic, who is next in round robin anyway
        await manager2.a_continue_chat()
        return transcript(groupchat2)

    assert asyncio.run(steps()) == expected


def test_invoke_lets_one_chosen_agent_speak_once(console: ScriptedIOStream) -> None:
    user, manager, groupchat = team()
    manager.begin(user, "task")
    critic = groupchat.agent_by_name("critic")
    message = manager.invoke(critic)
    assert message == {"content": "critic-1", "role": "user", "name": "critic"}
    assert transcript(groupchat)[-1] == ("critic", "critic-1") and manager.last_speaker is critic
    assert groupchat.selection_log == []  # no selection ran for it
    manager.step()  # round robin goes on after the invoked agent
    assert transcript(groupchat)[-1][0] == "user"
    assert "Next speaker: critic" in console.output


def test_invoke_refuses_an_agent_outside_the_group(console: ScriptedIOStream) -> None:
    user, manager, groupchat = team()
    manager.begin(user, "task")
    stranger = scripted("stranger")
    with pytest.raises(ValueError, match=r"'stranger' is not in the group chat of 'chat_manager'.*add the agent"):
        manager.invoke(stranger)
    assert len(groupchat.messages) == 1


def test_step_goes_on_after_max_round_is_raised(console: ScriptedIOStream) -> None:
    user, manager, groupchat = team(max_round=3)
    user.initiate_chat(manager, message="task")
    assert len(groupchat.messages) == 3
    with pytest.raises(ValueError, match=r"max_round \(3\).*raise groupchat.max_round"):
        manager.step()
    groupchat.max_round = 5
    added = manager.step()
    assert [m["name"] for m in added] == ["critic"]
    manager.step(None)
    assert len(groupchat.messages) == 5


def test_step_needs_a_chat_and_a_valid_count(console: ScriptedIOStream) -> None:
    user, manager, groupchat = team()
    with pytest.raises(ValueError, match=r"manager.begin\(sender, message\)"):
        manager.step()
    manager.begin(user, "task")
    for bad in (0, -1, 1.5, "2", True):
        with pytest.raises(ValueError, match="rounds must be an int >= 1"):
            manager.step(bad)


# ----------------------------------------------------------------- termination conditions in a group chat
def test_termination_condition_ends_the_chat_and_says_which_fired(console: ScriptedIOStream) -> None:
    user = scripted("user", "u")
    agents = [user, scripted("planner", "plan"), scripted("coder", "code DONE"), scripted("critic", "ok")]
    condition = TextMentionTermination("DONE") | MaxMessageTermination(20)
    groupchat = GroupChat(agents, messages=[], max_round=10, speaker_selection_method="round_robin",
                          termination=condition)
    manager = GroupChatManager(groupchat, llm_config=False)
    stream = ScriptedIOStream()
    with IOStream.set_default(stream):
        result = user.initiate_chat(manager, message="task")
    assert transcript(groupchat)[-1] == ("coder", "code DONE")
    assert groupchat.is_complete is True
    assert isinstance(result.termination, StopMessage)
    assert result.termination.source == "TextMentionTermination"
    assert manager.stop_message == result.termination and manager.end_reason == result.termination.content
    end = [e for e in stream.events if isinstance(e, GroupChatEndMessage)][-1]
    assert end.content.complete is True
    assert end.content.termination == result.termination.to_dict()
    with pytest.raises(GroupChatComplete, match=r"groupchat.reset\(\)"):
        manager.step()
    groupchat.reset()
    assert groupchat.is_complete is False and groupchat.messages == []


def test_max_round_does_not_complete_the_chat(console: ScriptedIOStream) -> None:
    user, manager, groupchat = team(max_round=3, termination=TextMentionTermination("never said"))
    result = user.initiate_chat(manager, message="task")
    assert groupchat.is_complete is False and result.termination is None
    assert manager.stop_message is None


def test_and_condition_needs_both(console: ScriptedIOStream) -> None:
    user, manager, groupchat = team(max_round=20,
                                    termination=SourceMatchTermination(["critic"]) & MaxMessageTermination(6))
    user.initiate_chat(manager, message="task")
    # critic speaks 4th (fires the first), the 6th message fires the second: the chat ends there.
    assert len(groupchat.messages) == 6 and groupchat.is_complete
    assert manager.stop_message.source == "AndTerminationCondition"


def test_is_termination_msg_sets_is_complete_with_a_stop_message(console: ScriptedIOStream) -> None:
    user = scripted("user", "u")
    agents = [user, scripted("planner", "plan"), scripted("critic", "TERMINATE")]
    groupchat = GroupChat(agents, messages=[], max_round=10, speaker_selection_method="round_robin")
    manager = GroupChatManager(groupchat, llm_config=False)
    result = user.initiate_chat(manager, message="task")
    assert groupchat.is_complete and manager.end_reason == "critic sent a termination message."
    assert result.termination.source == "is_termination_msg"
    assert result.termination.details == {"speaker": "critic"}


def test_condition_as_is_termination_msg_in_a_two_agent_chat(console: ScriptedIOStream) -> None:
    condition = TextMentionTermination("bye")
    alice = scripted("alice", "hello", is_termination_msg=condition)
    bob = scripted("bob", "bye now")
    result = alice.initiate_chat(bob, message="hi")
    assert [m["content"] for m in result.chat_history] == ["hi", "bye now"]
    assert result.termination is not None and result.termination.source == "TextMentionTermination"
    # The next chat starts with the condition reset.
    again = alice.initiate_chat(bob, message="hi again")
    assert len(again.chat_history) == 2 and again.termination is not None


def test_condition_as_the_managers_is_termination_msg(console: ScriptedIOStream) -> None:
    user = scripted("user", "u")
    agents = [user, scripted("planner", "plan"), scripted("critic", "looks fine")]
    groupchat = GroupChat(agents, messages=[], max_round=10, speaker_selection_method="round_robin")
    manager = GroupChatManager(groupchat, llm_config=False, is_termination_msg=SourceMatchTermination(["critic"]))
    result = user.initiate_chat(manager, message="task")
    assert transcript(groupchat)[-1][0] == "critic"
    assert result.termination.source == "SourceMatchTermination" and groupchat.is_complete


def test_external_termination_set_from_another_thread(console: ScriptedIOStream) -> None:
    stop = ExternalTermination()
    user = scripted("user", "u")
    planner = scripted("planner")

    def press_stop(recipient: Any, messages: Any = None, sender: Any = None, config: Any = None) -> tuple[bool, str]:
        button = threading.Thread(target=stop.set)  # the stop button, pressed elsewhere
        button.start()
        button.join()
        return True, "planning"

    planner.register_reply([ConversableAgent, None], press_stop)
    groupchat = GroupChat([user, planner, scripted("coder", "c")], messages=[], max_round=10,
                          speaker_selection_method="round_robin", termination=stop)
    manager = GroupChatManager(groupchat, llm_config=False)
    result = user.initiate_chat(manager, message="task")
    assert transcript(groupchat) == [("user", "task"), ("planner", "planning")]
    assert result.termination.source == "ExternalTermination"


def test_stepping_stops_at_a_condition(console: ScriptedIOStream) -> None:
    user, manager, groupchat = team(termination=SourceMatchTermination(["coder"]))
    manager.begin(user, "task")
    added = manager.step(5)
    assert [m["name"] for m in added] == ["planner", "coder"]
    assert groupchat.is_complete
    with pytest.raises(GroupChatComplete):
        manager.invoke(groupchat.agent_by_name("critic"))
    groupchat.is_complete = False  # go on with this chat: the condition starts over
    assert [m["name"] for m in manager.step()] == ["critic"]


def test_termination_must_be_a_condition() -> None:
    with pytest.raises(TypeError, match="GroupChat termination"):
        GroupChat([scripted("a"), scripted("b")], termination="TERMINATE")  # type: ignore[arg-type]


# ----------------------------------------------------------------- selector prompt placeholders
def test_selector_template_fills_participants_and_history(console: ScriptedIOStream) -> None:
    user, manager, groupchat = team(
        method="round_robin",
        select_speaker_message_template="Pick from {participants}.\nRoles:\n{roles}\nSo far:\n{history}",
    )
    manager.begin(user, "task")
    manager.step(1)
    text = groupchat.select_speaker_msg()
    assert text.startswith("Pick from ['user', 'planner', 'coder', 'critic'].\nRoles:\nuser: ")
    assert text.endswith("So far:\nuser: task\n\nplanner: planner-1")
    manager.step(1)
    assert groupchat.select_speaker_msg().endswith("planner: planner-1\n\ncoder: coder-1")


def test_classic_templates_are_unchanged_and_unknown_fields_warn() -> None:
    groupchat = GroupChat([scripted("a", description="does A"), scripted("b", description="does B")])
    assert groupchat.select_speaker_msg() == GroupChat.select_speaker_message_template.format(
        roles="a: does A\nb: does B", agentlist="['a', 'b']")
    with pytest.warns(UserWarning, match=r"\{team\}.*\{participants\}"):
        GroupChat([scripted("a"), scripted("b")], select_speaker_message_template="Choose from {team}")


# ----------------------------------------------------------------- hand-offs in a live swarm
def test_handoff_termination_stops_a_swarm_at_a_swarm_result_handoff(console: ScriptedIOStream,
                                                                       scripted_server: Any) -> None:
    from autogen_classic import ON_CONDITION, HandoffTermination, SwarmAgent, SwarmResult, initiate_swarm_chat
    from autogen_classic.testing.scripted_server import ScriptedReply

    script = {"triage": [ScriptedReply(tool_calls=[{"name": "transfer_triage_to_sales", "arguments": {}}])],
              "sales": [ScriptedReply(tool_calls=[{"name": "escalate", "arguments": {}}])]}

    def responder(body: dict[str, Any]) -> Any:
        name = body["messages"][0]["content"].split(".")[0].removeprefix("I am ")
        return script[name].pop(0) if script.get(name) else f"{name} is done."

    scripted_server.set_responder(responder)
    agents = {n: SwarmAgent(n, system_message=f"I am {n}.", llm_config=scripted_server.llm_config())
              for n in ("triage", "sales", "human")}

    def escalate() -> SwarmResult:
        """Escalate to a human."""
        return SwarmResult(values="escalated", agent=agents["human"])

    agents["sales"].add_functions([escalate])
    agents["triage"].register_hand_off(ON_CONDITION(agents["sales"], "when the customer wants to buy"))
    result, _, _ = initiate_swarm_chat(
        agents["triage"], "I want to buy", list(agents.values()),
        termination=HandoffTermination("human"),
    )
    # The chat stops at the tool result that hands off to the human; the human never speaks.
    assert [m.get("name") for m in result.chat_history][-1] == "Tool_Execution"
    assert result.chat_history[-1]["content"] == "escalated"
    assert result.termination.source == "HandoffTermination"
    assert result.termination.details["target"] == "human"


# ----------------------------------------------------------------- a model-judged condition in a group chat
def test_model_judged_termination_ends_a_group_chat_and_counts_in_its_cost(console: ScriptedIOStream,
                                                                             scripted_server: Any) -> None:
    from autogen_classic import ModelJudgedTermination, TokenUsageTermination
    from autogen_classic.testing.scripted_server import ScriptedReply

    verdicts = iter(["no", "yes"])
    scripted_server.set_responder(lambda body: ScriptedReply(
        content=next(verdicts), usage={"prompt_tokens": 100, "completion_tokens": 1}))
    judge = ModelJudgedTermination(scripted_server.llm_config(), agents=["critic"])
    user, manager, groupchat = team(max_round=20, termination=judge | TokenUsageTermination(max_total_token=1000))
    result = user.initiate_chat(manager, message="task")
    # Asked only after the critic spoke: "no" after its first turn, "yes" after its second.
    assert [m["name"] for m in groupchat.messages][-1] == "critic"
    assert sum(m["name"] == "critic" for m in groupchat.messages) == 2
    assert result.termination.source == "ModelJudgedTermination" and groupchat.is_complete
    usage = result.cost["usage_including_cached_inference"]
    assert sum(v["total_tokens"] for k, v in usage.items() if k != "total_cost") == 202


def test_token_usage_termination_reads_the_chats_model_calls(console: ScriptedIOStream, scripted_server: Any) -> None:
    from autogen_classic import TokenUsageTermination
    from autogen_classic.testing.scripted_server import ScriptedReply

    scripted_server.set_responder(lambda body: ScriptedReply(
        content="a draft", usage={"prompt_tokens": 40, "completion_tokens": 10}))
    writer = ConversableAgent("writer", llm_config=scripted_server.llm_config(), human_input_mode="NEVER")
    user = scripted("user", "more please")
    groupchat = GroupChat([user, writer], messages=[], max_round=20, speaker_selection_method="round_robin",
                          termination=TokenUsageTermination(max_total_token=120))
    manager = GroupChatManager(groupchat, llm_config=False)
    result = user.initiate_chat(manager, message="write")
    # 50 tokens per writer turn: the third turn passes 120.
    assert [m["name"] for m in groupchat.messages] == ["user", "writer", "user", "writer", "user", "writer"]
    assert result.termination.source == "TokenUsageTermination"
