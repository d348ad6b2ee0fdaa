"""The events of AG2 Classic 0.14 (``autogen.events``) and ag2 0.7.3's ``autogen.messages`` names: one family.

Every 0.14 event class prints and serialises as autogen 0.14.1 does (``classic_examples_014/event_catalog.py``,
compared with what 0.14.1 printed). Each classic ``*Message`` is the 0.7.3 shape of its ``*Event``: a
subclass of it, and an event counts as an instance of its classic name; the package sends the classic
shape to consoles and streams, and a run's response hands out the event itself (same uuid).
"""

from __future__ import annotations

import json
import logging
import queue
from pathlib import Path
from typing import Any, Dict, List

import pytest
from pydantic import TypeAdapter

from autogen_classic import ConversableAgent, IOStream, register_function
from autogen_classic.events import BaseEvent, deprecated_by, get_annotated_type_for_event_classes, wrap_event
from autogen_classic.events.agent_events import (
    ClearConversableAgentHistoryEvent,
    ExecutedFunctionEvent,
    GroupChatResumeEvent,
    GroupChatRunChatEvent,
    PostCarryoverProcessingEvent,
    RunCompletionEvent,
    SpeakerAttemptSuccessfulEvent,
    TerminationEvent,
    TextEvent,
    ToolCallEvent,
    UsingAutoReplyEvent,
)
from autogen_classic.events.base_event import as_event
from autogen_classic.events.run_events import PACKAGE_EVENTS, InputRequestEvent
from autogen_classic.io import IOWebsockets
from autogen_classic.messages import agent_messages as messages
from autogen_classic.messages.base_message import get_message_classes
from autogen_classic.messages.print_message import PrintMessage
from autogen_classic.messages.run_events import InputRequestMessage
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply

from test_run_response_014 import recorded, run_and_compare, workdir  # noqa: F401 - fixtures shared

# ----------------------------------------------------------------- as autogen 0.14.1 prints them


def test_every_event_prints_and_serialises_as_0141(workdir: Path, recorded: Dict) -> None:  # noqa: F811
    out = run_and_compare("event_catalog.py", workdir, recorded)
    assert len([key for key in out if key.startswith("EVENT_")]) == 51


def _without_uuid(data: Dict[str, Any]) -> Dict[str, Any]:
    """An event's JSON without what differs between two runs of one chat (its uuid, a request's latency)."""
    return {"type": data["type"], "content": {k: v for k, v in data["content"].items() if k not in ("uuid", "latency")}}


# ----------------------------------------------------------------- one family
TWINS = [(cls, cls.__dict__["__event_class__"]) for cls in get_message_classes().values()
         if "__event_class__" in cls.__dict__]


@pytest.mark.parametrize(("classic", "event"), TWINS, ids=[c.__name__ for c, _ in TWINS])
def test_each_classic_name_is_its_event_in_the_073_shape(classic: Any, event: Any) -> None:
    assert issubclass(classic, event)
    message = classic.build()  # the package's own, unvalidated build
    assert isinstance(message, event) and isinstance(message, classic)
    converted = as_event(message)
    assert type(converted) is event and converted.content.uuid == message.content.uuid
    assert isinstance(converted, classic)  # the old name still matches what a run hands out


def test_the_classic_shape_and_the_event_shape_of_one_message() -> None:
    message = messages.TextMessage(content="hi", sender_name="alice", recipient_name="bob")
    event = as_event(message)
    assert json.loads(message.model_dump_json())["content"] == {
        "uuid": str(message.content.uuid), "content": "hi", "sender_name": "alice", "recipient_name": "bob"
    }
    assert json.loads(event.model_dump_json()) == json.loads(
        TextEvent(uuid=message.content.uuid, content="hi", sender="alice", recipient="bob").model_dump_json()
    )
    # Each shape answers the other's field names: 0.14 code reads a classic event, 0.7.3 code a run's event.
    assert message.content.sender == "alice" and event.content.sender_name == "alice"
    lines: List[str] = []
    message.print(lambda *o, **k: lines.append(" ".join(map(str, o))))
    event.print(lambda *o, **k: lines.append(" ".join(map(str, o))))
    assert lines[: len(lines) // 2] == lines[len(lines) // 2:]  # the same text


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (messages.GroupChatRunChatMessage(speaker_name="bob", verbose=True),
         {"type": "group_chat_run_chat", "content": {"speaker": "bob", "silent": False}}),
        (messages.GroupChatResumeMessage(last_speaker_name="bob", messages=[{"content": "x"}], verbose=False),
         {"type": "group_chat_resume", "content": {"last_speaker_name": "bob", "events": [{"content": "x"}],
                                                   "silent": True}}),
        (messages.ClearAgentsHistoryMessage(agent_name="bob", nr_messages_to_preserve=2),
         {"type": "clear_agents_history", "content": {"agent": "bob", "nr_events_to_preserve": 2}}),
        (messages.GenerateCodeExecutionReplyMessage(code_block_languages=["python"], recipient_name="bob"),
         {"type": "generate_code_execution_reply",
          "content": {"code_blocks": ["python"], "sender": "No sender", "recipient": "bob"}}),
        (messages.SpeakerAttemptSuccessfulMessage(mentions={"bob": 1}, attempt=1, attempts_left=2),
         {"type": "speaker_attempt_successful",
          "content": {"mentions": {"bob": 1}, "attempt": 1, "attempts_left": 2, "select_speaker_auto_verbose": False}}),
        (messages.TerminationMessage(termination_reason="done"),
         {"type": "termination", "content": {"termination_reason": "done", "sender": "system", "recipient": None}}),
        (messages.TerminationAndHumanReplyNoInputMessage(no_human_input_msg="NO HUMAN INPUT RECEIVED.",
                                                         sender_name="a", recipient_name="b"),
         {"type": "termination_and_human_reply_no_input",
          "content": {"no_human_input_msg": "NO HUMAN INPUT RECEIVED.", "sender": "a", "recipient": "b"}}),
    ],
    ids=["run_chat", "resume", "clear_agents", "code_reply", "attempt", "termination", "no_input"],
)
def test_renamed_fields_and_tags_follow_the_event(message: Any, expected: Dict[str, Any]) -> None:
    assert _without_uuid(json.loads(as_event(message).model_dump_json())) == expected


def test_the_0141_names_of_the_messages_module() -> None:
    assert messages.SpeakerAttemptSuccessfulMessage is messages.SpeakerAttemptSuccessfullMessage
    assert messages.TerminationAndHumanReplyNoInputMessage is messages.TerminationAndHumanReplyMessage
    assert messages.TextEvent is TextEvent and messages.deprecated_by is deprecated_by
    namespace: Dict[str, Any] = {}
    exec("from autogen_classic.messages.agent_messages import *", namespace)  # noqa: S102
    listed = {"SpeakerAttemptSuccessfullMessage", "SpeakerAttemptSuccessfulMessage", "TerminationMessage"}
    assert listed <= set(namespace)


# ----------------------------------------------------------------- reading events back
def test_events_read_back_including_the_custom_serialised_forms() -> None:
    adapter = TypeAdapter(get_annotated_type_for_event_classes())
    events = [
        PostCarryoverProcessingEvent(chat_info={"carryover": ["c"], "message": "m", "verbose": True, "sender": "a",
                                                "recipient": "b", "summary_method": "last_msg", "max_turns": 2}),
        GroupChatRunChatEvent(speaker="bob", silent=True),
        GroupChatResumeEvent(last_speaker_name="bob", events=[{"content": "x", "role": "user"}]),
        SpeakerAttemptSuccessfulEvent(mentions={"bob": 1}, attempt=1, attempts_left=0,
                                      select_speaker_auto_verbose=True),
        ClearConversableAgentHistoryEvent(agent="bob", no_events_preserved=1),
        TerminationEvent(sender="a", recipient="b", termination_reason="done"),
        InputRequestEvent(prompt="> "),
        RunCompletionEvent(summary="s", history=[], cost={}, last_speaker=None),
    ]
    for event in events:
        back = adapter.validate_json(event.model_dump_json())
        assert type(back) is type(event) and back.model_dump_json() == event.model_dump_json()


def test_every_event_of_a_run_reads_back(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies(ScriptedReply(tool_calls=[{"name": "add", "arguments": {"a": 1, "b": 2}}]),
                                "3. TERMINATE")

    def add(a: int, b: int) -> int:
        return a + b

    assistant = ConversableAgent("assistant", llm_config=scripted_server.llm_config())
    user = ConversableAgent("user", llm_config=False, human_input_mode="NEVER",
                            is_termination_msg=lambda m: "TERMINATE" in (m.get("content") or ""))
    register_function(add, caller=assistant, executor=user, description="Add")
    events = list(user.run(assistant, message="1 + 2?").events)
    kinds = [type(e).__name__ for e in events]
    assert kinds == ["TextEvent", "UsingAutoReplyEvent", "ToolCallEvent", "ExecuteFunctionEvent",
                     "ExecutedFunctionEvent", "ToolResponseEvent", "UsingAutoReplyEvent", "TextEvent",
                     "TerminationEvent", "RunCompletionEvent"]
    adapter = TypeAdapter(get_annotated_type_for_event_classes())
    for event in events:
        assert adapter.validate_json(event.model_dump_json()).model_dump_json() == event.model_dump_json()
    executed = events[4]
    assert isinstance(executed, ExecutedFunctionEvent) and executed.content.is_exec_success is True


# ----------------------------------------------------------------- defining events
def test_wrap_event_names_and_the_union() -> None:
    @wrap_event
    class ProgressEvent(BaseEvent):
        percent: int

        def print(self, f: Any = None) -> None:
            (f or print)(f"{self.percent}% done")

    event = ProgressEvent(percent=40)
    assert json.loads(event.model_dump_json())["type"] == "progress"
    back = TypeAdapter(get_annotated_type_for_event_classes()).validate_json(event.model_dump_json())
    assert type(back) is ProgressEvent

    with pytest.raises(ValueError, match="must end with 'Event'"):
        @wrap_event
        class Progress(BaseEvent):
            percent: int


def test_deprecated_by_builds_the_new_class(caplog: pytest.LogCaptureFixture) -> None:
    @deprecated_by(UsingAutoReplyEvent, param_mapping={"sender_name": "sender", "recipient_name": "recipient"})
    class UsingAutoReplyOld:
        pass

    with caplog.at_level(logging.WARNING):
        event = UsingAutoReplyOld(human_input_mode="ALWAYS", sender_name="a", recipient_name="b")
    assert type(event) is UsingAutoReplyEvent and event.content.sender == "a"
    assert "UsingAutoReplyOld is deprecated by UsingAutoReplyEvent" in caplog.text


def test_an_input_request_is_answered_once() -> None:
    stream = ScriptedIOStream()
    answers: "queue.Queue[str]" = queue.Queue()
    from autogen_classic.io.thread_io_stream import InputAnswer

    request = InputRequestEvent(prompt="Your name? ")
    request.content.respond = InputAnswer(answers.put, "Your name? ")
    assert json.loads(request.model_dump_json())["content"]["respond"] is None  # as 0.14.1 shows it
    request.content.respond("Ada")
    with pytest.raises(RuntimeError, match=r"prompt 'Your name\? '\) was already answered with 'Ada'.*Answer each"):
        request.content.respond("Bob")
    assert answers.get_nowait() == "Ada" and answers.empty()
    with pytest.raises(RuntimeError, match="does not come from a chat stream"):
        InputRequestMessage(prompt="?").respond("x")
    assert stream.events == []


# ----------------------------------------------------------------- consumers of the classic paths
def test_a_014_console_stream_recognises_the_classic_events() -> None:
    seen: List[Any] = []

    class Recording(ScriptedIOStream):
        def send(self, message: Any) -> None:
            if isinstance(message, TextEvent):  # written for 0.14: the event classes and field names
                seen.append((message.content.sender, message.content.recipient, message.content.content))
            super().send(message)

    alice = ConversableAgent("alice", llm_config=False, human_input_mode="NEVER", default_auto_reply="hi back")
    bob = ConversableAgent("bob", llm_config=False, human_input_mode="NEVER")
    with IOStream.set_default(Recording()):
        bob.initiate_chat(alice, message="hi", max_turns=1)
    assert seen == [("bob", "alice", "hi"), ("alice", "bob", "hi back")]


def _chat(llm_config: Dict[str, Any]) -> tuple[ConversableAgent, ConversableAgent]:
    def add(a: int, b: int) -> int:
        return a + b

    assistant = ConversableAgent("assistant", llm_config=llm_config, human_input_mode="NEVER")
    user = ConversableAgent("user", llm_config=False, human_input_mode="NEVER",
                            is_termination_msg=lambda m: "TERMINATE" in (m.get("content") or ""))
    register_function(add, caller=assistant, executor=user, description="Add")
    return user, assistant


def _replies(server: ScriptedOpenAIServer) -> None:
    server.add_replies(ScriptedReply(tool_calls=[{"name": "add", "arguments": {"a": 2, "b": 3}, "id": "call_1"}]),
                       "The sum is 5. TERMINATE")


def test_chat_streams_websockets_and_runs_serve_the_same_events(scripted_server: ScriptedOpenAIServer) -> None:
    from websockets.sync.client import connect

    llm_config = scripted_server.llm_config()
    _replies(scripted_server)
    user, assistant = _chat(llm_config)
    streamed = list(user.initiate_chat_stream(assistant, message="What is 2 + 3?"))

    _replies(scripted_server)
    user, assistant = _chat(llm_config)
    run_events = list(user.run(assistant, message="What is 2 + 3?").events)

    _replies(scripted_server)
    received: "queue.Queue[List[Dict[str, Any]]]" = queue.Queue()

    def on_connect(iostream: IOWebsockets) -> None:
        ws_user, ws_assistant = _chat(llm_config)
        ws_user.initiate_chat(ws_assistant, message=iostream.websocket.recv())

    with IOWebsockets.run_server_in_thread(on_connect=on_connect, port=0) as uri, connect(uri) as ws:
        ws.send("What is 2 + 3?")
        sent: List[Dict[str, Any]] = []
        try:
            while True:
                sent.append(json.loads(ws.recv(timeout=20)))
        except Exception:  # noqa: BLE001 - the server closed the connection: the chat is over
            received.put(sent)

    # The chat stream and the websocket: the same classic events; on the wire each carries its classic JSON
    # and, for clients written for AG2 Classic 0.14, the 0.14 names of its fields too.
    from autogen_classic.io.websockets import event_json

    wire = [_without_uuid(e) for e in received.get(timeout=5)]
    assert wire == [_without_uuid(json.loads(event_json(e))) for e in streamed]
    for on_wire, event in zip(wire, streamed):
        classic, newer = (_without_uuid(json.loads(x.model_dump_json())) for x in (event, as_event(event)))
        assert on_wire["type"] == classic["type"]
        assert classic["content"].items() <= on_wire["content"].items()
        assert {k: v for k, v in newer["content"].items() if k not in classic["content"]}.items() <= \
            on_wire["content"].items()
    # The run: the same events, in their 0.14 shape, without this package's own and with the run's completion.
    # The execution and the end of the chat are among them, as 0.14.1 sends them to every stream.
    as_events = [as_event(e) for e in streamed if not isinstance(as_event(e), PACKAGE_EVENTS)]
    assert any(isinstance(e, ExecutedFunctionEvent) for e in as_events)
    assert isinstance(as_events[-1], TerminationEvent)
    assert [_without_uuid(json.loads(e.model_dump_json())) for e in as_events] == [
        _without_uuid(json.loads(e.model_dump_json())) for e in run_events if not isinstance(e, RunCompletionEvent)
    ]
    assert any(isinstance(e, ToolCallEvent) for e in run_events)
    assert isinstance(streamed[0], messages.TextMessage) and isinstance(run_events[0], messages.TextMessage)


def test_a_print_through_a_run_is_a_print_event() -> None:
    alice = ConversableAgent("alice", llm_config=False, human_input_mode="NEVER")
    bob = ConversableAgent("bob", llm_config=False, human_input_mode="NEVER", default_auto_reply="ok")

    def announce(recipient: Any, messages: Any, sender: Any, config: Any) -> tuple[bool, Any]:
        IOStream.get_default().print("announcing", 1, sep="-")
        return False, None

    bob.register_reply([ConversableAgent, None], announce)
    events = list(alice.run(bob, message="hi", max_turns=1).events)
    printed = [e for e in events if type(e).__name__ == "PrintEvent"]
    assert len(printed) == 1 and printed[0].content.objects == ["announcing", "1"] and printed[0].content.sep == "-"
    assert isinstance(printed[0], PrintMessage)
