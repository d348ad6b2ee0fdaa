"""Token counts of texts, chat messages and function lists, as the classic package counts them.

Texts are counted with the model's encoding (see :mod:`.openai_encodings`). Messages follow the OpenAI
chat framing: a fixed number of tokens per message, the tokens of every field (non-string values
as JSON), one more per ``name``, and 3 for the primer of the reply. Which framing, and which
encoding, a model gets follows the classic rules:

- the models of ``_OWN_FRAMING`` are counted as themselves, 3 tokens per message;
- ``gpt-3.5-turbo-0301``: 4 per message, and a ``name`` replaces the role (-1);
- other ``gpt-3.5-turbo`` models are counted as ``gpt-3.5-turbo-0613``;
- other ``gpt-4`` and ``gpt-5`` models, and Gemini, Claude, Mistral/Mixtral and DeepSeek models,
  as ``gpt-4-0613`` (``cl100k_base``, and no image prices);
- any other model as itself, 3 tokens per message (the classic package raises
  ``NotImplementedError`` for them).
"""

from __future__ import annotations

import json
from typing import Any, Union

from .openai_encodings import count_text, logger, truncate_text
from .images import image_part_tokens
from .limits import get_max_token_limit

__all__ = [
    "count_token",
    "num_tokens_from_functions",
    "percentile_used",
    "token_left",
    "truncate_to_tokens",
]

_DEFAULT_MODEL = "gpt-3.5-turbo-0613"

# Models counted as themselves with 3 tokens per message and 1 per name (the classic list).
_OWN_FRAMING = frozenset(
    {
        "gpt-3.5-turbo-0613", "gpt-3.5-turbo-16k-0613",
        "gpt-4-0314", "gpt-4-32k-0314", "gpt-4-0613", "gpt-4-32k-0613", "gpt-4-turbo-preview", "gpt-4-vision-preview",
        "gpt-4o", "gpt-4o-2024-05-13", "gpt-4o-2024-08-06", "gpt-4o-2024-11-20",
        "gpt-4o-mini", "gpt-4o-mini-2024-07-18",
        "gpt-4.1", "gpt-4.1-2025-04-14", "gpt-4.1-mini", "gpt-4.1-mini-2025-04-14",
        "gpt-4.1-nano", "gpt-4.1-nano-2025-04-14",
        "o1", "o1-2024-12-17", "o1-mini", "o1-mini-2024-09-12", "o1-preview", "o1-preview-2024-09-12",
        "o1-pro", "o1-pro-2025-03-19", "o3", "o3-mini", "o3-mini-2025-01-31", "o4-mini", "o4-mini-2025-04-16",
    }
)
# Substrings of model names counted as gpt-4-0613.
_AS_GPT4 = ("gpt-4", "gpt-5", "gemini", "claude", "mistral-", "mixtral-", "deepseek")


def _framing(model: str) -> tuple[str, int, int]:
    """(the model counted, tokens per message, tokens per name) for ``model``."""
    if model in _OWN_FRAMING:
        return model, 3, 1
    if model == "gpt-3.5-turbo-0301":
        return model, 4, -1  # <|start|>{role or name}\n{content}<|end|>\n
    if "gpt-3.5-turbo" in model:
        return "gpt-3.5-turbo-0613", 3, 1
    if any(part in model for part in _AS_GPT4):
        return "gpt-4-0613", 3, 1
    return model, 3, 1


def count_token(input: Union[str, list, dict], model: str = _DEFAULT_MODEL) -> int:
    """Count the tokens ``input`` uses with an OpenAI model.

    Args:
        input: a text (``str``), one message (``dict``) or a list of messages. Messages are
            counted in the OpenAI chat format (see the module docstring).
        model: the model name; it picks the encoding (``o200k_base`` for gpt-4o, gpt-4.1, gpt-5
            and the o-series, ``cl100k_base`` otherwise) and, for messages, the framing.

    Returns:
        The number of tokens: exact when the encodings are installed (they are dependencies of
        this package), else an offline estimate.

    Raises:
        ValueError: ``input`` is of another type.
    """
    if isinstance(input, str):
        return count_text(input, model)
    if isinstance(input, (list, dict)):
        return _num_token_from_messages(input, model)
    raise ValueError(f"input must be str, list or dict, but we got {type(input)}")


def _num_token_from_messages(messages: Union[list, dict], model: str = _DEFAULT_MODEL) -> int:
    """The tokens of one message or a list of messages (the classic private name, which classic tests import)."""
    if isinstance(messages, dict):
        messages = [messages]
    model, per_message, per_name = _framing(model)
    total = 0
    for message in messages:
        total += per_message
        if not isinstance(message, dict):
            total += count_text(str(message), model)
            continue
        for key, value in message.items():
            if value is None:
                continue
            if key == "content" and isinstance(value, list):
                total += _content_parts_tokens(value, model)
                continue
            if not isinstance(value, str):
                try:
                    value = json.dumps(value)
                except TypeError:
                    logger.warning(
                        "Field %r of a message is not JSON serialisable (%s); not counted.", key, type(value)
                    )
                    continue
            total += count_text(value, model)
            if key == "name":
                total += per_name
    return total + 3  # the reply is primed with <|start|>assistant<|message|>


def _content_parts_tokens(parts: list, model: str) -> int:
    """Text and image parts of a multimodal content; as classic, parts without a ``type`` count 0."""
    total = 0
    for part in parts:
        if not isinstance(part, dict) or "type" not in part:
            continue
        if part["type"] == "text" and isinstance(part.get("text"), str):
            total += count_text(part["text"], model)
        image_url = part.get("image_url")
        if isinstance(image_url, dict) and "url" in image_url:
            total += image_part_tokens(image_url, model)
    return total


def truncate_to_tokens(text: str, n_tokens: int, model: str = _DEFAULT_MODEL) -> str:
    """Return the text of the first ``n_tokens`` tokens of ``text`` for ``model``.

    Args:
        text: the text.
        n_tokens: how many tokens to keep; 0 or less gives "".
        model: the model whose encoding counts the tokens.
    """
    return truncate_text(text, n_tokens, model)


def token_left(input: Union[str, list, dict], model: str = _DEFAULT_MODEL) -> int:
    """Return how many tokens of ``model``'s context window are left after ``input``."""
    return get_max_token_limit(model) - count_token(input, model=model)


def percentile_used(input: Union[str, list, dict], model: str = _DEFAULT_MODEL) -> float:
    """Return the fraction of ``model``'s context window that ``input`` uses.

    As in the classic package, the tokens are counted for the default model (``gpt-3.5-turbo-0613``).
    """
    return count_token(input) / get_max_token_limit(model)


def _text_tokens(text: Any, model: str) -> int:
    return count_text(text if isinstance(text, str) else str(text), model)


def num_tokens_from_functions(functions: list[dict[str, Any]], model: str = _DEFAULT_MODEL) -> int:
    """Count the tokens a list of function definitions adds to a request.

    Follows the classic accounting of how OpenAI renders functions into the prompt: the name
    and description, each parameter's name, type, description and enum values, plus a fixed
    overhead per function and per list, with the texts counted in ``model``'s encoding.

    Args:
        functions: function schemas ``{"name", "description", "parameters": {"properties": ...}}``.
        model: the model name (picks the encoding).

    Raises:
        KeyError: a function has no ``name`` or ``description``, as in the classic package.
    """
    total = 0
    for function in functions:
        tokens = _text_tokens(function["name"], model) + _text_tokens(function["description"], model) - 2
        parameters = function.get("parameters")
        if parameters is not None and "properties" in parameters:
            properties = parameters["properties"]
            for name, spec in properties.items():
                tokens += _text_tokens(name, model)
                for field in spec:
                    if field == "type":
                        tokens += 2 + _text_tokens(spec["type"], model)
                    elif field == "description":
                        tokens += 2 + _text_tokens(spec["description"], model)
                    elif field == "enum":
                        tokens -= 3
                        for option in spec["enum"]:
                            tokens += 3 + _text_tokens(option, model)
                    else:
                        logger.warning("Not supported field %s", field)
            tokens += 11
            if len(properties) == 0:
                tokens -= 2
        total += tokens
    return total + 12
