"""Deciding whether code runs in Docker, with the classic rules.

``use_docker``: an explicit value wins; None lets ``AUTOGEN_USE_DOCKER`` decide (default
True). Code asked to run in Docker runs locally anyway when this process is itself inside
a container (``/.dockerenv`` exists). Otherwise a Docker engine must answer, or the
classic "docker is not running" error is raised; the code then runs in a container
(``containers/per_block.py``), which needs the optional ``docker`` package.

The probes ``in_docker_container`` and ``is_docker_running`` are looked up at call time,
so tests can replace them (``monkeypatch.setattr``) here or on ``autogen_classic.code_utils``.
"""

from __future__ import annotations

import http.client
import importlib.util
import os
import socket
from typing import Any, Union

__all__ = [
    "DOCKER_NOT_RUNNING_MESSAGE",
    "decide_use_docker",
    "check_can_use_docker_or_throw",
    "is_docker_running",
    "in_docker_container",
    "runs_in_docker",
    "require_docker_execution",
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


def require_docker_execution(use_docker: Any) -> None:
    """Check, when an agent is built, that code asked to run in Docker can run there.

    Raises:
        RuntimeError: no engine answers (the classic message of ``check_can_use_docker_or_throw``).
        ImportError: the code would run in a container and the ``docker`` package is missing.
    """
    check_can_use_docker_or_throw(use_docker)
    if runs_in_docker(use_docker):
        # The engine answers; only the Python client may be missing. Checked by name, not imported (slow).
        if importlib.util.find_spec("docker") is None:
            raise ImportError(
                f"Code execution is set to be run in docker (use_docker={use_docker!r}) and a Docker engine "
                "answers, but the 'docker' package is missing: install it with "
                'pip install "autogen-classic[docker]", or set "use_docker": False in code_execution_config '
                "to run the code locally."
            )


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

