"""The classic console layout, printed through the replaceable console stream.

Every expected text below is what the reference (ag2 0.7.3) prints for the same message.
"""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from termcolor import can_colorize

from autogen_classic import ConversableAgent, IOStream
from autogen_classic.messages import agent_messages as events
from autogen_classic.io.emit import emit
from autogen_classic.testing.io import ScriptedIOStream

SEP = "-" * 80


def _shown(message: Any, console: ScriptedIOStream) -> str:
    alice = ConversableAgent("alice", llm_config=False)
    bob = ConversableAgent("bob", llm_config=False)
    alice.send(message, bob, request_reply=False)
    return console.output


@pytest.mark.parametrize(
    ("message", "body"),
    [
        ("plain text", "plain text\n"),
        ({"content": ""}, "\n"),
        ({"content": [{"type": "text", "text": "multi"}, {"type": "image_url", "image_url": {"url": "http://x/y.png"}}]},
         "multi<image>\n"),
        ({"function_call": {"name": "f", "arguments": "{}"}},
         "***** Suggested function call: f *****\nArguments: \n{}\n**************************************\n"),
        ({"content": "thinking", "function_call": {"name": "f", "arguments": ""}},
         "thinking\n***** Suggested function call: f *****\nArguments: \n(No arguments found)\n"
         "**************************************\n"),
        ({"content": "calling", "tool_calls": [
            {"id": "t1", "type": "function", "function": {"name": "g", "arguments": '{"a": 1}'}}]},
         "calling\n***** Suggested tool call (t1): g *****\nArguments: \n{\"a\": 1}\n***************************************\n"),
        ({"role": "function", "name": "f", "content": "fres"},
         "***** Response from calling function (f) *****\nfres\n**********************************************\n"),
    ],
    ids=["text", "empty", "multimodal", "function_call", "function_call_no_args", "tool_call", "function_result"],
)
def test_message_layout(console: ScriptedIOStream, message: Any, body: str) -> None:
    assert _shown(message, console) == f"alice (to bob):\n\n{body}\n{SEP}\n"


def test_tool_responses_layout(console: ScriptedIOStream) -> None:
    message = {"role": "tool", "content": "1\n\n2", "tool_responses": [
        {"tool_call_id": "t1", "role": "tool", "content": "1"},
        {"tool_call_id": "t2", "role": "tool", "content": "2"},
    ]}
    assert _shown(message, console) == (
        "alice (to bob):\n\n"
        f"***** Response from calling tool (t1) *****\n1\n*******************************************\n\n{SEP}\n"
        f"***** Response from calling tool (t2) *****\n2\n*******************************************\n\n{SEP}\n"
    )


def test_events_go_to_an_explicit_stream() -> None:
    stream = ScriptedIOStream()
    event_cls, fields = events.received_message_fields({"content": "hi"}, "alice", "bob")
    emit(event_cls, stream, **fields)
    emit(events.UsingAutoReplyMessage, stream, human_input_mode="ALWAYS", sender_name="alice", recipient_name="bob")
    emit(events.TerminationAndHumanReplyMessage, stream, no_human_input_msg="NO HUMAN INPUT RECEIVED.",
         sender_name="alice", recipient_name="bob")
    emit(events.PostCarryoverProcessingMessage, stream, carryover="carry", message="msg", verbose=True,
         sender_name="alice", recipient_name="bob", summary_method="last_msg", summary_args=None, max_turns=None)
    assert [type(e).__name__ for e in stream.events] == [
        "TextMessage", "UsingAutoReplyMessage", "TerminationAndHumanReplyMessage", "PostCarryoverProcessingMessage"
    ]
    stars = "*" * 80
    assert stream.output == (
        f"alice (to bob):\n\nhi\n\n{SEP}\n"
        "\n>>>>>>>> USING AUTO REPLY...\n"
        "\n>>>>>>>> NO HUMAN INPUT RECEIVED.\n"
        f"\n{stars}\nStarting a new chat....\nMessage:\nmsg\nCarryover:\ncarry\n\n{stars}\n"
    )


def test_console_stream_is_replaceable_per_block() -> None:
    outer, inner = ScriptedIOStream(), ScriptedIOStream()
    alice = ConversableAgent("alice", llm_config=False)
    bob = ConversableAgent("bob", llm_config=False)
    with IOStream.set_default(outer):
        alice.send("to outer", bob, request_reply=False)
        with IOStream.set_default(inner):
            alice.send("to inner", bob, request_reply=False)
        alice.send("outer again", bob, request_reply=False)
    assert "to inner" in inner.output and "to inner" not in outer.output
    assert "to outer" in outer.output and "outer again" in outer.output


@pytest.fixture
def forced_colour(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("ANSI_COLORS_DISABLED", raising=False)
    can_colorize.cache_clear()
    yield
    can_colorize.cache_clear()


def test_colours_on_a_colour_terminal(console: ScriptedIOStream, forced_colour: None) -> None:
    alice = ConversableAgent("alice", llm_config=False, human_input_mode="NEVER")
    bob = ConversableAgent("bob", llm_config=False, human_input_mode="TERMINATE", default_auto_reply="x",
                           max_consecutive_auto_reply=1)
    console.add_inputs("", "exit")
    bob.initiate_chat(alice, message="hi")
    raw = console.raw_output
    assert raw.startswith("\x1b[33mbob\x1b[0m (to alice):\n\nhi\n")  # the sender's name in yellow
    assert "\x1b[31m\n>>>>>>>> USING AUTO REPLY...\x1b[0m" in raw  # notices in red
    assert "\x1b[31m\n>>>>>>>> NO HUMAN INPUT RECEIVED.\x1b[0m" in raw
    assert console.output.startswith("bob (to alice):\n\nhi\n")
