"""Conditions on how much a chat has used: ``MaxMessageTermination`` (messages), ``TokenUsageTermination``
(tokens) and ``TimeoutTermination`` (time)."""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any, Optional

from .base import StopMessage, TerminationCondition, TerminationContext
from .reading import requested_calls, said_text, shorten

__all__ = ["MaxMessageTermination", "TimeoutTermination", "TokenUsageTermination", "is_agent_event"]


def _positive_int(value: Any, argument: str, owner: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{owner}: {argument} must be an int >= 1; got {shorten(value)} ({type(value).__name__}).")
    if value < 1:
        raise ValueError(f"{owner}: {argument} must be >= 1; got {value}. Pass a positive limit.")
    return value


def is_agent_event(message: dict[str, Any]) -> bool:
    """Whether a message is only an agent's action, not something said: a tool/function call request
    without text (0.4 counts such requests as events, not chat messages; their results are counted)."""
    return not said_text(message).strip() and bool(requested_calls(message))


class MaxMessageTermination(TerminationCondition):
    """Fires once ``max_messages`` messages have been checked (the opening message included).

    Args:
        max_messages: the number of messages that ends the chat (>= 1).
        include_agent_event: also count messages that only request tool/function calls (no text); by
            default they are not counted, as 0.4 does not count its tool-call events.
    """

    def __init__(self, max_messages: int, include_agent_event: bool = False) -> None:
        super().__init__()
        self.max_messages = _positive_int(max_messages, "max_messages", "MaxMessageTermination")
        if not isinstance(include_agent_event, bool):
            raise TypeError(f"MaxMessageTermination: include_agent_event must be True or False; got "
                            f"{shorten(include_agent_event)}.")
        self.include_agent_event = include_agent_event
        self.message_count = 0

    def _describe_args(self) -> str:
        return str(self.max_messages) + (", include_agent_event=True" if self.include_agent_event else "")

    def _reset_state(self) -> None:
        self.message_count = 0

    def _evaluate(self, messages: list[dict[str, Any]], context: Optional[TerminationContext]) -> Optional[StopMessage]:
        self.message_count += sum(1 for m in messages if self.include_agent_event or not is_agent_event(m))
        if self.message_count >= self.max_messages:
            return StopMessage(
                content=f"Maximum number of messages {self.max_messages} reached, current message count: "
                        f"{self.message_count}",
                source=type(self).__name__,
                details={"max_messages": self.max_messages, "message_count": self.message_count},
            )
        return None


_USAGE_KEYS = ("total_tokens", "prompt_tokens", "completion_tokens")


class TokenUsageTermination(TerminationCondition):
    """Fires when the chat has spent at least one of the token limits (read from ``context.usage()``).

    Without a context that reports usage the condition cannot know and never fires.

    Args:
        max_total_token: the most prompt + completion tokens.
        max_prompt_token: the most prompt tokens.
        max_completion_token: the most completion tokens.
    """

    def __init__(self, max_total_token: Optional[int] = None, max_prompt_token: Optional[int] = None,
                 max_completion_token: Optional[int] = None) -> None:
        super().__init__()
        owner = "TokenUsageTermination"
        given = {"max_total_token": max_total_token, "max_prompt_token": max_prompt_token,
                 "max_completion_token": max_completion_token}
        if all(value is None for value in given.values()):
            raise ValueError(f"{owner} needs at least one limit: max_total_token, max_prompt_token or "
                             "max_completion_token, e.g. TokenUsageTermination(max_total_token=10000).")
        self.limits = {name: _positive_int(value, name, owner) for name, value in given.items() if value is not None}
        self.max_total_token = max_total_token
        self.max_prompt_token = max_prompt_token
        self.max_completion_token = max_completion_token

    def _describe_args(self) -> str:
        return ", ".join(f"{name}={value}" for name, value in self.limits.items())

    def _evaluate(self, messages: list[dict[str, Any]], context: Optional[TerminationContext]) -> Optional[StopMessage]:
        if context is None or context.usage is None:
            return None
        reported = context.usage()
        if not isinstance(reported, Mapping):
            raise TypeError(f"TokenUsageTermination: context.usage() must return a mapping with prompt_tokens, "
                            f"completion_tokens and total_tokens; got {shorten(reported)}.")
        usage = {key: int(reported.get(key) or 0) for key in _USAGE_KEYS}
        if not reported.get("total_tokens"):
            usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        spent = {"max_total_token": usage["total_tokens"], "max_prompt_token": usage["prompt_tokens"],
                 "max_completion_token": usage["completion_tokens"]}
        if not any(spent[name] >= limit for name, limit in self.limits.items()):
            return None
        return StopMessage(
            content=f"Token usage limit reached, total token count: {usage['total_tokens']}, prompt token count: "
                    f"{usage['prompt_tokens']}, completion token count: {usage['completion_tokens']}.",
            source=type(self).__name__,
            details={"usage": usage, "limits": dict(self.limits)},
        )


class TimeoutTermination(TerminationCondition):
    """Fires at the first check ``timeout_seconds`` or more after the chat started.

    The start is ``context.started_at`` (``time.monotonic()``) when the chat gives it, else the first check
    after the condition was made or reset.

    Args:
        timeout_seconds: the time limit in seconds (> 0).
    """

    def __init__(self, timeout_seconds: float) -> None:
        super().__init__()
        if isinstance(timeout_seconds, bool) or not isinstance(timeout_seconds, (int, float)):
            raise TypeError(f"TimeoutTermination: timeout_seconds must be a number of seconds; got "
                            f"{shorten(timeout_seconds)} ({type(timeout_seconds).__name__}).")
        if not math.isfinite(timeout_seconds) or timeout_seconds <= 0:
            raise ValueError(f"TimeoutTermination: timeout_seconds must be a finite number > 0; got "
                             f"{timeout_seconds}. For no time limit, leave the condition out.")
        self.timeout_seconds = timeout_seconds
        self._started: Optional[float] = None

    def _describe_args(self) -> str:
        return repr(self.timeout_seconds)

    def _reset_state(self) -> None:
        self._started = None

    def _evaluate(self, messages: list[dict[str, Any]], context: Optional[TerminationContext]) -> Optional[StopMessage]:
        now = time.monotonic()
        if context is not None and context.started_at is not None:
            started = context.started_at
        else:
            if self._started is None:
                self._started = now
            started = self._started
        elapsed = now - started
        if elapsed < self.timeout_seconds:
            return None
        return StopMessage(content=f"Timeout of {self.timeout_seconds} seconds reached", source=type(self).__name__,
                           details={"timeout_seconds": self.timeout_seconds, "elapsed_seconds": round(elapsed, 3)})
