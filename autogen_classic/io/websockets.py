"""``IOWebsockets``: an ``IOStream`` whose console is a websocket client (a web UI).

Every event an agent prints travels to the client as its JSON (``{"type": ..., "content": {...}}``);
a plain ``print`` travels as a ``"print"`` event. An input prompt travels as plain text (nothing
when the prompt is empty) and the client's next message is the answer. A manual speaker selection sends
an ``"input_request"`` event carrying the candidates as data (``speaker_selection``) before its prompt.

``run_server_in_thread`` serves websockets on a background thread; each connection runs
``on_connect`` with its ``IOWebsockets`` as the default ``IOStream``, so a chat started there
prints to that client and asks that client for input.

Needs the ``websockets`` package (``pip install "autogen-classic[websockets]"``). This module
imports without it, so the class can be named in type hints; serving without it raises ``ImportError``.
"""

from __future__ import annotations

import json
import logging
import ssl
import threading
import uuid
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator, Optional, Protocol, Union

from ..events.base_event import BaseEvent, as_event  # noqa: F401 - BaseEvent importable here, as in AG2 Classic 0.14
from ..events.print_event import PrintEvent  # noqa: F401 - importable here, as in AG2 Classic 0.14
from ..events.run_events import InputRequestEvent
from ..import_utils import import_optional
from .base import IOStream
from .input_details import pending_speaker_selection

__all__ = ("IOWebsockets",)

logger = logging.getLogger(__name__)

INSTALL_HINT = 'pip install "autogen-classic[websockets]"'

Data = Union[str, bytes]


class ServerConnection(Protocol):
    """What ``IOWebsockets`` needs of a server-side websocket (``websockets.sync.server.ServerConnection``)."""

    def send(self, message: Union[Data, Iterable[Data]]) -> None:
        """Send a text (``str``) or binary (``bytes``) message to the client."""
        ...

    def recv(self, timeout: Optional[float] = None) -> Data:
        """Receive the client's next message."""
        ...

    def close(self) -> None:
        """Close the connection."""
        ...


class WebSocketServer(Protocol):
    """What a websocket server offers (``websockets.sync.server.Server``): serve until shut down."""

    def serve_forever(self) -> None:
        """Accept connections until ``shutdown`` is called."""
        ...

    def shutdown(self) -> None:
        """Stop accepting connections."""
        ...


def _text(value: Any) -> str:
    # As a print event shows a non-string object: its JSON when it has one, else str().
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return str(value)


def event_json(message: Any) -> str:
    """The JSON a client receives for ``message``: ``message.model_dump_json()``, and for an event of ag2 0.7.3's
    shape also the AG2 Classic 0.14 names of its fields (``sender`` beside ``sender_name``, ...), so clients
    written for either read it. Anything else is a ``"print"`` event of its text."""
    dump = getattr(message, "model_dump_json", None)
    if not callable(dump):
        return print_event_json(message)
    try:
        event = as_event(message)
        if event is message:  # an AG2 Classic 0.14 event, or one of no other shape
            return str(dump())
        data, newer = message.model_dump(mode="json"), event.model_dump(mode="json")
    except Exception:  # noqa: BLE001 - an event that cannot take the newer shape goes as it is
        return str(dump())
    content, extra = data.get("content"), newer.get("content")
    if isinstance(content, dict) and isinstance(extra, dict):
        for key, value in extra.items():
            content.setdefault(key, value)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def print_event_json(*objects: Any, sep: str = " ", end: str = "\n") -> str:
    """The JSON of the ``"print"`` event for ``print(*objects, sep=sep, end=end)``.

    Built directly (no model per printed line); the text is what
    ``PrintMessage(*objects, sep=sep, end=end).model_dump_json()`` gives.
    """
    content = {"uuid": str(uuid.uuid4()), "objects": [_text(x) for x in objects], "sep": sep, "end": end}
    return json.dumps({"type": "print", "content": content}, ensure_ascii=False, separators=(",", ":"))


def _websockets() -> Any:
    """The ``websockets`` package, or an ``ImportError`` that says how to install it."""
    return import_optional("websockets.exceptions", "websockets.sync.server", needed_by="IOWebsockets",
                           install_hint=INSTALL_HINT)


def _check_port(port: Any) -> None:
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise ValueError(
            f"port must be an integer from 0 to 65535 (0 picks a free port); got {port!r}. "
            "Pass e.g. port=8765 to IOWebsockets.run_server_in_thread."
        )


class IOWebsockets(IOStream):
    """An input/output stream over one websocket connection.

    Args:
        websocket: the server side of the connection (``websockets.sync.server.ServerConnection``).
    """

    def __init__(self, websocket: ServerConnection) -> None:
        self._websocket = websocket

    @property
    def websocket(self) -> ServerConnection:
        """The websocket connection this stream sends to and reads from."""
        return self._websocket

    @staticmethod
    def _handler(websocket: ServerConnection, on_connect: Callable[["IOWebsockets"], None]) -> None:
        """Run ``on_connect`` for one connection, with its stream as the default ``IOStream``."""
        logger.info(f" - IOWebsockets._handler(): Client connected on {websocket}")
        iostream = IOWebsockets(websocket)
        try:
            with IOStream.set_default(iostream):
                on_connect(iostream)
        except Exception as error:
            # The server keeps serving other clients; the error goes to the log. A client that went
            # away needs no traceback; any other error gets one.
            closed = isinstance(error, _connection_closed())
            logger.warning(f" - IOWebsockets._handler(): Error in on_connect: {error}", exc_info=not closed)

    @staticmethod
    @contextmanager
    def run_server_in_thread(
        *,
        host: str = "127.0.0.1",
        port: int = 8765,
        on_connect: Callable[["IOWebsockets"], None],
        ssl_context: Optional[ssl.SSLContext] = None,
        **kwargs: Any,
    ) -> Iterator[str]:
        """Serve websockets on a background thread while the ``with`` block runs; yields the server URI.

        Each client connection runs ``on_connect(iostream)`` on its own thread, with ``iostream``
        (an ``IOWebsockets``) as the default ``IOStream`` there. Leaving the block stops accepting
        connections, closes open ones (code 1001) and waits for their ``on_connect`` to return.

        Args:
            host: the address to listen on; the default serves this machine only.
            port: the port to listen on; 0 picks a free one (the yielded URI names it).
            on_connect: called with the ``IOWebsockets`` of each new connection.
            ssl_context: serve TLS (``wss://``) with this context.
            **kwargs: passed on to ``websockets.sync.server.serve``.
        """
        websockets = _websockets()
        if not callable(on_connect):
            raise TypeError(f"on_connect must be a function taking the connection's IOWebsockets; got {on_connect!r}.")
        if not isinstance(host, str) or not host:
            raise ValueError(f"host must be an address such as '127.0.0.1' or '0.0.0.0' (all interfaces); got {host!r}.")
        _check_port(port)
        server = _Server(on_connect)
        try:
            listener = websockets.sync.server.serve(server.handle, host, port, ssl=ssl_context, **kwargs)
        except OSError as error:
            raise OSError(
                error.errno,
                f"IOWebsockets could not listen on {host}:{port}: {error.strerror or error}. "
                "Pick another port (port=0 picks a free one) or stop what is using it.",
            ) from error
        bound_port = listener.socket.getsockname()[1]
        thread = threading.Thread(target=listener.serve_forever, name=f"IOWebsockets server {host}:{bound_port}")
        thread.start()
        scheme = "wss" if ssl_context is not None else "ws"
        uri_host = f"[{host}]" if ":" in host else host
        try:
            yield f"{scheme}://{uri_host}:{bound_port}"
        finally:
            listener.shutdown()
            thread.join()
            server.close_all()

    def print(self, *objects: Any, sep: str = " ", end: str = "\n", flush: bool = False) -> None:
        """Send ``print(*objects, sep=sep, end=end)`` to the client as a ``"print"`` event."""
        self._websocket.send(print_event_json(*objects, sep=sep, end=end))

    def send(self, message: Any) -> None:
        """Send an event to the client as its JSON (``message.model_dump_json()``; an event of ag2 0.7.3's shape
        carries the AG2 Classic 0.14 field names too, see :func:`event_json`).

        Anything without ``model_dump_json`` is sent as a ``"print"`` event of its text.
        """
        self._websocket.send(event_json(message))

    def input(self, prompt: str = "", *, password: bool = False) -> str:
        """Send ``prompt`` to the client as plain text (if not empty) and return its next message.

        ``password`` is accepted for the ``IOStream`` interface; the client decides how to ask.
        Raises ``EOFError`` when the connection closes before an answer arrives.
        """
        selection = pending_speaker_selection()
        if selection is not None:
            # A manual speaker selection: the choice as data first, for a client that offers buttons.
            self._websocket.send(InputRequestEvent(prompt=prompt, password=password,
                                                   speaker_selection=selection).model_dump_json())
        if prompt:
            self._websocket.send(prompt)
        try:
            reply = self._websocket.recv()
        except _connection_closed() as error:
            raise EOFError(f"the websocket client closed the connection before answering: {error}") from error
        return reply.decode("utf-8") if isinstance(reply, bytes) else reply


def _connection_closed() -> type[BaseException]:
    try:
        from websockets.exceptions import ConnectionClosed
    except ImportError:  # a websocket-like object of another library: nothing to translate
        return _Never
    return ConnectionClosed


class _Never(Exception):
    """Never raised: stands for "no exception type" in an ``except`` clause."""


class _Server:
    """The connections of one ``run_server_in_thread`` block: runs each, and closes them all at the end.

    Recent ``websockets`` releases close connections and wait for their threads on shutdown; older
    ones (14.x) only stop listening, so the threads are tracked here for every release alike.
    """

    def __init__(self, on_connect: Callable[[IOWebsockets], None]) -> None:
        self._on_connect = on_connect
        self._lock = threading.Lock()
        self._closing = False
        self._connections: dict[threading.Thread, ServerConnection] = {}

    def handle(self, websocket: ServerConnection) -> None:
        """The ``websockets`` handler: one connection, on its own thread."""
        with self._lock:
            if self._closing:  # accepted just as the block ended: nobody serves it any more
                websocket.close()
                return
            for finished in [t for t in self._connections if not t.is_alive()]:
                del self._connections[finished]
            self._connections[threading.current_thread()] = websocket
        IOWebsockets._handler(websocket, self._on_connect)

    def close_all(self) -> None:
        """Close the connections still open and wait until their threads have ended."""
        with self._lock:
            self._closing = True
            connections = list(self._connections.items())
        for _, websocket in connections:
            try:
                websocket.close()
            except Exception:  # already closing: nothing left to do
                pass
        for thread, _ in connections:
            thread.join()
