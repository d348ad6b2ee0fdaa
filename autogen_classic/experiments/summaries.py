"""Summaries of study records: transition, speaker, condition and hand-off counts, flat rows and a text table."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from ..logger.redaction import redact_secrets
from .records import ChatRecord, HandoffTransition, Transition, handoff_label

__all__ = [
    "condition_counts", "format_table", "handoff_counts", "handoff_kind_counts", "records_to_rows", "speaker_counts",
    "transition_counts",
]


def _check_records(records: Any) -> list[ChatRecord]:
    records = list(records)
    for item in records:
        if not isinstance(item, ChatRecord):
            raise TypeError(f"records must hold ChatRecord objects (from run_group_chats); got {type(item).__name__}.")
    return records


def transition_counts(records: Iterable[ChatRecord]) -> dict[Transition, int]:
    """Return (speaker, next speaker) -> count over all ``records``, most frequent first (ties by name)."""
    total: Counter[Transition] = Counter()
    for record in _check_records(records):
        total.update(record.transitions)
    return dict(sorted(total.items(), key=lambda item: (-item[1], item[0])))


def speaker_counts(records: Iterable[ChatRecord]) -> dict[str, int]:
    """Return speaker name -> number of messages over all ``records``, most frequent first (ties by name)."""
    total: Counter[str] = Counter()
    for record in _check_records(records):
        total.update(record.speakers)
    return dict(sorted(total.items(), key=lambda item: (-item[1], item[0])))


def condition_counts(records: Iterable[ChatRecord]) -> dict[str, dict[str, int]]:
    """Return conditional transition -> ``{"allowed": n, "blocked": m}`` over all ``records``, sorted by edge."""
    total: dict[str, Counter[str]] = {}
    for record in _check_records(records):
        for edge, counts in record.transition_conditions.items():
            total.setdefault(edge, Counter()).update(counts)
    return {
        edge: {"allowed": counts["allowed"], "blocked": counts["blocked"]} for edge, counts in sorted(total.items())
    }


def handoff_counts(records: Iterable[ChatRecord]) -> dict[HandoffTransition, int]:
    """Return (speaker, next speaker, kind) -> count of hand-offs over all ``records``, most frequent first.

    The next speaker is None when the hand-off ended the chat. Only chats of patterns have hand-offs.
    """
    total: Counter[HandoffTransition] = Counter()
    for record in _check_records(records):
        total.update(record.handoffs)
    # Ties by names; None (the end of the chat) sorts before any name.
    return dict(sorted(total.items(), key=lambda item: (-item[1], tuple(part or "" for part in item[0]))))


def handoff_kind_counts(records: Iterable[ChatRecord]) -> dict[str, int]:
    """Return hand-off kind ("llm_condition", "after_work", ...) -> count over all ``records``, most frequent first."""
    total: Counter[str] = Counter()
    for record in _check_records(records):
        total.update(record.handoff_kinds)
    return dict(sorted(total.items(), key=lambda item: (-item[1], item[0])))


def _cell(value: Any) -> Any:
    """A context variable as a table cell: plain values as they are, others as JSON text (a Parquet column
    holds one type)."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return json.dumps(value, default=str, sort_keys=True)


def records_to_rows(records: Iterable[ChatRecord]) -> list[dict[str, Any]]:
    """Flatten records into one plain dict per chat, with the same keys in every row.

    Keys: ``run``, ``label``, ``method``, ``rounds``, ``speakers`` (names joined by " > "), ``end_reason``,
    ``selections``, ``selection_calls``, ``rejected`` (count), ``off_graph`` (count of transitions outside
    the graph), ``selection_tokens``, ``agent_tokens``, ``total_tokens``, ``error``, then ``turns:<name>``
    (messages by that agent) for every speaker seen in any record, in order of first appearance, then
    ``allowed:<edge>`` and ``blocked:<edge>`` (how often the condition of that conditional transition
    allowed or blocked its target) for every conditional transition asked in any record. Chats of patterns
    add, for every value seen in any record: ``handoff_kind:<kind>`` (hand-offs of that kind),
    ``handoff:<speaker> -> <next> [<kind>]`` (that transition caused by a hand-off of that kind; ``(end)``
    when the hand-off ended the chat) and ``context:<name>`` (the context variable when the chat ended:
    plain values as they are, others as JSON text, secrets as ``"***REDACTED***"``; None when unset).
    The rows fit ``pandas.DataFrame(rows)``, ``csv.DictWriter`` or :func:`format_table`.
    """
    records = _check_records(records)
    names = list(dict.fromkeys(name for record in records for name in record.speakers))
    edges = list(dict.fromkeys(edge for record in records for edge in record.transition_conditions))
    kinds = list(dict.fromkeys(kind for record in records for kind in record.handoff_kinds))
    handoffs = list(dict.fromkeys(key for record in records for key in record.handoffs))
    contexts = [redact_secrets(dict(record.context_variables)) for record in records]
    variables = list(dict.fromkeys(name for context in contexts for name in context))
    rows = []
    for record, context in zip(records, contexts):
        turns = Counter(record.speakers)
        row: dict[str, Any] = {
            "run": record.run,
            "label": record.label,
            "method": record.method,
            "rounds": record.rounds,
            "speakers": " > ".join(record.speakers),
            "end_reason": record.end_reason,
            "selections": record.selections,
            "selection_calls": record.selection_calls,
            "rejected": len(record.rejected),
            "off_graph": sum(record.off_graph.values()),
            "selection_tokens": record.selection_tokens,
            "agent_tokens": record.agent_tokens,
            "total_tokens": record.total_tokens,
            "error": record.error,
        }
        row.update({f"turns:{name}": turns.get(name, 0) for name in names})
        for edge in edges:
            counts = record.transition_conditions.get(edge, {})
            row[f"allowed:{edge}"] = counts.get("allowed", 0)
            row[f"blocked:{edge}"] = counts.get("blocked", 0)
        row.update({f"handoff_kind:{kind}": record.handoff_kinds.get(kind, 0) for kind in kinds})
        row.update({f"handoff:{handoff_label(key)}": record.handoffs.get(key, 0) for key in handoffs})
        row.update({f"context:{name}": _cell(context.get(name)) for name in variables})
        rows.append(row)
    return rows


def format_table(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None, max_width: int = 60) -> str:
    """Return ``rows`` (dicts) as a plain-text table with a header line.

    Args:
        rows: the rows, e.g. from :func:`records_to_rows`.
        columns: the keys to show, in order (default: the keys of the first row).
        max_width: longer cells are cut to this many characters, ending with "...".
    """
    if isinstance(max_width, bool) or not isinstance(max_width, int) or max_width < 4:
        raise ValueError(f"max_width must be an int >= 4; got {max_width!r}.")
    rows = list(rows)
    if columns is None:
        columns = list(rows[0]) if rows else []
    missing = [c for c in columns if rows and c not in rows[0]]
    if missing:
        raise ValueError(f"columns {missing} are not keys of the rows; the keys are {list(rows[0])}.")

    def cell(value: Any) -> str:
        text = "" if value is None else str(value)
        return text if len(text) <= max_width else text[: max_width - 3] + "..."

    table = [list(columns)] + [[cell(row.get(c)) for c in columns] for row in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(columns))]
    return "\n".join("  ".join(text.ljust(w) for text, w in zip(line, widths)).rstrip() for line in table)
