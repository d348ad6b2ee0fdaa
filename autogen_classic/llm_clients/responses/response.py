"""A Responses API answer as content blocks: each output item becomes the block that fits it.

``message`` items give their text (and citations from ``url_citation`` annotations), ``reasoning``
items a ``ReasoningContent``, ``function_call`` items a ``ToolCallContent``, generated images an
``ImageContent`` with a data URI, and every other item (``web_search_call``, any ``*_call`` of a
built-in tool, new kinds) a ``GenericContent`` holding all of its fields.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Union

from ..models import CitationContent, GenericContent, ImageContent, ReasoningContent, TextContent, ToolCallContent
from .pricing import calculate_image_cost

__all__ = ["item_dict", "output_blocks", "usage_of"]

logger = logging.getLogger("autogen_classic.llm_clients")

_DEFAULT_IMAGE_SIZE = "1024x1536"
_DEFAULT_IMAGE_QUALITY = "high"


def item_dict(item: Any) -> Union[dict[str, Any], None]:
    """An output item (or usage) of a Responses API answer as a dict: the SDK's models dumped, dicts as they are."""
    if hasattr(item, "model_dump"):
        return item.model_dump()
    return item if isinstance(item, dict) else None


def _without(data: dict[str, Any], *names: str) -> dict[str, Any]:
    # "extra" is the blocks' own field: a provider field of that name is kept under another name.
    kept = {k: v for k, v in data.items() if k not in names and k != "extra"}
    if "extra" in data and "extra" not in names:
        kept["item_extra"] = data["extra"]
    return kept


def _message_blocks(item: dict[str, Any]) -> list[Any]:
    blocks: list[Any] = []
    for part in item.get("content") or []:
        kind = part.get("type")
        if kind == "refusal":
            blocks.append(GenericContent(type="refusal", refusal=part.get("refusal")))
            continue
        if kind != "output_text":
            continue
        text = part.get("text") or ""
        if text:
            blocks.append(TextContent(text=text))
        for note in part.get("annotations") or []:
            if not isinstance(note, dict):
                continue
            if note.get("type") == "url_citation" and note.get("url"):
                start, end = note.get("start_index", 0) or 0, note.get("end_index", 0) or 0
                blocks.append(CitationContent(
                    url=note["url"], title=note.get("title") or note["url"],
                    snippet=text[start:end] if start < end else "", relevance_score=note.get("relevance_score"),
                ))
            elif note.get("type") == "file_citation":
                blocks.append(GenericContent(type="file_citation", **_without(note, "type")))
    return blocks


def _texts(parts: Any) -> str:
    return "\n".join(p.get("text") or "" for p in parts or [] if isinstance(p, dict) and p.get("text"))


def _reasoning_block(item: dict[str, Any]) -> Union[ReasoningContent, None]:
    """The reasoning text (``content`` parts, or a plain ``reasoning`` string) and its summary."""
    summary = _texts(item.get("summary")) or None
    text = _texts(item.get("content")) or (item.get("reasoning") if isinstance(item.get("reasoning"), str) else "")
    if not text and not summary:
        return None  # the reasoning was not shared (e.g. only encrypted)
    return ReasoningContent(reasoning=text or summary or "", summary=summary)


def _citations_of_search(item: dict[str, Any]) -> list[Any]:
    notes = [n for n in item.get("annotations") or [] if isinstance(n, dict)]
    blocks: list[Any] = [
        CitationContent(url=n["url"], title=n.get("title") or n["url"],
                        snippet=n.get("text") or n.get("snippet") or n.get("description") or "",
                        relevance_score=n.get("relevance_score"))
        for n in notes if n.get("url")
    ]
    return blocks or [GenericContent(type="web_search", **_without(item, "type"))]


def output_blocks(output: list[Any], output_format: str) -> tuple[list[Any], float]:
    """The blocks of a response's ``output`` items, and the cost of the images generated in it.

    Args:
        output: the response's output items (SDK objects or dicts).
        output_format: the image format asked for (``png`` unless set), for the images' data URIs.
    """
    blocks: list[Any] = []
    image_cost = 0.0
    for raw in output or []:
        item = item_dict(raw)
        if item is None:
            logger.debug("Output item of unknown kind left out: %r", type(raw))
            continue
        kind = item.get("type")
        if kind == "message":
            blocks.extend(_message_blocks(item))
        elif kind == "reasoning":
            block = _reasoning_block(item)
            if block is not None:
                blocks.append(block)
        elif kind == "function_call":
            arguments = item.get("arguments", "")
            if item.get("call_id") and item.get("name"):
                blocks.append(ToolCallContent(
                    id=item["call_id"], name=item["name"],
                    arguments=arguments if isinstance(arguments, str) else json.dumps(arguments),
                ))
        elif kind == "image_generation_call" and item.get("result"):
            size = item.get("size") or _DEFAULT_IMAGE_SIZE
            quality = item.get("quality") or _DEFAULT_IMAGE_QUALITY
            image = ImageContent(data_uri=f"data:image/{output_format};base64,{item['result']}", detail="high")
            image.extra = {"generated": True, "size": size, "quality": quality, "output_format": output_format}
            blocks.append(image)
            cost, error = calculate_image_cost("gpt-image-1", size, quality)
            image_cost += 0.0 if error else cost
        elif kind == "web_search":
            blocks.extend(_citations_of_search(item))
        elif kind == "web_search_result" and item.get("url"):
            blocks.append(CitationContent(url=item["url"], title=item.get("title") or item["url"],
                                          snippet=item.get("snippet") or item.get("content") or "",
                                          relevance_score=item.get("relevance_score")))
        elif isinstance(kind, str) and kind.endswith("_call") and kind not in (
            "web_search_call", "apply_patch_call", "shell_call", "image_generation_call"
        ):
            blocks.append(GenericContent(type=kind, tool_name=kind[: -len("_call")], **_without(item, "type")))
        elif kind:
            blocks.append(GenericContent(type=kind, **_without(item, "type")))
    return blocks, image_cost


def usage_of(response: Any) -> dict[str, Union[int, float]]:
    """``prompt_tokens``, ``completion_tokens``, ``total_tokens`` (and ``reasoning_tokens`` when any)."""
    data = item_dict(getattr(response, "usage", None)) or {}
    if not data:
        return {}
    usage: dict[str, Union[int, float]] = {
        "prompt_tokens": data.get("input_tokens") or 0,
        "completion_tokens": data.get("output_tokens") or 0,
        "total_tokens": data.get("total_tokens") or 0,
    }
    reasoning = (data.get("output_tokens_details") or {}).get("reasoning_tokens") or 0
    if reasoning > 0:
        usage["reasoning_tokens"] = reasoning
    return usage
