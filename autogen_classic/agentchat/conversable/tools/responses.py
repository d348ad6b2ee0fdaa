"""Tool responses in the form endpoints expect, and a cheap way to know a conversation has none.

A conversation stores the results of one turn's tool calls together, in one message with a
``tool_responses`` list (the classic message dict). Endpoints want one ``role: "tool"`` message per
result, so a conversation holding any is unrolled before it is sent.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ToolResponseScan", "unroll_tool_responses"]


def unroll_tool_responses(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``messages`` with each combined tool message replaced by its individual tool responses."""
    unrolled: list[dict[str, Any]] = []
    for message in messages:
        tool_responses = message.get("tool_responses") or []
        if tool_responses:
            unrolled.extend(tool_responses)
            if message.get("role") != "tool":
                unrolled.append({k: v for k, v in message.items() if k != "tool_responses"})
        else:
            unrolled.append(message)
    return unrolled


class ToolResponseScan:
    """Remembers how much of one message list is known to hold no ``tool_responses``.

    Conversations grow by appending, so each check reads only the messages added since the last
    one, and a long chat does not pay for its whole history on every model call. A different list,
    a shorter one, or one whose message at the remembered end was replaced is read from the start.
    (A message replaced in place further back, bypassing the agent, is not noticed.)
    """

    __slots__ = ("_messages", "_plain", "_last")

    def __init__(self) -> None:
        self._messages: list[dict[str, Any]] | None = None
        self._plain = 0
        self._last: dict[str, Any] | None = None

    def is_plain(self, messages: list[dict[str, Any]]) -> bool:
        """Whether no message of ``messages`` has tool responses."""
        count = len(messages)
        if (
            messages is not self._messages
            or count < self._plain
            or (self._plain and messages[self._plain - 1] is not self._last)
        ):
            self._messages, self._plain, self._last = messages, 0, None
        for index in range(self._plain, count):
            if messages[index].get("tool_responses"):
                self._remember(messages, index)
                return False
        self._remember(messages, count)
        return True

    def mark_plain(self, messages: list[dict[str, Any]]) -> None:
        """Record that ``messages``, built by the caller, holds no tool responses."""
        self._messages = messages
        self._remember(messages, len(messages))

    def _remember(self, messages: list[dict[str, Any]], plain: int) -> None:
        self._plain = plain
        self._last = messages[plain - 1] if plain else None
