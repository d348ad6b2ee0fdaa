"""The code-execution reply of a classic agent, as plain functions.

An agent with code execution enabled answers a message holding fenced code by
running the code and replying ``"exitcode: N (execution succeeded|failed)\\nCode output: ..."``.
These functions hold that logic; the agent passes its resolved
``code_execution_config`` and the messages of the conversation with the sender.
"""

from __future__ import annotations

import asyncio
from collections.abc import MutableMapping, Sequence
from pathlib import Path
from typing import Any, Callable, Literal, Optional, Union

from ..io.base import IOStream
from ..events.chat_events import ExecuteCodeBlockEvent
from ..messages.agent_messages import GenerateCodeExecutionReplyMessage
from ..io.emit import emit
from .base import CodeBlock, CodeExecutor
from .config import resolve_code_execution_config, validate_last_n_messages
from .execute import WORKING_DIR, execute_code
from .factory import CodeExecutorFactory
from .utils import (
    PYTHON_VARIANTS,
    SHELL_LANGUAGES,
    UNKNOWN,
    FilenameOutsideWorkspace,
    extract_code,
    infer_lang,
    relative_to_workspace,
)

__all__ = [
    "RunCode",
    "resolve_code_execution_config",
    "select_messages_to_scan",
    "local_run_code",
    "run_code_blocks",
    "code_execution_reply",
    "a_code_execution_reply",
    "format_code_result",
]

# (code, **kwargs) -> (exit_code, logs, docker image or None): the agent's overridable run_code.
RunCode = Callable[..., tuple[int, str, Optional[str]]]

_EXECUTE_CODE_KEYS = ("work_dir", "timeout", "use_docker")
# Keys of the config that are not arguments of run_code.
_NOT_RUN_CODE_KEYS = (
    "last_n_messages",
    "executor",
    "commandline-local",
    "ipython-embedded",
    "code",
    "lang",
    "filename",
)


def select_messages_to_scan(
    messages: Sequence[dict[str, Any]], last_n_messages: Union[int, float, str] = "auto"
) -> list[dict[str, Any]]:
    """Return the messages to look for code in, oldest first.

    Args:
        messages (list[dict]): the conversation with the sender, oldest first.
        last_n_messages (int or "auto"): how many of the latest messages to scan. ``"auto"``
            means every message since this agent last spoke (the trailing run of messages whose
            role is ``"user"``).

    Raises:
        ValueError: ``last_n_messages`` is neither a non-negative number nor ``"auto"``.
    """
    validate_last_n_messages(last_n_messages)
    if last_n_messages == "auto":
        count = 0
        for message in reversed(messages):
            if message.get("role") != "user":
                break
            count += 1
    else:
        count = len(messages) if last_n_messages >= len(messages) else int(last_n_messages)  # type: ignore[operator]
    if count <= 0:
        return []
    return list(messages[-count:])


def local_run_code(code: str, **kwargs: Any) -> tuple[int, str, Optional[str]]:
    """Run ``code`` with ``execute_code``, ignoring config keys it does not take.

    Args:
        code (str): the code.
        **kwargs: ``lang``, ``filename`` and the config keys ``work_dir``, ``timeout``, ``use_docker``.
    """
    accepted = {key: kwargs[key] for key in (*_EXECUTE_CODE_KEYS, "lang", "filename") if key in kwargs}
    return execute_code(code, **accepted)


def run_code_blocks(
    code_blocks: Sequence[Union[tuple[str, str], CodeBlock]],
    config: MutableMapping[str, Any],
    iostream: Optional[IOStream] = None,
    *,
    run_code: Optional[RunCode] = None,
) -> tuple[int, str]:
    """Run code blocks in order the classic way and return ``(exit_code, logs)``.

    Prints ``>>>>>>>> EXECUTING CODE BLOCK N (inferred language is X)...`` in red before each
    block. Python and shell (bash, shell, sh) run; any other language gives exit code 1 and
    ``unknown language X``. A Python block starting with ``# filename: NAME`` is saved as NAME
    in the working directory (and kept). Running stops at the first failing block. Each
    block's logs are appended after a newline.

    Args:
        code_blocks (list): ``(language, code)`` tuples as ``extract_code`` returns them (or CodeBlocks).
        config (dict): the resolved ``code_execution_config``; its keys other than
            ``last_n_messages`` are passed to ``run_code``.
        iostream (IOStream, optional): where to print; default ``IOStream.get_default()``.
        run_code (callable, optional): ``(code, **kwargs) -> (exit_code, logs, image)``;
            default runs locally with ``execute_code``.
    """
    iostream = iostream if iostream is not None else IOStream.get_default()
    runner: RunCode = run_code if run_code is not None else local_run_code
    kwargs = {key: value for key, value in config.items() if key not in _NOT_RUN_CODE_KEYS}
    exitcode, logs_all = 0, ""
    for index, block in enumerate(code_blocks):
        lang, code = (block.language, block.code) if isinstance(block, CodeBlock) else block
        if not lang:
            lang = infer_lang(code)
        emit(ExecuteCodeBlockEvent, iostream, code=code, language=lang, code_block_count=index, recipient="")
        image: Optional[str] = None
        if lang in SHELL_LANGUAGES:
            exitcode, logs, image = runner(code, lang=lang, **kwargs)
        elif lang in PYTHON_VARIANTS or lang == "python3":
            try:
                filename = _filename_comment(code, config.get("work_dir"))
            except FilenameOutsideWorkspace:
                exitcode, logs = 1, "Filename is not in the workspace"
            else:
                exitcode, logs, image = runner(code, lang="python", filename=filename, **kwargs)
        else:
            exitcode, logs = 1, f"unknown language {lang}"
        if image is not None:
            # A custom run_code that used a Docker image: reuse it next time, as the classic agent does.
            config["use_docker"] = image
        logs_all += "\n" + logs
        if exitcode != 0:
            break
    return exitcode, logs_all


def format_code_result(exit_code: int, output: str) -> str:
    """The classic reply text: ``exitcode: N (execution succeeded|failed)\\nCode output: ...``."""
    status = "execution succeeded" if exit_code == 0 else "execution failed"
    return f"exitcode: {exit_code} ({status})\nCode output: {output}"


def code_execution_reply(
    messages: Sequence[dict[str, Any]],
    config: Union[MutableMapping[str, Any], Literal[False]],
    iostream: Optional[IOStream] = None,
    *,
    run_code: Optional[RunCode] = None,
) -> tuple[bool, Optional[str]]:
    """Run the code found in the latest messages and return the agent's reply.

    The messages chosen by ``config["last_n_messages"]`` (default ``"auto"``) are scanned from
    the newest; the first one with code blocks is run (with ``run_code_blocks``, or the
    config's ``executor``) and ``(True, "exitcode: ...\\nCode output: ...")`` is returned.

    Args:
        messages (list[dict]): the conversation with the sender, oldest first.
        config (dict or False): the resolved ``code_execution_config`` (see
            ``resolve_code_execution_config``); False disables code execution.
        iostream (IOStream, optional): where to print; default ``IOStream.get_default()``.
        run_code (callable, optional): the agent's ``run_code`` for the classic keys.

    Returns:
        tuple: ``(True, reply)`` when code ran; ``(False, None)`` when there was no code to run.
    """
    if config is False:
        return False, None
    iostream = iostream if iostream is not None else IOStream.get_default()
    to_scan = select_messages_to_scan(messages, config.get("last_n_messages", "auto"))
    executor = _executor_of(config)
    for message in reversed(to_scan):
        content = message.get("content")
        if not content:
            continue
        if executor is not None:
            blocks = executor.code_extractor.extract_code_blocks(content)
            if not blocks:
                continue
            _print_executor_banner(iostream, [block.language for block in blocks])
            result = executor.execute_code_blocks(blocks)
            return True, format_code_result(result.exit_code, result.output)
        code_blocks = extract_code(content)
        if len(code_blocks) == 1 and code_blocks[0][0] == UNKNOWN:
            continue
        exitcode, logs = run_code_blocks(code_blocks, config, iostream, run_code=run_code)
        return True, format_code_result(exitcode, logs)
    return False, None


async def a_code_execution_reply(
    messages: Sequence[dict[str, Any]],
    config: Union[MutableMapping[str, Any], Literal[False]],
    iostream: Optional[IOStream] = None,
    *,
    run_code: Optional[RunCode] = None,
) -> tuple[bool, Optional[str]]:
    """``code_execution_reply`` in a worker thread, so the event loop keeps running meanwhile.

    The current ``IOStream`` default is carried into the thread.
    """
    return await asyncio.to_thread(code_execution_reply, messages, config, iostream, run_code=run_code)


def _executor_of(config: MutableMapping[str, Any]) -> Optional[CodeExecutor]:
    executor = config.get("executor")
    if executor is None:
        return None
    if not isinstance(executor, CodeExecutor):
        # Not resolved yet (e.g. "commandline-local"): build it once and keep it.
        executor = CodeExecutorFactory.create(config)
        config["executor"] = executor
    return executor


def _print_executor_banner(iostream: IOStream, languages: list[str]) -> None:
    emit(GenerateCodeExecutionReplyMessage, iostream, code_block_languages=list(languages), sender_name=None,
         recipient_name="")


def _filename_comment(code: str, work_dir: Any) -> Optional[str]:
    """The NAME of a first line ``# filename: NAME``, checked to stay inside the working directory."""
    if not code.startswith("# filename:"):
        return None
    name = code.split("\n", 1)[0][len("# filename:") :].strip()
    if not name:
        return None
    workspace = Path(work_dir if work_dir is not None else WORKING_DIR)
    relative_to_workspace(name, workspace)
    return name
