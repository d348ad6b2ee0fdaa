"""The classic ``autogen.code_utils`` module: code extraction and local code execution.

Everything here lives in ``autogen_classic.coding``; this module keeps the classic
import path (``from autogen.code_utils import extract_code``) working.
"""

from __future__ import annotations

import venv
from types import SimpleNamespace
from typing import Any

from .coding.docker import check_can_use_docker_or_throw, decide_use_docker, in_docker_container, is_docker_running
from .coding.execute import (
    DEFAULT_TIMEOUT,
    PATH_SEPARATOR,
    SENTINEL,
    TIMEOUT_MSG,
    WIN32,
    WORKING_DIR,
    execute_code,
)
from .coding.utils import CODE_BLOCK_PATTERN, PYTHON_VARIANTS, UNKNOWN, content_str, extract_code, infer_lang

__all__ = [
    "CODE_BLOCK_PATTERN",
    "DEFAULT_MODEL",
    "DEFAULT_TIMEOUT",
    "FAST_MODEL",
    "PATH_SEPARATOR",
    "PYTHON_VARIANTS",
    "SENTINEL",
    "TIMEOUT_MSG",
    "UNKNOWN",
    "WIN32",
    "WORKING_DIR",
    "check_can_use_docker_or_throw",
    "content_str",
    "create_virtual_env",
    "decide_use_docker",
    "execute_code",
    "extract_code",
    "in_docker_container",
    "infer_lang",
    "is_docker_running",
]

DEFAULT_MODEL = "gpt-4"
FAST_MODEL = "gpt-3.5-turbo"


def create_virtual_env(dir_path: str, **env_args: Any) -> SimpleNamespace:
    """Create a Python virtual environment and return its context (for ``LocalCommandLineCodeExecutor``).

    Args:
        dir_path (str): where to create the environment.
        **env_args: arguments of ``venv.EnvBuilder``; default ``with_pip=True``.
    """
    builder = venv.EnvBuilder(**(env_args or {"with_pip": True}))
    builder.create(dir_path)
    return builder.ensure_directories(dir_path)
