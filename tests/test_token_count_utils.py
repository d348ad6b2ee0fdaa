"""Token counting: the offline estimate's pieces and round trips, counts, model limits."""

from __future__ import annotations

import pytest

from autogen_classic.token_count_utils import (
    UnknownModelError,
    count_token,
    get_max_token_limit,
    percentile_used,
    split_tokens,
    token_left,
    truncate_to_tokens,
)


@pytest.mark.parametrize(
    ("text", "pieces"),
    [
        # These agree with the cl100k tokenizer piece for piece.
        ("hello world", ["hello", " world"]),
        ("The quick brown fox jumps over the lazy dog!!",
         ["The", " quick", " brown", " fox", " jumps", " over", " the", " lazy", " dog", "!!"]),
        ("12345678", ["123", "456", "78"]),
        ("def foo(x):\n    return x+1\n", ["def", " foo", "(x", "):\n", "   ", " return", " x", "+", "1", "\n"]),
        # Long words are split into chunks, as BPE splits rare words (the estimate's chunks; the exact
        # cl100k_base count of this word is 7, checked in test_token_count_exact.py).
        ("supercalifragilistic", ["supercali", "fragilist", "ic"]),
        ("", []),
    ],
)
def test_split_tokens(text: str, pieces: list[str]) -> None:
    assert split_tokens(text) == pieces
    if text != "supercalifragilistic":  # where the estimate's pieces are tiktoken's, the exact count agrees
        assert count_token(text) == len(pieces)


@pytest.mark.parametrize(
    "text",
    ["Grüße aus Köln", "  leading and trailing  \n\n", "a_b-c.d/e\\f", "tabs\tand\r\nnewlines", "日本語のテキスト"],
)
def test_split_tokens_round_trips(text: str) -> None:
    assert "".join(split_tokens(text)) == text


def test_truncate_to_tokens_keeps_a_prefix() -> None:
    assert truncate_to_tokens("one two three four", 2) == "one two"
    assert truncate_to_tokens("one two", 10) == "one two"
    assert truncate_to_tokens("one two", 0) == ""


def test_count_token_of_messages_follows_chat_framing() -> None:
    # 3 per message + role "user" (1) + content (2) + name "bob" (1) + 1 for the name, + 3 reply primer.
    assert count_token([{"role": "user", "content": "hello world", "name": "bob"}]) == 11
    assert count_token({"role": "user", "content": "hello world"}) == 9
    # gpt-3.5-turbo-0301 frames messages with 4 tokens and a name replaces the role.
    assert count_token([{"role": "user", "content": "hello world", "name": "bob"}], "gpt-3.5-turbo-0301") == 10
    # None fields are skipped; non-string fields are counted as JSON.
    assert count_token({"role": "assistant", "content": None}) == 3 + 1 + 3
    multimodal = {"role": "user", "content": [{"type": "text", "text": "hello world"},
                                              {"type": "image_url", "image_url": {"url": "x"}}]}
    # An image costs what the vision model bills for it; for a model without vision prices it counts 0, as classic.
    assert count_token(multimodal) == 3 + 1 + 2 + 3


def test_count_token_rejects_other_types() -> None:
    with pytest.raises(ValueError, match="input must be str, list or dict"):
        count_token(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text must be a str"):
        split_tokens(None)  # type: ignore[arg-type]


def test_get_max_token_limit_and_aliases() -> None:
    assert get_max_token_limit() == 4096
    assert get_max_token_limit("gpt-4o") == 128000
    assert get_max_token_limit("gpt-35-turbo-16k") == 16385
    assert get_max_token_limit("gpt4") == 8192
    assert token_left("hello world", "gpt-4") == 8190
    assert percentile_used("hello world", "gpt-4") == 2 / 8192


def test_unknown_model_is_key_error_and_value_error() -> None:
    with pytest.raises(KeyError):
        get_max_token_limit("my-local-model")
    expected = "model 'my-local-model' has no known token limit; known models: gpt-3.5-turbo"
    with pytest.raises(ValueError, match=expected):
        get_max_token_limit("my-local-model")
    assert issubclass(UnknownModelError, KeyError) and issubclass(UnknownModelError, ValueError)
