"""A study's run directory: what the study is, and every finished chat, written as it finishes.

``study.json`` says which study the directory belongs to; ``records.jsonl`` holds one chat record per
line, appended and flushed to disk as each chat ends. Running the same study again reads the finished
chats back and runs only the others; a process killed mid-write leaves at most a partial last line,
which is dropped. A directory written by a different study is refused before any chat runs.

Secrets never reach the directory: the values of secret names (``api_key``, ``password``, ...) and
the secrets in a tool call's JSON ``arguments`` are written as ``"***REDACTED***"``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..logger.redaction import redact_secrets
from .records import ChatRecord

__all__ = ["RECORDS_FILE", "STUDY_FILE", "RunDirectory", "StudyMismatchError"]

STUDY_FILE = "study.json"
RECORDS_FILE = "records.jsonl"
# Keys of the study description that may differ between two runs of the same study.
_MAY_CHANGE = ("n",)


class StudyMismatchError(ValueError):
    """The run directory was written by a different study (the message names the settings that differ)."""


class RunDirectory:
    """The run directory ``path`` of the study described by ``study`` (plain JSON data).

    Args:
        path: the directory (created when missing).
        study: what identifies the study (the opening message, seed, label, method, factory...).
    """

    def __init__(self, path: str | os.PathLike[str], study: dict[str, Any]) -> None:
        self.path = Path(path)
        self.study = redact_secrets(study)  # as written and compared: a study names no secret

    @property
    def records_path(self) -> Path:
        return self.path / RECORDS_FILE

    def open(self) -> dict[int, ChatRecord]:
        """Claim the directory for this study and return its finished chats by run index.

        Raises:
            StudyMismatchError: the directory belongs to another study.
            ValueError: ``path`` is a file, or a line of ``records.jsonl`` (other than a partial last one)
                is not a chat record.
        """
        if self.path.exists() and not self.path.is_dir():
            raise ValueError(f"run_dir {str(self.path)!r} is a file; give a directory (it is created when missing).")
        self.path.mkdir(parents=True, exist_ok=True)
        study_file = self.path / STUDY_FILE
        if study_file.exists():
            self._check_same_study(json.loads(study_file.read_text(encoding="utf-8")))
        else:
            temporary = study_file.with_suffix(".json.tmp")
            temporary.write_text(json.dumps(self.study, indent=2, sort_keys=True), encoding="utf-8")
            os.replace(temporary, study_file)
        return self._finished()

    def _check_same_study(self, written: dict[str, Any]) -> None:
        keys = sorted((set(written) | set(self.study)) - set(_MAY_CHANGE))
        differ = [key for key in keys if written.get(key) != self.study.get(key)]
        if differ:
            details = "; ".join(f"{key}: {written.get(key)!r} there, {self.study.get(key)!r} now" for key in differ)
            raise StudyMismatchError(
                f"run_dir {str(self.path)!r} holds a different study ({details}). Use a new run_dir for this "
                "study, or delete that directory to start it over."
            )

    def _finished(self) -> dict[int, ChatRecord]:
        path = self.records_path
        if not path.exists():
            return {}
        data = path.read_bytes()
        end = data.rfind(b"\n") + 1
        if end < len(data):
            # A partial last line: the process stopped while writing it. That chat runs again.
            with open(path, "r+b") as handle:
                handle.truncate(end)
            data = data[:end]
        finished: dict[int, ChatRecord] = {}
        for number, line in enumerate(data.decode("utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                record = ChatRecord.from_dict(json.loads(line))
            except (ValueError, KeyError, TypeError) as err:
                raise ValueError(
                    f"line {number} of {str(path)!r} is not a chat record ({err}); remove that line to rerun its chat."
                ) from err
            finished[record.run] = record
        return finished

    def append(self, record: ChatRecord) -> None:
        """Write one finished chat, and make sure it is on disk before returning."""
        line = json.dumps(redact_secrets(record.to_dict()), default=str) + "\n"
        with open(self.records_path, "a", encoding="utf-8") as handle:
            handle.write(line)
            handle.flush()
            os.fsync(handle.fileno())
