"""The provider-independent answer: content blocks, ``UnifiedMessage`` and ``UnifiedResponse``."""

from .content_blocks import (
    AudioContent,
    BaseContent,
    CitationContent,
    ContentBlock,
    ContentParser,
    ContentType,
    GenericContent,
    ImageContent,
    ReasoningContent,
    TextContent,
    ToolCallContent,
    ToolResultContent,
    VideoContent,
)
from .unified_message import UnifiedMessage, UserRoleEnum, UserRoleType, normalize_role
from .unified_response import UnifiedResponse

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
    "UnifiedMessage",
    "UnifiedResponse",
    "UserRoleEnum",
    "UserRoleType",
    "VideoContent",
    "normalize_role",
]
