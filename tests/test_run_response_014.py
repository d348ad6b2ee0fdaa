"""Runs as AG2 Classic 0.14 code writes them, compared with what autogen 0.14.1 printed for the same scripts.

``tests/classic_examples_014/run_console.py`` shows runs with ``response.process()`` (the console text of
each run is compared section by section); ``run_events_json.py`` prints the JSON of every event of runs
(input requests answered, a failing chat, ``run_iter`` with ``yield_on``, the async twins). The model is the
scripted server of this test process; ``tests/data/reference_run_response_014.json`` holds what the same
scripts printed under ``autogen==0.14.1`` against the same replies. To record it again::

    AUTOGEN_0141_PYTHON=/path/to/python .venv/bin/python -m pytest -q tests/test_run_response_014.py
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Dict, Iterator

import pytest

from autogen_classic.testing.scripted_server import API_KEY, ScriptedOpenAIServer, ScriptedReply

from test_classic_examples import run_example, write_config_list

DATA = Path(__file__).resolve().parent / "data"
REFERENCE = DATA / "reference_run_response_014.json"
SHIM = DATA / "reference_shim"
EXAMPLES = "../classic_examples_014"
RECORDING_WITH = os.environ.get("AUTOGEN_0141_PYTHON")

_SECTION = re.compile(r"^=====BEGIN (\w+)\n(.*?)^=====END \1$", re.S | re.M)
_RUN_ID = re.compile(r"TERMINATING RUN \([0-9a-f-]{36}\)")


def sections(stdout: str) -> Dict[str, str]:
    """The console text of each run of a script (the uuid of a run's termination line masked)."""
    return {name: _RUN_ID.sub("TERMINATING RUN (<uuid>)", text) for name, text in _SECTION.findall(stdout)}


@pytest.fixture(scope="module")
def recorded() -> Iterator[Dict[str, Dict[str, Any]]]:
    outputs: Dict[str, Dict[str, Any]] = json.loads(REFERENCE.read_text()) if REFERENCE.exists() else {}
    yield outputs
    if RECORDING_WITH:
        REFERENCE.write_text(json.dumps(outputs, indent=1, sort_keys=True) + "\n")


@pytest.fixture
def workdir(tmp_path: Path, scripted_server: ScriptedOpenAIServer) -> Path:
    write_config_list(tmp_path, [{"model": "gpt-4o-mini", "base_url": scripted_server.base_url, "api_key": API_KEY}])
    return tmp_path


def run_and_compare(name: str, cwd: Path, recorded: Dict[str, Dict[str, Any]]) -> Dict[str, Any]:
    """Run the script (here, or under the reference when recording); every key and console section must match."""
    if RECORDING_WITH:
        out = run_example(f"{EXAMPLES}/{name}", cwd, python=RECORDING_WITH, pythonpath=str(SHIM))
        recorded[name] = {k: v for k, v in out.items() if not k.startswith("_")}
        recorded[name]["_sections"] = sections(out["_stdout"])
        return out
    out = run_example(f"{EXAMPLES}/{name}", cwd)
    reference = recorded[name]
    mismatches = [
        f"{key}: {out.get(key, '<not printed>')!r}\n   (0.14.1: {expected!r})"
        for key, expected in reference.items()
        if not key.startswith("_") and out.get(key) != expected
    ]
    ours = sections(out["_stdout"])
    for section, text in reference.get("_sections", {}).items():
        if ours.get(section) != text:
            mismatches.append(f"console of {section}:\n{ours.get(section)}\n   (0.14.1:\n{text})")
    assert not mismatches, f"{name} differs from autogen 0.14.1:\n" + "\n".join(mismatches) + out["_stderr"][-3000:]
    return out


def test_runs_shown_by_the_console_processor(scripted_server: ScriptedOpenAIServer, workdir: Path,
                                             recorded: Dict) -> None:
    scripted_server.add_replies(
        "Hello!",
        "Hello again.",
        ScriptedReply(tool_calls=[{"name": "add", "arguments": {"a": 2, "b": 3}, "id": "call_1"}]),
        "The sum is 5. TERMINATE",
        "One, two.",
    )
    out = run_and_compare("run_console.py", workdir, recorded)
    if not RECORDING_WITH:
        assert out["TOOL_SUMMARY"] == "The sum is 5. " and "EXECUTED FUNCTION add" in out["_stdout"]


def test_run_events_as_json(scripted_server: ScriptedOpenAIServer, workdir: Path, recorded: Dict) -> None:
    scripted_server.add_replies(
        "An agent acts.",
        "It talks and uses tools.",
        "How can I help?",
        "Here is help.",
        "One.",
        "Two.",
        "Hello async.",
        "Again.",
    )
    run_and_compare("run_events_json.py", workdir, recorded)
