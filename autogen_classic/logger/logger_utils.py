"""Timestamps, the conversion of logged objects into JSON-ready data, and the event logger.

``redact`` and ``get_sensitive_exclude_keys`` (classic names) come from ``redaction``, the
package's one set of rules for keeping secrets out of what it writes.
"""

from __future__ import annotations

import datetime
import enum
import inspect
import logging
import sys
from pathlib import PurePath
from typing import IO, Any, Callable, Optional, Union

from .redaction import get_sensitive_exclude_keys, redact  # noqa: F401 - classic path

__all__ = [
    "EventStreamHandler",
    "convert",
    "event_print",
    "format_ts",
    "get_current_ts",
    "get_event_logger",
    "routed_event_logger",
    "to_dict",
]

_TS_FORMAT = "%Y-%m-%d %H:%M:%S.%f"
_PLAIN = (int, float, str, bool, type(None))
# Deep enough for any configuration or message; deeper means a structure worth no more detail.
_MAX_DEPTH = 32


def format_ts(epoch_seconds: float) -> str:
    """The log timestamp (UTC, ``YYYY-MM-DD HH:MM:SS.ffffff``) of a ``time.time()`` value.

    Args:
        epoch_seconds: seconds since the epoch.
    """
    return datetime.datetime.fromtimestamp(epoch_seconds, datetime.timezone.utc).strftime(_TS_FORMAT)


def get_current_ts() -> str:
    """The current time as a log timestamp (UTC, ``YYYY-MM-DD HH:MM:SS.ffffff``)."""
    return datetime.datetime.now(datetime.timezone.utc).strftime(_TS_FORMAT)


def to_dict(
    obj: Union[int, float, str, bool, dict[Any, Any], list[Any], tuple[Any, ...], Any],
    exclude: tuple[str, ...] = (),
    no_recursive: tuple[Any, ...] = (),
) -> Any:
    """Turn ``obj`` into data ``json.dumps`` can write: dicts, lists and plain values.

    Dicts and lists are converted item by item, pydantic models through their fields, other
    objects through their attributes (``vars``), functions and classes become their source
    text, paths their text. Values of other kinds (a ``uuid``, a ``datetime``) are returned unchanged for the
    JSON encoder to handle. Never raises: a circular reference becomes a
    ``<<circular reference: Type>>`` string.

    Args:
        obj: the value to convert.
        exclude: dict keys and attribute names to leave out, at every depth.
        no_recursive: types whose instances are written as ``str(instance)`` rather than
            expanded (e.g. agents held by a group chat); one type alone (``no_recursive=Agent``)
            is taken as well.
    """
    kinds = (no_recursive,) if isinstance(no_recursive, type) else tuple(no_recursive)
    return convert(obj, exclude, (lambda value: isinstance(value, kinds)) if kinds else None)


def convert(obj: Any, exclude: tuple[str, ...] | frozenset[str], as_text: Callable[[Any], bool] | None) -> Any:
    """``to_dict`` with a predicate (instead of types) choosing the objects written as ``str(obj)``.

    Args:
        obj: the value to convert.
        exclude: dict keys and attribute names to leave out, at every depth.
        as_text: returns True for the objects to write as ``str(obj)``; None for none.
    """
    # A frozenset subclass (one that compares names without regard to case) is kept as it is.
    names = exclude if isinstance(exclude, frozenset) else frozenset(exclude)
    return _Converter(names, as_text).run(obj, 0)


class _Converter:
    def __init__(self, exclude: frozenset[str], as_text: Callable[[Any], bool] | None) -> None:
        self.exclude = exclude
        self.as_text = as_text
        self.active: set[int] = set()  # ids on the current path: a repeat is a circle

    def run(self, obj: Any, depth: int) -> Any:
        if isinstance(obj, _PLAIN):
            return obj
        if self.as_text is not None and self.as_text(obj):
            return str(obj)
        if isinstance(obj, enum.Enum):
            return self.run(obj.value, depth)
        if isinstance(obj, PurePath):
            return str(obj)
        if id(obj) in self.active or depth > _MAX_DEPTH:
            return f"<<circular reference: {type(obj).__qualname__}>>"
        self.active.add(id(obj))
        try:
            return self._expand(obj, depth + 1)
        finally:
            self.active.discard(id(obj))

    def _expand(self, obj: Any, depth: int) -> Any:
        if isinstance(obj, dict):
            return {_key(k): self.run(v, depth) for k, v in obj.items() if k not in self.exclude}
        if isinstance(obj, (list, tuple)):
            return [self.run(item, depth) for item in obj]
        if isinstance(obj, (set, frozenset)):
            items = [self.run(item, depth) for item in obj]
            try:
                return sorted(items)
            except TypeError:
                return items
        if inspect.isroutine(obj) or inspect.isclass(obj):
            return _source(obj)
        fields = getattr(type(obj), "model_fields", None)
        if isinstance(fields, dict):  # a pydantic model: its declared fields (not per-call extras)
            return {k: self.run(getattr(obj, k, None), depth) for k in fields if k not in self.exclude}
        attributes = getattr(obj, "__dict__", None)
        if isinstance(attributes, dict):
            return {k: self.run(v, depth) for k, v in list(attributes.items()) if k not in self.exclude}
        return obj  # uuid, datetime, bytes, ...: the JSON encoder decides


def _key(key: Any) -> Any:
    return key if isinstance(key, _PLAIN) else str(key)


def _source(obj: Any) -> str:
    """The source text of a function or class; its qualified name when there is no source (built-ins)."""
    try:
        return inspect.getsource(obj).strip()
    except (OSError, TypeError):
        module = getattr(obj, "__module__", None)
        name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None) or repr(obj)
        return f"{module}.{name}" if module and module != "builtins" else str(name)


# ----------------------------------------------------------------- the event logger
EVENT_LOGGER_NAME = "ag2.event.processor"
# LogRecord attributes carrying event_print's end and flush arguments to the handler.
_END_ATTRIBUTE = "ag2_event_end"
_FLUSH_ATTRIBUTE = "ag2_event_flush"


class EventStreamHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """A stream handler that ends each record as ``event_print`` asked (``end``, ``flush``), like ``print``.

    Args:
        stream: where to write; None for ``sys.stdout``.
    """

    def __init__(self, stream: Optional[IO[str]] = None) -> None:
        super().__init__(stream or sys.stdout)

    def emit(self, record: logging.LogRecord) -> None:
        """Write the formatted record followed by its ``end`` (a newline unless told otherwise)."""
        try:
            text = self.format(record)
            self.stream.write(text + str(getattr(record, _END_ATTRIBUTE, "\n")))
            if getattr(record, _FLUSH_ATTRIBUTE, True):
                self.flush()
        except Exception:  # noqa: BLE001 - logging's own error reporting, as every handler does
            self.handleError(record)


def get_event_logger() -> logging.Logger:
    """The ``ag2.event.processor`` logger, which prints events to standard output.

    On first use it gets an ``EventStreamHandler`` on ``sys.stdout`` with the bare message as format
    and level INFO (unless a level was set); it never passes records on to the root logger.
    """
    events = logging.getLogger(EVENT_LOGGER_NAME)
    if not events.handlers:
        handler = EventStreamHandler(sys.stdout)
        handler._ag2_default = True  # type: ignore[attr-defined] - told apart from handlers a user adds
        handler.setFormatter(logging.Formatter("%(message)s"))
        events.addHandler(handler)
        if events.level == logging.NOTSET:
            events.setLevel(logging.INFO)
    events.propagate = False
    return events


def event_print(
    *objects: Any,
    sep: str = " ",
    end: str = "\n",
    flush: bool = True,
    logger: Optional[logging.Logger] = None,
    level: int = logging.INFO,
) -> None:
    """``print`` through a logger: the objects as text joined by ``sep``, ended by ``end``.

    Args:
        *objects: what to print (each through ``str``).
        sep: put between the objects.
        end: written after the text (by an ``EventStreamHandler``).
        flush: whether the handler flushes its stream after the record.
        logger: the logger to use; None for ``get_event_logger()``.
        level: the record's level.
    """
    target = logger or get_event_logger()
    target.log(level, sep.join(str(obj) for obj in objects), extra={_END_ATTRIBUTE: end, _FLUSH_ATTRIBUTE: flush})


_EVENT_LOGGER = logging.getLogger(EVENT_LOGGER_NAME)  # logging keeps one object per name for the process


def routed_event_logger() -> Optional[logging.Logger]:
    """The ``ag2.event.processor`` logger when the console's text must go through it, else None.

    That is when someone configured it as AG2 Classic 0.14 lets people do (a handler, a filter, a level above
    INFO, disabling it); unconfigured, the console prints directly, which shows the same text and follows a
    replaced ``sys.stdout``.
    """
    events = _EVENT_LOGGER  # asked on every console print: the logger object is looked up once
    if not (events.handlers or events.filters or events.disabled) and events.level <= logging.INFO:
        return None  # the usual case, without building anything
    configured = (
        any(_set_by_user(handler) for handler in events.handlers)
        or bool(events.filters)
        or events.level > logging.INFO
        or events.disabled
    )
    return events if configured else None


def _set_by_user(handler: logging.Handler) -> bool:
    """Whether ``handler`` was put on the event logger by someone: not its default one, nor the capture handlers
    pytest attaches to every logger that does not propagate, during each test."""
    return not getattr(handler, "_ag2_default", False) and not type(handler).__module__.startswith("_pytest.")
