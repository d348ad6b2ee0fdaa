"""``MarkdownCodeExtractor``: the code blocks of a message are its Markdown fenced blocks."""

from __future__ import annotations

import re
from typing import Union

from ..types import UserMessageImageContentPart, UserMessageTextContentPart
from .base import CodeBlock, CodeExtractor
from .utils import CODE_BLOCK_PATTERN, UNKNOWN, content_str, infer_lang

__all__ = [
    "CODE_BLOCK_PATTERN",
    "UNKNOWN",
    "CodeBlock",
    "CodeExtractor",
    "MarkdownCodeExtractor",
    "UserMessageImageContentPart",
    "UserMessageTextContentPart",
    "content_str",
    "infer_lang",
]


class MarkdownCodeExtractor(CodeExtractor):
    """Extracts ``CodeBlock`` objects from Markdown fenced blocks (``[]`` when there are none).

    An untagged block gets the language ``infer_lang`` guesses, or ``""`` when it cannot tell.
    """

    def extract_code_blocks(
        self, message: Union[str, list[Union[UserMessageTextContentPart, UserMessageImageContentPart]], None]
    ) -> list[CodeBlock]:
        """Return the code blocks in ``message`` (a string, a multimodal content list or None)."""
        blocks: list[CodeBlock] = []
        for lang, code in re.findall(CODE_BLOCK_PATTERN, content_str(message), flags=re.DOTALL):
            if lang == "":
                lang = infer_lang(code)
            if lang == UNKNOWN:
                lang = ""
            blocks.append(CodeBlock(code=code, language=lang))
        return blocks
