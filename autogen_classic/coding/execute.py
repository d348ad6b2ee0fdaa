"""The classic ``execute_code``: save code to a file in a working directory and run it.

This is what ``code_execution_config={"work_dir": ..., "use_docker": False, "timeout": ...}``
uses. Results follow the classic contract: ``(exit_code, logs, image)`` where logs are
stdout on success and stderr on failure (with the temporary file's path removed).
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional, Union

from ..exception_utils import InvalidArgumentError
from . import docker as _docker
from .running.code_files import TIMEOUT_MSG, generated_filename
from .running.process import run_with_timeout
from .utils import PYTHON_VARIANTS

__all__ = [
    "SENTINEL",
    "WORKING_DIR",
    "TIMEOUT_MSG",
    "DEFAULT_TIMEOUT",
    "WIN32",
    "PATH_SEPARATOR",
    "execute_code",
    "default_filename",
    "command_for",
    "get_powershell_command",
    "timeout_handler",
]

logger = logging.getLogger(__name__)

SENTINEL = object()
# The classic default: an "extensions" folder inside the package.
WORKING_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "extensions")
DEFAULT_TIMEOUT = 600
WIN32 = sys.platform == "win32"
PATH_SEPARATOR = "\\" if WIN32 else "/"


def timeout_handler(signum: Any, frame: Any) -> None:
    """A ``signal.signal`` handler that raises ``TimeoutError("Timed out!")``."""
    raise TimeoutError("Timed out!")


def get_powershell_command() -> Optional[str]:
    """Return the PowerShell program to use: ``"powershell"`` or else ``"pwsh"``.

    Returns:
        str or None: the first program that reports its version; None when one is installed
        but none answered.

    Raises:
        FileNotFoundError: neither ``powershell`` nor ``pwsh`` is installed.
        PermissionError: PowerShell may not be run.
    """
    found = False
    version = "$PSVersionTable.PSVersion.Major"
    for cmd in (["powershell", version], ["pwsh", "-Command", version]):
        try:
            result = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        except (FileNotFoundError, NotADirectoryError):
            continue
        except PermissionError as e:
            raise PermissionError("No permission to run powershell.") from e
        found = True
        if result.returncode == 0:
            return cmd[0]
    if not found:
        raise FileNotFoundError(
            "Neither powershell.exe nor pwsh.exe is present in the system. Please install PowerShell and try again."
        )
    return None


def command_for(lang: str) -> str:
    """Return the program that runs code of language ``lang`` (``sys.executable`` for Python).

    Raises:
        NotImplementedError: no program is known for ``lang``, or PowerShell did not answer.
        FileNotFoundError: PowerShell code, but PowerShell is not installed.
    """
    if lang in PYTHON_VARIANTS or lang.startswith("python"):
        return sys.executable
    if lang in ["bash", "sh"]:
        return lang
    if lang == "shell":
        return "sh"
    if lang == "javascript":
        return "node"
    if lang in ["ps1", "pwsh", "powershell"]:
        program = get_powershell_command()
        if program is None:
            raise NotImplementedError(f"{lang} code needs PowerShell, which is installed but did not run")
        return program
    raise NotImplementedError(f"{lang} not recognized in code execution")


def default_filename(code: str, lang: str) -> str:
    """The classic generated file name: ``tmp_code_<md5 of code>.<py or lang>``."""
    return generated_filename(code, "py" if lang.startswith("python") else lang)


def execute_code(
    code: Optional[str] = None,
    timeout: Optional[int] = None,
    filename: Optional[str] = None,
    work_dir: Optional[Union[str, os.PathLike[str]]] = None,
    use_docker: Union[list[str], str, bool, None, object] = SENTINEL,
    lang: Optional[str] = "python",
) -> tuple[int, str, Optional[str]]:
    """Execute code in ``work_dir``, the classic way.

    Args:
        code (str, optional): the code; when None, the file ``filename`` is run as it is.
        timeout (int, optional): the time limit in seconds; None or 0 means 600. On expiry
            every process the code started is killed and ``(1, "Timeout", None)`` is returned.
        filename (str, optional): the file (relative to ``work_dir``) to save the code to; when
            None a ``tmp_code_<md5>`` file is used and removed afterwards.
        work_dir (str, optional): the working directory, created if missing; default ``WORKING_DIR``.
        use_docker (list, str or bool): left unset, ``AUTOGEN_USE_DOCKER`` decides (default True).
            A truthy value runs the code in a new Docker container: True tries ``python:3-slim``,
            ``python:3`` and ``python:3-windowsservercore``; a name or list of names tries those
            (see ``containers/per_block.py``). When this process is itself inside a container the code runs
            here. False or None: run here.
        lang (str, optional): ``python`` (default), ``bash``, ``sh``, ``shell`` or PowerShell.

    Returns:
        tuple: ``(exit_code, logs, image)``: locally, logs are stdout on success and stderr on
        failure, and image is None; in Docker, logs are stdout and stderr, and image is the one
        committed from the container (``python:<file name>``), or the image used on timeout.

    Raises:
        InvalidArgumentError: neither ``code`` nor ``filename`` is given (also an AssertionError).
        RuntimeError: Docker is asked for and no engine answers (the classic message).
        ImportError: Docker is asked for and the ``docker`` package is missing.
        DockerImageNotFoundError: none of the images is on the engine or can be pulled.
    """
    if code is None and filename is None:
        message = (
            f"Either {code=} or {filename=} must be provided: execute_code needs code or filename "
            "(the code to run, or the name of the file in work_dir that holds it)."
        )
        logger.error(message)
        raise InvalidArgumentError(message)
    if use_docker is SENTINEL:
        use_docker = _docker.decide_use_docker(None)
    _docker.check_can_use_docker_or_throw(use_docker)
    in_docker = _docker.runs_in_docker(use_docker)
    timeout = timeout or DEFAULT_TIMEOUT
    if not isinstance(timeout, (int, float)):
        raise TypeError(f"timeout must be a number of seconds, got {timeout!r}")
    lang = lang or "python"
    if WIN32 and lang in ["sh", "shell"] and not in_docker:
        lang = "ps1"  # pragma: no cover - Windows

    generated = filename is None
    if filename is None:
        filename = default_filename(code or "", lang)
    work_path = Path(work_dir if work_dir is not None else WORKING_DIR)
    file_path = work_path / filename
    file_path.parent.mkdir(parents=True, exist_ok=True)
    if code is not None:
        file_path.write_text(code, encoding="utf-8")

    try:
        if in_docker:
            # Imported on use: the docker package is slow to import and optional.
            from .containers.per_block import run_file_in_docker

            docker_images: Any = use_docker
            return run_file_in_docker(filename, work_path, lang, timeout, docker_images, generated=generated)
        program = command_for(lang)
        cmd = [program, f".\\{filename}" if WIN32 else filename]
        try:
            outcome = run_with_timeout(cmd, cwd=work_path, timeout=timeout)
        except FileNotFoundError:
            return 127, f"{program}: command not found", None
    finally:
        if generated:
            file_path.unlink(missing_ok=True)

    if outcome.timed_out:
        return 1, TIMEOUT_MSG, None
    if outcome.returncode == 0:
        return 0, outcome.stdout, None
    logs = outcome.stderr
    # Keep tracebacks short and free of machine-specific paths, as the classic logs are.
    if generated:
        logs = logs.replace(str(file_path.absolute()), "").replace(filename, "")
    else:
        logs = logs.replace(str(work_path.absolute()) + PATH_SEPARATOR, "")
    return outcome.returncode, logs, None
