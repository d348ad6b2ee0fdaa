"""What the person at the keyboard decides on: the candidates, who was excluded and why, and a suggestion.

Everything here is computed without a model call, from the selection record being built (its filter steps and
transition conditions) and the group's messages. The suggestion comes from the rules "auto" selection applies
before it asks a model: a hand-off that names a candidate, an agent the last message addresses by name, the
first-turn rule and the role-match rule. The same :class:`ManualDecision` is shown as text (``?`` and the rich
view) and carried as data on the input request event (``to_data()``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..first_turn import first_turn_agent
from ..role_match import role_matched_agent
from ..structured import addressed_agent
from ..trace import SelectionRecord

__all__ = [
    "Exclusion", "ManualDecision", "Suggestion", "build_decision", "description_of", "exclusions_of", "suggestion_for",
]


_COMMAND_TEXT = {"?": "help", "h": "recent messages", "x": "end the chat"}


@dataclass(slots=True)
class Suggestion:
    """The candidate a zero-call rule points to.

    Args:
        name: the candidate's name.
        rule: which rule: "handoff", "addressed", "first_turn" or "role_match".
        reason: why, in a sentence for people.
    """

    name: str
    rule: str
    reason: str

    def to_data(self) -> dict[str, str]:
        """Return the suggestion as plain JSON-ready data."""
        return {"name": self.name, "rule": self.rule, "reason": self.reason}


@dataclass(slots=True)
class Exclusion:
    """An agent of the group that may not speak next.

    Args:
        name: the agent's name.
        by: the step of the candidate pipeline that removed it ("repeat_rule", "transition_graph",
            "transition_conditions", "policy:<Name>", "function_call_filter", ...).
        why: the reason, in a sentence for people.
    """

    name: str
    by: str
    why: str

    def to_data(self) -> dict[str, str]:
        """Return the exclusion as plain JSON-ready data."""
        return {"name": self.name, "by": self.by, "why": self.why}


@dataclass
class ManualDecision:
    """One manual selection as the person sees it.

    Args:
        candidates: the agents that may speak next, numbered from 1 in this order.
        exclusions: the agents of the group the rules removed, with the step and the reason.
        suggestion: the candidate a zero-call rule points to, or None.
        last_speaker: the name of the agent that spoke last (None if unknown).
        messages: the group's messages (read by ``h``).
    """

    candidates: list[Any]
    exclusions: list[Exclusion] = field(default_factory=list)
    suggestion: Suggestion | None = None
    last_speaker: str | None = None
    messages: list[dict[str, Any]] = field(default_factory=list)

    def to_data(
        self, prompt: str = "", view: str = "classic", commands: tuple[str, ...] = ("?", "h", "x")
    ) -> dict[str, Any]:
        """The decision as plain data for a UI: the candidates (number, name, description), the exclusions, the
        suggestion and the answers the prompt accepts (``commands``: those understood besides "" and "q")."""
        return {
            "kind": "speaker_selection",
            "prompt": prompt,
            "view": view,
            "last_speaker": self.last_speaker,
            "candidates": [
                {"number": number, "name": agent.name, "description": description_of(agent)}
                for number, agent in enumerate(self.candidates, start=1)
            ],
            "excluded": [exclusion.to_data() for exclusion in self.exclusions],
            "suggestion": None if self.suggestion is None else self.suggestion.to_data(),
            "commands": {"": "auto selection", "q": "auto selection",
                         **{c: _COMMAND_TEXT[c] for c in commands if c in _COMMAND_TEXT}},
        }


def description_of(agent: Any) -> str:
    """The agent's description on one line ("" when it has none)."""
    text = getattr(agent, "description", None)
    return " ".join(text.split()) if isinstance(text, str) else ""


def _why(step: str, last: str | None, name: str, record: SelectionRecord) -> str:
    if step == "function_call_filter":
        return "cannot run the function call the last message suggests"
    if step == "repeat_rule":
        return "spoke last and may not speak twice in a row (allow_repeat_speaker)"
    if step == "transition_graph":
        return f"the speaker transition graph has no transition from {last or 'the last speaker'} to it"
    if step == "transition_conditions":
        for outcome in record.conditions:
            if outcome.target == name:
                return f"blocked by a transition condition: {outcome.describe()}"
        return "blocked by a transition condition"
    if step.startswith("policy:"):
        return f"removed by the eligibility policy {step[len('policy:'):]}"
    return f"removed by {step}"


def exclusions_of(record: SelectionRecord | None) -> list[Exclusion]:
    """The agents each step of the record's candidate pipeline removed, in step order, with the reason."""
    if record is None or not record.steps:
        return []
    found: list[Exclusion] = []
    before = list(record.steps[0].candidates)
    for step in record.steps[1:]:
        kept = set(step.candidates)
        for name in before:
            if name not in kept:
                found.append(Exclusion(name, step.name, _why(step.name, record.last_speaker, name, record)))
        before = [name for name in before if name in kept]
    return found


def _handoff_suggestion(record: SelectionRecord | None, candidates: list[Any]) -> Suggestion | None:
    handoff = record.handoff if record is not None else None
    if handoff is None:
        return None
    names = {agent.name for agent in candidates}
    for name in (handoff.result, handoff.target):
        if name and name in names:
            return Suggestion(name, "handoff", f"a hand-off points to {name}: {handoff.describe()}")
    return None


def suggestion_for(
    record: SelectionRecord | None, candidates: list[Any], messages: list[dict[str, Any]]
) -> Suggestion | None:
    """The candidate the zero-call rules point to, in the order "auto" applies them, or None.

    A hand-off naming a candidate first; then an agent the last message addresses by name ("Coder, please
    ..."); then, on a new task, the one candidate whose description says it engages first; then the candidate
    whose role the last message clearly asks for. No model is called.
    """
    found = _handoff_suggestion(record, candidates)
    if found is not None:
        return found
    last = messages[-1] if messages else None
    if last is None or len(candidates) < 2:
        return None
    agent = addressed_agent(last, candidates)
    if agent is not None:
        return Suggestion(agent.name, "addressed", f"the last message addresses {agent.name} by name")
    agent = first_turn_agent(last, candidates, messages)
    if agent is not None:
        return Suggestion(agent.name, "first_turn",
                          f"the chat is at a new task and {agent.name}'s description says it engages first")
    try:
        agent = role_matched_agent(last, candidates, first_turn=False)
    except Exception:  # noqa: BLE001 - a suggestion is optional: a rule that cannot run suggests nothing
        agent = None
    if agent is not None:
        return Suggestion(agent.name, "role_match", f"the last message asks for what {agent.name} does")
    return None


def build_decision(groupchat: Any, candidates: list[Any], record: SelectionRecord | None) -> ManualDecision:
    """The decision put to the person: ``candidates`` with the exclusions and the suggestion of ``record``."""
    messages = getattr(groupchat, "messages", None)
    messages = messages if isinstance(messages, list) else []
    return ManualDecision(
        candidates=list(candidates),
        exclusions=exclusions_of(record),
        suggestion=suggestion_for(record, candidates, messages),
        last_speaker=record.last_speaker if record is not None else None,
        messages=messages,
    )
