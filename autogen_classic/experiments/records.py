"""What one group chat of a study did, as a :class:`ChatRecord`, and its JSON form.

A record is read from a group chat once the chat has ended (or failed): speakers, transitions, the
end reason, the selector's questions and rejected answers, what conditional transitions decided,
tokens, the messages and the selection log; in a chat of hand-offs (a pattern's), the hand-off that
caused each transition and the final context variables. :meth:`ChatRecord.to_dict` /
:meth:`ChatRecord.from_dict` turn it into plain JSON data and back, for run directories, JSON lines and
other processes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..agentchat.groupchat import GroupChat, GroupChatManager
from ..agentchat.groupchat.handoffs import GroupTransition
from ..agentchat.groupchat.selection.auto import mentioned_agents
from ..agentchat.groupchat.selection.trace import SelectionRecord

__all__ = [
    "ChatRecord", "HandoffTransition", "RejectedChoice", "Transition", "allowed_transitions", "handoff_label",
    "method_name", "record_of_chat",
]

Transition = tuple[str, str]
HandoffTransition = tuple[str | None, str | None, str]
"""(speaker, next speaker, what moved the turn): the next speaker is None when the hand-off ended the chat."""


def handoff_label(key: HandoffTransition) -> str:
    """``"triage -> billing [llm_condition]"``; a hand-off that ended the chat leads to ``(end)``."""
    source, target, kind = key
    return f"{source or '-'} -> {target or '(end)'} [{kind}]"


@dataclass(frozen=True)
class RejectedChoice:
    """A selector answer that named an agent of the group who was not a candidate at that moment.

    The transition graph, the repeat rule or an eligibility policy had excluded the agent, so the
    answer could not be taken as it was (the selector was asked again, or another candidate was used).

    Args:
        round: the index of the selection decision in the chat's selection log.
        answer: the selector's raw answer.
        named: the group agents named in the answer that were not candidates.
        candidates: the agents that were eligible.
    """

    round: int
    answer: str
    named: tuple[str, ...]
    candidates: tuple[str, ...]


@dataclass
class ChatRecord:
    """What happened in one group chat run by :func:`run_group_chats`.

    Args:
        run: the index of the run (0 for the first).
        method: the speaker selection method ("auto", "random", ...; a custom function's name); for a chat of
            a pattern, the pattern's class name ("DefaultPattern", "AutoPattern", ...).
        label: the label given to :func:`run_group_chats` (e.g. the name of the graph tried).
        speakers: the name of the speaker of every message, in order (the opening message included).
        end_reason: why the chat ended (``GroupChatManager.end_reason``).
        selections: the number of speaker-selection decisions.
        selection_calls: the number of questions put to the model to choose a speaker.
        rejected: the model answers that named an agent who was not eligible.
        selection_tokens: the tokens used by the speaker-selection calls.
        agent_tokens: the tokens used by the participants' own model calls.
        allowed: the (from, to) speaker transitions the group chat allowed (conditional ones included).
        messages: the group chat's messages.
        selection_log: the group chat's selection log (see ``format_selection_log``).
        error: ``"ExceptionType: message"`` when the chat raised and errors were recorded, else None.
        transition_conditions: per conditional transition (``"coder -> critic [label]"``), how often its
            condition let the target be a candidate and how often it blocked it:
            ``{"allowed": n, "blocked": m}``; empty without conditional transitions.
        handoffs: in a chat of hand-offs (a pattern's), (speaker, next speaker, kind) -> how often that
            transition was caused by a hand-off of that kind ("initial_agent", "tool_call", "llm_condition",
            "reply_result", "context_condition", "after_work", "pattern", "tool_return", ...: the ``kind`` of
            the selection trace's ``HandoffStep``), in order of first occurrence. The next speaker is None
            when the hand-off ended the chat (e.g. an after-work ``TerminateTarget``). Empty without hand-offs.
        handoff_kinds: kind -> how many hand-offs of that kind moved the turn (those that ended the chat
            included), in order of first occurrence.
        context_variables: a chat of hand-offs: its context variables when it ended (or failed); else empty.
    """

    run: int
    method: str
    label: str | None
    speakers: list[str]
    end_reason: str | None
    selections: int = 0
    selection_calls: int = 0
    rejected: list[RejectedChoice] = field(default_factory=list)
    selection_tokens: int = 0
    agent_tokens: int = 0
    allowed: frozenset[Transition] = field(default=frozenset(), repr=False)
    messages: list[dict[str, Any]] = field(default_factory=list, repr=False)
    selection_log: list[SelectionRecord] = field(default_factory=list, repr=False)
    error: str | None = None
    transition_conditions: dict[str, dict[str, int]] = field(default_factory=dict)
    handoffs: dict[HandoffTransition, int] = field(default_factory=dict)
    handoff_kinds: dict[str, int] = field(default_factory=dict)
    context_variables: dict[str, Any] = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        """Whether the chat raised (its ``error`` says what; ``messages`` hold the transcript up to then)."""
        return self.error is not None

    def to_dict(self) -> dict[str, Any]:
        """The record as plain JSON data (see :meth:`from_dict`)."""
        return {
            "run": self.run,
            "method": self.method,
            "label": self.label,
            "speakers": list(self.speakers),
            "end_reason": self.end_reason,
            "selections": self.selections,
            "selection_calls": self.selection_calls,
            "rejected": [
                {"round": r.round, "answer": r.answer, "named": list(r.named), "candidates": list(r.candidates)}
                for r in self.rejected
            ],
            "selection_tokens": self.selection_tokens,
            "agent_tokens": self.agent_tokens,
            "allowed": sorted([list(pair) for pair in self.allowed]),
            "messages": [dict(m) for m in self.messages],
            "selection_log": [record.to_dict() for record in self.selection_log],
            "error": self.error,
            "transition_conditions": {edge: dict(counts) for edge, counts in self.transition_conditions.items()},
            "handoffs": [
                {"from": source, "to": target, "kind": kind, "count": count}
                for (source, target, kind), count in self.handoffs.items()
            ],
            "handoff_kinds": dict(self.handoff_kinds),
            "context_variables": dict(self.context_variables),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChatRecord:
        """Read a record written by :meth:`to_dict`.

        Raises:
            ValueError: when ``data`` is not such a record (the message names the missing key).
        """
        if not isinstance(data, dict):
            raise ValueError(f"a chat record must be a JSON object; got {type(data).__name__}.")
        missing = [key for key in ("run", "method", "speakers") if key not in data]
        if missing:
            raise ValueError(f"not a chat record: the key(s) {missing} are missing.")
        return cls(
            run=int(data["run"]),
            method=str(data["method"]),
            label=data.get("label"),
            speakers=list(data["speakers"]),
            end_reason=data.get("end_reason"),
            selections=int(data.get("selections", 0)),
            selection_calls=int(data.get("selection_calls", 0)),
            rejected=[
                RejectedChoice(r["round"], r["answer"], tuple(r["named"]), tuple(r["candidates"]))
                for r in data.get("rejected", [])
            ],
            selection_tokens=int(data.get("selection_tokens", 0)),
            agent_tokens=int(data.get("agent_tokens", 0)),
            allowed=frozenset((a, b) for a, b in data.get("allowed", [])),
            messages=[dict(m) for m in data.get("messages", [])],
            selection_log=[SelectionRecord.from_dict(r) for r in data.get("selection_log", [])],
            error=data.get("error"),
            transition_conditions={e: dict(c) for e, c in (data.get("transition_conditions") or {}).items()},
            handoffs={
                (h.get("from"), h.get("to"), str(h["kind"])): int(h["count"]) for h in data.get("handoffs") or []
            },
            handoff_kinds={str(k): int(n) for k, n in (data.get("handoff_kinds") or {}).items()},
            context_variables=dict(data.get("context_variables") or {}),
        )

    @property
    def rounds(self) -> int:
        """The number of messages of the chat (the opening message included)."""
        return len(self.speakers)

    @property
    def transitions(self) -> dict[Transition, int]:
        """(speaker, next speaker) -> how often that hand-over happened, in order of first occurrence."""
        return dict(Counter(zip(self.speakers, self.speakers[1:])))

    @property
    def off_graph(self) -> dict[Transition, int]:
        """The observed transitions that the group chat did not allow (expected to be empty)."""
        return {pair: count for pair, count in self.transitions.items() if pair not in self.allowed}

    @property
    def total_tokens(self) -> int:
        """Selection tokens plus agent tokens."""
        return self.selection_tokens + self.agent_tokens


# ----------------------------------------------------------------- running
def allowed_transitions(groupchat: GroupChat) -> frozenset[Transition]:
    """Return the (from, to) pairs of agent names that the group chat's transition graph allows.

    Without a graph this is every pair, with self-loops as ``allow_repeat_speaker`` says.
    """
    graph = groupchat.transition_graph()
    return frozenset((source.name, target.name) for source, targets in graph.items() for target in targets)


def method_name(method: Any) -> str:
    if isinstance(method, str):
        return method.lower()
    if isinstance(method, GroupTransition) and method.pattern_name:
        return method.pattern_name  # a chat of hand-offs: the pattern that set it up ("DefaultPattern", ...)
    return str(getattr(method, "__name__", None) or type(method).__name__)


def _rejected_choices(groupchat: GroupChat, log: list[SelectionRecord]) -> list[RejectedChoice]:
    found = []
    for record in log:
        candidates = record.candidates()
        for attempt in record.attempts:
            if attempt.prompt_role == "human" or not attempt.answer:
                continue
            named = [name for name in mentioned_agents(attempt.answer, groupchat.agents) if name not in candidates]
            if named:
                found.append(RejectedChoice(record.round, attempt.answer, tuple(named), tuple(candidates)))
    return found


def _condition_outcomes(log: list[SelectionRecord]) -> dict[str, dict[str, int]]:
    """Per conditional transition, in order of first occurrence: how often it allowed and blocked its target."""
    counts: dict[str, dict[str, int]] = {}
    for record in log:
        for outcome in record.conditions:
            entry = counts.setdefault(outcome.edge, {"allowed": 0, "blocked": 0})
            if outcome.effect in entry:  # a failed condition ("error") stops the chat and is in ``error``
                entry[outcome.effect] += 1
    return counts


def _handoff_counts(log: list[SelectionRecord]) -> tuple[dict[HandoffTransition, int], dict[str, int]]:
    """Per (speaker, next speaker, kind) and per kind: the hand-offs that moved the turn."""
    transitions: Counter[HandoffTransition] = Counter()
    kinds: Counter[str] = Counter()
    for record in log:
        if record.handoff is not None:
            transitions[(record.last_speaker, record.chosen, record.handoff.kind)] += 1
            kinds[record.handoff.kind] += 1
    return dict(transitions), dict(kinds)


def record_of_chat(
    run: int, label: str | None, groupchat: GroupChat, manager: GroupChatManager, agent_tokens: int,
    error: str | None, context_variables: dict[str, Any] | None = None,
) -> ChatRecord:
    """The record of one finished (or failed) chat, read from its group chat and manager."""
    log = list(groupchat.selection_log)
    handoffs, handoff_kinds = _handoff_counts(log)
    return ChatRecord(
        run=run,
        method=method_name(groupchat.speaker_selection_method),
        label=label,
        speakers=[str(m.get("name", "")) for m in groupchat.messages],
        end_reason=manager.end_reason,
        selections=len(log),
        selection_calls=sum(1 for r in log for a in r.attempts if a.prompt_role != "human"),
        rejected=_rejected_choices(groupchat, log),
        selection_tokens=sum(int(r.usage.get("total_tokens", 0) or 0) for r in log),
        agent_tokens=agent_tokens,
        allowed=allowed_transitions(groupchat),
        messages=[dict(m) for m in groupchat.messages],
        selection_log=log,
        error=error,
        transition_conditions=_condition_outcomes(log),
        handoffs=handoffs,
        handoff_kinds=handoff_kinds,
        context_variables=dict(context_variables or {}),
    )


