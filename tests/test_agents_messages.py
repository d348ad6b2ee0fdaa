"""send / receive and the message dicts agents store (checked against the reference, ag2 0.7.3)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from autogen_classic import ConversableAgent
from autogen_classic.testing.io import ScriptedIOStream


def _pair(**bob_kwargs: Any) -> tuple[ConversableAgent, ConversableAgent]:
    alice = ConversableAgent("alice", llm_config=False, human_input_mode="NEVER")
    bob = ConversableAgent("bob", llm_config=False, human_input_mode="NEVER", **bob_kwargs)
    return alice, bob


CALL = {"id": "t1", "type": "function", "function": {"name": "g", "arguments": '{"a": 1}'}}

# (message sent by alice, stored by alice, stored by bob)
CASES: list[tuple[Any, dict[str, Any], dict[str, Any]]] = [
    ("plain", {"content": "plain", "role": "assistant", "name": "alice"},
     {"content": "plain", "role": "user", "name": "alice"}),
    # A "role" other than function/tool is ignored; "override_role" wins on both sides.
    ({"content": "with role", "role": "system"}, {"content": "with role", "role": "assistant", "name": "alice"},
     {"content": "with role", "role": "user", "name": "alice"}),
    ({"content": "override", "override_role": "system"}, {"content": "override", "role": "system", "name": "alice"},
     {"content": "override", "role": "system", "name": "alice"}),
    ({"content": "named", "name": "zed"}, {"content": "named", "name": "zed", "role": "assistant"},
     {"content": "named", "name": "zed", "role": "user"}),
    # Unknown keys are dropped; "context" is kept.
    ({"content": "ctx", "context": {"x": 1}, "extra": "dropped"},
     {"content": "ctx", "context": {"x": 1}, "role": "assistant", "name": "alice"},
     {"content": "ctx", "context": {"x": 1}, "role": "user", "name": "alice"}),
    # A call is always an assistant message without a name; missing content becomes None.
    ({"function_call": {"name": "f", "arguments": "{}"}},
     {"function_call": {"name": "f", "arguments": "{}"}, "content": None, "role": "assistant"},
     {"function_call": {"name": "f", "arguments": "{}"}, "content": None, "role": "assistant"}),
    ({"content": "calling", "tool_calls": [CALL]}, {"content": "calling", "tool_calls": [CALL], "role": "assistant"},
     {"content": "calling", "tool_calls": [CALL], "role": "assistant"}),
    # Tool results keep their role, and their contents become strings.
    ({"role": "tool", "tool_responses": [{"tool_call_id": "t1", "role": "tool", "content": 5}], "content": "5"},
     {"content": "5", "tool_responses": [{"tool_call_id": "t1", "role": "tool", "content": "5"}], "role": "tool",
      "name": "alice"},
     {"content": "5", "tool_responses": [{"tool_call_id": "t1", "role": "tool", "content": "5"}], "role": "tool",
      "name": "alice"}),
    ({"role": "function", "name": "f", "content": "fres"}, {"content": "fres", "name": "f", "role": "function"},
     {"content": "fres", "name": "f", "role": "function"}),
    ({"content": [{"type": "text", "text": "multi"}]},
     {"content": [{"type": "text", "text": "multi"}], "role": "assistant", "name": "alice"},
     {"content": [{"type": "text", "text": "multi"}], "role": "user", "name": "alice"}),
    ({"content": ""}, {"content": "", "role": "assistant", "name": "alice"},
     {"content": "", "role": "user", "name": "alice"}),
]


@pytest.mark.parametrize(("message", "sent", "received"), CASES)
def test_stored_message_dicts(console: ScriptedIOStream, message: Any, sent: dict, received: dict) -> None:
    alice, bob = _pair()
    original = copy.deepcopy(message)
    alice.send(message, bob, request_reply=False)
    assert alice.chat_messages[bob] == [sent]
    assert bob.chat_messages[alice] == [received]
    assert message == original  # the caller's dict is not modified


def test_function_result_that_is_not_text_is_stored_as_text(console: ScriptedIOStream) -> None:
    # Better than the reference, which stores the int and then fails in the termination check.
    alice, bob = _pair()
    alice.send({"role": "function", "name": "add", "content": 3}, bob, request_reply=True)
    assert bob.chat_messages[alice][0] == {"content": "3", "name": "add", "role": "function"}
    assert alice.chat_messages[bob][-1]["content"] == ""  # bob's (empty) default auto reply


@pytest.mark.parametrize("message", [{"role": "user"}, {"name": "x"}, {}, {"content": None}])
def test_message_without_content_or_call_is_rejected_naming_what_it_has(
    console: ScriptedIOStream, message: dict[str, Any]
) -> None:
    alice, bob = _pair()
    with pytest.raises(ValueError) as info:
        alice.send(message, bob)
    text = str(info.value)
    assert text.startswith(
        "Message can't be converted into a valid ChatCompletion message. Either content or function_call must be provided."
    )
    assert "'content'" in text and "'tool_calls'" in text
    with pytest.raises(ValueError, match="^Received message can't be converted into a valid ChatCompletion message"):
        bob.receive(message, alice)
    assert alice.chat_messages[bob] == [] and bob.chat_messages[alice] == []


def test_message_of_wrong_type_is_a_type_error(console: ScriptedIOStream) -> None:
    alice, bob = _pair()
    with pytest.raises(TypeError, match="message must be a str or a dict"):
        alice.send(42, bob)  # type: ignore[arg-type]


def test_request_reply_and_reply_at_receive(console: ScriptedIOStream) -> None:
    alice, bob = _pair(default_auto_reply="auto")
    alice.send("no reply", bob, request_reply=False)
    assert len(alice.chat_messages[bob]) == 1
    alice.send("reply please", bob, request_reply=True)
    assert alice.last_message(bob) == {"content": "auto", "role": "user", "name": "bob"}
    assert bob.last_message(alice) == {"content": "auto", "role": "assistant", "name": "bob"}
    # request_reply=None follows bob.reply_at_receive[alice], False by default outside a chat.
    bob.receive("direct", alice)
    assert bob.last_message(alice)["content"] == "direct"
    bob.reply_at_receive[alice] = True
    bob.receive("now reply", alice)
    assert bob.last_message(alice)["content"] == "auto"
    bob.stop_reply_at_receive(alice)
    assert bob.reply_at_receive[alice] is False
    bob.reply_at_receive[alice] = True
    bob.stop_reply_at_receive()
    assert bob.reply_at_receive[alice] is False


def test_silent_send_prints_nothing_and_agent_silent_overrides(console: ScriptedIOStream) -> None:
    alice, bob = _pair()
    alice.send("quiet", bob, request_reply=False, silent=True)
    assert console.output == ""
    alice.send("loud", bob, request_reply=False)
    assert console.output == "alice (to bob):\n\nloud\n\n" + "-" * 80 + "\n"
    console.clear()
    loud_agent = ConversableAgent("zoe", llm_config=False, silent=False)
    loud_agent.send("shown anyway", bob, request_reply=False, silent=True)
    assert "shown anyway" in console.output
    console.clear()
    quiet_agent = ConversableAgent("quinn", llm_config=False, silent=True)
    quiet_agent.send("never shown", bob, request_reply=False)
    assert console.output == ""


def test_last_message_errors(console: ScriptedIOStream) -> None:
    alice, bob = _pair()
    assert alice.last_message() is None
    alice.send("x", bob, request_reply=False)
    assert alice.last_message() == {"content": "x", "role": "assistant", "name": "alice"}
    ghost = ConversableAgent("ghost", llm_config=False)
    with pytest.raises(KeyError, match="The agent 'ghost' is not present in any conversation. No history available"):
        alice.last_message(ghost)
    carol = ConversableAgent("carol", llm_config=False)
    alice.send("y", carol, request_reply=False)
    with pytest.raises(ValueError, match="More than one conversation is found. Please specify the sender"):
        alice.last_message()


def test_clear_history_all_one_and_preserving(console: ScriptedIOStream) -> None:
    alice, bob = _pair()
    carol = ConversableAgent("carol", llm_config=False)
    for i in range(4):
        alice.send(f"b{i}", bob, request_reply=False)
        alice.send(f"c{i}", carol, request_reply=False)
    console.clear()
    alice.clear_history(bob, nr_messages_to_preserve=2)
    assert alice.chat_messages[bob] == []
    assert console.output == "WARNING: `nr_preserved_messages` is ignored when clearing chat history with a specific agent.\n"
    alice.clear_history(nr_messages_to_preserve=2)
    assert [m["content"] for m in alice.chat_messages[carol]] == ["c2", "c3"]
    assert alice.chat_messages[bob] == []  # shorter than the window: kept as is (the reference raises IndexError)
    alice.clear_history()
    assert dict(alice.chat_messages) == {}


def test_clear_history_keeps_the_tool_call_of_a_kept_tool_response(console: ScriptedIOStream) -> None:
    alice, bob = _pair()
    alice.send("question", bob, request_reply=False)
    alice.send({"content": None, "tool_calls": [CALL]}, bob, request_reply=False)
    alice.send({"role": "tool", "tool_responses": [{"tool_call_id": "t1", "role": "tool", "content": "1"}],
                "content": "1"}, bob, request_reply=False)
    alice.send("after", bob, request_reply=False)
    console.clear()
    alice.clear_history(nr_messages_to_preserve=2)
    assert [m["role"] for m in alice.chat_messages[bob]] == ["assistant", "tool", "assistant"]
    assert console.output == (
        "Preserving one more message for alice to not divide history between tool call and tool response.\n"
    )


def test_process_message_before_send_hook(console: ScriptedIOStream) -> None:
    alice, bob = _pair()
    seen: list[tuple[str, str, bool]] = []

    def shout(sender: ConversableAgent, message: Any, recipient: ConversableAgent, silent: bool) -> Any:
        seen.append((sender.name, recipient.name, silent))
        return message.upper() if isinstance(message, str) else message

    alice.register_hook("process_message_before_send", shout)
    alice.send("hello", bob, request_reply=False)
    assert bob.last_message(alice)["content"] == "HELLO"
    assert seen == [("alice", "bob", False)]
    with pytest.raises(ValueError, match="is not a hookable method"):
        alice.register_hook("no_such_method", shout)
    with pytest.raises(ValueError, match="already registered"):
        alice.register_hook("process_message_before_send", shout)
