"""``UnifiedMessage``: one message of a model's answer as typed content blocks, whatever the provider."""

from __future__ import annotations

from enum import Enum
from typing import Any, Union

from pydantic import BaseModel, Field

from .content_blocks import BaseContent, CitationContent, ContentBlock, ReasoningContent, ToolCallContent

__all__ = [
    "BaseContent",
    "CitationContent",
    "ReasoningContent",
    "ToolCallContent",
    "UnifiedMessage",
    "UserRoleEnum",
    "UserRoleType",
    "normalize_role",
]


class UserRoleEnum(str, Enum):
    """The standard message roles."""

    USER = "user"
    ASSISTANT = "assistant"
    SYSTEM = "system"
    TOOL = "tool"


# A standard role, or any other role string a provider uses.
UserRoleType = Union[UserRoleEnum, str]

_ROLES = {role.value: role for role in UserRoleEnum}


def normalize_role(role: Union[str, None]) -> UserRoleType:
    """Return the ``UserRoleEnum`` member of a standard role (any case), other roles unchanged.

    Args:
        role: the role as the provider gave it; None or ``""`` mean ``UserRoleEnum.ASSISTANT``.
    """
    if not role:
        return UserRoleEnum.ASSISTANT
    return _ROLES.get(role.lower(), role)


class UnifiedMessage(BaseModel):
    """A message as typed content blocks (text, images, reasoning, citations, tool calls, ...).

    Args:
        role: a ``UserRoleEnum`` member or any other role string.
        content: the blocks, in order (dicts are parsed into their block classes).
        name: the author's name, when the provider gives one.
        metadata: provider-specific data.
    """

    role: UserRoleType
    content: list[ContentBlock]
    name: Union[str, None] = None
    metadata: dict[str, Any] = Field(default_factory=dict)

    def get_text(self) -> str:
        """The text of every block that has some, joined by spaces."""
        return " ".join(text for text in (block.get_text() for block in self.content) if text)

    def get_reasoning(self) -> list[ReasoningContent]:
        """The reasoning blocks."""
        return [block for block in self.content if isinstance(block, ReasoningContent)]

    def get_citations(self) -> list[CitationContent]:
        """The citation blocks."""
        return [block for block in self.content if isinstance(block, CitationContent)]

    def get_tool_calls(self) -> list[ToolCallContent]:
        """The tool-call blocks."""
        return [block for block in self.content if isinstance(block, ToolCallContent)]

    def get_content_by_type(self, content_type: str) -> list[BaseContent]:
        """The blocks whose ``type`` is ``content_type`` (e.g. ``"reasoning"``, or a generic type)."""
        return [block for block in self.content if block.type == content_type]

    def is_standard_role(self) -> bool:
        """Whether the role is one of user, assistant, system and tool."""
        return isinstance(self.role, UserRoleEnum) or self.role in _ROLES
