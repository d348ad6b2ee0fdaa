"""Assembling a streamed chat completion while echoing its text to the console."""

from __future__ import annotations

from typing import Any

from openai.types.chat import ChatCompletion, ChatCompletionChunk
from termcolor import colored

from ...events.client_events import StreamEvent
from ...io.emit import emit, emit_print
from .stream_chunks import chunk_owner

__all__ = ["StreamAccumulator"]


class _ChoiceState:
    def __init__(self) -> None:
        self.content: str | None = None
        self.refusal: str | None = None
        self.finish_reason: str | None = None
        self.function_call: dict[str, Any] | None = None
        self.tool_calls: dict[int, dict[str, Any]] = {}
        self.pieces = 0


def _tool_call(merged: dict[str, Any]) -> dict[str, Any]:
    """A tool call of the assembled message from the merged deltas (their ``index`` is the position)."""
    call = {k: v for k, v in merged.items() if k != "index"}
    call.setdefault("id", "")
    call.setdefault("type", "function")
    call["function"] = {"name": "", "arguments": "", **(call.get("function") or {})}
    return call


class StreamAccumulator:
    """Collects ``ChatCompletionChunk`` objects into one ``ChatCompletion``.

    Content pieces are printed through the default ``IOStream`` as they arrive (so the user
    watches the answer being written); tool-call arguments are collected silently, through the
    classic chunk hooks of ``OpenAIWrapper`` (see ``stream_chunks``).
    """

    def __init__(self, echo: bool = True) -> None:
        self._echo = echo
        self._printed = False
        self._choices: dict[int, _ChoiceState] = {}
        self._first: ChatCompletionChunk | None = None
        self._usage: dict[str, Any] | None = None

    def add(self, chunk: ChatCompletionChunk) -> None:
        """Fold one chunk into the result, printing its text."""
        if self._first is None:
            self._first = chunk
        if chunk.usage is not None:
            self._usage = chunk.usage.model_dump()
        for choice in chunk.choices:
            state = self._choices.setdefault(choice.index, _ChoiceState())
            delta = choice.delta
            if choice.finish_reason:
                state.finish_reason = choice.finish_reason
            if delta is None:
                continue
            if delta.content:
                state.content = (state.content or "") + delta.content
                state.pieces += 1
                if self._echo:
                    emit(StreamEvent, content=delta.content)
                    self._printed = True
            if getattr(delta, "refusal", None):
                state.refusal = (state.refusal or "") + delta.refusal  # type: ignore[operator]
            if delta.function_call is not None or delta.tool_calls:
                owner = chunk_owner()
                if delta.function_call is not None:
                    state.function_call, _ = owner._update_function_call_from_chunk(
                        delta.function_call, state.function_call, 0
                    )
                    state.pieces += 1
                for tool_delta in delta.tool_calls or []:
                    state.tool_calls[tool_delta.index], _ = owner._update_tool_calls_from_chunk(
                        tool_delta, state.tool_calls.get(tool_delta.index), 0
                    )
                    state.pieces += 1

    def finish(self, interrupted: bool = False) -> None:
        """End the console line started by the streamed text.

        Args:
            interrupted: the stream broke off; the printed text is marked as incomplete so that it is
                not mistaken for a whole reply (the reply is not added to any chat).
        """
        if self._printed:
            marker = colored(" [stream interrupted]", "red") if interrupted else ""
            emit_print(marker)
            self._printed = False

    def result(self, params: dict[str, Any]) -> ChatCompletion:
        """Return the assembled completion.

        Args:
            params: the request; used to estimate token usage when the server sent none.
        """
        self.finish()
        if self._first is None:
            raise ValueError("the streamed response contained no chunks")
        choices: list[dict[str, Any]] = []
        for index in sorted(self._choices):
            state = self._choices[index]
            message: dict[str, Any] = {"role": "assistant", "content": state.content}
            if state.refusal:
                message["refusal"] = state.refusal
            if state.function_call is not None:
                message["function_call"] = {"name": "", "arguments": "", **state.function_call}
            if state.tool_calls:
                message["tool_calls"] = [_tool_call(state.tool_calls[i]) for i in sorted(state.tool_calls)]
            choices.append({"index": index, "message": message, "finish_reason": state.finish_reason or "stop"})
        usage = self._usage or self._estimate_usage(params)
        return ChatCompletion.model_validate(
            {
                "id": self._first.id,
                "object": "chat.completion",
                "created": self._first.created,
                "model": self._first.model,
                "system_fingerprint": self._first.system_fingerprint,
                "choices": choices,
                "usage": usage,
            }
        )

    def _estimate_usage(self, params: dict[str, Any]) -> dict[str, int]:
        # The server sent no usage chunk: count the prompt offline and one token per piece.
        completion = sum(state.pieces for state in self._choices.values())
        prompt = 0
        try:
            from ...token_count_utils import count_token

            prompt = int(count_token(params.get("messages", []), str(params.get("model") or "gpt-4o")))
        except Exception:  # noqa: BLE001 - the estimate is best effort; usage is informative only
            prompt = 0
        return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
