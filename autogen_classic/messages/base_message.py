"""The classic event model of ag2 0.7.3 (``autogen.messages.base_message``), on the machinery of ``events``.

An event class is written as its *content* (a ``BaseMessage`` subclass with the fields and a
``print(f)`` method) and decorated with :func:`wrap_message`, which returns the class users
import: a model with a ``type`` tag (``"text"`` for ``TextMessage``) and the content under
``content``. Serialised, every event reads ``{"type": ..., "content": {"uuid": ..., ...}}``, and
:func:`get_annotated_type_for_message_classes` gives the tagged union that reads any of them back.

The package's own classes are each the 0.7.3 shape of an ``autogen.events`` event: ``TextMessage`` is a
subclass of ``TextEvent`` (and ``isinstance(text_event, TextMessage)`` holds too), with the 0.7.3 field
names, type tag and printed text; ``as_event`` gives the event itself (same uuid).

Events the package itself builds for every printed line skip validation (their values come from
the package); events users build are validated as pydantic models are.
"""

from __future__ import annotations

from typing import Annotated, Any, Callable, Optional, TypeVar, Union
from uuid import UUID

from pydantic import BaseModel, Field

from ..events.base_event import (  # noqa: F401 - new_uuid: importable here as before
    camel2snake,
    classic_face,
    content_class,
    conversion_for,
    make_wrapper,
    new_uuid,
    register_conversion,
    register_face,
)

__all__ = ["BaseMessage", "console_face", "get_annotated_type_for_message_classes", "wrap_message"]


class BaseMessage(BaseModel):
    """The content of an event: a ``uuid`` plus the fields of its kind, and how it prints."""

    uuid: UUID

    def __init__(self, uuid: Optional[UUID] = None, **kwargs: Any) -> None:
        super().__init__(uuid=uuid if uuid is not None else new_uuid(), **kwargs)

    def print(self, f: Optional[Callable[..., Any]] = None) -> None:
        """Print the event with ``f`` (builtin ``print`` by default), as the console shows it.

        A class that does not say how it prints prints nothing (as in ag2 0.7.3, where user events
        made with ``wrap_message`` often define only their fields).
        """


class _ClassicEventMeta(type(BaseModel)):  # type: ignore[misc]
    """The metaclass of a classic class with an event: its event's instances count as its instances."""

    def __instancecheck__(cls, instance: Any) -> bool:
        if super().__instancecheck__(instance):
            return True
        event = cls.__dict__.get("__event_class__")
        return event is not None and isinstance(instance, event)


_message_classes: dict[str, type[BaseModel]] = {}


def _type_name(cls: type[Any]) -> str:
    return camel2snake(cls.__name__[: -len("Message")])


def get_message_classes() -> dict[str, type[BaseModel]]:
    """Every event class by its ``type`` tag (a copy)."""
    return dict(_message_classes)


_M = TypeVar("_M", bound=BaseMessage)
Adapt = Callable[[dict[str, Any], Any], dict[str, Any]]


def _converter(event: type[BaseModel], renames: dict[str, str], adapt: Optional[Adapt]) -> Callable[[Any], Any]:
    def convert(message: Any) -> Any:
        content = message.content
        fields = {renames.get(name, name): value for name, value in content.__dict__.items()}
        return event.build(**(adapt(fields, content) if adapt is not None else fields))  # type: ignore[attr-defined]

    return convert


def _alias_fields(classic: type, new: type, renames: dict[str, str]) -> None:
    """Each shape answers the other's field names too: ``message.content.sender`` is its ``sender_name``,
    ``event.content.sender_name`` its ``sender`` (read-only)."""

    def alias(name: str) -> property:
        return property(lambda self: getattr(self, name), doc=f"The same as ``{name}``.")

    for classic_name, new_name in renames.items():
        if not hasattr(classic, new_name) and new_name not in classic.model_fields:  # type: ignore[attr-defined]
            setattr(classic, new_name, alias(classic_name))
        if not hasattr(new, classic_name) and classic_name not in new.model_fields:  # type: ignore[attr-defined]
            setattr(new, classic_name, alias(new_name))


def wrap_message(
    message_cls: Optional[type[_M]] = None,
    *,
    event: Optional[type[BaseModel]] = None,
    renames: Optional[dict[str, str]] = None,
    adapt: Optional[Adapt] = None,
) -> Any:
    """Make an event class from its content class: ``type`` tag plus ``content``.

    The returned class has the content class's name; building it with the content's arguments
    builds the content (``TextMessage(content="hi", sender_name="a", recipient_name="b")``), and
    ``print(f)`` prints the content. It joins the union of :func:`get_annotated_type_for_message_classes`.
    Used with keywords only (``@wrap_message(event=TextEvent, renames=...)``) it returns the decorator.

    Args:
        message_cls: a ``BaseMessage`` subclass whose name ends with "Message"; the name without it, in snake
            case, is the type tag.
        event: the ``autogen.events`` class this class is the classic shape of: the new class derives from
            it, ``as_event`` turns its instances into that event, and the package's emitter sends this class
            (its ``classic_face``) for that event to the console and the classic streams.
        renames: classic field name -> event field name, for ``as_event``.
        adapt: a last change of the renamed fields for ``as_event`` (given the fields and the content).

    Raises:
        ValueError: the class name does not end with "Message".
    """
    if message_cls is None:
        return lambda cls: wrap_message(cls, event=event, renames=renames, adapt=adapt)
    if not (isinstance(message_cls, type) and issubclass(message_cls, BaseMessage)):
        raise TypeError(f"wrap_message expects a BaseMessage subclass; got {message_cls!r}.")
    if not message_cls.__name__.endswith("Message"):  # the type tag is the name without it
        raise ValueError("Message class name must end with 'Message'")
    tag = _type_name(message_cls)
    if event is None:
        wrapper = make_wrapper(message_cls, tag)
    else:
        wrapper = make_wrapper(message_cls, tag, base=event, metaclass=_ClassicEventMeta)
        wrapper.__event_class__ = event  # type: ignore[attr-defined]
        register_conversion(wrapper, _converter(event, dict(renames or {}), adapt))
        _alias_fields(message_cls, content_class(event), renames or {})
        if classic_face(event) is None:  # what the package's emitter sends for ``event`` outside a run's stream
            register_face(event, wrapper, {new: classic for classic, new in (renames or {}).items()})
    _message_classes[tag] = wrapper
    return wrapper


def get_annotated_type_for_message_classes() -> type[Any]:
    """The tagged union of every event class (discriminated by ``type``), for reading events back.

    ``pydantic.TypeAdapter(get_annotated_type_for_message_classes()).validate_json(text)`` returns the event.
    """
    classes = tuple(_message_classes.values())
    return Annotated[Union[classes], Field(discriminator="type")]  # type: ignore[return-value]


def console_face(message_cls: type[BaseModel], print_cls: type[BaseMessage], name: str) -> type[BaseModel]:
    """The class the package sends where its own console line differs from ``message_cls.print``.

    ``message_cls.print`` stays ag2 0.7.3's (what a user's instance prints), while the package's console
    keeps its line (AG2 Classic 0.14.1's words, or a fix). ``print_cls`` subclasses ``message_cls``'s
    content and overrides only ``print``. The result (module attribute ``name``) is a subclass of
    ``message_cls`` with its class name, type tag, fields and JSON; ``as_event`` converts it alike; it
    stays out of the union, so its JSON reads back as ``message_cls``. It becomes the classic face of
    ``message_cls``'s event: what the package sends for that event outside a run's stream.
    """
    print_cls.__name__ = message_cls.__name__  # reprs and ``type(event).__name__`` as for message_cls
    tag = message_cls.model_fields["type"].default
    face = make_wrapper(print_cls, tag, base=message_cls, metaclass=type(message_cls))
    face.__qualname__ = name
    convert = conversion_for(message_cls)
    if convert is not None:
        register_conversion(face, convert)
    event = getattr(message_cls, "__event_class__", None)
    paired = classic_face(event) if event is not None else None
    if paired is not None:  # the package's emitter sends this face for the event
        register_face(event, face, paired.names)
    return face
