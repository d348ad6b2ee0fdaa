"""Crash-safe group chat transcripts: an append-only JSON-lines file, one message per line.

``GroupChat(..., transcript_path="chat.jsonl")`` opens a :class:`TranscriptWriter`: every message
appended to the group chat is written as one line (the message dict plus its position under
``"index"``), flushed and ``fsync``-ed before the chat goes on, so a crash loses at most the message
being written. The file is locked (``flock``) while a group chat holds it: a second writer is refused.

A crash can leave a torn (unterminated, unparseable) last line: :func:`load_transcript` ignores it and
the next writer cuts it away before appending. Resuming a chat from the file with
``GroupChatManager.resume(messages=load_transcript(path))`` on a group chat with the same
``transcript_path`` does not write again the messages the file already holds.

Beside it, ``<transcript_path>.state`` holds a checkpoint line per message (written just before the message's
line): the state a resumed run needs besides the messages (see :mod:`.durable`).

Secrets never reach the file: the values of secret names (``api_key``, ``password``, ...) and the
secrets in a tool call's JSON ``arguments`` are written as ``"***REDACTED***"``
(``logger.redaction.redact_secrets``), so a chat resumed from the file sees them masked.
"""

from __future__ import annotations

import collections
import json
import os
import threading
import weakref
from typing import Any

from ...coding.utils import content_str
from ...logger.redaction import redact_secrets
from .durable.checkpoint_file import CheckpointWriter, json_lines

try:  # POSIX only; without it a transcript is not protected against a second writer.
    import fcntl
except ImportError:  # pragma: no cover - not reached on Linux/macOS
    fcntl = None  # type: ignore[assignment]

__all__ = ["TranscriptInUseError", "TranscriptWriter", "attach_transcript", "load_transcript", "open_transcript"]

INDEX_KEY = "index"


class TranscriptInUseError(RuntimeError):
    """Another GroupChat (in this or another process) is writing the same transcript file."""


# ----------------------------------------------------------------- reading
def _check_path(path: Any, argument: str) -> str:
    accepted = "None, a str or an os.PathLike file path" if argument == "transcript_path" else "a str or os.PathLike"
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{argument} must be {accepted}; got {type(path).__name__}.")
    text = os.fspath(path)
    if not isinstance(text, str) or not text:
        raise ValueError(f"{argument} must be a non-empty file path such as 'chat.jsonl'; got {path!r}.")
    if os.path.isdir(text):
        example = os.path.join(text, "chat.jsonl")
        raise ValueError(f"{argument} {text!r} is a directory; give a file path such as {example!r}.")
    return text


def _parse(data: bytes, path: str) -> tuple[list[dict[str, Any]], int, bool]:
    """Parse the bytes of a transcript.

    Returns the messages, the length of the valid prefix (without a torn last line) and whether the
    last valid line lacks its newline.
    """
    messages: list[dict[str, Any]] = []
    valid_length = 0
    unterminated = False
    for line_number, raw, terminated, next_position in json_lines(data):
        if raw.strip():
            try:
                item = json.loads(raw)
            except ValueError as e:  # JSONDecodeError and UnicodeDecodeError
                if not terminated:
                    break  # a torn last line left by a crash during a write: ignored
                raise ValueError(
                    f"transcript {path!r} line {line_number} is not valid JSON ({e}); only the last line may be "
                    "torn by a crash. Repair or delete that line, or start a new transcript_path."
                ) from e
            if not isinstance(item, dict):
                raise ValueError(
                    f"transcript {path!r} line {line_number} is not a JSON object (a message) but "
                    f"{type(item).__name__}: {raw[:60]!r}. Repair or delete that line."
                )
            index = item.pop(INDEX_KEY, len(messages))
            if index != len(messages):
                raise ValueError(
                    f"transcript {path!r} line {line_number} has index {index!r} but it is message {len(messages)}: "
                    "lines were duplicated, lost or reordered. Repair the file or start a new transcript_path."
                )
            messages.append(item)
            unterminated = not terminated
        valid_length = next_position
    return messages, valid_length, unterminated


def load_transcript(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Read the messages of a group chat transcript (``GroupChat(transcript_path=...)``).

    A torn last line (unterminated and unparseable, left by a crash during a write) is ignored. The
    result can be given to ``GroupChatManager.resume(messages=...)``.

    Args:
        path: the transcript file.

    Returns:
        list[dict]: the messages, in order, without the ``"index"`` key of the lines.

    Raises:
        TypeError: when ``path`` is not a str or os.PathLike.
        ValueError: when a line other than a torn last one is not a JSON object, or the ``"index"`` of a
            line is not its position (the message names the line number).
        OSError: when the file cannot be read (e.g. FileNotFoundError).
    """
    text = _check_path(path, "path")
    with open(text, "rb") as file:
        data = file.read()
    return _parse(data, text)[0]


# ----------------------------------------------------------------- writing
def _json_line(message: dict[str, Any], index: int) -> str:
    record = {**redact_secrets(message), INDEX_KEY: index}
    try:
        return json.dumps(record, default=str)
    except (TypeError, ValueError):
        # Non-str keys or circular values: keep every top-level value as text rather than lose the message.
        return json.dumps({str(k): v if isinstance(v, (str, int, float, bool, type(None))) else str(v)
                           for k, v in record.items()})


def _as_text(content: Any) -> str:
    """The content as ``GroupChat.append`` stores it."""
    if isinstance(content, list):
        try:
            return content_str(content)
        except (TypeError, ValueError, KeyError):
            return str(content)
    return content if isinstance(content, str) else str(content)


def _normalized(message: dict[str, Any]) -> Any:
    """The message as it reads back from a transcript line."""
    return {k: v for k, v in json.loads(_json_line(message, 0)).items() if k != INDEX_KEY}


def _close_fd(fd: int) -> None:
    try:
        os.close(fd)  # also releases the flock
    except OSError:
        pass


class TranscriptWriter:
    """The open, locked transcript file of one group chat.

    Args:
        path: the transcript file; created when missing. A torn last line is cut away and a missing final
            newline added, so that the lines written next are valid.

    Raises:
        TypeError / ValueError: for a path that is not a str/PathLike, is empty or is a directory.
        OSError: when the file cannot be opened for appending (the message names ``transcript_path``).
        TranscriptInUseError: when another writer holds the file.
        ValueError: when a line other than the last is corrupt.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = _check_path(path, "transcript_path")
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)  # chats may be private
        except OSError as e:
            raise OSError(
                e.errno,
                f"transcript_path {self.path!r} cannot be opened for appending ({e.strerror}); give the path of a "
                "writable file in an existing directory",
            ) from e
        # Closed when the writer is garbage collected (and at interpreter exit) even without close().
        self._finalizer = weakref.finalize(self, _close_fd, fd)
        self._fd = fd
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as e:
                self._finalizer()
                raise TranscriptInUseError(
                    f"transcript_path {self.path!r} is already being written by another GroupChat (in this or "
                    "another process); only one writer at a time is allowed. Call close_transcript() on the other "
                    "group chat (or let its process end), or give this GroupChat a different transcript_path."
                ) from e
        try:
            self._written = self._read_and_repair()
            # The state a resumed run needs besides the messages, one line per message (durable/).
            self.checkpoint = CheckpointWriter(self.path, len(self._written))
        except BaseException:
            self._finalizer()
            raise
        self._lock = threading.Lock()
        # Messages the file already holds that a resume is about to append again, oldest first.
        self._replay: collections.deque[dict[str, Any]] = collections.deque()

    @property
    def count(self) -> int:
        """The number of messages in the file."""
        return len(self._written)

    @property
    def closed(self) -> bool:
        """Whether the file was closed."""
        return not self._finalizer.alive

    def _read_and_repair(self) -> list[dict[str, Any]]:
        size = os.fstat(self._fd).st_size
        data = os.pread(self._fd, size, 0) if size else b""
        messages, valid_length, unterminated = _parse(data, self.path)
        if valid_length < len(data):
            os.ftruncate(self._fd, valid_length)
        if unterminated:
            self._write_bytes(b"\n")
        if valid_length < len(data) or unterminated:
            os.fsync(self._fd)
        return messages

    def _write_bytes(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            written = os.write(self._fd, view)
            view = view[written:]

    def record(self, message: dict[str, Any]) -> None:
        """Write ``message`` as the next line (flushed and fsync-ed), unless a resume is replaying it.

        Raises:
            ValueError: when the transcript was closed.
            OSError: when the write fails (disk full, ...): the chat stops rather than lose messages.
        """
        with self._lock:
            if self.closed:
                raise ValueError(
                    f"transcript_path {self.path!r} was closed with close_transcript(); create a new GroupChat "
                    "to write to it again."
                )
            if self._replay:
                expected = self._replay.popleft()
                if message.get("name") == expected.get("name") and _as_text(message.get("content")) == _as_text(
                    expected.get("content")
                ):
                    return  # already in the file
                # The chat went on differently from the resumed messages: record from here on.
                self._replay.clear()
            line = _json_line(message, len(self._written))
            # The checkpoint line first: one ahead of the transcript (a crash between the two) is ignored.
            self.checkpoint.write(len(self._written))
            self._write_bytes(line.encode("utf-8") + b"\n")
            os.fsync(self._fd)
            self._written.append({k: v for k, v in json.loads(line).items() if k != INDEX_KEY})

    def check_resume(self, messages: list[dict[str, Any]]) -> int:
        """How many of ``messages`` (given to resume) the file already holds; they must start the same way.

        Raises:
            ValueError: when the file holds more messages than given, or different ones.
        """
        count = len(self._written)
        if len(messages) < count:
            raise ValueError(
                f"transcript_path {self.path!r} already holds {count} messages but only {len(messages)} were given "
                f"to resume; resume with load_transcript({self.path!r}) or use a new transcript_path."
            )
        for index in range(count):
            if _normalized(messages[index]) != self._written[index]:
                raise ValueError(
                    f"messages[{index}] given to resume differs from message {index} of transcript_path "
                    f"{self.path!r}; resume with load_transcript({self.path!r}) or use a new transcript_path."
                )
        return count

    def expect_replay(self, messages: list[dict[str, Any]]) -> None:
        """The next appends re-add ``messages`` (already in the file): skip writing them.

        The dicts are kept by reference, so a change made to the last one before it is appended (such as
        ``remove_termination_string``) is taken into account.
        """
        with self._lock:
            self._replay = collections.deque(messages)

    def cancel_replay(self) -> None:
        """Forget an expected replay (the group chat was reset)."""
        with self._lock:
            self._replay.clear()

    def close(self) -> None:
        """Close the file (and its checkpoint) and release its lock (idempotent)."""
        checkpoint = getattr(self, "checkpoint", None)
        if checkpoint is not None:
            checkpoint.close()
        self._finalizer()


def open_transcript(path: str | os.PathLike[str] | None) -> TranscriptWriter | None:
    """A writer for ``transcript_path``, or None when it is None."""
    return None if path is None else TranscriptWriter(path)


def attach_transcript(groupchat: Any, path: str | os.PathLike[str] | None) -> None:
    """Give a group chat built without ``transcript_path`` (a pattern's) the transcript ``path``.

    Raises:
        ValueError: the group chat already writes a transcript.
    """
    if path is None:
        return
    if getattr(groupchat, "_transcript", None) is not None:
        raise ValueError(
            f"the group chat already writes transcript_path {groupchat.transcript_path!r}; give transcript_path once."
        )
    groupchat._transcript = open_transcript(path)
    groupchat.transcript_path = path
