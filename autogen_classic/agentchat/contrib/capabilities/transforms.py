"""Message transforms: trim, compress or rewrite a message list before an agent replies to it.

Each transform has ``apply_transform(messages) -> messages`` and
``get_logs(pre, post) -> (text, had_effect)``; :class:`TransformMessages` chains them.
Token counts come from :mod:`autogen_classic.token_count_utils` (exact, with the OpenAI encodings).
"""

from __future__ import annotations

import copy
import math
import numbers
import sys
from collections.abc import Mapping
from typing import Any, Optional, Protocol, Union, runtime_checkable

from .... import token_count_utils
from ....cache import AbstractCache, Cache
from ....exception_utils import InvalidArgumentError, InvalidArgumentTypeError
from ....io.emit import emit_print
from . import transforms_util
from .text_compressors import LLMLingua, TextCompressor
from .transforms_util import MessageContentType, count_text_tokens, should_transform_message

__all__ = [
    "MessageHistoryLimiter",
    "MessageTokenLimiter",
    "MessageTransform",
    "TextMessageCompressor",
    "TextMessageContentName",
]

Content = Union[str, list]


@runtime_checkable
class MessageTransform(Protocol):
    """A transformation of a list of messages (OpenAI-style dicts)."""

    def apply_transform(self, messages: list[dict]) -> list[dict]:
        """Return the transformed list of messages (a new list; the input is not changed)."""
        ...

    def get_logs(self, pre_transform_messages: list[dict], post_transform_messages: list[dict]) -> tuple[str, bool]:
        """Describe what the transform did: ``(log text, whether it had an effect)``."""
        ...


def _yellow(text: str) -> str:
    from termcolor import colored

    return colored(text, "yellow")


def _check_limit(value: Any, argument: str, minimum: int) -> Optional[int]:
    """``value`` as a whole number >= ``minimum`` (None stays None).

    Numbers that are not whole are rounded down, as the classic transforms effectively treat them.
    """
    if value is None:
        return None
    if not isinstance(value, numbers.Real):
        raise InvalidArgumentTypeError(
            f"{argument} must be None or an integer >= {minimum}, got {value!r} ({type(value).__name__})."
        )
    if value < minimum or math.isnan(value):
        raise InvalidArgumentError(f"{argument} must be None or greater than or equal to {minimum}, got {value}.")
    return int(value) if math.isfinite(value) else sys.maxsize


def _check_filter(filter_dict: Any) -> Optional[dict]:
    if filter_dict is not None and not isinstance(filter_dict, Mapping):
        raise InvalidArgumentTypeError(
            f"filter_dict must be None or a dict of message field -> accepted values, e.g. "
            f"{{'role': ['system']}}; got {filter_dict!r}."
        )
    return filter_dict  # type: ignore[no-any-return]


def _is_text_content(content: Any) -> bool:
    return transforms_util.is_content_right_type(content)


class MessageHistoryLimiter:
    """Keeps only the most recent messages.

    A tool result whose requesting assistant message was cut off would be rejected by the
    API, so tool messages at the start of the kept window are dropped too.

    Args:
        max_messages: the most messages to keep (>= 1); None keeps all.
        keep_first_message: always keep the first message (it counts towards ``max_messages``).
        exclude_names: drop every message whose ``name`` is one of these before counting.
    """

    def __init__(
        self,
        max_messages: Optional[int] = None,
        keep_first_message: bool = False,
        exclude_names: Optional[list[str]] = None,
    ) -> None:
        self._max_messages = _check_limit(max_messages, "max_messages", 1)
        self._keep_first_message = bool(keep_first_message)
        if exclude_names is not None and (isinstance(exclude_names, str) or not hasattr(exclude_names, "__iter__")):
            raise InvalidArgumentTypeError(
                f"exclude_names must be None or a list of agent names, got {exclude_names!r}."
            )
        self._exclude_names = frozenset(exclude_names or ())

    def apply_transform(self, messages: list[dict]) -> list[dict]:
        """Return the first message (if kept) followed by the most recent ones, in order."""
        if self._exclude_names:
            messages = [m for m in messages if m.get("name") not in self._exclude_names]
        if self._max_messages is None or len(messages) <= self._max_messages:
            return messages

        head = messages[:1] if self._keep_first_message else []
        room = self._max_messages - len(head)
        tail = messages[len(head) :][-room:] if room > 0 else []
        while tail and tail[0].get("role") == "tool":
            tail = tail[1:]
        return head + tail

    def get_logs(self, pre_transform_messages: list[dict], post_transform_messages: list[dict]) -> tuple[str, bool]:
        """Report how many messages were removed."""
        before, after = len(pre_transform_messages), len(post_transform_messages)
        if after < before:
            return (
                f"Removed {before - after} messages. Number of messages reduced from {before} to {after}.",
                True,
            )
        return "No messages were removed.", False


class MessageTokenLimiter:
    """Truncates messages to token limits.

    Steps:

    1. If the messages hold fewer than ``min_tokens`` tokens in total, nothing changes.
    2. Messages are visited newest first; each is cut to ``max_tokens_per_message`` tokens
       (for multimodal content only the text parts are cut, sharing the budget).
    3. Tokens are added up; the message that would exceed ``max_tokens`` is cut to what is
       left, and all older messages are dropped.
    4. Messages without text content (e.g. tool calls) are kept as they are; messages that
       ``filter_dict`` keeps out of truncation are kept whole and their tokens still count.

    Args:
        max_tokens_per_message: the most tokens per message (>= 0); None: no limit.
        max_tokens: the most tokens in all messages (>= 0); None: no limit. Capped to the
            model's context window when the model is known.
        min_tokens: apply the transform only from this many tokens on (>= 0, <= max_tokens).
        model: the model whose context window caps ``max_tokens``.
        filter_dict: ``{message field: accepted values}`` selecting messages (see ``exclude_filter``).
        exclude_filter: True: messages matching the filter are not truncated; False: only they are.
    """

    def __init__(
        self,
        max_tokens_per_message: Optional[int] = None,
        max_tokens: Optional[int] = None,
        min_tokens: Optional[int] = None,
        model: str = "gpt-3.5-turbo-0613",
        filter_dict: Optional[dict] = None,
        exclude_filter: bool = True,
    ) -> None:
        self._model = model
        per_message = _check_limit(max_tokens_per_message, "max_tokens_per_message", 0)
        total = _check_limit(max_tokens, "max_tokens", 0)
        minimum = _check_limit(min_tokens, "min_tokens", 0)
        if minimum is not None and total is not None and minimum > total:
            raise InvalidArgumentError(
                f"min_tokens must not be more than max_tokens (got min_tokens={minimum}, max_tokens={total})."
            )
        model_limit = self._model_limit() if (per_message is not None or total is not None) else None
        self._max_tokens_per_message = self._cap(per_message, model_limit)
        self._max_tokens = self._cap(total, model_limit)
        self._min_tokens = minimum or 0
        self._filter_dict = _check_filter(filter_dict)
        self._exclude_filter = exclude_filter

    def _model_limit(self) -> Optional[int]:
        try:
            return token_count_utils.get_max_token_limit(self._model)
        except KeyError:
            emit_print(_yellow(f"Model {self._model} not found in token_count_utils."))
            return None

    def _cap(self, limit: Optional[int], model_limit: Optional[int]) -> Optional[int]:
        if limit is not None and model_limit is not None and limit > model_limit:
            emit_print(
                _yellow(
                    f"Max token was set to {limit}, but {self._model} can only accept {model_limit} tokens. "
                    f"Capping it to {model_limit}."
                )
            )
            return model_limit
        return limit

    def _count(self, content: Any) -> int:
        return count_text_tokens(content, self._model)

    def apply_transform(self, messages: list[dict]) -> list[dict]:
        """Return a new list of messages within the token limits (the input is not changed)."""
        if self._min_tokens and sum(self._count(m.get("content")) for m in messages) < self._min_tokens:
            return messages

        kept: list[dict] = []
        used = 0
        for original in reversed(messages):
            message = copy.deepcopy(original)
            content = message.get("content")
            if not _is_text_content(content):
                kept.append(message)
                continue
            if not should_transform_message(message, self._filter_dict, self._exclude_filter):
                kept.append(message)
                used += self._count(content)
                continue

            content = self._truncate(content, self._max_tokens_per_message)
            tokens = self._count(content)
            left = None if self._max_tokens is None else max(self._max_tokens - used, 0)
            if left is not None and tokens > left:
                # This message overflows the total budget: keep what fits, drop everything older.
                if left > 0:
                    message["content"] = self._truncate(content, left)
                    kept.append(message)
                break
            message["content"] = content
            used += tokens
            kept.append(message)
        kept.reverse()
        return kept

    def get_logs(self, pre_transform_messages: list[dict], post_transform_messages: list[dict]) -> tuple[str, bool]:
        """Report how many tokens were cut."""
        before = sum(self._count(m["content"]) for m in pre_transform_messages if "content" in m)
        after = sum(self._count(m["content"]) for m in post_transform_messages if "content" in m)
        if after < before:
            return (
                f"Truncated {before - after} tokens. Number of tokens reduced from {before} to {after}",
                True,
            )
        return "No tokens were truncated.", False

    def _truncate(self, content: Content, n_tokens: Optional[int]) -> Content:
        if n_tokens is None:
            return content
        if isinstance(content, str):
            return token_count_utils.truncate_to_tokens(content, n_tokens, self._model)
        # Multimodal: the text parts share one budget; other parts (images) are kept.
        result: list = []
        left = n_tokens
        for part in content:
            if isinstance(part, dict) and isinstance(part.get("text"), str):
                text = token_count_utils.truncate_to_tokens(part["text"], left, self._model)
                left -= self._count(text)
                result.append({**part, "text": text})
            elif isinstance(part, str):
                text = token_count_utils.truncate_to_tokens(part, left, self._model)
                left -= self._count(text)
                result.append(text)
            else:
                result.append(part)
        return result


class TextMessageCompressor:
    """Compresses the text of messages with a text compressor, to save tokens.

    Each message with text (string content or the text parts of a multimodal list) is passed
    through ``text_compressor.compress_text(text, **compression_params)``; its
    ``"compressed_prompt"`` replaces the text. Results are cached by content, so a message is
    compressed once across replies (and across runs with a disk cache).

    Args:
        text_compressor: any object with ``compress_text(text, **params) -> dict`` holding
            ``"compressed_prompt"`` (and ``"origin_tokens"`` / ``"compressed_tokens"`` to count the
            tokens saved). Default: ``LLMLingua()``, which needs the optional ``llmlingua`` package.
        min_tokens: compress only when the messages hold at least this many tokens (> 0); None: always.
        compression_params: keyword arguments for every ``compress_text`` call.
        cache: where compressed contents are kept (default: ``Cache.disk()``).
        filter_dict: ``{message field: accepted values}`` selecting messages (see ``exclude_filter``).
        exclude_filter: True: messages matching the filter are not compressed; False: only they are.
    """

    def __init__(
        self,
        text_compressor: Optional[TextCompressor] = None,
        min_tokens: Optional[int] = None,
        compression_params: dict = dict(),  # noqa: B006 - the classic default, never mutated
        cache: Optional[AbstractCache] = None,
        filter_dict: Optional[dict] = None,
        exclude_filter: bool = True,
    ) -> None:
        if min_tokens is not None:
            if not isinstance(min_tokens, numbers.Real):
                raise InvalidArgumentTypeError(
                    f"min_tokens must be None or an integer greater than 0, got {min_tokens!r} "
                    f"({type(min_tokens).__name__})."
                )
            if not min_tokens > 0:
                raise InvalidArgumentError(f"min_tokens must be greater than 0 or None, got {min_tokens}.")
        if not isinstance(compression_params, Mapping):
            raise InvalidArgumentTypeError(
                f"compression_params must be a dict of keyword arguments for compress_text, got {compression_params!r}."
            )
        if text_compressor is None:
            text_compressor = LLMLingua()
        elif not callable(getattr(text_compressor, "compress_text", None)):
            raise InvalidArgumentTypeError(
                f"text_compressor must have a compress_text(text, **compression_params) method returning a dict "
                f"with 'compressed_prompt'; got {type(text_compressor).__name__}."
            )
        self._text_compressor = text_compressor
        self._min_tokens = min_tokens
        self._compression_args = dict(compression_params)
        self._cache = Cache.disk() if cache is None else cache
        self._filter_dict = _check_filter(filter_dict)
        self._exclude_filter = exclude_filter
        self._recent_tokens_savings = 0

    def apply_transform(self, messages: list[dict]) -> list[dict]:
        """Return a copy of the messages with their text compressed (the input is not changed)."""
        if not messages or not transforms_util.min_tokens_reached(messages, self._min_tokens):
            return messages

        total_savings = 0
        result = copy.deepcopy(messages)
        for message in result:
            content = message.get("content")
            if not _is_text_content(content):
                continue
            if not should_transform_message(message, self._filter_dict, self._exclude_filter):
                continue
            if transforms_util.is_content_text_empty(content):
                continue
            key = transforms_util.cache_key(content, self._min_tokens)
            cached = transforms_util.cache_content_get(self._cache, key)
            if cached is not None:
                message["content"], savings = cached[0], cached[1]
            else:
                message["content"], savings = self._compress(content)
                transforms_util.cache_content_set(self._cache, key, message["content"], savings)
            total_savings += savings

        self._recent_tokens_savings = total_savings
        return result

    def get_logs(self, pre_transform_messages: list[dict], post_transform_messages: list[dict]) -> tuple[str, bool]:
        """Report the tokens saved by the last ``apply_transform``."""
        if self._recent_tokens_savings > 0:
            return f"{self._recent_tokens_savings} tokens saved with text compression.", True
        return "No tokens saved with text compression.", False

    def _compress(self, content: MessageContentType) -> tuple[MessageContentType, int]:
        if isinstance(content, str):
            return self._compress_text(content)
        if isinstance(content, list):
            saved = 0
            parts: list = []
            for part in content:
                if isinstance(part, dict) and isinstance(part.get("text"), str):
                    text, savings = self._compress_text(part["text"])
                    parts.append({**part, "text": text})
                    saved += savings
                elif isinstance(part, str):
                    text, savings = self._compress_text(part)
                    parts.append(text)
                    saved += savings
                else:
                    parts.append(part)
            return parts, saved
        return content, 0

    def _compress_text(self, text: str) -> tuple[str, int]:
        compressed = self._text_compressor.compress_text(text, **self._compression_args)
        if not isinstance(compressed, Mapping) or "compressed_prompt" not in compressed:
            raise KeyError(
                f"{type(self._text_compressor).__name__}.compress_text must return a dict with the compressed text "
                f"under 'compressed_prompt'; got {compressed!r:.200}."
            )
        savings = 0
        if "origin_tokens" in compressed and "compressed_tokens" in compressed:
            savings = compressed["origin_tokens"] - compressed["compressed_tokens"]
            if not isinstance(savings, numbers.Integral):
                # Classic AutoGen asserts integer savings (an AssertionError); this error is one too.
                raise InvalidArgumentTypeError(
                    f"{type(self._text_compressor).__name__}.compress_text must return whole token counts in "
                    f"'origin_tokens' and 'compressed_tokens'; got {compressed['origin_tokens']!r} and "
                    f"{compressed['compressed_tokens']!r}."
                )
            savings = int(savings)
        return compressed["compressed_prompt"], savings


class TextMessageContentName:
    """Writes the sender's ``name`` into the text of each message.

    Args:
        position: ``"start"`` or ``"end"`` of the content.
        format_string: how to write the name; must contain ``{name}``.
        deduplicate: do not add the name where the content already starts (ends) with it.
        filter_dict: ``{message field: accepted values}`` selecting messages (see ``exclude_filter``).
        exclude_filter: True: messages matching the filter are left alone; False: only they change.
    """

    def __init__(
        self,
        position: str = "start",
        format_string: str = "{name}:\n",
        deduplicate: bool = True,
        filter_dict: Optional[dict] = None,
        exclude_filter: bool = True,
    ) -> None:
        if position not in ("start", "end"):
            raise InvalidArgumentError(f"position must be 'start' or 'end', got {position!r}.")
        if not isinstance(format_string, str) or "{name}" not in format_string:
            raise InvalidArgumentError(f"format_string must be a string containing '{{name}}', got {format_string!r}.")
        if not isinstance(deduplicate, bool):  # classic AutoGen asserts a bool: this error is an AssertionError too
            raise InvalidArgumentTypeError(f"deduplicate must be True or False, got {deduplicate!r}.")
        self._position = position
        self._format_string = format_string
        self._deduplicate = deduplicate
        self._filter_dict = _check_filter(filter_dict)
        self._exclude_filter = exclude_filter
        self._messages_changed = 0

    def apply_transform(self, messages: list[dict]) -> list[dict]:
        """Return a copy of the messages with the names written into string contents."""
        changed = 0
        result = copy.deepcopy(messages)
        for message in result:
            content, name = message.get("content"), message.get("name")
            if not isinstance(content, str) or not isinstance(name, str) or not content or not name:
                continue
            if not should_transform_message(message, self._filter_dict, self._exclude_filter):
                continue
            label = self._format_string.format(name=name)
            if self._position == "start":
                if not (self._deduplicate and content.startswith(label)):
                    message["content"] = label + content
                    changed += 1
            elif not (self._deduplicate and content.endswith(label)):
                message["content"] = content + label
                changed += 1
        self._messages_changed = changed
        return result

    def get_logs(self, pre_transform_messages: list[dict], post_transform_messages: list[dict]) -> tuple[str, bool]:
        """Report how many messages got a name."""
        if self._messages_changed > 0:
            return f"{self._messages_changed} message(s) changed to incorporate name.", True
        return "No messages changed to incorporate name.", False
