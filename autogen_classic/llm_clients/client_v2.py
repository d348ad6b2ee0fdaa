"""``ModelClientV2``: the protocol of clients that answer with a ``UnifiedResponse``.

Such a client returns typed content blocks (reasoning, citations, tool calls, ...) from ``create``
and still serves the classic machinery: ``create_v1_compatible`` gives the chat-completion shape,
and ``cost`` / ``get_usage`` feed the usage summaries. The clients of this package also follow the
classic ``ModelClient`` protocol (``message_retrieval``), so ``OpenAIWrapper`` and the agents use
them like any other client.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from .models.unified_response import UnifiedResponse

__all__ = ["ModelClientV2", "UnifiedResponse"]


class ModelClientV2(Protocol):
    """A model client whose ``create`` returns a ``UnifiedResponse``."""

    RESPONSE_USAGE_KEYS: ClassVar[list[str]] = ["prompt_tokens", "completion_tokens", "total_tokens", "cost", "model"]

    def create(self, params: dict[str, Any]) -> UnifiedResponse:
        """Send the request described by ``params`` (``model``, ``messages``, ...) and return the answer."""
        ...

    def create_v1_compatible(self, params: dict[str, Any]) -> Any:
        """Like ``create``, in the classic chat-completion shape (reasoning and citations are flattened)."""
        ...

    def cost(self, response: UnifiedResponse) -> float:
        """The cost of ``response`` in USD."""
        ...

    @staticmethod
    def get_usage(response: UnifiedResponse) -> dict[str, Any]:
        """The usage of ``response``: at least the keys of ``RESPONSE_USAGE_KEYS``."""
        ...
