"""Reading classic message dicts for termination conditions: the text of a message, who sent it,
the tool/function calls it asks for and the tool/function results it carries."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from .base import TerminationContext

__all__ = ["ToolResult", "message_source", "message_text", "render_transcript", "requested_calls", "said_text",
           "shorten", "tool_results"]


def shorten(value: Any, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters (for error messages)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def message_text(message: Mapping[str, Any]) -> str:
    """The text of a message's ``content``: a str as is; a list of parts (multimodal content) joined from
    its str parts and ``{"type": "text", "text": ...}`` parts; anything else (None, images) gives ""."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, (list, tuple)):
        texts = []
        for part in content:
            if isinstance(part, str):
                texts.append(part)
            elif isinstance(part, Mapping) and isinstance(part.get("text"), str):
                texts.append(part["text"])
        return "\n".join(texts)
    return ""


def said_text(message: Mapping[str, Any]) -> str:
    """``message_text``, except that a call request whose content reads "None" (the group chat keeps every content
    as text, as the classic package does) has no text."""
    text = message_text(message)
    if text == "None" and requested_calls(message):
        return ""
    return text


def message_source(message: Mapping[str, Any], context: Optional[TerminationContext], is_newest: bool) -> Optional[str]:
    """Who sent ``message``: its ``name``, else (for the newest message of a check) ``context.speaker``.

    A ``role: "function"`` message names the function in ``name`` (the classic function-result form), not
    its sender, so only the context can tell who sent it.
    """
    name = message.get("name")
    if isinstance(name, str) and name and message.get("role") != "function":
        return name
    if is_newest and context is not None and context.speaker:
        return context.speaker
    return None


def requested_calls(message: Mapping[str, Any]) -> dict[Optional[str], str]:
    """The tool/function calls a message asks for: ``{tool_call_id: function name}`` (the legacy
    ``function_call`` has no id: its key is None)."""
    calls: dict[Optional[str], str] = {}
    for call in message.get("tool_calls") or ():
        if not isinstance(call, Mapping):
            continue
        function = call.get("function")
        name = function.get("name") if isinstance(function, Mapping) else None
        if isinstance(name, str):
            calls[call.get("id")] = name
    function_call = message.get("function_call")
    if isinstance(function_call, Mapping) and isinstance(function_call.get("name"), str):
        calls[None] = function_call["name"]
    return calls


@dataclass(frozen=True)
class ToolResult:
    """One tool/function result found in a message."""

    call_id: Optional[str]
    name: Optional[str]  # the function's name when the result states it
    content: str


def _content_text(value: Any) -> str:
    return value if isinstance(value, str) else ("" if value is None else str(value))


def tool_results(message: Mapping[str, Any]) -> list[ToolResult]:
    """The tool/function results a message carries, in the forms classic chats use:

    * ``{"role": "function", "name": <function>, "content": ...}`` (a legacy function call's result);
    * ``{"role": "tool", "tool_responses": [{"tool_call_id": ..., "role": "tool", "content": ...}, ...]}``
      (a classic tool reply; each response may also carry a ``name``);
    * ``{"role": "tool", "tool_call_id": ..., "content": ...}`` (one OpenAI-format tool message).
    """
    results: list[ToolResult] = []
    role = message.get("role")
    if role == "function":
        name = message.get("name")
        results.append(ToolResult(None, name if isinstance(name, str) else None, _content_text(message.get("content"))))
    responses = message.get("tool_responses")
    if isinstance(responses, Sequence) and not isinstance(responses, str) and responses:
        for response in responses:
            if isinstance(response, Mapping):
                name = response.get("name")
                results.append(ToolResult(response.get("tool_call_id"), name if isinstance(name, str) else None,
                                          _content_text(response.get("content"))))
    elif role == "tool" and "tool_call_id" in message:
        name = message.get("name")
        results.append(ToolResult(message.get("tool_call_id"), name if isinstance(name, str) else None,
                                  _content_text(message.get("content"))))
    return results


def _render_one(message: Mapping[str, Any]) -> str:
    who = message.get("name") or message.get("role") or "unknown"
    text = said_text(message)
    parts = [text] if text else []
    for call in message.get("tool_calls") or ():
        function = call.get("function") if isinstance(call, Mapping) else None
        if isinstance(function, Mapping):
            parts.append(f"[calls {function.get('name')}({function.get('arguments') or ''})]")
    function_call = message.get("function_call")
    if isinstance(function_call, Mapping):
        parts.append(f"[calls {function_call.get('name')}({function_call.get('arguments') or ''})]")
    if not parts and message.get("content") is not None and not isinstance(message.get("content"), (str, list)):
        parts.append(json.dumps(message.get("content"), default=str))
    return f"{who}: {' '.join(parts) if parts else '(no text)'}"


def render_transcript(messages: Sequence[Mapping[str, Any]]) -> str:
    """The messages as plain text, one ``sender: text`` entry per message (tool calls as ``[calls f(args)]``)."""
    return "\n\n".join(_render_one(m) for m in messages if isinstance(m, Mapping))
