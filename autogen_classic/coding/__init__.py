"""Code execution for the classic agents: extracting code from messages and running it locally or in Docker.

Imports only the layers below (io, exception_utils, types, oai); never the agents.
``DockerCommandLineCodeExecutor`` is loaded on first use (it brings the optional, slow-to-import
``docker`` package).
"""

from typing import Any

from .base import (
    CodeBlock,
    CodeExecutionConfig,
    CodeExecutor,
    CodeExtractor,
    CodeResult,
    CommandLineCodeResult,
    IPythonCodeResult,
)
from .config import CodeExecutionConfigError, resolve_code_execution_config
from .factory import CodeExecutorFactory
from .func_with_reqs import (
    Alias,
    FunctionWithRequirements,
    FunctionWithRequirementsStr,
    ImportFromModule,
    with_requirements,
)
from .local_commandline_code_executor import LocalCommandLineCodeExecutor
from .markdown_code_extractor import MarkdownCodeExtractor
from .reply import (
    a_code_execution_reply,
    code_execution_reply,
    format_code_result,
    run_code_blocks,
    select_messages_to_scan,
)

__all__ = [
    "Alias",
    "CodeBlock",
    "CodeExecutionConfig",
    "CodeExecutionConfigError",
    "CodeExecutor",
    "CodeExecutorFactory",
    "CodeExtractor",
    "CodeResult",
    "CommandLineCodeResult",
    "DockerCommandLineCodeExecutor",
    "FunctionWithRequirements",
    "FunctionWithRequirementsStr",
    "IPythonCodeResult",
    "ImportFromModule",
    "LocalCommandLineCodeExecutor",
    "MarkdownCodeExtractor",
    "a_code_execution_reply",
    "code_execution_reply",
    "format_code_result",
    "resolve_code_execution_config",
    "run_code_blocks",
    "select_messages_to_scan",
    "with_requirements",
]


def __getattr__(name: str) -> Any:
    if name == "DockerCommandLineCodeExecutor":
        from .docker_commandline_code_executor import DockerCommandLineCodeExecutor

        return DockerCommandLineCodeExecutor
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
