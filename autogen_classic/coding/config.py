"""Checking ``code_execution_config`` once, when an agent is built.

``resolve_code_execution_config`` turns what a user passed into the dict the reply
functions use (or False), so that every mistake surfaces at construction with a
message that names the key and the accepted values, not halfway through a chat.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from typing import Any, Literal, Union, cast

from . import docker as _docker
from .factory import CodeExecutorFactory

__all__ = [
    "CodeExecutionConfigError",
    "CodeExecutorFactory",
    "LEGACY_KEYS",
    "EXECUTOR_KEYS",
    "resolve_code_execution_config",
    "validate_last_n_messages",
]

LEGACY_KEYS = ("work_dir", "use_docker", "timeout", "last_n_messages")
EXECUTOR_KEYS = ("executor", "last_n_messages", "commandline-local", "commandline-docker", "ipython-embedded")


class CodeExecutionConfigError(TypeError, ValueError):
    """``code_execution_config`` is neither a dict nor False.

    A ``TypeError``, and also a ``ValueError`` because that is what classic code catches.
    """


def validate_last_n_messages(last_n_messages: Any) -> None:
    """Raise ``ValueError`` unless ``last_n_messages`` is a non-negative number or ``"auto"``."""
    is_number = isinstance(last_n_messages, (int, float))
    if not ((is_number and last_n_messages >= 0) or last_n_messages == "auto"):
        raise ValueError("last_n_messages must be either a non-negative integer, or the string 'auto'.")


def resolve_code_execution_config(
    code_execution_config: Union[dict[str, Any], Literal[False], None],
) -> Union[dict[str, Any], Literal[False]]:
    """Validate ``code_execution_config`` and return the config the agent keeps.

    Args:
        code_execution_config (dict or False): False disables code execution. A dict runs code
            locally with the keys ``work_dir`` (default: the package's ``extensions`` folder,
            created if missing), ``use_docker`` (unset: ``AUTOGEN_USE_DOCKER`` decides, default
            True: the code runs in a Docker container), ``timeout`` (seconds; None or 0 means 600)
            and ``last_n_messages`` (non-negative int or ``"auto"``, the default). Alternatively
            ``executor`` (``"commandline-local"``, ``"commandline-docker"`` or a ``CodeExecutor``)
            with ``last_n_messages``.
            None is deprecated and means ``{}``.

    Returns:
        False, or a new dict: for the classic keys with ``use_docker`` decided; for an
        executor config with ``"executor"`` replaced by the executor instance.

    Raises:
        CodeExecutionConfigError: not a dict, False or None (a ``TypeError`` and ``ValueError``).
        TypeError, ValueError: a key has a wrong type or value (e.g. ``timeout="10"``).
        RuntimeError: the code would run in Docker (``use_docker`` truthy and this process not
            inside a container) and no engine answers. The message says how to run locally instead.
        ImportError: the code would run in Docker and the ``docker`` package is missing.
    """
    if code_execution_config is False:
        return False
    if code_execution_config is None:
        warnings.warn(
            "Using None to signal a default code_execution_config is deprecated. "
            "Use {} to use default or False to disable code execution.",
            stacklevel=3,
        )
        code_execution_config = {}
    if not isinstance(code_execution_config, dict):
        raise CodeExecutionConfigError(
            "code_execution_config must be a dict or False, "
            f"got {code_execution_config!r} ({type(code_execution_config).__name__}). "
            'Use for example {"work_dir": "coding", "use_docker": False} to run code locally, '
            "or False to disable code execution."
        )
    config = dict(code_execution_config)
    if "last_n_messages" in config:
        validate_last_n_messages(config["last_n_messages"])

    if config.get("executor") is not None:
        for key in ("use_docker", "work_dir", "timeout"):
            if key in config:
                raise ValueError(
                    f"'{key}' in code_execution_config is not valid when 'executor' is set. "
                    "Use the appropriate arg in the chosen executor instead."
                )
        _warn_unknown_keys(config, EXECUTOR_KEYS)
        config["executor"] = CodeExecutorFactory.create(cast(Any, config))
        return config

    _warn_unknown_keys(config, LEGACY_KEYS + ("executor",))
    _check_timeout(config.get("timeout"))
    work_dir = config.get("work_dir")
    if work_dir is not None and not isinstance(work_dir, (str, os.PathLike)):
        raise TypeError(
            f'code_execution_config["work_dir"] must be a str or Path (or None for the default), got {work_dir!r}'
        )
    use_docker = _docker.decide_use_docker(config.get("use_docker"))
    # The classic check_can_use_docker_or_throw, and the docker package: at construction, not mid-chat.
    _docker.require_docker_execution(use_docker)
    config["use_docker"] = use_docker
    return config


def _check_timeout(timeout: Any) -> None:
    # None and 0 mean the default; a negative value times out at once, as in the classic package.
    if timeout is not None and not isinstance(timeout, (int, float)):
        raise TypeError(f'code_execution_config["timeout"] must be a number of seconds, got {timeout!r}')


def _warn_unknown_keys(config: Mapping[str, Any], accepted: tuple[str, ...]) -> None:
    unknown = sorted(str(key) for key in config if key not in accepted)
    if unknown:
        warnings.warn(
            f"code_execution_config has keys that the built-in code execution ignores: {', '.join(unknown)}. "
            f"Accepted keys: {', '.join(accepted)}.",
            stacklevel=4,
        )
