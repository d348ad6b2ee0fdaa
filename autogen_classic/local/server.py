"""The embedded model server: SmolLM2 on llama.cpp (the prebuilt ``xllamacpp`` engine) in a child process,
behind an OpenAI-compatible HTTP front on 127.0.0.1 (``server_process.py``)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any

from ._process import HOST, answers, bind_probe, completes, free_port, parent_death_hook, thread_count
from .model_file import ENGINE_REQUIREMENT, MODEL_NAME, check_available
from .tool_calls import CHAT_FORMAT, MODEL_TEMPLATE

__all__ = [
    "HOST",
    "MODEL_CONTEXT",
    "MODEL_TEMPLATE",
    "N_CTX_ENV",
    "STARTUP_TIMEOUT",
    "TOOL_CHAT_FORMAT",
    "EmbeddedServer",
    "EmbeddedServerError",
    "PortInUseError",
    "check_port",
    "default_n_ctx",
]

STARTUP_TIMEOUT = 120.0
MODEL_CONTEXT = 8192
"""SmolLM2-135M-Instruct's full context window in tokens: the server's default context size."""
N_CTX_ENV = "AUTOGEN_CLASSIC_LOCAL_N_CTX"
"""When set, the context size of servers started without an explicit ``n_ctx``."""
TOOL_CHAT_FORMAT = CHAT_FORMAT
"""The default chat format: the model's own template, plus tool calls (``tool_calls.py``)."""
CHAT_FORMATS = (TOOL_CHAT_FORMAT, MODEL_TEMPLATE)
# The server process starts from this file, by path: importing it through the package would load all of
# autogen_classic there (seconds of start-up) for modules that need only the standard library and the engine.
_SERVER_ENTRY = Path(__file__).with_name("server_process.py")
_PORT_ATTEMPTS = 3
_IN_USE_MARKER = "address already in use"


class EmbeddedServerError(RuntimeError):
    """The embedded model server process exited before it was ready or could not get a port."""


class PortInUseError(ValueError):
    """The port explicitly requested for the embedded model server is already in use."""


class _PortTaken(Exception):
    """Internal: the server lost the race for its port to another process."""


def _port_in_use(port: int) -> PortInUseError:
    return PortInUseError(
        f"port={port}: port {port} on {HOST} is already in use. "
        "Choose another port, or leave port out to use a free one."
    )


def check_port(port: int | None) -> None:
    """Raise TypeError/ValueError unless ``port`` is None or a valid TCP port number."""
    if port is None:
        return
    if isinstance(port, bool) or not isinstance(port, int):
        raise TypeError(f"port must be an int between 1 and 65535 or None, got {type(port).__name__}")
    if not 1 <= port <= 65535:
        raise ValueError(f"port must be between 1 and 65535 or None, got {port}")


def default_n_ctx() -> int:
    """The context size for a server started without ``n_ctx``: ``AUTOGEN_CLASSIC_LOCAL_N_CTX`` when
    set, else the model's full context (``MODEL_CONTEXT``)."""
    value = os.environ.get(N_CTX_ENV, "").strip()
    if not value:
        return MODEL_CONTEXT
    try:
        n_ctx = int(value)
    except ValueError:
        raise ValueError(f"{N_CTX_ENV} must be a whole number of tokens, e.g. 4096; got {value!r}") from None
    if n_ctx <= 0:
        raise ValueError(f"{N_CTX_ENV} must be a positive number of tokens, e.g. 4096; got {value!r}")
    return n_ctx


class EmbeddedServer:
    """SmolLM2-135M-Instruct behind llama.cpp's OpenAI-compatible server, in a child process.

    Args:
        port: the port on 127.0.0.1; None picks a free one (and retries if another process takes it first).
        n_ctx: the context size in tokens; None uses ``AUTOGEN_CLASSIC_LOCAL_N_CTX`` when set, else
            the model's full context of 8,192 tokens.
        n_threads: CPU threads for generation; None uses ``AUTOGEN_CLASSIC_LOCAL_THREADS`` when set, else
            one CPU fewer than available, between 1 and 4.
        startup_timeout: seconds to wait for the server to answer before giving up.
        chat_format: None (``TOOL_CHAT_FORMAT``): the model's own template, and OpenAI-style
            ``tool_calls`` for requests with ``tools``; ``MODEL_TEMPLATE``: the template alone (requests
            with tools get text answers).

    With every chat format the server takes ``content`` as a list of OpenAI content parts in any role
    (text parts joined one per line, an image as the text ``<image>``: the model reads text only) and
    assistant messages with ``"content": null``; see ``chat_request.py``.

    Use ``start()``/``stop()`` or ``with EmbeddedServer() as server: ...``.
    """

    def __init__(
        self,
        port: int | None = None,
        *,
        n_ctx: int | None = None,
        n_threads: int | None = None,
        startup_timeout: float = STARTUP_TIMEOUT,
        chat_format: str | None = None,
    ) -> None:
        check_port(port)
        if chat_format is not None and (not isinstance(chat_format, str) or chat_format.strip() not in CHAT_FORMATS):
            raise ValueError(
                f"chat_format must be {TOOL_CHAT_FORMAT!r} (tool calls; the default, also None) or "
                f"{MODEL_TEMPLATE!r} (the model's template alone); got {chat_format!r}"
            )
        self._chat_format = chat_format.strip() if chat_format is not None else TOOL_CHAT_FORMAT
        self._requested_port = port
        if n_ctx is not None and (isinstance(n_ctx, bool) or not isinstance(n_ctx, int) or n_ctx <= 0):
            raise ValueError(f"n_ctx must be a positive number of tokens or None, got {n_ctx!r}")
        self._n_ctx = n_ctx if n_ctx is not None else default_n_ctx()
        if n_threads is not None and (isinstance(n_threads, bool) or not isinstance(n_threads, int) or n_threads <= 0):
            raise ValueError(f"n_threads must be a positive number of CPU threads or None, got {n_threads!r}")
        self._n_threads = n_threads or thread_count()
        self._startup_timeout = startup_timeout
        self._port: int | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._log_path: Path | None = None
        self._owner_pid = os.getpid()

    @property
    def n_ctx(self) -> int:
        """The context size in tokens the server runs with."""
        return self._n_ctx

    @property
    def chat_format(self) -> str:
        """The llama.cpp chat format the server runs with (``TOOL_CHAT_FORMAT`` by default)."""
        return self._chat_format

    @property
    def port(self) -> int | None:
        """The port the server listens on (None before ``start()``)."""
        return self._port

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL, e.g. ``http://127.0.0.1:8123/v1``."""
        if self._port is None:
            raise EmbeddedServerError("The embedded model server has not been started; call start() first.")
        return f"http://{HOST}:{self._port}/v1"

    @property
    def pid(self) -> int | None:
        """The process id of the server (None when not started or stopped)."""
        return None if self._process is None else self._process.pid

    @property
    def log_path(self) -> Path | None:
        """The file receiving the server's output."""
        return self._log_path

    def is_alive(self) -> bool:
        """Whether this process started the server and it is still running."""
        # After a fork the child inherits this object but not the server: the parent owns it.
        return self._process is not None and self._owner_pid == os.getpid() and self._process.poll() is None

    def log_tail(self, lines: int = 30) -> str:
        """The last ``lines`` lines of the server log ("" when there is none)."""
        if self._log_path is None or not self._log_path.exists():
            return ""
        with open(self._log_path, "rb") as handle:
            handle.seek(max(0, self._log_path.stat().st_size - 16384))
            text = handle.read().decode("utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def start(self) -> EmbeddedServer:
        """Start the server and wait until it answers; a running server is left as is.

        Raises:
            LocalModelUnavailableError: the ``local`` extra is not installed.
            PortInUseError: the requested port is taken.
            EmbeddedServerError: the process exited early (the message holds the end of its log).
            TimeoutError: it did not answer within ``startup_timeout`` seconds.
        """
        if self.is_alive():
            return self
        model = check_available()
        requested = self._requested_port
        if requested is not None:
            try:
                bind_probe(requested)
            except OSError:
                raise _port_in_use(requested) from None
        deadline = time.monotonic() + self._startup_timeout
        for _ in range(1 if requested is not None else _PORT_ATTEMPTS):
            self._launch(model, requested if requested is not None else free_port())
            try:
                self._wait_until_ready(deadline)
                return self
            except _PortTaken:
                self.stop()
            except BaseException:  # e.g. KeyboardInterrupt while waiting: leave no server behind
                self._terminate()
                raise
        if requested is not None:
            raise _port_in_use(requested)
        raise EmbeddedServerError(
            f"The embedded model server lost the race for a free port {_PORT_ATTEMPTS} times; try again."
        )

    def _launch(self, model: Path, port: int) -> None:
        fd, log_name = tempfile.mkstemp(prefix=f"autogen-classic-smollm2-{port}-", suffix=".log")
        self._log_path, self._port, self._owner_pid = Path(log_name), port, os.getpid()
        command = [sys.executable, str(_SERVER_ENTRY)] + [
            "--model", str(model), "--model_alias", MODEL_NAME, "--chat_format", self._chat_format,
            "--host", HOST, "--port", str(port), "--n_ctx", str(self._n_ctx), "--n_threads", str(self._n_threads),
        ]  # fmt: skip
        options: dict[str, Any] = {}
        if os.name == "posix":
            # Its own session keeps a Ctrl-C meant for this program from killing the server under it.
            options["start_new_session"] = True
            hook = parent_death_hook()
            if hook is not None:
                options["preexec_fn"] = hook
        with os.fdopen(fd, "wb") as log:
            self._process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
                **options,
            )

    def _wait_until_ready(self, deadline: float) -> None:
        assert self._process is not None
        url = f"{self.base_url}/models"
        while True:
            code = self._process.poll()
            if code is not None:
                tail = self.log_tail()
                if _IN_USE_MARKER in tail.lower():
                    raise _PortTaken()
                self._process = None
                raise EmbeddedServerError(
                    f"The embedded model server exited with code {code} before it was ready. "
                    f"End of its log {self._log_path}:\n{tail}"
                )
            # A 200 counts only while our process lives: another server may hold a lost port.
            if answers(url) and self._process.poll() is None:
                self._check_inference()
                return
            if time.monotonic() > deadline:
                tail = self.log_tail()
                self._terminate()
                raise TimeoutError(
                    f"The embedded model server did not answer at {url} within {self._startup_timeout:.0f} s "
                    f"and was stopped. End of its log {self._log_path}:\n{tail}"
                )
            time.sleep(0.2)

    def _check_inference(self) -> None:
        """Evaluate a two-token prompt once, so an engine that crashes on real prompts fails here, clearly.

        A llama.cpp build with kernels this CPU cannot run may answer ``/models`` and then die on the first
        prompt; every chat would otherwise end in a bare "Connection error".
        """
        assert self._process is not None
        if completes(f"{self.base_url}/completions") or self._process.poll() is None:
            return
        code = self._process.poll()
        tail = self.log_tail()
        self._process = None
        raise EmbeddedServerError(
            f"The embedded model server crashed (exit code {code}) on its first prompt: the installed engine "
            f"does not run on this CPU. Reinstall the tested engine: pip install --force-reinstall "
            f"'{ENGINE_REQUIREMENT}', and report the CPU (lscpu) if it still crashes. "
            f"End of its log {self._log_path}:\n{tail}"
        )

    def _terminate(self, timeout: float = 10.0) -> None:
        process, self._process = self._process, None
        if process is None or self._owner_pid != os.getpid():
            return
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the server (SIGTERM, then SIGKILL after ``timeout`` seconds) and remove its log."""
        self._terminate(timeout)
        if self._log_path is not None and self._owner_pid == os.getpid():
            self._log_path.unlink(missing_ok=True)
            self._log_path = None

    def __enter__(self) -> EmbeddedServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        where = "not started" if self._port is None else f"base_url={self.base_url!r}"
        return f"EmbeddedServer({where}, pid={self.pid}, alive={self.is_alive()})"
