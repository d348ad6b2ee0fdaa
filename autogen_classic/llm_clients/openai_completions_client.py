"""``OpenAICompletionsClient``: the chat-completions API answering with a ``UnifiedResponse``.

It sends ``chat.completions.create`` requests (``parse`` for a pydantic ``response_format``)
through the ``openai`` SDK and returns the answer as typed blocks: the text, the reasoning of
models that return it (``reasoning`` or ``reasoning_content`` in the message), tool calls, parsed
structured output, refusals, and any other message field as a ``GenericContent``. It is also a
classic ``ModelClient``: ``"api_type": "openai_v2"`` in a ``config_list`` entry makes
``OpenAIWrapper`` (and so an agent) use it.
"""

from __future__ import annotations

import inspect
import logging
import warnings
from typing import Any, Union

from pydantic import BaseModel

from ..oai.model_client import ModelClient  # noqa: F401  (re-exported: the classic module names it)
from ._sdk import require_model, split_for_sdk
from .models import (
    AudioContent,
    CitationContent,
    GenericContent,
    ImageContent,
    ReasoningContent,
    TextContent,
    ToolCallContent,
    UnifiedMessage,
    UnifiedResponse,
    UserRoleEnum,
    VideoContent,
    normalize_role,
)
from .unified_client import UnifiedResponseClient

__all__ = [
    "AudioContent",
    "CitationContent",
    "GenericContent",
    "ImageContent",
    "ModelClient",
    "OpenAICompletionsClient",
    "ReasoningContent",
    "TextContent",
    "ToolCallContent",
    "UnifiedMessage",
    "UnifiedResponse",
    "UserRoleEnum",
    "VideoContent",
    "normalize_role",
]

logger = logging.getLogger("autogen_classic.llm_clients")

_PER_MILLION = 1 / 1_000_000
# USD per token as (prompt, completion), matched by the longest model-name prefix.
_PRICES: dict[str, tuple[float, float]] = {
    "gpt-5": (1.25 * _PER_MILLION, 10.00 * _PER_MILLION),
    "gpt-5-mini": (0.25 * _PER_MILLION, 2.00 * _PER_MILLION),
    "gpt-5-nano": (0.05 * _PER_MILLION, 0.40 * _PER_MILLION),
    "gpt-4o": (2.50 * _PER_MILLION, 10.00 * _PER_MILLION),
    "gpt-4o-mini": (0.15 * _PER_MILLION, 0.60 * _PER_MILLION),
    "gpt-4-turbo": (10.00 * _PER_MILLION, 30.00 * _PER_MILLION),
    "gpt-4": (10.00 * _PER_MILLION, 30.00 * _PER_MILLION),
    "gpt-3.5-turbo": (0.50 * _PER_MILLION, 1.50 * _PER_MILLION),
    "o1-preview": (0.015 / 1000, 0.060 / 1000),
    "o1-mini": (0.003 / 1000, 0.012 / 1000),
    "o3-mini": (0.003 / 1000, 0.012 / 1000),
}
# Models not in the table are priced like GPT-4 Turbo.
_DEFAULT_PRICE = (10.00 * _PER_MILLION, 30.00 * _PER_MILLION)

# Settings reasoning models (o1, o3) refuse; they are dropped with a warning.
_UNSUPPORTED_BY_REASONING = ("temperature", "top_p", "frequency_penalty", "presence_penalty", "logprobs",
                             "top_logprobs", "logit_bias")
# The first reasoning models take neither system messages nor tools.
_NO_SYSTEM_NO_TOOLS = ("o1-mini", "o1-preview", "o1-mini-2024-09-12", "o1-preview-2024-09-12")
# Message fields read into blocks of their own; any other field with a value becomes a GenericContent.
_KNOWN_FIELDS = frozenset({"role", "content", "reasoning", "reasoning_content", "tool_calls", "citations", "name",
                           "function_call", "parsed", "refusal"})


def _is_pydantic_class(value: Any) -> bool:
    return inspect.isclass(value) and issubclass(value, BaseModel)


def _price_of(model: str) -> tuple[float, float]:
    matches = [name for name in _PRICES if model.startswith(name)]
    return _PRICES[max(matches, key=len)] if matches else _DEFAULT_PRICE


class OpenAICompletionsClient(UnifiedResponseClient):
    """A chat-completions client returning ``UnifiedResponse`` (``ModelClientV2`` and ``ModelClient``).

    Built with the arguments of ``UnifiedResponseClient`` (``api_key``, ``base_url``, ``timeout``,
    ``response_format`` and other ``openai.OpenAI`` settings as ``**kwargs``).

    Example:
        ``OpenAICompletionsClient(api_key=...).create({"model": "gpt-4o-mini", "messages": [...]}).text``
    """

    # ----------------------------------------------------------------- request
    def create(self, params: dict[str, Any]) -> UnifiedResponse:  # type: ignore[override]
        """Send a chat-completions request and return the answer as a ``UnifiedResponse``.

        Args:
            params: ``model``, ``messages`` and any other chat-completions settings (``tools``,
                ``temperature``, ``response_format`` as a pydantic model or a dict, ...). ``stream``
                is ignored: the answer is requested whole.

        Raises:
            TypeError: the request names no ``model``.
        """
        params = dict(params)
        require_model(params, type(self).__name__)
        if params.pop("stream", None):
            logger.debug("%s requests whole answers; 'stream' is ignored.", type(self).__name__)
        params.pop("stream_options", None)
        if self._default_response_format is not None and params.get("response_format") is None:
            params["response_format"] = self._default_response_format
        model = str(params["model"])
        if model.startswith(("o1", "o3")):
            params = self._reasoning_model_params(params, model)
        use_parse = _is_pydantic_class(params.get("response_format"))
        request = split_for_sdk(params, "chat")
        if use_parse:
            answer = self.client.chat.completions.parse(**request)
        else:
            answer = self.client.chat.completions.create(**request)
        return self._to_unified(answer, use_parse)

    @staticmethod
    def _reasoning_model_params(params: dict[str, Any], model: str) -> dict[str, Any]:
        """Adapt a request to a reasoning model (o1, o3): what it refuses is dropped or converted."""
        for name in _UNSUPPORTED_BY_REASONING:
            if name in params:
                warnings.warn(f"`{name}` is not supported with {model} model and will be ignored.", UserWarning,
                              stacklevel=4)
                params.pop(name)
        if "max_tokens" in params:  # reasoning tokens count too: the API names the limit differently
            params["max_completion_tokens"] = params.pop("max_tokens")
        if model in _NO_SYSTEM_NO_TOOLS:
            params["messages"] = [
                {**m, "role": "user", "content": f"System message: {m.get('content')}"}
                if isinstance(m, dict) and m.get("role") == "system" else m
                for m in params.get("messages") or []
            ]
            if params.pop("tools", None):
                warnings.warn(f"Tools/function calling is not supported with {model} model and will be removed.",
                              UserWarning, stacklevel=4)
                params.pop("tool_choice", None)
        return params

    # ----------------------------------------------------------------- answer
    def _to_unified(self, answer: Any, use_parse: bool) -> UnifiedResponse:
        messages = [self._message_of(choice.message, use_parse) for choice in answer.choices or []]
        usage: dict[str, Union[int, float]] = {}
        if getattr(answer, "usage", None) is not None:
            usage = {
                "prompt_tokens": answer.usage.prompt_tokens or 0,
                "completion_tokens": answer.usage.completion_tokens or 0,
                "total_tokens": answer.usage.total_tokens or 0,
            }
        response = UnifiedResponse(
            id=answer.id,
            model=answer.model,
            provider="openai",
            messages=messages,
            usage=usage,
            finish_reason=answer.choices[0].finish_reason if answer.choices else None,
            status="completed",
            provider_metadata={
                "created": getattr(answer, "created", None),
                "system_fingerprint": getattr(answer, "system_fingerprint", None),
                "service_tier": getattr(answer, "service_tier", None),
            },
        )
        response.cost = self.cost(response)
        return response

    @staticmethod
    def _message_of(message: Any, use_parse: bool) -> UnifiedMessage:
        data = message.model_dump(warnings=False) if hasattr(message, "model_dump") else dict(message)
        blocks: list[Any] = []
        reasoning = data.get("reasoning") or data.get("reasoning_content")
        if isinstance(reasoning, str) and reasoning:
            blocks.append(ReasoningContent(reasoning=reasoning))
        parsed = getattr(message, "parsed", None) if use_parse else None
        if parsed is not None:
            as_dict = parsed.model_dump() if hasattr(parsed, "model_dump") else {"value": str(parsed)}
            blocks.append(GenericContent(type="parsed", parsed=as_dict))
        if data.get("refusal"):
            blocks.append(GenericContent(type="refusal", refusal=data["refusal"]))
        if data.get("content"):
            blocks.append(TextContent(text=data["content"]))
        for call in data.get("tool_calls") or []:
            function = call.get("function") or {}
            if call.get("type", "function") == "function" and "name" in function:
                blocks.append(ToolCallContent(id=call.get("id") or "", name=function["name"],
                                              arguments=function.get("arguments") or ""))
            else:  # a custom tool call: kept whole
                blocks.append(GenericContent(**{**call, "type": call.get("type") or "tool_call"}))
        if data.get("function_call"):
            blocks.append(GenericContent(type="function_call", **data["function_call"]))
        for citation in data.get("citations") or []:
            blocks.append(CitationContent(url=citation.get("url", ""), title=citation.get("title", ""),
                                          snippet=citation.get("snippet", ""),
                                          relevance_score=citation.get("relevance_score")))
        for name, value in data.items():
            if name not in _KNOWN_FIELDS and value not in (None, [], {}, ""):
                blocks.append(GenericContent(type=name, **{name: value}))
        return UnifiedMessage(role=normalize_role(data.get("role")), content=blocks, name=data.get("name"))

    # ----------------------------------------------------------------- classic protocol
    def create_v1_compatible(self, params: dict[str, Any]) -> Any:
        """Like ``create``, as a chat-completion dict (``id``, ``model``, ``choices``, ``usage``, ``cost``).

        Reasoning and other blocks are left out; tool calls are kept in the message.
        """
        response = self.create(params)
        choices = []
        for index, message in enumerate(response.messages):
            role = message.role.value if isinstance(message.role, UserRoleEnum) else message.role
            body: dict[str, Any] = {"role": role, "content": _answer_text(message)}
            calls = _tool_calls_of(message)
            if calls:
                body["tool_calls"] = calls
            finish = response.finish_reason if index == 0 else None
            choices.append({"index": index, "message": body, "finish_reason": finish})
        return {
            "id": response.id,
            "model": response.model,
            "created": response.provider_metadata.get("created"),
            "object": "chat.completion",
            "choices": choices,
            "usage": response.usage,
            "cost": response.cost,
        }

    def cost(self, response: UnifiedResponse) -> float:  # type: ignore[override]
        """The cost in USD of ``response``'s tokens (per-token prices by model; GPT-4 Turbo's for others)."""
        if not response.usage:
            return 0.0
        prompt_price, completion_price = _price_of(response.model)
        return (response.usage.get("prompt_tokens", 0) * prompt_price
                + response.usage.get("completion_tokens", 0) * completion_price)

    def message_retrieval(self, response: UnifiedResponse) -> Union[list[str], list[dict[str, Any]]]:  # type: ignore[override]
        """One item per message: its text, or an OpenAI message dict when it calls tools or holds media.

        The dict has ``role``, ``content`` (the answer's text or None; a list of parts with media),
        and ``tool_calls`` / ``function_call`` / ``name`` when present.
        """
        out: list[Any] = []
        for message in response.messages:
            calls = _tool_calls_of(message)
            function_call = next((b for b in message.content if b.type == "function_call"), None)
            media = any(isinstance(b, (ImageContent, AudioContent, VideoContent)) for b in message.content)
            if not (calls or function_call or media):
                out.append(_answer_text(message) or "")
                continue
            role = message.role.value if isinstance(message.role, UserRoleEnum) else message.role
            item: dict[str, Any] = {"role": role, "content": _parts_of(message) if media else _answer_text(message)}
            if message.name:
                item["name"] = message.name
            if calls:
                item["tool_calls"] = calls
            if function_call is not None:
                item["function_call"] = {"name": function_call.get("name"), "arguments": function_call.get("arguments")}
            out.append(item)
        return out


def _answer_text(message: UnifiedMessage) -> Union[str, None]:
    """The answer's own text (text blocks only: no reasoning, no tool-call descriptions), or None."""
    texts = [block.text for block in message.content if isinstance(block, TextContent)]
    return "\n".join(texts) if texts else None


def _tool_calls_of(message: UnifiedMessage) -> list[dict[str, Any]]:
    return [
        {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}
        for call in message.get_tool_calls()
    ]


def _parts_of(message: UnifiedMessage) -> list[dict[str, Any]]:
    """The message as a multimodal content list (text and image parts; audio and video as their text)."""
    parts: list[dict[str, Any]] = []
    for block in message.content:
        if isinstance(block, TextContent):
            parts.append({"type": "text", "text": block.text})
        elif isinstance(block, ImageContent) and (block.image_url or block.data_uri):
            parts.append({"type": "image_url",
                          "image_url": {"url": block.image_url or block.data_uri, "detail": block.detail or "auto"}})
        elif isinstance(block, (AudioContent, VideoContent)) and block.get_text():
            parts.append({"type": "text", "text": block.get_text()})
    return parts or [{"type": "text", "text": message.get_text()}]
