"""Human input through the console stream: ALWAYS / TERMINATE / NEVER, exit, empty input, EOF, exact prompts.

Prompts, transcripts and printed text match the reference (ag2 0.7.3; with AG2 Classic 0.14.1's
``TERMINATING RUN`` line where a chat ends) on the same scripted input; EOF is the one deliberate difference
(the reference lets EOFError escape; here it counts as "exit").
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from autogen_classic import AssistantAgent, ConversableAgent, UserProxyAgent
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply
from console_masks import mask_run_ids

SEP = "-" * 80
ALWAYS_PROMPT = (
    "Replying as bob. Provide feedback to alice. Press enter to skip and use auto-reply, "
    "or type 'exit' to end the conversation: "
)
BUDGET_PROMPT = (
    "Please give feedback to alice. Press enter to skip and use auto-reply, or type 'exit' to stop the conversation: "
)
TERMINATE_PROMPT = "Please give feedback to alice. Press enter or type 'exit' to stop the conversation: "
NO_INPUT = "\n>>>>>>>> NO HUMAN INPUT RECEIVED.\n"
AUTO = "\n>>>>>>>> USING AUTO REPLY...\n"


def _ended(reason: str) -> str:
    return f"\n>>>>>>>> TERMINATING RUN (ID): {reason}\n"


def _said(sender: str, recipient: str, text: str) -> str:
    return f"{sender} (to {recipient}):\n\n{text}\n\n{SEP}\n"


def _alice(reply: str = "auto-a", **kwargs: Any) -> ConversableAgent:
    return ConversableAgent("alice", llm_config=False, human_input_mode="NEVER", default_auto_reply=reply, **kwargs)


def _bob(mode: str, **kwargs: Any) -> ConversableAgent:
    return ConversableAgent("bob", llm_config=False, human_input_mode=mode, default_auto_reply="auto-b", **kwargs)


def _contents(history: list[dict[str, Any]]) -> list[Any]:
    return [m["content"] for m in history]


def test_always_empty_input_auto_replies_text_is_sent_exit_ends(console: ScriptedIOStream) -> None:
    console.add_inputs("", "fine", "exit")
    alice, bob = _alice(max_consecutive_auto_reply=3), _bob("ALWAYS")
    result = bob.initiate_chat(alice, message="hi")
    assert _contents(result.chat_history) == ["hi", "auto-a", "auto-b", "auto-a", "fine", "auto-a"]
    assert result.human_input == ["", "fine", "exit"]
    assert result.summary == "auto-a"
    assert console.prompts == [ALWAYS_PROMPT] * 3
    assert mask_run_ids(console.output) == (
        _said("bob", "alice", "hi") + _said("alice", "bob", "auto-a")
        + ALWAYS_PROMPT + "\n" + NO_INPUT + AUTO + _said("bob", "alice", "auto-b") + _said("alice", "bob", "auto-a")
        + ALWAYS_PROMPT + "fine\n" + _said("bob", "alice", "fine") + _said("alice", "bob", "auto-a")
        + ALWAYS_PROMPT + "exit\n" + _ended("User requested to end the conversation")
    )


def test_terminate_mode_asks_when_the_auto_reply_budget_is_spent(console: ScriptedIOStream) -> None:
    console.add_inputs("", "hello", "", "exit")
    alice, bob = _alice(), _bob("TERMINATE", max_consecutive_auto_reply=2)
    result = bob.initiate_chat(alice, message="hi")
    # Two auto replies, then a prompt; empty input keeps auto-replying (and asking); text resets the budget.
    assert _contents(result.chat_history) == [
        "hi", "auto-a", "auto-b", "auto-a", "auto-b", "auto-a", "auto-b", "auto-a", "hello", "auto-a",
        "auto-b", "auto-a", "auto-b", "auto-a", "auto-b", "auto-a",
    ]
    assert console.prompts == [BUDGET_PROMPT] * 4
    assert result.human_input == ["", "hello", "", "exit"]
    assert bob._consecutive_auto_reply_counter[alice] == 0  # reset by "exit"
    assert console.output.count(AUTO) == 6
    assert console.output.count(NO_INPUT) == 2


def test_terminate_mode_on_a_termination_message(console: ScriptedIOStream) -> None:
    console.add_inputs("")
    alice, bob = _alice("TERMINATE"), _bob("TERMINATE")
    result = bob.initiate_chat(alice, message="hi")
    assert _contents(result.chat_history) == ["hi", "TERMINATE"]
    assert console.prompts == [TERMINATE_PROMPT]
    assert mask_run_ids(console.output).endswith(
        _said("alice", "bob", "TERMINATE") + TERMINATE_PROMPT + "\n" + NO_INPUT
        + _ended("Termination message condition on agent 'bob' met and no human input provided")
    )
    assert result.human_input == [""]


def test_terminate_mode_text_at_termination_continues(console: ScriptedIOStream) -> None:
    console.add_inputs("one more thing", "")
    alice, bob = _alice("TERMINATE"), _bob("TERMINATE")
    result = bob.initiate_chat(alice, message="hi")
    assert _contents(result.chat_history) == ["hi", "TERMINATE", "one more thing", "TERMINATE"]
    assert console.prompts == [TERMINATE_PROMPT] * 2


def test_always_mode_empty_input_on_termination_message_ends(console: ScriptedIOStream) -> None:
    console.add_inputs("")
    alice, bob = _alice("TERMINATE"), _bob("ALWAYS")
    result = bob.initiate_chat(alice, message="hi")
    assert _contents(result.chat_history) == ["hi", "TERMINATE"]
    assert console.prompts == [ALWAYS_PROMPT]


def test_never_mode_never_asks(console: ScriptedIOStream) -> None:
    alice, bob = _alice(), _bob("NEVER", max_consecutive_auto_reply=2)
    result = bob.initiate_chat(alice, message="hi")
    assert _contents(result.chat_history) == ["hi", "auto-a", "auto-b", "auto-a", "auto-b", "auto-a"]
    assert console.prompts == []
    assert AUTO not in console.output  # NEVER mode auto-replies silently
    assert result.human_input == []


def test_never_mode_stops_at_termination_message(console: ScriptedIOStream) -> None:
    alice, bob = _alice("TERMINATE"), _bob("NEVER")
    result = bob.initiate_chat(alice, message="hi")
    assert _contents(result.chat_history) == ["hi", "TERMINATE"]
    assert console.prompts == []


def test_custom_termination_check(console: ScriptedIOStream) -> None:
    alice = _alice("all done")
    bob = _bob("NEVER", is_termination_msg=lambda message: "done" in (message.get("content") or ""))
    result = bob.initiate_chat(alice, message="hi")
    assert _contents(result.chat_history) == ["hi", "all done"]


def test_zero_auto_replies_with_empty_input_sends_empty_message(console: ScriptedIOStream) -> None:
    console.add_inputs("", "exit")
    alice, bob = _alice(), _bob("TERMINATE", max_consecutive_auto_reply=0)
    result = bob.initiate_chat(alice, message="hi")
    assert _contents(result.chat_history) == ["hi", "auto-a", "", "auto-a"]
    assert console.prompts == [BUDGET_PROMPT] * 2


def test_eof_counts_as_exit(console: ScriptedIOStream) -> None:
    # Deliberate difference: the reference lets EOFError escape from the chat.
    alice, bob = _alice(), _bob("ALWAYS")
    result = bob.initiate_chat(alice, message="hi")
    assert _contents(result.chat_history) == ["hi", "auto-a"]
    assert result.human_input == ["exit"]
    assert console.prompts == [ALWAYS_PROMPT]


def test_no_first_message_prompts_with_chevron(console: ScriptedIOStream) -> None:
    console.add_inputs("start")
    alice, bob = _alice(), _bob("ALWAYS")
    result = bob.initiate_chat(alice, max_turns=1)
    assert console.prompts == [">"]
    assert console.output.startswith(">start\n" + _said("bob", "alice", "start"))
    assert _contents(result.chat_history) == ["start", "auto-a"]
    assert result.human_input == ["start"]


def test_typed_reply_to_a_tool_call_interrupts_it(
    console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer
) -> None:
    scripted_server.add_replies(
        ScriptedReply(tool_calls=[{"name": "add", "arguments": {"a": 2, "b": 3}, "id": "c1"}]), "ok TERMINATE"
    )
    console.add_inputs("stop that")
    alice = AssistantAgent("alice", llm_config=scripted_server.llm_config())
    bob = UserProxyAgent("bob", human_input_mode="ALWAYS", code_execution_config=False)
    executed: list[int] = []

    @bob.register_for_execution()
    @alice.register_for_llm(description="Add two numbers")
    def add(a: int, b: int) -> int:
        executed.append(a + b)
        return a + b

    result = bob.initiate_chat(alice, message="add", max_turns=2)
    assert executed == []
    assert result.chat_history[2] == {
        "content": "stop that",
        "tool_responses": [{"role": "tool", "tool_call_id": "c1", "content": "USER INTERRUPTED"}],
        "role": "assistant",
        "name": "bob",
    }
    assert scripted_server.requests[1]["messages"][-2:] == [
        {"role": "tool", "tool_call_id": "c1", "content": "USER INTERRUPTED"},
        {"content": "stop that", "role": "user", "name": "bob"},
    ]
    assert result.human_input == ["stop that"]


def test_async_chat_asks_through_the_same_stream(console: ScriptedIOStream) -> None:
    console.add_inputs("", "fine", "exit")
    alice, bob = _alice(max_consecutive_auto_reply=3), _bob("ALWAYS")
    result = asyncio.run(bob.a_initiate_chat(alice, message="hi"))
    assert _contents(result.chat_history) == ["hi", "auto-a", "auto-b", "auto-a", "fine", "auto-a"]
    assert console.prompts == [ALWAYS_PROMPT] * 3
    assert result.human_input == ["", "fine", "exit"]


@pytest.mark.parametrize("mode", ["ALWAYS", "TERMINATE"])
def test_user_proxy_defaults_to_asking(console: ScriptedIOStream, mode: str) -> None:
    console.add_inputs("exit")
    alice = _alice("TERMINATE")
    proxy = UserProxyAgent("bob", human_input_mode=mode, code_execution_config=False)
    proxy.initiate_chat(alice, message="hi")
    assert len(console.prompts) == 1
