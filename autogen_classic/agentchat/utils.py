"""Helpers of the classic ``autogen.agentchat.utils`` module: chat-info checks, usage, tags in messages."""

from __future__ import annotations

import re
from typing import Any, Optional, Union

from ..exception_utils import InvalidArgumentError
from ..oai.usage import gather_usage_summary
from .agent import Agent

__all__ = [
    "SUMMARY_METHODS",
    "check_reflection_client",
    "consolidate_chat_info",
    "gather_usage_summary",
    "parse_tags_from_content",
    "validate_summary_method",
]

SUMMARY_METHODS = ("last_msg", "reflection_with_llm")


def validate_summary_method(summary_method: Any) -> None:
    """Refuse an unknown ``summary_method`` (before a chat starts, not after it ran).

    Raises:
        InvalidArgumentError: unless it is None, a callable, "last_msg" or "reflection_with_llm".
    """
    if summary_method is None or callable(summary_method) or summary_method in SUMMARY_METHODS:
        return
    raise InvalidArgumentError(
        "If not None, the summary_method must be a string from [`reflection_with_llm`, `last_msg`] or a callable; "
        f"got {summary_method!r}."
    )


def check_reflection_client(sender: Any, recipient: Any) -> None:
    """Refuse ``summary_method="reflection_with_llm"`` when neither agent has a model client.

    Raises:
        InvalidArgumentError: when neither ``sender`` nor ``recipient`` has a model configured.
    """
    if getattr(sender, "client", None) is None and getattr(recipient, "client", None) is None:
        # Checked before the chat runs, so a long chat is not lost to a missing model at the very end.
        raise InvalidArgumentError(
            "summary_method='reflection_with_llm' needs a model: give the sender or the recipient an llm_config, "
            "or use summary_method='last_msg' (llm client must be set in either the recipient or sender when "
            "summary_method is reflection_with_llm)."
        )


def consolidate_chat_info(
    chat_info: Union[dict[str, Any], list[dict[str, Any]]], uniform_sender: Optional[Agent] = None
) -> None:
    """Check the ``initiate_chat`` arguments of one chat (a dict) or of several (a list of dicts).

    Args:
        chat_info: the chat's arguments: "recipient" is required, "sender" too unless ``uniform_sender`` is
            given; "summary_method" must be None, "last_msg", "reflection_with_llm" or a callable.
        uniform_sender: the sender of every chat (its "sender" entries are then ignored).

    Raises:
        InvalidArgumentError: naming the missing or invalid entry.
    """
    chats = [chat_info] if isinstance(chat_info, dict) else chat_info
    for index, chat in enumerate(chats):
        if uniform_sender is None:
            if "sender" not in chat:
                raise InvalidArgumentError(f"sender must be provided: chat {index} has no 'sender'.")
            sender = chat["sender"]
        else:
            sender = uniform_sender
        if "recipient" not in chat:
            raise InvalidArgumentError(f"recipient must be provided: chat {index} has no 'recipient'.")
        summary_method = chat.get("summary_method")
        validate_summary_method(summary_method)
        if summary_method == "reflection_with_llm":
            check_reflection_client(sender, chat["recipient"])


# ----------------------------------------------------------------- tags in message content
def _is_quoted_attribute(token: str) -> bool:
    """``key="value`` or ``key='value``: a token that starts a quoted attribute."""
    _, equals, value = token.partition("=")
    return bool(equals) and value[:1] in ("'", '"')


def _tag_attributes(inner: str) -> dict[str, str]:
    """The attributes of a tag's inner text.

    Words are separated by spaces. A word ``key="...`` (or ``key='...``) starts an attribute whose value runs,
    with the words after it, to the next such word; its first and last characters (the quotes) are dropped.
    Words before the first attribute are joined into ``src``.
    """
    groups: list[list[str]] = []
    for word in (w for w in inner.strip().split(" ") if w):
        if _is_quoted_attribute(word) or not groups:
            groups.append([word])
        else:
            groups[-1].append(word)
    attributes: dict[str, str] = {}
    for group in groups:
        text = " ".join(group)
        if _is_quoted_attribute(group[0]):
            key, _, value = text.partition("=")
            attributes[key] = value[1:-1]
        else:
            attributes["src"] = f"{attributes['src']} {text}" if "src" in attributes else text
    return attributes


def _tags_in_text(tag: str, text: str) -> list[dict[str, Any]]:
    # ``tag`` is used as a regular expression, as in the classic package; the tag needs a space after it
    # and ends at the first ">" on the same line.
    pattern = re.compile(f"<{tag} (.*?)>")
    return [{"tag": tag, "attr": _tag_attributes(match.group(1)), "match": match} for match in pattern.finditer(text)]


def parse_tags_from_content(tag: str, content: Union[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Find the HTML-style tags ``<tag ...>`` in a message content and parse their attributes.

    ``<img http://example.com/image.png>`` gives ``{"tag": "img", "attr": {"src": "http://example.com/image.png"},
    "match": <re.Match>}``; ``<audio text="Hello I'm a robot" prompt="whisper">`` gives the attributes
    ``{"text": "Hello I'm a robot", "prompt": "whisper"}``.

    Args:
        tag (str): the tag name (used as a regular expression).
        content (str or list): a text, or multimodal content parts, of which only the "text" parts are searched.

    Returns:
        list of dicts with "tag", "attr" (the attributes) and "match" (the ``re.Match`` in its text), in order.

    Raises:
        ValueError: when ``content`` is neither a str nor a list.
    """
    if isinstance(content, str):
        return _tags_in_text(tag, content)
    if not isinstance(content, list):
        raise ValueError(f"content must be str or list, but got {type(content)}")
    found: list[dict[str, Any]] = []
    for index, part in enumerate(content):
        if not isinstance(part, dict):
            raise TypeError(f"content[{index}] must be a content part dict (e.g. {{'type': 'text', ...}}); got {part!r:.60}.")
        if part.get("type") == "text":
            if "text" not in part:
                raise KeyError(f"content[{index}] is a text part without 'text'.")
            found.extend(_tags_in_text(tag, part["text"]))
    return found
