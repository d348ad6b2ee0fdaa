"""An answer in the classic shapes: a chat completion (``create_v1_compatible``) and the reply list
(``message_retrieval``) that agents store as their messages. ``ChatCompletionExtended`` lives in
``oai.model_client``."""

from __future__ import annotations

import json
from typing import Any, Union

from openai.types import CompletionUsage
from openai.types.chat import ChatCompletionMessage, ChatCompletionMessageFunctionToolCall
from openai.types.chat.chat_completion import Choice
from openai.types.chat.chat_completion_message_function_tool_call import Function

from ...oai.model_client import ChatCompletionExtended  # lives with oai, the layer below; re-exported here
from ..models import (
    CitationContent,
    GenericContent,
    ImageContent,
    ReasoningContent,
    TextContent,
    ToolCallContent,
    UnifiedMessage,
    UnifiedResponse,
    UserRoleEnum,
)

__all__ = [
    "ChatCompletionExtended",
    "ChatCompletionMessage",
    "ChatCompletionMessageFunctionToolCall",
    "Choice",
    "CompletionUsage",
    "Function",
    "to_chat_completion",
    "to_v1_messages",
]


def _flattened(block: Any) -> Union[str, None]:
    """A block's text in a chat completion's content (None for blocks that are not content)."""
    if isinstance(block, TextContent):
        return block.text
    if isinstance(block, ReasoningContent):
        return f"[Reasoning: {block.get_text()}]"
    if isinstance(block, CitationContent):
        return f"[{block.title}]({block.url})" + (f": {block.snippet}" if block.snippet else "")
    if isinstance(block, ImageContent):
        if block.data_uri:
            return f"[Generated image: {block.data_uri[:50]}...]"
        return f"[Image: {block.image_url}]" if block.image_url else None
    if isinstance(block, GenericContent):
        return f"[{block.type}: {json.dumps(block.data, default=str)}]"
    return None


def to_chat_completion(response: UnifiedResponse) -> ChatCompletionExtended:
    """The answer as a chat completion: reasoning, citations, images and other blocks become lines of text."""
    choices = []
    for index, message in enumerate(response.messages):
        lines = [text for text in (_flattened(block) for block in message.content) if text is not None]
        calls = [
            ChatCompletionMessageFunctionToolCall(id=b.id, type="function", function=Function(name=b.name, arguments=b.arguments))
            for b in message.content if isinstance(b, ToolCallContent)
        ]
        choices.append(Choice(
            index=index,
            message=ChatCompletionMessage(role="assistant", content="\n".join(lines) if lines else None,
                                          tool_calls=calls or None),
            finish_reason="tool_calls" if calls else "stop",
            logprobs=None,
        ))
    return ChatCompletionExtended(
        id=response.id,
        model=response.model,
        created=int(response.provider_metadata.get("created") or 0),
        object="chat.completion",
        choices=choices,
        usage=CompletionUsage(
            prompt_tokens=int(response.usage.get("prompt_tokens", 0)),
            completion_tokens=int(response.usage.get("completion_tokens", 0)),
            total_tokens=int(response.usage.get("total_tokens", 0)),
        ),
        cost=response.cost,
    )


def _v1_message(message: UnifiedMessage) -> Union[str, dict[str, Any]]:
    texts = [b.text for b in message.content if isinstance(b, TextContent)]
    calls = [
        {"id": b.id, "type": "function", "function": {"name": b.name, "arguments": b.arguments}}
        for b in message.content if isinstance(b, ToolCallContent)
    ]
    images = [b.data_uri or b.image_url for b in message.content if isinstance(b, ImageContent) and (b.data_uri or b.image_url)]
    if not calls and not images:
        return "\n".join(texts)
    content: Any = "\n".join(texts) if texts else None
    if images:  # the classic multimodal content: text and image parts
        content = [{"type": "text", "text": t} for t in texts] + [{"type": "image_url", "image_url": {"url": u}} for u in images]
    role = message.role.value if isinstance(message.role, UserRoleEnum) else message.role
    item: dict[str, Any] = {"role": role, "content": content}
    if calls:
        item["tool_calls"] = calls
    return item


def to_v1_messages(response: UnifiedResponse) -> Union[list[str], list[dict[str, Any]]]:
    """One reply per message: its text, or a message dict when it calls tools or carries images.

    Citations, reasoning and other blocks stay on the ``UnifiedResponse`` (see the client's accessors).
    """
    return [_v1_message(message) for message in response.messages]  # type: ignore[return-value]
