"""Using an embedded model server that another process runs, instead of starting one in this process.

A machine running many worker processes (Ray starts one per task slot) should run one embedded model
server, not one per worker. Inside ``use_provided_server(provide)``, ``llm_config()`` asks
``provide()`` for the base URL of that shared server the first time it needs one, instead of starting
a server in this process. ``AUTOGEN_CLASSIC_LOCAL_BASE_URL`` still wins when it is set, and code that
never asks for the embedded model never calls ``provide``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any
from urllib.parse import urlsplit

__all__ = ["ProvidedServer", "provided_base_url", "use_provided_server"]

_provider: ContextVar[Callable[[], str] | None] = ContextVar("autogen_classic_local_provider", default=None)


class ProvidedServer:
    """An embedded model server run by another process, reachable at ``base_url``.

    Returned in place of this process's own server inside ``use_provided_server``: ``stop()`` leaves it
    running, since its owner stops it.
    """

    def __init__(self, base_url: str) -> None:
        if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
            raise ValueError(
                f"the provided embedded model server must be an http(s) base URL such as "
                f"http://127.0.0.1:8000/v1; got {base_url!r}"
            )
        self.base_url = base_url.rstrip("/")
        self.pid: int | None = None
        self.log_path: Any = None

    @property
    def port(self) -> int | None:
        """The port of ``base_url`` (None when it has none)."""
        return urlsplit(self.base_url).port

    def is_alive(self) -> bool:
        """Always True: its owner keeps it running."""
        return True

    def stop(self, timeout: float = 10.0) -> None:
        """Do nothing: the server belongs to another process."""

    def __repr__(self) -> str:
        return f"ProvidedServer(base_url={self.base_url!r})"


def provided_base_url() -> str | None:
    """The base URL of the server provided to this thread or task (asking the provider once), or None."""
    provide = _provider.get()
    return None if provide is None else provide()


@contextmanager
def use_provided_server(provide: Callable[[], str]) -> Iterator[None]:
    """Inside the block, ``llm_config()`` uses the server whose base URL ``provide()`` returns.

    ``provide`` is called at most once per block, and only when ``llm_config()`` needs a server
    (``AUTOGEN_CLASSIC_LOCAL_BASE_URL`` unset). The setting is local to the calling thread / task
    context, so other threads keep starting (or reusing) this process's own server.

    Args:
        provide: returns the OpenAI-compatible base URL (``http://host:port/v1``) of a running embedded
            model server, starting it if needed.
    """
    if not callable(provide):
        raise TypeError(f"provide must be a function returning a base URL; got {type(provide).__name__}.")
    lock = threading.Lock()
    found: list[str] = []

    def once() -> str:
        with lock:
            if not found:
                found.append(ProvidedServer(provide()).base_url)
            return found[0]

    token = _provider.set(once)
    try:
        yield
    finally:
        _provider.reset(token)
