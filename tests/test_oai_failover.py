"""Failover between config_list entries: 429, 5xx, timeouts, refused connections, malformed bodies."""

from __future__ import annotations

import asyncio
import logging

import openai
import pytest

from autogen_classic.oai import (
    AllEndpointsFailedError,
    AllEndpointsTimedOutError,
    OpenAIWrapper,
)
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply

USER = [{"role": "user", "content": "hello"}]
SECRET = "sk-live-DO-NOT-LEAK-1234567890abcdef"


def _entry(server: ScriptedOpenAIServer, model: str, **extra: object) -> dict:
    return server.config_entry(model=model, **{"max_retries": 0, **extra})


def test_429_with_retry_after_is_retried_on_the_same_entry(scripted_server: ScriptedOpenAIServer) -> None:
    client = OpenAIWrapper(config_list=[_entry(scripted_server, "m1", max_retries=1)], cache_seed=None)
    scripted_server.add_replies(ScriptedReply(status=429, headers={"Retry-After": "0.01"}), "after the wait")
    response = client.create(messages=USER)
    assert client.extract_text_or_completion_object(response) == ["after the wait"]
    assert scripted_server.request_count == 2
    assert scripted_server.request_headers[1].get("x-stainless-retry-count") == "1"


def test_429_after_retries_fails_over_to_next_entry(scripted_server: ScriptedOpenAIServer) -> None:
    entries = [_entry(scripted_server, "m1", max_retries=1), _entry(scripted_server, "m2")]
    client = OpenAIWrapper(config_list=entries, cache_seed=None)
    busy = ScriptedReply(status=429, headers={"Retry-After": "0.01"}, error_message="Rate limit reached")
    scripted_server.add_replies(busy, busy, "from m2")
    response = client.create(messages=USER)
    assert client.extract_text_or_completion_object(response) == ["from m2"]
    assert response.config_id == 1
    assert [r["model"] for r in scripted_server.requests] == ["m1", "m1", "m2"]


@pytest.mark.parametrize(
    "failure, reason",
    [
        (ScriptedReply(status=500, error_message="boom"), "HTTP 500: boom"),
        (ScriptedReply(status=503), "HTTP 503"),
        (ScriptedReply(status=404, error_message="model not found"), "HTTP 404: model not found"),
        (ScriptedReply(raw_body="{not json"), "malformed response"),
        (ScriptedReply(raw_body='"just a string"'), "malformed response: expected a chat completion object, got str"),
        (ScriptedReply(raw_body="{}"), "malformed response: the completion has no choices"),
        (ScriptedReply(empty_choices=True), "malformed response: the completion has no choices"),
        (ScriptedReply(content="cut short here", truncate=True), "connection failed"),
    ],
)
def test_failure_passes_request_to_next_entry(
    scripted_server: ScriptedOpenAIServer, failure: ScriptedReply, reason: str
) -> None:
    client = OpenAIWrapper(config_list=[_entry(scripted_server, "m1"), _entry(scripted_server, "m2")], cache_seed=None)
    scripted_server.add_replies(failure, "rescued")
    response = client.create(messages=USER)
    assert client.extract_text_or_completion_object(response) == ["rescued"] and response.config_id == 1
    scripted_server.add_replies(failure, failure)
    with pytest.raises(AllEndpointsFailedError) as info:
        client.create(messages=USER)
    assert f"[0] m1 at {scripted_server.base_url}: {reason}" in str(info.value)
    assert f"[1] m2 at {scripted_server.base_url}: {reason}" in str(info.value)


def test_all_failed_error_lists_each_endpoint_without_keys(
    scripted_server: ScriptedOpenAIServer, caplog: pytest.LogCaptureFixture, dead_base_url: str
) -> None:
    dead = dead_base_url
    entries = [
        {"model": "gpt-dead", "base_url": dead, "api_key": SECRET, "max_retries": 0},
        _entry(scripted_server, "m2", api_key=SECRET),
    ]
    client = OpenAIWrapper(config_list=entries, cache_seed=None)
    scripted_server.add_reply(ScriptedReply(status=500, error_message=f"bad key {SECRET}"))
    with caplog.at_level(logging.DEBUG, logger="autogen_classic"), pytest.raises(AllEndpointsFailedError) as info:
        client.create(messages=USER)
    message = str(info.value)
    assert message.splitlines()[0] == "All 2 model endpoints failed:"
    assert f"[0] gpt-dead at {dead}: connection failed" in message
    assert "Connection refused" in message
    assert f"[1] m2 at {scripted_server.base_url}: HTTP 500: bad key ***" in message
    assert SECRET not in message
    assert SECRET not in caplog.text and "config_list[0] (gpt-dead at" in caplog.text
    assert isinstance(info.value.__cause__, openai.InternalServerError)
    assert [a.index for a in info.value.attempts] == [0, 1]


def test_slow_reply_times_out_and_next_entry_answers(scripted_server: ScriptedOpenAIServer) -> None:
    entries = [_entry(scripted_server, "slow", timeout=0.2), _entry(scripted_server, "fast")]
    client = OpenAIWrapper(config_list=entries, cache_seed=None)
    scripted_server.add_replies(ScriptedReply(content="too late", delay=0.6), "in time")
    response = client.create(messages=USER)
    assert client.extract_text_or_completion_object(response) == ["in time"] and response.config_id == 1


def test_every_entry_timing_out_raises_a_timeout_error(scripted_server: ScriptedOpenAIServer) -> None:
    client = OpenAIWrapper(config_list=[_entry(scripted_server, "slow", timeout=0.15)], cache_seed=None)
    scripted_server.add_reply(ScriptedReply(content="too late", delay=0.5))
    with pytest.raises(TimeoutError) as info:
        client.create(messages=USER)
    assert isinstance(info.value, AllEndpointsTimedOutError)
    assert str(info.value).splitlines()[:2] == [
        "The model endpoint failed:",
        f"  [0] slow at {scripted_server.base_url}: timed out",
    ]
    assert "'timeout' value" in str(info.value)


def test_timeout_given_at_create_time(scripted_server: ScriptedOpenAIServer) -> None:
    client = OpenAIWrapper(config_list=[_entry(scripted_server, "m")], cache_seed=None)
    scripted_server.add_reply(ScriptedReply(content="too late", delay=0.5))
    with pytest.raises(AllEndpointsTimedOutError):
        client.create(messages=USER, timeout=0.15)


def test_async_failover(scripted_server: ScriptedOpenAIServer, dead_base_url: str) -> None:
    entries = [
        _entry(scripted_server, "slow", timeout=0.2),
        {"model": "dead", "base_url": dead_base_url, "max_retries": 0},
        _entry(scripted_server, "ok"),
    ]
    client = OpenAIWrapper(config_list=entries, cache_seed=None)
    scripted_server.add_replies(ScriptedReply(content="late", delay=0.6), "async rescue")
    response = asyncio.run(client.a_create(messages=USER))
    assert client.extract_text_or_completion_object(response) == ["async rescue"] and response.config_id == 2
    scripted_server.add_reply(ScriptedReply(status=500))
    with pytest.raises(AllEndpointsFailedError) as info:
        asyncio.run(OpenAIWrapper(config_list=[entries[1], entries[2]], cache_seed=None).a_create(messages=USER))
    assert "[0] dead at" in str(info.value) and "[1] ok at" in str(info.value)


def test_bad_agent_name_error_is_explained_not_failed_over(scripted_server: ScriptedOpenAIServer) -> None:
    client = OpenAIWrapper(config_list=[_entry(scripted_server, "m1"), _entry(scripted_server, "m2")], cache_seed=None)
    scripted_server.add_reply(
        ScriptedReply(
            status=400, error_message="Invalid 'messages[0].name': string does not match pattern. Expected ..."
        )
    )
    with pytest.raises(ValueError, match="agent name contains invalid characters"):
        client.create(messages=[{"role": "user", "content": "x", "name": "my agent"}])
    assert scripted_server.request_count == 1


def test_usage_counts_only_the_answering_entry(scripted_server: ScriptedOpenAIServer) -> None:
    client = OpenAIWrapper(config_list=[_entry(scripted_server, "m1"), _entry(scripted_server, "m2")], cache_seed=None)
    scripted_server.add_replies(
        ScriptedReply(status=500), ScriptedReply(content="x", usage={"prompt_tokens": 7, "completion_tokens": 3})
    )
    client.create(messages=USER)
    assert client.actual_usage_summary == {
        "total_cost": 0,
        "m2": {"cost": 0, "prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10},
    }
