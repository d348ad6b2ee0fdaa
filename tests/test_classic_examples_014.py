"""Scripts written for AG2 Classic 0.14 (tests/classic_examples_014/) run here and print what 0.14.1 prints.

Each script uses the 0.14 interface (``LLMConfig``, ``run(...).process()``, ``run_iter(yield_on=...)``,
eligibility policies reading names, the 0.14 exception classes) with ``import autogen_classic as autogen`` as
its only change. It talks to the scripted OpenAI-compatible server of this test process and prints
``KEY: <json>`` lines. ``tests/data/reference_outputs_014.json`` holds the lines the same scripts printed
under ``autogen==0.14.1`` against the same scripted replies; every key must match, except the few listed in
``DIFFERENCES`` with the reason.

To record the reference's lines again, with an interpreter that has ``autogen==0.14.1`` installed::

    AUTOGEN_0141_PYTHON=/path/to/python .venv/bin/python -m pytest -q tests/test_classic_examples_014.py

(``tests/data/reference_shim`` makes ``autogen_classic`` load the classic ``autogen`` in that interpreter.)
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List

import pytest

from autogen_classic.testing.scripted_server import API_KEY, ScriptedOpenAIServer

from test_classic_examples import run_example, write_config_list

DATA = Path(__file__).resolve().parent / "data"
REFERENCE = DATA / "reference_outputs_014.json"
SHIM = DATA / "reference_shim"
EXAMPLES = "../classic_examples_014"
RECORDING_WITH = os.environ.get("AUTOGEN_0141_PYTHON")

# Keys whose value differs from 0.14.1 on purpose, with the comparison used instead.
Comparator = Callable[[Any, Any], bool]


def _builtin_bases_kept(ours: Any, reference: Any) -> bool:
    """An exception caught by every built-in base the reference's is (ours may add bases, or be a subclass)."""
    return isinstance(ours, list) and set(reference[1]) <= set(ours[1])


DIFFERENCES: Dict[str, Dict[str, Comparator]] = {
    "bad_input.py": {
        key: _builtin_bases_kept
        for key in (
            "WRONG_TYPE",
            "UNKNOWN_API_TYPE",
            "EMPTY_CONFIG",
            "TOP_LEVEL_UNKNOWN",
            "POLICY_WITHOUT_IS_ELIGIBLE",
            "DUPLICATE_NAMES",
        )
    },
}


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


_SECTION = re.compile(r"^=====BEGIN (\w+)\n(.*?)^=====END \1$", re.S | re.M)
_RUN_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def run_script(name: str, cwd: Path, **kwargs: Any) -> Dict[str, Any]:
    """The script's ``KEY: value`` lines, and the console text of each ``=====BEGIN KEY`` section as ``CONSOLE_KEY``
    (run ids masked as ``ID``)."""
    out = run_example(f"{EXAMPLES}/{name}", cwd, **kwargs)
    for key, text in _SECTION.findall(out["_stdout"]):
        out[f"CONSOLE_{key}"] = _RUN_ID.sub("ID", text)
    return out


def run_and_compare(name: str, cwd: Path, recorded: Dict[str, Dict[str, Any]]) -> Dict[str, Any]:
    """Run the script (here, or under the reference when recording) and compare its lines with 0.14.1's."""
    if RECORDING_WITH:
        out = run_script(name, cwd, python=RECORDING_WITH, pythonpath=str(SHIM))
        recorded[name] = {k: v for k, v in out.items() if not k.startswith("_")}
        return out
    out = run_script(name, cwd)
    reference = recorded[name]
    special = DIFFERENCES.get(name, {})
    mismatches: List[str] = []
    for key, expected in reference.items():
        if key not in out:
            mismatches.append(f"{key}: not printed")
        elif key in special:
            if not special[key](out[key], expected):
                mismatches.append(f"{key}: {out[key]!r} (0.14.1: {expected!r})")
        elif out[key] != expected:
            mismatches.append(f"{key}: {out[key]!r} (0.14.1: {expected!r})")
    assert not mismatches, f"{name} differs from autogen 0.14.1:\n" + "\n".join(mismatches) + "\n" + out["_stderr"][-3000:]
    return out


def test_llm_config_and_run_process(scripted_server: ScriptedOpenAIServer, workdir: Path, recorded: Dict) -> None:
    scripted_server.add_replies("Bonjour ! TERMINATE", "Au revoir. TERMINATE")
    out = run_and_compare("llm_config_run.py", workdir, recorded)
    if not RECORDING_WITH:
        # The chat reached the model through the configuration built from the file: its temperature is sent.
        assert [b.get("temperature") for b in scripted_server.requests] == [0, 0]
        assert "Bonjour !" in out["_stdout"]  # process() printed the chat on the console


def test_run_events_and_run_iter(scripted_server: ScriptedOpenAIServer, workdir: Path, recorded: Dict) -> None:
    scripted_server.add_replies(
        "A group chat is several agents talking.",
        "They take turns chosen by a manager.",
        "One.",
        "Two.",
        "Three.",
        "Done.",
    )
    run_and_compare("run_iter_events.py", workdir, recorded)


def test_eligibility_policies_read_names(scripted_server: ScriptedOpenAIServer, workdir: Path, recorded: Dict) -> None:
    scripted_server.add_replies(*[f"Turn {i}." for i in range(1, 8)])
    run_and_compare("eligibility_policies.py", workdir, recorded)


def test_bad_input_is_caught_the_classic_way(workdir: Path, recorded: Dict) -> None:
    run_and_compare("bad_input.py", workdir, recorded)


def _group_responder(scripts: Dict[str, List[Any]]) -> Callable[[Dict[str, Any]], Any]:
    """Answer each agent from its queue (by the start of its system prompt); "<prompt> speaks." when it is empty."""

    def respond(body: Dict[str, Any]) -> Any:
        system = body["messages"][0].get("content") or ""
        for prefix, queue in scripts.items():
            if system.startswith(prefix):
                return queue.pop(0) if queue else f"{prefix} speaks."
        return None

    return respond


# The hand-off tool's error: our InvalidStateError is an AssertionError, as 0.14.1's is, and a RuntimeError too.
DIFFERENCES["group_patterns.py"] = {
    "LLM_CONDITION_WITHOUT_MODEL": lambda ours, reference: _builtin_bases_kept(ours, reference) and ours[2] is True,
}


def test_group_patterns_and_handoffs(scripted_server: ScriptedOpenAIServer, workdir: Path, recorded: Dict) -> None:
    from autogen_classic.testing.scripted_server import ScriptedReply

    def call(name: str, **arguments: Any) -> ScriptedReply:
        return ScriptedReply(tool_calls=[{"name": name, "arguments": arguments}])

    scripted_server.set_responder(_group_responder({
        "You are the triage agent.": [call("transfer_to_billing_1")],
        "You are the billing agent.": [call("refund", amount=5)],
        "You are the support agent.": ["Your refund is on its way."],
        "You are the gate agent.": [call("login")],
        "You are the vault agent.": ["The vault is open."],
        "You are the helper.": ["How can I help?", "Here is more."],
        "You are the first speaker.": [], "You are the second speaker.": [], "You are the third speaker.": [],
    }))
    out = run_and_compare("group_patterns.py", workdir, recorded)
    if not RECORDING_WITH:
        # The models saw the hand-off tool, and the refund tool without its injected context_variables.
        tools = [[t["function"]["name"] for t in b.get("tools") or []] for b in scripted_server.requests]
        assert tools[:2] == [["transfer_to_billing_1"], ["refund"]]
        assert "AfterWork handoff (support): Terminate" in out["_stdout"]


def test_internals_and_defaults(scripted_server: ScriptedOpenAIServer, workdir: Path, recorded: Dict) -> None:
    # Two answers for the same question: a silent cache would print the first twice.
    scripted_server.add_replies("first answer", "second answer")
    out = run_and_compare("internals_and_defaults.py", workdir, recorded)
    if not RECORDING_WITH:
        assert out["ASKED_TWICE"] == ["first answer", "second answer"]
        assert not (workdir / ".cache").exists()


# A chat started with silent=True prints nothing here; 0.14.1 still prints its TERMINATING RUN line.
DIFFERENCES["console_lines.py"] = {
    "CONSOLE_SILENT": lambda ours, reference: ours == "" and reference.startswith("\n>>>>>>>> TERMINATING RUN (ID)"),
}


def test_console_lines_of_initiate_chat(scripted_server: ScriptedOpenAIServer, workdir: Path, recorded: Dict) -> None:
    def respond(body: Dict[str, Any]) -> Any:
        system = body["messages"][0].get("content") or ""
        if system.startswith("You are first."):
            return "First here."
        if system.startswith("You are second."):
            return "Second here."
        return "second"  # the pattern's speaker selection

    scripted_server.set_responder(respond)
    out = run_and_compare("console_lines.py", workdir, recorded)
    if not RECORDING_WITH:
        assert out["CONSOLE_MAX_TURNS"].endswith("\n>>>>>>>> TERMINATING RUN (ID): Maximum turns (2) reached\n")
        assert ">>>>>>>> EXECUTED FUNCTION add...\nCall ID: call_1\n" in out["CONSOLE_EXECUTED_FUNCTION"]
        assert out["CONSOLE_SILENT"] == ""
