"""An agent's guardrails: ``register_input_guardrail(s)`` / ``register_output_guardrail(s)`` and running them.

Input guardrails look at the messages an agent is about to answer, output guardrails at the reply it
made. Running them only reports the first that fires; the group chat decides what that means (the
guardrail's reply is said instead, and its target speaks next): see ``agentchat.groupchat.guardrail_turns``.
In a chat of two agents they are not run, as in AG2 Classic 0.14.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional, Union

from ...transitions.guardrails import Guardrail, GuardrailResult

__all__ = ["GuardrailsMixin"]


def _checked(guardrail: Any, agent_name: str, method: str) -> Guardrail:
    if not isinstance(guardrail, Guardrail) and not callable(getattr(guardrail, "check", None)):
        raise TypeError(
            f"{method} of agent '{agent_name}' takes a Guardrail (RegexGuardrail or LLMGuardrail, from "
            f"autogen.agentchat.group.guardrails); got {type(guardrail).__name__} {guardrail!r:.60}."
        )
    return guardrail


def _checked_list(guardrails: Any, agent_name: str, method: str) -> list[Guardrail]:
    if isinstance(guardrails, (str, bytes, dict, Guardrail)) or not isinstance(guardrails, Iterable):
        raise TypeError(
            f"{method} of agent '{agent_name}' takes a list of guardrails; got {type(guardrails).__name__}. "
            f"For one guardrail use {method[:-1]}(guardrail)."
        )
    return [_checked(g, agent_name, method) for g in guardrails]


def _first_activated(guardrails: list[Guardrail], context: Any) -> Optional[GuardrailResult]:
    for guardrail in guardrails:
        result = guardrail.check(context=context)
        if result.activated:
            return result
    return None


class GuardrailsMixin:
    """The guardrail methods of ``ConversableAgent`` (the lists ``input_guardrails`` / ``output_guardrails``)."""

    input_guardrails: list[Guardrail]
    output_guardrails: list[Guardrail]
    name: str

    def register_input_guardrail(self, guardrail: "Guardrail") -> None:
        """Check the messages this agent is about to answer with ``guardrail`` (after those registered before).

        Args:
            guardrail: a ``RegexGuardrail`` or ``LLMGuardrail``.
        """
        self.input_guardrails.append(_checked(guardrail, self.name, "register_input_guardrail"))

    def register_input_guardrails(self, guardrails: list["Guardrail"]) -> None:
        """Register several input guardrails (``guardrails``, a list), in order."""
        self.input_guardrails.extend(_checked_list(guardrails, self.name, "register_input_guardrails"))

    def register_output_guardrail(self, guardrail: "Guardrail") -> None:
        """Check every reply of this agent with ``guardrail`` (after those registered before).

        Args:
            guardrail: a ``RegexGuardrail`` or ``LLMGuardrail``.
        """
        self.output_guardrails.append(_checked(guardrail, self.name, "register_output_guardrail"))

    def register_output_guardrails(self, guardrails: list["Guardrail"]) -> None:
        """Register several output guardrails (``guardrails``, a list), in order."""
        self.output_guardrails.extend(_checked_list(guardrails, self.name, "register_output_guardrails"))

    def run_input_guardrails(self, messages: Optional[list[dict[str, Any]]] = None) -> Optional[GuardrailResult]:
        """The result of the first input guardrail that fires on ``messages``, or None when none does.

        Args:
            messages: the messages the agent is about to answer.
        """
        return _first_activated(self.input_guardrails, messages)

    def run_output_guardrails(self, reply: Union[str, dict[str, Any]]) -> Optional[GuardrailResult]:
        """The result of the first output guardrail that fires on ``reply``, or None when none does.

        Args:
            reply: the agent's reply (a text or a message dict).
        """
        return _first_activated(self.output_guardrails, reply)
