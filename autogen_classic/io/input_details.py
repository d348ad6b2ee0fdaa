"""What an input request is about, beyond its prompt text: data a user interface can offer as buttons.

The code that asks (manual speaker selection) puts the data here around its ``input`` call; a stream that
turns a prompt into an ``InputRequestEvent`` (a run's stream, a chat stream, ``IOWebsockets``) adds it to the
event as ``speaker_selection``. A context variable: a chat on its own thread or task sees only its own request.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator, Optional

__all__ = [
    "allow_parking",
    "asking_for_speaker",
    "asking_human_of",
    "parking_path",
    "pending_human_of",
    "pending_speaker_selection",
]

_pending: ContextVar[Optional[dict[str, Any]]] = ContextVar("autogen_classic_speaker_selection", default=None)
_asking_agent: ContextVar[Optional[str]] = ContextVar("autogen_classic_human_of", default=None)
_parking: ContextVar[Optional[str]] = ContextVar("autogen_classic_parking", default=None)


@contextmanager
def asking_for_speaker(data: dict[str, Any]) -> Iterator[None]:
    """Inside the block, input requests carry ``data`` (the candidates, exclusions and suggestion of a manual
    speaker selection) as their ``speaker_selection``."""
    token = _pending.set(data)
    try:
        yield
    finally:
        _pending.reset(token)


def pending_speaker_selection() -> Optional[dict[str, Any]]:
    """The data of the manual speaker selection asking now, or None when the input asked for is not one."""
    return _pending.get()


@contextmanager
def asking_human_of(agent_name: str) -> Iterator[None]:
    """Inside the block, input requests are the human reply of the agent ``agent_name``."""
    token = _asking_agent.set(agent_name)
    try:
        yield
    finally:
        _asking_agent.reset(token)


def pending_human_of() -> Optional[str]:
    """The name of the agent asking its human for a reply now, or None when the input asked for is not one."""
    return _asking_agent.get()


def allow_parking(transcript_path: Optional[str]) -> Optional[str]:
    """From now on, input requests may be parked, their chat kept in ``transcript_path`` (None: they may not);
    returns the value before, to be given back when the turn ends.

    Set and given back by the group chat around each turn; not a context manager, since the turn is a
    generator that a finished chat may close in another context.
    """
    before = _parking.get()
    _parking.set(transcript_path)
    return before


def parking_path() -> Optional[str]:
    """The transcript keeping the chat asking now, when its requests may be parked; None otherwise."""
    return _parking.get()
