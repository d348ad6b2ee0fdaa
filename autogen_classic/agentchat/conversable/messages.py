"""Message dicts: normalising what agents send into the OpenAI chat format.

An agent keeps one list of OpenAI-style messages per peer. What it sends or
receives may be a string, a dict or a pydantic/OpenAI object; this module turns
it into the dict that is stored, or explains clearly why it cannot.
"""

from __future__ import annotations

import threading

from typing import Any, Mapping, Optional, Union

from .history import SharedMessage

__all__ = [
    "OAI_MESSAGE_KEYS",
    "check_message_fields",
    "invalid_message_error",
    "message_to_dict",
    "normilize_message_to_oai",
    "to_oai_message",
]

# The keys an agent keeps from a message; everything else (e.g. "role" overrides) is interpreted.
OAI_MESSAGE_KEYS = ("content", "function_call", "tool_calls", "tool_responses", "tool_call_id", "name", "context")

INVALID_SENT = (
    "Message can't be converted into a valid ChatCompletion message. Either content or function_call must be provided."
)
INVALID_RECEIVED = (
    "Received message can't be converted into a valid ChatCompletion message. "
    "Either content or function_call must be provided."
)


def message_to_dict(message: Union[dict[str, Any], str, Any]) -> dict[str, Any]:
    """Return ``message`` as a dict: a string becomes ``{"content": message}``."""
    if isinstance(message, str):
        return {"content": message}
    if isinstance(message, dict):
        return message
    if hasattr(message, "model_dump"):
        return dict(message.model_dump())
    if isinstance(message, Mapping):
        return dict(message)
    hint = (
        f"message must be a str or a dict with 'content', 'function_call' or 'tool_calls'; "
        f"got {type(message).__name__}: {message!r:.80}"
    )
    # Anything else is read as dict(message), as classic AutoGen does (a list of key/value pairs works);
    # what dict() refuses keeps its error type, with the fix in the message.
    try:
        return dict(message)
    except ValueError as exc:
        raise ValueError(f"{hint} ({exc})") from exc
    except TypeError as exc:
        raise TypeError(f"{hint} ({exc})") from exc


def invalid_message_error(message: Mapping[str, Any], *, received: bool) -> ValueError:
    """The error for a message dict that has neither content nor a call, naming what it has."""
    base = INVALID_RECEIVED if received else INVALID_SENT
    keys = ", ".join(repr(k) for k in message) or "no keys"
    return ValueError(
        f"{base} The message has {keys}; give it 'content' (a str, or a list of content parts), "
        f"'function_call' or 'tool_calls'."
    )


_CALL = "{'name': str, 'arguments': str}"
_TOOL_CALL = "{'id': str, 'type': 'function', 'function': {'name': str, 'arguments': str}}"
_TOOL_RESPONSE = "{'tool_call_id': str, 'role': 'tool', 'content': str}"
_CONTENT_PARTS = "{'type': 'text', 'text': str} or {'type': 'image_url', 'image_url': {'url': ...}}"


def _check_content(content: Any, message: Mapping[str, Any]) -> None:
    if content is None or isinstance(content, str):
        return
    if callable(content) and "context" in message:
        return  # a template filled from message["context"]
    if not isinstance(content, list):
        raise TypeError(
            f"message 'content' must be None, a str or a list of content parts ({_CONTENT_PARTS}); "
            f"got {type(content).__name__}: {content!r:.80}"
        )
    for index, part in enumerate(content):
        if not isinstance(part, Mapping):
            raise TypeError(
                f"message 'content'[{index}] must be a content part dict ({_CONTENT_PARTS}); "
                f"got {type(part).__name__}: {part!r:.80}"
            )
        kind = part.get("type")
        if kind == "text":
            if not isinstance(part.get("text"), str):
                raise ValueError(f"message 'content'[{index}] is a text part: it needs a str 'text'; got {part!r:.80}")
        elif kind != "image_url":
            raise ValueError(
                f"message 'content'[{index}] has type {kind!r}; content parts must be {_CONTENT_PARTS}."
            )


def check_message_fields(message: Mapping[str, Any]) -> None:
    """Refuse a message whose fields have shapes no agent can show, store or execute.

    Function and tool results (role "function"/"tool") may carry any content but a malformed list of
    parts: it is stored as text.

    Raises:
        TypeError / ValueError: naming the field ('content', 'function_call', 'tool_calls', 'tool_responses')
            and the accepted shape.
    """
    role = message.get("role")
    content = message.get("content")
    if role not in ("function", "tool") or isinstance(content, list):
        _check_content(content, message)
    function_call = message.get("function_call")
    if function_call and (not isinstance(function_call, Mapping) or not isinstance(function_call.get("name"), str)):
        raise TypeError(
            f"message 'function_call' must be a dict {_CALL} (the name is required); got {function_call!r:.80}"
        )
    tool_calls = message.get("tool_calls")
    if tool_calls:
        if not isinstance(tool_calls, list):
            raise TypeError(f"message 'tool_calls' must be a list of {_TOOL_CALL} dicts; got {tool_calls!r:.80}")
        for index, call in enumerate(tool_calls):
            if not isinstance(call, Mapping) or (
                call.get("type", "function") == "function" and not _is_call(call.get("function"))
            ):
                raise TypeError(
                    f"message 'tool_calls'[{index}] must be a dict {_TOOL_CALL} (the function name is required); "
                    f"got {call!r:.80}"
                )
    responses = message.get("tool_responses")
    if responses is not None and (
        not isinstance(responses, list) or not all(isinstance(r, Mapping) for r in responses)
    ):
        raise TypeError(f"message 'tool_responses' must be a list of {_TOOL_RESPONSE} dicts; got {responses!r:.80}")


def _is_call(function: Any) -> bool:
    return isinstance(function, Mapping) and isinstance(function.get("name"), str)


class _LastConversion(threading.local):
    """The conversions of the last message converted on this thread.

    A group chat manager stores each message once per participant and every participant stores it
    as received: the same dict converted with the same role and default name over and over. The
    result is computed and checked once, and histories hold that one ``SharedMessage``.
    """

    def __init__(self) -> None:
        self.source: Optional[Mapping[str, Any]] = None
        self.snapshot: dict[str, Any] = {}
        self.results: dict[tuple[str, str], Optional[SharedMessage]] = {}


_last = _LastConversion()


def to_oai_message(
    message: Mapping[str, Any], role: str, *, default_name: str, shared: bool = False
) -> Optional[dict[str, Any]]:
    """Build the stored OpenAI message from ``message``, or ``None`` if it carries nothing.

    Converting the same, unchanged message again with the same ``role`` and ``default_name``
    gives the first result again (a broadcast is converted and checked once): with ``shared``, that
    very ``SharedMessage``, for a :class:`~.history.History` to hold; else a fresh copy of it.

    ``role`` is the role from the keeping agent's point of view ("assistant" when it sent the
    message, "user" when it received it); function and tool results keep their own role, an
    ``override_role`` key wins, and any message with a call is an assistant message.

    Raises:
        TypeError / ValueError: a field has a shape no agent can use (see ``check_message_fields``).
    """
    if "tool_responses" in message:  # each keeper gets its own copies of the responses
        return _convert(message, role, default_name)
    memo = _last
    # The snapshot comparison catches a dict changed in place between two sends.
    if message is not memo.source or message != memo.snapshot:
        memo.source, memo.snapshot, memo.results = message, dict(message), {}
    key = (role, default_name)
    if key not in memo.results:
        converted = _convert(message, role, default_name)
        memo.results[key] = None if converted is None else SharedMessage(converted)
    result = memo.results[key]
    if result is None or shared:
        return result
    return dict(result)


def _convert(message: Mapping[str, Any], role: str, default_name: str) -> Optional[dict[str, Any]]:
    check_message_fields(message)
    oai_message = {k: message[k] for k in OAI_MESSAGE_KEYS if k in message and message[k] is not None}
    if "content" not in oai_message:
        if "function_call" in oai_message or "tool_calls" in oai_message:
            oai_message["content"] = None
        else:
            return None

    if message.get("role") in ("function", "tool"):
        oai_message["role"] = message["role"]
        content = oai_message.get("content")
        if content is not None and not isinstance(content, (str, list)):
            # A function from function_map may return a number or a dict: the endpoint (and the
            # termination check) need text, so the result is stored as its string form.
            oai_message["content"] = str(content)
        if "tool_responses" in oai_message:
            # Copies, so that the sender's stored message is not rewritten by the receiver.
            oai_message["tool_responses"] = [
                {**response, "content": str(response.get("content"))} for response in oai_message["tool_responses"]
            ]
    elif "override_role" in message:
        oai_message["role"] = message["override_role"]
    else:
        oai_message["role"] = role

    if oai_message.get("function_call") or oai_message.get("tool_calls"):
        oai_message["role"] = "assistant"
    elif "name" not in oai_message:
        oai_message["name"] = default_name
    return oai_message


def normilize_message_to_oai(
    message: Union[dict[str, Any], str], name: str, role: str = "assistant"
) -> tuple[bool, dict[str, Any]]:
    """The classic helper (its spelling kept): ``message`` as an OpenAI message, and whether it is valid.

    Args:
        message: a str (the content) or a message dict.
        name: the ``name`` given to a message without one (and without a call).
        role: the role from the keeping agent's point of view ("assistant" when it sent the message).

    Returns:
        ``(True, message)`` as :func:`to_oai_message` builds it; ``(False, the kept fields)`` when the
        message has neither content nor a call.
    """
    as_dict = message_to_dict(message)
    converted = _convert(as_dict, role, name)
    if converted is None:
        return False, {k: as_dict[k] for k in OAI_MESSAGE_KEYS if k in as_dict and as_dict[k] is not None}
    if converted.get("role") in ("function", "tool") and "content" in as_dict:
        # The helper returns a result's content as given (agents store its string form).
        converted["content"] = as_dict["content"]
    return True, converted
