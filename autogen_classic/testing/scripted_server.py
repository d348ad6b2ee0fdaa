"""A real OpenAI-compatible HTTP server that answers from a script.

Tests (and demos) point the real ``openai`` client at ``server.base_url`` and queue the
replies the "model" should give. Every request body is recorded, so a test can assert
exactly what an agent sent. Error statuses, slow, malformed and truncated responses can
be scripted too, which exercises the client's real error handling end to end.

Example::

    with ScriptedOpenAIServer() as server:
        server.add_reply("Hello")
        agent = AssistantAgent("a", llm_config=server.llm_config())
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Deque, Dict, Iterator, List, Optional, Union

from .scripted_responses import ResponsesLedger, check_request, render_response

__all__ = ["ScriptedReply", "ScriptedOpenAIServer", "Responder"]

API_KEY = "sk-scripted-test"
DEFAULT_MODEL = "scripted-model"
_PIECE = 4  # characters per streamed content/argument piece

_ERROR_TYPES = {
    400: ("invalid_request_error", "invalid_request"),
    401: ("invalid_request_error", "invalid_api_key"),
    404: ("invalid_request_error", "not_found"),
    429: ("requests", "rate_limit_exceeded"),
}


class _BackloggedHTTPServer(ThreadingHTTPServer):
    # The stdlib backlog of 5 drops connections when dozens of chats connect at the same moment.
    request_queue_size = 256


@dataclass
class ScriptedReply:
    """One scripted answer to a chat-completions request.

    Args:
        content: assistant text (may be None when only tool calls are returned).
        tool_calls: list of ``{"name", "arguments", "id"?}`` (or full OpenAI ``{"id", "type", "function"}``) dicts;
            dict arguments are JSON-encoded, a missing id becomes ``call_N``.
        function_call: legacy ``{"name", "arguments"}`` call.
        status: HTTP status; anything but 200 sends an OpenAI-style error body.
        headers: extra response headers (e.g. ``{"Retry-After": "0"}``).
        delay: seconds to sleep before answering.
        raw_body: body sent verbatim (status and headers still apply).
        empty_choices: answer with ``"choices": []``.
        truncate: send the headers and half the body, then close the connection.
        usage: overrides the computed token usage (``total_tokens`` is filled in if absent).
        finish_reason: overrides the derived finish reason.
        error_message: message of the error body when ``status`` is not 200.
        reasoning: the model's reasoning text: ``reasoning_content`` of the chat message, a ``reasoning``
            item of a Responses API answer (``/v1/responses``).
    """

    content: Optional[str] = None
    tool_calls: Optional[List[Dict[str, Any]]] = None
    function_call: Optional[Dict[str, Any]] = None
    status: int = 200
    headers: Dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    raw_body: Optional[Union[str, bytes]] = None
    empty_choices: bool = False
    truncate: bool = False
    usage: Optional[Dict[str, int]] = None
    finish_reason: Optional[str] = None
    error_message: Optional[str] = None
    reasoning: Optional[str] = None

    def __post_init__(self) -> None:
        if not isinstance(self.status, int) or not 100 <= self.status <= 599:
            raise ValueError(f"status must be an HTTP status code between 100 and 599, got {self.status!r}")
        if self.delay < 0:
            raise ValueError(f"delay must be >= 0 seconds, got {self.delay!r}")
        for call in self.tool_calls or []:
            fn = call.get("function", call) if isinstance(call, dict) else None
            if not isinstance(fn, dict) or "name" not in fn:
                raise ValueError(f"tool_calls items must be dicts with a 'name' (and 'arguments'), got {call!r}")
        if self.function_call is not None and "name" not in self.function_call:
            raise ValueError(f"function_call must be a dict with a 'name', got {self.function_call!r}")


Responder = Callable[[Dict[str, Any]], Union[str, ScriptedReply, None]]


def _as_reply(reply: Union[str, ScriptedReply], argument: str = "reply") -> ScriptedReply:
    if isinstance(reply, ScriptedReply):
        return reply
    if isinstance(reply, str):
        return ScriptedReply(content=reply)
    raise TypeError(f"{argument} must be a str or ScriptedReply, got {type(reply).__name__}")


def _words(text: Any) -> int:
    if isinstance(text, str):
        return len(text.split())
    if isinstance(text, list):  # multimodal content: count the text parts
        return sum(_words(part.get("text")) for part in text if isinstance(part, dict))
    return 0


def _error_body(status: int, message: str) -> bytes:
    err_type, code = _ERROR_TYPES.get(status, ("server_error", None))
    return json.dumps({"error": {"message": message, "type": err_type, "param": None, "code": code}}).encode()


def _pieces(text: str) -> Iterator[str]:
    for start in range(0, len(text), _PIECE):
        yield text[start : start + _PIECE]


class ScriptedOpenAIServer:
    """An OpenAI chat-completions server on 127.0.0.1 that answers from a queue of scripted replies.

    ``/v1/responses`` answers from the same queue in the Responses API's form (see ``scripted_responses``).

    Args:
        default_reply: answer used when neither the responder nor the queue supplies one; when None
            such requests get HTTP 500 ("no reply scripted for this request").
    """

    def __init__(self, default_reply: Union[str, ScriptedReply, None] = None) -> None:
        self.default_reply: Optional[ScriptedReply] = (
            None if default_reply is None else _as_reply(default_reply, "default_reply")
        )
        self._lock = threading.Lock()
        self._queue: Deque[ScriptedReply] = deque()
        self._responder: Optional[Responder] = None
        self._models: List[str] = [DEFAULT_MODEL]
        self._httpd: Optional[ThreadingHTTPServer] = None
        self._thread: Optional[threading.Thread] = None
        self._response_counter = 0
        self._call_counter = 0
        self._responses = ResponsesLedger()
        self.requests: List[Dict[str, Any]] = []
        self.request_headers: List[Dict[str, str]] = []

    # ----- lifecycle -------------------------------------------------------------------------------------------
    def start(self) -> "ScriptedOpenAIServer":
        """Bind a free port on 127.0.0.1 and serve in a daemon thread (no-op when already running)."""
        if self._httpd is None:
            httpd = _BackloggedHTTPServer(("127.0.0.1", 0), _make_handler(self))
            httpd.daemon_threads = True
            # a short poll interval makes stop() prompt
            self._thread = threading.Thread(
                target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, name="scripted-openai", daemon=True
            )
            self._httpd = httpd
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and release the port; safe to call more than once."""
        httpd, self._httpd = self._httpd, None
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> "ScriptedOpenAIServer":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("the scripted server is not running; call start() or use it as a context manager")
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1`` for ``openai.OpenAI(base_url=...)``."""
        return f"http://127.0.0.1:{self.port}/v1"

    # ----- configuration helpers -------------------------------------------------------------------------------
    def config_entry(self, model: str = DEFAULT_MODEL, **extra: Any) -> Dict[str, Any]:
        """One ``config_list`` entry pointing at this server."""
        with self._lock:
            if model not in self._models:
                self._models.append(model)
        return {"model": model, "base_url": self.base_url, "api_key": API_KEY, **extra}

    def llm_config(self, model: str = DEFAULT_MODEL, **extra: Any) -> Dict[str, Any]:
        """An ``llm_config`` using this server, with caching off; ``extra`` keys are added at top level."""
        return {"config_list": [self.config_entry(model)], "cache_seed": None, **extra}

    # ----- scripting ------------------------------------------------------------------------------------------
    def add_reply(self, reply: Union[str, ScriptedReply]) -> None:
        """Queue one reply (a str is a plain text answer)."""
        item = _as_reply(reply)
        with self._lock:
            self._queue.append(item)

    def add_replies(self, *replies: Union[str, ScriptedReply]) -> None:
        """Queue several replies, answered in order."""
        items = [_as_reply(r, "replies") for r in replies]
        with self._lock:
            self._queue.extend(items)

    def set_responder(self, fn: Optional[Responder]) -> None:
        """Consult ``fn(request_body)`` before the queue; it returns a reply, or None to use the queue."""
        if fn is not None and not callable(fn):
            raise TypeError(f"fn must be a callable taking the request body dict, or None; got {type(fn).__name__}")
        self._responder = fn

    def reset(self) -> None:
        """Forget queued replies, the responder and all recorded requests."""
        with self._lock:
            self._queue.clear()
            self._responder = None
            self.requests.clear()
            self.request_headers.clear()
            self._response_counter = 0
            self._call_counter = 0
        self._responses.clear()

    @property
    def request_count(self) -> int:
        return len(self.requests)

    @property
    def pending_replies(self) -> int:
        return len(self._queue)

    @property
    def models(self) -> List[str]:
        return list(self._models)

    # ----- request handling (called from handler threads) ------------------------------------------------------
    def _record(self, body: Dict[str, Any], headers: Dict[str, str]) -> int:
        with self._lock:
            self.requests.append(body)
            self.request_headers.append(headers)
            self._response_counter += 1
            return self._response_counter

    def _next_reply(self, body: Dict[str, Any]) -> Optional[ScriptedReply]:
        responder = self._responder
        if responder is not None:
            answer = responder(body)
            if answer is not None:
                return _as_reply(answer, "responder result")
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        return self.default_reply

    def _tool_calls(self, reply: ScriptedReply) -> Optional[List[Dict[str, Any]]]:
        if reply.tool_calls is None:
            return None
        calls = []
        for call in reply.tool_calls:
            fn = call.get("function", call)
            args = fn.get("arguments", {})
            with self._lock:
                self._call_counter += 1
                auto_id = f"call_{self._call_counter}"
            calls.append(
                {
                    "id": call.get("id") or auto_id,
                    "type": "function",
                    "function": {"name": fn["name"], "arguments": args if isinstance(args, str) else json.dumps(args)},
                }
            )
        return calls

    def _completion(self, body: Dict[str, Any], reply: ScriptedReply, number: int) -> Dict[str, Any]:
        """Build the full (non-streamed) completion; streaming slices it into chunks."""
        message: Dict[str, Any] = {"role": "assistant", "content": reply.content}
        if reply.reasoning is not None:
            message["reasoning_content"] = reply.reasoning
        tool_calls = self._tool_calls(reply)
        finish = "stop"
        if tool_calls:
            message["tool_calls"] = tool_calls
            finish = "tool_calls"
        if reply.function_call is not None:
            args = reply.function_call.get("arguments", "")
            message["function_call"] = {
                "name": reply.function_call["name"],
                "arguments": args if isinstance(args, str) else json.dumps(args),
            }
            finish = "function_call"
        prompt = sum(_words(m.get("content")) for m in body.get("messages", []) if isinstance(m, dict))
        completion = _words(reply.content) + sum(_words(c["function"]["arguments"]) for c in tool_calls or [])
        if "function_call" in message:
            completion += _words(message["function_call"]["arguments"])
        usage = {"prompt_tokens": max(prompt, 1), "completion_tokens": max(completion, 1)}
        usage.update(reply.usage or {})
        usage.setdefault("total_tokens", usage["prompt_tokens"] + usage["completion_tokens"])
        choices = [] if reply.empty_choices else [
            {"index": 0, "message": message, "finish_reason": reply.finish_reason or finish, "logprobs": None}
        ]
        return {
            "id": f"chatcmpl-scripted-{number}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", DEFAULT_MODEL),
            "choices": choices,
            "usage": usage,
        }

    @staticmethod
    def _stream(body: Dict[str, Any], completion: Dict[str, Any]) -> bytes:
        """Render a completion as server-sent ``chat.completion.chunk`` events."""
        head = {k: completion[k] for k in ("id", "created", "model")}
        events: List[Dict[str, Any]] = []

        def chunk(delta: Dict[str, Any], finish: Optional[str] = None) -> None:
            events.append({**head, "object": "chat.completion.chunk",
                           "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})

        if completion["choices"]:
            choice = completion["choices"][0]
            message = choice["message"]
            chunk({"role": "assistant", "content": ""})
            for piece in _pieces(message.get("content") or ""):
                chunk({"content": piece})
            for index, call in enumerate(message.get("tool_calls", [])):
                name = call["function"]["name"]
                chunk({"tool_calls": [{"index": index, "id": call["id"], "type": "function",
                                       "function": {"name": name, "arguments": ""}}]})
                for piece in _pieces(call["function"]["arguments"]):
                    chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
            if "function_call" in message:
                chunk({"function_call": {"name": message["function_call"]["name"], "arguments": ""}})
                for piece in _pieces(message["function_call"]["arguments"]):
                    chunk({"function_call": {"arguments": piece}})
            chunk({}, choice["finish_reason"])
        include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
        if include_usage or not completion["choices"]:  # an empty-choices reply still sends one chunk
            usage = completion["usage"] if include_usage else None
            events.append({**head, "object": "chat.completion.chunk", "choices": [], "usage": usage})
        lines = [f"data: {json.dumps(event)}\n\n" for event in events] + ["data: [DONE]\n\n"]
        return "".join(lines).encode()

    def _respond(
        self, body: Dict[str, Any], number: int, responses: bool = False
    ) -> tuple[int, Dict[str, str], bytes, bool]:
        """Return (status, headers, body bytes, truncate) for one chat-completions (or Responses API) request."""
        if responses:
            refused = check_request(self._responses, body)
            if refused is not None:
                return refused[0], {}, _error_body(refused[0], refused[1]), False
        reply = self._next_reply(body)
        if reply is None:
            return 500, {}, _error_body(500, "no reply scripted for this request"), False
        if reply.delay:
            time.sleep(reply.delay)
        headers = dict(reply.headers)  # Content-Type defaults to JSON when sent
        if reply.raw_body is not None:
            raw = reply.raw_body.encode() if isinstance(reply.raw_body, str) else reply.raw_body
            return reply.status, headers, raw, reply.truncate
        if reply.status != 200:
            message = reply.error_message or f"scripted error (HTTP {reply.status})"
            return reply.status, headers, _error_body(reply.status, message), reply.truncate
        if responses:
            answer = render_response(self._responses, body, reply, number, self._tool_calls(reply))
            return 200, headers, json.dumps(answer).encode(), reply.truncate
        completion = self._completion(body, reply, number)
        if body.get("stream"):
            headers.setdefault("Content-Type", "text/event-stream")
            return 200, headers, self._stream(body, completion), reply.truncate
        return 200, headers, json.dumps(completion).encode(), reply.truncate


def _make_handler(server: ScriptedOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the openai client pools connections
        disable_nagle_algorithm = True  # headers and body go out as separate writes; avoid delayed-ACK stalls
        timeout = 30  # idle keep-alive connections eventually free their thread

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
            pass  # keep test output clean

        def _send(self, status: int, headers: Dict[str, str], payload: bytes, truncate: bool = False) -> None:
            try:
                self._write(status, headers, payload, truncate)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True  # the client gave up (e.g. its timeout); nobody to answer

        def _write(self, status: int, headers: Dict[str, str], payload: bytes, truncate: bool) -> None:
            self.send_response(status)
            if not any(key.lower() == "content-type" for key in headers):
                headers = {**headers, "Content-Type": "application/json"}
            for key, value in headers.items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(payload)))
            if truncate:
                self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(payload[: len(payload) // 2] if truncate else payload)
            self.wfile.flush()
            if truncate:
                self.close_connection = True

        def _json(self, status: int, data: Union[Dict[str, Any], bytes]) -> None:
            payload = data if isinstance(data, bytes) else json.dumps(data).encode()
            self._send(status, {"Content-Type": "application/json"}, payload)

        def do_GET(self) -> None:  # noqa: N802 - stdlib naming
            if self.path.rstrip("/") == "/v1/models":
                data = [{"id": m, "object": "model", "created": 0, "owned_by": "scripted"} for m in server.models]
                self._json(200, {"object": "list", "data": data})
            else:
                self._json(404, _error_body(404, f"unknown path {self.path}"))

        def do_POST(self) -> None:  # noqa: N802 - stdlib naming
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            route = self.path.split("?")[0].rstrip("/")
            if route not in ("/v1/chat/completions", "/v1/responses"):
                self._json(404, _error_body(404, f"unknown path {self.path}"))
                return
            try:
                body = json.loads(raw or b"{}")
                if not isinstance(body, dict):
                    raise ValueError("request body is not a JSON object")
            except ValueError as exc:
                self._json(400, _error_body(400, f"invalid JSON body: {exc}"))
                return
            number = server._record(body, {k.lower(): v for k, v in self.headers.items()})
            try:
                status, headers, payload, truncate = server._respond(body, number, route == "/v1/responses")
            except Exception as exc:  # a failing responder should surface as a server error, not a hang
                status, headers, payload, truncate = 500, {}, _error_body(500, f"responder failed: {exc!r}"), False
            self._send(status, headers, payload, truncate)

    return Handler
