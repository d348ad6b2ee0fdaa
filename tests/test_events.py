"""Events: every printed line is an event sent through IOStream.send, and a chat can be streamed."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import subprocess
import sys
import threading
from typing import Any

import pytest
from pydantic import TypeAdapter

import autogen_classic as autogen
from autogen_classic import ConversableAgent, GroupChat, GroupChatManager, IOConsole, IOStream
from autogen_classic.messages import BaseMessage, get_annotated_type_for_message_classes, wrap_message
from autogen_classic.messages.agent_messages import GroupChatRunChatMessage, TextMessage
from autogen_classic.messages.print_message import PrintMessage
from autogen_classic.messages.run_events import GroupChatEndMessage, InputRequestMessage, SpeakerSelectionMessage
from autogen_classic.testing.io import ScriptedIOStream
from console_masks import mask_run_ids

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _team(rounds: int = 4) -> tuple[ConversableAgent, GroupChatManager, GroupChat]:
    agents = [
        ConversableAgent(name, llm_config=False, human_input_mode="NEVER", default_auto_reply=f"{name} here.",
                         description=f"The {name}.")
        for name in ("planner", "coder", "critic")
    ]
    user = ConversableAgent("user", llm_config=False, human_input_mode="NEVER", default_auto_reply="ok")
    groupchat = GroupChat(agents=[user, *agents], messages=[], max_round=rounds, speaker_selection_method="round_robin")
    return user, GroupChatManager(groupchat, llm_config=False), groupchat


def _chat_with_tool_call(stream: Any = None) -> None:
    """A two-agent chat with a tool call, its execution and a function result: most event kinds."""

    def add(a: int, b: int) -> int:
        return a + b

    caller = ConversableAgent("caller", llm_config=False, human_input_mode="NEVER")
    runner = ConversableAgent("runner", llm_config=False, human_input_mode="NEVER", function_map={"add": add})
    call = {"content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "add", "arguments": '{"a": 1, "b": 2}'}}]}
    caller.initiate_chat(runner, message=call, max_turns=1)


# ----------------------------------------------------------------- the console is one consumer
@pytest.mark.parametrize("chat", ["group", "tool"])
def test_a_capturing_stream_sees_the_events_of_every_printed_line(chat: str, capsys: pytest.CaptureFixture) -> None:
    def run() -> None:
        if chat == "group":
            user, manager, _ = _team()
            user.initiate_chat(manager, message="Plan it.")
        else:
            _chat_with_tool_call()

    run()  # the default console
    console_text = _ANSI.sub("", capsys.readouterr().out)

    stream = ScriptedIOStream()
    with IOStream.set_default(stream):
        run()
    assert mask_run_ids(stream.output) == mask_run_ids(console_text)  # rendered from the events, line for line
    assert stream.events and all(isinstance(e, BaseMessage.__mro__[1]) for e in stream.events)  # pydantic models
    rendered: list[str] = []
    for event in stream.events:
        event.print(lambda *objects, sep=" ", end="\n", flush=False: rendered.append(sep.join(map(str, objects)) + end))
    assert _ANSI.sub("", "".join(rendered)) == stream.output
    if chat == "group":
        kinds = [type(e).__name__ for e in stream.events]
        assert kinds.count("GroupChatRunChatMessage") == 3 and "TextMessage" in kinds
        assert kinds[-2:] == ["GroupChatEndMessage", "TerminationMessage"]  # the 0.14.1 line ends the chat
    else:
        kinds = {type(e).__name__ for e in stream.events}
        assert {"ToolCallMessage", "ExecuteFunctionMessage", "ExecutedFunctionMessage", "ToolResponseMessage",
                "TerminationMessage"} <= kinds


def test_events_serialise_in_the_classic_shape_and_read_back() -> None:
    stream = ScriptedIOStream()
    with IOStream.set_default(stream):
        _chat_with_tool_call()
        user, manager, _ = _team()
        user.initiate_chat(manager, message="Plan it.")
    adapter = TypeAdapter(get_annotated_type_for_message_classes())
    for event in stream.events:
        data = json.loads(event.model_dump_json())
        assert set(data) == {"type", "content"} and "uuid" in data["content"]
        back = adapter.validate_json(event.model_dump_json())
        assert type(back) is type(event) and back.model_dump() == event.model_dump()
    first = next(e for e in stream.events if isinstance(e, TextMessage))
    assert first.type == "text" and first.content.sender_name == "user" and first.content.content == "Plan it."
    assert len({e.content.uuid for e in stream.events}) == len(stream.events)


def test_classic_event_constructors_take_agents() -> None:
    alice = ConversableAgent("alice", llm_config=False)
    event = GroupChatRunChatMessage(speaker=alice, silent=False)
    assert event.content.speaker_name == "alice" and event.content.verbose is True
    lines: list[str] = []
    event.print(lambda *o, **k: lines.append(" ".join(map(str, o))))
    assert _ANSI.sub("", lines[0]) == "\nNext speaker: alice\n"
    printed = PrintMessage("total", 3, sep=": ")
    assert printed.content.objects == ["total", "3"]
    assert json.loads(printed.model_dump_json())["type"] == "print"


def test_wrap_message_makes_user_events_that_join_the_union() -> None:
    @wrap_message
    class ProgressEventMessage(BaseMessage):
        percent: int

        def print(self, f: Any = None) -> None:
            (f or print)(f"{self.percent}% done")

    event = ProgressEventMessage(percent=40)
    assert json.loads(event.model_dump_json())["type"] == "progress_event"
    back = TypeAdapter(get_annotated_type_for_message_classes()).validate_json(event.model_dump_json())
    assert type(back) is ProgressEventMessage and back.content.percent == 40
    stream = ScriptedIOStream()
    stream.send(event)
    assert stream.output == "40% done\n"


def test_a_classic_console_subclass_overriding_send_receives_events(capsys: pytest.CaptureFixture) -> None:
    seen: list[Any] = []

    class Recording(IOConsole):
        def send(self, message: Any) -> None:
            seen.append(message)
            super().send(message)

    user, manager, _ = _team(rounds=3)
    with IOStream.set_default(Recording()):
        user.initiate_chat(manager, message="Plan it.")
    assert "Next speaker: planner" in _ANSI.sub("", capsys.readouterr().out)
    kinds = [type(e).__name__ for e in seen]
    assert kinds.count("SpeakerSelectionMessage") == 2  # quiet events reach anything but the plain console
    assert kinds[-2:] == ["GroupChatEndMessage", "TerminationMessage"]


# ----------------------------------------------------------------- events the classic package never had
def test_selection_and_end_events_carry_the_trace_and_the_reason() -> None:
    stream = ScriptedIOStream()
    user, manager, groupchat = _team(rounds=4)
    with IOStream.set_default(stream):
        user.initiate_chat(manager, message="Plan it.")
    selections = [e for e in stream.events if isinstance(e, SpeakerSelectionMessage)]
    assert [s.content.record["chosen"] for s in selections] == ["planner", "coder", "critic"]
    assert selections[0].content.record == groupchat.selection_log[0].to_dict()
    assert selections[0].content.record["method"] == "round_robin"
    assert selections[0].content.manager_name == "chat_manager"
    end, termination = stream.events[-2:]
    assert isinstance(end, GroupChatEndMessage)
    assert termination.content.termination_reason == "Maximum rounds (4) reached"
    assert end.content.end_reason == manager.end_reason == "max_round (4) reached."
    assert end.content.message_count == 4
    assert "GROUP CHAT ENDED" not in stream.output  # shown only when the chat ends for lack of a speaker


def test_debug_log_records_for_selection_and_chat_end(caplog: pytest.LogCaptureFixture) -> None:
    user, manager, _ = _team(rounds=3)
    with caplog.at_level(logging.DEBUG, logger="autogen_classic"), IOStream.set_default(ScriptedIOStream()):
        user.initiate_chat(manager, message="Plan it.")
    messages = [(r.name, r.levelname, r.getMessage()) for r in caplog.records]
    assert ("autogen_classic.agentchat.groupchat", "DEBUG",
            "Speaker selection, round 0 (round_robin): planner; round robin after user") in messages
    assert any(name.endswith("groupchat.manager") and "max_round (3) reached." in text for name, _, text in messages)


def test_transition_graph_warnings_reach_stderr_without_logging_set_up() -> None:
    script = (
        "import autogen_classic as autogen\n"
        "a, b, c = (autogen.ConversableAgent(n, llm_config=False) for n in 'abc')\n"
        "autogen.GroupChat(agents=[a, b, c], messages=[], allowed_or_disallowed_speaker_transitions={a: [b], b: [a]},"
        " speaker_transitions_type='allowed')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "isolated agent nodes" in done.stderr and "c" in done.stderr


# ----------------------------------------------------------------- streams
def _summary(events: list[Any]) -> list[tuple[str, Any]]:
    out = []
    for event in events:
        content = event.content.model_dump(exclude={"uuid"})
        out.append((type(event).__name__, content))
    return out


def test_sync_and_async_streams_yield_the_same_events(capsys: pytest.CaptureFixture) -> None:
    user, manager, _ = _team(rounds=4)
    stream = user.initiate_chat_stream(manager, message="Plan it.")
    sync_events = list(stream)
    assert stream.result is not None and len(stream.result.chat_history) == 4

    async def collect() -> tuple[list[Any], Any]:
        user2, manager2, _ = _team(rounds=4)
        astream = user2.a_initiate_chat_stream(manager2, message="Plan it.")
        return [e async for e in astream], astream.result

    async_events, async_result = asyncio.run(collect())
    assert _summary(sync_events) == _summary(async_events)
    assert async_result.chat_history == stream.result.chat_history
    kinds = [type(e).__name__ for e in sync_events]
    assert kinds[0] == "TextMessage" and kinds[-2:] == ["GroupChatEndMessage", "TerminationMessage"]
    assert "SpeakerSelectionMessage" in kinds
    assert capsys.readouterr().out == ""  # a streamed chat prints nothing


def test_leaving_a_sync_stream_stops_the_chat_and_its_thread() -> None:
    user, manager, groupchat = _team(rounds=1000)
    before = set(threading.enumerate())
    for index, _event in enumerate(user.initiate_chat_stream(manager, message="Plan it.")):
        if index == 5:
            break
    assert set(threading.enumerate()) <= before  # the worker thread is gone
    stopped_at = len(groupchat.messages)
    assert stopped_at < 10
    assert len(groupchat.messages) == stopped_at  # nothing runs on


def test_leaving_an_async_stream_cancels_the_chat() -> None:
    async def main() -> int:
        user, manager, groupchat = _team(rounds=1000)
        stream = user.a_initiate_chat_stream(manager, message="Plan it.")
        async with stream:
            async for index, _event in _enumerate(stream):
                if index == 5:
                    break
        count = len(groupchat.messages)
        await asyncio.sleep(0.05)
        assert len(groupchat.messages) == count
        assert all(task.done() for task in asyncio.all_tasks() if task is not asyncio.current_task())
        return count

    assert asyncio.run(main()) < 20


async def _enumerate(stream: Any) -> Any:
    index = 0
    async for event in stream:
        yield index, event
        index += 1


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_human_input_requests_are_events_the_consumer_answers(mode: str) -> None:
    human = ConversableAgent("human", llm_config=False, human_input_mode="ALWAYS")
    bot = ConversableAgent("bot", llm_config=False, human_input_mode="NEVER", default_auto_reply="noted")
    prompts: list[str] = []

    def answer(event: Any) -> None:
        if isinstance(event, InputRequestMessage):
            prompts.append(event.content.prompt)
            event.respond("second question" if len(prompts) == 1 else "exit")

    if mode == "sync":
        stream = human.initiate_chat_stream(bot, message="first question")
        for event in stream:
            answer(event)
        result = stream.result
    else:
        async def run() -> Any:
            astream = human.a_initiate_chat_stream(bot, message="first question")
            async for event in astream:
                answer(event)
            return astream.result

        result = asyncio.run(run())
    assert len(prompts) == 2 and prompts[0].startswith("Replying as human. Provide feedback to bot.")
    assert [m["content"] for m in result.chat_history] == ["first question", "noted", "second question", "noted"]
    assert result.human_input == ["second question", "exit"]


def test_a_chat_error_is_raised_from_the_stream_after_its_events() -> None:
    def broken(recipient: Any, messages: Any, sender: Any, config: Any) -> tuple[bool, Any]:
        raise RuntimeError("reply function failed")

    alice = ConversableAgent("alice", llm_config=False, human_input_mode="NEVER")
    bob = ConversableAgent("bob", llm_config=False, human_input_mode="NEVER")
    bob.register_reply([autogen.Agent, None], broken)
    seen: list[str] = []
    with pytest.raises(RuntimeError, match="reply function failed"):
        for event in alice.initiate_chat_stream(bob, message="hi", max_turns=2):
            seen.append(type(event).__name__)
    assert seen == ["TextMessage"]


def test_respond_outside_a_stream_is_a_clear_error() -> None:
    with pytest.raises(RuntimeError, match="does not come from a chat stream"):
        InputRequestMessage(prompt="?").respond("x")
