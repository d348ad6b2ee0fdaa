"""What the command-line executors share: which languages run, and how a code block becomes a file.

``LocalCommandLineCodeExecutor`` and ``DockerCommandLineCodeExecutor`` save every code block to
a file in their working directory before running it: under the name its first-line comment
gives (``# filename: app.py``), else ``tmp_code_<md5 of the code>.<extension>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from hashlib import md5
from pathlib import Path
from typing import Optional

from ..utils import filename_from_code

__all__ = ["DEFAULT_EXECUTION_POLICY", "TIMEOUT_MSG", "merge_execution_policies", "generated_filename", "save_code_block"]

TIMEOUT_MSG = "Timeout"
"""What every executor reports after a block ran past its timeout."""

# Language -> run it (True) or only save it (False). The classic defaults of both executors.
DEFAULT_EXECUTION_POLICY: dict[str, bool] = {
    "bash": True,
    "shell": True,
    "sh": True,
    "pwsh": True,
    "powershell": True,
    "ps1": True,
    "python": True,
    "javascript": False,
    "html": False,
    "css": False,
}


def merge_execution_policies(
    defaults: Mapping[str, bool], execution_policies: Optional[Mapping[str, bool]]
) -> dict[str, bool]:
    """Return a new dict: ``defaults`` updated with ``execution_policies`` (language -> run or only save)."""
    merged = dict(defaults)
    if execution_policies is not None:
        if not isinstance(execution_policies, Mapping):
            raise TypeError(
                "execution_policies must be a dict of language -> bool (True runs, False only saves), "
                f"got {type(execution_policies).__name__}"
            )
        merged.update(execution_policies)
    return merged


def generated_filename(code: str, extension: str) -> str:
    """The classic name of a code block's file when it names none: ``tmp_code_<md5 of code>.<extension>``."""
    return f"tmp_code_{md5(code.encode()).hexdigest()}.{extension}"


def save_code_block(code: str, work_dir: Path, default_name: str) -> Path:
    """Write ``code`` to the file its first line names (inside ``work_dir``), else to ``default_name``.

    Args:
        code (str): the code block.
        work_dir (Path): the working directory; subdirectories of a named file are created.
        default_name (str): the file name to use when the first line names none.

    Returns:
        Path: ``work_dir / <name>``, not resolved (a relative ``work_dir`` gives a relative path).

    Raises:
        FilenameOutsideWorkspace: the first line names a file outside ``work_dir``.
    """
    filename = filename_from_code(code, work_dir) or default_name
    path = work_dir / filename
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(code, encoding="utf-8")
    return path
