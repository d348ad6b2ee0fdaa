"""Model clients that answer with a ``UnifiedResponse``: typed content blocks (text, reasoning, citations,
tool calls, images, and any new kind kept whole), usage and cost, for every provider alike.

- ``OpenAICompletionsClient``: the chat-completions API (``"api_type": "openai_v2"``).
- ``OpenAIResponsesV2Client`` (in ``openai_responses_v2``): the Responses API (``"api_type": "responses_v2"``).

Both are classic ``ModelClient``s too, so ``OpenAIWrapper`` and the agents use them through a
``config_list`` entry. This package sits with ``oai``: it knows nothing of agents or tools. The typed
entries of the "v2" api types live with the other entries in ``oai.entries``; the Anthropic and Bedrock
entries are re-exported here at their classic path (those providers are served through an
OpenAI-compatible endpoint, see ``oai.endpoint.providers``).
"""

from ..oai.entries import AnthropicV2LLMConfigEntry, BedrockV2LLMConfigEntry
from .client_v2 import ModelClientV2
from .models import (
    AudioContent,
    BaseContent,
    CitationContent,
    ContentBlock,
    ContentParser,
    GenericContent,
    ImageContent,
    ReasoningContent,
    TextContent,
    ToolCallContent,
    ToolResultContent,
    UnifiedMessage,
    UnifiedResponse,
    VideoContent,
)
from .openai_completions_client import OpenAICompletionsClient

__all__ = [
    "AudioContent",
    "BaseContent",
    "CitationContent",
    "ContentBlock",
    "ContentParser",
    "GenericContent",
    "ImageContent",
    "ModelClientV2",
    "OpenAICompletionsClient",
    "ReasoningContent",
    "TextContent",
    "ToolCallContent",
    "ToolResultContent",
    "UnifiedMessage",
    "UnifiedResponse",
    "VideoContent",
]
