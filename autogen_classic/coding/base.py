"""Data types and protocols shared by every code executor.

A ``CodeExtractor`` turns a message into ``CodeBlock`` objects; a ``CodeExecutor``
runs them and answers with a ``CodeResult``. Agents configured with
``code_execution_config={"executor": ...}`` talk to executors only through these.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Optional, Protocol, TypedDict, Union, runtime_checkable

from pydantic import BaseModel, Field

from ..types import UserMessageImageContentPart, UserMessageTextContentPart

__all__ = [
    "CodeBlock",
    "CodeResult",
    "CommandLineCodeResult",
    "IPythonCodeResult",
    "CodeExtractor",
    "CodeExecutor",
    "CodeExecutionConfig",
    "UserMessageImageContentPart",
    "UserMessageTextContentPart",
]


class CodeBlock(BaseModel):
    """A block of code taken from a message, with its language (``""`` when unknown)."""

    code: str = Field(description="The code to execute.")
    language: str = Field(description="The language of the code.")


class CodeResult(BaseModel):
    """The outcome of running code blocks: an exit code and the collected output."""

    exit_code: int = Field(description="The exit code of the code execution.")
    output: str = Field(description="The output of the code execution.")


class CommandLineCodeResult(CodeResult):
    """A ``CodeResult`` that also names the file the first code block was saved to."""

    code_file: Optional[str] = Field(default=None, description="The file that the executed code block was saved to.")


class IPythonCodeResult(CodeResult):
    """A ``CodeResult`` of an IPython kernel, with the files the code produced (e.g. saved figures)."""

    output_files: list[str] = Field(
        default_factory=list, description="The list of files that the executed code blocks generated."
    )


class CodeExtractor(Protocol):
    """Finds the code blocks in a message."""

    def extract_code_blocks(
        self, message: Union[str, list[Union[UserMessageTextContentPart, UserMessageImageContentPart]], None]
    ) -> list[CodeBlock]:
        """Return the code blocks in ``message`` (a string, a multimodal content list or None)."""
        ...  # pragma: no cover


@runtime_checkable
class CodeExecutor(Protocol):
    """Runs code blocks and reports the result."""

    @property
    def code_extractor(self) -> CodeExtractor:
        """The extractor an agent uses to find code blocks for this executor."""
        ...  # pragma: no cover

    def execute_code_blocks(self, code_blocks: list[CodeBlock]) -> CodeResult:
        """Run ``code_blocks`` in order and return the combined result."""
        ...  # pragma: no cover

    def restart(self) -> None:
        """Restart the executor (called when an agent is reset)."""
        ...  # pragma: no cover


CodeExecutionConfig = TypedDict(
    "CodeExecutionConfig",
    {
        "executor": Union[Literal["ipython-embedded", "commandline-local", "commandline-docker"], CodeExecutor],
        "last_n_messages": Union[int, Literal["auto"]],
        "timeout": int,
        "use_docker": Union[bool, str, list[str]],
        "work_dir": str,
        "ipython-embedded": Mapping[str, Any],
        "commandline-local": Mapping[str, Any],
        "commandline-docker": Mapping[str, Any],
    },
    total=False,
)
