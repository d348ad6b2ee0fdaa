"""The one embedded model server of this process, and the ``llm_config`` that points at it."""

from __future__ import annotations

import atexit
import os
import threading
from typing import Any

from .model_file import MODEL_NAME
from .provided import provided_base_url
from .server import EmbeddedServer, check_port

__all__ = ["BASE_URL_ENV", "current_server", "llm_config", "start_server", "stop_server"]

BASE_URL_ENV = "AUTOGEN_CLASSIC_LOCAL_BASE_URL"
"""When set, ``llm_config()`` uses this base URL (e.g. of ``autogen-classic serve``) and starts nothing."""

_lock = threading.Lock()
_server: EmbeddedServer | None = None


def start_server(port: int | None = None) -> EmbeddedServer:
    """Return this process's embedded model server, starting it when it is not running.

    Args:
        port: the port on 127.0.0.1; None picks a free one. A running server is reused only
            when ``port`` is None or its own port.

    The server is stopped by ``stop_server()`` or at interpreter exit.
    """
    global _server
    check_port(port)
    with _lock:
        if _server is not None and _server.is_alive():
            if port is not None and port != _server.port:
                raise ValueError(
                    f"port={port}: this process's embedded model server already runs on port {_server.port}. "
                    "Leave port out to reuse it, or call stop_server() first."
                )
            return _server
        server = EmbeddedServer(port)
        server.start()
        _server = server
        return server


def current_server() -> EmbeddedServer | None:
    """The server started by ``start_server()`` if it is still running, else None."""
    server = _server
    return server if server is not None and server.is_alive() else None


def stop_server() -> None:
    """Stop the server started by ``start_server()``, if any."""
    global _server
    with _lock:
        server, _server = _server, None
    if server is not None:
        server.stop()


def _stop_at_exit() -> None:
    # Never wait long for the lock at exit: a daemon thread may be stuck holding it.
    if _lock.acquire(timeout=5):
        _lock.release()
    server = _server
    if server is not None:
        server.stop(timeout=5)


atexit.register(_stop_at_exit)


def _base_url_from_env() -> str | None:
    value = os.environ.get(BASE_URL_ENV, "").strip()
    if not value:
        return None
    if not value.startswith(("http://", "https://")):
        raise ValueError(f"{BASE_URL_ENV} must be an http(s) base URL such as http://127.0.0.1:8000/v1, got {value!r}")
    return value.rstrip("/")


def llm_config(**overrides: Any) -> dict[str, Any]:
    """A ready ``llm_config`` for the embedded SmolLM2-135M-Instruct model.

    Uses the base URL in ``AUTOGEN_CLASSIC_LOCAL_BASE_URL`` when it is set; otherwise starts this
    process's embedded server if it is not running yet (see ``start_server``).

    Args:
        **overrides: top-level ``llm_config`` keys replacing the defaults, e.g. ``temperature=0.7``.

    Raises:
        LocalModelUnavailableError: the server must be started but the ``local`` extra is missing.
    """
    # A server provided to this task (one per machine for many worker processes) comes before our own.
    base_url = _base_url_from_env() or provided_base_url() or start_server().base_url
    config: dict[str, Any] = {
        "config_list": [
            {
                "model": MODEL_NAME,
                "base_url": base_url,
                "api_key": "not-needed",
                # The server constrains output with response_format={"type": "json_object", "schema": ...}.
                "structured_output": "json_object",
                "price": [0, 0],
            }
        ],
        "cache_seed": None,
        "temperature": 0,
    }
    config.update(overrides)
    return config
