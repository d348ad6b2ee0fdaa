"""Code execution inside a two-agent chat: the model suggests code blocks, the user proxy runs them locally.

Replies and console text match the reference (ag2 0.7.3) for the same scripted model answers.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from autogen_classic import AssistantAgent, UserProxyAgent
from autogen_classic.coding import LocalCommandLineCodeExecutor
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer

SEP = "-" * 80
SLOW = "```python\nimport time\ntime.sleep(30)\nprint('too late')\n```"


def _roles_and_contents(history: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    return [(m["role"], m["content"]) for m in history]


def _chat(server: ScriptedOpenAIServer, code_execution_config: Any, use_async: bool = False) -> Any:
    alice = AssistantAgent("alice", llm_config=server.llm_config())
    bob = UserProxyAgent("bob", human_input_mode="NEVER", max_consecutive_auto_reply=5,
                         code_execution_config=code_execution_config)
    if use_async:
        return asyncio.run(bob.a_initiate_chat(alice, message="compute"))
    return bob.initiate_chat(alice, message="compute")


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_code_blocks_run_with_a_timeout(
    console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer, tmp_path: Path, use_async: bool
) -> None:
    scripted_server.add_replies(
        "Let me compute.\n```python\nprint('hello', 6*7)\n```", SLOW, "```sh\necho shell-ok\nexit 3\n```", "TERMINATE"
    )
    result = _chat(scripted_server, {"work_dir": str(tmp_path), "use_docker": False, "timeout": 1}, use_async)
    assert _roles_and_contents(result.chat_history) == [
        ("assistant", "compute"),
        ("user", "Let me compute.\n```python\nprint('hello', 6*7)\n```"),
        ("assistant", "exitcode: 0 (execution succeeded)\nCode output: \nhello 42\n"),
        ("user", SLOW),
        ("assistant", "exitcode: 1 (execution failed)\nCode output: \nTimeout"),
        ("user", "```sh\necho shell-ok\nexit 3\n```"),
        ("assistant", "exitcode: 3 (execution failed)\nCode output: \n"),
        ("user", "TERMINATE"),
    ]
    # The model saw each execution result as the user's message.
    assert scripted_server.requests[1]["messages"][-1] == {
        "content": "exitcode: 0 (execution succeeded)\nCode output: \nhello 42\n", "role": "user", "name": "bob"
    }
    output = console.output
    assert (
        f"alice (to bob):\n\nLet me compute.\n```python\nprint('hello', 6*7)\n```\n\n{SEP}\n"
        "\n>>>>>>>> EXECUTING CODE BLOCK 0 (inferred language is python)...\n"
        f"bob (to alice):\n\nexitcode: 0 (execution succeeded)\nCode output: \nhello 42\n\n\n{SEP}\n"
    ) in output
    assert "\n>>>>>>>> EXECUTING CODE BLOCK 0 (inferred language is sh)...\n" in output
    assert "\ntoo late\n" not in output  # the sleeping process was killed before printing


def test_executor_in_code_execution_config(
    console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer, tmp_path: Path
) -> None:
    scripted_server.add_replies("```python\nprint('hi', 6*7)\n```", SLOW, "TERMINATE")
    executor = LocalCommandLineCodeExecutor(timeout=1, work_dir=tmp_path)
    result = _chat(scripted_server, {"executor": executor})
    assert _roles_and_contents(result.chat_history)[2:5] == [
        ("assistant", "exitcode: 0 (execution succeeded)\nCode output: hi 42\n"),
        ("user", SLOW),
        ("assistant", "exitcode: 124 (execution failed)\nCode output: \nTimeout"),
    ]
    assert "\n>>>>>>>> EXECUTING CODE BLOCK (inferred language is python)...\n" in console.output


def test_work_dir_holds_saved_files(console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer,
                                    tmp_path: Path) -> None:
    scripted_server.add_replies("```python\n# filename: made.py\nopen('out.txt', 'w').write('data')\n```", "TERMINATE")
    _chat(scripted_server, {"work_dir": str(tmp_path), "use_docker": False, "timeout": 10})
    assert (tmp_path / "made.py").is_file()
    assert (tmp_path / "out.txt").read_text() == "data"


def test_message_without_code_gets_the_default_auto_reply(
    console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer, tmp_path: Path
) -> None:
    scripted_server.add_replies("Just words.", "TERMINATE")
    result = _chat(scripted_server, {"work_dir": str(tmp_path), "use_docker": False})
    assert _roles_and_contents(result.chat_history) == [
        ("assistant", "compute"), ("user", "Just words."), ("assistant", ""), ("user", "TERMINATE"),
    ]
    assert "EXECUTING CODE BLOCK" not in console.output


def test_code_execution_disabled_does_not_run_code(
    console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer, tmp_path: Path
) -> None:
    marker = tmp_path / "ran.txt"
    scripted_server.add_replies(f"```python\nopen({str(marker)!r}, 'w').write('x')\n```", "TERMINATE")
    result = _chat(scripted_server, False)
    assert not marker.exists()
    assert result.chat_history[2]["content"] == ""
