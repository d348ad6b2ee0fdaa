"""``OpenAIResponsesV2Client``: the OpenAI Responses API (``client.responses.create``) answering with a
``UnifiedResponse``; ``"api_type": "responses_v2"`` in a ``config_list`` entry selects it.

The Responses API keeps the conversation on the server; the client continues it for chat histories
(see ``responses.conversation``). Built-in tools (``"built_in_tools": ["web_search", "image_generation"]``),
structured output (``response_format`` as a pydantic model or a JSON-schema dict), reasoning and
citations are kept as typed blocks. The parts live in ``llm_clients.responses``; this module is their
classic path.
"""

from __future__ import annotations

import logging
import os
from typing import Any, Union

from ..oai.entries import OpenAILLMConfigEntry, OpenAIResponsesV2LLMConfigEntry
from ..oai.model_client import ModelClient  # noqa: F401  (re-exported: the classic module names it)
from .models import (
    CitationContent,
    GenericContent,
    ImageContent,
    ReasoningContent,
    TextContent,
    ToolCallContent,
    UnifiedMessage,
    UnifiedResponse,
)
from .responses.accessors import ResponseAccessors
from .responses.conversation import ResponsesConversation
from .responses.pricing import (
    IMAGE_PRICING,
    IMAGE_VALID_QUALITIES,
    IMAGE_VALID_SIZES,
    OAI_PRICE1K,
    CostTracking,
    calculate_image_cost,
    calculate_token_cost,
)
from ..types import content_str
from .responses.response import output_blocks, usage_of
from .responses.tool_settings import (
    ApplyPatchCallOutput,
    BuiltInToolSettings,
    ShellCallOutcome,
    ShellCallOutput,
    ShellCommandOutput,
)
from .responses.v1_format import (
    ChatCompletionExtended,
    ChatCompletionMessage,
    ChatCompletionMessageFunctionToolCall,
    Choice,
    CompletionUsage,
    Function,
    to_chat_completion,
    to_v1_messages,
)
from .unified_client import UnifiedResponseClient

__all__ = [
    "IMAGE_PRICING",
    "IMAGE_VALID_QUALITIES",
    "IMAGE_VALID_SIZES",
    "OAI_PRICE1K",
    "ApplyPatchCallOutput",
    "ChatCompletionExtended",
    "ChatCompletionMessage",
    "ChatCompletionMessageFunctionToolCall",
    "Choice",
    "CitationContent",
    "CompletionUsage",
    "Function",
    "GenericContent",
    "ImageContent",
    "ModelClient",
    "OpenAILLMConfigEntry",
    "OpenAIResponsesV2Client",
    "OpenAIResponsesV2LLMConfigEntry",
    "ReasoningContent",
    "ShellCallOutcome",
    "ShellCallOutput",
    "ShellCommandOutput",
    "TextContent",
    "ToolCallContent",
    "UnifiedMessage",
    "UnifiedResponse",
    "calculate_image_cost",
    "calculate_token_cost",
    "content_str",
]

logger = logging.getLogger("autogen_classic.llm_clients")

class OpenAIResponsesV2Client(ResponseAccessors, ResponsesConversation, BuiltInToolSettings, CostTracking,
                              UnifiedResponseClient):
    """A Responses API client returning ``UnifiedResponse`` (``ModelClientV2`` and ``ModelClient``).

    Args:
        api_key: the API key (default: ``OPENAI_API_KEY``; a local ``base_url`` needs none).
        base_url: the endpoint (default: OpenAI's).
        timeout: seconds per request.
        response_format: a pydantic model (or JSON-schema dict) every request asks for.
        workspace_dir: the classic workspace of the file tools (recorded; see ``built_in_tools``).
        allowed_paths: the classic path patterns of the file tools (recorded).
        **kwargs: other ``openai.OpenAI`` settings (``max_retries``, ``default_headers``, ...).
    """

    def __init__(
        self,
        api_key: Union[str, None] = None,
        base_url: Union[str, None] = None,
        timeout: float = 60.0,
        response_format: Any = None,
        workspace_dir: Union[str, None] = None,
        allowed_paths: Union[list[str], None] = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(api_key, base_url, timeout, response_format, **kwargs)
        self._workspace_dir = workspace_dir or os.getcwd()
        self._allowed_paths = allowed_paths or ["**"]
        self._init_tool_settings()
        self._init_costs()
        self._init_conversation()

    def create(self, params: dict[str, Any]) -> UnifiedResponse:  # type: ignore[override]
        """Send a Responses API request and return the answer as a ``UnifiedResponse`` (see ``ResponsesConversation.create``)."""
        return super().create(params)  # type: ignore[no-any-return]

    # ----------------------------------------------------------------- answer
    def _answer(self, answer: Any, model: str) -> UnifiedResponse:
        blocks, image_cost = output_blocks(getattr(answer, "output", None) or [], self._image_output_format())
        parsed = getattr(answer, "output_parsed", None)
        if parsed is not None:
            as_dict = parsed.model_dump() if hasattr(parsed, "model_dump") else parsed if isinstance(parsed, dict) else None
            blocks.insert(0, GenericContent(type="parsed", parsed_object=parsed, parsed_dict=as_dict,
                                            response_format_type=type(parsed).__name__))
        usage = usage_of(answer)
        answered_by = getattr(answer, "model", None) or model
        token_cost = self._count(answered_by, int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0)),
                                 image_cost)
        usage["token_cost"] = token_cost
        usage["image_cost"] = image_cost
        return UnifiedResponse(
            id=getattr(answer, "id", "") or "",
            model=answered_by,
            provider="openai_responses",
            messages=[UnifiedMessage(role="assistant", content=blocks or [TextContent(text="")])],
            usage=usage,
            cost=token_cost + image_cost,
            status=getattr(answer, "status", None) or "completed",
            provider_metadata={
                "created": None if getattr(answer, "created_at", None) is None else int(answer.created_at),
                "token_cost": token_cost,
                "image_cost": image_cost,
                "cumulative_token_cost": self._token_costs,
                "cumulative_image_cost": self._image_costs,
            },
        )

    def cost(self, response: UnifiedResponse) -> float:  # type: ignore[override]
        """The cost in USD of ``response``: its tokens plus the images generated in it."""
        return response.cost or 0.0

    @staticmethod
    def get_usage(response: UnifiedResponse) -> dict[str, Any]:  # type: ignore[override]
        """The classic usage keys, plus ``token_cost``, ``image_cost`` (and ``reasoning_tokens`` when any)."""
        usage = {
            **UnifiedResponseClient.get_usage(response),
            "token_cost": response.usage.get("token_cost", 0.0),
            "image_cost": response.usage.get("image_cost", 0.0),
        }
        if "reasoning_tokens" in response.usage:
            usage["reasoning_tokens"] = response.usage["reasoning_tokens"]
        return usage

    def message_retrieval(self, response: UnifiedResponse) -> Union[list[str], list[dict[str, Any]]]:  # type: ignore[override]
        """One reply per message: its text, or a message dict (``role``, ``content``, ``tool_calls``) when it
        calls tools or carries images. Citations, reasoning and other blocks stay on ``response``."""
        return to_v1_messages(response)

    @staticmethod
    def unified_response_to_v1_messages(response: UnifiedResponse) -> Union[list[str], list[dict[str, Any]]]:
        """What ``message_retrieval`` returns, without a client."""
        return to_v1_messages(response)

    def create_v1_compatible(self, params: dict[str, Any]) -> ChatCompletionExtended:
        """Like ``create``, as a chat completion (reasoning, citations and images become text lines)."""
        return to_chat_completion(self.create(params))

    def is_v1_compatible(self) -> bool:
        """True: ``create_v1_compatible`` gives the classic chat-completion shape."""
        return True

