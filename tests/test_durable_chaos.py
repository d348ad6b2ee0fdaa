"""Chaos test: group chats SIGKILLed at random rounds and resumed in a new process end as if never stopped.

For each kill point (a scenario of ``tests/durable_scenarios.py``, a round k and a site: a reply function,
the speaker selection or a tool), a subprocess runs the chat and kills itself with SIGKILL at that site once
the chat holds k messages; another subprocess resumes it with ``resume_group_chat`` / ``resume_pattern_group_chat``
(sync or async). The transcript, the final context variables and the summary must equal those of an
uninterrupted run. The points are drawn with a seeded generator (seed and points printed); set
``DURABLE_CHAOS_SEED`` to replay a draw. ``bench/chaos_resume.py`` runs 50 points or more.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tests" / "durable_scenarios.py"
SCENARIOS = {"classic": ("reply", "select"), "classic_async": ("reply", "select"),
             "pattern": ("reply", "tool"), "pattern_async": ("reply", "tool")}
LAST_ROUND = {"classic": 19, "pattern": 19}  # the messages of an uninterrupted run, less one


def run_scenario(scenario: str, mode: str, path: Path, kill_round: int = 0, site: str = "reply") -> Any:
    """Run a scenario in a subprocess; its JSON outcome, or the return code when it was killed."""
    done = subprocess.run(
        [sys.executable, str(SCRIPT), scenario, mode, str(path), str(kill_round), site],
        capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False,
    )
    if mode == "kill":
        return done.returncode
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def draw_points(seed: int, count: int) -> list[tuple[str, int, str]]:
    """``count`` kill points (scenario, round, site), each scenario in turn, rounds and sites drawn."""
    generator = random.Random(seed)
    names = list(SCENARIOS)
    points = []
    for i in range(count):
        scenario = names[i % len(names)]
        last = LAST_ROUND[scenario.split("_")[0]]
        points.append((scenario, generator.randint(1, last), generator.choice(SCENARIOS[scenario])))
    return points


def check_point(tmp: Path, number: int, scenario: str, kill_round: int, site: str,
                expected: dict[str, Any]) -> dict[str, Any]:
    """Kill the scenario at the point, resume it, compare with ``expected``; a row of the results table."""
    path = tmp / f"{number}-{scenario}-{kill_round}-{site}.jsonl"  # a draw may hold a point twice
    started = time.monotonic()
    code = run_scenario(scenario, "kill", path, kill_round, site)
    written = sum(1 for line in path.read_text().splitlines() if line.strip()) if path.exists() else 0
    outcome = run_scenario(scenario, "resume", path) if written else None
    same = outcome is not None and all(outcome[key] == expected[key] for key in ("messages", "context", "summary"))
    return {"scenario": scenario, "round": kill_round, "site": site, "killed": code == -9,
            "written_before_kill": written, "same": same, "seconds": round(time.monotonic() - started, 2),
            "outcome": outcome}


def scenarios() -> Any:
    """The scenarios module, to run a chat in this process (when nothing is killed)."""
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import durable_scenarios
    finally:
        sys.path.remove(str(SCRIPT.parent))
    return durable_scenarios


def expected_outcomes(tmp: Path) -> dict[str, dict[str, Any]]:
    """The uninterrupted run of every scenario (in this process: nothing is killed)."""
    outcomes = {}
    for name in SCENARIOS:
        outcome = scenarios().run(name, "full", str(tmp / f"{name}-full.jsonl"), None, "reply")
        outcomes[name] = json.loads(json.dumps(outcome, default=str))  # as the subprocesses report it
    return outcomes


def test_killed_runs_resume_to_the_uninterrupted_outcome(tmp_path: Path) -> None:
    seed = int(os.environ.get("DURABLE_CHAOS_SEED", random.SystemRandom().randrange(1 << 30)))
    points = draw_points(seed, 8)
    print(f"seed {seed}; kill points {points}")
    expected = expected_outcomes(tmp_path)
    # The sync and async runs and their results agree with each other.
    assert expected["classic"] == expected["classic_async"]
    assert expected["pattern"] == expected["pattern_async"]
    for number, (scenario, kill_round, site) in enumerate(points):
        row = check_point(tmp_path, number, scenario, kill_round, site, expected[scenario])
        # A site with no turn left after round k lets the chat end: resuming a finished chat must not change it.
        assert row["same"], (f"seed {seed}: {scenario} killed at round {kill_round} ({site}) resumed differently: "
                             f"{row['outcome']} != {expected[scenario]}")


@pytest.mark.parametrize("scenario", ["classic", "pattern_async"])
def test_checkpoint_lines_follow_the_transcript(tmp_path: Path, scenario: str) -> None:
    from autogen_classic import load_transcript
    from autogen_classic.agentchat.groupchat.durable.checkpoint_file import load_checkpoint

    path = tmp_path / "chat.jsonl"
    scenarios().run(scenario, "full", str(path), None, "reply")
    checkpoint = load_checkpoint(str(path) + ".state")
    messages = load_transcript(path)
    assert checkpoint.indexes == list(range(len(messages)))
    assert [state["round"] for state in checkpoint.states] == list(range(1, len(messages) + 1))
    # Each line holds only what changed: the selection trace is written once, record by record.
    assert len(checkpoint.selections[-1]) == checkpoint.selection_lengths[-1] == len(messages) - 1
