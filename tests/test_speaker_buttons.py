"""SpeakerButtons: a run followed on its own thread, each manual selection answered by a button click."""

from __future__ import annotations

import builtins
import sys
from typing import Any

import pytest

import autogen_classic as autogen
from autogen_classic.agentchat.groupchat import GroupChat, GroupChatManager
from autogen_classic.agentchat.groupchat.selection.manual import ENDED_AT_KEYBOARD

widgets = pytest.importorskip("ipywidgets", reason="ipywidgets is in the test extras; without it there are no buttons")

from autogen_classic.io.widgets import SpeakerButtons, question_html  # noqa: E402


def agent(name: str, description: str, **kwargs: Any) -> autogen.ConversableAgent:
    kwargs.setdefault("human_input_mode", "NEVER")
    return autogen.ConversableAgent(name, llm_config=False, default_auto_reply=f"{name} here",
                                    description=description, **kwargs)


def team(max_round: int = 4) -> tuple[list[Any], GroupChat, GroupChatManager]:
    people = [agent("planner", "Plans the work first."), agent("coder", "Writes the code."),
              agent("critic", "Reviews the code.")]
    gc = GroupChat(agents=people, speaker_selection_method="manual", max_round=max_round, allow_repeat_speaker=False)
    return people, gc, GroupChatManager(gc, llm_config=False)


def labels(panel: SpeakerButtons) -> list[str]:
    return [child.description for child in panel.choices.children]


def test_buttons_come_from_the_decision_and_a_click_answers_with_the_name() -> None:
    people, gc, manager = team()
    panel = SpeakerButtons(people[0].run(manager, message="Critic, please review the plan."))
    choice = panel.wait_for_question()
    assert choice is not None and [c["name"] for c in choice["candidates"]] == ["coder", "critic"]
    # One button per candidate, the suggestion highlighted, the description as the tooltip; then auto and end.
    assert labels(panel) == ["coder", "critic", "Auto", "End the chat"]
    assert panel.buttons["critic"].button_style == "success" and panel.buttons["coder"].button_style == ""
    assert panel.buttons["coder"].tooltip == "Writes the code."
    assert "Suggested: <b>critic</b>" in panel.status.value
    assert "Not allowed: planner (spoke last" in panel.status.value

    panel.buttons["critic"].click()
    assert panel.answers == ["critic"] and panel.buttons == {}
    second = panel.wait_for_question()
    assert second is not None and second["last_speaker"] == "critic"
    assert labels(panel) == ["planner", "coder", "Auto", "End the chat"]
    panel.buttons["coder"].click()
    assert panel.wait_for_question() is not None
    panel.choices.children[-1].click()  # "End the chat"

    response = panel.wait()
    assert panel.finished and panel.answers == ["critic", "coder", "x"]
    assert [m["name"] for m in gc.messages] == ["planner", "critic", "coder"]
    assert manager.end_reason == ENDED_AT_KEYBOARD
    assert [m["content"] for m in response.messages][-1] == "coder here"
    # The trace says the first pick followed the suggestion; the chat text was kept as the console shows it.
    assert gc.selection_log[0].manual.picked == "critic" and gc.selection_log[0].manual.followed is True
    assert any("critic (to chat_manager):" in text for text in panel.printed)
    assert panel.wait_for_question() is None


def test_auto_lets_automatic_selection_choose() -> None:
    people, gc, manager = team(max_round=2)
    panel = SpeakerButtons(people[0].run(manager, message="Go on."))
    panel.wait_for_question()
    panel.choices.children[-2].click()  # "Auto"
    panel.wait()
    assert panel.answers == [""]
    assert [m["name"] for m in gc.messages] == ["planner", "coder"]  # no model: auto falls back to round robin
    assert gc.selection_log[0].manual.picked is None


def test_a_plain_input_request_gets_a_text_box() -> None:
    human = agent("human", "A person.", human_input_mode="ALWAYS")
    other = agent("other", "Answers.")
    panel = SpeakerButtons(human.run(other, message="hi", max_turns=2))
    assert panel.wait_for_question() == {}
    text, send = panel.choices.children
    assert isinstance(text, widgets.Text) and send.description == "Send"
    text.value = "exit"
    send.click()
    panel.wait()
    assert panel.answers == ["exit"] and panel.questions == [None]


def test_choose_without_a_question_is_a_clear_error() -> None:
    people, gc, manager = team(max_round=2)
    panel = SpeakerButtons(people[0].run(manager, message="Go on."))
    panel.wait_for_question()
    panel.choose("coder")
    with pytest.raises(RuntimeError, match="No question is waiting"):
        panel.choose("coder")
    panel.wait()
    assert [m["name"] for m in gc.messages] == ["planner", "coder"]


def test_a_failing_run_is_raised_by_wait() -> None:
    class Broken:
        @property
        def events(self) -> Any:
            raise ValueError("the run could not start")

    panel = SpeakerButtons(Broken())
    with pytest.raises(ValueError, match="could not start"):
        panel.wait()
    assert panel.finished and "The run failed: ValueError" in panel.printed[-1]


def test_an_async_run_is_refused_with_the_fix() -> None:
    import asyncio

    async def main() -> None:
        people, gc, manager = team(max_round=2)
        response = await people[0].a_run(manager, message="Go on.")
        with pytest.raises(TypeError, match=r"Use run\(\) here"):
            SpeakerButtons(response)
        async for event in response.events:  # the async chat is not harmed: it runs to its end
            if event.type == "input_request":
                await event.content.respond("coder")
        assert [m["name"] for m in gc.messages] == ["planner", "coder"]

    asyncio.run(main())


def test_the_question_html_escapes_names_and_reasons() -> None:
    text = question_html({"suggestion": {"name": "<b>", "rule": "addressed", "reason": "a & b"},
                          "excluded": [{"name": "x<y", "by": "repeat_rule", "why": "it spoke"}]})
    assert "&lt;b&gt;" in text and "a &amp; b" in text and "x&lt;y" in text


def test_without_ipywidgets_the_error_names_the_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_ipywidgets(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "ipywidgets":
            raise ImportError("No module named 'ipywidgets'")
        return real_import(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "ipywidgets")
    monkeypatch.setattr(builtins, "__import__", no_ipywidgets)
    with pytest.raises(ImportError, match=r"pip install ipywidgets"):
        SpeakerButtons(object())


def test_a_manual_pattern_run_is_answered_by_buttons_too() -> None:
    from autogen_classic.agentchat import run_group_chat
    from autogen_classic.agentchat.group.patterns import ManualPattern

    members = [agent(n, f"The {n}.") for n in ("a", "b", "c")]
    response = run_group_chat(pattern=ManualPattern(initial_agent=members[0], agents=members), messages="Go",
                              max_rounds=4)
    panel = SpeakerButtons(response)
    choice = panel.wait_for_question()
    assert choice is not None and {"a", "b", "c"} <= set(panel.buttons)
    panel.buttons["c"].click()
    assert panel.wait_for_question() is not None
    panel.choose("x")
    panel.wait()
    assert panel.answers == ["c", "x"] and response.summary == "c here"
    assert any("TERMINATING RUN" in text for text in panel.printed)  # 0.14's patterns print why the run ended
