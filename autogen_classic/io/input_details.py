"""What an input request is about, beyond its prompt text: data a user interface can offer as buttons.

The code that asks (manual speaker selection) puts the data here around its ``input`` call; a stream that
turns a prompt into an ``InputRequestEvent`` (a run's stream, a chat stream, ``IOWebsockets``) adds it to the
event as ``speaker_selection``. A context variable: a chat on its own thread or task sees only its own request.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator, Optional

__all__ = ["asking_for_speaker", "pending_speaker_selection"]

_pending: ContextVar[Optional[dict[str, Any]]] = ContextVar("autogen_classic_speaker_selection", default=None)


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
