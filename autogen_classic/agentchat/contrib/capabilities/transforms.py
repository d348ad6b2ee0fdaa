"""Message transforms: trim or rewrite a message list before an agent replies to it.

Each transform has ``apply_transform(messages) -> messages`` and
``get_logs(pre, post) -> (text, had_effect)``; :class:`TransformMessages` chains them.
Token counts come from :mod:`autogen_classic.token_count_utils` (an offline estimate).
"""

from __future__ import annotations

import copy
from typing import Any, Optional, Protocol, Union, runtime_checkable

from .... import token_count_utils
from ....io import IOStream

__all__ = [
    "MessageHistoryLimiter",
    "MessageTokenLimiter",
    "MessageTransform",
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
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{argument} must be None or an integer >= {minimum}, got {value!r}.")
    if value < minimum:
        raise ValueError(f"{argument} must be None or greater than or equal to {minimum}, got {value}.")
    return value


def _is_text_content(content: Any) -> bool:
    return isinstance(content, (str, list))


def count_text_tokens(content: Any, model: str = "gpt-3.5-turbo-0613") -> int:
    """Count the tokens of a message's text: a string, or the text parts of a multimodal list."""
    if isinstance(content, str):
        return token_count_utils.count_token(content, model)
    if isinstance(content, list):
        total = 0
        for item in content:
            if isinstance(item, str):
                total += token_count_utils.count_token(item, model)
            elif isinstance(item, dict) and isinstance(item.get("text"), str):
                total += token_count_utils.count_token(item["text"], model)
        return total
    return 0


def _matches_criteria(value: Any, accepted: Any) -> bool:
    if value is None:
        return False
    if isinstance(value, list):
        return bool(set(value) & set(accepted))
    return value in accepted


def should_transform_message(message: dict, filter_dict: Optional[dict], exclude: bool) -> bool:
    """Whether ``message`` passes ``filter_dict`` (key -> accepted values).

    With ``exclude=True`` a message is transformed only if none of its fields matches the
    filter; with ``exclude=False`` only if all of them match. No filter: always transformed.
    """
    if not filter_dict:
        return True
    return all(_matches_criteria(message.get(key), accepted) != exclude for key, accepted in filter_dict.items())


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
            raise ValueError(f"exclude_names must be None or a list of agent names, got {exclude_names!r}.")
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
            raise ValueError(
                f"min_tokens must not be more than max_tokens (got min_tokens={minimum}, max_tokens={total})."
            )
        model_limit = self._model_limit() if (per_message is not None or total is not None) else None
        self._max_tokens_per_message = self._cap(per_message, model_limit)
        self._max_tokens = self._cap(total, model_limit)
        self._min_tokens = minimum or 0
        if filter_dict is not None and not isinstance(filter_dict, dict):
            raise ValueError(f"filter_dict must be None or a dict of field -> accepted values, got {filter_dict!r}.")
        self._filter_dict = filter_dict
        self._exclude_filter = exclude_filter

    def _model_limit(self) -> Optional[int]:
        try:
            return token_count_utils.get_max_token_limit(self._model)
        except KeyError:
            IOStream.get_default().print(_yellow(f"Model {self._model} not found in token_count_utils."))
            return None

    def _cap(self, limit: Optional[int], model_limit: Optional[int]) -> Optional[int]:
        if limit is not None and model_limit is not None and limit > model_limit:
            IOStream.get_default().print(
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
            return token_count_utils.truncate_to_tokens(content, n_tokens)
        # Multimodal: the text parts share one budget; other parts (images) are kept.
        result: list = []
        left = n_tokens
        for part in content:
            if isinstance(part, dict) and isinstance(part.get("text"), str):
                text = token_count_utils.truncate_to_tokens(part["text"], left)
                left -= self._count(text)
                result.append({**part, "text": text})
            elif isinstance(part, str):
                text = token_count_utils.truncate_to_tokens(part, left)
                left -= self._count(text)
                result.append(text)
            else:
                result.append(part)
        return result


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
            raise ValueError(f"position must be 'start' or 'end', got {position!r}.")
        if not isinstance(format_string, str) or "{name}" not in format_string:
            raise ValueError(f"format_string must be a string containing '{{name}}', got {format_string!r}.")
        self._position = position
        self._format_string = format_string
        self._deduplicate = bool(deduplicate)
        self._filter_dict = filter_dict
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
