"""Content blocks: the typed pieces a model's answer is made of (text, images, reasoning, tool calls, ...).

Every block has a ``type``; the known types have a class each, and any other type (a provider's
new kind of output) is kept whole in a ``GenericContent`` instead of being dropped or refused.
``ContentParser`` turns a plain dict into the right block, and new types can be registered with it.
"""

from __future__ import annotations

import warnings
from enum import Enum
from typing import Any, ClassVar, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "AudioContent",
    "BaseContent",
    "CitationContent",
    "ContentBlock",
    "ContentParser",
    "ContentType",
    "GenericContent",
    "ImageContent",
    "ReasoningContent",
    "TextContent",
    "ToolCallContent",
    "ToolResultContent",
    "VideoContent",
]


class ContentType(str, Enum):
    """The block types that have a class of their own (any other string is a ``GenericContent``)."""

    TEXT = "text"
    IMAGE = "image"
    AUDIO = "audio"
    VIDEO = "video"
    REASONING = "reasoning"
    CITATION = "citation"
    TOOL_CALL = "tool_call"
    TOOL_RESULT = "tool_result"


class BaseContent(BaseModel):
    """What every block has: a ``type`` and an ``extra`` dict for provider data; unknown fields are kept.

    Subclasses say how the block reads as text (``get_text``); blocks without text give ``""``.
    """

    type: Union[ContentType, str]
    extra: dict[str, Any] = Field(default_factory=dict)

    model_config = ConfigDict(extra="allow")

    def get_text(self) -> str:
        """The block as text (``""`` for blocks that have none)."""
        return ""


class TextContent(BaseContent):
    """Plain text."""

    type: Literal[ContentType.TEXT] = ContentType.TEXT
    text: str

    def get_text(self) -> str:
        """The text itself."""
        return self.text


class ImageContent(BaseContent):
    """An image, by URL (``image_url``) or inline (``data_uri``, e.g. ``data:image/png;base64,...``)."""

    type: Literal[ContentType.IMAGE] = ContentType.IMAGE
    image_url: Union[str, None] = None
    data_uri: Union[str, None] = None
    detail: Union[Literal["auto", "low", "high"], None] = None


class AudioContent(BaseContent):
    """Audio, by URL or inline, with its transcript when there is one."""

    type: Literal[ContentType.AUDIO] = ContentType.AUDIO
    audio_url: Union[str, None] = None
    data_uri: Union[str, None] = None
    transcript: Union[str, None] = None

    def get_text(self) -> str:
        """``"audio transcript:<transcript>"``, or ``""`` without a transcript."""
        return f"audio transcript:{self.transcript}" if self.transcript else ""


class VideoContent(BaseContent):
    """A video, by URL or inline."""

    type: Literal[ContentType.VIDEO] = ContentType.VIDEO
    video_url: Union[str, None] = None
    data_uri: Union[str, None] = None


class ReasoningContent(BaseContent):
    """The model's reasoning (chain of thought) and, when the provider gives one, its summary."""

    type: Literal[ContentType.REASONING] = ContentType.REASONING
    reasoning: str
    summary: Union[str, None] = None

    def get_text(self) -> str:
        """The reasoning text."""
        return self.reasoning


class CitationContent(BaseContent):
    """A source the answer cites (e.g. a web search result)."""

    type: Literal[ContentType.CITATION] = ContentType.CITATION
    url: str
    title: str
    snippet: str
    relevance_score: Union[float, None] = None

    def get_text(self) -> str:
        """``"citation: <title>"``, or ``""`` without a title."""
        return f"citation: {self.title}" if self.title else ""


class ToolCallContent(BaseContent):
    """A call of a function tool the model asks for (``arguments`` is the JSON text)."""

    type: Literal[ContentType.TOOL_CALL] = ContentType.TOOL_CALL
    id: str
    name: str
    arguments: str

    def get_text(self) -> str:
        """``"tool call name: <name> tool call arguments: <arguments>"``."""
        return f"tool call name: {self.name} tool call arguments: {self.arguments}"


class ToolResultContent(BaseContent):
    """What a tool call returned."""

    type: Literal[ContentType.TOOL_RESULT] = ContentType.TOOL_RESULT
    tool_call_id: str
    output: str

    def get_text(self) -> str:
        """``"tool result: <output>"``."""
        return f"tool result: {self.output}"


class GenericContent(BaseContent):
    """A block of a type without a class of its own: every field is kept and reads as an attribute.

    Example:
        ``GenericContent(type="reflection", reflection="...", confidence=0.9).confidence`` is ``0.9``.
    """

    type: Union[ContentType, str]

    def get(self, key: str, default: Any = None) -> Any:
        """The field ``key`` (extra or declared), or ``default``."""
        extra = self.model_extra
        if extra and key in extra:
            return extra[key]
        return getattr(self, key, default)

    def get_all_fields(self) -> dict[str, Any]:
        """Every field, declared and extra, as a dict."""
        return self.model_dump()

    def get_extra_fields(self) -> dict[str, Any]:
        """Only the fields the block's class does not declare."""
        return dict(self.model_extra) if self.model_extra else {}

    def has_field(self, key: str) -> bool:
        """Whether the block has the field ``key``."""
        return hasattr(self, key)

    @property
    def data(self) -> dict[str, Any]:
        """The extra fields (the older name of ``get_extra_fields()``)."""
        return self.get_extra_fields()


class ContentParser:
    """Turns a block dict into its class: a known ``type`` gives its class, any other a ``GenericContent``.

    A dict of a known type that does not fit its class (e.g. ``{"type": "text"}`` without ``text``)
    becomes a ``GenericContent`` too, with a ``UserWarning``: no data is lost.
    """

    _registry: ClassVar[dict[Union[ContentType, str], type[BaseContent]]] = {
        # Keyed by the plain strings too: how a str-valued enum hashes differs between Python versions.
        key: block
        for kind, block in (
            (ContentType.TEXT, TextContent),
            (ContentType.IMAGE, ImageContent),
            (ContentType.AUDIO, AudioContent),
            (ContentType.VIDEO, VideoContent),
            (ContentType.REASONING, ReasoningContent),
            (ContentType.CITATION, CitationContent),
            (ContentType.TOOL_CALL, ToolCallContent),
            (ContentType.TOOL_RESULT, ToolResultContent),
        )
        for key in (kind, kind.value)
    }

    @classmethod
    def register(cls, content_type: str, content_class: type[BaseContent]) -> None:
        """Parse blocks of ``content_type`` as ``content_class`` from now on.

        Args:
            content_type: the ``type`` string, e.g. ``"reflection"``.
            content_class: a subclass of ``BaseContent``.

        Raises:
            TypeError: ``content_class`` is not a ``BaseContent`` subclass.
        """
        if not (isinstance(content_class, type) and issubclass(content_class, BaseContent)):
            raise TypeError(
                f"ContentParser.register({content_type!r}, ...): content_class must be a subclass of BaseContent, "
                f"got {content_class!r}"
            )
        cls._registry[content_type] = content_class

    @classmethod
    def parse(cls, data: dict[str, Any]) -> BaseContent:
        """Return the block for ``data``; a dict without ``type`` gets ``type="unknown"``.

        Raises:
            TypeError: ``data`` is not a dict.
        """
        if not isinstance(data, dict):
            raise TypeError(f"ContentParser.parse: a content block must be a dict with a 'type', got {type(data).__name__}")
        content_type = data.get("type", "unknown")
        content_class = cls._registry.get(content_type)
        if content_class is None:
            return GenericContent(**{"type": content_type, **data})
        try:
            return content_class(**data)
        except (TypeError, ValueError) as err:  # pydantic's ValidationError is a ValueError
            warnings.warn(
                f"Failed to parse {content_type} as {content_class.__name__}: {err}. Using GenericContent instead.",
                UserWarning,
                stacklevel=2,
            )
            return GenericContent(**data)


# Every block class; GenericContent last, so that the specific classes are tried first.
ContentBlock = Union[
    TextContent,
    ImageContent,
    AudioContent,
    VideoContent,
    ReasoningContent,
    CitationContent,
    ToolCallContent,
    ToolResultContent,
    GenericContent,
]
