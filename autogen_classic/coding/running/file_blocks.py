"""``FileCodeExecutor``: the base of the executors that save each code block to a file and run it.

The loop over the blocks (save, run or only save by the execution policy, stop at the first failure,
report the first block's file) is the same for every such executor; each says how a block's language
is read, where its file goes and how a file runs (on this machine, in a container).
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from pathlib import Path

from ..base import CodeBlock, CodeExecutor, CodeExtractor, CommandLineCodeResult
from ..markdown_code_extractor import MarkdownCodeExtractor
from ..utils import FilenameOutsideWorkspace
from .code_files import TIMEOUT_MSG

__all__ = ["BlockFailed", "BlockRefused", "FileCodeExecutor", "FileRun"]


@dataclass
class FileRun:
    """What running one saved code block gave: its exit code and output, and whether it ran out of time."""

    exit_code: int
    output: str
    timed_out: bool = False


class BlockFailed(Exception):
    """A block that cannot run: ``output`` ends the run's output, with ``exit_code``; the blocks after it do not run."""

    def __init__(self, output: str, exit_code: int = 1) -> None:
        super().__init__(output)
        self.output = output
        self.exit_code = exit_code


class BlockRefused(Exception):
    """A block refused before it is saved: the run ends at once with exit code 1 and no code file."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class FileCodeExecutor(CodeExecutor):
    """Runs code blocks in order as files in ``work_dir``, stopping at the first failure.

    Subclasses set ``_timeout``, ``_work_dir`` and ``execution_policies`` (language -> run, or only
    save) and say how a block is prepared (``_prepare``), saved (``_save``) and run (``_run_file``).
    """

    _timeout: int
    _work_dir: Path
    execution_policies: dict[str, bool]

    @property
    def timeout(self) -> int:
        """The time limit in seconds for each code block."""
        return self._timeout

    @property
    def work_dir(self) -> Path:
        """The working directory the code files are saved in."""
        return self._work_dir

    @property
    def code_extractor(self) -> CodeExtractor:
        """A ``MarkdownCodeExtractor``."""
        return MarkdownCodeExtractor()

    @abstractmethod
    def _prepare(self, block: CodeBlock) -> tuple[str, str]:
        """The language ``block`` runs as and the code to save.

        Raises:
            BlockRefused: the code may not run at all.
            BlockFailed: the language is not supported.
        """

    @abstractmethod
    def _save(self, code: str, lang: str) -> Path:
        """Write ``code`` to its file in the working directory and return the path.

        Raises:
            FilenameOutsideWorkspace: the code names a file outside the working directory.
        """

    @abstractmethod
    def _run_file(self, lang: str, path: Path) -> FileRun:
        """Run the saved file ``path`` as ``lang`` code.

        Raises:
            BlockFailed: no program runs ``lang`` code here.
        """

    def _run_blocks(self, code_blocks: list[CodeBlock]) -> CommandLineCodeResult:
        output = ""
        exit_code = 0
        files: list[Path] = []
        for block in code_blocks:
            try:
                lang, code = self._prepare(block)
                path = self._save(code, lang)
                files.append(path)
                if not self.execution_policies.get(lang, False):
                    output += f"Code saved to {path!s}\n"
                    continue
                run = self._run_file(lang, path)
            except BlockRefused as refused:
                # Refused code is an answer for the model, not a crash of the chat.
                return CommandLineCodeResult(exit_code=1, output=output + refused.message)
            except FilenameOutsideWorkspace:
                return CommandLineCodeResult(exit_code=1, output="Filename is not in the workspace")
            except BlockFailed as failed:
                output += failed.output
                exit_code = failed.exit_code
                break
            output += run.output
            if run.timed_out:
                output += "\n" + TIMEOUT_MSG
                exit_code = 124
                break
            exit_code = run.exit_code
            if exit_code != 0:
                break
        code_file = str(files[0]) if files else None
        return CommandLineCodeResult(exit_code=exit_code, output=output, code_file=code_file)
