"""The event model: every line the package prints is first one of these pydantic models.

An event class is written as its *content* (a ``BaseMessage`` subclass with the fields and a
``print(f)`` method) and decorated with :func:`wrap_message`, which returns the class users
import: a model with a ``type`` tag (``"text"`` for ``TextMessage``) and the content under
``content``. Serialised, every event reads ``{"type": ..., "content": {"uuid": ..., ...}}``, and
:func:`get_annotated_type_for_message_classes` gives the tagged union that reads any of them back.

Events the package itself builds for every printed line skip validation (their values come from
the package); events users build are validated as pydantic models are.
"""

from __future__ import annotations

import os
import random
import re
from typing import Annotated, Any, Callable, Literal, Optional, TypeVar, Union
from uuid import UUID, SafeUUID

from pydantic import BaseModel, Field, create_model

__all__ = ["BaseMessage", "get_annotated_type_for_message_classes", "wrap_message"]

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


class BaseMessage(BaseModel):
    """The content of an event: a ``uuid`` plus the fields of its kind, and how it prints."""

    uuid: UUID

    def __init__(self, uuid: Optional[UUID] = None, **kwargs: Any) -> None:
        super().__init__(uuid=uuid if uuid is not None else new_uuid(), **kwargs)

    def print(self, f: Optional[Callable[..., Any]] = None) -> None:
        """Print the event with ``f`` (builtin ``print`` by default), as the console shows it."""
        raise NotImplementedError(f"{type(self).__name__} does not say how it prints; define print(self, f=None).")


_set = object.__setattr__


def _built(cls: type[BaseModel], fields: dict[str, Any]) -> Any:
    # What pydantic's model_construct does, minus its per-field bookkeeping: the values are the
    # package's own, already of the declared types.
    instance = cls.__new__(cls)
    _set(instance, "__dict__", fields)
    _set(instance, "__pydantic_fields_set__", set(fields))
    _set(instance, "__pydantic_extra__", None)
    _set(instance, "__pydantic_private__", None)
    return instance


_message_classes: dict[str, type[BaseModel]] = {}


def camel2snake(name: str) -> str:
    """``"TextMessage"`` -> ``"text_message"``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _type_name(cls: type[Any]) -> str:
    name = cls.__name__
    return camel2snake(name[: -len("Message")] if name.endswith("Message") else name)


def get_message_classes() -> dict[str, type[BaseModel]]:
    """Every event class by its ``type`` tag (a copy)."""
    return dict(_message_classes)


_M = TypeVar("_M", bound=BaseMessage)


def wrap_message(message_cls: type[_M]) -> type[BaseModel]:
    """Make an event class from its content class: ``type`` tag plus ``content``.

    The returned class has the content class's name; building it with the content's arguments
    builds the content (``TextMessage(content="hi", sender_name="a", recipient_name="b")``), and
    ``print(f)`` prints the content. It joins the union of :func:`get_annotated_type_for_message_classes`.

    Args:
        message_cls: a ``BaseMessage`` subclass; its name (without "Message", in snake case) is the type tag.
    """
    if not (isinstance(message_cls, type) and issubclass(message_cls, BaseMessage)):
        raise TypeError(f"wrap_message expects a BaseMessage subclass; got {message_cls!r}.")
    tag = _type_name(message_cls)
    _field_names = tuple(message_cls.model_fields)  # the serialised order of the content's fields

    class WrapperBase(BaseModel):
        type: Literal[tag] = tag  # type: ignore[valid-type]
        content: message_cls  # type: ignore[valid-type]

        def __init__(self, *args: Any, **data: Any) -> None:
            if set(data) == {"type", "content"} and not args:  # read back from its serialised form
                super().__init__(**data)
                return
            super().__init__(content=message_cls(*args, **data))

        def print(self, f: Optional[Callable[..., Any]] = None) -> None:
            """Print the event with ``f`` (builtin ``print`` by default)."""
            self.content.print(f)  # type: ignore[attr-defined]

        @classmethod
        def build(cls, **fields: Any) -> Any:
            """The event with these content fields, unvalidated (for values the package made itself)."""
            ordered = {"uuid": new_uuid(), **{name: fields[name] for name in _field_names if name in fields}}
            if len(ordered) <= len(fields):  # keys that are not declared fields: kept after them
                ordered.update(fields)
            return _built(cls, {"type": tag, "content": _built(message_cls, ordered)})

    wrapper = create_model(message_cls.__name__, __base__=WrapperBase, __module__=message_cls.__module__)
    for name, member in vars(message_cls).items():  # the content's own public methods, on the event too
        if callable(member) and not name.startswith("_") and name != "print" and not hasattr(wrapper, name):
            setattr(wrapper, name, _delegate(name, member))
    wrapper.__qualname__ = message_cls.__qualname__
    wrapper.__doc__ = message_cls.__doc__
    _message_classes[tag] = wrapper
    return wrapper


def _delegate(name: str, member: Callable[..., Any]) -> Callable[..., Any]:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        return getattr(self.content, name)(*args, **kwargs)

    method.__name__ = name
    method.__doc__ = member.__doc__
    return method


def get_annotated_type_for_message_classes() -> type[Any]:
    """The tagged union of every event class (discriminated by ``type``), for reading events back.

    ``pydantic.TypeAdapter(get_annotated_type_for_message_classes()).validate_json(text)`` returns the event.
    """
    classes = tuple(_message_classes.values())
    return Annotated[Union[classes], Field(discriminator="type")]  # type: ignore[return-value]
