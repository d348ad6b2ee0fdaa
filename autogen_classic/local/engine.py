"""The inference engine inside the embedded server's process: llama.cpp's own server code, in process.

``xllamacpp`` ships llama.cpp's C++ server as a prebuilt wheel (no compiler needed to install it). Its
``Server`` answers OpenAI-shaped requests as Python dicts: chat completions through the model's own chat
template (Jinja), and raw completions of a prompt under a GBNF grammar with the log-probabilities of the
tokens it wrote. Everything else the embedded server offers (tool calls, content parts, the HTTP routes) is
this package's thin layer around those two calls (``tool_calls.py``, ``chat_request.py``, ``http_front.py``).

``Engine`` runs only in the server's process (``server_process.py``); the package never imports xllamacpp.
Requests run on the caller's thread with the GIL released, so the HTTP front answers other routes meanwhile;
llama.cpp queues generations on its single slot.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["Engine", "EngineError"]

Chunk = dict[str, Any]


class EngineError(Exception):
    """llama.cpp refused a request; ``status`` is the HTTP status it gave, ``body`` its OpenAI-style error."""

    def __init__(self, body: dict[str, Any]) -> None:
        error = body.get("error") if isinstance(body.get("error"), dict) else body
        super().__init__(str(error.get("message", "the engine refused the request")))
        code = error.get("code")
        self.status = code if isinstance(code, int) and 400 <= code < 600 else 500
        self.body = body


class Engine:
    """SmolLM2 (or any GGUF model) loaded by llama.cpp in this process.

    Args:
        model: the GGUF file.
        alias: the model name answers carry (``model`` of each response).
        n_ctx: the context size in tokens.
        n_threads: CPU threads for generation and prompt evaluation.
    """

    def __init__(self, model: str, alias: str, n_ctx: int, n_threads: int) -> None:
        import xllamacpp

        params = xllamacpp.CommonParams()
        params.model.path = model
        params.model_alias = {alias}
        params.n_ctx = n_ctx
        params.n_batch = min(n_ctx, 2048)
        params.n_parallel = 1  # one slot: the whole context for one conversation, and its prompt cache
        params.cpuparams.n_threads = n_threads
        params.cpuparams_batch.n_threads = n_threads
        # llama.cpp's own HTTP listener is not used (http_front.py is the server): keep it on a free
        # loopback port so it never takes the one asked for.
        params.hostnames = ["127.0.0.1"]
        params.port = 0
        self.alias = alias
        self.n_ctx = n_ctx
        self._server = xllamacpp.Server(params)

    def _answer(self, result: Any) -> dict[str, Any]:
        if not isinstance(result, dict):
            raise EngineError({"error": {"message": f"unexpected answer from llama.cpp: {result!r:.200}", "code": 500}})
        if "error" in result:
            raise EngineError(result)
        result["model"] = self.alias
        return result

    def chat(self, request: dict[str, Any], on_chunk: Callable[[Chunk], Any] | None = None) -> dict[str, Any] | None:
        """A chat completion through the model's chat template; streamed to ``on_chunk`` when given.

        Returns the response, or None when streamed. An ``on_chunk`` returning True stops the stream.

        Raises:
            EngineError: llama.cpp refused the request (e.g. a prompt longer than the context).
        """
        if on_chunk is None:
            return self._answer(self._server.handle_chat_completions({**request, "stream": False}))
        refused: list[dict[str, Any]] = []

        def forward(chunk: Any) -> Any:
            if isinstance(chunk, dict) and "error" in chunk:
                refused.append(chunk)
                return True
            if isinstance(chunk, dict):
                chunk["model"] = self.alias
            return on_chunk(chunk)

        result = self._server.handle_chat_completions({**request, "stream": True}, forward)
        if refused:
            raise EngineError(refused[0])
        if isinstance(result, dict) and "error" in result:
            raise EngineError(result)
        return None

    def complete(self, request: dict[str, Any]) -> dict[str, Any]:
        """A raw completion of ``request["prompt"]`` (text with the chat markers, or token ids), not streamed.

        Takes llama.cpp's completion options: ``grammar`` (GBNF), ``n_probs`` (log-probabilities of the
        tokens written), ``max_tokens``, ``stop`` and the sampling settings.
        """
        return self._answer(self._server.handle_completions({**request, "stream": False}))
