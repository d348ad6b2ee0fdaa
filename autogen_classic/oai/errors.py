"""Errors of the model-client layer, and readable reasons for failed endpoint attempts."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

import openai

from .secrets import scrub_text

try:  # the openai client's own limit: a longer Retry-After makes it give up instead of waiting
    from openai._constants import MAX_RETRY_AFTER_DELAY as RETRY_AFTER_LIMIT
except ImportError:  # pragma: no cover - other SDK layouts (older clients waited at most 60 s)
    RETRY_AFTER_LIMIT = 60.0

__all__ = [
    "RETRY_AFTER_LIMIT",
    "AllEndpointsFailedError",
    "AllEndpointsTimedOutError",
    "EndpointAttempt",
    "MalformedResponseError",
    "describe_failure",
]


class MalformedResponseError(ValueError):
    """The endpoint answered, but not with a usable chat completion."""


@dataclass
class EndpointAttempt:
    """One failed try: which ``config_list`` entry, where it points, and why it failed."""

    index: int
    endpoint: str
    reason: str
    error: BaseException

    @property
    def timed_out(self) -> bool:
        return isinstance(self.error, (openai.APITimeoutError, TimeoutError))


class AllEndpointsFailedError(RuntimeError):
    """Every ``config_list`` entry failed; the message lists each endpoint and its reason.

    Attributes:
        attempts: the failed attempts in the order tried.
        last_error: the exception of the last attempt (also chained as ``__cause__``).
    """

    def __init__(self, attempts: Sequence[EndpointAttempt]) -> None:
        self.attempts: list[EndpointAttempt] = list(attempts)
        self.last_error: BaseException | None = self.attempts[-1].error if self.attempts else None
        count = len(self.attempts)
        lines = [f"{'The model endpoint' if count == 1 else f'All {count} model endpoints'} failed:"]
        for attempt in self.attempts:
            lines.append(f"  [{attempt.index}] {attempt.endpoint}: {attempt.reason}")
        if self.attempts and all(a.timed_out for a in self.attempts):
            lines.append(
                "The timeout can be raised with the 'timeout' value (in seconds) in the llm_config or the config_list entry."
            )
        super().__init__("\n".join(lines))


class AllEndpointsTimedOutError(AllEndpointsFailedError, TimeoutError):
    """Every endpoint timed out (also a ``TimeoutError``, as classic code expects)."""


def _status_message(err: openai.APIStatusError) -> str:
    body = err.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])
        if isinstance(body.get("message"), str):
            return body["message"]
    return str(err.message)


def _retries_taken(err: BaseException) -> int | None:
    """How many retries the openai client made before ``err`` (None when it cannot tell).

    The SDK numbers each try in the ``x-stainless-retry-count`` request header, so the request
    attached to the error says how many retries actually happened (a stream cut mid-way, or a
    ``Retry-After`` beyond the client's limit, is not retried whatever ``max_retries`` says).
    """
    request = getattr(err, "request", None) if isinstance(err, openai.APIError) else None
    headers = getattr(request, "headers", None)
    value = headers.get("x-stainless-retry-count") if headers is not None else None
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def _retry_after_seconds(err: BaseException) -> float | None:
    """The delay the server asked for (``retry-after-ms`` or numeric ``Retry-After``), if any."""
    response = getattr(err, "response", None) if isinstance(err, openai.APIStatusError) else None
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    for name, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            return float(value) / divisor
        except ValueError:
            continue
    return None


def _retry_note(err: BaseException, retries: int | None) -> str:
    """`` after N retries`` (the retries really made), or why a retryable failure was not retried."""
    taken = _retries_taken(err)
    count = retries if taken is None else taken
    if count:
        return f" after {count} {'retry' if count == 1 else 'retries'}"
    if retries and taken == 0:
        wait = _retry_after_seconds(err)
        if wait is not None and wait > RETRY_AFTER_LIMIT:
            return (
                f", not retried: Retry-After asks for {wait:g} s, more than the {RETRY_AFTER_LIMIT:g} s "
                "the openai client waits at most"
            )
    return ""


def describe_failure(err: BaseException, retries: int | None = None, secrets: Sequence[str] = ()) -> str:
    """Return a one-line reason for a failed attempt, with secrets removed.

    Args:
        err: the exception raised by the attempt.
        retries: how many retries the client was allowed; the reason states the retries actually
            made when the error tells (else this number) for retryable failures.
        secrets: values (API keys) to blank out should the text contain them.
    """
    if isinstance(err, openai.APITimeoutError):
        text = f"timed out{_retry_note(err, retries)}"
    elif isinstance(err, openai.APIConnectionError):
        cause = err.__cause__ or err.__context__
        detail = f" ({type(cause).__name__}: {cause})" if cause is not None and str(cause) else ""
        text = f"connection failed{_retry_note(err, retries)}{detail}"
    elif isinstance(err, openai.RateLimitError):
        text = f"rate limited (HTTP 429){_retry_note(err, retries)}: {_status_message(err)}"
    elif isinstance(err, openai.APIStatusError):
        retryable = err.status_code >= 500 or err.status_code in (408, 409)
        text = f"HTTP {err.status_code}{_retry_note(err, retries) if retryable else ''}: {_status_message(err)}"
    elif isinstance(err, json.JSONDecodeError):
        text = f"malformed response: the body is not valid JSON ({err})"
    elif isinstance(err, (MalformedResponseError, openai.APIResponseValidationError)):
        text = f"malformed response: {err}"
    elif isinstance(err, TimeoutError):
        text = f"timed out: {err}" if str(err) else "timed out"
    else:
        text = f"{type(err).__name__}: {err}"
    return scrub_text(text, *secrets)
