"""Console input and output (``IOStream``), replaceable for tests and user interfaces.

Imports nothing else of the package: every layer above may print through it.
``IOWebsockets`` (a websocket client as the console) loads on first use, so the
optional ``websockets`` package is needed only by those who serve websockets.
"""

from typing import TYPE_CHECKING, Any

from .base import InputStream, IOConsole, IOStream, OutputStream

if TYPE_CHECKING:
    from .websockets import IOWebsockets

__all__ = ["IOConsole", "IOStream", "IOWebsockets", "InputStream", "OutputStream"]


def __getattr__(name: str) -> Any:
    if name == "IOWebsockets":
        from .websockets import IOWebsockets

        return IOWebsockets
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
