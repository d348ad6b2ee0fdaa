"""Summaries of study records: transition, speaker and condition counts, flat rows and a text table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from .records import ChatRecord, Transition

__all__ = ["condition_counts", "format_table", "records_to_rows", "speaker_counts", "transition_counts"]


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


def records_to_rows(records: Iterable[ChatRecord]) -> list[dict[str, Any]]:
    """Flatten records into one plain dict per chat, with the same keys in every row.

    Keys: ``run``, ``label``, ``method``, ``rounds``, ``speakers`` (names joined by " > "), ``end_reason``,
    ``selections``, ``selection_calls``, ``rejected`` (count), ``off_graph`` (count of transitions outside
    the graph), ``selection_tokens``, ``agent_tokens``, ``total_tokens``, ``error``, then ``turns:<name>``
    (messages by that agent) for every speaker seen in any record, in order of first appearance, then
    ``allowed:<edge>`` and ``blocked:<edge>`` (how often the condition of that conditional transition
    allowed or blocked its target) for every conditional transition asked in any record.
    The rows fit ``pandas.DataFrame(rows)``, ``csv.DictWriter`` or :func:`format_table`.
    """
    records = _check_records(records)
    names = list(dict.fromkeys(name for record in records for name in record.speakers))
    edges = list(dict.fromkeys(edge for record in records for edge in record.transition_conditions))
    rows = []
    for record in records:
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
