"""The classic ``execute_code`` in Docker: ``code_execution_config={"use_docker": True | "<image>" | [images]}``.

Each call runs one file in a new container of the first available image (``True``: ``python:3-slim``,
``python:3``, ``python:3-windowsservercore``, pulled when missing), with the working directory
mounted at ``/workspace``. After a run the container is committed as ``python:<file name>`` and
that image is returned, so an agent's next code block starts where the last one left off (packages
installed by ``pip`` are still there), as in classic AutoGen. The container is always removed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional, Union

from ...io.base import IOStream
from ..running.code_files import TIMEOUT_MSG
from .engine import (
    clear_owner_labels_changes,
    connect,
    ensure_image,
    import_docker,
    run_owned_container,
    stop_owned_container,
)

__all__ = ["DEFAULT_IMAGES", "docker_program", "docker_tag", "images_for", "run_file_in_docker"]

DEFAULT_IMAGES = ["python:3-slim", "python:3", "python:3-windowsservercore"]
WORKSPACE = "/workspace"
_TAG_INVALID = re.compile(r"[^A-Za-z0-9_.-]")


def images_for(use_docker: Union[bool, str, list[str]]) -> list[str]:
    """The images to try for ``use_docker``: the classic defaults for True, else the name(s) given."""
    if use_docker is True:
        return list(DEFAULT_IMAGES)
    if isinstance(use_docker, str):
        return [use_docker]
    if isinstance(use_docker, (list, tuple)) and use_docker and all(isinstance(i, str) for i in use_docker):
        return list(use_docker)
    raise TypeError(
        f"use_docker must be True, an image name or a list of image names, got {use_docker!r} "
        '(e.g. "use_docker": "python:3-slim")'
    )


def docker_program(lang: str) -> str:
    """The program that runs ``lang`` code inside the container.

    Raises:
        NotImplementedError: no program is known for ``lang``.
    """
    if lang.startswith("python") or lang in ("Python", "py"):
        return "python"
    if lang in ("bash", "sh"):
        return lang
    if lang == "shell":
        return "sh"
    if lang == "javascript":
        return "node"
    if lang in ("ps1", "pwsh", "powershell"):
        return "pwsh"
    raise NotImplementedError(f"{lang} not recognized in code execution")


def docker_tag(filename: str) -> str:
    """A valid image tag made of ``filename`` (letters, digits, ``_ . -``; at most 128 characters)."""
    tag = _TAG_INVALID.sub("_", filename)
    if not tag or tag[0] in ".-":
        tag = "_" + tag
    return tag[:128]


def run_file_in_docker(
    filename: str,
    work_dir: Path,
    lang: str,
    timeout: float,
    use_docker: Union[bool, str, list[str]],
    *,
    generated: bool,
) -> tuple[int, str, Optional[str]]:
    """Run ``work_dir/filename`` in a new container; return the classic ``(exit_code, logs, image)``.

    Args:
        filename (str): the file to run, relative to ``work_dir``.
        work_dir (Path): mounted at ``/workspace``.
        lang (str): the language (``python``, ``bash``, ``sh``, ``shell``, PowerShell, ``javascript``).
        timeout (float): seconds; on expiry the container is removed and ``(1, "Timeout", image)`` returned.
        use_docker (bool, str or list): the image(s) to try (see ``images_for``).
        generated (bool): the file name was made up (``tmp_code_<md5>``): it is left out of error logs.

    Returns:
        tuple: the exit code, stdout and stderr as they came (``/workspace/`` paths removed from a
        failure's logs), and the image committed from the container (``python:<file name>``).

    Raises:
        ImportError: the ``docker`` package is missing.
        DockerEngineUnavailableError: no engine answers (a ``RuntimeError``, as in classic AutoGen).
        DockerImageNotFoundError: none of the images is available (a ``docker.errors.APIError``).
        NotImplementedError: no program is known for ``lang``.
    """
    program = docker_program(lang)
    images = images_for(use_docker)
    client = connect()
    image = ensure_image(client, images, say=IOStream.get_default().print)
    container = run_owned_container(
        client,
        force_remove=True,
        image=image,
        command=[program, filename],
        working_dir=WORKSPACE,
        volumes={str(work_dir.resolve()): {"bind": WORKSPACE, "mode": "rw"}},
    )
    try:
        if not _wait(container, timeout):
            return 1, TIMEOUT_MSG, image
        exit_code = int(container.attrs.get("State", {}).get("ExitCode", 1))
        logs = container.logs(stdout=True, stderr=True).decode("utf-8", errors="replace")
        tag = docker_tag(filename)
        _commit(client, container, "python", tag)
    finally:
        stop_owned_container(client, container.id, force_remove=True)
    if exit_code:
        # Keep tracebacks free of the container's paths, as the classic logs are.
        logs = logs.replace(f"{WORKSPACE}/{filename if generated else ''}", "")
    return exit_code, logs, f"python:{tag}"


def _commit(client: Any, container: Any, repository: str, tag: str) -> None:
    """Commit ``container`` as ``repository:tag``; the image that had this tag before is removed when unused."""
    docker = import_docker()
    try:
        previous = client.images.get(f"{repository}:{tag}").id
    except docker.errors.ImageNotFound:
        previous = None
    image = container.commit(repository=repository, tag=tag, changes=clear_owner_labels_changes())
    if previous is not None and previous != image.id:
        try:
            client.images.remove(previous)
        except docker.errors.APIError:
            pass  # still used (by a container, or as the base of the new image): it stays


def _wait(container: Any, timeout: float) -> bool:
    """Wait for ``container`` to exit; False when ``timeout`` passed first."""
    import requests

    try:
        container.wait(timeout=timeout)
    except (requests.exceptions.ReadTimeout, requests.exceptions.ConnectionError):
        return False
    container.reload()
    return True
