"""Sending events to the current ``IOStream``: the one way the package prints.

The package emits ``autogen.events`` classes; which shape a stream gets is decided here, at the stream:
a run's stream (``takes_run_events``) gets the event itself; the console and every other stream (websockets,
``initiate_chat_stream``, a user's ``IOStream``) get the event's classic face, its ag2 0.7.3 ``messages`` class
(see :func:`~.base_event.classic_face`), as they always did. A ``messages`` class given to the emitter is
sent as it is.

``emit`` sends an event the console prints; ``emit_quiet`` one it does not print, built only when something
other than the plain console listens. With the plain console alone, a printed event is rendered by its class
without building the model: same text, none of the cost, on every round.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from types import SimpleNamespace
from typing import Any, Iterator, Optional

from ..events.base_event import classic_face
from ..events.print_event import PrintEvent
from .base import IOConsole, IOStream

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


def _built_for(stream: Any, event_cls: Any, fields: dict[str, Any]) -> Any:
    """The event ``event_cls`` with content ``fields`` in the shape ``stream`` gets (see the module's doc)."""
    face = classic_face(event_cls)
    if face is None or getattr(stream, "takes_run_events", False):
        return event_cls.build(**fields)
    return face.build(fields)


def emit(event_cls: Any, iostream: Optional[IOStream] = None, /, **fields: Any) -> None:
    """Send the event ``event_cls`` with content ``fields`` to ``iostream`` (default: the current stream)."""
    stream = iostream if iostream is not None else IOStream.get_default()
    if type(stream) is IOConsole:
        face = classic_face(event_cls)
        if face is None:
            event_cls.model_fields["content"].annotation.print(SimpleNamespace(**fields), stream.print)
        else:
            face.content.print(SimpleNamespace(**face.fields(fields)), stream.print)
        return
    send_to(stream, _built_for(stream, event_cls, fields))


def emit_quiet(event_cls: Any, iostream: Optional[IOStream] = None, /, **fields: Any) -> None:
    """Like :func:`emit`, for an event that prints nothing: not built when only the console listens."""
    stream = iostream if iostream is not None else IOStream.get_default()
    if listening(stream):
        send_to(stream, _built_for(stream, event_cls, fields))


def emit_run_event(event_cls: Any, iostream: Optional[IOStream] = None, /, *, silent: bool = False, **fields: Any) -> None:
    """Send an AG2 Classic 0.14 event that ag2 0.7.3 never sent (``TerminationEvent``, ``ExecutedFunctionEvent``).

    A run's stream always gets ``event_cls``; any other stream (the console among them) gets its classic face
    (the same text, 0.7.3's JSON shape) only when the chat is not silent (``silent``, or the innermost chat
    started with ``silent=True``): 0.14.1 prints these lines even then.
    """
    stream = iostream if iostream is not None else IOStream.get_default()
    if getattr(stream, "takes_run_events", False) or not (silent or chat_is_silent()):
        send_to(stream, _built_for(stream, event_cls, fields))


def emit_print(*objects: Any, sep: str = " ", end: str = "\n", iostream: Optional[IOStream] = None) -> None:
    """Print ``objects`` as a ``PrintEvent`` (text the package prints outside any other event)."""
    emit(PrintEvent, iostream, objects=[o if isinstance(o, str) else str(o) for o in objects], sep=sep, end=end)
