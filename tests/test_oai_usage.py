"""Usage and cost: price table, per-entry price, summaries, printing, gather_usage_summary."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest

from autogen_classic.oai import OAI_PRICE1K, Cache, OpenAIWrapper, gather_usage_summary
from autogen_classic.oai.usage import cost_for_tokens, lookup_price, usage_summary_lines
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply

USER = [{"role": "user", "content": "hi"}]
RULE = "-" * 100


def _reply(prompt: int, completion: int, content: str = "ok") -> ScriptedReply:
    return ScriptedReply(content=content, usage={"prompt_tokens": prompt, "completion_tokens": completion})


def test_price_table_and_dated_snapshots() -> None:
    assert OAI_PRICE1K["gpt-4o-mini"] == (0.00015, 0.0006)
    assert lookup_price("gpt-4o") == (0.0025, 0.01)
    assert lookup_price("gpt-4o-2031-01-01") == (0.0025, 0.01)  # unknown snapshot priced like its base model
    assert lookup_price("gpt-35-turbo") == (0.0005, 0.0015)
    assert lookup_price("davinci-002") == (0.002, 0.002)
    assert lookup_price("my-local-llama") is None
    assert cost_for_tokens("gpt-4", 1000, 500) == pytest.approx(0.03 + 0.03)
    assert cost_for_tokens("gpt-4", 1000, 500, price=(1.0, 2.0)) == pytest.approx(2.0)


def test_unknown_model_costs_zero_and_warns_once(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="autogen_classic.oai"):
        assert cost_for_tokens("model-never-priced-x", 10, 10) == 0
        assert cost_for_tokens("model-never-priced-x", 10, 10) == 0
    warnings = [r for r in caplog.records if "model-never-priced-x" in r.getMessage()]
    assert len(warnings) == 1
    assert '{"price" : [prompt_price_per_1k, completion_token_price_per_1k]}' in warnings[0].getMessage()


def test_cost_from_table_and_per_entry_price(scripted_server: ScriptedOpenAIServer) -> None:
    entries = [
        scripted_server.config_entry(model="gpt-4o", max_retries=0),
        scripted_server.config_entry(model="gpt-4o", price=[1.0, 3.0]),
        scripted_server.config_entry(model="local", price=0.5),
    ]
    table = OpenAIWrapper(config_list=[entries[0]], cache_seed=None)
    custom = OpenAIWrapper(config_list=[entries[1]], cache_seed=None)
    flat = OpenAIWrapper(config_list=[entries[2]], cache_seed=None)
    scripted_server.add_replies(_reply(1000, 100), _reply(1000, 100), _reply(1000, 100))
    assert table.create(messages=USER).cost == pytest.approx(0.0025 + 0.001)
    assert custom.create(messages=USER).cost == pytest.approx(1.0 + 0.3)
    assert flat.create(messages=USER).cost == pytest.approx(0.5 + 0.05)


def test_summaries_have_the_classic_shape_and_cache_hits_cost_nothing(scripted_server: ScriptedOpenAIServer) -> None:
    client = OpenAIWrapper(**scripted_server.llm_config(model="gpt-4o-mini"))
    scripted_server.add_replies(_reply(1000, 1000, "a"), _reply(2000, 0, "b"))
    cache = Cache.in_memory()
    client.create(messages=USER, cache=cache)
    client.create(messages=[{"role": "user", "content": "other"}], cache=cache)
    hit = client.create(messages=USER, cache=cache)  # served from the cache
    assert scripted_server.request_count == 2
    assert hit.cost == pytest.approx(0.00075)
    assert client.actual_usage_summary == {
        "total_cost": pytest.approx(0.00105),
        "gpt-4o-mini": {
            "cost": pytest.approx(0.00105),
            "prompt_tokens": 3000,
            "completion_tokens": 1000,
            "total_tokens": 4000,
        },
    }
    assert client.total_usage_summary == {
        "total_cost": pytest.approx(0.0018),
        "gpt-4o-mini": {
            "cost": pytest.approx(0.0018),
            "prompt_tokens": 4000,
            "completion_tokens": 2000,
            "total_tokens": 6000,
        },
    }
    client.clear_usage_summary()
    assert client.total_usage_summary is None and client.actual_usage_summary is None


def test_print_usage_summary_layout(scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream) -> None:
    client = OpenAIWrapper(**scripted_server.llm_config(model="gpt-4"))
    client.print_usage_summary()
    assert console.output == 'No usage summary. Please call "create" first.\n'
    console.clear()
    scripted_server.add_reply(_reply(100, 50))
    client.create(messages=USER)
    client.print_usage_summary()
    model_line = "* Model 'gpt-4': cost: 0.006, prompt_tokens: 100, completion_tokens: 50, total_tokens: 150"
    assert console.output.splitlines() == [
        RULE,
        "Usage summary excluding cached usage: ",
        "Total cost: 0.006",
        model_line,
        "",
        "All completions are non-cached: the total cost with cached completions is the same as actual cost.",
        RULE,
    ]
    console.clear()
    client.print_usage_summary("total")
    assert console.output.splitlines() == [
        RULE,
        "Usage summary including cached usage: ",
        "Total cost: 0.006",
        model_line,
        RULE,
    ]
    with pytest.raises(ValueError, match='Invalid mode.*choose from "actual", "total"'):
        client.print_usage_summary("everything")
    with pytest.raises(ValueError, match="Invalid mode"):
        client.print_usage_summary([])


def test_print_usage_summary_with_only_cached_calls() -> None:
    total = {"total_cost": 0.5, "m": {"cost": 0.5, "prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}}
    lines = usage_summary_lines(None, total, ["actual", "total"])
    assert lines == [
        RULE,
        "No actual cost incurred (all completions are using cache).",
        "",
        "Usage summary including cached usage: ",
        "Total cost: 0.5",
        "* Model 'm': cost: 0.5, prompt_tokens: 1, completion_tokens: 2, total_tokens: 3",
        RULE,
    ]


def test_gather_usage_summary(scripted_server: ScriptedOpenAIServer) -> None:
    first = OpenAIWrapper(**scripted_server.llm_config(model="gpt-4"))
    second = OpenAIWrapper(**scripted_server.llm_config(model="gpt-4"))
    third = OpenAIWrapper(**scripted_server.llm_config(model="gpt-4o"))
    scripted_server.add_replies(_reply(10, 10), _reply(20, 20), _reply(1000, 0))
    for client in (first, second, third):
        client.create(messages=USER)
    agents = [
        SimpleNamespace(client=first),
        SimpleNamespace(client=second),
        SimpleNamespace(client=third),
        SimpleNamespace(client=None),
    ]
    summary = gather_usage_summary(agents + [agents[0]])  # an agent listed twice counts once
    expected = {
        "total_cost": pytest.approx(0.0027 + 0.0025),
        "gpt-4": {"cost": pytest.approx(0.0027), "prompt_tokens": 30, "completion_tokens": 30, "total_tokens": 60},
        "gpt-4o": {"cost": pytest.approx(0.0025), "prompt_tokens": 1000, "completion_tokens": 0, "total_tokens": 1000},
    }
    assert summary == {"usage_including_cached_inference": expected, "usage_excluding_cached_inference": expected}
    assert first.total_usage_summary["gpt-4"]["prompt_tokens"] == 10  # the agents' own summaries are untouched
    assert gather_usage_summary([SimpleNamespace(client=None)]) == {
        "usage_including_cached_inference": {"total_cost": 0},
        "usage_excluding_cached_inference": {"total_cost": 0},
    }
