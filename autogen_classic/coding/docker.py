"""Deciding whether code would run in Docker, and refusing clearly when it cannot.

``use_docker`` follows the classic rules: an explicit value wins; otherwise the
``AUTOGEN_USE_DOCKER`` environment variable decides, and it defaults to True.
This package runs code on the local machine only, so any request for Docker is
refused at configuration time with an error that says how to run locally.
"""

from __future__ import annotations

import http.client
import os
import socket
from typing import Union

__all__ = [
    "DOCKER_NOT_RUNNING_MESSAGE",
    "DOCKER_UNSUPPORTED_MESSAGE",
    "decide_use_docker",
    "check_can_use_docker_or_throw",
    "is_docker_running",
    "in_docker_container",
]

UseDocker = Union[bool, str, list[str], None]

_TRUTHY = {"1", "true", "yes", "t"}
_FALSY = {"0", "false", "no", "f"}
_DEFAULT_SOCKET = "unix:///var/run/docker.sock"
_PING_SECONDS = 1.0

_LOCAL_ALTERNATIVE = (
    "To run code on this machine instead (only code you trust), pass for example "
    'code_execution_config={"work_dir": "coding", "use_docker": False}, '
    "or set AUTOGEN_USE_DOCKER=0 before starting Python; "
    "code_execution_config=False disables code execution."
)

DOCKER_NOT_RUNNING_MESSAGE = (
    "Code execution is set to be run in docker (default behaviour) but docker is not running.\n"
    "The options available are:\n"
    "- Make sure docker is running (advised approach for code execution)\n"
    '- Set "use_docker": False in code_execution_config\n'
    '- Set AUTOGEN_USE_DOCKER to "0/False/no" in your environment variables\n' + _LOCAL_ALTERNATIVE
)

DOCKER_UNSUPPORTED_MESSAGE = (
    "Code execution is set to be run in docker (default behaviour), but autogen_classic runs code "
    "on the local machine only.\n"
    "The options available are:\n"
    '- Set "use_docker": False in code_execution_config\n'
    '- Set AUTOGEN_USE_DOCKER to "0/False/no" in your environment variables\n' + _LOCAL_ALTERNATIVE
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


def check_can_use_docker_or_throw(use_docker: UseDocker) -> None:
    """Raise ``RuntimeError`` when ``use_docker`` asks for Docker (True, an image name or a list of them).

    The message says whether no Docker engine answered or Docker is simply not supported
    here, and how to run the code locally instead. None and False pass.
    """
    if not use_docker:
        return
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

