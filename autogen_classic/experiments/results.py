"""The records of a study as one list, with tables and files: a DataFrame, JSON lines, Parquet.

``pandas`` (and ``pyarrow`` for Parquet) come with the ``dataframe`` extra:
``pip install "autogen-classic[dataframe]"``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..logger.redaction import redact_secrets
from .records import ChatRecord
from .summaries import records_to_rows

__all__ = ["StudyResults", "read_jsonl"]


def _pandas() -> Any:
    try:
        import pandas
    except ImportError as err:
        raise ImportError(
            'to_dataframe and to_parquet need pandas: pip install "autogen-classic[dataframe]" '
            "(pandas and pyarrow)."
        ) from err
    return pandas


class StudyResults(list[ChatRecord]):
    """The records of a study, in run order (a list of :class:`ChatRecord`), plus tables and files."""

    @property
    def failed(self) -> list[ChatRecord]:
        """The records of the chats that raised."""
        return [record for record in self if record.failed]

    def to_rows(self) -> list[dict[str, Any]]:
        """One flat dict per chat (see ``records_to_rows``)."""
        return records_to_rows(self)

    def to_dataframe(self) -> Any:
        """A ``pandas.DataFrame`` with one row per chat (the columns of ``records_to_rows``)."""
        return _pandas().DataFrame(self.to_rows())

    def to_jsonl(self, path: str | os.PathLike[str]) -> Path:
        """Write every record, whole, as one JSON object per line (read back with :func:`read_jsonl`).

        The values of secret names (``api_key``, ``password``, ...) are written as ``"***REDACTED***"``.
        """
        target = Path(path)
        with open(target, "w", encoding="utf-8") as handle:
            for record in self:
                handle.write(json.dumps(redact_secrets(record.to_dict()), default=str) + "\n")
        return target

    def to_parquet(self, path: str | os.PathLike[str]) -> Path:
        """Write the table of :meth:`to_dataframe` as a Parquet file (``pandas.read_parquet`` reads it)."""
        target = Path(path)
        self.to_dataframe().to_parquet(target, index=False)
        return target


def read_jsonl(path: str | os.PathLike[str]) -> StudyResults:
    """Read records written by :meth:`StudyResults.to_jsonl` (or a run directory's ``records.jsonl``), in run order."""
    records: list[ChatRecord] = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                records.append(ChatRecord.from_dict(json.loads(line)))
    return StudyResults(sorted(records, key=lambda record: record.run))


def as_results(records: Iterable[ChatRecord]) -> StudyResults:
    return StudyResults(sorted(records, key=lambda record: record.run))
