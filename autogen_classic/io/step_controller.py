"""Step-by-step runs (classic ``autogen.io.step_controller``): the chat waits after each event it sends
until the consumer asks for the next one.

``yield_on`` narrows the events the chat waits on (and a run's iterator yields) to some event classes;
None means every event.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from ..events.base_event import BaseEvent

__all__ = ["AsyncStepController", "StepController", "check_yield_on"]


def check_yield_on(yield_on: Any) -> Optional[tuple[type, ...]]:
    """``yield_on`` as a tuple of classes (None: every event).

    A single class is taken as a list of one.

    Raises:
        TypeError: an entry is not a class (a name, an instance, None).
    """
    if yield_on is None:
        return None
    if isinstance(yield_on, type):
        return (yield_on,)
    if isinstance(yield_on, (str, bytes)) or not hasattr(yield_on, "__iter__"):
        raise TypeError(
            f"yield_on must be a list of event classes, e.g. yield_on=[TextEvent, TerminationEvent]; got {yield_on!r}."
        )
    classes = tuple(yield_on)
    for entry in classes:
        if not isinstance(entry, type):
            hint = f"the class itself, e.g. {entry}" if isinstance(entry, str) else "the class itself"
            raise TypeError(
                f"yield_on entries must be event classes such as TextEvent (from autogen.events.agent_events); "
                f"got {entry!r} ({type(entry).__name__}). Pass {hint}, not an instance or a name."
            )
    return classes or None


class _StepGate:
    """What both controllers share: which events the chat stops on, and the consumer's side (``step``,
    ``terminate``). They differ in the signal (a thread's or a task's) and in how the chat waits on it.

    Args:
        yield_on: the event classes to stop on; None for every event.
    """

    _signal_class: Any

    def __init__(self, yield_on: Optional[Sequence[type["BaseEvent"]]] = None) -> None:
        self._yield_on = check_yield_on(yield_on)
        self._step_event = self._signal_class()
        self._terminated = False

    def should_block(self, event: Any) -> bool:
        """Whether the chat waits after ``event`` (and the consumer is shown it)."""
        if self._terminated:
            return False
        return self._yield_on is None or isinstance(event, self._yield_on)

    def step(self) -> None:
        """Called by the consumer: let the chat go on to its next event."""
        self._step_event.set()

    def terminate(self) -> None:
        """Never wait again (the consumer is gone)."""
        self._terminated = True
        self._step_event.set()


class StepController(_StepGate):
    """Blocks the chat (the producer) after each event it sends until the consumer calls ``step()``
    (``yield_on``: the event classes to stop on; None for every event)."""

    _signal_class = threading.Event

    def wait_for_step(self, event: Any) -> None:
        """Called by the chat after sending ``event``: wait for the consumer if the event is one to stop on."""
        if self.arm(event):
            self.wait()

    def arm(self, event: Any) -> bool:
        """Before sending ``event``: whether the chat will wait after it (the step signal is reset now, so a
        consumer that steps as soon as it has the event is not missed)."""
        if not self.should_block(event):
            return False
        self._step_event.clear()
        return True

    def wait(self) -> None:
        """Wait for the consumer's ``step()`` (at once when terminated)."""
        if not self._terminated:  # terminate() sets the signal after the flag: either is seen
            self._step_event.wait()


class AsyncStepController(_StepGate):
    """(async) Suspends the chat after each event it sends until the consumer calls ``step()``
    (``yield_on`` as for :class:`StepController`)."""

    _signal_class = asyncio.Event

    async def wait_for_step(self, event: Any) -> None:
        """Called by the chat after sending ``event``: wait for the consumer if the event is one to stop on."""
        if not self.should_block(event):
            return
        self._step_event.clear()
        await self._step_event.wait()
