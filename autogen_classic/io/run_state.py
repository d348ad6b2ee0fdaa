"""What every run response holds once its run is over: summary, messages, cost, last speaker, context.

Filled from the ``RunCompletionEvent`` (or, for a chat run the classic way, from its ``ChatResult``).
Also the awaitable values an async response gives: ``await response.summary`` (AG2 Classic 0.14) and
``response.summary`` (ag2 0.7.3, a finished run) both read the summary.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING, Any, Optional
from uuid import uuid4

from .run_cost import Cost

if TYPE_CHECKING:
    from ..tools.tool import Tool

__all__ = ["RunState", "awaitable", "awaited"]

Message = dict[str, Any]


def _result(attribute: str, doc: str, read_first: bool = False) -> property:
    """A result property of a response: the value of ``attribute`` (after ``_before_read()`` if ``read_first``)."""

    def read(self: "RunState") -> Any:
        if read_first:
            self._before_read()
        return getattr(self, attribute)

    return property(read, doc=doc)


class RunState:
    """The results of a run, available when it is over (None / empty until then), and the run's agents."""

    agents: Sequence[Any]

    def __init__(self) -> None:
        self._summary: Optional[str] = None
        self._messages: Sequence[Message] = []
        self._context_variables: Any = None
        self._last_speaker: Optional[str] = None
        self._cost: Optional[Cost] = None
        self._uuid = uuid4()
        self._human_input: Optional[list[str]] = None
        self._parked: Any = None  # the ParkedRun of a run that parked at an input request
        self._done = False

    def _complete(self, event: Any) -> None:
        """Take the results of the run from its ``RunCompletionEvent``."""
        content = event.content
        self._messages = content.history
        self._last_speaker = content.last_speaker
        self._summary = content.summary
        self._context_variables = content.context_variables
        self._cost = as_cost(content.cost)
        self._done = True

    def _complete_from(self, result: Any, last_speaker: Optional[str]) -> None:
        """Take the results of a chat run the classic way from its ``ChatResult``."""
        self._messages = result.chat_history
        self._summary = result.summary
        self._cost = as_cost(result.cost)
        self._human_input = result.human_input
        self._last_speaker = last_speaker
        self._done = True

    def note_human_input(self, human_input: Optional[list[str]]) -> None:
        """Keep the human input of the run's chat (what a ``ChatResult`` has as ``human_input``)."""
        self._human_input = human_input

    def _before_read(self) -> None:
        """Called before ``summary`` and ``cost`` are read (a response may run its chat first)."""

    def _set_cost(self, value: Any) -> None:
        self._cost = as_cost(value)

    summary = _result("_summary", "The summary of the chat (when the run is over).", read_first=True)
    messages = _result("_messages", "The chat history (when the run is over).")
    context_variables = _result("_context_variables",
                                "The context variables (when the run is over; None for a two-agent chat).")
    last_speaker = _result("_last_speaker", "The name of the agent that spoke last (when the run is over).")
    cost = _result("_cost", "The cost (when the run is over); it also reads as the classic cost dict.",
                   read_first=True).setter(_set_cost)
    parked = _result("_parked", "The ParkedRun the run parked at (``event.content.park()``), when it is over; "
                                "None for a run that ended.", read_first=True)

    def _park(self, parked: Any) -> None:
        """The run parked at an input request (``event.content.park()``): it is over without a result."""
        self._parked = parked
        self._done = True

    def set_ui_tools(self, tools: list["Tool"]) -> None:
        """Set the UI tools of the run's agents."""
        for agent in self.agents:
            agent.set_ui_tools(tools)

    @property
    def uuid(self) -> Any:
        """The id of this run."""
        return self._uuid

    @property
    def above_run(self) -> Any:
        """The run this one is part of (None: a run of its own)."""
        return None


def as_cost(value: Any) -> Optional[Cost]:
    """``value`` (a ``Cost``, a classic cost dict or None) as a ``Cost``."""
    if value is None or isinstance(value, Cost):
        return value
    return Cost.from_raw(value)


# ---------------------------------------------------------------- awaitable values
class _AwaitableStr(str):
    def __await__(self) -> Generator[Any, None, str]:
        return str(self)
        yield  # pragma: no cover - makes this a generator


class _AwaitableList(list):  # type: ignore[type-arg]
    def __await__(self) -> Generator[Any, None, list]:  # type: ignore[type-arg]
        return list(self)
        yield  # pragma: no cover - makes this a generator


class _AwaitableNone:
    """None that can be awaited (``await response.summary`` before the run is over); falsy, equal to None."""

    def __await__(self) -> Generator[Any, None, None]:
        return None
        yield  # pragma: no cover - makes this a generator

    def __bool__(self) -> bool:
        return False

    def __eq__(self, other: object) -> bool:
        return other is None or isinstance(other, _AwaitableNone)

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return "None"


class _AwaitableValue:
    """Any other value, awaited to itself."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __await__(self) -> Generator[Any, None, Any]:
        return self.value
        yield  # pragma: no cover - makes this a generator


def awaited(attribute: str, doc: str) -> property:
    """A result property of an async response: the value of ``attribute``, also awaitable."""
    return property(lambda self: awaitable(getattr(self, attribute)), doc=doc)


def awaitable(value: Any) -> Any:
    """``value`` in a form that is itself (a str, a list, a ``Cost``) and also gives itself when awaited."""
    if value is None:
        return _AwaitableNone()
    if isinstance(value, str):
        return _AwaitableStr(value)
    if isinstance(value, list):
        return _AwaitableList(value)
    if hasattr(value, "__await__"):
        return value
    return _AwaitableValue(value)
