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
import uuid
from typing import IO, TYPE_CHECKING, Any

from . import _records as records
from ._records import safe_serialize  # noqa: F401 - classic path
from .base_logger import BaseLogger, F, LLMConfig
from .logger_utils import get_current_ts, to_dict  # noqa: F401 - to_dict: classic path

if TYPE_CHECKING:
    from ..oai.client import OpenAIWrapper
    from ..oai.model_client import ModelClient
    from ..types import Agent

__all__ = ["FileLogger"]

logger = logging.getLogger(__name__)

CONFIG_KEYS = ("filename",)
LOG_DIR = "autogen_logs"


class FileLogger(BaseLogger):
    """Appends runtime logs to a JSON-lines file (thread-safe: one line per record, written whole).

    Args:
        config: ``{"filename": name}``; a relative name is placed in ``./autogen_logs/`` (created
            when missing), an absolute path is used as is. Default: ``autogen_logs/runtime.log``.

    Raises:
        ValueError: ``config`` has a key other than ``filename``.
        TypeError: ``config`` is not a dict, or ``filename`` is not a path.
        OSError: the file cannot be created or written (the message names ``filename``).
    """

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = records.check_config(config, CONFIG_KEYS, "file")
        filename = self.config.get("filename", "runtime.log")
        if not isinstance(filename, (str, os.PathLike)):
            raise TypeError(
                f"runtime logging: config['filename'] must be a file path (str), got {type(filename).__name__}."
            )
        self.log_file = os.path.join(os.getcwd(), LOG_DIR, os.fspath(filename))
        self.session_id = str(uuid.uuid4())
        self._lock = threading.Lock()
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
        """Write a model-request record (see ``BaseLogger.log_chat_completion``)."""
        self._write(
            {
                "invocation_id": str(invocation_id),
                "client_id": client_id,
                "wrapper_id": wrapper_id,
                "request": records.request_data(request),
                "response": response if isinstance(response, str) else records.plain_data(response),
                "is_cached": int(is_cached),
                "cost": float(cost),
                "start_time": start_time,
                "end_time": get_current_ts(),
                "source_name": records.source_fields(source)[1],
            }
        )

    def log_new_agent(self, agent: Agent, init_args: dict[str, Any] = {}) -> None:  # noqa: B006 - classic default
        """Write an agent record with its constructor arguments (``args``)."""
        self._write(
            {
                "id": id(agent),
                "agent_name": records.source_fields(agent)[1],
                "wrapper_id": records.wrapper_id_of(agent),
                "current_time": get_current_ts(),
                "agent_type": type(agent).__name__,
                "args": records.config_data(init_args),
            }
        )

    def log_event(self, source: str | Agent, name: str, **kwargs: dict[str, Any]) -> None:
        """Write an event record; ``kwargs`` become its ``json_state`` (JSON text)."""
        source_id, source_name, module, class_name = records.source_fields(source)
        self._write(
            {
                "source_id": source_id,
                "source_name": source_name,
                "event_name": name,
                "agent_module": module,
                "agent_class": class_name,
                "json_state": records.encode_data(kwargs),
            }
        )

    def log_new_wrapper(
        self,
        wrapper: OpenAIWrapper,
        init_args: dict[str, LLMConfig | list[LLMConfig]] = {},  # noqa: B006 - classic default
    ) -> None:
        """Write a wrapper record; its constructor arguments are the ``json_state`` (JSON text)."""
        self._write({"wrapper_id": id(wrapper), "json_state": records.encode_config(init_args)})

    def log_new_client(self, client: ModelClient | Any, wrapper: OpenAIWrapper, init_args: dict[str, Any]) -> None:
        """Write a model-client record; its settings are the ``json_state`` (JSON text)."""
        self._write(
            {
                "client_id": id(client),
                "wrapper_id": id(wrapper),
                "class": type(client).__name__,
                "json_state": records.encode_config(init_args),
            }
        )

    def log_function_use(self, source: str | Agent, function: F, args: dict[str, Any], returns: Any) -> None:
        """Write a function-call record (``input_args`` and ``returns`` as JSON text)."""
        source_id, source_name, module, class_name = records.source_fields(source)
        self._write(
            {
                "source_id": source_id,
                "source_name": source_name,
                "agent_module": module,
                "agent_class": class_name,
                "function_name": records.function_name(function),
                "input_args": records.encode_data(args),
                "returns": records.encode_data(returns),
            }
        )

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
