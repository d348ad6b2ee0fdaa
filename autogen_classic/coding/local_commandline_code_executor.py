"""``LocalCommandLineCodeExecutor``: save each code block to a file and run it locally.

Used with ``code_execution_config={"executor": LocalCommandLineCodeExecutor(...)}``.
Unlike the classic ``execute_code`` it keeps the files, returns stderr followed by
stdout, and reports a timeout with exit code 124 (like the ``timeout`` command).
Functions passed as ``functions=[...]`` are written to a module in the working
directory, so the executed code can import them.
"""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path
from string import Template
from types import SimpleNamespace
from typing import Any, Callable, ClassVar, Optional, ParamSpec, Union

from .base import CodeBlock, CodeExecutor, CodeExtractor, CommandLineCodeResult
from .running.code_files import DEFAULT_EXECUTION_POLICY, merge_execution_policies, save_code_block
from .running.file_blocks import BlockFailed, BlockRefused, FileCodeExecutor, FileRun
from .execute import TIMEOUT_MSG, WIN32, command_for, default_filename
from .func_with_reqs import (
    FunctionWithRequirements,
    FunctionWithRequirementsStr,
    build_python_functions_file,
    required_packages,
    to_stub,
)
from .markdown_code_extractor import MarkdownCodeExtractor
from .running.process import run_with_timeout
from .renamed import renamed_class
from .utils import PYTHON_VARIANTS, silence_pip
from .running.virtual_env import absolute_env_context

__all__ = [
    "A",
    "CodeBlock",
    "CodeExecutor",
    "CodeExtractor",
    "CommandLineCodeResult",
    "CommandlineCodeResult",
    "FunctionWithRequirements",
    "FunctionWithRequirementsStr",
    "LocalCommandLineCodeExecutor",
    "LocalCommandlineCodeExecutor",
    "MarkdownCodeExtractor",
    "PYTHON_VARIANTS",
    "TIMEOUT_MSG",
    "WIN32",
    "silence_pip",
    "to_stub",
]

A = ParamSpec("A")
logger = logging.getLogger(__name__)

_DANGEROUS_PATTERNS = [
    (r"\brm\s+-rf\b", "Use of 'rm -rf' command is not allowed."),
    (r"\bmv\b.*?\s+/dev/null", "Moving files to /dev/null is not allowed."),
    (r"\bdd\b", "Use of 'dd' command is not allowed."),
    (r">\s*/dev/sd[a-z][1-9]?", "Overwriting disk blocks directly is not allowed."),
    (r":\(\)\{\s*:\|\:&\s*\};:", "Fork bombs are not allowed."),
]


class LocalCommandLineCodeExecutor(FileCodeExecutor):
    """Runs code blocks as files in a working directory on this machine.

    **The code runs with your permissions: use it only for code you trust.**
    Python and shell (bash, shell, sh) run by default; PowerShell runs when installed;
    javascript, html and css are only saved (see ``execution_policies``).
    Shell code with a known self-destructive command (``rm -rf``, ``dd`` ...) is refused.
    """

    SUPPORTED_LANGUAGES: ClassVar[list[str]] = [
        "bash",
        "shell",
        "sh",
        "pwsh",
        "powershell",
        "ps1",
        "python",
        "javascript",
        "html",
        "css",
    ]
    DEFAULT_EXECUTION_POLICY: ClassVar[dict[str, bool]] = dict(DEFAULT_EXECUTION_POLICY)

    FUNCTION_PROMPT_TEMPLATE: ClassVar[str] = (
        "You have access to the following user defined functions. They can be accessed from the module called "
        "`$module_name` by their function names.\n\n"
        "For example, if there was a function called `foo` you could import it by writing "
        "`from $module_name import foo`\n\n"
        "$functions"
    )

    def __init__(
        self,
        timeout: int = 60,
        virtual_env_context: Optional[SimpleNamespace] = None,
        work_dir: Union[Path, str] = Path(),
        functions: list[
            Union[FunctionWithRequirements[Any, A], Callable[..., Any], FunctionWithRequirementsStr]
        ] = [],  # noqa: B006 - the classic default
        functions_module: str = "functions",
        execution_policies: Optional[dict[str, bool]] = None,
    ):
        """Create the executor.

        Args:
            timeout (int): seconds each code block may run (at least 1, default 60); on expiry the
                block's whole process tree is killed.
            virtual_env_context (SimpleNamespace, optional): a context from ``create_virtual_env``;
                its interpreter runs Python and its ``bin`` comes first on PATH. Relative paths are
                resolved against the current directory now.
            work_dir (Path or str): where files are saved and run; created if missing. Default: cwd.
            functions (list): functions the code may import from ``functions_module``: plain
                functions, ``@with_requirements`` functions or ``FunctionWithRequirementsStr``.
                The module is written (and packages installed) before the first code block runs.
            functions_module (str): the module name for ``functions`` (a Python identifier).
            execution_policies (dict, optional): language -> True (run) or False (save only),
                overriding ``DEFAULT_EXECUTION_POLICY``.
        """
        if not isinstance(timeout, (int, float)):
            raise TypeError(f"timeout must be a number of seconds (at least 1), got {timeout!r}")
        if timeout < 1:
            raise ValueError("Timeout must be greater than or equal to 1.")
        if not isinstance(work_dir, (str, os.PathLike)):
            raise TypeError(f"work_dir must be a str or Path, got {type(work_dir).__name__}")
        if not functions_module.isidentifier():
            raise ValueError("Module name must be a valid Python identifier")
        work_path = Path(work_dir)
        work_path.mkdir(parents=True, exist_ok=True)
        self._timeout = timeout
        self._work_dir = work_path
        self._virtual_env_context = absolute_env_context(virtual_env_context)
        self._functions_module = functions_module
        self._functions = list(functions) if functions is not None else []
        # Writing the module and installing packages can be slow: done before the first code block.
        self._setup_functions_complete = not self._functions
        self.execution_policies = merge_execution_policies(self.DEFAULT_EXECUTION_POLICY, execution_policies)

    def format_functions_for_prompt(self, prompt_template: str = FUNCTION_PROMPT_TEMPLATE) -> str:
        """Describe ``functions`` for a prompt.

        Args:
            prompt_template (str): a ``string.Template`` with ``$module_name`` and ``$functions``
                (the stubs of the functions, separated by blank lines). Default: ``FUNCTION_PROMPT_TEMPLATE``.
        """
        return Template(prompt_template).substitute(
            module_name=self._functions_module,
            functions="\n\n".join(to_stub(func) for func in self._functions),
        )

    @property
    def functions_module(self) -> str:
        """The module name the code imports ``functions`` from."""
        return self._functions_module

    @property
    def functions(
        self,
    ) -> list[Union[FunctionWithRequirements[Any, A], Callable[..., Any], FunctionWithRequirementsStr]]:
        """The functions available to the executed code."""
        return self._functions

    @staticmethod
    def sanitize_command(lang: str, code: str) -> None:
        """Raise ``ValueError`` for shell code with a known self-destructive command (``rm -rf``, ``dd``, ...)."""
        if lang in ["bash", "shell", "sh"]:
            for pattern, message in _DANGEROUS_PATTERNS:
                if re.search(pattern, code):
                    raise ValueError(f"Potentially dangerous command detected: {message}")

    def execute_code_blocks(self, code_blocks: list[CodeBlock]) -> CommandLineCodeResult:
        """Save and run ``code_blocks`` in order, stopping at the first failure.

        Args:
            code_blocks (list[CodeBlock]): the blocks to run.

        Returns:
            CommandLineCodeResult: the exit code of the last block run, stderr then stdout of
            every block, and the file of the first block.

        Raises:
            ValueError: ``functions`` could not be set up (pip install failed or timed out, or
                the functions module does not load).
        """
        if not self._setup_functions_complete:
            self._setup_functions()
        return self._run_blocks(code_blocks)

    def _setup_functions(self) -> None:
        """Write the functions module, install the declared packages, and check that it loads."""
        source = build_python_functions_file(self._functions)
        (self._work_dir / f"{self._functions_module}.py").write_text(source, encoding="utf-8")
        packages = required_packages(self._functions)
        if packages:
            logger.info("Ensuring packages are installed in executor.")
            python = self._virtual_env_context.env_exe if self._virtual_env_context is not None else sys.executable
            try:
                result = subprocess.run(
                    [str(python), "-m", "pip", "install", *packages],
                    cwd=self._work_dir,
                    capture_output=True,
                    text=True,
                    timeout=float(self._timeout),
                    encoding="utf-8",
                    stdin=subprocess.DEVNULL,
                )
            except subprocess.TimeoutExpired as e:
                raise ValueError("Pip install timed out") from e
            if result.returncode != 0:
                raise ValueError(f"Pip install failed. {result.stdout}, {result.stderr}")
        loaded = self._run_blocks([CodeBlock(code=source, language="python")])
        if loaded.exit_code != 0:
            raise ValueError(f"Functions failed to load: {loaded.output}")
        self._setup_functions_complete = True

    def _prepare(self, block: CodeBlock) -> tuple[str, str]:
        lang = block.language.lower()
        try:
            self.sanitize_command(lang, block.code)
        except ValueError as err:
            raise BlockRefused(str(err)) from err
        code = silence_pip(block.code, lang)
        if lang in PYTHON_VARIANTS or lang == "python3":
            lang = "python"
        if WIN32 and lang in ["sh", "shell"]:
            lang = "ps1"  # pragma: no cover - Windows
        if lang not in self.SUPPORTED_LANGUAGES:
            raise BlockFailed("\n" + f"unknown language {lang}")
        return lang, code

    def _save(self, code: str, lang: str) -> Path:
        return save_code_block(code, self._work_dir, default_filename(code, lang)).resolve()

    def _run_file(self, lang: str, path: Path) -> FileRun:
        try:
            program = self._program(lang)
        except (NotImplementedError, FileNotFoundError) as err:
            raise BlockFailed("\n" + str(err)) from err
        try:
            outcome = run_with_timeout(
                [program, str(path)], cwd=self._work_dir, timeout=float(self._timeout), env=self._env()
            )
        except FileNotFoundError as err:
            raise BlockFailed("\n" + f"{program}: command not found", exit_code=127) from err
        if outcome.timed_out:
            return FileRun(exit_code=124, output="", timed_out=True)
        return FileRun(exit_code=outcome.returncode, output=outcome.stderr + outcome.stdout)

    def restart(self) -> None:
        """Nothing to restart for a local executor (warns, like the classic one)."""
        warnings.warn("Restarting local command line code executor is not supported. No action is taken.")

    def _program(self, lang: str) -> str:
        if lang == "python" and self._virtual_env_context is not None:
            return str(self._virtual_env_context.env_exe)
        return command_for(lang)

    def _env(self) -> dict[str, str]:
        env = os.environ.copy()
        if self._virtual_env_context is not None:
            bin_path = os.path.abspath(self._virtual_env_context.bin_path)
            env["PATH"] = f"{bin_path}{os.pathsep}{env.get('PATH', '')}"
        return env


# The classic names before the renaming; using them warns (DeprecationWarning).
LocalCommandlineCodeExecutor = renamed_class("LocalCommandlineCodeExecutor", LocalCommandLineCodeExecutor, __name__)
CommandlineCodeResult = renamed_class("CommandlineCodeResult", CommandLineCodeResult, __name__)
