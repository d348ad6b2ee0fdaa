"""The classic import path ``autogen.io.console``; ``IOConsole`` lives in ``autogen_classic.io.base``."""

from .base import IOConsole, IOStream  # noqa: F401 - IOStream is importable here, as in classic AutoGen

__all__ = ("IOConsole",)
