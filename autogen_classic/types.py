"""The classic ``autogen.types`` module: the shapes of message content.

A message ``content`` is a string, None, or a list of parts: text parts and image parts,
as the OpenAI chat API defines them for multimodal messages.
"""

from typing import Literal, TypedDict, Union

__all__ = ["MessageContentType", "UserMessageImageContentPart", "UserMessageTextContentPart"]

MessageContentType = Union[str, list[Union[dict, str]], None]  # type: ignore[type-arg]


class UserMessageTextContentPart(TypedDict):
    """A text part of a multimodal message: ``{"type": "text", "text": ...}``."""

    type: Literal["text"]
    text: str


class UserMessageImageContentPart(TypedDict):
    """An image part of a multimodal message: ``{"type": "image_url", "image_url": {"url": ...}}``."""

    type: Literal["image_url"]
    image_url: dict[Literal["url"], str]
