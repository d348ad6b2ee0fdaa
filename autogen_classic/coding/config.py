"""Checking ``code_execution_config`` once, when an agent is built.

``resolve_code_execution_config`` turns what a user passed into the dict the reply
functions use (or False), so that every mistake surfaces at construction with a
message that names the key and the accepted values, not halfway through a chat.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from typing import Any, Literal, Union

from .base import CodeExecutor
from .docker import check_can_use_docker_or_throw, decide_use_docker
from .local_commandline_code_executor import LocalCommandLineCodeExecutor

__all__ = [
    "CodeExecutionConfigError",
    "CodeExecutorFactory",
    "LEGACY_KEYS",
    "EXECUTOR_KEYS",
    "resolve_code_execution_config",
    "validate_last_n_messages",
]

LEGACY_KEYS = ("work_dir", "use_docker", "timeout", "last_n_messages")
EXECUTOR_KEYS = ("executor", "last_n_messages", "commandline-local", "ipython-embedded")


class CodeExecutionConfigError(TypeError, ValueError):
    """``code_execution_config`` is neither a dict nor False.

    A ``TypeError``, and also a ``ValueError`` because that is what classic code catches.
    """


class CodeExecutorFactory:
    """Builds the executor named by ``code_execution_config["executor"]``."""

    @staticmethod
    def create(code_execution_config: Mapping[str, Any]) -> CodeExecutor:
        """Return the executor for ``code_execution_config``.

        Args:
            code_execution_config (dict): must hold ``"executor"``: a ``CodeExecutor`` instance
                (returned as is) or ``"commandline-local"`` (built from the optional
                ``"commandline-local"`` dict of ``LocalCommandLineCodeExecutor`` arguments).

        Raises:
            ValueError: the executor is unknown or not available here.
        """
        executor = code_execution_config.get("executor")
        if isinstance(executor, CodeExecutor):
            return executor
        if executor == "commandline-local":
            kwargs = code_execution_config.get("commandline-local", {})
            if not isinstance(kwargs, Mapping):
                raise TypeError(
                    'code_execution_config["commandline-local"] must be a dict of '
                    f"LocalCommandLineCodeExecutor arguments, got {type(kwargs).__name__}"
                )
            return LocalCommandLineCodeExecutor(**kwargs)
        if executor == "ipython-embedded":
            raise ValueError(
                'code_execution_config["executor"] = "ipython-embedded" is not available in autogen_classic; '
                'use "commandline-local" or a LocalCommandLineCodeExecutor instance.'
            )
        raise ValueError(
            f"Unknown code executor {executor}. "
            'code_execution_config["executor"] accepts "commandline-local" or a CodeExecutor instance '
            "(for example LocalCommandLineCodeExecutor(work_dir=...))."
        )


def validate_last_n_messages(last_n_messages: Any) -> None:
    """Raise ``ValueError`` unless ``last_n_messages`` is a non-negative number or ``"auto"``."""
    is_number = isinstance(last_n_messages, (int, float)) and not isinstance(last_n_messages, bool)
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
            True), ``timeout`` (seconds, positive; default 600) and ``last_n_messages``
            (non-negative int or ``"auto"``, the default). Alternatively ``executor``
            (``"commandline-local"`` or a ``CodeExecutor``) with ``last_n_messages``.
            None is deprecated and means ``{}``.

    Returns:
        False, or a new dict: for the classic keys with ``use_docker`` decided; for an
        executor config with ``"executor"`` replaced by the executor instance.

    Raises:
        CodeExecutionConfigError: not a dict, False or None (a ``TypeError`` and ``ValueError``).
        TypeError, ValueError: a key has a wrong type or value (e.g. ``timeout`` <= 0).
        RuntimeError: Docker is requested; the message says how to run locally instead.
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
        config["executor"] = CodeExecutorFactory.create(config)
        return config

    _warn_unknown_keys(config, LEGACY_KEYS + ("executor",))
    _check_timeout(config.get("timeout"))
    work_dir = config.get("work_dir")
    if work_dir is not None and not isinstance(work_dir, (str, os.PathLike)):
        raise TypeError(
            f'code_execution_config["work_dir"] must be a str or Path (or None for the default), got {work_dir!r}'
        )
    use_docker = config.get("use_docker")
    if not _is_use_docker_value(use_docker):
        raise TypeError(
            'code_execution_config["use_docker"] must be True, False, None, an image name or a list of '
            f"image names, got {use_docker!r}"
        )
    use_docker = decide_use_docker(use_docker)
    check_can_use_docker_or_throw(use_docker)
    config["use_docker"] = use_docker
    return config


def _check_timeout(timeout: Any) -> None:
    if timeout is None:
        return
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        raise TypeError(f'code_execution_config["timeout"] must be a number of seconds, got {timeout!r}')
    if timeout <= 0:
        raise ValueError(f'code_execution_config["timeout"] must be a positive number of seconds, got {timeout!r}')


def _is_use_docker_value(value: Any) -> bool:
    if value is None or isinstance(value, (bool, str)):
        return True
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _warn_unknown_keys(config: Mapping[str, Any], accepted: tuple[str, ...]) -> None:
    unknown = sorted(str(key) for key in config if key not in accepted)
    if unknown:
        warnings.warn(
            f"code_execution_config has keys that the built-in code execution ignores: {', '.join(unknown)}. "
            f"Accepted keys: {', '.join(accepted)}.",
            stacklevel=4,
        )
