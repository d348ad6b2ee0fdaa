"""``SqliteLogger``: runtime logs in a sqlite database, in the classic tables and columns.

Tables: ``chat_completions`` (one row per model request, cache hits included), ``agents``,
``oai_wrappers``, ``oai_clients``, ``events``, ``function_calls`` and ``version``. JSON
columns (``request``, ``response``, ``init_args``, ``json_state``, ``args``, ``returns``) hold
JSON text; timestamps are UTC ``YYYY-MM-DD HH:MM:SS.ffffff``.
"""

from __future__ import annotations

import logging
import numbers
import os
import sqlite3
import threading
import uuid
from typing import TYPE_CHECKING, Any

from . import _records as records
from ._records import safe_serialize  # noqa: F401 - classic path
from .base_logger import BaseLogger, F, LLMConfig
from .logger_utils import get_current_ts, get_sensitive_exclude_keys, to_dict  # noqa: F401 - classic paths

if TYPE_CHECKING:
    from ..oai.client import OpenAIWrapper
    from ..oai.model_client import ModelClient
    from ..types import Agent

__all__ = ["SqliteLogger"]

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 1
CONFIG_KEYS = ("dbname",)

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


def _number(value: Any, kind: type) -> Any:
    """``value`` as ``kind`` when it is a number; anything else as given (sqlite refuses it, ``_write`` reports it)."""
    return kind(value) if isinstance(value, numbers.Real) else value


class SqliteLogger(BaseLogger):
    """Writes runtime logs to a sqlite database (thread-safe: one connection behind a lock).

    Args:
        config: ``{"dbname": path}``; the default database is ``logs.db`` in the working directory.

    Raises:
        ValueError: ``config`` has a key other than ``dbname``.
        TypeError: ``config`` is not a dict, or ``dbname`` is not a path.
        OSError: the database cannot be opened or written (the message names ``dbname``).
    """

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = records.check_config(config, CONFIG_KEYS, "sqlite")
        dbname = self.config.get("dbname", "logs.db")
        if not isinstance(dbname, (str, os.PathLike)):
            raise TypeError(
                f"runtime logging: config['dbname'] must be a file path (str), got {type(dbname).__name__}."
            )
        self.dbname = os.fspath(dbname)
        self.session_id = str(uuid.uuid4())
        self._lock = threading.Lock()
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
    def log_chat_completion(
        self,
        invocation_id: uuid.UUID,
        client_id: int,
        wrapper_id: int,
        source: str | Agent,
        request: dict[str, float | str | list[dict[str, str]]],
        response: str | Any,
        is_cached: int,
        cost: float,
        start_time: str,
    ) -> None:
        """Insert a ``chat_completions`` row (see ``BaseLogger.log_chat_completion``)."""
        self._write(
            _INSERT_COMPLETION,
            (
                str(invocation_id),
                client_id,
                wrapper_id,
                self.session_id,
                records.source_fields(source)[1],
                records.encode_request(request),
                records.encode_response(response),
                _number(is_cached, int),
                _number(cost, float),
                start_time,
                get_current_ts(),
            ),
        )

    def log_new_agent(self, agent: Agent, init_args: dict[str, Any]) -> None:
        """Insert (or update) the ``agents`` row of ``agent``."""
        self._write(
            _UPSERT_AGENT,
            (
                id(agent),
                records.wrapper_id_of(agent),
                self.session_id,
                records.source_fields(agent)[1],
                type(agent).__name__,
                records.encode_config(init_args),
                get_current_ts(),
            ),
        )

    def log_event(self, source: str | Agent, name: str, **kwargs: dict[str, Any]) -> None:
        """Insert an ``events`` row; ``kwargs`` become its ``json_state``."""
        source_id, source_name, module, class_name = records.source_fields(source)
        self._write(
            _INSERT_EVENT,
            (source_id, source_name, name, module, class_name, records.encode_data(kwargs), get_current_ts()),
        )

    def log_new_wrapper(self, wrapper: OpenAIWrapper, init_args: dict[str, LLMConfig | list[LLMConfig]]) -> None:
        """Insert the ``oai_wrappers`` row of ``wrapper`` (once per session)."""
        self._write(_INSERT_WRAPPER, (id(wrapper), self.session_id, records.encode_config(init_args), get_current_ts()))

    def log_new_client(self, client: ModelClient | Any, wrapper: OpenAIWrapper, init_args: dict[str, Any]) -> None:
        """Insert the ``oai_clients`` row of ``client`` (once per session)."""
        self._write(
            _INSERT_CLIENT,
            (
                id(client),
                id(wrapper),
                self.session_id,
                type(client).__name__,
                records.encode_config(init_args),
                get_current_ts(),
            ),
        )

    def log_function_use(self, source: str | Agent, function: F, args: dict[str, Any], returns: Any) -> None:
        """Insert a ``function_calls`` row."""
        source_id, source_name, _, _ = records.source_fields(source)
        self._write(
            _INSERT_FUNCTION_CALL,
            (
                source_id,
                source_name,
                records.function_name(function),
                records.encode_data(args),
                records.encode_data(returns),
                get_current_ts(),
            ),
        )

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
