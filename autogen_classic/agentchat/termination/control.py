"""Conditions controlled from outside the messages: ``ExternalTermination`` (a stop button) and
``FunctionalTermination`` (a function of the messages decides)."""

from __future__ import annotations

import inspect
import threading
from collections.abc import Awaitable, Sequence
from typing import Any, Callable, Optional, Union

from .base import StopMessage, TerminationCondition, TerminationContext, run_sync
from .reading import shorten

__all__ = ["ExternalTermination", "FunctionalTermination"]


class ExternalTermination(TerminationCondition):
    """Fires at the next check after ``set()`` was called, e.g. by a stop button in another thread.

    ``set()`` is thread-safe; ``reset()`` clears it.
    """

    def __init__(self) -> None:
        super().__init__()
        self._requested = threading.Event()

    def set(self) -> None:
        """Ask the chat to stop at its next check (safe to call from any thread)."""
        self._requested.set()

    @property
    def is_set(self) -> bool:
        """Whether a stop was asked for (and not reset since)."""
        return self._requested.is_set()

    def _reset_state(self) -> None:
        self._requested.clear()

    def _evaluate(self, messages: list[dict[str, Any]], context: Optional[TerminationContext]) -> Optional[StopMessage]:
        if not self._requested.is_set():
            return None
        return StopMessage(content="External termination requested", source=type(self).__name__, details={})


Decider = Callable[..., Union[bool, StopMessage, Awaitable[Union[bool, StopMessage]]]]


def _wants_context(func: Callable[..., Any]) -> bool:
    """Whether ``func`` takes the context too: a parameter named ``context``, or two required positional ones."""
    try:
        parameters = inspect.signature(func).parameters
    except (TypeError, ValueError):  # some builtins have no signature: call them with the messages only
        return False
    if "context" in parameters:
        return True
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    required = [p for p in parameters.values() if p.kind in positional and p.default is inspect.Parameter.empty]
    return len(required) >= 2


class FunctionalTermination(TerminationCondition):
    """Fires when ``func(messages)`` returns True (a sync or an async function).

    Args:
        func: ``func(messages) -> bool`` where ``messages`` are the new messages of the check; a function with a
            ``context`` parameter (or two required positional ones) is called as ``func(messages, context)``
            and sees the whole chat in ``context.messages`` (``context`` may be None outside a chat). It may
            also return a ``StopMessage`` to give its own reason.
    """

    def __init__(self, func: Decider) -> None:
        super().__init__()
        if isinstance(func, TerminationCondition):
            raise TypeError(f"FunctionalTermination: {func.describe()} is already a termination condition; use it "
                            "directly (combine conditions with | and &).")
        if not callable(func):
            raise TypeError(f"FunctionalTermination: func must be a function f(messages) -> bool; got {shorten(func)} "
                            f"({type(func).__name__}).")
        self.func = func
        self._with_context = _wants_context(func)

    def _describe_args(self) -> str:
        return getattr(self.func, "__qualname__", None) or getattr(self.func, "__name__", None) or repr(self.func)

    def _call(self, messages: Sequence[dict[str, Any]], context: Optional[TerminationContext]) -> Any:
        return self.func(messages, context) if self._with_context else self.func(messages)

    def _stop(self, result: Any) -> Optional[StopMessage]:
        if isinstance(result, StopMessage):
            return result
        if not result:
            return None
        return StopMessage(content="Functional termination condition met", source=type(self).__name__,
                           details={"function": self._describe_args()})

    def _evaluate(self, messages: list[dict[str, Any]], context: Optional[TerminationContext]) -> Optional[StopMessage]:
        result = self._call(messages, context)
        if inspect.isawaitable(result):
            result = run_sync(result)
        return self._stop(result)

    async def _a_evaluate(self, messages: list[dict[str, Any]], context: Optional[TerminationContext]
                          ) -> Optional[StopMessage]:
        result = self._call(messages, context)
        if inspect.isawaitable(result):
            result = await result
        return self._stop(result)
