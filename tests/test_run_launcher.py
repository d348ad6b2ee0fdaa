"""Every run form launches its chat through the one ``RunLauncher``: two-agent runs (``run``, ``a_run``,
``run_iter``, ``a_run_iter``) and group runs (``run_group_chat`` and its twins) alike; and the classic path
``autogen.io.run_response`` gives its names by plain imports (no module ``__getattr__``)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from autogen_classic import ConversableAgent
from autogen_classic.agentchat.conversable.runs.launcher import RunLauncher
from autogen_classic.agentchat.group import ContextVariables
from autogen_classic.agentchat.group.multi_agent_chat import (
    a_run_group_chat,
    a_run_group_chat_iter,
    run_group_chat,
    run_group_chat_iter,
)
from autogen_classic.agentchat.group.patterns import DefaultPattern


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """The launcher methods called (the chat never runs): (form, launcher)."""
    calls: list[tuple[str, Any]] = []

    def spy(form: str) -> Any:
        def launch(self: RunLauncher, *args: Any, **kwargs: Any) -> str:
            calls.append((form, self))
            return form

        async def a_launch(self: RunLauncher, *args: Any, **kwargs: Any) -> str:
            return launch(self, *args, **kwargs)

        return a_launch if form == "a_run_here" else launch

    for form in ("run", "a_run", "run_iter", "a_run_iter", "run_here", "a_run_here"):
        monkeypatch.setattr(RunLauncher, form, spy(form))
    return calls


def test_two_agent_runs_go_through_the_launcher(launched: list[tuple[str, Any]]) -> None:
    user = ConversableAgent("user", llm_config=False, human_input_mode="NEVER")
    other = ConversableAgent("other", llm_config=False, human_input_mode="NEVER")
    assert user.run(other, message="hi") == "run"
    assert asyncio.run(user.a_run(other, message="hi")) == "a_run"
    assert user.run_iter(other, message="hi") == "run_iter"
    assert user.a_run_iter(message="hi") == "a_run_iter"
    assert user.run("hi") == "run_here"  # ag2 0.7.3's run(message)
    assert asyncio.run(user.a_run("hi")) == "a_run_here"
    assert [form for form, _ in launched] == ["run", "a_run", "run_iter", "a_run_iter", "run_here", "a_run_here"]
    assert [launcher.agents for _, launcher in launched[:4]] == [[user, other]] * 3 + [[user]]
    assert {launcher.name for _, launcher in launched} == {"autogen-classic-run"}


def test_group_runs_go_through_the_launcher(launched: list[tuple[str, Any]]) -> None:
    alice = ConversableAgent("alice", llm_config=False)
    pattern = DefaultPattern(initial_agent=alice, agents=[alice], context_variables=ContextVariables())
    assert run_group_chat(pattern, "Start") == "run"
    assert asyncio.run(a_run_group_chat(pattern, "Start")) == "a_run"
    assert run_group_chat_iter(pattern, "Start") == "run_iter"
    assert a_run_group_chat_iter(pattern, "Start") == "a_run_iter"
    assert [form for form, _ in launched] == ["run", "a_run", "run_iter", "a_run_iter"]
    assert all(launcher.agents == [alice] and launcher.name == "autogen-classic-group-run" for _, launcher in launched)


def test_the_classic_response_path_imports_its_names() -> None:
    import autogen_classic.io.run_response as classic
    from autogen_classic.io import chat_response, run_iter
    from autogen_classic.tools.tool import Tool

    assert "__getattr__" not in vars(classic)
    assert classic.Tool is Tool and classic.ContextVariables is ContextVariables
    assert classic.RunResponse is chat_response.RunResponse and classic.RunIterResponse is run_iter.RunIterResponse
