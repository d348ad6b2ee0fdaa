"""Reading the blocks of a Responses API answer, and building multimodal request messages."""

from __future__ import annotations

from typing import Any, Union

from ..models import CitationContent, GenericContent, ImageContent, UnifiedResponse

__all__ = ["ResponseAccessors"]


def _blocks(response: UnifiedResponse) -> list[Any]:
    return [block for message in response.messages for block in message.content]


def _generic(response: UnifiedResponse, kind: str) -> list[GenericContent]:
    return [b for b in _blocks(response) if isinstance(b, GenericContent) and b.type == kind]


class ResponseAccessors:
    """Static helpers of ``OpenAIResponsesV2Client``: each takes a ``UnifiedResponse`` from ``create``."""

    @staticmethod
    def get_citations(response: UnifiedResponse) -> list[CitationContent]:
        """The citations (e.g. the sources of a ``web_search``)."""
        return [b for b in _blocks(response) if isinstance(b, CitationContent)]

    @staticmethod
    def get_web_search_calls(response: UnifiedResponse) -> list[GenericContent]:
        """The ``web_search_call`` blocks: which searches ran (``id``, ``status``, ``action``)."""
        return _generic(response, "web_search_call")

    @staticmethod
    def get_shell_calls(response: UnifiedResponse) -> list[GenericContent]:
        """The ``shell_call`` blocks (``call_id``, ``action`` with the commands, ``status``)."""
        return _generic(response, "shell_call")

    @staticmethod
    def get_apply_patch_calls(response: UnifiedResponse) -> list[GenericContent]:
        """The ``apply_patch_call`` blocks (``call_id``, ``operation``, ``status``)."""
        return _generic(response, "apply_patch_call")

    @staticmethod
    def get_generated_images(response: UnifiedResponse) -> list[ImageContent]:
        """The images of the answer (generated ones carry a ``data_uri``)."""
        return [b for b in _blocks(response) if isinstance(b, ImageContent)]

    @staticmethod
    def get_all_images(response: UnifiedResponse) -> list[ImageContent]:
        """Every image of the answer (the same as ``get_generated_images``)."""
        return ResponseAccessors.get_generated_images(response)

    @staticmethod
    def get_parsed_content(response: UnifiedResponse) -> Union[GenericContent, None]:
        """The ``parsed`` block of a structured answer (``parsed_object``, ``parsed_dict``), or None."""
        found = _generic(response, "parsed")
        return found[0] if found else None

    @staticmethod
    def get_parsed_object(response: UnifiedResponse) -> Any:
        """The pydantic object of a structured answer (``response_format`` was a model class), or None."""
        parsed = ResponseAccessors.get_parsed_content(response)
        return None if parsed is None else parsed.get("parsed_object")

    @staticmethod
    def create_image_content(image_url: str, detail: str = "auto") -> dict[str, Any]:
        """An ``input_image`` part for a message's content (``image_url``: a URL or a data URI)."""
        return {"type": "input_image", "image_url": image_url, "detail": detail}

    @staticmethod
    def create_multimodal_message(text: str, images: Union[list[str], None] = None, role: str = "user") -> dict[str, Any]:
        """A message with a text part followed by one image part per URL in ``images``."""
        content: list[dict[str, Any]] = [{"type": "input_text", "text": text}] if text else []
        content += [ResponseAccessors.create_image_content(url) for url in images or []]
        return {"role": role, "content": content}
