"""Errors of the model-client layer, and readable reasons for failed endpoint attempts."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

import openai

from .secrets import scrub_text

__all__ = [
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


def describe_failure(err: BaseException, retries: int | None = None, secrets: Sequence[str] = ()) -> str:
    """Return a one-line reason for a failed attempt, with secrets removed.

    Args:
        err: the exception raised by the attempt.
        retries: how many retries the client was allowed (mentioned for retryable failures).
        secrets: values (API keys) to blank out should the text contain them.
    """
    after = f" after {retries} {'retry' if retries == 1 else 'retries'}" if retries else ""
    if isinstance(err, openai.APITimeoutError):
        text = f"timed out{after}"
    elif isinstance(err, openai.APIConnectionError):
        cause = err.__cause__ or err.__context__
        detail = f" ({type(cause).__name__}: {cause})" if cause is not None and str(cause) else ""
        text = f"connection failed{after}{detail}"
    elif isinstance(err, openai.RateLimitError):
        text = f"rate limited (HTTP 429){after}: {_status_message(err)}"
    elif isinstance(err, openai.APIStatusError):
        retried = after if err.status_code >= 500 or err.status_code in (408, 409) else ""
        text = f"HTTP {err.status_code}{retried}: {_status_message(err)}"
    elif isinstance(err, (MalformedResponseError, json.JSONDecodeError, openai.APIResponseValidationError)):
        text = f"malformed response: {err}"
    elif isinstance(err, TimeoutError):
        text = f"timed out: {err}" if str(err) else "timed out"
    else:
        text = f"{type(err).__name__}: {err}"
    return scrub_text(text, *secrets)
