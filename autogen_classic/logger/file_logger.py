"""``FileLogger``: runtime logs as JSON lines, one record per line, with the classic field names.

Every line is a JSON object. A session starts with ``{"session_id", "message": "Started new
session with Session ID: ...", ...}``; the other records carry the fields of the classic file
logger (``invocation_id``, ``request``, ``response``, ``is_cached``, ``cost``, ``start_time``,
``end_time``, ``source_name`` for a model request; ``agent_name``, ``agent_type``, ``args`` for an
agent; ``event_name``, ``json_state`` for an event; ``input_args``, ``returns`` for a function
call; ...), plus ``session_id`` and ``thread_id``.
"""

from __future__ import annotations

import logging
import os
import threading
from typing import IO, TYPE_CHECKING, Any

from . import _records as records
from ._records import safe_serialize  # noqa: F401 - classic path
from .base_logger import BaseLogger, LLMConfig  # noqa: F401 - BaseLogger: classic path
from .logger_utils import get_current_ts, to_dict  # noqa: F401 - to_dict: classic path
from .record_logger import RecordKind, RecordLogger

if TYPE_CHECKING:
    from ..oai.client import OpenAIWrapper
    from ..types import Agent

__all__ = ["FileLogger"]

logger = logging.getLogger(__name__)

LOG_DIR = "autogen_logs"


class FileLogger(RecordLogger):
    """Appends runtime logs to a JSON-lines file (thread-safe: one line per record, written whole).

    Args:
        config: ``{"filename": name}``; a relative name is placed in ``./autogen_logs/`` (created
            when missing), an absolute path is used as is. Default: ``autogen_logs/runtime.log``.

    Raises:
        ValueError, TypeError: ``config`` is not a dict of a ``filename`` path (see ``RecordLogger``).
        OSError: the file cannot be created or written (the message names ``filename``).
    """

    def __init__(self, config: dict[str, Any]) -> None:
        super().__init__(config, "filename", "runtime.log", "file")
        self.log_file = os.path.join(os.getcwd(), LOG_DIR, self._config_path)
        self._file: IO[str] | None = self._open()

    def _open(self) -> IO[str]:
        try:
            os.makedirs(os.path.dirname(self.log_file), exist_ok=True)
            return open(self.log_file, "a", encoding="utf-8")  # noqa: SIM115 - closed by stop()
        except OSError as err:
            message = (
                f"runtime logging: cannot write the log file filename={self.config.get('filename', 'runtime.log')!r} "
                f"({self.log_file}: {err.strerror or err}). Set config={{'filename': ...}} to a writable path "
                "(relative names go in ./autogen_logs/)."
            )
            raise (type(err)(err.errno, message) if err.errno is not None else type(err)(message)) from err

    def start(self) -> str:
        """Write the session's first line and return the session id."""
        with self._lock:
            if self._file is None:
                self._file = self._open()
        self._write({"message": f"Started new session with Session ID: {self.session_id}"})
        return self.session_id

    def _write(self, record: dict[str, Any]) -> None:
        record.setdefault("session_id", self.session_id)
        record.setdefault("timestamp", get_current_ts())
        record["thread_id"] = threading.get_ident()
        line = records.dumps_line(record) + "\n"
        with self._lock:
            if self._file is None:
                return
            try:
                self._file.write(line)
                self._file.flush()
            except OSError as err:  # logging must not break the chat it observes
                logger.error("[file_logger] Could not write to %s: %s", self.log_file, err)

    # ----------------------------------------------------------------- records
    # Events, wrappers, clients and function calls are written as recorded.
    def _write_record(self, kind: RecordKind, record: dict[str, Any]) -> None:
        # A line holds JSON data; the request, response and agent args stay data, not JSON text.
        if kind == "completion":
            response = record["response"]
            record.update(
                request=records.request_data(record["request"]),
                response=response if isinstance(response, str) else records.plain_data(response),
                is_cached=int(record["is_cached"]),
                cost=float(record["cost"]),
            )
        elif kind == "agent":
            record["args"] = records.config_data(record["args"])
        self._write(record)

    # The classic FileLogger (unlike SqliteLogger) lets init_args default to {}.
    def log_new_agent(self, agent: Agent, init_args: dict[str, Any] = {}) -> None:  # noqa: B006 - classic default
        """Write an agent record with its constructor arguments (``args``)."""
        super().log_new_agent(agent, init_args)

    def log_new_wrapper(
        self,
        wrapper: OpenAIWrapper,
        init_args: dict[str, LLMConfig | list[LLMConfig]] = {},  # noqa: B006 - classic default
    ) -> None:
        """Write a wrapper record; its constructor arguments are the ``json_state`` (JSON text)."""
        super().log_new_wrapper(wrapper, init_args)

    # ----------------------------------------------------------------- lifetime
    def stop(self) -> None:
        """Close the file (a later ``start()`` appends to it again)."""
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None

    def get_connection(self) -> None:
        """None: a file logger has no database connection."""
        return None
