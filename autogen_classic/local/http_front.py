"""The embedded server's HTTP routes: an OpenAI-compatible front on 127.0.0.1, in the server's process.

Standard library only (``http.server``), one thread per connection; the engine runs requests with the
GIL released, so ``/v1/models`` answers while a chat is being written.

Routes: ``GET /v1/models``, ``GET /health``, ``POST /v1/chat/completions`` (streamed as server-sent events
when ``stream`` is true) and ``POST /v1/completions`` (a raw prompt, not streamed). Errors are OpenAI's
shape, ``{"error": {"message", "type", "param", "code"}}``, with a 4xx status for a request the model cannot
take: a content part it cannot read (``chat_request.py``), a ``tool_choice`` naming a function not offered, a
prompt longer than the context (OpenAI's "maximum context length" message).
"""

from __future__ import annotations

import json
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["FrontServer", "make_server"]

_JSON = "application/json"


def _error(message: str, status: int, param: str | None = None, code: str | None = None,
           kind: str = "invalid_request_error") -> tuple[int, dict[str, Any]]:  # fmt: skip
    return status, {"error": {"message": message, "type": kind, "param": param, "code": code}}


class FrontServer(ThreadingHTTPServer):
    """The HTTP server, holding what the handlers need: the engine and the layers around it."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], engine: Any, tool_calls: Any, chat_request: Any,
                 chat_format: str) -> None:  # fmt: skip
        super().__init__(address, _Handler, bind_and_activate=True)
        self.engine, self.tool_calls, self.chat_request, self.chat_format = engine, tool_calls, chat_request, chat_format
        self.created = int(time.time())


class _Handler(BaseHTTPRequestHandler):
    server: FrontServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass  # one line per request would fill the log; errors are answered to the client

    # ---------------------------------------------------------------------------------------- answers
    def _send_json(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", _JSON)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _read_json(self) -> dict[str, Any]:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length > 0 else b""
        try:
            request = json.loads(raw or b"{}")
        except ValueError as error:
            raise _BadRequest(*_error(f"The request body is not valid JSON: {error}", 400)) from None
        if not isinstance(request, dict):
            raise _BadRequest(*_error("The request body must be a JSON object.", 400))
        if self.path.endswith("/chat/completions"):
            self.server.chat_request.accept_messages(request)  # parsed once: content parts become text in place
        return request

    # ----------------------------------------------------------------------------------------- routes
    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        path = self.path.split("?", 1)[0].rstrip("/")
        if path in ("/v1/models", "/models"):
            model = {"id": self.server.engine.alias, "object": "model", "created": self.server.created,
                     "owned_by": "autogen-classic"}  # fmt: skip
            self._send_json(200, {"object": "list", "data": [model]})
        elif path in ("/health", "/v1/health"):
            self._send_json(200, {"status": "ok"})
        else:
            self._send_json(*_error(f"No route GET {path}.", 404, code="not_found"))

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        path = self.path.split("?", 1)[0].rstrip("/")
        streaming = _Stream(self)
        try:
            if path in ("/v1/chat/completions", "/chat/completions"):
                self._chat(streaming)
            elif path in ("/v1/completions", "/completions"):
                self._complete()
            else:
                self._send_json(*_error(f"No route POST {path}.", 404, code="not_found"))
        except _BadRequest as refused:
            streaming.fail(refused.status, refused.body)
        except self.server.chat_request.ChatRequestError as error:
            streaming.fail(*_error(str(error), 400, param=error.param))
        except self.server.tool_calls.ChoiceError as error:
            streaming.fail(*_error(str(error), 400, param=error.param))
        except Exception as error:  # noqa: BLE001 - every failure is answered, none kills the server
            streaming.fail(*self._engine_error(error))

    def _engine_error(self, error: Exception) -> tuple[int, dict[str, Any]]:
        status, body = getattr(error, "status", 500), getattr(error, "body", None)
        detail = body.get("error") if isinstance(body, dict) and isinstance(body.get("error"), dict) else None
        if detail is None:
            return _error(f"{type(error).__name__}: {error}", 500, kind="server_error")
        if detail.get("type") == "exceed_context_size_error":
            message = (
                f"This model's maximum context length is {detail.get('n_ctx')} tokens. However, your messages "
                f"resulted in {detail.get('n_prompt_tokens')} tokens. Please reduce the length of the messages."
            )
            return _error(message, 400, param="messages", code="context_length_exceeded")
        kind = "invalid_request_error" if status < 500 else "server_error"
        return _error(str(detail.get("message", error)), status, kind=kind)

    def _chat(self, streaming: _Stream) -> None:
        request = self._read_json()
        front = self.server
        stream = bool(request.get("stream"))
        answer = front.tool_calls.answer_chat(
            front.engine, request, front.chat_request.content_text,
            emit=streaming.send if stream else None, chat_format=front.chat_format,
        )  # fmt: skip
        if stream:
            streaming.finish()
        else:
            self._send_json(200, answer)

    def _complete(self) -> None:
        request = self._read_json()
        if request.get("stream"):
            raise _BadRequest(*_error("stream is not offered on /v1/completions; use /v1/chat/completions.", 400,
                                      param="stream"))  # fmt: skip
        if "prompt" not in request:
            raise _BadRequest(*_error("prompt is required: the text to complete.", 400, param="prompt"))
        self._send_json(200, self.server.engine.complete(request))


class _BadRequest(Exception):
    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(body["error"]["message"])
        self.status, self.body = status, body


class _Stream:
    """A streamed answer as server-sent events; the headers go out with the first chunk, so an error found
    before it is still a plain JSON error with its status."""

    def __init__(self, handler: _Handler) -> None:
        self.handler = handler
        self.started = False
        self.gone = False

    def _write(self, data: bytes) -> bool:
        try:
            self.handler.wfile.write(data)
            self.handler.wfile.flush()
            return True
        except OSError:  # the client left: stop generating
            self.gone = True
            return False

    def _start(self) -> None:
        if not self.started:
            self.started = True
            handler = self.handler
            handler.send_response(200)
            handler.send_header("Content-Type", "text/event-stream")
            handler.send_header("Cache-Control", "no-cache")
            handler.send_header("Connection", "close")
            handler.end_headers()
            handler.close_connection = True

    def send(self, chunk: dict[str, Any]) -> bool:
        """Write one chunk; True asks the engine to stop (the client is gone)."""
        if self.gone:
            return True
        self._start()
        return not self._write(b"data: " + json.dumps(chunk).encode("utf-8") + b"\n\n")

    def finish(self) -> None:
        self._start()
        self._write(b"data: [DONE]\n\n")

    def fail(self, status: int, body: dict[str, Any]) -> None:
        if self.started:  # mid-stream: the error as an event, as OpenAI sends it
            self._write(b"data: " + json.dumps(body).encode("utf-8") + b"\n\n")
            return
        try:
            self.handler._send_json(status, body)
        except OSError:
            pass


def make_server(host: str, port: int, engine: Any, tool_calls: Any, chat_request: Any, chat_format: str) -> FrontServer:
    """Bind the front on ``host:port`` (OSError when the port is taken); serve with ``serve_forever()``."""
    return FrontServer((host, port), engine, tool_calls, chat_request, chat_format)
