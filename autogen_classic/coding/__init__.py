"""Code execution for the classic agents: extracting code from messages and running it locally."""

from .base import CodeBlock, CodeExecutionConfig, CodeExecutor, CodeExtractor, CodeResult, CommandLineCodeResult
from .config import CodeExecutionConfigError, CodeExecutorFactory, resolve_code_execution_config
from .local_commandline_code_executor import LocalCommandLineCodeExecutor
from .reply import (
    a_code_execution_reply,
    code_execution_reply,
    format_code_result,
    run_code_blocks,
    select_messages_to_scan,
)
from .utils import MarkdownCodeExtractor

__all__ = [
    "CodeBlock",
    "CodeExecutionConfig",
    "CodeExecutionConfigError",
    "CodeExecutor",
    "CodeExecutorFactory",
    "CodeExtractor",
    "CodeResult",
    "CommandLineCodeResult",
    "LocalCommandLineCodeExecutor",
    "MarkdownCodeExtractor",
    "a_code_execution_reply",
    "code_execution_reply",
    "format_code_result",
    "resolve_code_execution_config",
    "run_code_blocks",
    "select_messages_to_scan",
]
