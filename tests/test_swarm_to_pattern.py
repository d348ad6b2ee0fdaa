"""A swarm and the same team as a 0.14 pattern print the same conversation (docs/migrating.md, "From a swarm to a
pattern").

``tests/classic_examples/refund_desk_swarm.py`` is written for ag2 0.7.3's swarm, ``tests/classic_examples_014/
refund_desk_pattern.py`` for AG2 Classic 0.14's patterns. Both run in a subprocess against the scripted server
of this test process, with the same model replies except the names of the hand-off tools (the swarm's
``transfer_<agent>_to_<target>``, the pattern's ``transfer_to_<target>_<n>``). The expected conversation is
what ag2 0.7.3 and autogen 0.14.1 print for them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List

import pytest

from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply
from test_classic_examples import by_system_prompt, run_example, system_prompt, workdir  # noqa: F401  (fixture)

CONVERSATION = [
    ["customer", "I want a refund for my kettle."],
    ["triage", "Which order is it?"],
    ["customer", "It is order A-17."],
    ["closer", "Your refund for order A-17 is on its way."],
]


def replies(transfer: str) -> Dict[str, List[Any]]:
    """The model's replies, keyed by each agent's system prompt; ``transfer`` is the hand-off tool's name."""
    return {
        "You are the triage agent.": [
            "Which order is it?",  # no tool call: the after work reverts to the customer
            ScriptedReply(tool_calls=[{"id": "t1", "name": transfer, "arguments": {}}]),
        ],
        "You are the refunds agent.": [
            ScriptedReply(tool_calls=[{"id": "t2", "name": "issue_refund", "arguments": {"order_id": "A-17"}}]),
        ],
        "You are the closer.": ["Your refund for order A-17 is on its way."],
    }


@pytest.mark.parametrize("script, transfer", [
    ("refund_desk_swarm.py", "transfer_triage_to_refunds"),
    ("../classic_examples_014/refund_desk_pattern.py", "transfer_to_refunds_1"),
], ids=["swarm", "pattern"])
def test_the_swarm_and_the_pattern_print_the_same_conversation(
        scripted_server: ScriptedOpenAIServer, workdir: Path, script: str, transfer: str) -> None:
    scripts = replies(transfer)
    scripted_server.set_responder(by_system_prompt(scripts))
    out = run_example(script, workdir)

    assert all(queue == [] for queue in scripts.values())
    assert out["CONVERSATION"] == CONVERSATION
    assert out["CALLS"] == [["issue_refund", {"order_id": "A-17"}]]
    assert out["CONTEXT"] == {"refunded": "A-17"}
    assert out["LAST_AGENT"] == "closer"
    # The model saw the hand-off as a tool described by its condition, named in each API's way.
    triage_requests = [b for b in scripted_server.requests if system_prompt(b) == "You are the triage agent."]
    assert [[t["function"]["name"] for t in b["tools"]] for b in triage_requests] == [[transfer], [transfer]]
    assert triage_requests[0]["tools"][0]["function"]["description"] == (
        "The customer wants a refund and has named the order.")
    # the refund tool never shows its context_variables parameter
    refunds_request = next(b for b in scripted_server.requests if system_prompt(b) == "You are the refunds agent.")
    assert list(refunds_request["tools"][0]["function"]["parameters"]["properties"]) == ["order_id"]
