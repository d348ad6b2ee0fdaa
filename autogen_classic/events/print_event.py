"""``PrintEvent`` (classic ``autogen.events.print_event``): a plain line of text, for everything printed
that is not a chat event of its own."""

from __future__ import annotations

import json
from typing import Any, Callable, Optional
from uuid import UUID

from .base_event import BaseEvent, resolve_print_callable, wrap_event

__all__ = ["PrintEvent"]


def object_text(value: Any) -> str:
    """An object as a print event keeps it: a str as is, else its JSON, else ``str()``."""
    if isinstance(value, str):
        return value
    if hasattr(value, "model_dump_json"):
        return str(value.model_dump_json())
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return str(value)


@wrap_event
class PrintEvent(BaseEvent):
    """What ``print(*objects, sep=sep, end=end)`` would show, as an event."""

    objects: list[str]
    sep: str
    end: str

    def __init__(
        self, *objects: Any, sep: str = " ", end: str = "\n", flush: bool = False, uuid: Optional[UUID] = None,
        **fields: Any,
    ) -> None:
        if "objects" in fields and not objects:  # read back from its serialised form
            super().__init__(uuid=uuid, sep=sep, end=end, **fields)
            return
        super().__init__(uuid=uuid, objects=[object_text(x) for x in objects], sep=sep, end=end, **fields)

    def print(self, f: Optional[Callable[..., Any]] = None) -> None:
        """Print the objects as ``print`` would."""
        resolve_print_callable(f)(*self.objects, sep=self.sep, end=self.end, flush=True)
