"""Deciding whether code runs in Docker, with the classic rules.

``use_docker``: an explicit value wins; None lets ``AUTOGEN_USE_DOCKER`` decide (default
True). Code asked to run in Docker runs locally anyway when this process is itself inside
a container (``/.dockerenv`` exists). Otherwise a Docker engine must answer, or the
classic "docker is not running" error is raised. This package does not run code in
Docker containers yet, so when an engine answers it refuses with an error that says how
to run locally instead.

The probes ``in_docker_container`` and ``is_docker_running`` are looked up at call time,
so tests can replace them (``monkeypatch.setattr``) here or on ``autogen_classic.code_utils``.
"""

from __future__ import annotations

import http.client
import os
import socket
from typing import Any, Union

__all__ = [
    "DOCKER_NOT_RUNNING_MESSAGE",
    "DOCKER_UNSUPPORTED_MESSAGE",
    "decide_use_docker",
    "check_can_use_docker_or_throw",
    "is_docker_running",
    "in_docker_container",
    "runs_in_docker",
    "refuse_docker_execution",
]

UseDocker = Union[bool, str, list[str], None]

_TRUTHY = {"1", "true", "yes", "t"}
_FALSY = {"0", "false", "no", "f"}
_DEFAULT_SOCKET = "unix:///var/run/docker.sock"
_PING_SECONDS = 1.0

DOCKER_NOT_RUNNING_MESSAGE = (
    "Code execution is set to be run in docker (default behaviour) but docker is not running.\n"
    "The options available are:\n"
    "- Make sure docker is running (advised approach for code execution)\n"
    '- Set "use_docker": False in code_execution_config\n'
    '- Set AUTOGEN_USE_DOCKER to "0/False/no" in your environment variables'
)

DOCKER_UNSUPPORTED_MESSAGE = (
    "Code execution is set to be run in docker (default behaviour), but Docker code execution is not "
    "implemented yet: autogen_classic runs code on the local machine only.\n"
    "The options available are:\n"
    '- Set "use_docker": False in code_execution_config, e.g. '
    'code_execution_config={"work_dir": "coding", "use_docker": False} (run only code you trust)\n'
    '- Set AUTOGEN_USE_DOCKER to "0/False/no" in your environment variables\n'
    "- Use code_execution_config=False to disable code execution"
)


def decide_use_docker(use_docker: UseDocker) -> UseDocker:
    """Return ``use_docker``, or the value ``AUTOGEN_USE_DOCKER`` gives when it is None.

    Args:
        use_docker (bool, str, list or None): the value from ``code_execution_config``.

    Returns:
        The explicit value unchanged; for None: True for "1/true/yes/t" (and when the variable
        is unset), False for "0/false/no/f", None for "none" (case-insensitive).

    Raises:
        ValueError: ``AUTOGEN_USE_DOCKER`` holds anything else.
    """
    if use_docker is not None:
        return use_docker
    raw = os.environ.get("AUTOGEN_USE_DOCKER", "True")
    value = raw.lower()
    if value in _TRUTHY:
        return True
    if value in _FALSY:
        return False
    if value == "none":
        return None
    raise ValueError(
        f"Invalid value for AUTOGEN_USE_DOCKER: {raw}. "
        'Please set AUTOGEN_USE_DOCKER to "1/True/yes", "0/False/no", or "None".'
    )


def check_can_use_docker_or_throw(use_docker: Any) -> None:
    """Raise ``RuntimeError`` when ``use_docker`` asks for Docker but no engine can be used.

    Passes when ``use_docker`` is None or falsy, when this process runs inside a container
    (the code then runs here), or when a Docker engine answers.
    """
    if use_docker and not in_docker_container() and not is_docker_running():
        raise RuntimeError(DOCKER_NOT_RUNNING_MESSAGE)


def runs_in_docker(use_docker: Any) -> bool:
    """Whether the classic rule would run the code in a Docker container.

    True when ``use_docker`` is truthy and this process is not inside a container.
    """
    return bool(use_docker) and not in_docker_container()


def refuse_docker_execution(use_docker: Any) -> None:
    """Raise ``RuntimeError`` when the code would run in Docker, which this package does not do yet.

    Without an engine this is the error of ``check_can_use_docker_or_throw`` (the classic
    message); with one, the error says Docker execution is not implemented and how to run
    the code locally instead. The engine is asked once.
    """
    if runs_in_docker(use_docker):
        raise RuntimeError(DOCKER_UNSUPPORTED_MESSAGE if is_docker_running() else DOCKER_NOT_RUNNING_MESSAGE)


def in_docker_container() -> bool:
    """Return True when this process runs inside a Docker container."""
    return os.path.exists("/.dockerenv")


def is_docker_running() -> bool:
    """Return True when a Docker engine answers a ping at ``DOCKER_HOST`` (default: the local socket)."""
    host = os.environ.get("DOCKER_HOST") or _DEFAULT_SOCKET
    try:
        if host.startswith("unix://"):
            path = host[len("unix://") :]
            if not os.path.exists(path):
                return False
            conn: http.client.HTTPConnection = _UnixHTTPConnection(path)
        elif host.startswith("tcp://"):
            address = host[len("tcp://") :].rstrip("/")
            conn = http.client.HTTPConnection(address, timeout=_PING_SECONDS)
        else:
            return False
        try:
            conn.request("GET", "/_ping")
            return conn.getresponse().status == 200
        finally:
            conn.close()
    except (OSError, http.client.HTTPException, ValueError):
        return False


class _UnixHTTPConnection(http.client.HTTPConnection):
    """HTTP over a Unix socket, enough for the engine's ``/_ping``."""

    def __init__(self, path: str) -> None:
        super().__init__("localhost", timeout=_PING_SECONDS)
        self._path = path

    def connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(_PING_SECONDS)
        sock.connect(self._path)
        self.sock = sock

