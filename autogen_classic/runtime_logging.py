"""Runtime logging: record model requests, agents, clients, events and function calls of a run.

Example::

    from autogen_classic import runtime_logging

    session_id = runtime_logging.start(config={"dbname": "logs.db"})
    user.initiate_chat(assistant, message="...")
    runtime_logging.stop()

While logging is off, the model client and the agents pay one boolean check (``is_logging``).
Whatever is logged reaches the logger (ours or a custom ``BaseLogger``) with its secrets masked:
the values of ``api_key``, ``password``, ``Authorization``, ... (any case, any depth) become
``"***REDACTED***"`` (see ``autogen_classic.logger.redaction``).
This module sits low: it imports no model client, tool or agent; what it logs is read duck-typed.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import uuid
from typing import TYPE_CHECKING, Any, Callable, Literal, Optional, TypeVar

from .logger import LoggerFactory
from .logger.base_logger import BaseLogger, LLMConfig
from .logger.redaction import redact_secrets

if TYPE_CHECKING:
    from .oai.client import OpenAIWrapper
    from .oai.model_client import ModelClient
    from .types import Agent

__all__ = [
    "F",
    "TYPE_CHECKING",
    "autogen_logger",
    "get_connection",
    "is_logging",
    "log_chat_completion",
    "log_event",
    "log_function_use",
    "log_new_agent",
    "log_new_client",
    "log_new_wrapper",
    "logging_enabled",
    "start",
    "stop",
]

logger = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Any])

# The current logger (kept after stop(), as in the classic package) and whether it is recording.
autogen_logger: Optional[BaseLogger] = None
is_logging: bool = False

_lock = threading.Lock()  # start() and stop() may race when chats run in threads


def start(
    logger: Optional[BaseLogger] = None,
    logger_type: Literal["sqlite", "file"] = "sqlite",
    config: Optional[dict[str, Any]] = None,
) -> str:
    """Start runtime logging and return the new session id.

    Starting again begins a new session (the previous logger is stopped first).

    Args:
        logger: a ready logger (any ``BaseLogger``); ``logger_type`` and ``config`` are then ignored.
        logger_type: "sqlite" (tables in a sqlite database) or "file" (JSON lines).
        config: ``{"dbname": "logs.db"}`` for sqlite, ``{"filename": "runtime.log"}`` for file
            (written to ``./autogen_logs/``); None for these defaults.

    Raises:
        ValueError: an unknown ``logger_type`` or config key.
        TypeError: ``logger`` is not a ``BaseLogger``, or ``config`` is not a dict.
        OSError: the database or file cannot be written (the message names ``dbname``/``filename``).
    """
    global autogen_logger, is_logging
    if logger is not None and not isinstance(logger, BaseLogger):
        raise TypeError(
            f"runtime_logging.start: logger must be a BaseLogger (autogen_classic.logger.base_logger), got "
            f"{type(logger).__name__}; or leave it None and choose logger_type='sqlite' or 'file'."
        )
    with _lock:
        new = logger if logger is not None else LoggerFactory.get_logger(logger_type=logger_type, config=config)
        try:
            session_id = new.start()
        except BaseException:
            if logger is None:
                new.stop()  # the connection or file the factory opened
            raise
        previous, autogen_logger, is_logging = autogen_logger, new, True
        if previous is not None and previous is not new:
            previous.stop()
    return session_id


def stop() -> None:
    """Stop runtime logging and close the database connection or file (nothing happens when not started)."""
    global is_logging
    with _lock:
        if autogen_logger is not None:
            autogen_logger.stop()
        is_logging = False


def get_connection() -> None | sqlite3.Connection:
    """The sqlite connection of the current logger (None for a file logger or before ``start()``)."""
    current = autogen_logger
    if current is None:
        logger.error("[runtime logging] get_connection: autogen logger is None")
        return None
    return current.get_connection()


def logging_enabled() -> bool:
    """Whether runtime logging is on (between ``start()`` and ``stop()``)."""
    return is_logging


def _current(caller: str) -> Optional[BaseLogger]:
    current = autogen_logger
    if current is None:
        logger.error("[runtime logging] %s: autogen logger is None", caller)
    return current


def log_chat_completion(
    invocation_id: uuid.UUID,
    client_id: int,
    wrapper_id: int,
    agent: str | Agent,
    request: dict[str, float | str | list[dict[str, str]]],
    response: str | Any,
    is_cached: int,
    cost: float,
    start_time: str,
) -> None:
    """Log one completed model request (fresh or from the cache).

    Args:
        invocation_id: a unique id of the request.
        client_id: ``id()`` of the model client that answered.
        wrapper_id: ``id()`` of its ``OpenAIWrapper``.
        agent: the agent (or a name) that made the request; None when unknown.
        request: the request parameters sent.
        response: the response.
        is_cached: 1 for a cache hit, else 0.
        cost: the cost in USD.
        start_time: when the request started (``logger_utils.get_current_ts()`` format).
    """
    current = _current("log_chat_completion")
    if current is not None:
        current.log_chat_completion(
            invocation_id, client_id, wrapper_id, agent, redact_secrets(request), response, is_cached, cost, start_time
        )


def log_new_agent(agent: Any, init_args: dict[str, Any]) -> None:
    """Log an agent and its constructor arguments (credentials are left out).

    Args:
        agent: the agent (``ConversableAgent`` or any object with a ``name``).
        init_args: its constructor arguments, e.g. ``locals()`` in ``__init__``.
    """
    current = _current("log_new_agent")
    if current is not None:
        current.log_new_agent(agent, redact_secrets(init_args))


def log_event(source: str | Agent, name: str, **kwargs: dict[str, Any]) -> None:
    """Log an event of an agent.

    Args:
        source: the agent (or a name).
        name: the event name, e.g. "received_message".
        **kwargs: the event's data.
    """
    current = _current("log_event")
    if current is not None:
        current.log_event(source, name, **redact_secrets(kwargs))


def log_function_use(agent: str | Agent, function: F, args: dict[str, Any], returns: Any) -> None:
    """Log a call of a registered function.

    Args:
        agent: the agent that executed it.
        function: the function.
        args: its keyword arguments.
        returns: its return value.
    """
    current = _current("log_function_use")
    if current is not None:
        current.log_function_use(agent, function, redact_secrets(args), redact_secrets(returns))


def log_new_wrapper(wrapper: OpenAIWrapper, init_args: dict[str, LLMConfig | list[LLMConfig]]) -> None:
    """Log an ``OpenAIWrapper`` and its constructor arguments (credentials are left out).

    Args:
        wrapper: the wrapper.
        init_args: ``{"config_list": ..., "base_config": ...}``.
    """
    current = _current("log_new_wrapper")
    if current is not None:
        current.log_new_wrapper(wrapper, redact_secrets(init_args))


def log_new_client(client: ModelClient | Any, wrapper: OpenAIWrapper, init_args: dict[str, Any]) -> None:
    """Log a model client of a wrapper (credentials are left out).

    Args:
        client: the model client.
        wrapper: its wrapper.
        init_args: the client's settings.
    """
    current = _current("log_new_client")
    if current is not None:
        current.log_new_client(client, wrapper, redact_secrets(init_args))
