"""Scripted group chats for the durability tests: run one whole, kill it at a round, resume it.

Used by ``tests/test_durable_chaos.py`` and ``bench/chaos_resume.py``; run as a script in a subprocess:

    python tests/durable_scenarios.py <scenario> <full|kill|resume> <transcript_path> <kill_round> <site>

``scenario`` is "classic" or "classic_async" (a GroupChat of four agents without a model, replies made from
the history and the agents' context variables, one agent limited by ``max_consecutive_auto_reply``) or
"pattern" / "pattern_async" (a DefaultPattern whose scripted agents call a tool returning a ``ReplyResult``
that updates the context variables and hands off, with after-work hand-offs). ``kill`` runs the chat and
SIGKILLs its own process once the group chat holds ``kill_round`` messages, in a reply function ("reply"),
in the classic chat's speaker selection ("select") or in the pattern's tool ("tool"). ``full`` and
``resume`` print the outcome as one JSON line: the transcript, the context variables, the summary.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from typing import Any

import autogen_classic as autogen
from autogen_classic.agentchat import (
    a_initiate_group_chat,
    a_resume_pattern_group_chat,
    initiate_group_chat,
    resume_pattern_group_chat,
)
from autogen_classic.agentchat.group import (
    AgentNameTarget,
    ContextVariables,
    ExpressionContextCondition,
    ContextExpression,
    OnContextCondition,
    ReplyResult,
    TerminateTarget,
)
from autogen_classic.agentchat.group.patterns import DefaultPattern

KILL: dict[str, Any] = {"round": None, "site": "reply", "groupchat": None}


def _maybe_die(site: str, count: int) -> None:
    """SIGKILL this process at the chosen site once the chat holds ``KILL["round"]`` messages or more."""
    if KILL["round"] is not None and KILL["site"] == site and count >= KILL["round"]:
        os.kill(os.getpid(), signal.SIGKILL)


# ----------------------------------------------------------------- classic group chat
def build_classic(path: str) -> tuple[Any, Any]:
    user = autogen.ConversableAgent("user", llm_config=False, human_input_mode="NEVER", default_auto_reply="go on")
    ann = autogen.ConversableAgent("ann", llm_config=False, human_input_mode="NEVER", default_auto_reply="ann here",
                                   max_consecutive_auto_reply=5)
    ben = autogen.ConversableAgent("ben", llm_config=False, human_input_mode="NEVER")
    cat = autogen.ConversableAgent("cat", llm_config=False, human_input_mode="NEVER", context_variables={"n": 0})

    def ben_reply(recipient: Any, messages: Any, sender: Any, config: Any) -> tuple[bool, str]:
        _maybe_die("reply", len(KILL["groupchat"].messages))
        return True, f"ben saw {len(messages)} messages"

    def cat_reply(recipient: Any, messages: Any, sender: Any, config: Any) -> tuple[bool, str]:
        _maybe_die("reply", len(KILL["groupchat"].messages))
        cat.context_variables["n"] = cat.context_variables.get("n", 0) + len(messages)
        return True, f"cat total {cat.context_variables['n']}"

    ben.register_reply([autogen.Agent, None], ben_reply)
    cat.register_reply([autogen.Agent, None], cat_reply)
    order = [user, ann, ben, cat]

    def select(last: Any, groupchat: Any) -> Any:
        _maybe_die("select", len(groupchat.messages))
        # Round robin, but ben is skipped every fifth message: the trace and the state must follow.
        chosen = order[(order.index(last) + 1) % len(order)]
        if chosen is ben and len(groupchat.messages) % 5 == 0:
            chosen = cat
        return chosen

    groupchat = autogen.GroupChat(agents=order, messages=[], max_round=40, speaker_selection_method=select,
                                  transcript_path=path)
    manager = autogen.GroupChatManager(groupchat=groupchat, llm_config=False, silent=True)
    KILL["groupchat"] = groupchat
    return user, manager


def _classic_outcome(result: Any, manager: Any) -> dict[str, Any]:
    cat = manager.groupchat.agent_by_name("cat")
    return {"messages": autogen.load_transcript(manager.groupchat.transcript_path),
            "context": cat.context_variables.to_dict(), "summary": result.summary,
            "end": manager.end_reason, "selections": len(manager.groupchat.selection_log)}


def run_classic(path: str, mode: str, use_async: bool) -> dict[str, Any]:
    user, manager = build_classic(path)
    if mode == "resume":
        if use_async:
            result = asyncio.run(autogen.a_resume_group_chat(manager))
        else:
            result = autogen.resume_group_chat(manager)
    elif use_async:
        result = asyncio.run(user.a_initiate_chat(manager, message="start", silent=True))
    else:
        result = user.initiate_chat(manager, message="start", silent=True)
    return _classic_outcome(result, manager)


# ----------------------------------------------------------------- pattern chat
def record_issue(severity: int, context_variables: ContextVariables) -> ReplyResult:
    """Record an issue."""
    if KILL["round"] is not None:  # (the group chat is known once the triage has replied in this process)
        _maybe_die("tool", len(KILL["groupchat"].messages))
    context_variables["issues"] = context_variables.get("issues", 0) + 1
    context_variables["severity"] = context_variables.get("severity", 0) + severity
    target = "tech" if severity % 2 else "billing"
    return ReplyResult(message=f"recorded {severity}", target=AgentNameTarget(target),
                       context_variables=context_variables)


def build_pattern() -> tuple[Any, Any]:
    user = autogen.ConversableAgent("user", llm_config=False, human_input_mode="NEVER", default_auto_reply="ok")
    # A model config only so that the tool can be offered; the scripted reply function answers first.
    offline = {"config_list": [{"model": "scripted", "api_key": "unused"}]}
    triage = autogen.ConversableAgent("triage", llm_config=offline, human_input_mode="NEVER", functions=[record_issue])
    billing = autogen.ConversableAgent("billing", llm_config=False, human_input_mode="NEVER")
    tech = autogen.ConversableAgent("tech", llm_config=False, human_input_mode="NEVER")

    def triage_reply(recipient: Any, messages: Any, sender: Any, config: Any) -> tuple[bool, Any]:
        KILL["groupchat"] = recipient._group_manager.groupchat
        _maybe_die("reply", len(recipient._group_manager.groupchat.messages))
        severity = len(messages) % 5 + 1
        return True, {"role": "assistant", "content": None, "tool_calls": [{
            "id": f"call_{len(messages)}", "type": "function",
            "function": {"name": "record_issue", "arguments": json.dumps({"severity": severity})}}]}

    def worker_reply(recipient: Any, messages: Any, sender: Any, config: Any) -> tuple[bool, str]:
        _maybe_die("reply", len(recipient._group_manager.groupchat.messages))
        variables = recipient.context_variables
        return True, f"{recipient.name} handled issue {variables.get('issues')} (severity {variables.get('severity')})"

    triage.register_reply([autogen.Agent, None], triage_reply)
    for worker in (billing, tech):
        worker.register_reply([autogen.Agent, None], worker_reply)
        worker.handoffs.set_after_work(AgentNameTarget("triage"))
    # Enough issues: the triage hands the chat to its end before replying (a context condition).
    triage.handoffs.add_context_conditions([OnContextCondition(
        target=TerminateTarget(), condition=ExpressionContextCondition(ContextExpression("${issues} >= 6")))])
    pattern = DefaultPattern(initial_agent=triage, agents=[triage, billing, tech], user_agent=user,
                             context_variables=ContextVariables(data={"issues": 0, "severity": 0}))
    return pattern, user


def run_pattern(path: str, mode: str, use_async: bool) -> dict[str, Any]:
    pattern, _ = build_pattern()
    if mode == "resume":
        if use_async:
            result, context, _ = asyncio.run(a_resume_pattern_group_chat(pattern, path, max_rounds=40))
        else:
            result, context, _ = resume_pattern_group_chat(pattern, path, max_rounds=40)
    elif use_async:
        result, context, _ = asyncio.run(a_initiate_group_chat(pattern, "help", max_rounds=40, transcript_path=path))
    else:
        result, context, _ = initiate_group_chat(pattern, "help", max_rounds=40, transcript_path=path)
    return {"messages": autogen.load_transcript(path), "context": context.to_dict(), "summary": result.summary}


def run(scenario: str, mode: str, path: str, kill_round: int | None, site: str) -> dict[str, Any]:
    """Run ``scenario`` in this process (see the module docstring)."""
    KILL.update(round=kill_round if mode == "kill" else None, site=site)
    use_async = scenario.endswith("_async")
    if scenario.startswith("classic"):
        return run_classic(path, mode, use_async)
    return run_pattern(path, mode, use_async)


if __name__ == "__main__":
    scenario_name, run_mode, transcript, kill_at, kill_site = sys.argv[1:6]
    outcome = run(scenario_name, run_mode, transcript, int(kill_at), kill_site)
    print(json.dumps(outcome, default=str))
