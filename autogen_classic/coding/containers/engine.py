"""The Docker engine through the ``docker`` Python SDK: connecting, images, and the containers we own.

Needs the optional ``docker`` package (``pip install "autogen-classic[docker]"``), imported on
first use only. Every container started here is removed again:

- when its executor is stopped or closed (``stop()``, ``with`` block);
- at interpreter exit (``atexit``), which also covers Ctrl-C in the main program;
- otherwise (the process was killed, the machine lost power) by the next process that starts a
  container here: containers carry owner labels (pid, process start time, host, boot), and those
  whose owner is gone are removed.
"""

from __future__ import annotations

import atexit
import logging
import os
import socket
import threading
from collections.abc import Iterable, Sequence
from typing import Any, Callable, Optional

from ...import_utils import import_optional

__all__ = [
    "DEFAULT_DOCKER_HOST",
    "DOCKER_EXTRA_HINT",
    "OWNER_LABELS",
    "OWNER_PID_LABEL",
    "TEST_IMAGE",
    "TEST_IMAGE_BUILD",
    "DockerEngineUnavailableError",
    "DockerImageNotFoundError",
    "clear_owner_labels_changes",
    "connect",
    "engine_unreachable_message",
    "ensure_image",
    "import_docker",
    "owner_labels",
    "release_at_exit",
    "remove_container",
    "remove_orphaned_containers",
    "remove_at_exit",
    "run_owned_container",
    "stop_owned_container",
]

logger = logging.getLogger(__name__)

DOCKER_EXTRA_HINT = 'pip install "autogen-classic[docker]"'
DEFAULT_DOCKER_HOST = "unix:///var/run/docker.sock"
# The image this package's own tests run in, built without any image registry.
TEST_IMAGE = "autogen-classic-test:bookworm"
TEST_IMAGE_BUILD = "bash .ci/docker_engine.sh"

OWNER_PID_LABEL = "autogen-classic.owner-pid"
OWNER_START_LABEL = "autogen-classic.owner-start"
OWNER_HOST_LABEL = "autogen-classic.owner-host"
OWNER_BOOT_LABEL = "autogen-classic.owner-boot"
OWNER_LABELS = (OWNER_PID_LABEL, OWNER_START_LABEL, OWNER_HOST_LABEL, OWNER_BOOT_LABEL)

try:  # the classic exception types, so ``except docker.errors.DockerException`` keeps working
    from docker.errors import DockerException as _DockerException  # type: ignore[import-untyped]
    from docker.errors import ImageNotFound as _ImageNotFound  # type: ignore[import-untyped]
except ImportError:  # without the extra, where building an executor raises ImportError first

    class _DockerException(Exception):  # type: ignore[no-redef]
        """Stands in for ``docker.errors.DockerException`` when the docker package is not installed."""

    class _ImageNotFound(_DockerException):  # type: ignore[no-redef]
        """Stands in for ``docker.errors.ImageNotFound`` when the docker package is not installed."""


class DockerEngineUnavailableError(_DockerException, RuntimeError):  # type: ignore[misc]
    """No Docker engine answers. A ``docker.errors.DockerException`` (what classic AutoGen raises)
    and a ``RuntimeError``; the message names the address tried and how to fix it."""


class DockerImageNotFoundError(_ImageNotFound):  # type: ignore[misc]
    """The image is not on the engine and could not be pulled. A ``docker.errors.ImageNotFound``
    (so also the ``APIError`` classic AutoGen raises); the message names the image and the fix."""


def import_docker() -> Any:
    """Return the ``docker`` module, or raise ``ImportError`` with the install line."""
    return import_optional("docker", needed_by="Running code in Docker", install_hint=DOCKER_EXTRA_HINT)


def engine_unreachable_message(detail: object) -> str:
    """The error text for an engine that does not answer: the address tried, the cause, and the fixes."""
    host = os.environ.get("DOCKER_HOST")
    where = f"DOCKER_HOST={host}" if host else f"{DEFAULT_DOCKER_HOST} (DOCKER_HOST is not set)"
    address = host or DEFAULT_DOCKER_HOST
    if address.startswith("unix://"):
        path = address[len("unix://") :]
        where += f"; the socket {path} {'exists' if os.path.exists(path) else 'does not exist'}"
    return (
        f"No Docker engine answers at {where}: {detail}.\n"
        "Start Docker (Docker Desktop, `sudo systemctl start docker` or `sudo dockerd &`), or set DOCKER_HOST "
        "to the address of your engine (for rootless Docker: unix://$XDG_RUNTIME_DIR/docker.sock).\n"
        'To run the code on this machine instead: LocalCommandLineCodeExecutor, or "use_docker": False in '
        "code_execution_config."
    )


def connect() -> Any:
    """Return a ``docker.DockerClient`` for the engine of the environment (``DOCKER_HOST``, else the local socket).

    Raises:
        ImportError: the ``docker`` package is not installed.
        DockerEngineUnavailableError: no engine answers.
    """
    docker = import_docker()
    try:
        client = docker.from_env()
        client.ping()
    except (docker.errors.DockerException, OSError) as err:  # requests' errors are OSErrors
        raise DockerEngineUnavailableError(engine_unreachable_message(_short(err))) from err
    return client


def _short(err: BaseException) -> str:
    # An engine error's explanation is the useful part; its str() repeats the request URL.
    text = str(getattr(err, "explanation", None) or err).strip() or type(err).__name__
    return text if len(text) <= 300 else text[:297] + "..."


def ensure_image(client: Any, images: Sequence[str], say: Optional[Callable[[str], None]] = None) -> str:
    """Return the first of ``images`` that is on the engine, pulling the missing ones in turn.

    Args:
        client: a ``docker.DockerClient``.
        images (list[str]): the images to try, in order.
        say (callable, optional): where to report pulls (``"Pulling image X"``, ``"Failed to pull image X"``).

    Raises:
        DockerImageNotFoundError: none is on the engine and none could be pulled.
    """
    docker = import_docker()
    failures: list[str] = []
    for image in images:
        try:
            client.images.get(image)
            return image
        except docker.errors.ImageNotFound:
            pass
        if say is not None:
            say(f"Pulling image {image}")
        try:
            client.images.pull(image)
            return image
        except (docker.errors.APIError, OSError) as err:
            failures.append(f"{image}: {_short(err)}")
            if say is not None:
                say(f"Failed to pull image {image}")
    raise DockerImageNotFoundError(missing_image_message(images, failures))


def missing_image_message(images: Sequence[str], failures: Sequence[str] = ()) -> str:
    """The error text for images that are neither on the engine nor pullable, with the commands that fix it."""
    names = ", ".join(images)
    fixes = [f"`docker pull {image}`" if image != TEST_IMAGE else f"`{TEST_IMAGE_BUILD}`" for image in images]
    text = f"Docker image not found: {names} is not on the Docker engine and could not be pulled."
    if failures:
        text += " (" + "; ".join(failures) + ")"
    text += (
        f"\nMake it available with {' or '.join(fixes)} (or `docker build -t <name> .` for your own image), "
        "or pass the name of an image the engine has (`docker images` lists them)."
    )
    return text


# --------------------------------------------------------------------------- owner labels


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().strip()
    except OSError:
        return ""


def _start_time(pid: int) -> str:
    """The start time of process ``pid`` (clock ticks since boot), "" when unknown (no /proc)."""
    stat = _read(f"/proc/{pid}/stat")
    # The command name (field 2) may hold spaces and parentheses: count fields after the last ")".
    fields = stat.rpartition(")")[2].split()
    return fields[19] if len(fields) > 19 else ""


def _host_identity() -> str:
    # Pids mean something only within one pid namespace on one host.
    namespace = ""
    try:
        namespace = os.readlink("/proc/self/ns/pid")
    except OSError:
        pass
    return f"{socket.gethostname()}/{namespace}"


def owner_labels() -> dict[str, str]:
    """The labels that tie a container to this process (pid, start time, host and pid namespace, boot)."""
    pid = os.getpid()
    return {
        OWNER_PID_LABEL: str(pid),
        OWNER_START_LABEL: _start_time(pid),
        OWNER_HOST_LABEL: _host_identity(),
        OWNER_BOOT_LABEL: _read("/proc/sys/kernel/random/boot_id"),
    }


def clear_owner_labels_changes() -> list[str]:
    """Dockerfile ``LABEL`` changes for ``commit``: an image must not pass our owner labels on to its containers."""
    return [f'LABEL {label}=""' for label in OWNER_LABELS]


def _owner_gone(labels: dict[str, str], here: dict[str, str]) -> bool:
    """Whether the owner of a container with ``labels``, started on this host, no longer runs."""
    try:
        pid = int(labels.get(OWNER_PID_LABEL, ""))
    except ValueError:
        return False  # not ours (e.g. a container of an image committed from one of ours)
    if labels.get(OWNER_HOST_LABEL) != here[OWNER_HOST_LABEL]:
        return False  # another host or pid namespace: its pids mean nothing here
    if labels.get(OWNER_BOOT_LABEL, "") != here[OWNER_BOOT_LABEL]:
        return True  # started before the last reboot
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        pass  # alive, another user's
    started = labels.get(OWNER_START_LABEL, "")
    current = _start_time(pid)
    return bool(started and current and started != current)  # the pid was reused


def remove_orphaned_containers(client: Any) -> list[str]:
    """Remove the containers started on this host by processes that no longer run; return their names."""
    here = owner_labels()
    removed: list[str] = []
    try:
        candidates = client.containers.list(all=True, filters={"label": OWNER_PID_LABEL})
    except Exception as err:  # noqa: BLE001 - cleaning up must never stop the work
        logger.warning("Could not list containers to remove leftovers: %s", err)
        return removed
    for container in candidates:
        if _owner_gone(container.labels or {}, here):
            if remove_container(client, container.id, force_remove=True):
                removed.append(container.name)
    if removed:
        logger.info("Removed containers left behind by processes that ended: %s", ", ".join(removed))
    return removed


def remove_container(client: Any, container_id: str, *, force_remove: bool = True) -> bool:
    """Stop a container at once: remove it (``force_remove``) or kill it and leave it stopped.

    Returns True when the container was running or present; a container already gone is fine.
    """
    docker = import_docker()
    try:
        container = client.containers.get(container_id)
        if force_remove:
            container.remove(force=True)
        elif container.status in ("running", "restarting", "paused"):
            container.kill()
        return True
    except docker.errors.NotFound:
        return False
    except docker.errors.APIError as err:
        if err.status_code in (404, 409):  # gone, or its removal is already under way
            return False
        raise


def run_owned_container(client: Any, *, owned: bool = True, force_remove: bool, **options: Any) -> Any:
    """Start a detached container, first removing the containers that ended processes left behind.

    Args:
        client: a ``docker.DockerClient``.
        owned (bool): tie the container to this process (owner labels, added to ``options["labels"]``) and
            stop it at interpreter exit. False: it outlives this process on purpose, and no later process
            takes it for a leftover.
        force_remove (bool): at exit, remove the container (True) or only kill it.
        **options: the options of ``containers.run`` (``image``, ``command``, ``volumes`` ...).
    """
    remove_orphaned_containers(client)
    if owned:
        options["labels"] = {**(options.get("labels") or {}), **owner_labels()}
    container = client.containers.run(detach=True, **options)
    if owned:
        remove_at_exit(client, container.id, force_remove=force_remove)
    return container


def stop_owned_container(client: Any, container_id: str, *, force_remove: bool) -> None:
    """Stop a container now (removed when ``force_remove``, else killed) and no longer at exit."""
    release_at_exit([container_id])
    remove_container(client, container_id, force_remove=force_remove)


# --------------------------------------------------------------------------- at exit

_at_exit: dict[str, tuple[Any, bool]] = {}
_at_exit_lock = threading.Lock()
_hook_installed = False


def remove_at_exit(client: Any, container_id: str, *, force_remove: bool) -> None:
    """Stop the container at interpreter exit (Ctrl-C included), unless ``release_at_exit`` came first."""
    global _hook_installed
    with _at_exit_lock:
        _at_exit[container_id] = (client, force_remove)
        if not _hook_installed:
            atexit.register(_stop_all)
            _hook_installed = True


def release_at_exit(container_ids: Iterable[str]) -> None:
    """Forget containers that have been stopped already."""
    with _at_exit_lock:
        for container_id in container_ids:
            _at_exit.pop(container_id, None)


def _stop_all() -> None:
    with _at_exit_lock:
        pending = list(_at_exit.items())
        _at_exit.clear()
    for container_id, (client, force_remove) in pending:
        try:
            remove_container(client, container_id, force_remove=force_remove)
        except Exception as err:  # noqa: BLE001 - the others must still be stopped
            logger.warning("Could not stop container %s at exit: %s", container_id[:12], err)
