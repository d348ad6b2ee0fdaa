"""Code execution in Docker, against a real engine and a locally built image.

The session fixture runs ``.ci/docker_engine.sh`` (starts ``dockerd`` as root when needed and builds
``autogen-classic-test:bookworm`` from a Debian root file system, no image registry needed); when
that fails every test here is skipped with the script's reason. Results are compared with what
ag2 0.7.3 gives for the same blocks on the same image.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path
from typing import Any, Iterator

import pytest

from autogen_classic import AssistantAgent, UserProxyAgent
from autogen_classic.coding import CodeBlock, CodeExecutorFactory, CommandLineCodeResult
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer

REPO = Path(__file__).resolve().parent.parent
ENGINE_SCRIPT = REPO / ".ci" / "docker_engine.sh"
IMAGE = "autogen-classic-test:bookworm"
MISSING_IMAGE = "autogen-classic-no-such-image:1"

if importlib.util.find_spec("docker") is None:  # the optional extra
    pytest.skip(
        "Docker tests need the 'docker' package: pip install \"autogen-classic[docker]\"", allow_module_level=True
    )

import docker  # type: ignore[import-untyped]  # noqa: E402

from autogen_classic.coding import docker as docker_decision  # noqa: E402
from autogen_classic.coding.docker_commandline_code_executor import DockerCommandLineCodeExecutor  # noqa: E402
from autogen_classic.coding.containers.engine import (  # noqa: E402
    OWNER_PID_LABEL,
    TEST_IMAGE,
    DockerEngineUnavailableError,
    DockerImageNotFoundError,
    missing_image_message,
)
from autogen_classic.code_utils import execute_code  # noqa: E402


def _engine_reason() -> str | None:
    """None when the engine answers and the test image exists; else why not (the script's last words)."""
    try:
        done = subprocess.run(["bash", str(ENGINE_SCRIPT)], capture_output=True, text=True, timeout=900)
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"{ENGINE_SCRIPT.name} could not run: {err}"
    if done.returncode == 0:
        return None
    lines = (done.stderr + done.stdout).strip().splitlines()
    return lines[-1] if lines else f"{ENGINE_SCRIPT.name} exited with {done.returncode}"


@pytest.fixture(scope="session")
def engine() -> Iterator[Any]:
    """A ``docker.DockerClient`` of a running engine that has the test image; skips with the reason otherwise."""
    reason = _engine_reason()
    if reason is not None:
        print(f"\nDocker tests skipped: {reason}", file=sys.__stderr__ or sys.stderr)
        pytest.skip(f"no Docker engine with {IMAGE}: {reason}")
    client = docker.from_env()
    yield client
    client.close()


@pytest.fixture
def executor(engine: Any, tmp_path: Path) -> Iterator[DockerCommandLineCodeExecutor]:
    with DockerCommandLineCodeExecutor(image=IMAGE, work_dir=tmp_path / "wd", timeout=10) as ex:
        yield ex


@pytest.fixture
def on_host(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a host (no ``/.dockerenv``): classic ``use_docker`` code then runs in containers.

    This test machine may itself be a container, where the classic rule runs such code locally.
    """
    monkeypatch.setattr(docker_decision, "in_docker_container", lambda: False)
    monkeypatch.delenv("DOCKER_HOST", raising=False)


def _container(engine: Any, name: str) -> Any:
    try:
        return engine.containers.get(name)
    except docker.errors.NotFound:
        return None


def _gone(engine: Any, name: str, within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if _container(engine, name) is None:
            return True
        time.sleep(0.2)
    return False


def run(ex: DockerCommandLineCodeExecutor, *blocks: tuple[str, str]) -> CommandLineCodeResult:
    return ex.execute_code_blocks([CodeBlock(language=lang, code=code) for lang, code in blocks])


def generated(code: str, extension: str) -> str:
    """The classic name of a block's file: tmp_code_<md5 of the code>.<extension>."""
    return f"tmp_code_{hashlib.md5(code.encode()).hexdigest()}.{extension}"


# Prints the command lines of the container's live processes (zombies left out), one per line.
LIVE_PROCESSES = (
    "import os\n"
    "for pid in sorted(p for p in os.listdir('/proc') if p.isdigit()):\n"
    "    try:\n"
    "        state = open(f'/proc/{pid}/stat').read().rpartition(')')[2].split()[0]\n"
    "        cmd = open(f'/proc/{pid}/cmdline').read().replace('\\0', ' ').strip()\n"
    "    except OSError:\n"
    "        continue\n"
    "    if state != 'Z':\n"
    "        print(cmd)\n"
)


# --------------------------------------------------------------------------- the classic interface


def test_signature_and_class_attributes_are_classic() -> None:
    params = [
        (p.name, p.default)
        for p in list(inspect.signature(DockerCommandLineCodeExecutor.__init__).parameters.values())[1:]
    ]
    assert params == [
        ("image", "python:3-slim"),
        ("container_name", None),
        ("timeout", 60),
        ("work_dir", None),  # autogen 0.14.1's default (the current directory, as ag2 0.7.3's Path("."))
        ("bind_dir", None),
        ("auto_remove", True),
        ("stop_container", True),
        ("execution_policies", None),
        ("container_create_kwargs", None),  # keyword-only, as in autogen 0.14.1
    ]
    assert DockerCommandLineCodeExecutor.LANGUAGE_ALIASES == {"py": "python", "js": "javascript"}
    assert DockerCommandLineCodeExecutor.DEFAULT_EXECUTION_POLICY == {
        "bash": True, "shell": True, "sh": True, "pwsh": True, "powershell": True, "ps1": True,
        "python": True, "javascript": False, "html": False, "css": False,
    }
    import autogen_classic.coding as coding

    assert coding.DockerCommandLineCodeExecutor is DockerCommandLineCodeExecutor
    with pytest.raises(ValueError, match="^Timeout must be greater than or equal to 1.$"):
        DockerCommandLineCodeExecutor(image=IMAGE, timeout=0)
    with pytest.raises(TypeError, match="timeout must be a number"):
        DockerCommandLineCodeExecutor(image=IMAGE, timeout="5")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- running blocks


def test_python_and_shell_blocks(executor: DockerCommandLineCodeExecutor) -> None:
    wd = executor.work_dir
    result = run(executor, ("python", "print('hello')\nprint('x')"))
    assert result == CommandLineCodeResult(
        exit_code=0, output="hello\nx\n", code_file=str(wd / "tmp_code_3ef5b8b80c14ab07a65d2f8bb9d28a92.python")
    )
    result = run(executor, ("sh", "echo hi; echo err >&2; exit 3"))
    assert (result.exit_code, sorted(result.output.splitlines())) == (3, ["err", "hi"])
    assert result.code_file == str(wd / "tmp_code_ee9832beef7e37338782273c72863fa6.sh")
    # bash runs with bash, shell with sh; the working directory is /workspace.
    result = run(executor, ("bash", "echo $BASH_VERSINFO"), ("python", "import os; print(os.getcwd())"))
    assert result.exit_code == 0 and result.output == "5\n/workspace\n"
    failed = run(executor, ("py", "raise ValueError('boom')"), ("python", "print('not reached')"))
    assert failed.exit_code == 1
    assert failed.output.startswith('Traceback (most recent call last):\n  File "/workspace/tmp_code_')
    assert failed.output.endswith("ValueError: boom\n") and "not reached" not in failed.output
    # Code waiting for input gets end-of-file, not a hang.
    assert "EOFError" in run(executor, ("python", "input()")).output


def test_languages_policies_and_file_names(engine: Any, tmp_path: Path) -> None:
    with DockerCommandLineCodeExecutor(
        image=IMAGE, work_dir=tmp_path, execution_policies={"sh": False}
    ) as ex:
        assert run(ex, ("python", "print('first')"), ("rust", "fn main() {}")) == CommandLineCodeResult(
            exit_code=1,
            output="first\nUnsupported language rust\n",
            code_file=str(tmp_path / "tmp_code_a0797290b9884398f58dc18b46429d1b.python"),
        )
        saved = run(ex, ("html", "<b>x</b>"), ("sh", "echo never"), ("PYTHON", "print('ran')"))
        assert saved.exit_code == 0
        assert saved.output == (
            f"Code saved to {tmp_path / 'tmp_code_191d0845e70bcc5f5e6a98cc2bb13e95.html'}\n"
            f"Code saved to {tmp_path / generated('echo never', 'sh')}\n"
            "ran\n"
        )
        assert run(ex, ("python", "# filename: ../escape.py\nprint(1)")) == CommandLineCodeResult(
            exit_code=1, output="Filename is not in the workspace"
        )
        named = run(ex, ("python", "# filename: pkg/app.py\nprint(__file__)"))
        assert named.exit_code == 0 and named.output == "/workspace/pkg/app.py\n"
        assert named.code_file == str(tmp_path / "pkg" / "app.py")
        # pip lines are quietened, as in the local executor.
        run(ex, ("python", "# filename: quiet.py\n!pip install nothing"))
        assert (tmp_path / "quiet.py").read_text() == "# filename: quiet.py\n!pip install -qqq nothing"


def test_files_are_shared_through_the_working_directory(executor: DockerCommandLineCodeExecutor) -> None:
    (executor.work_dir / "input.txt").write_text("from the host")
    code = "print(open('input.txt').read())\nopen('out.txt', 'w').write('from the container')"
    result = run(executor, ("python", code))
    assert result.output == "from the host\n"
    assert (executor.work_dir / "out.txt").read_text() == "from the container"


def test_bind_dir_is_what_the_container_sees(engine: Any, tmp_path: Path) -> None:
    # As for a process in a container talking to the host's engine: work_dir is this process's view,
    # bind_dir the engine's path of the same directory (here: a symlink and its target).
    real = tmp_path / "real"
    real.mkdir()
    view = tmp_path / "view"
    view.symlink_to(real)
    name = f"agc-test-{uuid.uuid4().hex[:8]}"
    with DockerCommandLineCodeExecutor(image=IMAGE, work_dir=view, bind_dir=real, container_name=name) as ex:
        assert ex.work_dir == view and ex.bind_dir == real
        assert engine.containers.get(name).attrs["HostConfig"]["Binds"] == [f"{real}:/workspace:rw"]
        result = run(ex, ("python", "print('through bind_dir')"))
        assert result.output == "through bind_dir\n"
        assert result.code_file == str(view / generated("print('through bind_dir')", "python"))
        assert (real / generated("print('through bind_dir')", "python")).exists()


def test_timeout_kills_the_block(engine: Any, tmp_path: Path) -> None:
    with DockerCommandLineCodeExecutor(image=IMAGE, work_dir=tmp_path, timeout=2) as ex:
        start = time.monotonic()
        slow = "print('before', flush=True)\nimport time; time.sleep(30)"
        result = run(ex, ("python", "print('first')"), ("python", slow))
        assert (result.exit_code, result.output) == (124, "first\nbefore\n\nTimeout")
        assert time.monotonic() - start < 10
        # A process that ignores SIGTERM is ended too, with everything else the code started.
        stubborn = "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\ntime.sleep(60)"
        start = time.monotonic()
        assert run(ex, ("python", stubborn)) == CommandLineCodeResult(
            exit_code=124, output="\nTimeout", code_file=str(tmp_path / generated(stubborn, "python"))
        )
        assert time.monotonic() - start < 20
        # The container is still there for the next block, with nothing of those left running.
        live = run(ex, ("python", LIVE_PROCESSES))
        assert live.exit_code == 0
        assert "sleep" not in live.output and generated(stubborn, "python") not in live.output
        # A block ends with its own process, as in classic AutoGen: what it started in the background
        # goes on running (until restart() or stop()).
        start = time.monotonic()
        assert (run(ex, ("sh", "sleep 60 &\necho started")).output, time.monotonic() - start < 5) == ("started\n", True)


# --------------------------------------------------------------------------- errors


def test_missing_image_is_named_with_the_fix(engine: Any, tmp_path: Path) -> None:
    with pytest.raises(DockerImageNotFoundError) as err:
        DockerCommandLineCodeExecutor(image=MISSING_IMAGE, work_dir=tmp_path)
    assert isinstance(err.value, docker.errors.ImageNotFound)  # and so the classic APIError
    text = str(err.value)
    assert text.startswith(f"Docker image not found: {MISSING_IMAGE} is not on the Docker engine")
    assert f"`docker pull {MISSING_IMAGE}`" in text
    # The test image names the script that builds it.
    assert "`bash .ci/docker_engine.sh`" in missing_image_message([TEST_IMAGE])


def test_unreachable_engine_names_what_was_tried(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/autogen-classic-test.sock")
    with pytest.raises(DockerEngineUnavailableError) as err:
        DockerCommandLineCodeExecutor(image=IMAGE, work_dir=tmp_path)
    assert isinstance(err.value, docker.errors.DockerException) and isinstance(err.value, RuntimeError)
    text = str(err.value)
    assert text.startswith("No Docker engine answers at DOCKER_HOST=unix:///nonexistent/autogen-classic-test.sock")
    assert "Start Docker" in text and "LocalCommandLineCodeExecutor" in text


# --------------------------------------------------------------------------- the container's life


def test_stop_restart_and_with_block(engine: Any, tmp_path: Path) -> None:
    name = f"agc-test-{uuid.uuid4().hex[:8]}"
    with DockerCommandLineCodeExecutor(image=IMAGE, work_dir=tmp_path, container_name=name) as ex:
        assert _container(engine, name).status == "running"
        assert _container(engine, name).labels[OWNER_PID_LABEL] == str(os.getpid())
        run(ex, ("sh", "sleep 300 >/dev/null 2>&1 &"))
        assert "sleep 300" in run(ex, ("python", LIVE_PROCESSES)).output
        ex.restart()  # ends what the code left running; the files stay
        assert "sleep 300" not in run(ex, ("python", LIVE_PROCESSES)).output
        assert (tmp_path / generated("sleep 300 >/dev/null 2>&1 &", "sh")).exists()
    assert _gone(engine, name, within=5)
    ex.stop()  # twice is fine
    with pytest.raises(RuntimeError, match="was stopped; call restart"):
        run(ex, ("python", "print(1)"))
    ex.restart()  # a new container
    assert run(ex, ("python", "print('again')")).output == "again\n"
    ex.stop()
    assert _gone(engine, name, within=5)


def test_auto_remove_false_leaves_the_stopped_container(engine: Any, tmp_path: Path) -> None:
    name = f"agc-test-{uuid.uuid4().hex[:8]}"
    ex = DockerCommandLineCodeExecutor(image=IMAGE, work_dir=tmp_path, container_name=name, auto_remove=False)
    try:
        first_id = _container(engine, name).id
        ex.stop()
        assert _container(engine, name).status == "exited"
        ex.restart()  # the same container, started again
        assert _container(engine, name).id == first_id and _container(engine, name).status == "running"
        assert run(ex, ("python", "print('back')")).output == "back\n"
        ex.stop()
    finally:
        engine.containers.get(name).remove(force=True)


def _child(tmp_path: Path, body: str, stop_container: bool = True) -> subprocess.Popen[str]:
    """A Python program that builds an executor, prints its container's name, then runs ``body``."""
    script = tmp_path / "child.py"
    script.write_text(
        textwrap.dedent(
            """
            import signal, sys, uuid
            from autogen_classic.coding import CodeBlock
            from autogen_classic.coding.docker_commandline_code_executor import DockerCommandLineCodeExecutor
            signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C as in a terminal
            name = f"agc-test-{uuid.uuid4().hex[:8]}"
            ex = DockerCommandLineCodeExecutor(image=sys.argv[1], work_dir="wd", container_name=name,
                                               stop_container=sys.argv[2] == "stop")
            print(name, flush=True)
            """
        )
        + textwrap.dedent(body)
    )
    return subprocess.Popen(
        [sys.executable, str(script), IMAGE, "stop" if stop_container else "keep"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_container_is_removed_at_interpreter_exit(engine: Any, tmp_path: Path) -> None:
    child = _child(tmp_path, "print('done')\n")
    out, err = child.communicate(timeout=60)
    name = out.split()[0]
    assert child.returncode == 0, err
    assert _gone(engine, name)


def test_container_is_removed_after_ctrl_c(engine: Any, tmp_path: Path) -> None:
    child = _child(
        tmp_path, "print('running', flush=True)\nex.execute_code_blocks([CodeBlock(language='sh', code='sleep 50')])\n"
    )
    assert child.stdout is not None
    name = child.stdout.readline().strip()
    assert child.stdout.readline().strip() == "running"
    time.sleep(1.0)  # inside the block now
    assert _container(engine, name).status == "running"
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=30)
    assert "KeyboardInterrupt" in err
    assert _gone(engine, name)


def test_container_of_a_killed_run_is_removed_by_the_next_start(engine: Any, tmp_path: Path) -> None:
    child = _child(tmp_path, "print('running', flush=True)\nimport time; time.sleep(120)\n")
    assert child.stdout is not None
    name = child.stdout.readline().strip()
    assert child.stdout.readline().strip() == "running"
    child.kill()  # SIGKILL: no atexit, nothing cleans up
    child.wait(timeout=10)
    assert _container(engine, name).status == "running"
    with DockerCommandLineCodeExecutor(image=IMAGE, work_dir=tmp_path / "next"):
        assert _container(engine, name) is None


def test_stop_container_false_keeps_it_running_after_exit(engine: Any, tmp_path: Path) -> None:
    child = _child(tmp_path, "print('done')\n", stop_container=False)
    out, err = child.communicate(timeout=60)
    name = out.split()[0]
    try:
        assert child.returncode == 0, err
        container = _container(engine, name)
        assert container is not None and container.status == "running"
        assert OWNER_PID_LABEL not in container.labels  # not taken for a leftover by the next start
        with DockerCommandLineCodeExecutor(image=IMAGE, work_dir=tmp_path / "next"):
            assert _container(engine, name) is not None
    finally:
        engine.containers.get(name).remove(force=True)


# --------------------------------------------------------------------------- factory and agents


def test_factory_builds_the_docker_executor(engine: Any, tmp_path: Path) -> None:
    ex = CodeExecutorFactory.create(
        {
            "executor": "commandline-docker",
            "commandline-docker": {"image": IMAGE, "work_dir": str(tmp_path), "timeout": 7},
        }
    )
    assert isinstance(ex, DockerCommandLineCodeExecutor)
    try:
        assert ex.timeout == 7
        assert run(ex, ("python", "print(6 * 7)")).output == "42\n"
    finally:
        ex.stop()
    with pytest.raises(TypeError, match=r'code_execution_config\["commandline-docker"\] must be a dict'):
        CodeExecutorFactory.create(
            {"executor": "commandline-docker", "commandline-docker": "python:3"}  # type: ignore[typeddict-item]
        )
    with pytest.raises(ValueError, match='"commandline-docker"'):
        CodeExecutorFactory.create({"executor": "docker"})  # type: ignore[typeddict-item]


def _chat(server: ScriptedOpenAIServer, code_execution_config: Any) -> tuple[Any, UserProxyAgent]:
    alice = AssistantAgent("alice", llm_config=server.llm_config())
    bob = UserProxyAgent("bob", human_input_mode="NEVER", max_consecutive_auto_reply=5,
                         code_execution_config=code_execution_config)
    return bob.initiate_chat(alice, message="compute"), bob


def _contents(result: Any) -> list[Any]:
    return [m["content"] for m in result.chat_history]


def test_agent_with_executor_config_runs_in_a_container(
    engine: Any, console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer, tmp_path: Path
) -> None:
    scripted_server.add_replies("```python\nimport os\nprint(os.getcwd())\n```", "TERMINATE")
    config = {"executor": "commandline-docker", "commandline-docker": {"image": IMAGE, "work_dir": str(tmp_path)}}
    result, bob = _chat(scripted_server, config)
    executor = bob.code_executor
    try:
        assert isinstance(executor, DockerCommandLineCodeExecutor)
        assert _contents(result)[2] == "exitcode: 0 (execution succeeded)\nCode output: /workspace\n"
    finally:
        executor.stop()


def _committed_images(engine: Any) -> set[str]:
    return {tag for image in engine.images.list(name="python") for tag in image.tags}


def test_agent_with_use_docker_image_runs_blocks_in_containers(
    engine: Any, on_host: None, console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer, tmp_path: Path
) -> None:
    before = _committed_images(engine)
    scripted_server.add_replies(
        "```python\nimport os\nprint(os.getcwd())\n```",
        "```sh\necho remembered > /root/state.txt\n```",  # outside the working directory
        "```sh\ncat /root/state.txt\n```",
        "```python\nraise SystemExit(3)\n```",
        "TERMINATE",
    )
    try:
        result, bob = _chat(scripted_server, {"work_dir": str(tmp_path), "use_docker": IMAGE, "timeout": 30})
        assert _contents(result)[2::2][:4] == [
            "exitcode: 0 (execution succeeded)\nCode output: \n/workspace\n",
            "exitcode: 0 (execution succeeded)\nCode output: \n",
            # Each run is committed and the next one starts from that image, as in classic AutoGen.
            "exitcode: 0 (execution succeeded)\nCode output: \nremembered\n",
            "exitcode: 3 (execution failed)\nCode output: \n",
        ]
        image = bob.use_docker
        assert isinstance(image, str) and image.startswith("python:tmp_code_") and image.endswith(".py")
        assert "\n>>>>>>>> EXECUTING CODE BLOCK 0 (inferred language is sh)...\n" in console.output
        assert not [c for c in engine.containers.list(all=True) if c.attrs["Config"]["Image"] == image]
    finally:
        for tag in _committed_images(engine) - before:
            engine.images.remove(tag, force=True)


def test_execute_code_in_docker_directly(engine: Any, on_host: None, tmp_path: Path) -> None:
    before = _committed_images(engine)
    try:
        code, logs, image = execute_code("print('hi')", work_dir=str(tmp_path), use_docker=[MISSING_IMAGE, IMAGE])
        assert (code, logs, image) == (0, "hi\n", "python:tmp_code_701bf4a4743e5e0361e26999881a5ce9.py")
        assert not (tmp_path / "tmp_code_701bf4a4743e5e0361e26999881a5ce9.py").exists()  # generated files go
        code, logs, _ = execute_code("raise ValueError('x')", work_dir=str(tmp_path), use_docker=IMAGE)
        assert (code, logs) == (1, 'Traceback (most recent call last):\n  File "", line 1, in <module>\n'
                                   "    raise ValueError('x')\nValueError: x\n")
        code, logs, _ = execute_code("raise KeyError(1)", filename="named.py", work_dir=str(tmp_path), use_docker=IMAGE)
        assert code == 1 and 'File "named.py", line 1' in logs
        start = time.monotonic()
        assert execute_code("import time; time.sleep(30)", timeout=2, work_dir=str(tmp_path), use_docker=IMAGE) == (
            1, "Timeout", IMAGE
        )
        assert time.monotonic() - start < 10
        with pytest.raises(NotImplementedError, match="rust not recognized in code execution"):
            execute_code("x", lang="rust", work_dir=str(tmp_path), use_docker=IMAGE)
        with pytest.raises(DockerImageNotFoundError, match=f"`docker pull {MISSING_IMAGE}`"):
            execute_code("print(1)", work_dir=str(tmp_path), use_docker=MISSING_IMAGE)
        labelled = engine.containers.list(all=True, filters={"label": OWNER_PID_LABEL})
        assert not [c for c in labelled if c.labels[OWNER_PID_LABEL] == str(os.getpid())]
    finally:
        for tag in _committed_images(engine) - before:
            engine.images.remove(tag, force=True)


def test_benchmark_runs_and_checks_its_outputs(engine: Any, capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("bench_docker_exec", REPO / "bench" / "bench_docker_exec.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules["bench_docker_exec"] = bench  # dataclasses resolve their module by name
    spec.loader.exec_module(bench)
    assert bench.main(["--image", IMAGE, "--repeat", "1", "--legacy-repeat", "1"]) == 0
    table = capsys.readouterr().out
    assert "block                      local    docker  docker/local  use_docker  wrong" in table
    assert all(block.name in table for block in bench.BLOCKS)
