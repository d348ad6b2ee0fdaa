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
                (returned as is) or ``"commandline-local"`` (built from the optional
                ``"commandline-local"`` dict of ``LocalCommandLineCodeExecutor`` arguments).

        Raises:
            ValueError: the executor is unknown or not available here.
        """
        executor: Any = code_execution_config.get("executor")
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
        if executor == "docker":
            raise ValueError(
                "Unknown code executor docker. Running code in Docker needs the optional Docker support "
                "(DockerCommandLineCodeExecutor), which this installation of autogen_classic does not have; "
                'use "commandline-local" or a LocalCommandLineCodeExecutor instance to run code on this machine.'
            )
        raise ValueError(
            f"Unknown code executor {executor}. "
            'code_execution_config["executor"] accepts "commandline-local" or a CodeExecutor instance '
            "(for example LocalCommandLineCodeExecutor(work_dir=...))."
        )
