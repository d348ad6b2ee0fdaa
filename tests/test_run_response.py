"""``ConversableAgent.run`` / ``a_run`` / ``run_iter`` / ``a_run_iter``, used as AG2 Classic 0.14 code uses them,
and ``run`` as ag2 0.7.3 code used it (its result a ``ChatResult``, or ignored).

The model is the scripted OpenAI-compatible server (``tests/conftest.py``).
"""

from __future__ import annotations

import asyncio
import io
import logging
import threading
from typing import Any, Iterator, List

import pytest

import autogen_classic as autogen
from autogen_classic import ConversableAgent
from autogen_classic.events.agent_events import (
    ErrorEvent,
    InputRequestEvent,
    RunCompletionEvent,
    TerminationEvent,
    TextEvent,
    UsingAutoReplyEvent,
)
from autogen_classic.io.run_response import AsyncRunIterResponse, Cost, RunIterResponse, RunResponse
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer


@pytest.fixture
def printed() -> Iterator[io.StringIO]:
    """What ``ConsoleEventProcessor`` prints: the ``ag2.event.processor`` logger's text, captured."""
    from autogen_classic.logger.logger_utils import EventStreamHandler, get_event_logger

    text = io.StringIO()
    events_logger = get_event_logger()
    handlers = events_logger.handlers[:]
    capture = EventStreamHandler(text)
    capture.setFormatter(logging.Formatter("%(message)s"))
    events_logger.handlers = [capture]
    yield text
    events_logger.handlers = handlers


def _pair(server: ScriptedOpenAIServer, **user: Any) -> tuple[ConversableAgent, ConversableAgent]:
    assistant = ConversableAgent("assistant", llm_config=server.llm_config(), human_input_mode="NEVER")
    user.setdefault("human_input_mode", "NEVER")
    return ConversableAgent("user", llm_config=False, **user), assistant


def _chat_threads() -> List[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("autogen-classic-run")]


# ----------------------------------------------------------------- run: process() and events
def test_process_prints_the_run_and_fills_its_results(scripted_server: ScriptedOpenAIServer,
                                                      printed: io.StringIO) -> None:
    scripted_server.add_replies("Hello!", "Hello again.")
    user, assistant = _pair(scripted_server, default_auto_reply="Go on.")
    response = user.run(assistant, message="Say hello.", max_turns=2)
    assert isinstance(response, RunResponse) and response.summary is None  # nothing ran yet
    response.process()
    text = printed.getvalue()
    assert text.startswith("user (to assistant):\n\nSay hello.\n")
    assert "assistant (to user):\n\nHello again.\n" in text
    assert ">>>>>>>> TERMINATING RUN (" in text and "): Maximum turns (2) reached\n" in text
    assert response.summary == "Hello again." and response.last_speaker == "assistant"
    assert [m["content"] for m in response.messages] == ["Say hello.", "Hello!", "Go on.", "Hello again."]
    assert isinstance(response.cost, Cost) and response.cost.usage_including_cached_inference.total_cost == 0
    assert response.context_variables is None
    assert _chat_threads() == []


def test_events_answer_input_requests(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("An agent acts.", "It uses tools.")
    human, assistant = _pair(scripted_server, human_input_mode="ALWAYS")
    answers = ["Tell me more.", "exit"]
    kinds: List[str] = []
    response = human.run(assistant, message="What is an agent?", max_turns=5)
    for event in response.events:
        kinds.append(type(event).__name__)
        if isinstance(event, InputRequestEvent):
            event.content.respond(answers.pop(0))
            with pytest.raises(RuntimeError, match="already answered"):
                event.content.respond("again")  # each request is answered once
        if isinstance(event, TerminationEvent):
            assert event.content.termination_reason == "User requested to end the conversation"
    assert kinds == ["TextEvent", "TextEvent", "InputRequestEvent", "TextEvent", "TextEvent", "InputRequestEvent",
                     "TerminationEvent", "RunCompletionEvent"]
    assert response.summary == "It uses tools." and answers == []
    assert response.human_input == ["Tell me more.", "exit"]


def test_an_error_of_the_chat_is_an_event_then_raised() -> None:
    def broken(recipient: Any, messages: Any, sender: Any, config: Any) -> tuple[bool, Any]:
        raise RuntimeError("reply function failed")

    mute = ConversableAgent("mute", llm_config=False, human_input_mode="NEVER")
    mute.register_reply([autogen.Agent, None], broken)
    sender = ConversableAgent("sender", llm_config=False, human_input_mode="NEVER")
    seen: List[Any] = []
    with pytest.raises(RuntimeError, match="reply function failed"):
        for event in sender.run(mute, message="hi", max_turns=2).events:
            seen.append(event)
    assert [type(e) for e in seen] == [TextEvent, ErrorEvent]
    assert isinstance(seen[1].content.error, RuntimeError)


def test_a_single_agent_run_with_tools(scripted_server: ScriptedOpenAIServer) -> None:
    from autogen_classic.testing.scripted_server import ScriptedReply
    from autogen_classic.tools import Tool

    scripted_server.add_replies(ScriptedReply(tool_calls=[{"name": "add", "arguments": {"a": 2, "b": 3}}]),
                                "The sum is 5. TERMINATE")

    def add(a: int, b: int) -> int:
        return a + b

    calculator = ConversableAgent("calculator", llm_config=scripted_server.llm_config())
    response = calculator.run(message="2 + 3?", tools=[Tool(func_or_tool=add, name="add", description="Add")])
    events = list(response.events)
    assert response.summary == "The sum is 5. " and response.last_speaker == "calculator"
    assert [m.get("role") for m in response.messages] == ["assistant", "assistant", "tool", "user"]
    assert calculator.run_executor is not None and calculator.run_executor.name == "user"
    assert not (calculator.llm_config.get("tools") or [])  # the tool was offered for this run only
    assert [b["tools"][0]["function"]["name"] for b in scripted_server.requests] == ["add", "add"]
    assert isinstance(events[-2], TerminationEvent)
    assert events[-2].content.termination_reason == "Termination message condition on agent 'user' met"


def test_leaving_the_events_and_coming_back(scripted_server: ScriptedOpenAIServer, printed: io.StringIO) -> None:
    scripted_server.add_replies("One.", "Two.", "Three.", "Four.")
    user, assistant = _pair(scripted_server, default_auto_reply="More.")
    response = user.run(assistant, message="Count.", max_turns=2)
    first = next(iter(response.events))
    assert isinstance(first, TextEvent) and first.content.content == "Count."
    response.process()  # the rest of the events, from where the loop left them
    assert "Count." not in printed.getvalue() and "assistant (to user):\n\nTwo.\n" in printed.getvalue()
    assert response.summary == "Two."

    response = user.run(assistant, message="Again.", max_turns=2)
    for _event in response.events:
        break
    del response  # nobody reads the rest: the chat stops at its next event
    for thread in _chat_threads():
        thread.join(timeout=10)
    assert _chat_threads() == []


# ----------------------------------------------------------------- run_iter
def test_run_iter_yields_on_the_chosen_events_and_stops_on_break(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("One.", "Two.", "Three.", "Four.")
    user, assistant = _pair(scripted_server, default_auto_reply="More.")
    iteration = user.run_iter(assistant, message="Count.", max_turns=4, yield_on=[TextEvent])
    assert isinstance(iteration, RunIterResponse)
    seen = []
    for event in iteration:
        seen.append((event.content.sender, event.content.content))
        if len(seen) == 2:
            break
    assert seen == [("user", "Count."), ("assistant", "One.")]
    assert _chat_threads() == []  # the chat's thread is gone
    assert scripted_server.request_count == 1  # and it ran no further
    assert iteration.summary is None and list(iteration.messages) == []


def test_run_iter_to_the_end_and_input_requests_always_come(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("Hi.", "Bye.")
    human, assistant = _pair(scripted_server, human_input_mode="ALWAYS")
    kinds = []
    for event in human.run_iter(assistant, message="Hello.", max_turns=3, yield_on=[TerminationEvent]):
        kinds.append(type(event).__name__)
        if isinstance(event, InputRequestEvent):
            event.content.respond("" if kinds.count("InputRequestEvent") == 1 else "exit")
    assert kinds == ["InputRequestEvent", "InputRequestEvent", "TerminationEvent"]

    scripted_server.add_replies("Only.")
    user, assistant = _pair(scripted_server)
    iteration = user.run_iter(assistant, message="Once.", max_turns=1, yield_on=UsingAutoReplyEvent)
    assert list(iteration) == []  # a single class is taken as a list of one; the NEVER agents do not announce
    assert iteration.summary == "Only." and iteration.last_speaker == "assistant"
    assert iteration.cost["usage_including_cached_inference"]["total_cost"] == 0


@pytest.mark.parametrize(
    ("yield_on", "message"),
    [
        (["TextEvent"], "got 'TextEvent' (str). Pass the class itself, e.g. TextEvent"),
        ([TextEvent, None], "got None (NoneType)"),
        ("TextEvent", "yield_on must be a list of event classes"),
        (42, "yield_on must be a list of event classes"),
    ],
)
def test_run_iter_rejects_what_is_not_an_event_class(yield_on: Any, message: str) -> None:
    agent = ConversableAgent("agent", llm_config=False)
    with pytest.raises(TypeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        agent.run_iter(message="hi", yield_on=yield_on)


def test_bad_run_arguments_are_named() -> None:
    agent = ConversableAgent("agent", llm_config=False)
    with pytest.raises(TypeError, match="got 42 \\(int\\)"):
        agent.run(42)
    with pytest.raises(TypeError, match="got the message twice"):
        agent.run("hi", message="hello")
    with pytest.raises(ValueError, match='msg_to must be "agent"'):
        agent.run(message="hi", msg_to="assistant")


# ----------------------------------------------------------------- the async twins
def test_a_run_and_a_run_iter(scripted_server: ScriptedOpenAIServer, printed: io.StringIO) -> None:
    scripted_server.add_replies("A1.", "B1.", "C1.", "C2.", "C3.")

    async def main() -> None:
        user, assistant = _pair(scripted_server)
        response = await user.a_run(assistant, message="go", max_turns=1)
        assert await response.summary is None
        kinds = [type(event).__name__ async for event in response.events]
        assert kinds == ["TextEvent", "TextEvent", "TerminationEvent", "RunCompletionEvent"]
        assert await response.summary == "A1." and await response.last_speaker == "assistant"
        assert (await response.cost)["usage_including_cached_inference"]["total_cost"] == 0

        response = await user.a_run(assistant, message="again", max_turns=1)
        await response.process()
        assert "assistant (to user):\n\nB1.\n" in printed.getvalue() and await response.summary == "B1."

        iteration = user.a_run_iter(assistant, message="count", max_turns=3, yield_on=[TextEvent])
        assert isinstance(iteration, AsyncRunIterResponse)
        seen = []
        async with iteration:
            async for event in iteration:
                seen.append(event.content.content)
                if len(seen) == 2:
                    break
        assert seen == ["count", "C1."]
        assert _chat_threads() == []

    asyncio.run(main())
    assert scripted_server.pending_replies == 2  # the stepped chat stopped at the break


def test_a_run_answers_input_requests_with_an_awaitable_respond(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("Hi there.")

    async def main() -> List[str]:
        helper = ConversableAgent("helper", llm_config=scripted_server.llm_config(), human_input_mode="NEVER")
        response = await helper.a_run(message="hello", user_input=True, max_turns=3)
        kinds = []
        async for event in response.events:
            kinds.append(type(event).__name__)
            if isinstance(event, InputRequestEvent):
                await event.content.respond("exit")  # awaited, as AsyncConsoleEventProcessor does
        return kinds

    assert asyncio.run(main()) == ["TextEvent", "TextEvent", "InputRequestEvent", "TerminationEvent",
                                   "RunCompletionEvent"]


# ----------------------------------------------------------------- ag2 0.7.3 code
def test_073_run_returns_what_a_chat_result_gave(scripted_server: ScriptedOpenAIServer,
                                                 capsys: pytest.CaptureFixture) -> None:
    scripted_server.add_replies("4. TERMINATE")
    assistant = ConversableAgent("assistant", llm_config=scripted_server.llm_config())
    result = assistant.run("What is 2 + 2?", max_turns=1, user_input=False)
    out = capsys.readouterr().out
    assert "user (to assistant):\n\nWhat is 2 + 2?\n" in out and "4. TERMINATE" in out  # printed as it ran
    assert result.summary == "4. "
    assert [(m["name"], m["content"]) for m in result.chat_history] == [
        ("user", "What is 2 + 2?"), ("assistant", "4. TERMINATE")]
    assert sorted(result.cost) == ["usage_excluding_cached_inference", "usage_including_cached_inference"]
    assert result.cost["usage_including_cached_inference"]["total_cost"] == 0
    assert result.human_input == [] and result.chat_id is None
    assert list(result.events) == []  # its events were printed already


def test_073_run_asks_the_console_by_default(console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer) -> None:
    console.add_inputs("exit")
    scripted_server.add_replies("Hello!")
    assistant = ConversableAgent("assistant", llm_config=scripted_server.llm_config())
    result = assistant.run("hi")  # 0.7.3's defaults: the user is asked on every turn
    assert result.human_input == ["exit"] and result.summary == "Hello!"


def test_073_an_ignored_run_still_chats_and_prints(scripted_server: ScriptedOpenAIServer,
                                                   capsys: pytest.CaptureFixture) -> None:
    scripted_server.add_replies("First. TERMINATE", "Second. TERMINATE")
    assistant = ConversableAgent("assistant", llm_config=scripted_server.llm_config())
    assistant.run(message="one", max_turns=1)  # the response is dropped: the chat runs now
    assert [m["content"] for m in assistant.chat_messages[assistant.run_executor]] == ["one", "First. TERMINATE"]
    assistant.run("two", max_turns=1, user_input=False)
    out = capsys.readouterr().out
    assert "user (to assistant):\n\none\n" in out and "user (to assistant):\n\ntwo\n" in out
    assert scripted_server.request_count == 2


def test_073_reading_a_result_before_the_events_runs_the_chat(scripted_server: ScriptedOpenAIServer,
                                                              capsys: pytest.CaptureFixture) -> None:
    scripted_server.add_replies("Done. TERMINATE", "Other.")
    assistant = ConversableAgent("assistant", llm_config=scripted_server.llm_config())
    response = assistant.run(message="task", max_turns=1)
    assert response.summary == "Done. "  # no recipient: a call 0.7.3 code makes, so the chat runs on first read
    assert "user (to assistant):\n\ntask\n" in capsys.readouterr().out
    assert response.chat_history[-1]["content"] == "Done. TERMINATE"

    user, other = _pair(scripted_server)
    response = user.run(other, message="task", max_turns=1)
    assert response.summary is None  # with a recipient, as 0.14.1: nothing until the events are consumed
    assert response.chat_history[-1]["content"] == "Other."  # 0.7.3's name runs it to its end
    assert isinstance(list(user.chat_messages.values())[0][0], dict)


def test_073_a_run_returns_a_finished_response(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("first answer", "second answer")

    async def main() -> Any:
        assistant = ConversableAgent("assistant", llm_config=scripted_server.llm_config())
        result = await assistant.a_run("hello", user_input=False, max_turns=2)
        assert await result.summary == "second answer"  # awaited, as 0.14 code reads it
        return result

    result = asyncio.run(main())
    assert result.summary == "second answer"  # and read directly, as 0.7.3 code did
    assert result.chat_history[-1]["content"] == "second answer"

