"""What every run response holds once its run is over: summary, messages, cost, last speaker, context.

Filled from the ``RunCompletionEvent`` (or, for a chat run the classic way, from its ``ChatResult``).
Also the awaitable values an async response gives: ``await response.summary`` (AG2 Classic 0.14) and
``response.summary`` (ag2 0.7.3, a finished run) both read the summary.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any, Optional
from uuid import uuid4

from .run_cost import Cost

__all__ = ["RunState", "awaitable"]

Message = dict[str, Any]


class RunState:
    """The results of a run, available when it is over (None / empty until then)."""

    def __init__(self) -> None:
        self._summary: Optional[str] = None
        self._messages: Sequence[Message] = []
        self._context_variables: Any = None
        self._last_speaker: Optional[str] = None
        self._cost: Optional[Cost] = None
        self._uuid = uuid4()
        self._human_input: Optional[list[str]] = None
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
