"""Text compressors for ``TextMessageCompressor``: the ``TextCompressor`` protocol and ``LLMLingua``."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

__all__ = ["LLMLingua", "TextCompressor"]

LONG_CONTEXT_EXTRA = "long-context"


@runtime_checkable
class TextCompressor(Protocol):
    """Anything with ``compress_text(text, **compression_params) -> dict``.

    The dict holds the compressed text under ``"compressed_prompt"``; with ``"origin_tokens"`` and
    ``"compressed_tokens"`` the tokens saved are counted and reported.
    """

    def compress_text(self, text: str, **compression_params: Any) -> dict[str, Any]:
        """Compress ``text``; return at least ``{"compressed_prompt": ...}``."""
        ...


class LLMLingua:
    """Compresses text with LLMLingua (the optional ``llmlingua`` package).

    How much is saved depends on the text and the ``PromptCompressor`` settings.

    Args:
        prompt_compressor_kwargs: keyword arguments for ``llmlingua.PromptCompressor`` (default: the
            LLMLingua-2 multilingual BERT model on the CPU).
        structured_compression: use ``structured_compress_prompt`` instead of ``compress_prompt``.

    Raises:
        ImportError: ``llmlingua`` is not installed (``pip install "autogen-classic[long-context]"``).
    """

    def __init__(
        self,
        prompt_compressor_kwargs: dict = dict(  # noqa: B006 - the classic default, never mutated
            model_name="microsoft/llmlingua-2-bert-base-multilingual-cased-meetingbank",
            use_llmlingua2=True,
            device_map="cpu",
        ),
        structured_compression: bool = False,
    ) -> None:
        try:
            from llmlingua import PromptCompressor
        except ImportError as e:
            raise ImportError(
                "Module 'llmlingua' needed for LLMLingua is missing, please install it using "
                f"'pip install \"autogen-classic[{LONG_CONTEXT_EXTRA}]\"' (or pass your own text_compressor, "
                "any object with compress_text(text, **params) -> {'compressed_prompt': ...})."
            ) from e
        self._prompt_compressor = PromptCompressor(**dict(prompt_compressor_kwargs))
        self._compression_method = (
            self._prompt_compressor.structured_compress_prompt
            if structured_compression
            else self._prompt_compressor.compress_prompt
        )

    def compress_text(self, text: str, **compression_params: Any) -> dict[str, Any]:
        """Compress ``text``; the result has ``compressed_prompt``, ``origin_tokens`` and ``compressed_tokens``."""
        return self._compression_method([text], **compression_params)  # type: ignore[no-any-return]
