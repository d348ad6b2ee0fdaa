"""Manual speaker selection at the console: menu, garbage, EOF, Ctrl-C and the fallbacks."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from autogen_classic import ConversableAgent
from autogen_classic.agentchat.groupchat import GroupChat
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer

PROMPT = "Enter the number of the next speaker (enter nothing or `q` to use auto selection): "
MENU = "Please select the next speaker from the following list:\n1: alice\n2: bob\n3: carol\n"


def agent(name: str, **kwargs: Any) -> ConversableAgent:
    return ConversableAgent(name, llm_config=False, human_input_mode="NEVER", description=f"{name} here", **kwargs)


@pytest.fixture
def group() -> GroupChat:
    return GroupChat(agents=[agent("alice"), agent("bob"), agent("carol")], speaker_selection_method="MANUAL",
                     messages=[{"role": "user", "content": "hello", "name": "alice"}])


def outcomes(gc: GroupChat) -> list[tuple[str, str, str]]:
    return [(a.prompt_role, a.answer, a.outcome) for a in gc.selection_log[-1].attempts]


def test_valid_number_selects(group: GroupChat, console: ScriptedIOStream) -> None:
    console.add_inputs("3")
    assert group.select_speaker(group.agents[0], None).name == "carol"
    assert console.output == MENU + PROMPT + "3\n"
    record = group.selection_log[0]
    assert (record.method, record.chosen, record.reason) == ("manual", "carol", "chosen at the console")
    assert outcomes(group) == [("human", "3", "selected")]


def test_garbage_reprompts_then_a_valid_number(group: GroupChat, console: ScriptedIOStream) -> None:
    console.add_inputs("abc", "2")
    assert group.select_speaker(group.agents[0], None).name == "bob"
    assert console.output == (MENU + PROMPT + "abc\nInvalid input. Please enter a number between 1 and 3.\n"
                              + PROMPT + "2\n")
    assert outcomes(group) == [("human", "abc", "invalid"), ("human", "2", "selected")]


def test_two_invalid_inputs_give_up_like_the_classic_prompt(group: GroupChat, console: ScriptedIOStream) -> None:
    console.add_inputs("0", "9", "2")
    # no model configured: the automatic choice is round robin among the candidates
    assert group.select_speaker(group.agents[0], None).name == "bob"
    assert console.output == (
        MENU + PROMPT + "0\nInvalid input. Please enter a number between 1 and 3.\n"
        + PROMPT + "9\nInvalid input. Please enter a number between 1 and 3.\n"
        "You have tried 3 times. The next speaker will be selected automatically.\n")
    assert console.remaining_inputs == 1
    assert group.selection_log[0].reason == (
        "manual: 2 invalid inputs; round robin after alice (no model for auto selection)")


@pytest.mark.parametrize(("typed", "why"), [("", "empty input"), ("q", "`q` entered"), (" q ", "`q` entered")])
def test_empty_or_q_falls_back(group: GroupChat, console: ScriptedIOStream, typed: str, why: str) -> None:
    console.add_inputs(typed)
    assert group.select_speaker(group.agents[1], None).name == "carol"
    assert group.selection_log[0].reason.startswith(f"manual: {why}; round robin after bob")
    assert outcomes(group) == [("human", typed.strip(), "none")]


def test_eof_falls_back_without_crashing(group: GroupChat, console: ScriptedIOStream) -> None:
    assert group.select_speaker(group.agents[2], None).name == "alice"  # no input scripted: EOF
    assert console.output == MENU + PROMPT
    assert outcomes(group) == [("human", "<EOF>", "none")]
    assert group.selection_log[0].reason.startswith("manual: the console input is closed (EOF)")


def test_ctrl_c_at_the_prompt_falls_back_and_is_recorded(group: GroupChat, console: ScriptedIOStream) -> None:
    console.add_inputs(KeyboardInterrupt)  # type: ignore[arg-type]
    assert group.select_speaker(group.agents[0], None).name == "bob"
    assert outcomes(group) == [("human", "<KeyboardInterrupt>", "none")]
    assert "interrupted (KeyboardInterrupt)" in group.selection_log[0].reason


def test_menu_lists_only_the_candidates(console: ScriptedIOStream) -> None:
    a, b, c = agent("alice"), agent("bob"), agent("carol")
    gc = GroupChat(agents=[a, b, c], speaker_selection_method="manual", allow_repeat_speaker=False)
    console.add_inputs("2")
    assert gc.select_speaker(b, None) is c
    assert console.output.startswith("Please select the next speaker from the following list:\n1: alice\n2: carol\n")
    # a single candidate needs no question
    gc.allow_repeat_speaker = False
    two = GroupChat(agents=[a, b], speaker_selection_method="manual", allow_repeat_speaker=False)
    console.clear()
    assert two.select_speaker(a, None) is b and console.output == ""


def test_manual_select_speaker_method(group: GroupChat, console: ScriptedIOStream) -> None:
    console.add_inputs("x", "1", "")
    assert group.manual_select_speaker().name == "alice"
    assert group.manual_select_speaker(group.agents[1:]) is None
    assert "1: bob\n2: carol\n" in console.output


def test_fallback_uses_auto_selection_when_a_model_is_configured(
    group: GroupChat, console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer
) -> None:
    manager = ConversableAgent("chat_manager", llm_config=scripted_server.llm_config(), human_input_mode="NEVER")
    scripted_server.add_reply("carol")
    console.add_inputs("")
    assert group.select_speaker(group.agents[0], manager).name == "carol"
    assert scripted_server.request_count == 1
    record = group.selection_log[0]
    assert record.method == "manual"
    assert [(a.prompt_role, a.answer, a.outcome) for a in record.attempts] == [
        ("human", "", "none"), ("system", "carol", "selected")]
    assert record.reason == "manual: empty input; auto: the model named carol (attempt 1 of 3)"


def test_async_manual_selection(group: GroupChat, console: ScriptedIOStream) -> None:
    console.add_inputs("nope", "2")
    chosen = asyncio.run(group.a_select_speaker(group.agents[0], None))
    assert chosen.name == "bob" and outcomes(group) == [("human", "nope", "invalid"), ("human", "2", "selected")]
