"""The classic import path ``autogen.io.console``; ``IOConsole`` lives in ``autogen_classic.io.base``."""

from ..events.base_event import BaseEvent  # noqa: F401 - importable here, as in AG2 Classic 0.14
from ..events.print_event import PrintEvent  # noqa: F401 - importable here, as in AG2 Classic 0.14
from .base import IOConsole, IOStream  # noqa: F401 - IOStream is importable here, as in classic AutoGen

__all__ = ("IOConsole",)
