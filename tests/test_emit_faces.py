"""The package emits ``autogen.events`` classes; the emitter gives each stream its shape.

A run's stream gets the event itself; the plain console prints the text of the event's ag2 0.7.3 face (the
``messages`` class paired with it); every other stream (here a ``ScriptedIOStream``) gets that face.
"""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from typing import Any

import pytest

from autogen_classic.events.base_event import as_event, classic_face
from autogen_classic.events.chat_events import (
    ClearAgentsHistoryEvent,
    GroupChatResumeEvent,
    GroupChatRunChatEvent,
    SelectSpeakerEvent,
)
from autogen_classic.events.print_event import PrintEvent
from autogen_classic.events.run_events import PACKAGE_EVENTS, GroupChatEndEvent, TerminationEvent
from autogen_classic.io import IOConsole, IOStream
from autogen_classic.io.emit import emit, emit_print, emit_quiet, emit_run_event
from autogen_classic.io.thread_io_stream import ThreadIOStream
from autogen_classic.messages.agent_messages import (
    ClearAgentsHistoryMessage,
    GroupChatResumeConsoleMessage,
    GroupChatRunChatMessage,
    SelectSpeakerMessage,
    TerminationMessage,
)
from autogen_classic.messages.print_message import PrintMessage
from autogen_classic.messages.run_events import GroupChatEndMessage
from autogen_classic.testing.io import ScriptedIOStream

CASES = [
    (GroupChatRunChatEvent, GroupChatRunChatMessage, {"speaker": "bob", "verbose": True}),
    (GroupChatResumeEvent, GroupChatResumeConsoleMessage,
     {"last_speaker_name": "bob", "events": [{"content": "hi", "name": "bob"}], "verbose": True}),
    (ClearAgentsHistoryEvent, ClearAgentsHistoryMessage, {"agent": "bob", "nr_events_to_preserve": 2}),
    (SelectSpeakerEvent, SelectSpeakerMessage, {"agents": ["alice", "bob"]}),
    (GroupChatEndEvent, GroupChatEndMessage, {"manager_name": "chat_manager", "end_reason": "done", "verbose": True}),
    (PrintEvent, PrintMessage, {"objects": ["a", "b"], "sep": "-", "end": "!\n"}),
]


def _content(event: Any) -> dict[str, Any]:
    return {name: value for name, value in event.model_dump()["content"].items() if name != "uuid"}


def _taken(stream: ThreadIOStream) -> list[Any]:
    got = []
    while not stream._input_stream.empty():
        got.append(stream._input_stream.get_nowait())
    return got


@pytest.mark.parametrize(("event_cls", "face_cls", "fields"), CASES, ids=[c[0].__name__ for c in CASES])
def test_each_stream_gets_its_shape(event_cls: Any, face_cls: Any, fields: dict[str, Any]) -> None:
    assert classic_face(event_cls).cls is face_cls

    classic = ScriptedIOStream()
    emit(event_cls, classic, **fields)
    [sent] = classic.events
    assert type(sent) is face_cls  # the 0.7.3 shape, as before

    run = ThreadIOStream()
    emit(event_cls, run, **fields)
    if not isinstance(as_event(sent), PACKAGE_EVENTS):  # the package's own events are kept from a run's consumer
        [event] = _taken(run)
        assert type(event) is event_cls
        assert _content(event) == _content(as_event(sent))  # the event the face stands for

    console = IOConsole()
    out = io.StringIO()
    with redirect_stdout(out):
        emit(event_cls, console, **fields)
    assert out.getvalue() == "".join(classic.chunks)  # the console prints the face's text


def test_a_classic_class_is_sent_as_it_is() -> None:
    classic = ScriptedIOStream()
    emit(GroupChatRunChatMessage, classic, speaker_name="bob", verbose=True)
    assert type(classic.events[0]) is GroupChatRunChatMessage


def test_emit_print_and_quiet_and_run_events() -> None:
    classic = ScriptedIOStream()
    with IOStream.set_default(classic):
        emit_print("x", 1)
        emit_quiet(GroupChatEndEvent, manager_name="m", end_reason="r")
        emit_run_event(TerminationEvent, termination_reason="stop", sender="m", recipient=None)
        emit_run_event(TerminationEvent, silent=True, termination_reason="quiet", sender="m")
    assert [type(e) for e in classic.events] == [PrintMessage, GroupChatEndMessage, TerminationMessage]
    assert classic.chunks[0] == "x 1\n"

    run = ThreadIOStream()
    emit_run_event(TerminationEvent, run, silent=True, termination_reason="quiet", sender="m")
    assert [type(e) for e in _taken(run)] == [TerminationEvent]
