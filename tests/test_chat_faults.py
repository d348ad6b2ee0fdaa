"""Whole chats against a model endpoint that fails mid-chat: retries, failover, one clear error, resume.

Three ``AssistantAgent``s talk in a ``GroupChat`` (``round_robin`` and ``auto``) and two agents in a
plain ``initiate_chat``, all through the real ``openai`` client against the scripted HTTP server. Every
speaker answers "message <position in the chat>" and the "auto" selector names the next agent in turn,
so order, gaps and duplicates are visible in the transcript. Faults (429, 500, a reply slower than the
entry's ``timeout``, a truncated body, a body that is not JSON, a completion without choices) are served
to the request for one chosen position, sync and async.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from pathlib import Path
from typing import Any, Literal

import openai
import pytest

from autogen_classic import AssistantAgent, GroupChat, GroupChatManager, load_transcript
from autogen_classic.oai import (
    AllEndpointsFailedError,
    AllEndpointsTimedOutError,
    OpenAIWrapper,
)
from autogen_classic.oai.errors import RETRY_AFTER_LIMIT
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply

KEY = "sk-FAULTTEST-1234567890abcdef"
NAMES = ("ann", "ben", "cat")
TOTAL = 5  # messages in a finished group chat: "message 0" (the opening) to "message 4"
FAULT_AT = 2  # the position whose request fails: the middle of the chat
TIMEOUT = 0.75  # seconds, in every config entry; a "slow" reply takes longer
PARTIAL = "PARTIAL-TEXT-THAT-MUST-NOT-APPEAR"
FINISHED = [(NAMES[i % 3], f"message {i}") for i in range(TOTAL)]

Mode = Literal["sync", "async"]
MODES = ["sync", "async"]


def slow() -> ScriptedReply:
    return ScriptedReply(content=PARTIAL, delay=TIMEOUT * 3)


# What each fault does to one request, and how the failed attempt is reported.
FAULTS: dict[str, tuple[ScriptedReply, str, bool]] = {
    # name: (reply, reason in the error, retried by the openai client)
    "429": (ScriptedReply(status=429, headers={"Retry-After": "0"}, error_message="Rate limit reached"),
            "rate limited (HTTP 429)", True),
    "500": (ScriptedReply(status=500, error_message="upstream crashed"), "HTTP 500", True),
    "timeout": (slow(), "timed out", True),
    "truncated": (ScriptedReply(content=PARTIAL, truncate=True), "connection failed", True),
    "not-json": (ScriptedReply(raw_body="{not json"), "malformed response: the body is not valid JSON", False),
    "no-choices": (ScriptedReply(empty_choices=True), "malformed response: the completion has no choices", False),
}


# ----------------------------------------------------------------- the scripted model
def conversation(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The chat messages of a request (system prompts, including the selector's question, left out)."""
    return [m for m in body["messages"] if m.get("role") != "system"]


def kind(body: dict[str, Any]) -> str:
    first = body["messages"][0]
    is_selector = first.get("role") == "system" and "role play game" in (first.get("content") or "")
    return "selector" if is_selector else "speaker"


class Model:
    """Responder: speakers say "message <position>", the selector names the next agent; faults come first.

    Args:
        faults: replies served, one per request, to requests of ``target`` for position ``at`` or later.
        target: "speaker" (an agent's reply) or "selector" (the "auto" speaker selection).
        at: the first position (number of chat messages the request holds) the faults may hit.
    """

    def __init__(self, faults: list[ScriptedReply] | tuple[()] = (), target: str = "speaker", at: int = FAULT_AT):
        self.faults = deque(faults)
        self.target = target
        self.at = at

    def __call__(self, body: dict[str, Any]) -> str | ScriptedReply:
        turn = conversation(body)
        if kind(body) == self.target and len(turn) >= self.at and self.faults:
            return self.faults.popleft()
        if kind(body) == "selector":
            return NAMES[(NAMES.index(turn[-1]["name"]) + 1) % len(NAMES)]
        return f"message {len(turn)}"


def requests(server: ScriptedOpenAIServer, which: str = "speaker") -> list[tuple[int, str]]:
    """(position, model) of each request of one kind, in the order the server received them."""
    return [(len(conversation(b)), b["model"]) for b in server.requests if kind(b) == which]


def retry_counts(server: ScriptedOpenAIServer) -> list[int]:
    return [int(h["x-stainless-retry-count"]) for h in server.request_headers]


# ----------------------------------------------------------------- chats
def entry(server: ScriptedOpenAIServer, model: str, retries: int) -> dict[str, Any]:
    return server.config_entry(model, api_key=KEY, max_retries=retries, timeout=TIMEOUT)


def build_group(
    entries: list[dict[str, Any]], method: str, path: Path, **llm: Any
) -> tuple[list[AssistantAgent], GroupChat, GroupChatManager]:
    llm_config = {"config_list": entries, "cache_seed": None, **llm}
    agents = [AssistantAgent(name, llm_config=llm_config) for name in NAMES]
    groupchat = GroupChat(agents, messages=[], max_round=TOTAL, speaker_selection_method=method,
                          transcript_path=path)
    manager = GroupChatManager(groupchat, llm_config=llm_config if method == "auto" else False, silent=True)
    return agents, groupchat, manager


def run_group(mode: Mode, agents: list[AssistantAgent], manager: GroupChatManager) -> None:
    if mode == "sync":
        agents[0].initiate_chat(manager, message="message 0", silent=True)
    else:
        asyncio.run(agents[0].a_initiate_chat(manager, message="message 0", silent=True))


def resume_group(mode: Mode, manager: GroupChatManager, messages: list[dict[str, Any]]) -> None:
    """Resume from ``messages`` and go on until the chat holds TOTAL messages."""

    async def a_resume() -> None:
        last_agent, last_message = await manager.a_resume(messages=messages, silent=True)
        manager.groupchat.max_round = TOTAL + 1 - len(messages)  # rounds count from the resumed message
        await last_agent.a_initiate_chat(manager, message=last_message, clear_history=False, silent=True)

    if mode == "async":
        asyncio.run(a_resume())
        return
    last_agent, last_message = manager.resume(messages=messages, silent=True)
    manager.groupchat.max_round = TOTAL + 1 - len(messages)
    last_agent.initiate_chat(manager, message=last_message, clear_history=False, silent=True)


def said(messages: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(m["name"], m["content"]) for m in messages]


def assert_no_key(error: BaseException, console: ScriptedIOStream, caplog: pytest.LogCaptureFixture) -> None:
    assert KEY not in str(error) and KEY not in repr(error)
    assert all(KEY not in attempt.reason for attempt in getattr(error, "attempts", []))
    assert KEY not in console.output and KEY not in caplog.text


# ----------------------------------------------------------------- the chat completes
RECOVERED = [
    # (fault, config): "retry" = one entry with max_retries=1; "failover" = two entries without retries
    ("429", "retry"), ("500", "retry"), ("timeout", "retry"), ("truncated", "retry"),
    ("not-json", "failover"), ("no-choices", "failover"), ("500", "failover"),
]


def recovered_cases() -> list[Any]:
    """Every fault in round_robin; a few in "auto", in a speaker's request and in the selector's."""
    cases = [pytest.param(f, c, "round_robin", "speaker", id=f"{f}-{c}-round_robin") for f, c in RECOVERED]
    auto = [(f, c) for f, c in RECOVERED if f in ("429", "not-json", "timeout")]
    cases += [pytest.param(f, c, "auto", "speaker", id=f"{f}-{c}-auto") for f, c in auto]
    selector = [("500", "retry"), ("no-choices", "failover")]
    cases += [pytest.param(f, c, "auto", "selector", id=f"{f}-{c}-auto-selector") for f, c in selector]
    return cases


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fault, config, method, target", recovered_cases())
def test_a_fault_absorbed_by_a_retry_or_the_next_entry_leaves_the_chat_whole(
    scripted_server: ScriptedOpenAIServer, tmp_path: Path, console: ScriptedIOStream,
    fault: str, config: str, method: str, target: str, mode: Mode,
) -> None:
    reply = FAULTS[fault][0]
    scripted_server.set_responder(Model([reply], target=target))
    if config == "retry":
        entries = [entry(scripted_server, "m1", retries=1)]
    else:
        entries = [entry(scripted_server, "m1", retries=0), entry(scripted_server, "m2", retries=0)]
    path = tmp_path / "chat.jsonl"
    agents, groupchat, manager = build_group(entries, method, path)

    run_group(mode, agents, manager)

    assert said(groupchat.messages) == FINISHED
    assert load_transcript(path) == groupchat.messages
    assert PARTIAL not in path.read_text()
    assert manager.end_reason == f"max_round ({TOTAL}) reached."
    # The failed request was sent again: to the same entry (retry) or to the next one (failover).
    again = ("m1" if config == "retry" else "m2")
    expected = [(1, "m1")] + [(FAULT_AT, "m1"), (FAULT_AT, again)] + [(p, "m1") for p in range(FAULT_AT + 1, TOTAL)]
    other = [(p, "m1") for p in range(1, TOTAL)]
    if method == "auto" and target == "selector":
        assert requests(scripted_server, "selector") == expected
        assert requests(scripted_server, "speaker") == other
    else:
        assert requests(scripted_server, "speaker") == expected
        assert requests(scripted_server, "selector") == (other if method == "auto" else [])
    if config == "retry":  # the openai client numbers its tries
        assert sorted(retry_counts(scripted_server)) == [0] * (len(scripted_server.requests) - 1) + [1]
    groupchat.close_transcript()


# ----------------------------------------------------------------- retries exhausted: one error, then resume
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fault", list(FAULTS))
def test_exhausted_retries_stop_the_chat_with_one_clear_error_and_it_resumes(
    scripted_server: ScriptedOpenAIServer, tmp_path: Path, console: ScriptedIOStream,
    caplog: pytest.LogCaptureFixture, fault: str, mode: Mode,
) -> None:
    reply, reason, retried = FAULTS[fault]
    tries = 2 if retried else 1  # max_retries=1: the openai client retries what it may, once
    scripted_server.set_responder(Model([reply] * tries))
    path = tmp_path / "chat.jsonl"
    agents, groupchat, manager = build_group([entry(scripted_server, "m1", retries=1)], "round_robin", path)

    with caplog.at_level(logging.DEBUG, logger="autogen_classic"), \
            pytest.raises(AllEndpointsFailedError) as info:
        run_group(mode, agents, manager)

    error = info.value
    assert type(error) is (AllEndpointsTimedOutError if fault == "timeout" else AllEndpointsFailedError)
    assert isinstance(error, TimeoutError) == (fault == "timeout")
    lines = str(error).splitlines()
    assert lines[0] == "The model endpoint failed:"
    assert lines[1].startswith(f"  [0] m1 at {scripted_server.base_url}: {reason}")
    assert ("after 1 retry" in lines[1]) == retried
    assert error.attempts[0].error is error.__cause__
    assert_no_key(error, console, caplog)
    # Every message up to the failure, once, and nothing of the failed reply.
    before = FINISHED[:FAULT_AT]
    assert said(groupchat.messages) == before and load_transcript(path) == groupchat.messages
    assert PARTIAL not in path.read_text()
    assert requests(scripted_server) == [(1, "m1")] + [(FAULT_AT, "m1")] * tries
    assert retry_counts(scripted_server) == [0] + list(range(tries))

    # The endpoint answers again: the chat goes on from its transcript, as after a restart.
    groupchat.close_transcript()
    scripted_server.reset()
    scripted_server.set_responder(Model())
    agents, groupchat, manager = build_group([entry(scripted_server, "m1", retries=1)], "round_robin", path)
    resume_group(mode, manager, load_transcript(path))

    assert said(load_transcript(path)) == FINISHED
    assert load_transcript(path) == groupchat.messages
    assert requests(scripted_server) == [(p, "m1") for p in range(FAULT_AT, TOTAL)]
    groupchat.close_transcript()


@pytest.mark.parametrize("mode", MODES)
def test_a_failing_auto_selector_stops_the_chat_and_the_same_objects_resume_it(
    scripted_server: ScriptedOpenAIServer, tmp_path: Path, console: ScriptedIOStream,
    caplog: pytest.LogCaptureFixture, mode: Mode,
) -> None:
    scripted_server.set_responder(Model([FAULTS["500"][0]] * 2, target="selector"))
    path = tmp_path / "chat.jsonl"
    agents, groupchat, manager = build_group([entry(scripted_server, "m1", retries=1)], "auto", path)

    with caplog.at_level(logging.WARNING, logger="autogen_classic"), \
            pytest.raises(AllEndpointsFailedError) as info:
        run_group(mode, agents, manager)

    assert type(info.value) is AllEndpointsFailedError
    assert f"[0] m1 at {scripted_server.base_url}: HTTP 500 after 1 retry: upstream crashed" in str(info.value)
    assert_no_key(info.value, console, caplog)
    assert said(groupchat.messages) == FINISHED[:FAULT_AT] and load_transcript(path) == groupchat.messages
    assert requests(scripted_server, "selector") == [(1, "m1"), (FAULT_AT, "m1"), (FAULT_AT, "m1")]

    # In the same process, with the same agents, group chat and (still open) transcript.
    resume_group(mode, manager, load_transcript(path))

    assert said(groupchat.messages) == FINISHED and load_transcript(path) == groupchat.messages
    assert requests(scripted_server, "selector") == [(1, "m1")] + [(p, "m1") for p in [FAULT_AT] * 3 + [3, 4]]
    groupchat.close_transcript()


# ----------------------------------------------------------------- bounded retries
@pytest.mark.timeout(30)
@pytest.mark.parametrize("mode", MODES)
def test_retries_are_bounded_per_endpoint(
    scripted_server: ScriptedOpenAIServer, tmp_path: Path, console: ScriptedIOStream, mode: Mode
) -> None:
    # A server that never recovers; a short Retry-After keeps the client's waits small ("0" means
    # "no advice" to the openai client, which then backs off for 0.5 s, 1 s, ...).
    failing = ScriptedReply(status=500, headers={"Retry-After": "0.01"}, error_message="down")
    scripted_server.set_responder(lambda body: failing)
    entries = [entry(scripted_server, "m1", retries=2), entry(scripted_server, "m2", retries=1)]
    agents, groupchat, manager = build_group(entries, "round_robin", tmp_path / "chat.jsonl")

    with pytest.raises(AllEndpointsFailedError) as info:
        run_group(mode, agents, manager)

    assert str(info.value).splitlines() == [
        "All 2 model endpoints failed:",
        f"  [0] m1 at {scripted_server.base_url}: HTTP 500 after 2 retries: down",
        f"  [1] m2 at {scripted_server.base_url}: HTTP 500 after 1 retry: down",
    ]
    # 1 + max_retries requests per entry, for the one reply the chat asked for; nothing more.
    assert requests(scripted_server) == [(1, "m1")] * 3 + [(1, "m2")] * 2
    assert retry_counts(scripted_server) == [0, 1, 2, 0, 1]
    assert said(groupchat.messages) == FINISHED[:1]
    groupchat.close_transcript()


@pytest.mark.timeout(30)
@pytest.mark.parametrize("mode", MODES)
def test_a_retry_after_beyond_the_clients_limit_is_not_waited_for(
    scripted_server: ScriptedOpenAIServer, tmp_path: Path, console: ScriptedIOStream, mode: Mode
) -> None:
    wait = int(RETRY_AFTER_LIMIT * 30)
    busy = ScriptedReply(status=429, headers={"Retry-After": str(wait)}, error_message="come back later")
    scripted_server.set_responder(Model([busy, busy]))
    entries = [entry(scripted_server, "m1", retries=2), entry(scripted_server, "m2", retries=2)]
    path = tmp_path / "chat.jsonl"
    agents, groupchat, manager = build_group(entries, "round_robin", path)

    with pytest.raises(AllEndpointsFailedError) as info:
        run_group(mode, agents, manager)

    # Each entry was asked once (no retry, no wait), and the error says why it was not retried.
    assert requests(scripted_server) == [(1, "m1"), (FAULT_AT, "m1"), (FAULT_AT, "m2")]
    note = f"not retried: Retry-After asks for {wait} s, more than the {RETRY_AFTER_LIMIT:g} s"
    assert str(info.value).count(note) == 2 and "after 2 retries" not in str(info.value)
    assert said(groupchat.messages) == FINISHED[:FAULT_AT]
    groupchat.close_transcript()


@pytest.mark.parametrize("mode", MODES)
def test_a_stream_cut_midway_is_not_appended_and_not_claimed_as_retried(
    scripted_server: ScriptedOpenAIServer, tmp_path: Path, console: ScriptedIOStream, mode: Mode
) -> None:
    cut = ScriptedReply(content=f"{PARTIAL} " * 20, truncate=True)
    scripted_server.set_responder(Model([cut]))
    path = tmp_path / "chat.jsonl"
    agents, groupchat, manager = build_group([entry(scripted_server, "m1", retries=2)], "round_robin", path,
                                             stream=True)

    with pytest.raises(AllEndpointsFailedError) as info:
        run_group(mode, agents, manager)

    # The stream had begun, so the openai client does not retry it (and the error does not say it did).
    assert requests(scripted_server) == [(1, "m1"), (FAULT_AT, "m1")]
    assert f"[0] m1 at {scripted_server.base_url}: connection failed (" in str(info.value)
    assert "retr" not in str(info.value)
    assert isinstance(info.value.__cause__, openai.APIConnectionError)
    assert said(groupchat.messages) == FINISHED[:FAULT_AT] and load_transcript(path) == groupchat.messages
    assert PARTIAL not in path.read_text()
    assert PARTIAL in console.output  # the console showed the text as it streamed in ...
    assert console.output.endswith(" [stream interrupted]\n")  # ... and marked where it broke off
    groupchat.close_transcript()


# ----------------------------------------------------------------- a two-agent chat
def two_agents(entries: list[dict[str, Any]]) -> tuple[AssistantAgent, AssistantAgent]:
    llm_config = {"config_list": entries, "cache_seed": None}
    return AssistantAgent("ann", llm_config=llm_config), AssistantAgent("ben", llm_config=llm_config)


def run_pair(mode: Mode, ann: AssistantAgent, ben: AssistantAgent) -> Any:
    if mode == "sync":
        return ann.initiate_chat(ben, message="message 0", max_turns=2, silent=True)
    return asyncio.run(ann.a_initiate_chat(ben, message="message 0", max_turns=2, silent=True))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fault", ["429", "timeout", "truncated"])
def test_a_two_agent_chat_completes_through_retries(
    scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream, fault: str, mode: Mode
) -> None:
    scripted_server.set_responder(Model([FAULTS[fault][0]]))
    ann, ben = two_agents([entry(scripted_server, "m1", retries=1)])

    result = run_pair(mode, ann, ben)

    assert said(result.chat_history) == [("ann", "message 0"), ("ben", "message 1"), ("ann", "message 2"),
                                         ("ben", "message 3")]
    assert ann.chat_messages[ben] == result.chat_history
    assert requests(scripted_server) == [(1, "m1"), (2, "m1"), (2, "m1"), (3, "m1")]
    assert retry_counts(scripted_server) == [0, 0, 1, 0]


@pytest.mark.parametrize("mode", MODES)
def test_a_two_agent_chat_stops_with_one_clear_error_and_whole_histories(
    scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream, caplog: pytest.LogCaptureFixture,
    mode: Mode,
) -> None:
    scripted_server.set_responder(Model([FAULTS["500"][0]] * 2 + [FAULTS["no-choices"][0]]))
    ann, ben = two_agents([entry(scripted_server, "m1", retries=1), entry(scripted_server, "m2", retries=0)])

    with caplog.at_level(logging.WARNING, logger="autogen_classic"), \
            pytest.raises(AllEndpointsFailedError) as info:
        run_pair(mode, ann, ben)

    assert str(info.value).splitlines() == [
        "All 2 model endpoints failed:",
        f"  [0] m1 at {scripted_server.base_url}: HTTP 500 after 1 retry: upstream crashed",
        f"  [1] m2 at {scripted_server.base_url}: malformed response: the completion has no choices",
    ]
    assert_no_key(info.value, console, caplog)
    assert requests(scripted_server) == [(1, "m1"), (2, "m1"), (2, "m1"), (2, "m2")]
    # Both sides hold the two complete messages, and nothing of the failed reply.
    assert said(ann.chat_messages[ben]) == [("ann", "message 0"), ("ben", "message 1")]
    assert said(ben.chat_messages[ann]) == [("ann", "message 0"), ("ben", "message 1")]


# ----------------------------------------------------------------- shared options reach every endpoint
def test_a_misspelt_shared_option_is_refused_before_any_request(scripted_server: ScriptedOpenAIServer) -> None:
    entries = [entry(scripted_server, "m1", retries=0)]
    with pytest.raises(ValueError) as info:
        OpenAIWrapper(config_list=entries, temprature=0.5)
    message = str(info.value)
    assert message.startswith("OpenAIWrapper: unknown option 'temprature' (did you mean 'temperature'?).")
    assert "extra_body={...}" in message and "extra_headers={...}" in message
    with pytest.raises(ValueError, match=r"unknown option 'max_token' \(did you mean 'max_tokens'"):
        AssistantAgent("ann", llm_config={"config_list": entries, "max_token": 5, "cache_seed": None})
    assert scripted_server.request_count == 0


def test_custom_fields_travel_in_extra_body_or_in_the_entry(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.set_responder(Model())
    entries = [{**entry(scripted_server, "m1", retries=0), "top_k": 3}]
    client = OpenAIWrapper(config_list=entries, cache_seed=None, temperature=0.5, extra_body={"min_p": 0.1})
    response = client.create(messages=[{"role": "user", "content": "hi", "name": "ann"}])
    assert client.extract_text_or_completion_object(response) == ["message 1"]
    body = scripted_server.requests[0]
    assert (body["temperature"], body["min_p"], body["top_k"]) == (0.5, 0.1, 3)
    assert "api_key" not in body and "max_retries" not in body and "cache_seed" not in body
