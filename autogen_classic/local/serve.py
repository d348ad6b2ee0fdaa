"""Running the embedded model server in the foreground (``autogen-classic serve``)."""

from __future__ import annotations

import signal
import threading
from types import FrameType
from typing import Any

from ..io.base import IOStream
from ..io.emit import emit_print
from .model_file import LocalModelUnavailableError
from .server import EmbeddedServerError
from .shared import BASE_URL_ENV, start_server, stop_server

__all__ = ["serve_forever"]


def serve_forever(port: int | None = None, out: IOStream | None = None) -> int:
    """Serve SmolLM2-135M-Instruct on 127.0.0.1 until Ctrl-C or SIGTERM; return the exit status.

    Prints ``Serving SmolLM2-135M-Instruct at http://127.0.0.1:<port>/v1`` once the server answers,
    then blocks. Other processes (e.g. notebooks) use it by setting ``AUTOGEN_CLASSIC_LOCAL_BASE_URL``
    to that URL.

    Args:
        port: the port on 127.0.0.1; None picks a free one.
        out: where to print (default: ``IOStream.get_default()``).

    Returns:
        0 after a clean stop; 1 when the server cannot start or dies on its own (the reason is printed).
    """
    out = out if out is not None else IOStream.get_default()
    try:
        server = start_server(port)
    except (LocalModelUnavailableError, EmbeddedServerError, TimeoutError, ValueError) as err:
        emit_print(f"Error: {err}", iostream=out)
        return 1
    emit_print(f"Serving SmolLM2-135M-Instruct at {server.base_url}", iostream=out)
    emit_print(f"Use it from other processes with {BASE_URL_ENV}={server.base_url}", iostream=out)
    emit_print("Press Ctrl-C to stop.", iostream=out)

    stop_requested = threading.Event()

    def on_sigterm(signum: int, frame: FrameType | None) -> None:
        stop_requested.set()

    # Signal handlers can only be installed from the main thread; elsewhere only Ctrl-C applies.
    in_main = threading.current_thread() is threading.main_thread()
    previous: Any = signal.signal(signal.SIGTERM, on_sigterm) if in_main else None
    status = 0
    try:
        while not stop_requested.wait(0.5):
            if not server.is_alive():
                tail = server.log_tail()
                emit_print(f"Error: the embedded model server stopped unexpectedly. End of its log:\n{tail}", iostream=out)
                status = 1
                break
    except KeyboardInterrupt:
        pass
    finally:
        if in_main:
            signal.signal(signal.SIGTERM, previous)
        stop_server()
    if status == 0:
        emit_print("Stopped.", iostream=out)
    return status
