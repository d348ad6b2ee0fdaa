"""``CodeExecutorFactory``: the executor named by ``code_execution_config["executor"]``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import CodeExecutionConfig, CodeExecutor
from .local_commandline_code_executor import LocalCommandLineCodeExecutor

__all__ = ["CodeExecutionConfig", "CodeExecutor", "CodeExecutorFactory"]


class CodeExecutorFactory:
    """Builds the executor named by ``code_execution_config["executor"]``."""

    @staticmethod
    def create(code_execution_config: CodeExecutionConfig) -> CodeExecutor:
        """Return the executor for ``code_execution_config``.

        Args:
            code_execution_config (dict): must hold ``"executor"``: a ``CodeExecutor`` instance
                (returned as is), ``"commandline-local"`` (built from the optional
                ``"commandline-local"`` dict of ``LocalCommandLineCodeExecutor`` arguments) or
                ``"commandline-docker"`` (built from the optional ``"commandline-docker"`` dict of
                ``DockerCommandLineCodeExecutor`` arguments, e.g. ``{"image": "python:3-slim"}``).

        Raises:
            ValueError: the executor is unknown or not available here.
        """
        executor: Any = code_execution_config.get("executor")
        if isinstance(executor, CodeExecutor):
            return executor
        if executor == "commandline-local":
            return LocalCommandLineCodeExecutor(
                **_arguments(code_execution_config, executor, "LocalCommandLineCodeExecutor")
            )
        if executor == "commandline-docker":
            # Imported here: the module is only needed (and its optional package only checked) when asked for.
            from .docker_commandline_code_executor import DockerCommandLineCodeExecutor

            return DockerCommandLineCodeExecutor(
                **_arguments(code_execution_config, executor, "DockerCommandLineCodeExecutor")
            )
        if executor == "ipython-embedded":
            raise ValueError(
                'code_execution_config["executor"] = "ipython-embedded" is not available in autogen_classic; '
                'use "commandline-local" or a LocalCommandLineCodeExecutor instance.'
            )
        if executor == "docker":
            raise ValueError(
                'Unknown code executor docker. The optional Docker support is "commandline-docker" (with its '
                'arguments in code_execution_config["commandline-docker"], e.g. {"image": "python:3-slim"}) '
                "or a DockerCommandLineCodeExecutor instance to run code in Docker."
            )
        raise ValueError(
            f"Unknown code executor {executor}. "
            'code_execution_config["executor"] accepts "commandline-local", "commandline-docker" or a '
            "CodeExecutor instance (for example LocalCommandLineCodeExecutor(work_dir=...))."
        )


def _arguments(code_execution_config: CodeExecutionConfig, key: str, class_name: str) -> dict[str, Any]:
    """The executor arguments under ``code_execution_config[key]`` (default: none)."""
    kwargs: Any = code_execution_config.get(key, {})  # type: ignore[misc]
    if not isinstance(kwargs, Mapping):
        raise TypeError(
            f'code_execution_config["{key}"] must be a dict of {class_name} arguments, got {type(kwargs).__name__}'
        )
    return dict(kwargs)
