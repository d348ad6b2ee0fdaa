"""``SqliteLogger``: runtime logs in a sqlite database, in the classic tables and columns.

Tables: ``chat_completions`` (one row per model request, cache hits included), ``agents``,
``oai_wrappers``, ``oai_clients``, ``events``, ``function_calls`` and ``version``. JSON
columns (``request``, ``response``, ``init_args``, ``json_state``, ``args``, ``returns``) hold
JSON text; timestamps are UTC ``YYYY-MM-DD HH:MM:SS.ffffff``.
"""

from __future__ import annotations

import logging
import numbers
import sqlite3
from operator import itemgetter
from typing import Any

from . import _records as records
from ._records import safe_serialize  # noqa: F401 - classic path
from .base_logger import BaseLogger  # noqa: F401 - classic path
from .logger_utils import get_current_ts, get_sensitive_exclude_keys, to_dict  # noqa: F401 - classic paths
from .record_logger import RecordKind, RecordLogger

__all__ = ["SqliteLogger"]

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 1

# Column names and order are the classic ones: queries written for classic logs read these.
_SCHEMA = """
CREATE TABLE IF NOT EXISTS chat_completions (
    id INTEGER PRIMARY KEY,
    invocation_id TEXT,
    client_id INTEGER,
    wrapper_id INTEGER,
    session_id TEXT,
    source_name TEXT,
    request TEXT,
    response TEXT,
    is_cached INTEGER,
    cost REAL,
    start_time DATETIME DEFAULT CURRENT_TIMESTAMP,
    end_time DATETIME DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE IF NOT EXISTS agents (
    id INTEGER PRIMARY KEY,
    agent_id INTEGER,               -- id(agent)
    wrapper_id INTEGER,             -- id(agent.client), '' without a model client
    session_id TEXT,
    name TEXT,
    class TEXT,
    init_args TEXT,                 -- constructor arguments as JSON
    timestamp DATETIME DEFAULT CURRENT_TIMESTAMP,
    UNIQUE(agent_id, session_id)
);
CREATE TABLE IF NOT EXISTS oai_wrappers (
    id INTEGER PRIMARY KEY,
    wrapper_id INTEGER,             -- id(wrapper)
    session_id TEXT,
    init_args TEXT,
    timestamp DATETIME DEFAULT CURRENT_TIMESTAMP,
    UNIQUE(wrapper_id, session_id)
);
CREATE TABLE IF NOT EXISTS oai_clients (
    id INTEGER PRIMARY KEY,
    client_id INTEGER,              -- id(client), as in chat_completions.client_id
    wrapper_id INTEGER,
    session_id TEXT,
    class TEXT,
    init_args TEXT,
    timestamp DATETIME DEFAULT CURRENT_TIMESTAMP,
    UNIQUE(client_id, session_id)
);
CREATE TABLE IF NOT EXISTS version (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version_number INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    event_name TEXT,
    source_id INTEGER,
    source_name TEXT,
    agent_module TEXT DEFAULT NULL,
    agent_class_name TEXT DEFAULT NULL,
    id INTEGER PRIMARY KEY,
    json_state TEXT,
    timestamp DATETIME DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE IF NOT EXISTS function_calls (
    source_id INTEGER,
    source_name TEXT,
    function_name TEXT,
    args TEXT DEFAULT NULL,
    returns TEXT DEFAULT NULL,
    timestamp DATETIME DEFAULT CURRENT_TIMESTAMP
);
"""

_INSERT_COMPLETION = (
    "INSERT INTO chat_completions (invocation_id, client_id, wrapper_id, session_id, source_name, request, "
    "response, is_cached, cost, start_time, end_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
# An agent logged again (a subclass constructor after its base) keeps one row holding the latest arguments.
_UPSERT_AGENT = (
    "INSERT INTO agents (agent_id, wrapper_id, session_id, name, class, init_args, timestamp) "
    "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (agent_id, session_id) DO UPDATE SET "
    "wrapper_id = excluded.wrapper_id, name = excluded.name, class = excluded.class, "
    "init_args = excluded.init_args, timestamp = excluded.timestamp"
)
_INSERT_WRAPPER = (
    "INSERT INTO oai_wrappers (wrapper_id, session_id, init_args, timestamp) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (wrapper_id, session_id) DO NOTHING"
)
_INSERT_CLIENT = (
    "INSERT INTO oai_clients (client_id, wrapper_id, session_id, class, init_args, timestamp) "
    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (client_id, session_id) DO NOTHING"
)
_INSERT_EVENT = (
    "INSERT INTO events (source_id, source_name, event_name, agent_module, agent_class_name, json_state, "
    "timestamp) VALUES (?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_FUNCTION_CALL = (
    "INSERT INTO function_calls (source_id, source_name, function_name, args, returns, timestamp) "
    "VALUES (?, ?, ?, ?, ?, ?)"
)
# The record fields of an events and a function_calls row, in column order (the classic table
# of function calls has no agent module or class).
_EVENT_FIELDS = itemgetter("source_id", "source_name", "event_name", "agent_module", "agent_class", "json_state")
_FUNCTION_CALL_FIELDS = itemgetter("source_id", "source_name", "function_name", "input_args", "returns")


def _number(value: Any, kind: type) -> Any:
    """``value`` as ``kind`` when it is a number; anything else as given (sqlite refuses it, ``_write`` reports it)."""
    return kind(value) if isinstance(value, numbers.Real) else value


class SqliteLogger(RecordLogger):
    """Writes runtime logs to a sqlite database (thread-safe: one connection behind a lock).

    Args:
        config: ``{"dbname": path}``; the default database is ``logs.db`` in the working directory.

    Raises:
        ValueError, TypeError: ``config`` is not a dict of a ``dbname`` path (see ``RecordLogger``).
        OSError: the database cannot be opened or written (the message names ``dbname``).
    """

    def __init__(self, config: dict[str, Any]) -> None:
        super().__init__(config, "dbname", "logs.db", "sqlite")
        self.dbname = self._config_path
        self.con: sqlite3.Connection = self._connect()
        self._open = True

    # ----------------------------------------------------------------- connection
    def _connect(self) -> sqlite3.Connection:
        try:
            # Chats may run in threads: one connection shared behind self._lock.
            return sqlite3.connect(self.dbname, check_same_thread=False)
        except sqlite3.Error as err:
            raise self._unwritable(err) from err

    def _unwritable(self, err: Exception) -> OSError:
        return OSError(
            f"runtime logging: cannot write the sqlite database dbname={self.dbname!r} ({err}). "
            "Set config={'dbname': ...} to a file in an existing, writable directory."
        )

    def start(self) -> str:
        """Create the tables (when new) and return the session id."""
        with self._lock:
            if not self._open:
                self.con = self._connect()
                self._open = True
            try:
                self.con.executescript(_SCHEMA)
                self.con.execute(
                    "INSERT OR IGNORE INTO version (id, version_number) VALUES (1, ?)", (SCHEMA_VERSION,)
                )
                self.con.commit()
            except sqlite3.Error as err:
                raise self._unwritable(err) from err
        return self.session_id

    def _write(self, query: str, args: tuple[Any, ...]) -> None:
        # A failed write (a locked or full database, a value sqlite cannot store) is reported on this
        # module's logger in the classic words, never raised: logging must not break the chat it observes.
        with self._lock:
            if not self._open:
                return
            try:
                self.con.execute(query, args)
                self.con.commit()
            except Exception as err:  # noqa: BLE001 - see above
                logger.error(
                    "[sqlite logger]Error running query with query %s and args %s: %s (database %s)",
                    query, args, err, self.dbname,
                )

    # ----------------------------------------------------------------- records
    # A row holds the record's fields in the classic column order, JSON as text.
    def _write_record(self, kind: RecordKind, record: dict[str, Any]) -> None:
        self._write(*self._row(kind, record))

    def _row(self, kind: RecordKind, record: dict[str, Any]) -> tuple[str, tuple[Any, ...]]:
        match kind:
            case "completion":
                return _INSERT_COMPLETION, (
                    record["invocation_id"], record["client_id"], record["wrapper_id"], self.session_id,
                    record["source_name"], records.encode_request(record["request"]),
                    records.encode_response(record["response"]), _number(record["is_cached"], int),
                    _number(record["cost"], float), record["start_time"], record["end_time"],
                )  # fmt: skip
            case "agent":
                return _UPSERT_AGENT, (
                    record["id"], record["wrapper_id"], self.session_id, record["agent_name"], record["agent_type"],
                    records.encode_config(record["args"]), record["current_time"],
                )  # fmt: skip
            case "event":
                return _INSERT_EVENT, (*_EVENT_FIELDS(record), get_current_ts())
            case "wrapper":
                return _INSERT_WRAPPER, (record["wrapper_id"], self.session_id, record["json_state"], get_current_ts())
            case "client":
                ids = record["client_id"], record["wrapper_id"], self.session_id
                return _INSERT_CLIENT, (*ids, record["class"], record["json_state"], get_current_ts())
            case _:
                return _INSERT_FUNCTION_CALL, (*_FUNCTION_CALL_FIELDS(record), get_current_ts())

    # ----------------------------------------------------------------- lifetime
    def stop(self) -> None:
        """Close the connection (a later ``start()`` reopens it)."""
        with self._lock:
            if self._open:
                self._open = False
                self.con.close()

    def get_connection(self) -> None | sqlite3.Connection:
        """The sqlite connection (after ``stop()`` the closed one, as in the classic package)."""
        return self.con
