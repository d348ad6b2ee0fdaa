"""The speaker-selection benchmark: its labeled data set and its runner (bench/), against the scripted server."""

from __future__ import annotations

import copy
import importlib.util
import json
import socket
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from autogen_classic.testing.scripted_server import ScriptedOpenAIServer

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _load_runner() -> ModuleType:
    # bench/ is a folder of scripts, not a package: load the runner from its file.
    spec = importlib.util.spec_from_file_location("bench_selection", BENCH / "bench_selection.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


runner = _load_runner()


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    return json.loads((BENCH / "selection_cases.json").read_text(encoding="utf-8"))


def members(data: dict[str, Any], team: str) -> list[str]:
    return [m["name"] for m in data["teams"][team]]


# ----------------------------------------------------------------- the data set
def test_data_set_shape(data: dict[str, Any]) -> None:
    cases, teams = data["cases"], data["teams"]
    assert len(cases) >= 48
    assert len(teams) >= 5
    sizes = {len(m) for m in teams.values()}
    assert 2 in sizes and max(sizes) >= 5  # a two-agent team and a large one
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids))
    assert {c["team"] for c in cases} == set(teams)  # every team is used
    for team, agents in teams.items():
        names = members(data, team)
        assert len(names) == len(set(names)), team
        assert all(name.isidentifier() for name in names), team
        assert all(a["description"].strip() for a in agents), team


def test_every_case_is_well_formed(data: dict[str, Any]) -> None:
    for case in data["cases"]:
        names = members(data, case["team"])
        assert 2 <= len(case["messages"]) <= 6, case["id"]
        assert all(m["name"] in names and m["content"].strip() for m in case["messages"]), case["id"]
        assert case["expected"] in names, case["id"]
        assert case["expected"] != case["messages"][-1]["name"], case["id"]
        assert case["cue"] in ("name", "role"), case["id"]


def test_cues_are_mixed_and_name_cues_name_the_speaker(data: dict[str, Any]) -> None:
    cues = Counter(c["cue"] for c in data["cases"])
    assert 0.4 <= cues["name"] / len(data["cases"]) <= 0.6
    for case in data["cases"]:
        if case["cue"] == "name":  # the speaker is named in the conversation
            assert any(case["expected"] in m["content"] for m in case["messages"]), case["id"]


def test_round_robin_fallback_is_rarely_right(data: dict[str, Any]) -> None:
    hits, count = runner.round_robin_baseline(data)
    assert count == len(data["cases"])
    assert hits / count <= 0.35  # luck of the fallback must not pass for a good selector
    case = next(c for c in data["cases"] if c["id"] == "math-01")
    assert runner.round_robin_choice(case, data["teams"]["math_pair"]) == "verifier"


def test_check_dataset_accepts_the_file_and_names_each_problem(data: dict[str, Any]) -> None:
    assert runner.check_dataset(data) == []
    assert runner.load_dataset(BENCH / "selection_cases.json") == data
    broken = copy.deepcopy(data)
    first = broken["cases"][0]
    first["expected"] = first["messages"][-1]["name"]
    broken["cases"][1]["id"] = first["id"]
    broken["cases"][2]["messages"][0]["name"] = "stranger"
    broken["cases"][3]["cue"] = "hint"
    broken["teams"]["unused_team"] = [{"name": "a", "description": "A."}, {"name": "b", "description": "B."}]
    problems = runner.check_dataset(broken)
    assert f"case {first['id']}: the expected speaker {first['expected']} is also the last speaker" in problems
    assert f"case {first['id']}: duplicate id" in problems
    assert any("message author 'stranger' is not in team" in p for p in problems)
    assert any("cue must be one of ['name', 'role'], got 'hint'" in p for p in problems)
    assert "teams without cases: ['unused_team']" in problems
    assert runner.check_dataset([]) == ['the data must be an object with a "cases" list and a "teams" object']


def test_load_dataset_reports_bad_files(tmp_path: Path) -> None:
    bad = tmp_path / "cases.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(runner.SetupError, match="cannot read the data set"):
        runner.load_dataset(bad)
    bad.write_text(json.dumps({"cases": [], "teams": {"t": [{"name": "solo", "description": "x"}]}}), "utf-8")
    with pytest.raises(runner.SetupError, match="team t: needs at least 2 members"):
        runner.load_dataset(bad)


# ----------------------------------------------------------------- configuration
def test_method_config_toggles_structured_output_only() -> None:
    base = runner.base_url_config("http://127.0.0.1:1/v1")
    assert base == {
        "config_list": [{"model": "smollm2-135m-instruct", "base_url": "http://127.0.0.1:1/v1", "api_key": "x",
                         "price": [0, 0]}],
        "cache_seed": None,
        "temperature": 0,
    }
    structured = runner.method_config(base, "structured")
    assert structured["config_list"][0]["structured_output"] == "json_object"
    assert "structured_output" not in base["config_list"][0]  # the input is not modified
    classic = runner.method_config(structured, "classic")
    assert classic == base
    with pytest.raises(ValueError, match=r"method must be one of \['classic', 'structured'\], got 'fast'"):
        runner.method_config(base, "fast")


# ----------------------------------------------------------------- running cases
def _run_all(data: dict[str, Any], server: ScriptedOpenAIServer, cases: list[dict[str, Any]]) -> list[Any]:
    config = runner.method_config(server.llm_config(), "classic")
    return [runner.run_case(c, data["teams"][c["team"]], config) for c in cases]


TEAMS = list(json.loads((BENCH / "selection_cases.json").read_text(encoding="utf-8"))["teams"])


@pytest.mark.parametrize("team", TEAMS)  # one test per team keeps each test short
def test_a_selector_answering_the_expected_name_scores_100(
    data: dict[str, Any], scripted_server: ScriptedOpenAIServer, team: str
) -> None:
    cases = [c for c in data["cases"] if c["team"] == team]
    results = []
    for case in cases:
        scripted_server.set_responder(lambda body, name=case["expected"]: name)
        results += _run_all(data, scripted_server, [case])
    summary = runner.summarize(results)
    assert (summary.cases, summary.correct, summary.model_correct, summary.fallbacks, summary.errors) == (
        len(cases), len(cases), len(cases), 0, 0)
    assert summary.accuracy == 100.0
    assert [r.calls for r in results] == [1] * len(results)
    assert scripted_server.request_count == len(cases)
    assert all(r.prompt_tokens > 0 and r.outcomes == ["selected"] for r in results)
    # The model reads the case conversation as classic user messages with names, between the prompts.
    first = scripted_server.requests[0]["messages"]
    assert first[1:-1] == [{"role": "user", "content": m["content"], "name": m["name"]} for m in cases[0]["messages"]]
    assert all(m["name"] in first[0]["content"] for m in data["teams"][team])  # the roles are listed
    assert "Read the above conversation" in first[-1]["content"]


def test_a_selector_naming_the_last_speaker_scores_0(
    data: dict[str, Any], scripted_server: ScriptedOpenAIServer
) -> None:
    cases = data["cases"][::4]  # a spread over all teams keeps this fast
    assert {c["team"] for c in cases} == set(data["teams"])
    results = []
    for case in cases:
        scripted_server.set_responder(lambda body, name=case["messages"][-1]["name"]: name)
        results += _run_all(data, scripted_server, [case])
    summary = runner.summarize(results)
    assert (summary.correct, summary.accuracy, summary.calls) == (0, 0.0, 1.0)
    assert all(r.chosen == c["messages"][-1]["name"] for r, c in zip(results, cases))


def test_no_name_in_the_answers_is_counted_as_fallback(
    data: dict[str, Any], scripted_server: ScriptedOpenAIServer
) -> None:
    case = next(c for c in data["cases"] if c["id"] == "math-01")  # the fallback happens to be right
    scripted_server.set_responder(lambda body: "I am ready to play.")
    (result,) = _run_all(data, scripted_server, [case])
    assert (result.chosen, result.correct, result.named_by_model, result.fallback) == ("verifier", True, False, True)
    assert result.calls == 3 and result.outcomes == ["none"] * 3
    summary = runner.summarize([result])
    assert (summary.accuracy, summary.model_accuracy, summary.fallbacks) == (100.0, 0.0, 1)


def test_a_failing_endpoint_becomes_an_error_result(
    data: dict[str, Any], scripted_server: ScriptedOpenAIServer
) -> None:
    from autogen_classic.testing.scripted_server import ScriptedReply

    scripted_server.set_responder(lambda body: ScriptedReply(status=400, error_message="bad request"))
    case = data["cases"][0]
    (result,) = _run_all(data, scripted_server, [case])
    assert result.chosen is None and not result.correct
    assert result.error is not None and "bad request" in result.error
    report = runner.format_report("classic", [result])
    assert "misses (1):" in report
    assert "plan-code-01  coder     None    AllEndpointsFailedError: The model endpoint failed: [0]" in report


def test_report_tables(data: dict[str, Any]) -> None:
    def result(cid: str, team: str, cue: str, expected: str, chosen: str, outcomes: list[str]) -> Any:
        return runner.CaseResult(cid, team, cue, "classic", expected, chosen, len(outcomes), 100 * len(outcomes),
                                 0.5, answers=[chosen] * len(outcomes), outcomes=outcomes)

    results = [
        result("a-1", "alpha", "name", "x", "x", ["selected"]),
        result("a-2", "alpha", "role", "y", "z", ["none", "selected"]),
        result("b-1", "beta", "role", "x", "x", ["none", "none", "none"]),
        runner.CaseResult("b-2", "beta", "name", "structured", "y", "y", 0, 0, 0.5,
                          reason="auto: the last message addresses y by name (no model call)"),
    ]
    lines = runner.format_report("classic", results, "test model").splitlines()
    assert lines[:4] == [
        "== method: classic (test model)",
        "cases  correct  accuracy  by model  by rule (right)  fallbacks  calls/sel  prompt tok/sel  s/sel  errors",
        "-----  -------  --------  --------  ---------------  ---------  ---------  --------------  -----  ------",
        "    4        3     75.0%     25.0%            1 (1)          1       1.50             150   0.50       0",
    ]
    assert "alpha      2        1     50.0%     50.0%          0       1.50" in lines
    assert "role      2        1     50.0%      0.0%          1       2.50" in lines
    assert lines[-3:] == [
        "id   expected  chosen  answers (one per model call) or error",
        "---  --------  ------  -------------------------------------",
        "a-2  y         z       'z' | 'z'",
    ]


def test_main_runs_a_few_cases_and_writes_json(
    data: dict[str, Any], scripted_server: ScriptedOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scripted_server.set_responder(lambda body: "coder")
    out = tmp_path / "results.json"
    code = runner.main(["--method", "classic", "--limit", "2", "--base-url", scripted_server.base_url,
                        "--json", str(out)])
    assert code == 0
    printed = capsys.readouterr()
    assert f"== method: classic (server at {scripted_server.base_url}, allow_repeat_speaker=True)" in printed.out
    assert runner.TARGET_LINE in printed.out
    assert "round-robin fallback alone: " in printed.out
    assert "[classic 1/2] ok   plan-code-01: expected coder, chose coder (1 calls" in printed.err
    payload = json.loads(out.read_text(encoding="utf-8"))
    assert [(r["id"], r["chosen"], r["correct"]) for r in payload["results"]] == [
        ("plan-code-01", "coder", True), ("plan-code-02", "coder", False)]
    assert payload["summary"]["classic"]["accuracy"] == 50.0


def test_main_fails_setup_on_a_bad_data_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "cases.json"
    bad.write_text("[]", encoding="utf-8")
    assert runner.main(["--data", str(bad), "--base-url", "http://127.0.0.1:9/v1"]) == 2
    assert "setup failed: the data set" in capsys.readouterr().err


def test_main_fails_setup_when_no_server_answers(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as sock:  # a port that was free a moment ago: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    assert runner.main(["--limit", "1", "--base-url", f"http://127.0.0.1:{port}/v1"]) == 2
    err = capsys.readouterr().err
    assert f"setup failed: no OpenAI-compatible server answers at http://127.0.0.1:{port}/v1" in err
    assert "start one or fix --base-url" in err


def test_target_lines_judge_the_structured_run() -> None:
    good = runner.Summary(cases=50, correct=46, model_correct=46, fallbacks=0, errors=0, calls=1.0,
                          prompt_tokens=350.0, seconds=1.0)
    slow = runner.Summary(cases=50, correct=50, model_correct=50, fallbacks=0, errors=0, calls=1.5,
                          prompt_tokens=350.0, seconds=1.0)
    assert runner.target_lines({"classic": slow}, embedded=True) == [runner.TARGET_LINE]
    assert runner.target_lines({"structured": good}, embedded=True)[1] == (
        "structured: 92.0% correct, 1.00 calls, 350 prompt tokens -> MET")
    assert runner.target_lines({"structured": slow}, embedded=False)[1] == (
        "structured: 100.0% correct, 1.50 calls, 350 prompt tokens -> NOT MET "
        "(model at --base-url, not the embedded default)")
