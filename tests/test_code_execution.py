"""Code execution: extraction, local execution, timeouts, config checking and the reply text."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import shutil
import socket
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path
from typing import Any, Optional

import pytest

from autogen_classic import code_utils
from autogen_classic.coding import (
    CodeBlock,
    CodeExecutionConfigError,
    CodeExecutor,
    CommandLineCodeResult,
    LocalCommandLineCodeExecutor,
    MarkdownCodeExtractor,
    a_code_execution_reply,
    code_execution_reply,
    resolve_code_execution_config,
    run_code_blocks,
    select_messages_to_scan,
)
from autogen_classic.io.base import IOStream
from autogen_classic.testing.io import ScriptedIOStream

PY = "```python\n{}\n```"


def user(content: Any) -> dict[str, Any]:
    return {"role": "user", "content": content}


@pytest.fixture(autouse=True)
def _no_docker_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every test sees the same world: no AUTOGEN_USE_DOCKER, no reachable Docker engine,
    # and not inside a container (where classic Docker requests run locally instead).
    monkeypatch.delenv("AUTOGEN_USE_DOCKER", raising=False)
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/autogen-classic-test.sock")
    monkeypatch.setattr(code_utils, "in_docker_container", lambda: False)


@pytest.fixture
def local(tmp_path: Path) -> dict[str, Any]:
    """A resolved classic config that runs code locally in tmp_path/wd."""
    config = resolve_code_execution_config({"work_dir": str(tmp_path / "wd"), "use_docker": False, "timeout": 30})
    assert config is not False
    return config


def reply(messages: list[dict[str, Any]], config: Any, stream: Optional[ScriptedIOStream] = None) -> tuple[bool, Any]:
    return code_execution_reply(messages, config, stream if stream is not None else ScriptedIOStream())


# --------------------------------------------------------------------------- extraction


def test_extract_code_multiple_blocks_and_untagged() -> None:
    text = "Plan:\n```python\nprint(1)\n```\nthen\n```sh\necho hi\n```\nand\n```\nx = 2\n```"
    assert code_utils.extract_code(text) == [("python", "print(1)"), ("sh", "echo hi"), ("", "x = 2")]


def test_extract_code_without_block_returns_unknown_and_the_text() -> None:
    assert code_utils.extract_code("no code here") == [(code_utils.UNKNOWN, "no code here")]
    assert code_utils.UNKNOWN == "unknown"


def test_extract_code_single_line_and_multimodal() -> None:
    text = "run `ls -l` then\n```python\n print(1) \n```"
    assert code_utils.extract_code(text, detect_single_line_code=True) == [("", "ls -l"), ("python", "print(1)")]
    assert code_utils.extract_code("plain", detect_single_line_code=True) == []
    content = [{"type": "text", "text": "```py\nprint(2)\n```"}, {"type": "image_url", "image_url": {"url": "u"}}]
    assert code_utils.extract_code(content) == [("py", "print(2)")]
    # autogen 0.14 joins the parts with newlines (ag2 0.7.3 joined them with nothing).
    assert code_utils.content_str(content) == "```py\nprint(2)\n```\n<image>"
    assert code_utils.content_str(None) == ""
    with pytest.raises(TypeError):
        code_utils.content_str(5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown type audio"):
        code_utils.content_str([{"type": "audio"}])


def test_infer_lang() -> None:
    assert code_utils.infer_lang("python script.py") == "sh"
    assert code_utils.infer_lang("pip install numpy") == "sh"
    assert code_utils.infer_lang("print('x')") == "python"
    assert code_utils.infer_lang("ls -la | grep x") == code_utils.UNKNOWN


def test_markdown_extractor_gives_code_blocks() -> None:
    blocks = MarkdownCodeExtractor().extract_code_blocks("```\nprint(1)\n```\n```\nfoo bar\n```\n```bash\nls\n```")
    assert blocks == [
        CodeBlock(code="print(1)", language="python"),
        CodeBlock(code="foo bar", language=""),
        CodeBlock(code="ls", language="bash"),
    ]
    assert MarkdownCodeExtractor().extract_code_blocks("nothing") == []


def test_classic_constants() -> None:
    assert code_utils.CODE_BLOCK_PATTERN == r"```[ \t]*(\w+)?[ \t]*\r?\n(.*?)\r?\n[ \t]*```"
    assert code_utils.TIMEOUT_MSG == "Timeout"
    assert code_utils.DEFAULT_TIMEOUT == 600
    assert code_utils.DEFAULT_MODEL == "gpt-5"  # autogen 0.14.1 (ag2 0.7.3: "gpt-4")
    assert Path(code_utils.WORKING_DIR).name == "extensions"


# --------------------------------------------------------------------------- running code, the classic way


def test_python_success_reply_text_and_banner(local: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")  # termcolor skips colour when stdout is not a terminal
    stream = ScriptedIOStream()
    code = "import sys\nprint('hi')\nprint('warn', file=sys.stderr)"
    assert reply([user(PY.format(code))], local, stream) == (True, "exitcode: 0 (execution succeeded)\nCode output: \nhi\n")
    assert stream.output == "\n>>>>>>>> EXECUTING CODE BLOCK 0 (inferred language is python)...\n"
    assert "\x1b[31m" in stream.raw_output  # red, like the classic console


def test_python_failure_reports_stderr_without_paths(local: dict[str, Any]) -> None:
    ok, text = reply([user(PY.format("print('a')\nraise ValueError('boom')"))], local)
    assert ok is True
    assert text == (
        "exitcode: 1 (execution failed)\nCode output: \nTraceback (most recent call last):\n"
        '  File "", line 2, in <module>\n    raise ValueError(\'boom\')\nValueError: boom\n'
    )


def test_shell_exit_code_and_stderr(local: dict[str, Any]) -> None:
    content = "```sh\necho out; echo err >&2; exit 3\n```"
    assert reply([user(content)], local) == (True, "exitcode: 3 (execution failed)\nCode output: \nerr\n")
    bash = "```bash\necho \"$BASH_VERSION\" | cut -c1-1 | tr -d '\\n' | wc -c\n```"
    assert reply([user(bash)], local) == (True, "exitcode: 0 (execution succeeded)\nCode output: \n1\n")


def test_untagged_pip_line_runs_as_shell(local: dict[str, Any]) -> None:
    stream = ScriptedIOStream()
    ok, _ = reply([user("```\npython -c \"print(7)\"\n```")], local, stream)
    assert ok is True
    assert "(inferred language is sh)" in stream.output


def test_blocks_run_in_order_and_stop_at_first_failure(local: dict[str, Any]) -> None:
    stream = ScriptedIOStream()
    content = "```python\nprint(1)\n```\n```sh\nexit 2\n```\n```python\nprint(3)\n```"
    assert reply([user(content)], local, stream) == (True, "exitcode: 2 (execution failed)\nCode output: \n1\n\n")
    assert stream.output == (
        "\n>>>>>>>> EXECUTING CODE BLOCK 0 (inferred language is python)...\n"
        "\n>>>>>>>> EXECUTING CODE BLOCK 1 (inferred language is sh)...\n"
    )


def test_unknown_language(local: dict[str, Any]) -> None:
    content = "```python\nprint(1)\n```\n```js\nconsole.log(1)\n```"
    assert reply([user(content)], local) == (
        True,
        "exitcode: 1 (execution failed)\nCode output: \n1\n\nunknown language js",
    )


def test_no_code_means_no_reply(local: dict[str, Any]) -> None:
    stream = ScriptedIOStream()
    assert reply([user("just words"), user(None), user("")], local, stream) == (False, None)
    assert stream.output == ""
    assert reply([user(PY.format("print(1)"))], False) == (False, None)


def test_work_dir_is_created_used_and_temp_files_removed(tmp_path: Path) -> None:
    work_dir = tmp_path / "deep" / "er"
    config = resolve_code_execution_config({"work_dir": str(work_dir), "use_docker": False})
    code = "import os\nprint(os.getcwd())\nopen('made.txt', 'w').write('x')"
    ok, text = reply([user(PY.format(code))], config)
    assert text == f"exitcode: 0 (execution succeeded)\nCode output: \n{work_dir.resolve()}\n"
    assert sorted(p.name for p in work_dir.iterdir()) == ["made.txt"]  # tmp_code_*.py removed


def test_filename_comment_saves_and_keeps_the_file(local: dict[str, Any]) -> None:
    work_dir = Path(local["work_dir"])
    code = "# filename: pkg/hello.py\nimport sys\nprint('named', sys.argv[0])"
    assert reply([user(PY.format(code))], local) == (
        True,
        "exitcode: 0 (execution succeeded)\nCode output: \nnamed pkg/hello.py\n",
    )
    assert (work_dir / "pkg" / "hello.py").read_text().startswith("# filename: pkg/hello.py\n")
    failing = "# filename: bad.py\nraise SystemExit('nope')"
    assert reply([user(PY.format(failing))], local) == (True, "exitcode: 1 (execution failed)\nCode output: \nnope\n")


def test_filename_comment_outside_work_dir_is_refused(local: dict[str, Any], tmp_path: Path) -> None:
    code = "# filename: ../escaped.py\nprint('x')"
    assert reply([user(PY.format(code))], local) == (
        True,
        "exitcode: 1 (execution failed)\nCode output: \nFilename is not in the workspace",
    )
    assert not (tmp_path / "escaped.py").exists()


def test_execute_code_directly(tmp_path: Path) -> None:
    assert code_utils.execute_code("print(6 * 7)", work_dir=str(tmp_path), use_docker=False) == (0, "42\n", None)
    assert code_utils.execute_code("exit 5", lang="sh", work_dir=str(tmp_path), use_docker=False)[0] == 5
    with pytest.raises(ValueError, match="code or filename"):
        code_utils.execute_code(use_docker=False)
    with pytest.raises(RuntimeError, match="docker is not running"):
        code_utils.execute_code("print(1)", work_dir=str(tmp_path))  # AUTOGEN_USE_DOCKER unset: Docker


def test_input_gets_end_of_file_instead_of_hanging(local: dict[str, Any]) -> None:
    ok, text = reply([user(PY.format("input('name? ')"))], local)
    assert text.startswith("exitcode: 1 (execution failed)") and text.endswith("EOFError: EOF when reading a line\n")


# --------------------------------------------------------------------------- timeouts kill the whole tree


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a killed process may linger as a zombie until its new parent reaps it
        return "\nState:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False


def _wait_dead(pid: int) -> bool:
    for _ in range(100):
        if not _alive(pid):
            return True
        time.sleep(0.05)
    return False


SPAWNS_CHILD = (
    "import subprocess, sys, time\n"
    "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
    "open('child.pid', 'w').write(str(child.pid))\n"
    "time.sleep(60)"
)


def test_timeout_returns_timeout_text_and_kills_grandchild(tmp_path: Path) -> None:
    config = resolve_code_execution_config({"work_dir": str(tmp_path), "use_docker": False, "timeout": 1})
    assert reply([user(PY.format(SPAWNS_CHILD))], config) == (
        True,
        "exitcode: 1 (execution failed)\nCode output: \nTimeout",
    )
    pid = int((tmp_path / "child.pid").read_text())
    assert _wait_dead(pid), f"grandchild {pid} survived the timeout"


def test_shell_timeout_kills_background_job(tmp_path: Path) -> None:
    config = resolve_code_execution_config({"work_dir": str(tmp_path), "use_docker": False, "timeout": 1})
    content = "```sh\nsleep 60 &\necho $! > child.pid\nwait\n```"
    assert reply([user(content)], config)[1] == "exitcode: 1 (execution failed)\nCode output: \nTimeout"
    assert _wait_dead(int((tmp_path / "child.pid").read_text()))


def test_executor_timeout_is_124_and_kills_grandchild(tmp_path: Path) -> None:
    config = resolve_code_execution_config({"executor": LocalCommandLineCodeExecutor(timeout=1, work_dir=tmp_path)})
    assert reply([user(PY.format(SPAWNS_CHILD))], config) == (
        True,
        "exitcode: 124 (execution failed)\nCode output: \nTimeout",
    )
    assert _wait_dead(int((tmp_path / "child.pid").read_text()))


# --------------------------------------------------------------------------- code_execution_config


def test_config_false_and_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    assert resolve_code_execution_config(False) is False
    with pytest.raises(RuntimeError) as err:
        resolve_code_execution_config({})  # classic default: Docker
    assert str(err.value) == (
        "Code execution is set to be run in docker (default behaviour) but docker is not running.\n"
        "The options available are:\n"
        "- Make sure docker is running (advised approach for code execution)\n"
        '- Set "use_docker": False in code_execution_config\n'
        '- Set AUTOGEN_USE_DOCKER to "0/False/no" in your environment variables'
    )
    monkeypatch.setenv("AUTOGEN_USE_DOCKER", "no")
    assert resolve_code_execution_config({}) == {"use_docker": False}


@pytest.mark.parametrize("use_docker", [True, "python:3-slim", ["python:3", "python:3-slim"]])
def test_asking_for_docker_without_engine_raises(use_docker: Any) -> None:
    with pytest.raises(RuntimeError, match='Set "use_docker": False in code_execution_config'):
        resolve_code_execution_config({"use_docker": use_docker, "work_dir": "coding"})


def test_docker_engine_present_resolves_to_docker(monkeypatch: pytest.MonkeyPatch) -> None:
    # A real engine-like endpoint: a Unix socket that answers the /_ping request with 200 OK.
    sock_dir = tempfile.mkdtemp(prefix="acd", dir="/tmp")
    path = os.path.join(sock_dir, "d.sock")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(1)

    def answer() -> None:
        conn, _ = server.accept()
        with conn:
            conn.recv(1024)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nOK")

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    monkeypatch.setenv("DOCKER_HOST", f"unix://{path}")
    try:
        if importlib.util.find_spec("docker") is not None:
            # The engine answers: the code will run in containers (tests/test_docker_execution.py runs them).
            assert resolve_code_execution_config({"use_docker": True}) == {"use_docker": True}
        else:
            with pytest.raises(ImportError, match=r'pip install "autogen-classic\[docker\]"'):
                resolve_code_execution_config({"use_docker": True})
    finally:
        thread.join(timeout=5)
        server.close()
        shutil.rmtree(sock_dir, ignore_errors=True)


@pytest.mark.parametrize(
    ("env", "expected"), [("0", False), ("False", False), ("no", False), ("f", False), ("None", None)]
)
def test_autogen_use_docker_env(monkeypatch: pytest.MonkeyPatch, env: str, expected: Optional[bool]) -> None:
    monkeypatch.setenv("AUTOGEN_USE_DOCKER", env)
    assert resolve_code_execution_config({"work_dir": "w"}) == {"work_dir": "w", "use_docker": expected}


def test_autogen_use_docker_env_invalid(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTOGEN_USE_DOCKER", "maybe")
    with pytest.raises(ValueError, match='Invalid value for AUTOGEN_USE_DOCKER: maybe. Please set AUTOGEN_USE_DOCKER to "1/True/yes"'):
        resolve_code_execution_config({})


@pytest.mark.parametrize("bad", ["yes", True, 1, ["work_dir"]])
def test_config_of_wrong_type(bad: Any) -> None:
    with pytest.raises(CodeExecutionConfigError, match="code_execution_config must be a dict or False") as err:
        resolve_code_execution_config(bad)
    assert isinstance(err.value, TypeError) and isinstance(err.value, ValueError)


def test_config_none_is_deprecated_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTOGEN_USE_DOCKER", "0")
    with pytest.warns(UserWarning, match="Using None to signal a default code_execution_config is deprecated"):
        assert resolve_code_execution_config(None) == {"use_docker": False}


def test_config_does_not_change_the_callers_dict() -> None:
    given = {"work_dir": "w", "use_docker": False}
    resolved = resolve_code_execution_config(given)
    assert resolved == given and resolved is not given


@pytest.mark.parametrize(
    ("config", "error", "match"),
    [
        ({"timeout": "10"}, TypeError, r'code_execution_config\["timeout"\] must be a number'),
        ({"work_dir": 3}, TypeError, r'code_execution_config\["work_dir"\] must be a str or Path'),
        ({"last_n_messages": -1}, ValueError, "last_n_messages must be either a non-negative integer"),
        ({"last_n_messages": "all"}, ValueError, "or the string 'auto'"),
    ],
)
def test_config_bad_values(config: dict[str, Any], error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        resolve_code_execution_config({"use_docker": False, **config})


def test_config_unknown_key_warns_and_is_ignored(tmp_path: Path) -> None:
    with pytest.warns(UserWarning, match="ignores: colour. Accepted keys: work_dir, use_docker, timeout"):
        config = resolve_code_execution_config({"work_dir": str(tmp_path), "use_docker": False, "colour": "red"})
    assert reply([user(PY.format("print(3)"))], config)[1] == "exitcode: 0 (execution succeeded)\nCode output: \n3\n"


def test_executor_config_rules(tmp_path: Path) -> None:
    executor = LocalCommandLineCodeExecutor(work_dir=tmp_path)
    assert isinstance(executor, CodeExecutor)
    for key in ("use_docker", "work_dir", "timeout"):
        with pytest.raises(ValueError, match=f"'{key}' in code_execution_config is not valid when 'executor' is set"):
            resolve_code_execution_config({"executor": executor, key: 1})
    with pytest.raises(ValueError, match="Unknown code executor nope"):
        resolve_code_execution_config({"executor": "nope"})
    built = resolve_code_execution_config(
        {"executor": "commandline-local", "commandline-local": {"work_dir": str(tmp_path / "cl"), "timeout": 5}}
    )
    assert isinstance(built["executor"], LocalCommandLineCodeExecutor)
    assert built["executor"].work_dir == tmp_path / "cl" and built["executor"].timeout == 5
    with pytest.raises(ValueError, match="Timeout must be greater than or equal to 1."):
        LocalCommandLineCodeExecutor(timeout=0, work_dir=tmp_path)


# --------------------------------------------------------------------------- which messages are scanned


def test_select_messages_to_scan() -> None:
    msgs = [user("a"), {"role": "assistant", "content": "b"}, user("c"), user("d")]
    assert select_messages_to_scan(msgs) == [user("c"), user("d")]
    assert select_messages_to_scan(msgs, 3) == msgs[1:]
    assert select_messages_to_scan(msgs, 10) == msgs
    assert select_messages_to_scan(msgs, 0) == []
    assert select_messages_to_scan(msgs + [{"role": "assistant", "content": "e"}]) == []
    with pytest.raises(ValueError, match="last_n_messages"):
        select_messages_to_scan(msgs, -1)


def test_auto_runs_only_code_since_the_agent_last_spoke(local: dict[str, Any]) -> None:
    old = user(PY.format("print('old')"))
    assert reply([old, {"role": "assistant", "content": "done"}, user("thanks")], local) == (False, None)
    assert reply([old, user("no code")], local)[1] == "exitcode: 0 (execution succeeded)\nCode output: \nold\n"
    newest_first = [user(PY.format("print('older')")), user(PY.format("print('newer')"))]
    assert reply(newest_first, local)[1].endswith("\nnewer\n")
    assert reply([old, user("x")], {**local, "last_n_messages": 1}) == (False, None)


# --------------------------------------------------------------------------- the executor config


def test_executor_reply_text_and_banner(tmp_path: Path) -> None:
    config = resolve_code_execution_config({"executor": LocalCommandLineCodeExecutor(work_dir=tmp_path)})
    stream = ScriptedIOStream()
    content = "```python\nimport sys\nprint('out'); print('err', file=sys.stderr)\n```\n```sh\necho two\n```"
    assert reply([user(content)], config, stream) == (True, "exitcode: 0 (execution succeeded)\nCode output: err\nout\ntwo\n")
    assert stream.output == "\n>>>>>>>> EXECUTING 2 CODE BLOCKS (inferred languages are [python, sh])...\n"
    assert len(list(tmp_path.glob("tmp_code_*.py"))) == 1  # the executor keeps its files
    stream.clear()
    assert reply([user("```\nfoo bar\n```")], config, stream) == (
        True,
        "exitcode: 1 (execution failed)\nCode output: \nunknown language ",
    )
    assert stream.output == "\n>>>>>>>> EXECUTING CODE BLOCK (inferred language is )...\n"
    # Nothing said since the agent last spoke: nothing runs (older code is not re-run).
    assert reply([user(PY.format("print(1)")), {"role": "assistant", "content": "ok"}], config) == (False, None)


def test_executor_result_fields_policies_and_refusals(tmp_path: Path) -> None:
    executor = LocalCommandLineCodeExecutor(work_dir=tmp_path)
    result = executor.execute_code_blocks([CodeBlock(code="# filename: app.py\nprint('app')", language="python")])
    assert result == CommandLineCodeResult(exit_code=0, output="app\n", code_file=str((tmp_path / "app.py").resolve()))
    saved = executor.execute_code_blocks([CodeBlock(code="console.log(1)", language="javascript")])
    assert saved.exit_code == 0 and saved.output.startswith("Code saved to ") and saved.output.endswith(".javascript\n")
    refused = executor.execute_code_blocks([CodeBlock(code="rm -rf /tmp/x", language="sh")])
    assert refused == CommandLineCodeResult(
        exit_code=1, output="Potentially dangerous command detected: Use of 'rm -rf' command is not allowed."
    )
    outside = executor.execute_code_blocks([CodeBlock(code="# filename: ../x.py\nprint(1)", language="python")])
    assert (outside.exit_code, outside.output) == (1, "Filename is not in the workspace")


# --------------------------------------------------------------------------- hooks for the agent


def test_custom_run_code_receives_classic_arguments(tmp_path: Path) -> None:
    calls: list[tuple[str, dict[str, Any]]] = []

    def run_code(code: str, **kwargs: Any) -> tuple[int, str, Optional[str]]:
        calls.append((code, kwargs))
        return 0, f"ran {kwargs['lang']}", None

    config = resolve_code_execution_config({"work_dir": str(tmp_path), "use_docker": False, "last_n_messages": 2})
    blocks = [("python", "# filename: a.py\nprint(1)"), ("bash", "ls")]
    assert run_code_blocks(blocks, config, ScriptedIOStream(), run_code=run_code) == (0, "\nran python\nran bash")
    assert calls == [
        ("# filename: a.py\nprint(1)", {"lang": "python", "filename": "a.py", "work_dir": str(tmp_path), "use_docker": False}),
        ("ls", {"lang": "bash", "work_dir": str(tmp_path), "use_docker": False}),
    ]


def test_async_reply_prints_to_the_current_stream(local: dict[str, Any]) -> None:
    stream = ScriptedIOStream()

    async def main() -> tuple[bool, Any]:
        with IOStream.set_default(stream):
            return await a_code_execution_reply([user(PY.format("print('async')"))], local)

    assert asyncio.run(main()) == (True, "exitcode: 0 (execution succeeded)\nCode output: \nasync\n")
    assert ">>>>>>>> EXECUTING CODE BLOCK 0 (inferred language is python)..." in stream.output


def test_sys_executable_runs_python(local: dict[str, Any]) -> None:
    ok, text = reply([user(PY.format("import sys; print(sys.executable)"))], local)
    assert text == f"exitcode: 0 (execution succeeded)\nCode output: \n{sys.executable}\n"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        resolve_code_execution_config({"use_docker": False, "work_dir": None, "timeout": None, "last_n_messages": "auto"})


def test_both_command_line_executors_run_blocks_through_one_loop() -> None:
    from autogen_classic.coding import DockerCommandLineCodeExecutor, LocalCommandLineCodeExecutor
    from autogen_classic.coding.running.file_blocks import FileCodeExecutor

    for executor in (LocalCommandLineCodeExecutor, DockerCommandLineCodeExecutor):
        assert issubclass(executor, FileCodeExecutor)
        assert executor._run_blocks is FileCodeExecutor._run_blocks
        assert executor.timeout is FileCodeExecutor.timeout
        assert executor.work_dir is FileCodeExecutor.work_dir
