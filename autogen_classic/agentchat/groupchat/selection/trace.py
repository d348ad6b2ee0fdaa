"""The selection trace: a structured record of every speaker-selection decision of a group chat.

Each call of ``GroupChat.select_speaker`` / ``a_select_speaker`` appends one :class:`SelectionRecord`
to ``groupchat.selection_log``. A record tells which method ran, which candidates were left after
each filter (:class:`FilterStep`), what each conditional speaker transition decided
(:class:`ConditionOutcome`), every question put to the model or the person at the keyboard
(:class:`SelectionAttempt`), who was chosen and why. Records are plain data: ``to_dict()`` and
:func:`selection_log_to_json` / :func:`selection_log_from_json` turn a log into JSON and back.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from ....logger.redaction import redact_secrets

__all__ = [
    "ConditionDecision",
    "ConditionOutcome",
    "FilterStep",
    "HandoffStep",
    "ManualPick",
    "Outcome",
    "SelectionAttempt",
    "SelectionRecord",
    "format_selection_log",
    "selection_log_from_json",
    "selection_log_to_json",
]

_T = TypeVar("_T")

Outcome = Literal["selected", "multiple", "none", "invalid"]
_OUTCOMES = ("selected", "multiple", "none", "invalid")
ConditionDecision = Literal["allowed", "blocked", "error"]
_DECISIONS = ("allowed", "blocked", "error")


@dataclass(slots=True)
class FilterStep:
    """The candidates left after one step of the candidate pipeline.

    Args:
        name: the step: "all", "function_call_filter", "repeat_rule", "transition_graph",
            "transition_conditions" or "policy:<PolicyName>".
        candidates: the names of the agents still eligible after the step, in group order.
    """

    name: str
    candidates: list[str] = field(default_factory=list)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FilterStep:
        """Build a step from the dict made by ``asdict`` / ``SelectionRecord.to_dict``."""
        return cls(name=str(data["name"]), candidates=[str(n) for n in data.get("candidates", [])])


@dataclass(slots=True)
class ConditionOutcome:
    """What the condition of one conditional speaker transition decided.

    Args:
        edge: the transition, ``"coder -> critic [label]"``.
        source: the name of the agent that spoke last.
        target: the name of the candidate the transition leads to.
        label: the condition's label (None without one).
        result: what the condition returned (None when it failed).
        effect: "allowed" (the target stays a candidate), "blocked" (it does not) or "error"
            (the condition failed and the chat stopped).
        rule: "allow_if" (an "allowed" graph: the condition must hold) or "block_if" (a
            "disallowed" graph: the condition must not hold).
    """

    edge: str
    source: str
    target: str
    label: str | None = None
    result: bool | None = None
    effect: ConditionDecision = "allowed"
    rule: str = "allow_if"

    def __post_init__(self) -> None:
        if self.effect not in _DECISIONS:
            raise ValueError(f"effect must be one of {list(_DECISIONS)}, got {self.effect!r}.")

    def describe(self) -> str:
        """One line for people: ``"coder -> critic [label]: returned False, critic blocked"``."""
        if self.effect == "error":
            return f"{self.edge}: the condition failed"
        return f"{self.edge}: returned {self.result}, {self.target} {self.effect}"

    def to_dict(self) -> dict[str, Any]:
        """Return the outcome as plain JSON-ready data."""
        return {
            "edge": self.edge, "source": self.source, "target": self.target, "label": self.label,
            "result": self.result, "effect": self.effect, "rule": self.rule,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ConditionOutcome:
        """Build an outcome from its dict form."""
        result = data.get("result")
        return cls(
            edge=str(data["edge"]),
            source=str(data.get("source", "")),
            target=str(data.get("target", "")),
            label=None if data.get("label") is None else str(data["label"]),
            result=None if result is None else bool(result),
            effect=data.get("effect", "allowed"),
            rule=str(data.get("rule", "allow_if")),
        )


@dataclass(slots=True)
class HandoffStep:
    """What moved the turn in a group chat with hand-offs (``initiate_group_chat`` and its patterns).

    Args:
        kind: what decided: "initial_agent", "tool_call" (the tool executor runs a suggested call),
            "llm_condition" (the model called a hand-off tool), "reply_result" (a tool returned a
            ``ReplyResult`` with a target), "context_condition" (an ``OnContextCondition`` held),
            "after_work" (an agent's or the group's after-work target), "pattern" (an after-work target the
            pattern set: round robin, random, the group manager, asking the user), "tool_return" (back to
            the agent whose tool calls ran), "user_return" (back to the agent the user answered), or
            "forced" (a target set from outside the chat's own rules).
        source: the name of the agent whose rule moved the turn.
        target: the target as the reference names it (``display_name()``: an agent's name, "Terminate",
            "Revert to User", "the group manager", ...).
        via: how: the hand-off tool's name, the condition's expression or variable, the tool that returned
            the ``ReplyResult``, "group after work" ...
        result: what the target resolved to: an agent's name, "terminate", or a selection method ("auto",
            "manual"); empty until it is resolved.
    """

    kind: str
    source: str | None = None
    target: str | None = None
    via: str | None = None
    result: str = ""

    def describe(self) -> str:
        """One line for people: ``"llm_condition triage -> billing via transfer_to_billing_1"``."""
        line = f"{self.kind} {self.source} -> {self.target or '-'}" if self.source else f"{self.kind} -> {self.target}"
        if self.via:
            line += f" via {self.via}"
        if self.result and self.result != self.target:
            line += f" ({self.result})"
        return line

    def to_dict(self) -> dict[str, Any]:
        """Return the step as plain JSON-ready data."""
        return {"kind": self.kind, "source": self.source, "target": self.target, "via": self.via,
                "result": self.result}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandoffStep:
        """Build a step from its dict form."""
        return cls(kind=str(data["kind"]), source=data.get("source"), target=data.get("target"),
                   via=data.get("via"), result=str(data.get("result") or ""))


@dataclass(slots=True)
class SelectionAttempt:
    """One question put to the speaker selector and its answer.

    Args:
        prompt_role: the role of the prompt that asked the question ("system"/"user" for the
            model in ``auto`` mode, "human" for the console in ``manual`` mode).
        answer: the raw answer (model text or typed input; "<EOF>" / "<KeyboardInterrupt>" when the
            console was closed or interrupted).
        mentions: agent name -> number of mentions found in the answer (auto mode).
        outcome: "selected" (exactly one agent), "multiple" (several names), "none" (no name, or an
            empty/closed input) or "invalid" (no usable text, or an out-of-range number).
    """

    prompt_role: str
    answer: str
    mentions: dict[str, int] = field(default_factory=dict)
    outcome: Outcome = "none"

    def __post_init__(self) -> None:
        if self.outcome not in _OUTCOMES:
            raise ValueError(f"outcome must be one of {list(_OUTCOMES)}, got {self.outcome!r}.")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SelectionAttempt:
        """Build an attempt from its dict form."""
        return cls(
            prompt_role=str(data["prompt_role"]),
            answer=str(data.get("answer", "")),
            mentions={str(k): int(v) for k, v in (data.get("mentions") or {}).items()},
            outcome=data.get("outcome", "none"),
        )


@dataclass(slots=True)
class ManualPick:
    """What happened at the keyboard in a manual selection: the suggestion shown and what the person did with it.

    Args:
        view: the view of the prompt, "classic" or "rich".
        suggested: the candidate a zero-call rule suggested (None without a suggestion).
        suggestion_rule: the rule that suggested it: "handoff", "addressed", "first_turn" or "role_match".
        suggestion_reason: the reason, as shown to the person.
        picked: the candidate the person picked; None when they left it to automatic selection or ended the chat.
        picked_by: how they named it: "number", "name" or "prefix" ("" without a pick).
        followed: whether the pick was the suggestion (None without a pick or without a suggestion).
        ended: whether the person ended the chat (``x``).
        commands: the commands typed that were not answers (``?``, ``h``), in order.
    """

    view: str = "classic"
    suggested: str | None = None
    suggestion_rule: str = ""
    suggestion_reason: str = ""
    picked: str | None = None
    picked_by: str = ""
    followed: bool | None = None
    ended: bool = False
    commands: list[str] = field(default_factory=list)

    def describe(self) -> str:
        """One line for people: ``"picked critic by prefix; suggested coder (role_match), not followed"``."""
        if self.ended:
            text = "ended the chat (x)"
        elif self.picked is not None:
            text = f"picked {self.picked} by {self.picked_by or 'number'}"
        else:
            text = "left it to automatic selection"
        if self.suggested is not None:
            text += f"; suggested {self.suggested} ({self.suggestion_rule})"
            if self.followed is not None:
                text += ", followed" if self.followed else ", not followed"
        return text

    def to_dict(self) -> dict[str, Any]:
        """Return the pick as plain JSON-ready data."""
        return {
            "view": self.view, "suggested": self.suggested, "suggestion_rule": self.suggestion_rule,
            "suggestion_reason": self.suggestion_reason, "picked": self.picked, "picked_by": self.picked_by,
            "followed": self.followed, "ended": self.ended, "commands": list(self.commands),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ManualPick:
        """Build a pick from its dict form."""
        followed = data.get("followed")
        return cls(
            view=str(data.get("view") or "classic"),
            suggested=None if data.get("suggested") is None else str(data["suggested"]),
            suggestion_rule=str(data.get("suggestion_rule") or ""),
            suggestion_reason=str(data.get("suggestion_reason") or ""),
            picked=None if data.get("picked") is None else str(data["picked"]),
            picked_by=str(data.get("picked_by") or ""),
            followed=None if followed is None else bool(followed),
            ended=bool(data.get("ended", False)),
            commands=[str(c) for c in data.get("commands") or []],
        )


_SHARED_STEPS: dict[tuple[str, tuple[str, ...]], FilterStep] = {}
_SHARED_TEXTS: dict[str, str] = {}
_SHARED_MENTIONS: dict[tuple[tuple[str, int], ...], dict[str, int]] = {}
_MOST_SHARED = 4096  # a bound for chats of ever-new names: a cache starts again when full


def _kept(cache: dict[Any, _T], key: Any, make: Callable[[], _T]) -> _T:
    """What ``cache`` keeps under ``key``, made by ``make()`` the first time."""
    kept = cache.get(key)
    if kept is None:
        if len(cache) >= _MOST_SHARED:
            cache.clear()
        kept = cache[key] = make()
    return kept


def shared_step(name: str, candidates: tuple[str, ...]) -> FilterStep:
    """The one :class:`FilterStep` of ``name`` with ``candidates`` that records share."""
    step = _SHARED_STEPS.get((name, candidates))  # asked twice a round: the common case without a call
    return step if step is not None else _kept(_SHARED_STEPS, (name, candidates),
                                               lambda: FilterStep(name, list(candidates)))


def shared_text(text: str) -> str:
    """``text``, as the one copy the records of a log share (reasons and method names repeat round after round)."""
    return _kept(_SHARED_TEXTS, text, lambda: text)


def shared_mentions(mentions: dict[str, int]) -> dict[str, int]:
    """The one dict equal to ``mentions`` that attempts share (a selector names the same agents again and again)."""
    return _kept(_SHARED_MENTIONS, tuple(mentions.items()), lambda: mentions)


@dataclass(slots=True)
class SelectionRecord:
    """One speaker-selection decision.

    Args:
        round: the index of the decision since the group chat was last reset (0 for the first).
        method: the method that chose: "auto", "manual", "random", "round_robin", "callable"
            when a custom function returned an agent (or None), or "handoff" when the hand-off rules of a
            group chat of patterns did (``handoff`` says which rule).
        last_speaker: the name of the previous speaker (None if unknown).
        steps: the candidates after each filter, in pipeline order.
        attempts: the questions asked (model calls in auto mode, prompts in manual mode).
        chosen: the name of the selected agent; None when no one may speak (the chat ends).
        reason: why this agent was chosen, or why the chat ends.
        usage: token usage and cost of the model calls made for this decision
            (``prompt_tokens``, ``completion_tokens``, ``total_tokens``, ``cost``); empty without calls.
        conditions: what the conditions of the last speaker's conditional transitions decided, one
            :class:`ConditionOutcome` per candidate asked about; empty without conditional transitions.
        handoff: in a group chat with hand-offs, what moved the turn (a :class:`HandoffStep`); None otherwise.
        manual: in a manual selection, what was suggested and what the person did (a :class:`ManualPick`);
            None when no one was asked at the keyboard.
    """

    round: int
    method: str
    last_speaker: str | None
    steps: list[FilterStep] = field(default_factory=list)
    attempts: list[SelectionAttempt] = field(default_factory=list)
    chosen: str | None = None
    reason: str = ""
    usage: dict[str, Any] = field(default_factory=dict)
    conditions: list[ConditionOutcome] = field(default_factory=list)
    handoff: HandoffStep | None = None
    manual: ManualPick | None = None

    def add_step(self, name: str, agents: Iterable[Any]) -> None:
        """Record the candidates (agents or names) left after the step ``name``.

        Records of the same step with the same candidates share one :class:`FilterStep` (a log holds few
        distinct ones, round after round); treat a record's steps as read-only.
        """
        self.steps.append(shared_step(name, tuple([a if isinstance(a, str) else a.name for a in agents])))

    def candidates(self) -> list[str]:
        """The names of the candidates after the last recorded step ([] before any step)."""
        return list(self.steps[-1].candidates) if self.steps else []

    def to_dict(self) -> dict[str, Any]:
        """Return the record as plain JSON-ready data (the same as ``dataclasses.asdict``, built directly)."""
        # Written out: asdict deep-copies generically, which costs more than a round when events are listened to.
        return {
            "round": self.round,
            "method": self.method,
            "last_speaker": self.last_speaker,
            "steps": [{"name": s.name, "candidates": list(s.candidates)} for s in self.steps],
            "attempts": [
                {"prompt_role": a.prompt_role, "answer": a.answer, "mentions": dict(a.mentions), "outcome": a.outcome}
                for a in self.attempts
            ],
            "chosen": self.chosen,
            "reason": self.reason,
            "usage": dict(self.usage),
            "conditions": [c.to_dict() for c in self.conditions],
            "handoff": None if self.handoff is None else self.handoff.to_dict(),
            "manual": None if self.manual is None else self.manual.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SelectionRecord:
        """Build a record from the dict made by :meth:`to_dict`."""
        return cls(
            round=int(data["round"]),
            method=str(data["method"]),
            last_speaker=data.get("last_speaker"),
            steps=[FilterStep.from_dict(s) for s in data.get("steps", [])],
            attempts=[SelectionAttempt.from_dict(a) for a in data.get("attempts", [])],
            chosen=data.get("chosen"),
            reason=str(data.get("reason", "")),
            usage=dict(data.get("usage") or {}),
            conditions=[ConditionOutcome.from_dict(c) for c in data.get("conditions") or []],
            handoff=HandoffStep.from_dict(data["handoff"]) if data.get("handoff") else None,
            manual=ManualPick.from_dict(data["manual"]) if data.get("manual") else None,
        )


def selection_log_to_json(log: Iterable[SelectionRecord], indent: int | None = None) -> str:
    """Serialise a selection log (e.g. ``groupchat.selection_log``) to a JSON array.

    The values of secret names (``api_key``, ``password``, ...) are written as ``"***REDACTED***"``.
    """
    return json.dumps(redact_secrets([record.to_dict() for record in log]), indent=indent)


def selection_log_from_json(text: str) -> list[SelectionRecord]:
    """Read a selection log written by :func:`selection_log_to_json`.

    Raises:
        ValueError: if ``text`` is not a JSON array of records.
    """
    data = json.loads(text)
    if not isinstance(data, list):
        message = f"text must hold a JSON array of selection records, got {type(data).__name__}."
        raise ValueError(message)  # noqa: TRY004
    return [SelectionRecord.from_dict(item) for item in data]


def format_selection_log(log: Iterable[SelectionRecord]) -> str:
    """Return a plain-text table of a selection log: one line per decision, then the totals.

    Columns: the decision's index, the previous speaker, the candidates left, the chosen agent,
    the number of questions asked of the selector model and the prompt tokens they used. A manual selection is
    followed by a line saying what the person did (``"    manual: picked critic by prefix; suggested coder
    (role_match), not followed"``); the totals count the answers typed apart from the model's.
    A decision that asked transition conditions is followed by one indented line per condition
    (``"    condition coder -> critic [label]: returned False, critic blocked"``); one moved by a hand-off by
    a line saying what moved it (``"    handoff llm_condition triage -> billing via transfer_to_billing_1"``).
    """
    records = list(log)
    header = ("#", "after", "candidates", "chosen", "calls", "prompt tok")
    rows = [
        (
            str(r.round),
            r.last_speaker or "-",
            ", ".join(r.candidates()) or "-",
            r.chosen or "(end)",
            str(sum(a.prompt_role != "human" for a in r.attempts)),
            str(int(r.usage.get("prompt_tokens", 0) or 0)),
        )
        for r in records
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(header, widths)).rstrip()]
    for record, row in zip(records, rows):
        lines.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
        lines.extend(f"    condition {outcome.describe()}" for outcome in record.conditions)
        if record.handoff is not None:
            lines.append(f"    handoff {record.handoff.describe()}")
        if record.manual is not None:
            lines.append(f"    manual: {record.manual.describe()}")
    asked = [a for r in records if r.method in ("auto", "manual") for a in r.attempts]
    typed = sum(a.prompt_role == "human" for a in asked)
    total = f"{len(records)} selection(s), {len(asked) - typed} question(s) to the selector"
    lines.append(total + (f", {typed} answer(s) typed" if typed else ""))
    return "\n".join(lines)
