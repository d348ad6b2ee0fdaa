"""Python virtual environments for executed code: creating one, and pinning its paths."""

from __future__ import annotations

import copy
import os
import venv
from types import SimpleNamespace
from typing import Any, Optional

__all__ = ["create_virtual_env", "absolute_env_context"]

# The path attributes of an ``EnvBuilder.ensure_directories`` context.
_PATH_ATTRIBUTES = ("env_dir", "bin_path", "env_exe", "env_exec_cmd", "inc_path", "lib_path", "cfg_path")


def create_virtual_env(dir_path: str, **env_args: Any) -> SimpleNamespace:
    """Create a Python virtual environment and return its context (for ``LocalCommandLineCodeExecutor``).

    Args:
        dir_path (str): where to create the environment.
        **env_args: arguments of ``venv.EnvBuilder``; when none are given, ``with_pip=True``.

    Returns:
        SimpleNamespace: the environment's context (``env_exe``, ``bin_path``, ...).
    """
    builder = venv.EnvBuilder(**(env_args or {"with_pip": True}))
    builder.create(dir_path)
    return builder.ensure_directories(dir_path)


def absolute_env_context(context: Optional[SimpleNamespace]) -> Optional[SimpleNamespace]:
    """Return a copy of ``context`` whose paths are absolute, resolved against the current directory.

    An environment made with a relative path (``create_virtual_env(".venv")``) must still be
    found when code runs with another working directory. Symlinks are kept as they are: a
    virtual environment's interpreter is a link that must not be followed.
    """
    if context is None:
        return None
    resolved = copy.copy(context)
    for name in _PATH_ATTRIBUTES:
        value = getattr(context, name, None)
        if isinstance(value, (str, os.PathLike)):
            setattr(resolved, name, os.path.abspath(value))
    return resolved
