"""``PrintMessage``: a plain line of text, for everything printed that is not a chat event of its own."""

from __future__ import annotations

import builtins
from typing import Any, Callable, Optional
from uuid import UUID

from ..events.helpers import deprecated_by  # noqa: F401 - importable here, as in AG2 Classic 0.14
from ..events.print_event import PrintEvent, object_text
from .base_message import BaseMessage, wrap_message

__all__ = ["PrintMessage"]


@wrap_message(event=PrintEvent)
class PrintMessage(BaseMessage):
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
        (f or builtins.print)(*self.objects, sep=self.sep, end=self.end, flush=True)
