"""Scripts written for AG2 Classic 0.14's tools (tests/classic_examples_014/) run here and print what 0.14.1 prints.

The same machinery as ``test_classic_examples_014``: the lines 0.14.1 printed are in
``tests/data/reference_outputs_014.json``; record them again with::

    AUTOGEN_0141_PYTHON=/path/to/python .venv/bin/python -m pytest -q tests/test_classic_examples_014_tools.py
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Callable, Dict, List

from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply

from test_classic_examples_014 import DIFFERENCES, RECORDING_WITH, recorded, run_and_compare, workdir  # noqa: F401


def call(name: str, **arguments: Any) -> ScriptedReply:
    return ScriptedReply(tool_calls=[{"name": name, "arguments": arguments}])


def verdict(passed: bool, justification: str) -> str:
    return json.dumps({"validation_result": passed, "justification": justification})


def price(item: str, hypothesis: str = "A positive price.") -> ScriptedReply:
    return call("execute_lookup_price", item=item, hypothesis=hypothesis)


# Per task tag: what the runner says, one answer per turn, and what the validator says.
RUNNER: Dict[str, List[Any]] = {
    "success": [price("apple", "The price of an apple.")],
    "retry": [price("durian"), "Let me think about it.", price("pear"), price("banana")],
    "fail": [price("durian"), price("kiwi")],
    "again": [price("kiwi")],
    "silent": ["I would look up the pear."] * 3,
    "stock": [call("execute_fetch_stock", ticker="ACME", hypothesis="A number of units.")],
    "async-of-sync": [price("pear")],
    "chat": [price("apple")],
}
VALIDATOR: Dict[str, List[str]] = {
    "success": [verdict(True, "The price is positive.")],
    "retry": [verdict(False, "A pear is not a banana."), verdict(True, "The banana's price.")],
    "fail": [verdict(False, "A kiwi is not a durian.")],
    "again": [verdict(False, "Kiwis are out of season.")],
    "stock": [verdict(True, "A whole number.")],
    "async-of-sync": [verdict(True, "Fine.")],
    "chat": [verdict(True, "Fine.")],
}
OUTER = [call("PriceLookup", task="[chat] the price of an apple"), "An apple costs 1.5. All done, TERMINATE"]


def _responder() -> Callable[[Dict[str, Any]], Any]:
    queues = {"runner": {k: list(v) for k, v in RUNNER.items()},
              "validator": {k: list(v) for k, v in VALIDATOR.items()}}
    outer = list(OUTER)

    def respond(body: Dict[str, Any]) -> Any:
        system = body["messages"][0].get("content") or ""
        if system.startswith("You answer price questions."):
            return outer.pop(0) if outer else "Nothing more."
        role = "runner" if "responsible for invoking a specific function" in system else "validator"
        tag = re.search(r"\[([a-z-]+)\]", system)
        queue = queues[role].get(tag.group(1) if tag else "", [])
        return queue.pop(0) if queue else "I have nothing more to add."

    return respond


def _reuse_keeps_its_own_record(ours: Any, reference: Any) -> bool:
    """The same error; here the context is the second run's, in 0.14.1 a copy of the first run's with the last
    attempt added."""
    return (ours[0] == reference[0] and ours[1] == "[again] the price of a kiwi"
            and reference[1] == "[success] the price of an apple"
            and [a[0] for a in ours[2]] == [{"item": "kiwi"}] and ours[2][-1] == reference[2][-1])


def _raised_when_built(ours: Any, reference: Any) -> bool:
    """The same ImportError (modules, extra); raised here when the tool is built, by 0.14.1 when it is called."""
    return ours[0] == "construction" and reference[0] == "call" and ours[1:] == reference[1:]


DIFFERENCES["reliable_tool.py"] = {"REUSED_ERROR": _reuse_keeps_its_own_record, "TAVILY_ERROR": _raised_when_built}


def test_reliable_tool(scripted_server: ScriptedOpenAIServer, workdir: Path, recorded: Dict) -> None:  # noqa: F811
    scripted_server.set_responder(_responder())
    out = run_and_compare("reliable_tool.py", workdir, recorded)
    if RECORDING_WITH:
        return
    assert out["SUCCESS_RESULT"] == 1.5 and out["RETRY_RESULT"] == 0.5
    assert "FAIL_ERROR" in out and "SERVICE_ERROR" in out and "TAVILY_ERROR" in out
    # The runner was offered its one tool, with the hypothesis and without the injected context variables.
    first = scripted_server.requests[0]
    assert [t["function"]["name"] for t in first["tools"]] == ["execute_lookup_price"]
    assert set(first["tools"][0]["function"]["parameters"]["properties"]) == {"item", "hypothesis"}
    # The validator answered in the ValidationResult schema, offered no tools.
    second = scripted_server.requests[1]
    assert second["response_format"]["json_schema"]["name"] == "ValidationResult" and "tools" not in second
    assert second["messages"][-1]["content"] == (
        "--- Function Result to Validate ---\n```\n1.5\n```\n--- End of Result ---")
