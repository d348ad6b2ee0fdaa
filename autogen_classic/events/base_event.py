"""The event model (classic ``autogen.events.base_event``): ``BaseEvent``, ``wrap_event`` and the union of events.

An event class is written as its *content* (a ``BaseEvent`` subclass with the fields and a ``print(f)``
method) and decorated with :func:`wrap_event`, which returns the class users import: a model with a
``type`` tag (``"text"`` for ``TextEvent``) and the content under ``content``. Serialised, every event
reads ``{"type": ..., "content": {"uuid": ..., ...}}``; :func:`get_annotated_type_for_event_classes`
gives the tagged union that reads any of them back.

The classic ``autogen.messages`` classes (``TextMessage`` ...) are built on the same machinery
(:func:`make_wrapper`): each is a subclass of its event here, keeping the field names, type tag and
printed text of ag2 0.7.3, and :func:`as_event` turns one into its event.
"""

from __future__ import annotations

import os
import random
import re
from typing import Annotated, Any, Callable, Literal, NamedTuple, Optional, Union
from uuid import UUID, SafeUUID

from pydantic import BaseModel, Field

from ..logger.logger_utils import event_print

__all__ = [
    "BaseEvent",
    "ClassicFace",
    "as_event",
    "classic_face",
    "content_class",
    "get_annotated_type_for_event_classes",
    "get_event_classes",
    "resolve_print_callable",
    "wrap_event",
]

# Event ids: random version-4 UUIDs from a private generator, so seeding the global `random`
# module (which "random" speaker selection draws from) is not disturbed by printing.
_ids = random.Random(os.urandom(16))
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=lambda: _ids.seed(os.urandom(16)))
_VERSION_4 = (0x4000 << 64) | (0x8000 << 48)
_VERSION_MASK = ~((0xF000 << 64) | (0xC000 << 48))


def new_uuid() -> UUID:
    """A random version-4 UUID, cheaper than ``uuid.uuid4()`` (built for every printed line)."""
    value = (_ids.getrandbits(128) & _VERSION_MASK) | _VERSION_4
    uid = object.__new__(UUID)
    object.__setattr__(uid, "int", value)
    object.__setattr__(uid, "is_safe", SafeUUID.unknown)
    return uid


class BaseEvent(BaseModel):
    """The content of an event: a ``uuid`` plus the fields of its kind, and how it prints."""

    uuid: UUID

    def __init__(self, uuid: Optional[UUID] = None, **kwargs: Any) -> None:
        super().__init__(uuid=uuid if uuid is not None else new_uuid(), **kwargs)

    def print(self, f: Optional[Callable[..., Any]] = None) -> None:
        """Print the event with ``f`` (``event_print`` by default); events that show nothing print nothing."""


def resolve_print_callable(f: Optional[Callable[..., Any]] = None) -> Callable[..., Any]:
    """``f``, or ``event_print`` (the ``ag2.event.processor`` logger, on standard output) when none is given."""
    return f if f is not None else event_print


def camel2snake(name: str) -> str:
    """``"TextEvent"`` -> ``"text_event"``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


_set = object.__setattr__


def built(cls: type[BaseModel], fields: dict[str, Any]) -> Any:
    """An instance of ``cls`` holding ``fields`` as they are (no validation): for values the package made.

    What pydantic's ``model_construct`` does, minus its per-field bookkeeping.
    """
    instance = cls.__new__(cls)
    _set(instance, "__dict__", fields)
    _set(instance, "__pydantic_fields_set__", set(fields))
    _set(instance, "__pydantic_extra__", None)
    private = cls.__private_attributes__
    _set(instance, "__pydantic_private__",
         {name: attribute.get_default() for name, attribute in private.items()} if private else None)
    return instance


def _delegate(name: str, member: Callable[..., Any]) -> Callable[..., Any]:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        return getattr(self.content, name)(*args, **kwargs)

    method.__name__ = name
    method.__doc__ = member.__doc__
    return method


def make_wrapper(
    content_cls: type[BaseModel],
    tag: str,
    base: type[BaseModel] = BaseModel,
    metaclass: Optional[type] = None,
) -> type[BaseModel]:
    """The event class users import for ``content_cls``: a ``type`` tag plus the content under ``content``.

    Building it with the content's arguments builds the content (``TextEvent(content="hi", sender="a",
    recipient="b")``); ``{"type": ..., "content": {...}}`` reads a serialised event back; ``print(f)``
    prints the content; ``build(**fields)`` makes one from the package's own values without validation.

    Args:
        content_cls: the content class (fields and ``print``).
        tag: the ``type`` tag.
        base: the class to derive from (a classic ``*Message`` derives from its ``*Event``).
        metaclass: the metaclass of the new class, when not pydantic's own.
    """
    field_names = tuple(content_cls.model_fields)  # the serialised order of the content's fields
    defaults = {
        name: field for name, field in content_cls.model_fields.items() if not field.is_required()
    }

    namespace: dict[str, Any] = {
        "__annotations__": {"type": Literal[tag], "content": content_cls},  # type: ignore[valid-type]
        "type": tag,
        "__module__": content_cls.__module__,
    }

    def __init__(self: Any, *args: Any, **data: Any) -> None:
        if set(data) == {"type", "content"} and not args:  # read back from its serialised form
            BaseModel.__init__(self, **data)
            return
        BaseModel.__init__(self, content=content_cls(*args, **data))

    def print(self: Any, f: Optional[Callable[..., Any]] = None) -> None:
        """Print the event with ``f`` (see the content's ``print``)."""
        self.content.print(f)

    def build(cls: Any, **fields: Any) -> Any:
        """The event with these content fields, unvalidated (for values the package made itself)."""
        uid = fields.pop("uuid", None)
        ordered = {"uuid": uid if uid is not None else new_uuid()}
        for name in field_names:
            if name in fields:
                ordered[name] = fields[name]
            elif name in defaults:
                ordered[name] = defaults[name].get_default(call_default_factory=True)
        if len(ordered) <= len(fields):  # keys that are not declared fields: kept after them
            for name, value in fields.items():
                ordered.setdefault(name, value)
        return built(cls, {"type": tag, "content": built(content_cls, ordered)})

    namespace.update(__init__=__init__, print=print, build=classmethod(build))
    wrapper = (metaclass or type(base))(content_cls.__name__, (base,), namespace)
    for name, member in vars(content_cls).items():  # the content's own public methods, on the event too
        if callable(member) and not name.startswith("_") and name not in ("print", "build") and not hasattr(
            wrapper, name
        ):
            setattr(wrapper, name, _delegate(name, member))
    wrapper.__qualname__ = content_cls.__qualname__
    wrapper.__doc__ = content_cls.__doc__
    return wrapper


def content_class(event_cls: type[BaseModel]) -> Any:
    """The content class of an event class made by :func:`make_wrapper` (fields and ``print``)."""
    return event_cls.model_fields["content"].annotation


_event_classes: dict[str, type[BaseModel]] = {}


def wrap_event(event_cls: type[BaseEvent]) -> type[BaseModel]:
    """Make an event class from its content class: ``type`` tag plus ``content``.

    The returned class has the content class's name and joins the union of
    :func:`get_annotated_type_for_event_classes`.

    Args:
        event_cls: a ``BaseEvent`` subclass whose name ends with "Event"; the name without it, in snake
            case, is the type tag (``TextEvent`` -> ``"text"``).

    Raises:
        ValueError: the class name does not end with "Event".
    """
    if not (isinstance(event_cls, type) and issubclass(event_cls, BaseModel)):
        raise TypeError(f"wrap_event expects a BaseEvent subclass; got {event_cls!r}.")
    if not event_cls.__name__.endswith("Event"):
        raise ValueError("Event class name must end with 'Event'")
    tag = camel2snake(event_cls.__name__)[: -len("_event")]
    wrapper = make_wrapper(event_cls, tag)
    _event_classes[tag] = wrapper
    return wrapper


def get_event_classes() -> dict[str, type[BaseModel]]:
    """Every event class by its ``type`` tag."""
    return _event_classes


def get_annotated_type_for_event_classes() -> type[Any]:
    """The tagged union of every event class (discriminated by ``type``), for reading events back.

    ``pydantic.TypeAdapter(get_annotated_type_for_event_classes()).validate_json(text)`` returns the event.
    """
    classes = tuple(_event_classes.values())
    return Annotated[Union[classes], Field(discriminator="type")]  # type: ignore[return-value]


# ---------------------------------------------------------------- classic classes <-> events
# Both directions are filled by ``messages.wrap_message``, which pairs each classic class with its event: this
# package sits below ``messages`` and cannot import it.
_converters: dict[type, Callable[[Any], Any]] = {}


def register_conversion(classic_cls: type, convert: Callable[[Any], Any]) -> None:
    """Make :func:`as_event` turn instances of ``classic_cls`` (a classic ``*Message``) into events with ``convert``."""
    _converters[classic_cls] = convert


def conversion_for(classic_cls: type) -> Optional[Callable[[Any], Any]]:
    """The conversion :func:`as_event` applies to instances of ``classic_cls`` (None: none)."""
    return _converters.get(classic_cls)


def as_event(message: Any) -> Any:
    """``message`` as its ``autogen.events`` event: a classic ``*Message`` becomes its ``*Event`` (same uuid);
    anything else is returned as it is."""
    convert = _converters.get(type(message))
    return message if convert is None else convert(message)


class ClassicFace(NamedTuple):
    """The ag2 0.7.3 class the package sends for an event to the console and the classic streams.

    ``cls`` is the ``messages`` class (same text as the console printed, 0.7.3's JSON), ``content`` its content
    class and ``names`` the event's field names it renames (event name -> classic name).
    """

    cls: Any
    content: Any
    names: dict[str, str]

    def fields(self, event_fields: dict[str, Any]) -> dict[str, Any]:
        """``event_fields`` under the classic field names."""
        names = self.names
        return {names.get(name, name): value for name, value in event_fields.items()} if names else event_fields

    def build(self, event_fields: dict[str, Any]) -> Any:
        """The classic class with the content ``event_fields`` (the event's names), unvalidated."""
        return self.cls.build(**self.fields(event_fields))


_faces: dict[type, ClassicFace] = {}


def register_face(event_cls: type, classic_cls: Any, names: dict[str, str]) -> None:
    """Make ``classic_cls`` what :func:`classic_face` gives for ``event_cls``.

    Args:
        event_cls: an event class made by :func:`wrap_event`.
        classic_cls: its classic ``*Message`` class.
        names: the event's field names the classic class renames (event name -> classic name).
    """
    _faces[event_cls] = ClassicFace(classic_cls, content_class(classic_cls), dict(names))


def classic_face(event_cls: type) -> Optional[ClassicFace]:
    """The classic face of ``event_cls`` (None: it has none, e.g. a classic class or an event ag2 0.7.3 lacks)."""
    return _faces.get(event_cls)
