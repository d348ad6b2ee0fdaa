"""``RecordLogger``: what ``FileLogger`` and ``SqliteLogger`` record for each ``log_*`` call.

Each call becomes one record, a dict in the classic file log's field names (``invocation_id``,
``source_name``, ``agent_name``, ``event_name``, ``json_state``, ...). The subclass writes it: the
file logger as a JSON line, the sqlite logger as a row of the classic table. Values both logs hold
alike are made here; the request, response and agent arguments are left as given, because the two
logs encode them differently (JSON data in the file, JSON text in the database).
"""

from __future__ import annotations

import os
import threading
import uuid
from abc import abstractmethod
from typing import TYPE_CHECKING, Any, Literal

from . import _records as records
from .base_logger import BaseLogger, F, LLMConfig
from .logger_utils import get_current_ts

if TYPE_CHECKING:
    from ..oai.client import OpenAIWrapper
    from ..oai.model_client import ModelClient
    from ..types import Agent

__all__ = ["RecordKind", "RecordLogger"]

# The kinds of record a log keeps, one per log_* method.
RecordKind = Literal["completion", "agent", "event", "wrapper", "client", "function_call"]


class RecordLogger(BaseLogger):
    """A ``BaseLogger`` that turns each call into a record and leaves the writing to its subclass.

    Args:
        config: the logger's settings: ``{path_key: path}``, or empty (None) for ``default_path``.
        path_key: the one setting, the path written to ("filename" or "dbname").
        default_path: the path when ``config`` names none.
        logger_type: "file" or "sqlite", named in errors.

    Raises:
        ValueError: ``config`` has a key other than ``path_key``.
        TypeError: ``config`` is not a dict, or its ``path_key`` is not a path.
    """

    def __init__(self, config: dict[str, Any], path_key: str, default_path: str, logger_type: str) -> None:
        self.config = records.check_config(config, path_key, logger_type)
        path = self.config.get(path_key, default_path)
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(
                f"runtime logging: config[{path_key!r}] must be a file path (str), got {type(path).__name__}."
            )
        self._config_path = os.fspath(path)
        self.session_id = str(uuid.uuid4())
        self._lock = threading.Lock()

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
        """Record one completed model request (see ``BaseLogger.log_chat_completion``)."""
        self._write_record(
            "completion",
            {
                "invocation_id": str(invocation_id),
                "client_id": client_id,
                "wrapper_id": wrapper_id,
                "request": request,
                "response": response,
                "is_cached": is_cached,
                "cost": cost,
                "start_time": start_time,
                "end_time": get_current_ts(),
                "source_name": records.source_fields(source)[1],
            }
        )

    def log_new_agent(self, agent: Agent, init_args: dict[str, Any]) -> None:
        """Record an agent and its constructor arguments (``args``)."""
        self._write_record(
            "agent",
            {
                "id": id(agent),
                "agent_name": records.source_fields(agent)[1],
                "wrapper_id": records.wrapper_id_of(agent),
                "current_time": get_current_ts(),
                "agent_type": type(agent).__name__,
                "args": init_args,
            }
        )

    def log_event(self, source: str | Agent, name: str, **kwargs: dict[str, Any]) -> None:
        """Record an event; ``kwargs`` become its ``json_state`` (JSON text)."""
        source_id, source_name, module, class_name = records.source_fields(source)
        self._write_record(
            "event",
            {
                "source_id": source_id,
                "source_name": source_name,
                "event_name": name,
                "agent_module": module,
                "agent_class": class_name,
                "json_state": records.encode_data(kwargs),
            }
        )

    def log_new_wrapper(self, wrapper: OpenAIWrapper, init_args: dict[str, LLMConfig | list[LLMConfig]]) -> None:
        """Record a wrapper; its constructor arguments are the ``json_state`` (JSON text)."""
        self._write_record("wrapper", {"wrapper_id": id(wrapper), "json_state": records.encode_config(init_args)})

    def log_new_client(self, client: ModelClient | Any, wrapper: OpenAIWrapper, init_args: dict[str, Any]) -> None:
        """Record a model client; its settings are the ``json_state`` (JSON text)."""
        self._write_record(
            "client",
            {
                "client_id": id(client),
                "wrapper_id": id(wrapper),
                "class": type(client).__name__,
                "json_state": records.encode_config(init_args),
            }
        )

    def log_function_use(self, source: str | Agent, function: F, args: dict[str, Any], returns: Any) -> None:
        """Record a call of a registered function (``input_args`` and ``returns`` as JSON text)."""
        source_id, source_name, module, class_name = records.source_fields(source)
        self._write_record(
            "function_call",
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

    # Where each record goes: a line of the file log, a row of a sqlite table. A completion's request,
    # response, is_cached and cost and an agent's args come as given: each log encodes them its own way.
    @abstractmethod
    def _write_record(self, kind: RecordKind, record: dict[str, Any]) -> None:
        """Write ``record``, a record of ``kind`` with the classic file-log field names."""
