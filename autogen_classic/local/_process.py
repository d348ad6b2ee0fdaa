"""Plumbing for the server child process: ports, thread count, parent-death signal, readiness probe."""

from __future__ import annotations

import ctypes
import json
import os
import signal
import socket
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Callable

HOST = "127.0.0.1"
_PR_SET_PDEATHSIG = 1
# The readiness probe must reach the loopback server directly, whatever HTTP(S)_PROXY says.
_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def bind_probe(port: int) -> int:
    """Bind ``port`` (0: any) on HOST the way uvicorn does and return the port; OSError when taken."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        # uvicorn sets SO_REUSEADDR too, so a port in TIME_WAIT counts as free, a listening one as taken.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((HOST, port))
        return int(sock.getsockname()[1])


def free_port() -> int:
    """A port on HOST that is free right now (another process may still take it first)."""
    return bind_probe(0)


THREADS_ENV = "AUTOGEN_CLASSIC_LOCAL_THREADS"


def thread_count() -> int:
    """``AUTOGEN_CLASSIC_LOCAL_THREADS`` when set, else one CPU fewer than this process may use, between 1 and 4.

    The CPU left over is the client's: llama.cpp's threads wait for each other by spinning, so when all of
    them share the CPUs with the agents' process (or anything else), generation slows down many times
    (bench/bench_embedded_model.py measures 1 thread against 2 on two cores). A 135M model gains nothing
    from more than 4."""
    value = os.environ.get(THREADS_ENV, "").strip()
    if value:
        if not value.isdigit() or int(value) <= 0:
            raise ValueError(f"{THREADS_ENV} must be a positive whole number of CPU threads, e.g. 2; got {value!r}")
        return int(value)
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not available on macOS or Windows
        cpus = os.cpu_count() or 1
    return max(1, min(cpus - 1, 4))


def parent_death_hook() -> Callable[[], None] | None:
    """On Linux, a child-side hook asking the kernel to SIGTERM the child when this process dies."""
    # PR_SET_PDEATHSIG fires when the forking *thread* ends, so only the main thread may rely on it.
    if not sys.platform.startswith("linux") or threading.current_thread() is not threading.main_thread():
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl  # resolved before fork, not in the child
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def hook() -> None:
        prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM))
        if os.getppid() != parent:  # the parent died before the request took effect
            os._exit(1)

    return hook


def completes(url: str, timeout: float = 60.0) -> bool:
    """Whether POST ``url`` (a ``/completions`` route) answers a two-token prompt with one token."""
    body = json.dumps({"prompt": "Hello there", "max_tokens": 1, "temperature": 0}).encode()
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"}, method="POST")
    try:
        with _DIRECT.open(request, timeout=timeout) as response:
            return int(response.status) == 200
    except (urllib.error.URLError, OSError, ValueError):
        return False


def answers(url: str) -> bool:
    """Whether GET ``url`` answers 200."""
    try:
        with _DIRECT.open(url, timeout=2) as response:
            return int(response.status) == 200
    except (urllib.error.URLError, OSError, ValueError):
        return False
