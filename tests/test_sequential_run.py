"""``ConversableAgent.sequential_run`` / ``a_sequential_run`` (AG2 Classic 0.14): a chat queue, one response per chat.

Used as 0.14 code uses them: a subclass of the agent, deep imports, each response's events read (or printed
with ``process()``), the results read after. The model is the scripted OpenAI-compatible server
(``tests/conftest.py``); what reached the model is read from the request bodies it recorded.
"""

from __future__ import annotations

import asyncio
import io
import logging
import threading
import warnings
from typing import Any, Dict, Iterator, List

import pytest

from autogen_classic.agentchat.conversable_agent import ConversableAgent
from autogen_classic.events.agent_events import (
    InputRequestEvent,
    PostCarryoverProcessingEvent,
    RunCompletionEvent,
    TerminationEvent,
    TextEvent,
    UsingAutoReplyEvent,
)
from autogen_classic.exception_utils import InvalidArgumentTypeError, InvalidCarryOverTypeError
from autogen_classic.io.run_response import AsyncRunResponse, Cost, RunResponse
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer

ONE_CHAT = ["PostCarryoverProcessingEvent", "TextEvent", "UsingAutoReplyEvent", "TextEvent", "TerminationEvent",
            "RunCompletionEvent"]


class Planner(ConversableAgent):
    """The kind of subclass 0.14 code runs its queues from."""

    def __init__(self, name: str = "user", **kwargs: Any) -> None:
        kwargs.setdefault("human_input_mode", "NEVER")
        super().__init__(name, llm_config=False, **kwargs)


@pytest.fixture(autouse=True)
def _quiet_repeats() -> Iterator[None]:
    # Queues that reuse a recipient warn, as classic AutoGen does; not the subject here.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Repetitive recipients detected")
        yield


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


def _model(server: ScriptedOpenAIServer, name: str, system: str) -> ConversableAgent:
    # The default human_input_mode ("TERMINATE"): each model reply is preceded by a UsingAutoReplyEvent.
    return ConversableAgent(name, system_message=system, llm_config=server.llm_config())


def _sent(server: ScriptedOpenAIServer) -> List[str]:
    """The last message of every request the model received: what each chat asked."""
    return [body["messages"][-1]["content"] for body in server.requests]


def _kinds(events: Any) -> List[str]:
    return [type(event).__name__ for event in events]


def _sequence_threads() -> List[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "autogen-classic-sequential-run"]


def _wait_for_threads() -> None:
    for thread in _sequence_threads():
        thread.join(timeout=30)


# ----------------------------------------------------------------- the sync queue
def test_two_chats_one_response_each_with_carryover(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("Reply 1.", "Reply 2.")
    assistant = _model(scripted_server, "assistant", "You answer briefly.")
    writer = _model(scripted_server, "writer", "You write.")
    user = Planner()
    queue: List[Dict[str, Any]] = [
        {"recipient": assistant, "message": "First task.", "max_turns": 1, "summary_method": "last_msg"},
        {"recipient": writer, "message": "Second task.", "max_turns": 1, "carryover": "Given context."},
    ]
    responses = user.sequential_run(queue)
    assert isinstance(responses, list) and len(responses) == 2
    assert all(isinstance(response, RunResponse) for response in responses)

    events = [list(response.events) for response in responses]
    assert [_kinds(e) for e in events] == [ONE_CHAT, ONE_CHAT]
    first_banner, second_banner = events[0][0], events[1][0]
    assert isinstance(first_banner, PostCarryoverProcessingEvent)
    assert first_banner.content.carryover == [] and first_banner.content.summary_method == "last_msg"
    assert second_banner.content.carryover == ["Given context.", "Reply 1."]
    assert second_banner.content.summary_method == ""  # not given in the entry, as 0.14.1 shows it
    assert (second_banner.content.sender, second_banner.content.recipient) == ("user", "writer")
    assert events[1][1].content.content == "Second task.\nContext: \nGiven context.\nReply 1."

    # What the second model was asked: its message with the carryover, the first chat's summary last.
    assert _sent(scripted_server) == ["First task.", "Second task.\nContext: \nGiven context.\nReply 1."]
    assert scripted_server.requests[1]["messages"][0] == {"content": "You write.", "role": "system"}

    first, second = responses
    assert (first.summary, second.summary) == ("Reply 1.", "Reply 2.")
    assert [m["content"] for m in first.messages] == ["First task.", "Reply 1."]
    assert [m["content"] for m in second.messages] == ["Second task.\nContext: \nGiven context.\nReply 1.", "Reply 2."]
    assert (first.last_speaker, second.last_speaker) == ("assistant", "writer")
    assert isinstance(first.cost, Cost) and sorted(first.cost.usage_including_cached_inference.models) == [
        "scripted-model"
    ]
    assert first.context_variables is None
    assert [a.name for a in first.agents] == ["user", "assistant"]
    completion = events[1][-1]
    assert isinstance(completion, RunCompletionEvent) and completion.content.summary == "Reply 2."
    # The queue itself is left as it was given.
    assert "sender" not in queue[0] and queue[1]["carryover"] == "Given context."
    _wait_for_threads()
    assert _sequence_threads() == []


def test_three_chats_other_sender_silent_list_carryover_and_excluded_index(
    scripted_server: ScriptedOpenAIServer,
) -> None:
    scripted_server.add_replies("Reply 1.", "Reply 2.", "Reply 3.")
    assistant = _model(scripted_server, "assistant", "You answer briefly.")
    writer = _model(scripted_server, "writer", "You write.")
    user = Planner()
    responses = user.sequential_run([
        {"recipient": assistant, "message": "A.", "max_turns": 1},
        {"sender": writer, "recipient": assistant, "message": "B.", "max_turns": 1, "silent": True},
        {"recipient": writer, "message": "C.", "max_turns": 1, "carryover": ["x", {"content": "y"}],
         "finished_chat_indexes_to_exclude_from_carryover": [0]},
    ])
    kinds = []
    for response in responses:
        kinds.append(_kinds(response.events))
    # A silent chat shows no banner and no messages.
    assert kinds == [ONE_CHAT, ["UsingAutoReplyEvent", "TerminationEvent", "RunCompletionEvent"], ONE_CHAT]
    assert _sent(scripted_server) == ["A.", "B.\nContext: \nReply 1.", "C.\nContext: \nx\ny\nReply 2."]
    assert scripted_server.requests[1]["messages"][-1]["name"] == "writer"  # chat 1 came from its own sender
    assert [r.summary for r in responses] == ["Reply 1.", "Reply 2.", "Reply 3."]
    assert [r.last_speaker for r in responses] == ["assistant", "assistant", "writer"]
    assert [a.name for a in responses[1].agents] == ["writer", "assistant"]


def test_process_prints_each_chat_with_its_banner(scripted_server: ScriptedOpenAIServer, printed: io.StringIO) -> None:
    scripted_server.add_replies("Reply 1.", "Reply 2.")
    assistant = _model(scripted_server, "assistant", "You answer briefly.")
    user = Planner()
    responses = user.sequential_run([
        {"recipient": assistant, "message": "One.", "max_turns": 1},
        {"recipient": assistant, "message": "Two.", "max_turns": 1, "verbose": True},
    ])
    for response in responses:
        response.process()
        assert response.summary is not None
    text = printed.getvalue()
    assert text.count("Starting a new chat....") == 2
    assert "Carryover:\nReply 1.\n" in text  # the verbose banner of the second chat
    assert "user (to assistant):\n\nTwo.\nContext: \nReply 1.\n" in text
    assert [r.summary for r in responses] == ["Reply 1.", "Reply 2."]


def test_the_later_responses_can_be_read_first(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("Reply 1.", "Reply 2.")
    assistant = _model(scripted_server, "assistant", "You answer briefly.")
    responses = Planner().sequential_run([
        {"recipient": assistant, "message": "One.", "max_turns": 1},
        {"recipient": assistant, "message": "Two.", "max_turns": 1},
    ])
    # Only the last chat's events are read: the chats before it still run, and their results come after.
    assert _kinds(responses[1].events) == ONE_CHAT
    assert responses[1].summary == "Reply 2."
    assert _sent(scripted_server) == ["One.", "Two.\nContext: \nReply 1."]
    assert _kinds(responses[0].events) == ONE_CHAT and responses[0].summary == "Reply 1."


def test_human_input_of_a_chat_is_asked_on_its_own_response(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("Reply 1.", "Reply 2.")
    assistant = _model(scripted_server, "assistant", "You answer briefly.")
    human = Planner("human", human_input_mode="ALWAYS")
    responses = human.sequential_run([
        {"recipient": assistant, "message": "One.", "max_turns": 2},
        {"recipient": assistant, "message": "Two.", "max_turns": 1},
    ])
    kinds = []
    for event in responses[0].events:
        kinds.append(type(event).__name__)
        if isinstance(event, InputRequestEvent):
            event.content.respond("exit")
    assert "InputRequestEvent" in kinds and kinds[-1] == "RunCompletionEvent"
    assert responses[0].human_input == ["exit"]
    assert responses[0].summary == "Reply 1."
    for event in responses[1].events:
        if isinstance(event, InputRequestEvent):
            event.content.respond("exit")
    assert responses[1].summary == "Reply 2."
    assert _sent(scripted_server) == ["One.", "Two.\nContext: \nReply 1."]


# ----------------------------------------------------------------- leaving a response early
def test_breaking_out_of_an_early_response_lets_the_later_chats_run(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("Reply 1.", "Reply 2.")
    assistant = _model(scripted_server, "assistant", "You answer briefly.")
    writer = _model(scripted_server, "writer", "You write.")
    responses = Planner().sequential_run([
        {"recipient": assistant, "message": "One.", "max_turns": 1},
        {"recipient": writer, "message": "Two.", "max_turns": 1},
    ])
    for event in responses[0].events:
        assert isinstance(event, PostCarryoverProcessingEvent)
        break
    assert _kinds(responses[1].events) == ONE_CHAT
    assert responses[1].summary == "Reply 2."
    assert _sent(scripted_server) == ["One.", "Two.\nContext: \nReply 1."]
    # The early response is still there to finish reading.
    assert _kinds(responses[0].events)[-1] == "RunCompletionEvent" and responses[0].summary == "Reply 1."


def test_dropping_a_response_while_its_chat_runs_stops_the_queue(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("Reply 1.", "Reply 2.")
    assistant = _model(scripted_server, "assistant", "You answer briefly.")
    human = Planner("human", human_input_mode="ALWAYS")
    responses = human.sequential_run([
        {"recipient": assistant, "message": "One.", "max_turns": 2},
        {"recipient": assistant, "message": "Two.", "max_turns": 1},
    ])
    first = responses.pop(0)
    for event in first.events:
        if isinstance(event, InputRequestEvent):
            break  # the chat waits for an answer nobody will give
    del first, event  # its consumer is gone: the chat stops there, and so does the queue
    with pytest.raises(RuntimeError, match=r"chat_queue\[1\] did not run: the events of chat_queue\[0\] were no "):
        list(responses[0].events)
    _wait_for_threads()
    assert _sent(scripted_server) == ["One."]


# ----------------------------------------------------------------- bad queues
def test_a_queue_without_a_recipient_raises_from_the_first_response(scripted_server: ScriptedOpenAIServer) -> None:
    assistant = _model(scripted_server, "assistant", "You answer briefly.")
    responses = Planner().sequential_run([
        {"recipient": assistant, "message": "One.", "max_turns": 1},
        {"message": "Two."},
    ])
    kinds: List[str] = []
    with pytest.raises(AssertionError, match=r"chat_queue\[1\] has no 'recipient'") as raised:
        for event in responses[0].events:
            kinds.append(type(event).__name__)
    assert kinds == ["ErrorEvent"] and isinstance(raised.value, ValueError)
    with pytest.raises(RuntimeError, match=r"chat_queue\[1\] did not run: the chat queue failed its check") as later:
        list(responses[1].events)
    assert later.value.__cause__ is raised.value
    assert scripted_server.requests == []  # checked before any chat ran


@pytest.mark.parametrize("carryover", [5, {"content": "a dict"}, None])
def test_a_carryover_of_the_wrong_type(scripted_server: ScriptedOpenAIServer, carryover: Any) -> None:
    assistant = _model(scripted_server, "assistant", "You answer briefly.")
    responses = Planner().sequential_run([
        {"recipient": assistant, "message": "One.", "max_turns": 1},
        {"recipient": assistant, "message": "Two.", "max_turns": 1, "carryover": carryover},
    ])
    # The classic type of a bad carryover, and the TypeError 0.14.1's queue raised for it; checked before any chat.
    bad_carryover = r"chat_queue\[1\]\['carryover'\] must be a str or a list"
    with pytest.raises(InvalidCarryOverTypeError, match=bad_carryover) as raised:
        list(responses[0].events)
    assert isinstance(raised.value, TypeError)
    with pytest.raises(RuntimeError, match=r"chat_queue\[1\] did not run"):
        list(responses[1].events)
    assert scripted_server.requests == []


def test_a_failing_chat_raises_from_its_own_response(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("Reply 1.")
    assistant = _model(scripted_server, "assistant", "You answer briefly.")
    responses = Planner().sequential_run([
        {"recipient": assistant, "message": "One.", "max_turns": 1},
        {"recipient": assistant, "message": 5, "max_turns": 1, "carryover": "c"},
        {"recipient": assistant, "message": "Three.", "max_turns": 1},
    ])
    assert _kinds(responses[0].events) == ONE_CHAT
    kinds: List[str] = []
    with pytest.raises(TypeError, match="message must be a str or a dict"):
        for event in responses[1].events:
            kinds.append(type(event).__name__)
    assert kinds == ["PostCarryoverProcessingEvent", "ErrorEvent"]
    with pytest.raises(RuntimeError, match=r"chat_queue\[2\] did not run: chat_queue\[1\] failed \(TypeError"):
        list(responses[2].events)
    assert responses[2].summary is None
    assert _sent(scripted_server) == ["One."]


def test_a_queue_that_is_not_a_list_is_refused_at_once() -> None:
    with pytest.raises(InvalidArgumentTypeError, match="chat_queue must be a list of dicts") as raised:
        Planner().sequential_run({"recipient": Planner("other"), "message": "hi"})  # type: ignore[arg-type]
    assert isinstance(raised.value, TypeError)
    assert Planner().sequential_run([]) == []


def test_a_summary_method_that_does_not_exist(scripted_server: ScriptedOpenAIServer) -> None:
    assistant = _model(scripted_server, "assistant", "You answer briefly.")
    responses = Planner().sequential_run([{"recipient": assistant, "message": "x", "summary_method": "nope"}])
    with pytest.raises(AssertionError, match="summary_method must be a string from"):
        list(responses[0].events)


# ----------------------------------------------------------------- the async queue
def test_async_two_chats_with_carryover(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("Reply 1.", "Reply 2.")
    assistant = _model(scripted_server, "assistant", "You answer briefly.")
    writer = _model(scripted_server, "writer", "You write.")
    user = Planner()

    async def main() -> List[Dict[str, Any]]:
        responses = await user.a_sequential_run([
            {"recipient": assistant, "message": "First task.", "max_turns": 1},
            {"recipient": writer, "message": "Second task.", "max_turns": 1, "carryover": ["Given context."]},
        ])
        assert all(isinstance(response, AsyncRunResponse) for response in responses)
        seen = []
        for response in responses:
            kinds = [type(event).__name__ async for event in response.events]
            seen.append({"kinds": kinds, "summary": await response.summary, "speaker": await response.last_speaker,
                         "messages": await response.messages, "cost": await response.cost})
        return seen

    first, second = asyncio.run(main())
    assert first["kinds"] == ONE_CHAT and second["kinds"] == ONE_CHAT
    assert (first["summary"], second["summary"]) == ("Reply 1.", "Reply 2.")
    assert (first["speaker"], second["speaker"]) == ("assistant", "writer")
    assert [m["content"] for m in second["messages"]] == ["Second task.\nContext: \nGiven context.\nReply 1.",
                                                         "Reply 2."]
    assert isinstance(second["cost"], Cost)
    assert _sent(scripted_server) == ["First task.", "Second task.\nContext: \nGiven context.\nReply 1."]


def test_async_three_chats_excluded_index_and_an_early_break(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("Reply 1.", "Reply 2.", "Reply 3.")
    assistant = _model(scripted_server, "assistant", "You answer briefly.")
    user = Planner()

    async def main() -> List[Any]:
        responses = await user.a_sequential_run([
            {"recipient": assistant, "message": "A.", "max_turns": 1},
            {"recipient": assistant, "message": "B.", "max_turns": 1},
            {"recipient": assistant, "message": "C.", "max_turns": 1,
             "finished_chat_indexes_to_exclude_from_carryover": [1]},
        ])
        async for event in responses[0].events:
            assert isinstance(event, PostCarryoverProcessingEvent)
            break
        summaries = []
        for response in responses[1:]:
            async for event in response.events:
                if isinstance(event, (TextEvent, TerminationEvent, UsingAutoReplyEvent)):
                    continue
            summaries.append(await response.summary)
        return summaries

    assert asyncio.run(main()) == ["Reply 2.", "Reply 3."]
    assert _sent(scripted_server) == ["A.", "B.\nContext: \nReply 1.", "C.\nContext: \nReply 1."]


def test_async_bad_queue_raises_instead_of_waiting(scripted_server: ScriptedOpenAIServer) -> None:
    assistant = _model(scripted_server, "assistant", "You answer briefly.")

    async def main() -> List[str]:
        responses = await Planner().a_sequential_run([
            {"message": "no recipient"},
            {"recipient": assistant, "message": "Two.", "carryover": 3},
        ])
        raised = []
        for response in responses:
            try:
                async for _ in response.events:
                    pass
            except (AssertionError, RuntimeError) as error:
                raised.append(type(error).__name__)
        return raised

    assert asyncio.run(main()) == ["InvalidArgumentError", "RuntimeError"]
    assert scripted_server.requests == []


# ----------------------------------------------------------------- beside initiate_chats
def test_the_same_queue_carries_over_as_initiate_chats_does(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.set_responder(lambda body: "Answer to " + body["messages"][-1]["content"].split("\n")[0])
    assistant = _model(scripted_server, "assistant", "You answer briefly.")
    user = Planner()
    queue = [
        {"recipient": assistant, "message": "One.", "max_turns": 1},
        {"recipient": assistant, "message": "Two.", "max_turns": 1, "carryover": "Note."},
    ]
    results = user.initiate_chats(queue)  # ag2 0.7.3 code's way
    asked_by_initiate_chats = _sent(scripted_server)
    scripted_server.requests.clear()
    responses = user.sequential_run(queue)
    for response in responses:
        list(response.events)
    assert _sent(scripted_server) == asked_by_initiate_chats == ["One.", "Two.\nContext: \nNote.\nAnswer to One."]
    assert [r.summary for r in responses] == [r.summary for r in results]
