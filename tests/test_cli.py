"""The ``autogen-classic`` command, run as a user runs it: a subprocess on the installed entry point."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import openai
import pytest

from autogen_classic.agentchat.groupchat.selection.trace import SelectionAttempt, SelectionRecord, format_selection_log
from autogen_classic.cli import build_parser

pytestmark = pytest.mark.timeout(240)


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    # No API key and no config list: the default configuration is the embedded model.
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OAI_CONFIG_LIST", "OPENAI_MODEL")}
    env.pop("AUTOGEN_CLASSIC_LOCAL_BASE_URL", None)
    env.update({"NO_COLOR": "1", **extra})
    return env


def _cli(tmp_path: Path, *args: str, stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "autogen_classic", *args],
        input=stdin, capture_output=True, text=True, cwd=tmp_path, env=_env(tmp_path, **env), timeout=200,
    )


def _selection_table(stdout: str) -> list[list[str]]:
    block = stdout.split("Speaker selection:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    return [re.split(r"\s{2,}", line.strip()) for line in block[1:-1] if not line.startswith(" ")]


def test_demo_runs_a_group_chat_on_the_embedded_model(tmp_path: Path) -> None:
    run = _cli(tmp_path, "demo")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert re.search(r"^Using the embedded model SmolLM2-135M-Instruct at http://127\.0\.0\.1:\d+/v1$", out, re.M)
    assert "user_proxy (to chat_manager):\n\nWrite a Python function is_palindrome" in out
    # The transition graph: the planner speaks first, hands over to the coder, who hands over to the critic.
    speakers = re.findall(r"^Next speaker: (\w+)$", out, re.M)
    assert speakers[:3] == ["planner", "coder", "critic"]
    assert re.search(r"^planner \(to chat_manager\):\n\n\S", out, re.M)  # the model wrote something
    rows = _selection_table(out)
    assert [row[3] for row in rows] == speakers
    assert rows[0][:5] == ["0", "user_proxy", "planner", "planner", "0"]
    critic_rows = [row for row in rows if row[1] == "critic"]
    for row in critic_rows:  # several candidates: the model was asked once (or the critic addressed one)
        assert row[2] == "user_proxy, planner, coder" and row[4] in ("0", "1")
    assert re.search(r"^\d+ selection\(s\), \d+ question\(s\) to the selector$", out, re.M)
    usage = re.search(r"\* Model 'smollm2-135m-instruct': cost: 0, prompt_tokens: (\d+), completion_tokens: (\d+)", out)
    assert usage and int(usage.group(1)) > 0 and int(usage.group(2)) > 0


def test_demo_manual_lets_the_keyboard_pick_each_speaker(tmp_path: Path) -> None:
    run = _cli(tmp_path, "demo", "--manual", "--max-round", "3", stdin="4\n2\n")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert out.count("Please select the next speaker from the following list:\n1: user_proxy\n2: planner\n"
                     "3: coder\n4: critic") == 2
    assert re.findall(r"^Next speaker: (\w+)$", out, re.M) == ["critic", "planner"]
    rows = _selection_table(out)
    assert [row[3] for row in rows] == ["critic", "planner"]
    assert all(row[4] == "0" for row in rows)  # no question to the model: the keyboard chose
    picks = re.findall(r"^    manual: (picked \w+ by number)", out, re.M)
    assert picks == ["picked critic by number", "picked planner by number"]
    assert re.search(r"^2 selection\(s\), 0 question\(s\) to the selector, 2 answer\(s\) typed$", out, re.M)


def test_demo_reads_oai_config_list_first(tmp_path: Path, scripted_server) -> None:  # type: ignore[no-untyped-def]
    scripted_server.set_responder(lambda request: "Plan: 1. write it. Coder, please implement it.")
    config = f'[{{"model": "scripted-model", "base_url": "{scripted_server.base_url}", "api_key": "sk-secret-123"}}]'
    run = _cli(tmp_path, "demo", "--max-round", "3", OAI_CONFIG_LIST=config, OPENAI_API_KEY="sk-other-456")
    assert run.returncode == 0, run.stderr
    assert "Using OAI_CONFIG_LIST" in run.stdout and "embedded" not in run.stdout.split("\n", 1)[0]
    assert "sk-secret-123" not in run.stdout + run.stderr and "sk-other-456" not in run.stdout + run.stderr
    assert re.findall(r"^Next speaker: (\w+)$", run.stdout, re.M) == ["planner", "coder"]
    assert [r["model"] for r in scripted_server.requests] == ["scripted-model"] * 2  # planner, coder


def test_demo_scripted_needs_no_model(tmp_path: Path) -> None:
    run = _cli(tmp_path, "demo", "--scripted")
    assert run.returncode == 0, run.stderr
    assert "Summary: The sum of the squares of 1..10 is 385." in run.stdout


def test_demo_rejects_a_bad_round_count(tmp_path: Path) -> None:
    run = _cli(tmp_path, "demo", "--max-round", "1")
    assert run.returncode == 2
    assert "--max-round: must be a whole number >= 2" in run.stderr


def test_serve_prints_its_url_answers_and_stops_on_sigterm(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "autogen_classic", "serve"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, cwd=tmp_path, env=_env(tmp_path),
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        match = re.fullmatch(r"Serving SmolLM2-135M-Instruct at (http://127\.0\.0\.1:\d+/v1)\n", first)
        assert match, first
        base_url = match.group(1)
        assert proc.stdout.readline() == f"Use it from other processes with AUTOGEN_CLASSIC_LOCAL_BASE_URL={base_url}\n"
        client = openai.OpenAI(base_url=base_url, api_key="not-needed")
        reply = client.chat.completions.create(
            model="smollm2-135m-instruct", messages=[{"role": "user", "content": "Say hi."}], max_tokens=8
        )
        assert reply.choices[0].message.content
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0
    assert out.rstrip().endswith("Stopped.")
    time.sleep(0.2)
    with pytest.raises(openai.APIConnectionError):
        openai.OpenAI(base_url=base_url, api_key="x", max_retries=0, timeout=2).models.list()


def test_parser_lists_both_commands() -> None:
    help_text = build_parser().format_help()
    assert "demo" in help_text and "serve" in help_text


def test_format_selection_log_table() -> None:
    record = SelectionRecord(round=0, method="auto", last_speaker="coder", chosen="critic",
                             usage={"prompt_tokens": 120})
    record.add_step("all", ["coder", "critic", "planner"])
    record.add_step("repeat_rule", ["critic", "planner"])
    record.attempts.append(SelectionAttempt("structured", '{"speaker": "critic"}', {"critic": 1}, "selected"))
    ended = SelectionRecord(round=1, method="round_robin", last_speaker="critic")
    assert format_selection_log([record, ended]).splitlines() == [
        "#  after   candidates       chosen  calls  prompt tok",
        "0  coder   critic, planner  critic  1      120",
        "1  critic  -                (end)   0      0",
        "2 selection(s), 1 question(s) to the selector",
    ]
