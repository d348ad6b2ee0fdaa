"""``UnifiedResponse``: a model's answer in one shape for every provider, with usage and cost."""

from __future__ import annotations

from typing import Any, ClassVar, Union

from pydantic import BaseModel, Field

from .content_blocks import BaseContent, ReasoningContent
from .unified_message import UnifiedMessage

__all__ = ["BaseContent", "ReasoningContent", "UnifiedMessage", "UnifiedResponse"]


class UnifiedResponse(BaseModel):
    """A model's answer: its messages as typed blocks, usage, cost and the provider's own data.

    A plain pydantic model (no functions attached): it serialises to JSON and back.

    Args:
        id: the provider's id of the answer.
        model: the model that answered.
        messages: the answer's messages.
        usage: token counts (``prompt_tokens``, ``completion_tokens``, ``total_tokens``, ...).
        cost: the cost in USD, when known.
        provider: who answered, e.g. ``"openai"`` or ``"openai_responses"``.
        provider_metadata: provider data that has no field of its own.
        finish_reason: why the model stopped, when the provider says.
        status: e.g. ``"completed"``; providers may use other values.
    """

    STANDARD_STATUSES: ClassVar[list[str]] = ["completed", "in_progress", "failed"]

    id: str
    model: str
    messages: list[UnifiedMessage]
    usage: dict[str, Union[int, float]] = Field(default_factory=dict)
    cost: Union[float, None] = None
    provider: str
    provider_metadata: dict[str, Any] = Field(default_factory=dict)
    finish_reason: Union[str, None] = None
    status: Union[str, None] = None

    @property
    def text(self) -> str:
        """The text of every message (see ``UnifiedMessage.get_text``), joined by spaces."""
        return " ".join(message.get_text() for message in self.messages)

    @property
    def reasoning(self) -> list[ReasoningContent]:
        """The reasoning blocks of every message."""
        return [block for message in self.messages for block in message.get_reasoning()]

    def get_content_by_type(self, content_type: str) -> list[BaseContent]:
        """The blocks of every message whose ``type`` is ``content_type``."""
        return [block for message in self.messages for block in message.get_content_by_type(content_type)]

    def is_standard_status(self) -> bool:
        """Whether ``status`` is one of completed, in_progress and failed."""
        return bool(self.status) and self.status in self.STANDARD_STATUSES
