"""The checkpoint file beside a transcript: ``<transcript_path>.state``, JSON lines, one per transcript line.

A transcript holds the messages; the checkpoint holds what a resumed run needs besides them (the round
count, context variables, a pending hand-off, the auto-reply counters, the selection trace ...; see
:mod:`.snapshot`). Line ``i`` (``{"index": i, ...}``) is the state at the moment message ``i`` was appended.
To keep the file small a line holds only the fields that changed since the line before, and the new
selection records; :func:`load_checkpoint` merges the lines back into whole states.

Durability follows the transcript's rules: the line is written and ``fsync``-ed just before the transcript
line of its message, under the transcript's lock (the transcript writer owns this file). So a crash leaves
the checkpoint at most one line ahead of the transcript: such lines (for messages that never counted) are
ignored, and cut away when the file is opened again. A torn last line is ignored too; any other bad line
raises ``ValueError`` naming the file and the line.
"""

from __future__ import annotations

import json
import os
import weakref
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Optional

__all__ = ["CheckpointFile", "CheckpointWriter", "checkpoint_path", "load_checkpoint"]

INDEX_KEY = "index"
SELECTION_KEY = "selection"  # new selection records of this line
SELECTION_FROM_KEY = "selection_from"  # the log was cut to this length first (a new chat reset it)
SUFFIX = ".state"


def checkpoint_path(transcript_path: str | os.PathLike[str]) -> str:
    """The checkpoint file of a transcript: ``<transcript_path>.state``."""
    return os.fspath(transcript_path) + SUFFIX


@dataclass
class CheckpointFile:
    """The parsed checkpoint file: the fields of each line merged with those before, and the selection trace.

    ``states[i]`` is the state when message ``indexes[i]`` was appended, without the selection trace, which
    is kept once per chat (``selections[i]``, shared by the lines of a chat): ``selection_lengths[i]`` records of
    it made up the trace at that moment.
    """

    path: str
    indexes: list[int] = field(default_factory=list)
    states: list[dict[str, Any]] = field(default_factory=list)
    selections: list[list[Any]] = field(default_factory=list)  # per line: the trace it belongs to (shared)
    selection_lengths: list[int] = field(default_factory=list)
    line_ends: list[int] = field(default_factory=list)  # the byte offset after each valid line

    def position_at(self, index: int) -> Optional[int]:
        """The line holding the state when message ``index`` was appended (the last one at or before it)."""
        found = None
        for position, line_index in enumerate(self.indexes):
            if line_index > index:
                break
            found = position
        return found

    def state_at(self, index: int) -> Optional[dict[str, Any]]:
        """The state when message ``index`` was appended, its selection trace under ``"selection"``; None if
        no line is that old."""
        position = self.position_at(index)
        if position is None:
            return None
        records = self.selections[position][: self.selection_lengths[position]]
        return {**self.states[position], SELECTION_KEY: records}

    def length_before(self, count: int) -> int:
        """The byte length of the lines for messages ``< count`` (lines beyond never counted)."""
        position = self.position_at(count - 1)
        return 0 if position is None else self.line_ends[position]


def json_lines(data: bytes) -> Iterator[tuple[int, bytes, bool, int]]:
    """The lines of a JSON-lines file (a transcript or a checkpoint), for its parser: each line's number, its
    bytes, whether a newline ends it (a crash can tear the last line) and the offset just after it."""
    start, number = 0, 0
    while start < len(data):
        newline = data.find(b"\n", start)
        terminated = newline != -1
        end = newline if terminated else len(data)
        number += 1
        after = end + 1 if terminated else end
        yield number, data[start:end], terminated, after
        start = after


def _bad_line(path: str, number: int, what: str) -> ValueError:
    return ValueError(
        f"checkpoint {path!r} line {number} {what}; only the last line may be torn by a crash. Repair or delete "
        "that line (or delete the checkpoint file: the chat then resumes from its transcript alone)."
    )


def parse_checkpoint(data: bytes, path: str) -> CheckpointFile:
    """Parse the bytes of a checkpoint file (see :func:`load_checkpoint`)."""
    parsed = CheckpointFile(path)
    state: dict[str, Any] = {}
    selection: list[Any] = []
    for number, raw, terminated, after in json_lines(data):
        if not terminated:
            break  # a torn last line (even one that parses: its write was cut), so its message never counted
        if raw.strip():
            try:
                item = json.loads(raw)
            except ValueError as e:
                raise _bad_line(path, number, f"is not valid JSON ({e})") from e
            if not isinstance(item, dict) or not isinstance(item.get(INDEX_KEY), int):
                raise _bad_line(path, number, f"is not a checkpoint (a JSON object with an int 'index'): {raw[:60]!r}")
            index = item.pop(INDEX_KEY)
            if parsed.indexes and index <= parsed.indexes[-1]:
                raise _bad_line(path, number, f"has index {index} after index {parsed.indexes[-1]} (lines duplicated "
                                "or reordered)")
            records = item.pop(SELECTION_KEY, [])
            cut = item.pop(SELECTION_FROM_KEY, None)
            if not isinstance(records, list) or not (cut is None or isinstance(cut, int)):
                raise _bad_line(path, number, "has a malformed 'selection' / 'selection_from'")
            if cut is not None:
                selection = selection[:cut]  # a new list: the earlier lines keep the trace they saw
            selection.extend(records)
            state = {**state, **item}
            parsed.indexes.append(index)
            parsed.states.append(state)
            parsed.selections.append(selection)
            parsed.selection_lengths.append(len(selection))
            parsed.line_ends.append(after)
    return parsed


def load_checkpoint(path: str | os.PathLike[str]) -> CheckpointFile:
    """Read a checkpoint file (``<transcript_path>.state``); a missing file reads as empty.

    Raises:
        ValueError: a line other than a torn last one is not a checkpoint line (the message names the line).
    """
    text = os.fspath(path)
    try:
        with open(text, "rb") as file:
            data = file.read()
    except FileNotFoundError:
        return CheckpointFile(text)
    return parse_checkpoint(data, text)


def _close_fd(fd: int) -> None:
    try:
        os.close(fd)
    except OSError:
        pass


class CheckpointWriter:
    """The open checkpoint file of one transcript, written by its :class:`TranscriptWriter` (under its lock).

    Args:
        transcript_path: the transcript's path; the checkpoint is ``<transcript_path>.state``.
        message_count: how many messages the transcript holds: lines for later messages are cut away.

    Raises:
        OSError: the file cannot be opened (the message names the path).
        ValueError: a line other than the last is corrupt.
    """

    def __init__(self, transcript_path: str, message_count: int) -> None:
        self.path = checkpoint_path(transcript_path)
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
        except OSError as e:
            raise OSError(e.errno, f"checkpoint {self.path!r} (beside transcript_path) cannot be opened for "
                                   f"appending ({e.strerror}); give a transcript_path in a writable directory") from e
        self._finalizer = weakref.finalize(self, _close_fd, fd)
        self._fd = fd
        try:
            self._read_and_repair(message_count)
        except BaseException:
            self._finalizer()
            raise
        # What the next line is made of (set by the run that appends the messages; see snapshot.py).
        self.source: Optional[Callable[[], dict[str, Any]]] = None

    def _read_and_repair(self, message_count: int) -> None:
        size = os.fstat(self._fd).st_size
        data = os.pread(self._fd, size, 0) if size else b""
        parsed = parse_checkpoint(data, self.path)
        keep = parsed.length_before(message_count)
        if keep < len(data):
            os.ftruncate(self._fd, keep)
            os.fsync(self._fd)
        position = parsed.position_at(message_count - 1)
        # What the file says so far, so that the next line holds only the changes.
        self._last: dict[str, Any] = {} if position is None else dict(parsed.states[position])
        self._selection_count = 0 if position is None else parsed.selection_lengths[position]

    def write(self, index: int) -> None:
        """Write (and fsync) the line of message ``index``: the fields that changed since the last line and the
        new selection records."""
        state = self.source() if self.source is not None else {}
        line: dict[str, Any] = {INDEX_KEY: index}
        records = state.pop(SELECTION_KEY, None)
        # Compared as JSON reads them back, so a value JSON changes (a tuple ...) is not written again and again.
        state = json.loads(json.dumps(state, default=str))
        changed = {key: value for key, value in state.items() if self._last.get(key, _MISSING) != value}
        line.update(changed)
        count = self._selection_count
        if records is not None:
            if len(records) < count:  # a new chat cleared the trace (it only grows within a chat)
                line[SELECTION_FROM_KEY], count = 0, 0
            if len(records) > count:
                line[SELECTION_KEY] = [_record_dict(record) for record in records[count:]]
            count = len(records)
        text = json.dumps(line, default=str)
        view = memoryview(text.encode("utf-8") + b"\n")
        while view:
            view = view[os.write(self._fd, view):]
        os.fsync(self._fd)
        self._last.update(changed)
        self._selection_count = count

    def unwritten_selection(self, records: list[Any]) -> list[Any]:
        """The selection records of ``records`` (the group chat's trace) no line holds yet, as dicts."""
        return [_record_dict(record) for record in records[self._selection_count:]]

    def close(self) -> None:
        """Close the file (idempotent)."""
        self._finalizer()


_MISSING = object()


def _record_dict(record: Any) -> Any:
    to_dict = getattr(record, "to_dict", None)
    return to_dict() if callable(to_dict) else record
