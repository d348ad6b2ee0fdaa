"""Run one command with a time limit that ends everything it started.

The command gets a process group (session) of its own, so on timeout the whole
group is killed: a script that started helpers, shells or servers leaves none
of them behind, and no pipe held by a stray grandchild keeps the caller waiting.
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Optional, Union

__all__ = ["ProcessOutcome", "run_with_timeout", "kill_process_tree"]

# After a kill, how long to wait for the pipes to close before giving up on the
# remaining output (only a process that left the group can hold them open).
_DRAIN_SECONDS = 2.0


@dataclass(frozen=True)
class ProcessOutcome:
    """What a finished (or killed) command produced."""

    returncode: int
    stdout: str
    stderr: str
    timed_out: bool


def run_with_timeout(
    cmd: Sequence[str],
    *,
    cwd: Union[str, os.PathLike[str]],
    timeout: float,
    env: Optional[Mapping[str, str]] = None,
) -> ProcessOutcome:
    """Run ``cmd`` in ``cwd``, capturing stdout and stderr as text, for at most ``timeout`` seconds.

    Standard input is closed (``/dev/null``) so code that asks for input fails at once
    instead of waiting for a keyboard nobody watches. On timeout the command's whole
    process group is killed and ``timed_out`` is True.
    """
    proc = subprocess.Popen(
        list(cmd),
        cwd=cwd,
        env=dict(env) if env is not None else None,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        errors="replace",
        **_new_group_kwargs(),
    )
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_process_tree(proc)
        stdout, stderr = _drain(proc)
        return ProcessOutcome(proc.returncode if proc.returncode is not None else -9, stdout, stderr, True)
    except BaseException:
        # Interrupted (Ctrl-C, cancellation): leave nothing running behind us.
        kill_process_tree(proc)
        _drain(proc)
        raise
    return ProcessOutcome(proc.returncode, stdout or "", stderr or "", False)


def kill_process_tree(proc: subprocess.Popen) -> None:  # type: ignore[type-arg]
    """Kill ``proc`` and every process in its process group."""
    if os.name == "posix":
        try:
            # The group id is the leader's pid (start_new_session=True); it stays
            # valid while any member lives, even after the leader has exited.
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        return
    try:  # pragma: no cover - Windows
        subprocess.run(
            ["taskkill", "/F", "/T", "/PID", str(proc.pid)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
    except OSError:  # pragma: no cover - Windows
        proc.kill()


def _new_group_kwargs() -> dict[str, object]:
    if os.name == "posix":
        return {"start_new_session": True}
    return {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)}  # pragma: no cover


def _drain(proc: subprocess.Popen) -> tuple[str, str]:  # type: ignore[type-arg]
    """Collect what a killed process wrote, without hanging on pipes held elsewhere."""
    try:
        stdout, stderr = proc.communicate(timeout=_DRAIN_SECONDS)
        return stdout or "", stderr or ""
    except subprocess.TimeoutExpired:
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
        proc.kill()
        proc.wait()
        return "", ""
