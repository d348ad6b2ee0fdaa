"""Finding code in messages: fenced blocks, language guessing, file names.

The pattern and the return conventions are the classic ones, so code written
against ``autogen.code_utils.extract_code`` sees the same tuples here.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional, Union

from ..types import content_str  # noqa: F401 - the classic path of content_str

__all__ = [
    "CODE_BLOCK_PATTERN",
    "UNKNOWN",
    "PYTHON_VARIANTS",
    "SHELL_LANGUAGES",
    "content_str",
    "format_chat_result",
    "infer_lang",
    "extract_code",
    "filename_patterns",
    "filename_from_code",
    "relative_to_workspace",
    "FilenameOutsideWorkspace",
    "silence_pip",
]

# A fenced block: ``` then an optional language word, a line break, the code
# (non-greedy), a line break and the closing ``` (which may be indented).
CODE_BLOCK_PATTERN = r"```[ \t]*(\w+)?[ \t]*\r?\n(.*?)\r?\n[ \t]*```"
UNKNOWN = "unknown"
PYTHON_VARIANTS = ["python", "Python", "py"]
SHELL_LANGUAGES = ["bash", "shell", "sh"]

_INLINE_CODE_PATTERN = re.compile(CODE_BLOCK_PATTERN + r"|`([^`]+)`", flags=re.DOTALL)


def infer_lang(code: str) -> str:
    """Guess the language of an untagged code block.

    Args:
        code (str): the code.

    Returns:
        str: ``"sh"`` for a command line starting with ``python ``, ``python3 `` or ``pip``;
        ``"python"`` when the code compiles as Python; ``UNKNOWN`` otherwise.
    """
    if code.startswith(("python ", "python3 ", "pip")):
        return "sh"
    try:
        compile(code, "test", "exec")
    except (SyntaxError, ValueError):
        # ValueError: source with NUL bytes cannot be Python either.
        return UNKNOWN
    return "python"


def extract_code(
    text: Union[str, list[Any]], pattern: str = CODE_BLOCK_PATTERN, detect_single_line_code: bool = False
) -> list[tuple[str, str]]:
    """Extract the fenced code blocks of a message.

    Args:
        text (str or list): the message content (a string or a multimodal content list).
        pattern (str, optional): the regular expression for a block; defaults to ``CODE_BLOCK_PATTERN``.
        detect_single_line_code (bool, optional): also return inline `code` spans. Defaults to False.

    Returns:
        list: ``(language, code)`` tuples. A block without a language tag has language ``""``.
        Without ``detect_single_line_code``, a text with no block gives ``[(UNKNOWN, text)]``;
        with it, a text with no code gives ``[]``.
    """
    text = content_str(text)
    if not detect_single_line_code:
        found = re.findall(pattern, text, flags=re.DOTALL)
        return found if found else [(UNKNOWN, text)]
    extracted: list[tuple[str, str]] = []
    for lang, block, inline in _INLINE_CODE_PATTERN.findall(text):
        if block:
            extracted.append((lang.strip(), block.strip()))
        elif inline:
            extracted.append(("", inline.strip()))
    return extracted


# First-line comments that name the file a block is saved to (the classic patterns).
# "filename:" is optional, but a bare comment only counts when it looks like a file
# name, so "# compute the total" is not taken for one.
filename_patterns = [
    re.compile(r"^<!-- (filename:)?(.+?) -->", re.DOTALL),
    re.compile(r"^/\* (filename:)?(.+?) \*/", re.DOTALL),
    re.compile(r"^// (filename:)?(.+?)$", re.DOTALL),
    re.compile(r"^# (filename:)?(.+?)$", re.DOTALL),
]
_BARE_FILENAME = re.compile(r"^[\w./\\-]+\.\w+$")


class FilenameOutsideWorkspace(ValueError):
    """A code block asked to be saved outside the working directory."""


def filename_from_code(code: str, workspace: Path) -> Optional[str]:
    """Return the file name a code block's first-line comment asks for, relative to ``workspace``.

    Args:
        code (str): the code block.
        workspace (Path): the working directory the file must stay inside.

    Returns:
        str or None: the relative path, or None when the first line names no file.

    Raises:
        FilenameOutsideWorkspace: the named file would be outside ``workspace``.
    """
    first_line = code.split("\n", 1)[0].strip()
    for pattern in filename_patterns:
        match = pattern.match(first_line)
        if match is None:
            continue
        name = match.group(2).strip()
        if not match.group(1) and not _BARE_FILENAME.match(name):
            return None
        return relative_to_workspace(name, workspace)
    return None


def relative_to_workspace(name: str, workspace: Path) -> str:
    """Resolve ``name`` against ``workspace``; raise ``FilenameOutsideWorkspace`` if it escapes it."""
    path = Path(name)
    if not path.is_absolute():
        path = workspace / path
    try:
        return str(path.resolve().relative_to(workspace.resolve()))
    except ValueError:
        raise FilenameOutsideWorkspace(f"{name!r} is outside the working directory {str(workspace)!r}") from None


def silence_pip(code: str, lang: str) -> str:
    """Add ``-qqq`` to ``pip install`` lines so installs do not flood the conversation."""
    if lang == "python":
        regex = re.compile(r"^! ?pip install")
    elif lang in ["bash", "shell", "sh", "pwsh", "powershell", "ps1"]:
        regex = re.compile(r"^pip install")
    else:
        return code
    lines = code.split("\n")
    for i, line in enumerate(lines):
        match = regex.search(line)
        if match is not None and "-qqq" not in line:
            lines[i] = line.replace(match.group(0), match.group(0) + " -qqq", 1)
    return "\n".join(lines)


def format_chat_result(result: Any) -> str:
    """A readable summary of a chat's result (a ``ChatResult``): message count, id, cost, summary, last messages.

    Args:
        result: the ``ChatResult`` (anything with ``chat_history``, ``chat_id``, ``cost`` and ``summary``).

    Returns:
        str: the summary, framed by lines of ``=``; the summary is cut at 300 characters and each of the
        last three messages at 100 (with ``...``).
    """
    rule = "=" * 80
    history = list(getattr(result, "chat_history", None) or [])
    lines = [rule, "\U0001f4ca Exploration Session Summary", rule]
    lines.append(f"\n\u2022 Total messages: {len(history)}")
    lines.append(f"\u2022 Chat ID: {getattr(result, 'chat_id', None)}")
    cost = getattr(result, "cost", None)
    if cost:
        total = (cost.get("usage_including_cached_inference") or {}).get("total_cost", 0)
        lines.append(f"\u2022 Cost: ${total:.4f}")
    summary = getattr(result, "summary", None)
    if summary:
        lines.append("\n\U0001f4ac Final Status:")
        preview = summary[:300] + "..." if len(summary) > 300 else summary
        lines.extend(f"   {line}" for line in preview.split("\n"))
    lines.append("\n\U0001f4dd Last 3 messages:")
    for message in history[-3:]:
        who = message.get("name", message.get("role", "unknown"))
        # content_str: a message with no content (a tool call) or with content parts still reads as text.
        text = content_str(message.get("content"))
        lines.append(f"   [{who}]: {text[:100]}{'...' if len(text) > 100 else ''}")
    lines.append("\n" + rule)
    return "\n".join(lines)
