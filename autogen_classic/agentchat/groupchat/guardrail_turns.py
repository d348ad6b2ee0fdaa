"""Guardrails in the rounds of a group chat: the steps that run them and what their results mean.

As in AG2 Classic 0.14, the chat (not the agent) runs an agent's guardrails:

- before the selected speaker replies, its ``input_guardrails`` look at its conversation with the
  manager; when one fires the speaker does not reply: the guardrail's ``reply`` is said in its name;
- otherwise its ``output_guardrails`` look at the reply it made; when one fires the guardrail's
  ``reply`` is said instead;
- either way the guardrail's target is activated (``target.activate_target(groupchat)``: the hand-off
  engine makes it the next speaker; a plain group chat selects as usual).

Inter-agent checks of a safeguard policy (objects with ``check_and_act``, kept in the group chat's
``_inter_agent_guardrails``) look at each message as it is forwarded to each participant and may
replace the copy that participant receives.

Each check is a step of the rounds (it may ask a model), performed by the sync or async driver.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Generator, Optional, Union

from .selection.trace import HandoffStep

__all__ = ["GuardrailCheck", "InterAgentCheck", "forwarded_message", "guarded_input", "guarded_output"]


def _target_label(target: Any) -> str:
    try:
        return str(target.display_name())
    except (AttributeError, NotImplementedError):
        return type(target).__name__


def _activated_reply(groupchat: Any, agent: Any, result: Any) -> Optional[str]:
    """The reply of a guardrail that fired, after activating its target (None when none fired)."""
    if result is None:
        return None
    guardrail = result.guardrail
    activate = getattr(guardrail.target, "activate_target", None)
    if activate is not None:
        activate(groupchat)
        # The selection trace says a guardrail moved the turn (on the group's tool executor, which holds the target).
        for member in getattr(groupchat, "agents", []):
            describe = getattr(member, "describe_next_target", None)
            if callable(describe) and getattr(member, "has_next_target", lambda: False)():
                describe(HandoffStep("guardrail", getattr(agent, "name", None), _target_label(guardrail.target),
                                     getattr(guardrail, "name", None)))
                break
    return str(result.reply)


@dataclass
class GuardrailCheck:
    """Run ``agent``'s input (``kind="input"``) or output guardrails on ``context``; the reply to say, or None."""

    groupchat: Any
    agent: Any
    kind: str
    context: Any

    def run(self) -> Optional[str]:
        runner = self.agent.run_input_guardrails if self.kind == "input" else self.agent.run_output_guardrails
        return _activated_reply(self.groupchat, self.agent, runner(self.context))

    async def a_run(self) -> Optional[str]:
        # A model-judged guardrail asks its model synchronously: off the event loop.
        return await asyncio.to_thread(self.run)


@dataclass
class InterAgentCheck:
    """Ask the group chat's inter-agent checks about ``message`` going from ``source`` to ``destination``."""

    checks: list[Any]
    source: str
    destination: str
    message: Any

    def run(self) -> Optional[Union[str, dict[str, Any]]]:
        for check in self.checks:
            replacement = check.check_and_act(
                src_agent_name=self.source, dst_agent_name=self.destination, message_content=self.message
            )
            if replacement is not None:
                return replacement  # type: ignore[no-any-return]
        return None

    async def a_run(self) -> Optional[Union[str, dict[str, Any]]]:
        return await asyncio.to_thread(self.run)


def guarded_input(groupchat: Any, speaker: Any, manager: Any) -> Generator[Any, Any, Optional[str]]:
    """The reply an input guardrail of ``speaker`` gives instead of the speaker, or None (it replies itself)."""
    if not getattr(speaker, "input_guardrails", None):
        return None
    conversation = getattr(speaker, "_oai_messages", {}).get(manager, [])
    return (yield GuardrailCheck(groupchat, speaker, "input", conversation))  # type: ignore[no-any-return]


def guarded_output(groupchat: Any, speaker: Any, reply: Any) -> Generator[Any, Any, Any]:
    """``reply``, or the reply of the output guardrail of ``speaker`` that fired on it."""
    if not getattr(speaker, "output_guardrails", None):
        return reply
    replacement = yield GuardrailCheck(groupchat, speaker, "output", reply)
    return reply if replacement is None else replacement


def forwarded_message(groupchat: Any, speaker: Any, recipient: Any, message: Any) -> Generator[Any, Any, Any]:
    """The copy of ``message`` that ``recipient`` receives: the message, or what an inter-agent check made of it."""
    checks = getattr(groupchat, "_inter_agent_guardrails", None)
    if not checks:
        return message
    replacement = yield InterAgentCheck(list(checks), speaker.name, recipient.name, message)
    if replacement is None:
        return message
    return replacement if isinstance(replacement, dict) else {"content": replacement, "name": speaker.name}
