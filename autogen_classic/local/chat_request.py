"""What the embedded model server accepts in a chat request's messages, as OpenAI does.

The model reads text; OpenAI clients, and agents, send the standard forms beyond a plain string:

- ``"content"`` as a list of content parts, in any role (``[{"type": "text", "text": "..."}, ...]``:
  what ``TextMessageCompressor``, ``MessageTokenLimiter`` and multimodal messages produce). The parts
  become one text, one line per part, as ``content_str`` renders them: text parts as they are
  (``"text"``, ``"input_text"``, an assistant's ``"refusal"``), and the inputs a text-only model
  cannot see as placeholders: an image (``"image_url"``, ``"input_image"``) as ``<image>``, audio
  (``"input_audio"``) as ``<audio>``, a file (``"file"``) as ``<file>``. The model therefore knows
  that an image was there, not what it shows.
- ``"content": null`` in an assistant message (the OpenAI form of a tool-call message), which the
  request model refuses: it becomes ``""``, which every chat template can show.

Anything else in ``content`` (a part that is not an object, has no known ``type``, or a text part
without a string ``text``) is answered with a 400 ``invalid_request_error`` naming the field, as
OpenAI does.

The server process loads this module by path (see ``server_process.py``): it imports nothing but the
standard library.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["PLACEHOLDERS", "ChatRequestError", "accept_messages", "accept_request", "content_text"]

PLACEHOLDERS = {
    "image_url": "<image>",
    "input_image": "<image>",
    "input_audio": "<audio>",
    "file": "<file>",
}
"""The text shown to the model in place of a content part it cannot read, by the part's ``type``."""
_TEXT_KEYS = {"text": "text", "input_text": "text", "refusal": "refusal"}  # part type -> key holding its text


class ChatRequestError(ValueError):
    """A chat request the server cannot take; ``param`` names the field, e.g. ``messages[1].content[0]``."""

    def __init__(self, message: str, param: str) -> None:
        super().__init__(message)
        self.param = param


def _part_text(part: Any, where: str) -> str:
    if not isinstance(part, dict):
        raise ChatRequestError(
            f"{where} must be a content part object such as {{\"type\": \"text\", \"text\": \"...\"}}, "
            f"got {type(part).__name__} {part!r:.60}",
            where,
        )
    kind = part.get("type")
    if kind in PLACEHOLDERS:
        return PLACEHOLDERS[kind]
    key = _TEXT_KEYS.get(kind) if isinstance(kind, str) else None
    if key is None:
        known = ", ".join(repr(name) for name in [*_TEXT_KEYS, *PLACEHOLDERS])
        raise ChatRequestError(f"{where}.type must be one of {known}; got {kind!r}", f"{where}.type")
    text = part.get(key)
    if not isinstance(text, str):
        raise ChatRequestError(
            f"{where}.{key} must be the part's text as a string; got {type(text).__name__}", f"{where}.{key}"
        )
    return text


def content_text(content: Any, where: str = "content") -> str:
    """The text the model is shown for a message's ``content``: a string as it is, None as ``""``, and a
    list of content parts as their texts, one per line (placeholders for images, audio and files).

    Raises:
        ChatRequestError: a part that is not a content part object, of an unknown type, or without text.
    """
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise ChatRequestError(
            f"{where} must be a string or a list of content parts; got {type(content).__name__}", where
        )
    return "\n".join(_part_text(part, f"{where}[{index}]") for index, part in enumerate(content))


def accept_request(body: bytes) -> bytes:
    """The body of a chat completion request, its messages' content rewritten as text.

    Content-part lists become text (``content_text``) and assistant ``"content": null`` becomes ``""``; a
    body needing neither is returned as it is, and one that is not JSON is left for the caller to report.

    Raises:
        ChatRequestError: a message's content cannot be read (see ``content_text``).
    """
    try:
        request = json.loads(body)
    except ValueError:
        return body
    return json.dumps(request).encode("utf-8") if accept_messages(request) else body


def accept_messages(request: Any) -> bool:
    """Rewrite the messages of a parsed chat request in place, as ``accept_request`` does; whether any changed.

    Raises:
        ChatRequestError: a message's content cannot be read (see ``content_text``).
    """
    messages = request.get("messages") if isinstance(request, dict) else None
    if not isinstance(messages, list):
        return False
    changed = False
    for index, message in enumerate(messages):
        if not isinstance(message, dict) or "content" not in message:
            continue
        content = message["content"]
        if content is None and message.get("role") == "assistant":
            message["content"] = ""
            changed = True
        elif content is not None and not isinstance(content, str):
            message["content"] = content_text(content, f"messages[{index}].content")
            changed = True
    return changed
