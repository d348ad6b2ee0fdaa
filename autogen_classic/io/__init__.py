"""Console input and output (``IOStream``), replaceable for tests and user interfaces.

Imports only the events (``autogen_classic.events``) below it: every layer above may print through it.
The responses of ``ConversableAgent.run`` live here too (``run_response``, ``thread_io_stream``,
``step_controller``, ``processors``).
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
