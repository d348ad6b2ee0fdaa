"""``DockerCommandLineCodeExecutor``: save each code block to a file and run it in a Docker container.

Used with ``code_execution_config={"executor": DockerCommandLineCodeExecutor(...)}`` or
``{"executor": "commandline-docker", "commandline-docker": {...}}``. One container per executor
runs until the executor is stopped; the working directory is mounted in it at ``/workspace``.
Needs the optional ``docker`` package (``pip install "autogen-classic[docker]"``) and an engine.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar

from ...import_utils import require_optional_import
from ..base import CodeBlock, CommandLineCodeResult
from ..running.code_files import DEFAULT_EXECUTION_POLICY, generated_filename, merge_execution_policies, save_code_block
from ..running.file_blocks import BlockFailed, FileCodeExecutor, FileRun
from .engine import (
    connect,
    ensure_image,
    import_docker,
    release_at_exit,
    remove_at_exit,
    run_owned_container,
    stop_owned_container,
)
from ..utils import silence_pip

__all__ = ["DockerCommandLineCodeExecutor"]

logger = logging.getLogger(__name__)

WORKSPACE = "/workspace"
# The program that runs each language inside the container.
_PROGRAMS = {
    "python": "python",
    "bash": "bash",
    "sh": "sh",
    "shell": "sh",
    "javascript": "node",
    "pwsh": "pwsh",
    "powershell": "pwsh",
    "ps1": "pwsh",
}
# `timeout` inside the container ends a block; this much later the host ends everything it left running.
_KILL_GRACE_SECONDS = 5.0
_DRAIN_SECONDS = 5.0
_START_SECONDS = 60.0
# Options of the container this executor relies on: container_create_kwargs may change them, with a warning.
_RELIED_ON = ("entrypoint", "volumes", "working_dir", "tty")


@require_optional_import("docker", "docker")
class DockerCommandLineCodeExecutor(FileCodeExecutor):
    """Runs code blocks as files in a Docker container.

    The container is started when the executor is built and removed by ``stop()``, at the end of
    a ``with`` block, at interpreter exit (also after Ctrl-C) or, when the process was killed, by
    the next executor started on this machine. Python and shell (bash, shell, sh) run by default;
    PowerShell runs when the image has ``pwsh``; javascript, html and css are only saved (see
    ``execution_policies``). The image must have ``/bin/sh`` and ``timeout`` (coreutils or busybox).
    """

    DEFAULT_EXECUTION_POLICY: ClassVar[dict[str, bool]] = dict(DEFAULT_EXECUTION_POLICY)
    LANGUAGE_ALIASES: ClassVar[dict[str, str]] = {"py": "python", "js": "javascript"}

    def __init__(
        self,
        image: str = "python:3-slim",
        container_name: str | None = None,
        timeout: int = 60,
        work_dir: Path | str | None = None,
        bind_dir: Path | str | None = None,
        auto_remove: bool = True,
        stop_container: bool = True,
        execution_policies: dict[str, bool] | None = None,
        *,
        container_create_kwargs: dict[str, Any] | None = None,
    ):
        """Start the container.

        Args:
            image (str): the image to run the code in (default ``python:3-slim``); pulled when the
                engine does not have it.
            container_name (str, optional): the container's name; default ``autogen-code-exec-<uuid>``.
            timeout (int): seconds each code block may run (at least 1, default 60); a block that runs
                longer is killed and reported with exit code 124.
            work_dir (Path or str, optional): where the code files are saved on this machine; created if
                missing. Default (None): the current directory.
            bind_dir (Path or str, optional): the directory mounted at ``/workspace`` in the container;
                default ``work_dir``. Set it when this process itself runs in a container and talks to
                the host's engine: then it is the host's path of ``work_dir``.
            auto_remove (bool): remove the container when it stops (default True); False leaves the
                stopped container for inspection (``docker ps -a``).
            stop_container (bool): stop the container at interpreter exit (default True). False keeps
                it running after this program ends.
            execution_policies (dict, optional): language -> True (run) or False (save only),
                overriding ``DEFAULT_EXECUTION_POLICY``.
            container_create_kwargs (dict, optional): further options for creating the container, as the
                Docker SDK's ``containers.create`` takes them (``environment``, ``device_requests``, ``ports``,
                ``mem_limit`` ...). They win over the executor's own options; changing ``entrypoint``,
                ``volumes``, ``working_dir`` or ``tty`` logs a warning, and ``labels`` are added to the
                executor's own.

        Raises:
            ImportError: the ``docker`` package is missing.
            DockerEngineUnavailableError: no Docker engine answers (a ``docker.errors.DockerException``).
            DockerImageNotFoundError: the image is not on the engine and cannot be pulled
                (a ``docker.errors.ImageNotFound``).
            ValueError: ``timeout`` is below 1.
            TypeError: ``container_create_kwargs`` is not a dict of option names, or sets ``detach``.
        """
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
            raise TypeError(f"timeout must be a number of seconds (at least 1), got {timeout!r}")
        if timeout < 1:
            raise ValueError("Timeout must be greater than or equal to 1.")
        if not isinstance(image, str) or not image:
            raise TypeError(f"image must be the name of a Docker image (e.g. 'python:3-slim'), got {image!r}")
        for name, value in (("work_dir", work_dir), ("bind_dir", bind_dir)):
            if value is not None and not isinstance(value, (str, Path)):
                raise TypeError(f"{name} must be a str or Path, got {type(value).__name__}")
        self._create_kwargs = _checked_create_kwargs(container_create_kwargs)
        work_path = Path(work_dir) if work_dir is not None else Path()
        work_path.mkdir(parents=True, exist_ok=True)
        self._work_dir = work_path
        self._bind_dir = Path(bind_dir) if bind_dir is not None else work_path
        self._timeout = timeout
        self._image = self._create_kwargs.get("image", image)
        self._container_name = self._create_kwargs.get(
            "name", container_name if container_name is not None else f"autogen-code-exec-{uuid.uuid4()}"
        )
        self._auto_remove = self._create_kwargs.get("auto_remove", auto_remove)
        self._stop_container = stop_container
        self.execution_policies = merge_execution_policies(self.DEFAULT_EXECUTION_POLICY, execution_policies)
        self._client = connect()
        ensure_image(self._client, [self._image], say=logger.info)
        self._container: Any = None
        self._stopped = True
        self._start()

    # ------------------------------------------------------------------ properties

    @property
    def bind_dir(self) -> Path:
        """The directory mounted at ``/workspace`` in the container."""
        return self._bind_dir

    # ------------------------------------------------------------------ the container

    def _start(self) -> None:
        options: dict[str, Any] = {
            "image": self._image,
            "name": self._container_name,
            "entrypoint": "/bin/sh",
            "tty": True,
            "auto_remove": self._auto_remove,
            "volumes": {str(self._bind_dir.resolve()): {"bind": WORKSPACE, "mode": "rw"}},
            "working_dir": WORKSPACE,
        }
        for key in _RELIED_ON:
            if key in self._create_kwargs:
                logger.warning("DockerCommandLineCodeExecutor: overriding default %s=%s", key, self._create_kwargs[key])
        options.update(self._create_kwargs)
        options["labels"] = dict(self._create_kwargs.get("labels") or {})
        # Without stop_container the container outlives this process on purpose.
        self._container = run_owned_container(
            self._client, owned=self._stop_container, force_remove=self._auto_remove, **options
        )
        self._stopped = False
        self._wait_until_running()

    def _wait_until_running(self) -> None:
        deadline = time.monotonic() + _START_SECONDS
        while True:
            self._container.reload()
            status = self._container.status
            if status == "running":
                return
            if status in ("exited", "dead") or time.monotonic() > deadline:
                raise RuntimeError(
                    f"The container {self._container_name} (image {self._image}) did not start: status {status!r}. "
                    "The image must provide /bin/sh; `docker logs` of the container tells more."
                )
            time.sleep(0.1)

    def stop(self) -> None:
        """Stop the container (removed too when ``auto_remove``); stopping twice is fine."""
        if self._stopped:
            return
        self._stopped = True
        stop_owned_container(self._client, self._container.id, force_remove=self._auto_remove)

    def restart(self) -> None:
        """Restart: every process the code left running in the container ends; the files stay.

        The container itself (and what the code installed in it) is kept, as by ``docker restart``,
        but the engine's restart is not used: on an auto-removed container it can race with the
        removal. A stopped container is started again; a removed one is replaced by a new one.
        """
        docker = import_docker()
        try:
            self._container.reload()
        except docker.errors.NotFound:
            release_at_exit([self._container.id])
            self._start()
            return
        if self._container.status == "running" and not self._stopped:
            self._kill_all_processes()
            return
        self._container.start()
        self._stopped = False
        if self._stop_container:
            remove_at_exit(self._client, self._container.id, force_remove=self._auto_remove)
        self._wait_until_running()

    def __enter__(self) -> DockerCommandLineCodeExecutor:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> None:
        self.stop()

    # ------------------------------------------------------------------ running code

    def execute_code_blocks(self, code_blocks: list[CodeBlock]) -> CommandLineCodeResult:
        """Save and run ``code_blocks`` in order in the container, stopping at the first failure.

        Args:
            code_blocks (list[CodeBlock]): the blocks to run.

        Returns:
            CommandLineCodeResult: the exit code of the last block run (124 when it timed out), the
            output (stdout and stderr as they came) of every block, and the file of the first block.

        Raises:
            RuntimeError: the executor was stopped (``stop()``); ``restart()`` starts it again.
        """
        if self._stopped:
            raise RuntimeError(
                f"The container {self._container_name} of this DockerCommandLineCodeExecutor was stopped; "
                "call restart() to start it again, or create a new executor."
            )
        return self._run_blocks(code_blocks)

    def _prepare(self, block: CodeBlock) -> tuple[str, str]:
        lang = block.language.lower()
        lang = self.LANGUAGE_ALIASES.get(lang, lang)
        if lang not in self.DEFAULT_EXECUTION_POLICY:
            raise BlockFailed(f"Unsupported language {lang}\n")
        return lang, silence_pip(block.code, lang)

    def _save(self, code: str, lang: str) -> Path:
        return save_code_block(code, self._work_dir, generated_filename(code, lang))

    def _run_file(self, lang: str, path: Path) -> FileRun:
        program = _PROGRAMS.get(lang)
        if program is None:
            raise BlockFailed(f"{lang} not recognized in code execution")
        relative = path.relative_to(self._work_dir).as_posix()
        exit_code, output, timed_out = self._run(["timeout", str(self._timeout), program, relative])
        return FileRun(exit_code=exit_code, output=output, timed_out=timed_out)

    def _run(self, cmd: list[str]) -> tuple[int, str, bool]:
        """Run ``cmd`` in the container; return (exit code, output, timed out)."""
        api = self._client.api
        exec_id = api.exec_create(self._container.id, cmd, workdir=WORKSPACE, stdout=True, stderr=True, tty=False)
        stream = api.exec_start(exec_id, stream=True, demux=False)
        chunks: list[bytes] = []
        finished = threading.Event()

        def pump() -> None:
            try:
                for chunk in stream:
                    chunks.append(chunk)
            except Exception as err:  # noqa: BLE001 - a broken stream ends the block, reported below
                logger.debug("Output stream of %s ended: %s", self._container_name, err)
            finally:
                finished.set()

        threading.Thread(target=pump, name="docker-exec-output", daemon=True).start()
        # `timeout` ends the block in time; a process that ignores SIGTERM or keeps the output open
        # (a background child) is ended from here, with everything else the code started.
        timed_out = not finished.wait(self._timeout + _KILL_GRACE_SECONDS)
        if timed_out:
            self._kill_all_processes()
            finished.wait(_DRAIN_SECONDS)
        exit_code = api.exec_inspect(exec_id).get("ExitCode")
        output = b"".join(chunks).decode("utf-8", errors="replace")
        if exit_code == 124:
            timed_out = True
        return (exit_code if exit_code is not None else -9), output, timed_out

    def _kill_all_processes(self) -> None:
        # `kill -1` signals every process of the container but the shell at its root (pid 1).
        docker = import_docker()
        try:
            self._container.exec_run(["sh", "-c", "kill -9 -1"], detach=False)
        except docker.errors.APIError as err:
            logger.warning("Could not end the processes of %s: %s", self._container_name, err)


def _checked_create_kwargs(container_create_kwargs: Any) -> dict[str, Any]:
    """A copy of ``container_create_kwargs`` (None: no options); a clear error for what cannot be passed on."""
    if container_create_kwargs is None:
        return {}
    if not isinstance(container_create_kwargs, dict) or not all(isinstance(k, str) for k in container_create_kwargs):
        raise TypeError(
            "container_create_kwargs must be a dict of docker containers.create options (e.g. "
            f"{{'environment': {{'KEY': 'value'}}}}), got {type(container_create_kwargs).__name__} "
            f"{container_create_kwargs!r:.80}"
        )
    if "detach" in container_create_kwargs:
        raise TypeError(
            "container_create_kwargs cannot set 'detach': containers.create has no such option, and the "
            "executor always runs its container in the background. Remove the key."
        )
    checked = dict(container_create_kwargs)
    labels = checked.get("labels")
    if isinstance(labels, (list, tuple)) and all(isinstance(name, str) for name in labels):
        checked["labels"] = dict.fromkeys(labels, "")  # the SDK's list form: names with empty values
    elif labels is not None and not isinstance(labels, dict):
        raise TypeError(
            "container_create_kwargs['labels'] must be a dict of label -> value or a list of label names (the "
            f"executor adds its own), got {type(labels).__name__} {labels!r:.60}"
        )
    return checked
