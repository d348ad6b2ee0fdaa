"""Helpers shared by the message transforms: token counts, content checks, filters and the cache."""

from __future__ import annotations

import copy
from collections.abc import Hashable
from typing import Any, Optional, Union

from .... import token_count_utils
from ....cache.abstract_cache_base import AbstractCache
from ....oai.config_list import filter_config

# The content of a message: text, a multimodal list of parts, or None.
MessageContentType = Union[str, list[Union[dict, str]], None]

__all__ = [
    "AbstractCache",
    "cache_content_get",
    "cache_content_set",
    "cache_key",
    "count_text_tokens",
    "filter_config",
    "is_content_right_type",
    "is_content_text_empty",
    "min_tokens_reached",
    "should_transform_message",
]

_DEFAULT_MODEL = "gpt-3.5-turbo-0613"


def cache_key(content: MessageContentType, *args: Hashable) -> str:
    """The cache key of a message content plus any other values that change the result.

    Args:
        content: the message content.
        *args: further values (e.g. ``min_tokens``) the key depends on.
    """
    return "".join(str(part) for part in (content, *args))


def cache_content_get(cache: Optional[AbstractCache], key: str) -> Optional[tuple[MessageContentType, ...]]:
    """The cached ``(content, *extra_values)`` for ``key``, or None (also when ``cache`` is None).

    Args:
        cache: the cache, or None for no caching.
        key: see ``cache_key``.
    """
    if cache is None:
        return None
    value = cache.get(key)
    # A copy, so a caller changing the returned content cannot change an in-memory cache entry.
    return copy.deepcopy(value) if value else None


def cache_content_set(
    cache: Optional[AbstractCache], key: str, content: MessageContentType, *extra_values: Any
) -> None:
    """Store ``(content, *extra_values)`` under ``key`` (nothing happens when ``cache`` is None).

    Args:
        cache: the cache, or None for no caching.
        key: see ``cache_key``.
        content: the (transformed) message content.
        *extra_values: more values to keep with it (e.g. the tokens saved).
    """
    if cache is not None:
        cache.set(key, (content, *extra_values))


def count_text_tokens(content: MessageContentType, model: str = _DEFAULT_MODEL) -> int:
    """The number of tokens of the text in a message content.

    Args:
        content: a string, or a multimodal list of strings and ``{"type": "text", "text": ...}`` parts
            (other parts count 0); None counts 0.
        model: the model whose tokenizer is estimated.
    """
    if isinstance(content, str):
        return token_count_utils.count_token(content, model)
    if isinstance(content, list):
        total = 0
        for item in content:
            if isinstance(item, str):
                total += token_count_utils.count_token(item, model)
            elif isinstance(item, dict):
                total += count_text_tokens(item.get("text", ""), model)
        return total
    return 0


def min_tokens_reached(messages: list[dict[str, Any]], min_tokens: Optional[int]) -> bool:
    """Whether the messages hold at least ``min_tokens`` tokens of text (always true without a minimum).

    Args:
        messages: the messages.
        min_tokens: the threshold, or None / 0 for none.
    """
    if not min_tokens:
        return True
    return sum(count_text_tokens(m["content"]) for m in messages if "content" in m) >= min_tokens


def is_content_right_type(content: Any) -> bool:
    """Whether a message content is text a transform can work on: a string or a multimodal list."""
    return isinstance(content, (str, list))


def is_content_text_empty(content: MessageContentType) -> bool:
    """Whether a message content holds no text (None, "", or a list without any non-empty text).

    Args:
        content: the message content.
    """
    if isinstance(content, str):
        return content == ""
    if isinstance(content, list):
        texts = [item if isinstance(item, str) else item.get("text", "") for item in content
                 if isinstance(item, (str, dict))]
        return not any(texts)
    return True


def _matches(value: Any, accepted: Any) -> bool:
    if value is None:
        return False
    if isinstance(value, list):
        return bool(set(value) & set(accepted))
    return value in accepted


def should_transform_message(message: dict[str, Any], filter_dict: Optional[dict[str, Any]], exclude: bool) -> bool:
    """Whether a transform applies to ``message`` under ``filter_dict`` (key -> accepted values).

    Without a filter every message is transformed. Otherwise each filter key is checked on its own:
    with ``exclude=False`` every key must match, with ``exclude=True`` no key may match. A message
    without the key does not match it; a list value matches when any item is accepted.

    Args:
        message: the message.
        filter_dict: the filter, or None.
        exclude: see above.
    """
    if not filter_dict:
        return True
    return all(_matches(message.get(key), accepted) != exclude for key, accepted in filter_dict.items())
