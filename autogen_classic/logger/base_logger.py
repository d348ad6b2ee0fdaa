"""``BaseLogger``: what a runtime logger records, whatever it writes to."""

from __future__ import annotations

import sqlite3
import uuid
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Callable, TypeVar, Union

if TYPE_CHECKING:  # annotations only: the logger reads agents, wrappers and clients duck-typed
    from ..oai.client import OpenAIWrapper
    from ..oai.model_client import ModelClient
    from ..types import Agent

__all__ = ["BaseLogger", "F", "TYPE_CHECKING"]

F = TypeVar("F", bound=Callable[..., Any])
ConfigItem = dict[str, Union[str, list[str]]]
LLMConfig = dict[str, Union[None, float, int, ConfigItem, list[ConfigItem]]]


class BaseLogger(ABC):
    """A runtime logger: a session of model requests, agents, clients, events and function calls.

    ``autogen_classic.runtime_logging.start(logger=...)`` accepts any subclass.
    """

    @abstractmethod
    def start(self) -> str:
        """Open the log (connect, create tables, open the file) and return the session id."""

    @abstractmethod
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
        """Record one completed model request.

        Args:
            invocation_id: a unique id of this request.
            client_id: ``id()`` of the model client that answered.
            wrapper_id: ``id()`` of the ``OpenAIWrapper`` the client belongs to.
            source: the agent (or a name) that made the request; None when unknown.
            request: the request parameters sent (messages, model, tools, ...).
            response: the response (a ``ChatCompletion``, or text).
            is_cached: 1 when the response came from the cache, else 0.
            cost: the cost of the response in USD.
            start_time: when the request started (``get_current_ts()`` format).
        """

    @abstractmethod
    def log_new_agent(self, agent: Agent, init_args: dict[str, Any]) -> None:
        """Record an agent and its constructor arguments.

        Args:
            agent: the agent.
            init_args: its constructor arguments (credentials are left out of the log).
        """

    @abstractmethod
    def log_event(self, source: str | Agent, name: str, **kwargs: dict[str, Any]) -> None:
        """Record an event of an agent (e.g. ``received_message``, ``reply_func_executed``).

        Args:
            source: the agent (or a name) the event happened to.
            name: the event name.
            **kwargs: the event's data, written as JSON.
        """

    @abstractmethod
    def log_new_wrapper(self, wrapper: OpenAIWrapper, init_args: dict[str, LLMConfig | list[LLMConfig]]) -> None:
        """Record an ``OpenAIWrapper`` and its constructor arguments.

        Args:
            wrapper: the wrapper.
            init_args: ``{"config_list": ..., "base_config": ...}`` (credentials are left out of the log).
        """

    @abstractmethod
    def log_new_client(self, client: ModelClient | Any, wrapper: OpenAIWrapper, init_args: dict[str, Any]) -> None:
        """Record a model client of a wrapper.

        Args:
            client: the model client.
            wrapper: the wrapper it belongs to.
            init_args: the client's settings (credentials are left out of the log).
        """

    @abstractmethod
    def log_function_use(self, source: str | Agent, function: F, args: dict[str, Any], returns: Any) -> None:
        """Record a call of a registered function.

        Args:
            source: the agent that executed it.
            function: the function.
            args: the keyword arguments it was called with.
            returns: what it returned.
        """

    @abstractmethod
    def stop(self) -> None:
        """Close the log (connection or file)."""

    @abstractmethod
    def get_connection(self) -> None | sqlite3.Connection:
        """The sqlite connection of a database logger; None for other loggers."""
