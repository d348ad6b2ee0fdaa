"""The one replaceable console stream every agent prints to and reads from.

Classic AutoGen routes all console traffic through ``IOStream``. A UI, a notebook
or a test swaps the stream (globally, or for one block with ``IOStream.set_default``)
and sees every line an agent prints and answers every prompt it asks.
"""

from __future__ import annotations

import getpass
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator, Optional, Protocol, runtime_checkable

from ..events.base_event import BaseEvent  # noqa: F401 - importable here, as in AG2 Classic 0.14
from ..logger.logger_utils import event_print, routed_event_logger

__all__ = ["OutputStream", "InputStream", "IOStream", "IOConsole"]


@runtime_checkable
class OutputStream(Protocol):
    def print(self, *objects: Any, sep: str = " ", end: str = "\n", flush: bool = False) -> None:
        """Print objects to the stream, like the builtin ``print``."""
        ...

    def send(self, message: Any) -> None:
        """Send a message object (one that can print itself) to the stream."""
        ...


@runtime_checkable
class InputStream(Protocol):
    def input(self, prompt: str = "", *, password: bool = False) -> str:
        """Read one line; raise ``EOFError`` when the input is closed."""
        ...


@runtime_checkable
class AsyncInputStream(Protocol):
    async def input(self, prompt: str = "", *, password: bool = False) -> str:
        """Read one line (awaited); raise ``EOFError`` when the input is closed."""
        ...


@runtime_checkable
class IOStreamProtocol(InputStream, OutputStream, Protocol):
    """What a console stream offers: ``print``, ``send`` and ``input``."""


@runtime_checkable
class AsyncIOStreamProtocol(AsyncInputStream, OutputStream, Protocol):
    """A console stream whose ``input`` is awaited."""


@runtime_checkable
class IOStream(InputStream, OutputStream, Protocol):
    """An input and output stream; the class also holds the process-wide default."""

    @staticmethod
    def set_global_default(stream: "IOStream") -> None:
        """Make ``stream`` the default for every context that has not set its own."""
        _State.global_default = stream

    @staticmethod
    def get_global_default() -> "IOStream":
        """Return the process-wide default stream (an ``IOConsole`` unless replaced)."""
        if _State.global_default is None:
            _State.global_default = IOConsole()
        return _State.global_default

    @staticmethod
    def get_default() -> "IOStream":
        """Return the stream for the current context (thread or task)."""
        stream = _current_stream.get()
        return stream if stream is not None else IOStream.get_global_default()

    @staticmethod
    @contextmanager
    def set_default(stream: Optional["IOStream"]) -> Iterator[None]:
        """Use ``stream`` as the default inside the ``with`` block (context-local)."""
        token = _current_stream.set(stream)
        try:
            yield
        finally:
            _current_stream.reset(token)


class _State:
    global_default: Optional[IOStream] = None


_current_stream: ContextVar[Optional[IOStream]] = ContextVar("autogen_classic_iostream", default=None)


class IOConsole(IOStream):
    """The terminal: builtin ``print`` and ``input`` (``getpass`` for passwords)."""

    def print(self, *objects: Any, sep: str = " ", end: str = "\n", flush: bool = False) -> None:
        """Print to standard output, or through the ``ag2.event.processor`` logger once it is configured
        (a handler, filter or level of the user's), as AG2 Classic 0.14 prints."""
        events = routed_event_logger()
        if events is None:
            print(*objects, sep=sep, end=end, flush=flush)
        else:
            event_print(*objects, sep=sep, end=end, flush=flush, logger=events)

    def send(self, message: Any) -> None:
        """Print a message object: its own ``print(f)`` method is used when it has one."""
        render = getattr(message, "print", None)
        if callable(render):
            render(self.print)
        else:
            self.print(message)

    def input(self, prompt: str = "", *, password: bool = False) -> str:
        if password:
            return getpass.getpass(prompt if prompt else "Password: ")
        return input(prompt)
