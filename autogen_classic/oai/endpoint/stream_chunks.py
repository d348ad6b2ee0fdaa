"""Merging the function and tool calls of streamed chunks: classic ``OpenAIWrapper``'s chunk hooks.

``OpenAIWrapper`` inherits ``StreamChunkMerging`` and registers itself here (``register_chunk_owner``);
the stream accumulator merges every function-call and tool-call delta through the registered class,
as classic AutoGen's client calls ``OpenAIWrapper._update_tool_calls_from_chunk`` and
``OpenAIWrapper._update_dict_from_chunk``. Patching one of them on ``OpenAIWrapper`` therefore
changes how streamed calls are assembled.
"""

from __future__ import annotations

from typing import Any

__all__ = ["StreamChunkMerging", "chunk_owner", "register_chunk_owner"]


class StreamChunkMerging:
    """The classic chunk hooks; each looks the next one up on the registered owner class at call time."""

    @staticmethod
    def _update_dict_from_chunk(chunk: Any, d: dict[str, Any], field: str) -> int:
        """Fold ``chunk.<field>`` into ``d[field]``: strings are appended, other values replace.

        Args:
            chunk: a delta object (a function-call or tool-call delta).
            d: the dict being assembled, changed in place.
            field: the attribute of ``chunk`` to read.

        Returns:
            1 when the chunk carried the field (one completion token), else 0.

        Raises:
            NotImplementedError: the field holds a list or a dict.
        """
        assert isinstance(d, dict), d
        value = getattr(chunk, field, None)
        if value is None:
            return 0
        if isinstance(value, (list, dict)):
            raise NotImplementedError(
                f"Field {field} is a list or dict, which is currently not supported. "
                "Only string and numbers are supported."
            )
        if isinstance(value, str):
            d[field] = d.get(field, "") + value
        else:
            d[field] = value
        return 1

    @staticmethod
    def _update_function_call_from_chunk(
        function_call_chunk: Any, full_function_call: dict[str, Any] | None, completion_tokens: int
    ) -> tuple[dict[str, Any], int]:
        """Fold a function-call delta (``name``, ``arguments``) into ``full_function_call``.

        Returns:
            The function call so far and the completion-token count so far.

        Raises:
            RuntimeError: nothing of a function call has arrived.
        """
        owner = chunk_owner()
        if function_call_chunk:
            if full_function_call is None:
                full_function_call = {}
            for field in ("name", "arguments"):
                completion_tokens += owner._update_dict_from_chunk(function_call_chunk, full_function_call, field)
        if not full_function_call:
            raise RuntimeError("Function call is not found, this should not happen.")
        return full_function_call, completion_tokens

    @staticmethod
    def _update_tool_calls_from_chunk(
        tool_calls_chunk: Any, full_tool_call: dict[str, Any] | None, completion_tokens: int
    ) -> tuple[dict[str, Any], int]:
        """Fold a tool-call delta (``index``, ``id``, ``type``, ``function``) into ``full_tool_call``.

        Returns:
            The tool call so far and the completion-token count so far.

        Raises:
            NotImplementedError: the delta is of a tool type other than ``"function"``.
            RuntimeError: nothing of a tool call has arrived.
        """
        owner = chunk_owner()
        call_type = getattr(tool_calls_chunk, "type", None)
        if call_type and call_type != "function":
            raise NotImplementedError(
                f"Tool call type {call_type} is currently not supported. Only function calls are supported."
            )
        assert full_tool_call is None or isinstance(full_tool_call, dict), full_tool_call
        if tool_calls_chunk:
            if full_tool_call is None:
                full_tool_call = {}
            for field in ("index", "id"):
                completion_tokens += owner._update_dict_from_chunk(tool_calls_chunk, full_tool_call, field)
            if call_type:
                full_tool_call["type"] = call_type  # a fixed identifier, not a streamed piece: set, not appended
            function = getattr(tool_calls_chunk, "function", None)
            if function:
                full_tool_call["function"], completion_tokens = owner._update_function_call_from_chunk(
                    function, full_tool_call.get("function"), completion_tokens
                )
        if not full_tool_call:
            raise RuntimeError("Tool call is not found, this should not happen.")
        return full_tool_call, completion_tokens


_owner: list[type[StreamChunkMerging]] = [StreamChunkMerging]


def register_chunk_owner(owner: type[StreamChunkMerging]) -> None:
    """Make ``owner`` (``OpenAIWrapper``) the class whose chunk hooks assemble streamed calls."""
    _owner[0] = owner


def chunk_owner() -> type[StreamChunkMerging]:
    """The class whose chunk hooks assemble streamed calls (``OpenAIWrapper`` once it is imported)."""
    return _owner[0]
