"""IOWebsockets: a real websocket server on a thread, real clients, real chats against the scripted model server."""

from __future__ import annotations

import errno
import inspect
import json
import logging
import queue
import shutil
import socket
import ssl
import subprocess
import sys
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Callable, Iterator, List

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from autogen_classic import ConversableAgent, register_function
from autogen_classic.io import IOConsole, IOStream, IOWebsockets
from autogen_classic.io.websockets import print_event_json
from autogen_classic.messages.print_message import PrintMessage
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply

pytestmark = pytest.mark.timeout(60)

HUMAN_PROMPT = (
    "Replying as user. Provide feedback to assistant. Press enter to skip and use auto-reply, "
    "or type 'exit' to end the conversation: "
)


def receive_all(ws: ClientConnection, timeout: float = 20) -> List[str]:
    """Every message the server sends until it closes the connection."""
    received: List[str] = []
    try:
        while True:
            received.append(str(ws.recv(timeout=timeout)))
    except ConnectionClosed:
        return received


def events(messages: List[str]) -> List[dict[str, Any]]:
    return [json.loads(m) for m in messages]


def recv_classic(ws: Any, timeout: float = 20) -> Any:
    """The next message that is not a model-request event (this package's own, sent besides the classic ones)."""
    while True:
        text = ws.recv(timeout=timeout)
        if not (isinstance(text, str) and text.startswith('{"type":"model_request"')):
            return text


@pytest.fixture
def serve() -> Iterator[Callable[..., Any]]:
    """``serve(on_connect)``: run_server_in_thread on a free port; the test checks no thread outlives it."""
    before = set(threading.enumerate())
    yield lambda on_connect, **kw: IOWebsockets.run_server_in_thread(on_connect=on_connect, port=0, **kw)
    left = [t for t in new_threads(before, settle=0) if "process_request_thread" not in t.name]  # not the model server's
    for thread in left:  # a closed connection's keepalive thread notices the close a moment later
        thread.join(timeout=2)
    left = [t for t in left if t.is_alive()]
    assert left == [], f"threads left running: {left}"


def new_threads(before: set[threading.Thread], settle: float = 10.0) -> List[threading.Thread]:
    """The threads started since ``before`` still alive after at most ``settle`` seconds (a closed client
    connection's keepalive thread ends shortly after the close, not at once)."""
    deadline = time.monotonic() + settle
    while True:
        alive = [t for t in threading.enumerate() if t not in before and t.is_alive()]
        if not alive or time.monotonic() >= deadline:
            return alive
        time.sleep(0.02)


# ----------------------------------------------------------------------------- chats


def test_chat_events_reach_the_client_as_json(serve, scripted_server: ScriptedOpenAIServer) -> None:
    call = {"name": "add", "arguments": {"a": 2, "b": 3}, "id": "call_1"}
    scripted_server.add_reply(ScriptedReply(tool_calls=[call]))
    scripted_server.add_reply("The sum is 5. TERMINATE")
    llm_config = scripted_server.llm_config()
    results: "queue.Queue[Any]" = queue.Queue()

    def on_connect(iostream: IOWebsockets) -> None:
        task = iostream.websocket.recv()
        assistant = ConversableAgent("assistant", llm_config=llm_config, human_input_mode="NEVER")
        user = ConversableAgent(
            "user", llm_config=False, human_input_mode="NEVER",
            is_termination_msg=lambda m: "TERMINATE" in (m.get("content") or ""),
        )

        def add(a: int, b: int) -> int:
            return a + b

        register_function(add, caller=assistant, executor=user, description="Add two numbers")
        result = user.initiate_chat(assistant, message=task)
        iostream.print("Summary:", result.summary)
        results.put(result)

    with serve(on_connect) as uri:
        with connect(uri) as ws:
            ws.send("What is 2 + 3?")
            everything = events(receive_all(ws))

    # Besides the classic events, the client is told of each model request (this package's own event).
    requests = [e for e in everything if e["type"] == "model_request"]
    assert len(requests) == 2 and requests[0]["content"]["source_name"] == "assistant"
    received = [e for e in everything if e["type"] != "model_request"]
    assert [e["type"] for e in received] == [
        "text", "tool_call", "execute_function", "executed_function", "tool_response", "text", "termination", "print"]
    first, call, execute, executed, response, answer, termination, summary = (e["content"] for e in received)
    # AG2 Classic 0.14.1 reports the execution and the end of the chat too.
    assert (executed["func_name"], executed["content"]) == ("add", "5")
    assert termination["termination_reason"] == "Termination message condition on agent 'user' met"
    assert (first["sender_name"], first["recipient_name"], first["content"]) == ("user", "assistant", "What is 2 + 3?")
    assert call["sender_name"] == "assistant" and call["tool_calls"][0]["function"]["name"] == "add"
    assert (execute["func_name"], execute["call_id"], execute["arguments"]) == ("add", "call_1", {"a": 2, "b": 3})
    assert response["tool_responses"] == [{"tool_call_id": "call_1", "role": "tool", "content": "5"}]
    assert (answer["sender_name"], answer["content"]) == ("assistant", "The sum is 5. TERMINATE")
    assert summary["objects"] == ["Summary:", "The sum is 5. "] and summary["end"] == "\n"
    assert all("uuid" in e["content"] for e in received)
    assert results.get(timeout=5).chat_history[-1]["content"] == "The sum is 5. TERMINATE"
    # A client written for AG2 Classic 0.14 reads the same events by its names: sender / recipient.
    assert (first["sender"], first["recipient"]) == ("user", "assistant") and call["sender"] == "assistant"
    assert execute["recipient"] == execute["recipient_name"]
    from autogen_classic.events.agent_events import TextEvent
    from autogen_classic.messages.agent_messages import TextMessage

    text_json = json.dumps(received[0])
    assert TextEvent.model_validate_json(text_json).content.sender == "user"  # type: ignore[attr-defined]
    assert TextMessage.model_validate_json(text_json).content.sender_name == "user"  # type: ignore[attr-defined]


def test_human_input_is_asked_of_the_client(serve, scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply("Hello from the assistant.")
    scripted_server.add_reply("Thanks for the feedback.")
    llm_config = scripted_server.llm_config()
    histories: "queue.Queue[Any]" = queue.Queue()

    def on_connect(iostream: IOWebsockets) -> None:
        assistant = ConversableAgent("assistant", llm_config=llm_config, human_input_mode="NEVER")
        user = ConversableAgent("user", llm_config=False, human_input_mode="ALWAYS")
        histories.put(user.initiate_chat(assistant, message=iostream.websocket.recv()).chat_history)

    with serve(on_connect) as uri:
        with connect(uri) as ws:
            ws.send("Start")
            first = json.loads(recv_classic(ws))
            reply = json.loads(recv_classic(ws))
            prompt = recv_classic(ws)
            ws.send("Please be brief.")  # the person's answer
            assert json.loads(recv_classic(ws))["content"]["content"] == "Please be brief."
            assert json.loads(recv_classic(ws))["content"]["content"] == "Thanks for the feedback."
            assert recv_classic(ws) == HUMAN_PROMPT
            ws.send("exit")
            last = [json.loads(m) for m in receive_all(ws) if '"model_request"' not in m]
            assert [(e["type"], e["content"]["termination_reason"]) for e in last] == [
                ("termination", "User requested to end the conversation")]

    # Prompts travel as plain text, not JSON, and the answer is the client's next message.
    assert prompt == HUMAN_PROMPT
    assert first["content"]["content"] == "Start" and reply["content"]["content"] == "Hello from the assistant."
    history = histories.get(timeout=5)
    assert [m["content"] for m in history] == [
        "Start", "Hello from the assistant.", "Please be brief.", "Thanks for the feedback."
    ]
    assert history[2]["name"] == "user"


def test_each_connection_has_its_own_default_stream(serve) -> None:
    outside = IOStream.get_default()
    seen: "queue.Queue[Any]" = queue.Queue()

    def on_connect(iostream: IOWebsockets) -> None:
        seen.put(IOStream.get_default() is iostream)
        name = iostream.websocket.recv()
        time.sleep(0.2)  # both clients are connected at once
        IOStream.get_default().print("hello", name)

    with serve(on_connect) as uri:
        with connect(uri) as one, connect(uri) as two:
            one.send("one")
            two.send("two")
            assert [e["content"]["objects"] for e in events(receive_all(one))] == [["hello", "one"]]
            assert [e["content"]["objects"] for e in events(receive_all(two))] == [["hello", "two"]]
    assert [seen.get(timeout=5), seen.get(timeout=5)] == [True, True]
    assert IOStream.get_default() is outside


# ----------------------------------------------------------------------------- the stream


def test_print_send_and_input_on_the_wire(serve) -> None:
    class Event:
        def model_dump_json(self) -> str:
            return '{"type":"custom","content":{"x":1}}'

    answers: "queue.Queue[Any]" = queue.Queue()

    def on_connect(iostream: IOWebsockets) -> None:
        iostream.print("a", 1, {"b": 2}, sep="|", end="!\n", flush=True)
        iostream.send(Event())
        iostream.send("no model_dump_json")
        answers.put(iostream.input("Your name: "))
        answers.put(iostream.input())  # empty prompt: nothing is sent
        answers.put(iostream.input("Password: ", password=True))

    with serve(on_connect) as uri:
        with connect(uri) as ws:
            printed = json.loads(ws.recv(timeout=10))
            assert printed["type"] == "print"
            assert {k: v for k, v in printed["content"].items() if k != "uuid"} == {
                "objects": ["a", "1", '{"b": 2}'], "sep": "|", "end": "!\n"
            }
            assert ws.recv(timeout=10) == '{"type":"custom","content":{"x":1}}'
            assert json.loads(ws.recv(timeout=10))["content"]["objects"] == ["no model_dump_json"]
            assert ws.recv(timeout=10) == "Your name: "
            ws.send("Ada")
            ws.send(b"bytes answer")
            assert ws.recv(timeout=10) == "Password: "
            ws.send("s3cret")
            assert receive_all(ws) == []
    assert [answers.get(timeout=5) for _ in range(3)] == ["Ada", "bytes answer", "s3cret"]


@pytest.mark.parametrize(
    "objects", [("plain",), ("héllo ✓", 1, 2.5, None, True), ({"k": [1, "x"]}, "tab\there\nnewline"), ()]
)
def test_print_json_is_a_print_message(objects: tuple[Any, ...]) -> None:
    ours = json.loads(print_event_json(*objects, sep="-", end=""))
    reference = json.loads(PrintMessage(*objects, sep="-", end="").model_dump_json())
    assert ours["content"].pop("uuid") and reference["content"].pop("uuid")
    assert ours == reference
    read_back = PrintMessage.model_validate_json(print_event_json(*objects, sep="-", end=""))
    assert read_back.content.objects == reference["content"]["objects"]


def test_input_raises_eof_when_the_client_leaves(serve) -> None:
    outcome: "queue.Queue[Any]" = queue.Queue()

    def on_connect(iostream: IOWebsockets) -> None:
        try:
            iostream.input("Anyone there? ")
        except EOFError as error:
            outcome.put(error)

    with serve(on_connect) as uri:
        with connect(uri) as ws:
            assert ws.recv(timeout=10) == "Anyone there? "
        assert isinstance(outcome.get(timeout=10), EOFError)


def test_error_in_on_connect_is_logged_and_the_server_keeps_serving(serve, caplog: pytest.LogCaptureFixture) -> None:
    calls: List[str] = []

    def on_connect(iostream: IOWebsockets) -> None:
        calls.append(str(iostream.websocket.recv()))
        if len(calls) == 1:
            raise ValueError("boom")
        iostream.print("fine")

    with caplog.at_level(logging.WARNING, logger="autogen_classic.io.websockets"):
        with serve(on_connect) as uri:
            with connect(uri) as ws:
                ws.send("first")
                assert receive_all(ws) == []
            with connect(uri) as ws:
                ws.send("second")
                assert [e["content"]["objects"] for e in events(receive_all(ws))] == [["fine"]]
    assert calls == ["first", "second"]
    assert "Error in on_connect: boom" in caplog.text


# ----------------------------------------------------------------------------- the server


def test_defaults_and_loopback_binding(serve) -> None:
    parameters = inspect.signature(IOWebsockets.run_server_in_thread).parameters
    assert parameters["host"].default == "127.0.0.1" and parameters["port"].default == 8765
    assert parameters["ssl_context"].default is None
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for n, p in parameters.items() if n != "kwargs")

    with serve(lambda iostream: iostream.print("hi")) as uri:
        assert uri.startswith("ws://127.0.0.1:")
        port = int(uri.rsplit(":", 1)[1])
        assert port != 0
        with connect(uri) as ws:
            assert json.loads(ws.recv(timeout=10))["content"]["objects"] == ["hi"]
        if sys.platform.startswith("linux"):  # all of 127/8 is loopback there: another address is not served
            with pytest.raises(ConnectionRefusedError):
                socket.create_connection(("127.0.0.2", port), timeout=5).close()


def test_leaving_the_block_stops_every_thread(serve) -> None:
    outcome: "queue.Queue[Any]" = queue.Queue()

    def on_connect(iostream: IOWebsockets) -> None:
        try:
            iostream.input("waiting: ")
        except EOFError as error:
            outcome.put(error)

    before = set(threading.enumerate())
    with ExitStack() as clients:
        with serve(on_connect) as uri:
            ws = clients.enter_context(connect(uri))
            assert ws.recv(timeout=10) == "waiting: "
            assert len(new_threads(before, settle=0)) >= 2  # the server and the connection
        # The client is still connected when the block ends: the server closes it and waits for on_connect.
        assert isinstance(outcome.get(timeout=5), EOFError)
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=10)
    assert new_threads(before) == []
    with pytest.raises(ConnectionRefusedError):
        connect(uri, open_timeout=5)


@pytest.mark.parametrize("port", [-1, 65536, "8765", None, True])
def test_a_bad_port_is_refused(port: Any) -> None:
    before = set(threading.enumerate())
    with pytest.raises(ValueError, match=r"port must be an integer from 0 to 65535"):
        with IOWebsockets.run_server_in_thread(on_connect=print, port=port):
            pass
    assert set(threading.enumerate()) <= before


def test_a_port_in_use_is_a_clear_os_error() -> None:
    before = set(threading.enumerate())
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(OSError, match=rf"could not listen on 127\.0\.0\.1:{port}.*port=0") as caught:
            with IOWebsockets.run_server_in_thread(on_connect=print, port=port):
                pass
    assert caught.value.errno == errno.EADDRINUSE
    assert set(threading.enumerate()) <= before


@pytest.mark.parametrize("host", [None, "", 127])
def test_a_bad_host_is_refused(host: Any) -> None:
    with pytest.raises(ValueError, match=r"host must be an address"):
        with IOWebsockets.run_server_in_thread(on_connect=print, host=host, port=0):
            pass


def test_on_connect_is_required_and_callable() -> None:
    with pytest.raises(TypeError, match="on_connect"):
        with IOWebsockets.run_server_in_thread(on_connect="not a function", port=0):  # type: ignore[arg-type]
            pass


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command to make a certificate")
def test_tls_serves_wss(serve, tmp_path: Path) -> None:
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
         "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True,
    )
    server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_context.load_cert_chain(cert, key)
    client_context = ssl.create_default_context(cafile=str(cert))

    with serve(lambda iostream: iostream.print("secure"), ssl_context=server_context) as uri:
        assert uri.startswith("wss://127.0.0.1:")
        with connect(uri, ssl=client_context) as ws:
            assert json.loads(ws.recv(timeout=10))["content"]["objects"] == ["secure"]


def test_the_stream_is_an_iostream() -> None:
    stream = IOWebsockets(websocket=None)  # type: ignore[arg-type]
    assert isinstance(stream, IOStream) and stream.websocket is None
    assert not isinstance(stream, IOConsole)


def test_without_the_websockets_package() -> None:
    code = (
        "import sys\n"
        "for name in ('websockets', 'websockets.sync', 'websockets.sync.server', 'websockets.exceptions'):\n"
        "    sys.modules[name] = None\n"
        "import autogen_classic, autogen_classic.io\n"
        "from autogen_classic.io import IOWebsockets\n"
        "try:\n"
        "    with IOWebsockets.run_server_in_thread(on_connect=print):\n"
        "        pass\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "IOWebsockets needs the 'websockets' package" in done.stdout
    assert 'pip install "autogen-classic[websockets]"' in done.stdout
