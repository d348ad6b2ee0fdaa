"""The classic swarm example script (tests/classic_examples/swarm_handoffs.py) run end to end in a subprocess.

Same harness as test_classic_examples.py: the script reads an ``OAI_CONFIG_LIST`` pointing at the scripted
server of this test process and prints ``KEY: <json>`` lines. The expected values are what classic AutoGen
prints for the same script and the same scripted replies.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply
from test_classic_examples import by_system_prompt, run_example, system_prompt, workdir  # noqa: F401  (fixture)


# ----------------------------------------------------------------------------------------------------------------
# swarm: hand-offs, a hand-off made available by a context variable, SwarmResult routing, sync and async
# ----------------------------------------------------------------------------------------------------------------
def _swarm_replies() -> Dict[str, List[Any]]:
    """The model's replies for one run of swarm_handoffs.py, keyed by each agent's system prompt."""
    return {
        "You are the triage agent.": [
            ScriptedReply(tool_calls=[{"id": "t1", "name": "transfer_triage_to_order_agent", "arguments": {}}])
        ],
        "You are the order agent.": [
            ScriptedReply(tool_calls=[{"id": "t2", "name": "lookup_order", "arguments": {"order_id": "A-17"}}]),
            "The order is verified; let me check the refund.",  # no tool call: AFTER_WORK STAY asks it again
            ScriptedReply(tool_calls=[{"id": "t3", "name": "transfer_order_agent_to_refund_agent", "arguments": {}}]),
        ],
        "You are the refund agent.": [
            ScriptedReply(tool_calls=[{"id": "t4", "name": "issue_refund", "arguments": {"amount": 40}}])
        ],
        "You are the closer.": [
            "Your refund of 40 EUR is on its way. Anything else?",  # the after-work callable reverts to the user
            ScriptedReply(tool_calls=[{"id": "t5", "name": "close_case", "arguments": {}}]),
            "Goodbye, Ada!",  # the case is closed: the after-work callable terminates
        ],
    }


def test_swarm_handoffs(scripted_server: ScriptedOpenAIServer, workdir: Path) -> None:
    sync_run, async_run = _swarm_replies(), _swarm_replies()
    scripts = {prompt: sync_run[prompt] + async_run[prompt] for prompt in sync_run}
    scripted_server.set_responder(by_system_prompt(scripts))
    out = run_example("swarm_handoffs.py", workdir)

    assert all(queue == [] for queue in scripts.values())
    assert out["SPEAKERS"] == [
        "customer", "triage", "Tool_Execution", "order_agent", "Tool_Execution", "order_agent", "order_agent",
        "Tool_Execution", "refund_agent", "Tool_Execution", "closer", "customer", "closer", "Tool_Execution", "closer",
    ]
    # [name, role, content, tool calls, tool responses] as the customer holds them; classic AutoGen keeps the
    # content of a forwarded tool-call message as the string "None"
    assert out["HISTORY"] == [
        ["customer", "assistant", "Hi, I want a refund for order A-17, the kettle leaks.", [], []],
        ["triage", "assistant", "None", [["transfer_triage_to_order_agent", "{}"]], []],
        ["Tool_Execution", "tool", "SwarmAgent --> order_agent", [], [["t1", "SwarmAgent --> order_agent"]]],
        ["order_agent", "assistant", "None", [["lookup_order", '{"order_id": "A-17"}']], []],
        ["Tool_Execution", "tool", "Order A-17: blue kettle, 40 EUR, delivered.", [],
         [["t2", "Order A-17: blue kettle, 40 EUR, delivered."]]],
        ["order_agent", "user", "The order is verified; let me check the refund.", [], []],
        ["order_agent", "assistant", "None", [["transfer_order_agent_to_refund_agent", "{}"]], []],
        ["Tool_Execution", "tool", "SwarmAgent --> refund_agent", [], [["t3", "SwarmAgent --> refund_agent"]]],
        ["refund_agent", "assistant", "None", [["issue_refund", '{"amount": 40}']], []],
        ["Tool_Execution", "tool", "Refunded 40 EUR for order A-17.", [], [["t4", "Refunded 40 EUR for order A-17."]]],
        ["closer", "user", "Your refund of 40 EUR is on its way. Anything else?", [], []],
        ["customer", "assistant", "No, that is all. Thanks!", [], []],
        ["closer", "assistant", "None", [["close_case", "{}"]], []],
        ["Tool_Execution", "tool", "Case closed.", [], [["t5", "Case closed."]]],
        ["closer", "user", "Goodbye, Ada!", [], []],
    ]
    assert out["CONTEXT"] == {
        "amount": 40, "case_closed": True, "customer_name": "Ada", "order_id": "A-17", "order_verified": True,
        "refunded": 40,
    }
    assert out["LAST_AGENT"] == "closer"
    assert out["SUMMARY"] == "Goodbye, Ada!"
    assert out["ORDER_AGENT_SYSTEM"] == "You are the order agent. Customer: Ada. Verified: True."
    assert out["FUNCTIONS"] == {
        "triage": ["transfer_triage_to_closer", "transfer_triage_to_order_agent"],
        "order_agent": ["lookup_order", "transfer_order_agent_to_refund_agent"],
        "refund_agent": ["issue_refund", "transfer_refund_agent_to_triage"],
        "closer": ["close_case"],
    }
    assert out["ASYNC_HISTORY"] == out["HISTORY"]
    assert out["ASYNC_CONTEXT"] == out["CONTEXT"]
    stdout = out["_stdout"]
    assert "Next speaker: refund_agent" in stdout
    # the console shows the arguments the function was called with, the swarm's context variables included
    assert (
        ">>>>>>>> EXECUTING FUNCTION issue_refund...\nCall ID: t4\nInput arguments: {'amount': 40, "
        "'context_variables': {'customer_name': 'Ada', 'order_verified': True, 'refunded': 0, 'case_closed': False, "
        "'order_id': 'A-17', 'amount': 40}}\n"
    ) in stdout
    # The end of each chat (sync and async) is announced with AG2 Classic 0.14.1's line (ag2 0.7.3 ended silently).
    assert stdout.count("): No next speaker selected\n") == 2 and "GROUP CHAT ENDED" not in stdout

    bodies = scripted_server.requests
    assert len(bodies) == 16
    assert bodies[8:] == bodies[:8]  # the async run sends exactly what the sync run sent
    # each request's system prompt (rewritten by UPDATE_SYSTEM_MESSAGE for the order agent) and offered tools;
    # the refund hand-off appears only once lookup_order has set order_verified
    assert [(system_prompt(b), [t["function"]["name"] for t in b.get("tools", [])]) for b in bodies[:8]] == [
        ("You are the triage agent. Send each request to the right desk.",
         ["transfer_triage_to_order_agent", "transfer_triage_to_closer"]),
        ("You are the order agent. Customer: Ada. Verified: False.", ["lookup_order"]),
        ("You are the order agent. Customer: Ada. Verified: True.",
         ["lookup_order", "transfer_order_agent_to_refund_agent"]),
        ("You are the order agent. Customer: Ada. Verified: True.",
         ["lookup_order", "transfer_order_agent_to_refund_agent"]),
        ("You are the refund agent. Refund verified orders only.", ["issue_refund", "transfer_refund_agent_to_triage"]),
        ("You are the closer. Confirm the outcome and close the case.", ["close_case"]),
        ("You are the closer. Confirm the outcome and close the case.", ["close_case"]),
        ("You are the closer. Confirm the outcome and close the case.", ["close_case"]),
    ]
    assert {b["model"] for b in bodies} == {"gpt-4o-mini"}
    assert all(b["temperature"] == 0 for b in bodies)
    # context_variables never reaches the model; hand-offs are described by their condition
    assert bodies[4]["tools"] == [
        {"type": "function", "function": {
            "description": "Refund the customer for the verified order.", "name": "issue_refund",
            "parameters": {"type": "object", "properties": {"amount": {"type": "integer", "description": "amount"}},
                           "required": ["amount"]}}},
        {"type": "function", "function": {
            "description": "The request is not about a refund.", "name": "transfer_refund_agent_to_triage",
            "parameters": {"type": "object", "properties": {}}}},
    ]
    assert "context_variables" not in json.dumps([b.get("tools") for b in bodies])

    # the closer's last request: the whole swarm conversation as the closer's model sees it
    def row(m: Dict[str, Any]) -> List[Any]:
        calls = [f"{c['id']}:{c['function']['name']}" for c in m.get("tool_calls", [])]
        return [m["role"], m.get("name"), m.get("content"), calls, m.get("tool_call_id")]

    assert [row(m) for m in bodies[7]["messages"]] == [
        ["system", None, "You are the closer. Confirm the outcome and close the case.", [], None],
        ["user", "customer", "Hi, I want a refund for order A-17, the kettle leaks.", [], None],
        ["assistant", "triage", "None", ["t1:transfer_triage_to_order_agent"], None],
        ["tool", None, "SwarmAgent --> order_agent", [], "t1"],
        ["assistant", "order_agent", "None", ["t2:lookup_order"], None],
        ["tool", None, "Order A-17: blue kettle, 40 EUR, delivered.", [], "t2"],
        ["user", "order_agent", "The order is verified; let me check the refund.", [], None],
        ["assistant", "order_agent", "None", ["t3:transfer_order_agent_to_refund_agent"], None],
        ["tool", None, "SwarmAgent --> refund_agent", [], "t3"],
        ["assistant", "refund_agent", "None", ["t4:issue_refund"], None],
        ["tool", None, "Refunded 40 EUR for order A-17.", [], "t4"],
        ["assistant", "closer", "Your refund of 40 EUR is on its way. Anything else?", [], None],
        ["user", "customer", "No, that is all. Thanks!", [], None],
        ["assistant", None, None, ["t5:close_case"], None],
        ["tool", None, "Case closed.", [], "t5"],
    ]
