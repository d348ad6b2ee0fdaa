"""The classic ``token_count_utils``: token counts of texts, messages and functions for OpenAI models.

Counts are exact: texts are encoded with OpenAI's own encodings (``o200k_base``, ``cl100k_base``),
run by ``tiktoken`` from vocabulary files that an installed package ships, so nothing is
downloaded at run time. Without those packages the counts fall back to an offline estimate
(:func:`split_tokens`), with one logged warning.

The code lives in the modules of this package: ``counting`` (messages, functions, the classic
framing per model family), ``openai_encodings`` (loading the encodings, model -> encoding), ``limits``
(context windows), ``images`` (image parts) and ``estimate`` (the offline estimate).
"""

from __future__ import annotations

from .counting import (
    _num_token_from_messages,
    count_token,
    num_tokens_from_functions,
    percentile_used,
    token_left,
    truncate_to_tokens,
)
from .openai_encodings import exact_counts_available
from .estimate import split_tokens
from .images import num_tokens_from_gpt_image
from .limits import UnknownModelError, get_max_token_limit

__all__ = [
    "count_token",
    "exact_counts_available",
    "get_max_token_limit",
    "num_tokens_from_functions",
    "num_tokens_from_gpt_image",
    "percentile_used",
    "split_tokens",
    "token_left",
    "truncate_to_tokens",
    "UnknownModelError",
]
