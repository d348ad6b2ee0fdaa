"""What a safeguard does to the content it caught: block it (replace it by a notice) or mask the sensitive parts.

Content comes in the shapes agents exchange: a text, a message dict (with ``content``, ``tool_calls`` or
``tool_responses``), a call (``{"name", "arguments"}``) or a list of messages. Blocking and masking keep the
shape, so that a tool call still gets its response and the model still gets a well-formed request.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Optional

from ....oai.client import OpenAIWrapper

__all__ = ["MASK", "Masker", "block_notice", "blocked", "masked"]

MASK = "[SENSITIVE_INFO]"

_MASK_PROMPT = """Mask the sensitive information in this content with [SENSITIVE_INFO]:

Content: {content}
Sensitive categories: {categories}
Reason: {reason}

Return only the masked content, nothing else."""


def block_notice(reason: str) -> str:
    """The text that stands in for blocked content."""
    return f"🛡️ BLOCKED: {reason}"


def _text(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(str(p.get("text", "")) for p in value if isinstance(p, dict))
    return "" if value is None else str(value)


def _each_text(message: dict[str, Any], change: Callable[[str], str], calls_as: Callable[[str], str]) -> dict[str, Any]:
    """A copy of ``message``: ``change`` applied to its content and tool responses, ``calls_as`` to call arguments."""
    copy = dict(message)
    if copy.get("tool_calls"):
        copy["tool_calls"] = [
            {**call, "function": {**(call.get("function") or {}),
                                  "arguments": calls_as(_text((call.get("function") or {}).get("arguments")))}}
            for call in copy["tool_calls"]
        ]
    if copy.get("tool_responses"):
        copy["tool_responses"] = [{**r, "content": change(_text(r.get("content")))} for r in copy["tool_responses"]]
    if "content" in copy and copy["content"] is not None:
        copy["content"] = change(_text(copy["content"]))
    elif "arguments" in copy and not copy.get("tool_calls"):
        copy["arguments"] = calls_as(_text(copy["arguments"]))
    return copy


def blocked(content: Any, reason: str) -> Any:
    """``content`` with every text replaced by the block notice; call arguments become ``{"error": notice}``."""
    notice = block_notice(reason)
    if isinstance(content, dict):
        return _each_text(content, lambda _: notice, lambda _: json.dumps({"error": notice}))
    if isinstance(content, list):
        return [blocked(item, reason) if isinstance(item, dict) else notice for item in content]
    return notice


def masked(content: Any, mask: Callable[[str], str]) -> Any:
    """``content`` with ``mask`` applied to every text (call arguments included)."""
    if isinstance(content, dict):
        return _each_text(content, mask, mask)
    if isinstance(content, list):
        return [masked(item, mask) if isinstance(item, dict) else mask(_text(item)) for item in content]
    return mask(_text(content))


class Masker:
    """Masks the sensitive parts of a text: by the rule's pattern, else by asking a model, else all of it.

    Args:
        llm_config: the model that masks (``mask_llm_config``); None to mask without one.
    """

    def __init__(self, llm_config: Any = None) -> None:
        self.client: Optional[OpenAIWrapper] = OpenAIWrapper(**llm_config) if llm_config else None

    def mask(self, text: str, pattern: Optional[str], categories: list[str], reason: str) -> str:
        """``text`` with what the rule caught replaced by ``[SENSITIVE_INFO]``.

        Args:
            text: the text.
            pattern: the rule's regular expression (regex rules).
            categories: what the rule looks for (LLM rules: its disallowed items, or its prompt).
            reason: why the text was caught.
        """
        if pattern:
            replaced = re.sub(pattern, MASK, text, flags=re.IGNORECASE)
            if replaced != text:
                return replaced
        if self.client is not None and categories:
            prompt = _MASK_PROMPT.format(content=text, categories=", ".join(categories), reason=reason)
            response = self.client.create(messages=[{"role": "user", "content": prompt}])
            answer = self.client.extract_text_or_completion_object(response)[0]
            if isinstance(answer, str) and answer:
                return answer
        # Nothing more precise to go by: hide the whole text rather than let the caught part through.
        return MASK
