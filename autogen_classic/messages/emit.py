"""Sending events to the current ``IOStream``: the one way the package prints.

``emit`` sends an event the console prints; ``emit_quiet`` one it does not print, built only when
something other than the plain console listens. With the plain console alone, a printed event is
rendered by its class without building the model: same text, none of the cost, on every round.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from types import SimpleNamespace
from typing import Any, Iterator, Optional

from ..io.base import IOConsole, IOStream

__all__ = [
    "chat_is_silent", "emit", "emit_print", "emit_quiet", "emit_run_event", "listening", "send_to", "silent_chat",
]

# Whether the innermost running chat was started with ``silent=True`` (a context variable, so that threads and
# tasks of other chats keep their own).
_SILENT_CHAT: ContextVar[bool] = ContextVar("autogen_classic_silent_chat", default=False)


@contextmanager
def silent_chat(silent: Any) -> Iterator[None]:
    """Within the block, the current chat is silent when ``silent`` is true (a nested chat sets its own)."""
    token = _SILENT_CHAT.set(bool(silent))
    try:
        yield
    finally:
        _SILENT_CHAT.reset(token)


def chat_is_silent() -> bool:
    """Whether the innermost running chat was started with ``silent=True``."""
    return _SILENT_CHAT.get()


def send_to(stream: Any, event: Any) -> None:
    """Send ``event`` to ``stream``; a stream without ``send`` (print-only) gets its printed text."""
    send = getattr(stream, "send", None)
    if send is None:
        event.print(stream.print)
    else:
        send(event)


def listening(stream: Any) -> bool:
    """Whether ``stream`` wants events beyond their text (anything but the plain console)."""
    return type(stream) is not IOConsole and getattr(stream, "send", None) is not None


def emit(event_cls: Any, iostream: Optional[IOStream] = None, /, **fields: Any) -> None:
    """Send the event ``event_cls`` with content ``fields`` to ``iostream`` (default: the current stream)."""
    stream = iostream if iostream is not None else IOStream.get_default()
    if type(stream) is IOConsole:
        content_cls = event_cls.model_fields["content"].annotation
        content_cls.print(SimpleNamespace(**fields), stream.print)
        return
    send_to(stream, event_cls.build(**fields))


def emit_quiet(event_cls: Any, iostream: Optional[IOStream] = None, /, **fields: Any) -> None:
    """Like :func:`emit`, for an event that prints nothing: not built when only the console listens."""
    stream = iostream if iostream is not None else IOStream.get_default()
    if listening(stream):
        send_to(stream, event_cls.build(**fields))


def emit_run_event(
    event_cls: Any, iostream: Optional[IOStream] = None, /, *, face: Any = None, silent: bool = False, **fields: Any
) -> None:
    """Send an AG2 Classic 0.14 event that ag2 0.7.3 never sent (``TerminationEvent``, ``ExecutedFunctionEvent``).

    A run's stream always gets ``event_cls``; any other stream (the console among them) gets its classic face
    ``face`` (the ``messages`` class: the same text, 0.7.3's JSON shape) only when the chat is not silent
    (``silent``, or the innermost chat started with ``silent=True``): 0.14.1 prints these lines even then.
    """
    stream = iostream if iostream is not None else IOStream.get_default()
    if getattr(stream, "takes_run_events", False):
        send_to(stream, event_cls.build(**fields))
    elif not (silent or chat_is_silent()):
        send_to(stream, (face if face is not None else event_cls).build(**fields))


def emit_print(*objects: Any, sep: str = " ", end: str = "\n", iostream: Optional[IOStream] = None) -> None:
    """Print ``objects`` as a ``PrintMessage`` event (text the package prints outside any other event)."""
    from .print_message import PrintMessage  # the events import this module's users, not the reverse

    emit(PrintMessage, iostream, objects=[o if isinstance(o, str) else str(o) for o in objects], sep=sep, end=end)
