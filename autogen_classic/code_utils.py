"""The classic ``autogen.code_utils`` module: code extraction and the classic ``execute_code``.

Everything here lives in ``autogen_classic.coding``; this module keeps the classic
import path (``from autogen.code_utils import extract_code``) working.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from .coding import docker as _docker
from .coding.docker import check_can_use_docker_or_throw, decide_use_docker, in_docker_container, is_docker_running
from .coding.execute import (
    DEFAULT_TIMEOUT,
    PATH_SEPARATOR,
    SENTINEL,
    TIMEOUT_MSG,
    WIN32,
    WORKING_DIR,
    execute_code,
    get_powershell_command,
    timeout_handler,
)
from .coding.utils import CODE_BLOCK_PATTERN, PYTHON_VARIANTS, UNKNOWN, content_str, extract_code, infer_lang
from .coding.legacy_completion import (
    PassAssertionFilter,
    eval_function_completions,
    generate_assertions,
    generate_code,
    implement,
    improve_code,
    improve_function,
)
from .coding.running.virtual_env import create_virtual_env
from .types import UserMessageImageContentPart, UserMessageTextContentPart

__all__ = [
    "CODE_BLOCK_PATTERN",
    "DEFAULT_MODEL",
    "DEFAULT_TIMEOUT",
    "FAST_MODEL",
    "PassAssertionFilter",
    "PATH_SEPARATOR",
    "PYTHON_VARIANTS",
    "SENTINEL",
    "TIMEOUT_MSG",
    "UNKNOWN",
    "WIN32",
    "WORKING_DIR",
    "UserMessageImageContentPart",
    "UserMessageTextContentPart",
    "check_can_use_docker_or_throw",
    "content_str",
    "create_virtual_env",
    "decide_use_docker",
    "eval_function_completions",
    "execute_code",
    "extract_code",
    "generate_assertions",
    "generate_code",
    "get_powershell_command",
    "implement",
    "improve_code",
    "improve_function",
    "in_docker_container",
    "infer_lang",
    "is_docker_running",
    "timeout_handler",
]

DEFAULT_MODEL = "gpt-5"  # autogen 0.14 (ag2 0.7.3: "gpt-4")
FAST_MODEL = "gpt-5-nano"  # autogen 0.14 (ag2 0.7.3: "gpt-3.5-turbo")

# Classic tests replace these on this module (mock.patch / monkeypatch); the code that
# calls them lives in ``coding.docker``, so a replacement is passed on to it.
_FORWARDED_TO_DOCKER = frozenset({"in_docker_container", "is_docker_running", "decide_use_docker"})


class _CodeUtilsModule(types.ModuleType):
    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        if name in _FORWARDED_TO_DOCKER:
            setattr(_docker, name, value)


sys.modules[__name__].__class__ = _CodeUtilsModule
