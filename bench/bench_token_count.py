"""Benchmark of token counting: the exact OpenAI encodings against the offline estimate.

``count_token`` counts with OpenAI's encodings (``cl100k_base`` for gpt-3.5/gpt-4,
``o200k_base`` for gpt-4o and the o-series), run by tiktoken from files an installed package
ships; the offline estimate (``split_tokens``) is what it falls back to without them. Per text
it reports calls per second (short texts) or tokens per second (long texts: the exact
cl100k_base count of the text, divided by the time), and the estimate's error against the exact
count. Also: the one-time cost of loading each encoding (in a fresh process), the exact count of
a chat and of a function list, and two texts that are hard for BPE (one letter repeated, CJK).

No targets: the table says what exact counts cost.

Usage: ``python bench/bench_token_count.py [--quick]``
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Callable

from autogen_classic.token_count_utils import count_token, num_tokens_from_functions, split_tokens

PROSE = (
    "Autonomous agents talk to each other in turns. Each reply is appended to the history, and "
    "the history is sent back to the model on the next turn, so long chats cost more tokens. "
)
CODE = 'def fib(n: int) -> int:\n    """Return the n-th Fibonacci number."""\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n'
TEXTS: list[tuple[str, str]] = [
    ("short text (25 chars)", "Hello, how are you today?"),
    ("message (300 chars)", (PROSE * 2)[:300]),
    ("long text (100 kB prose+code)", ((PROSE + CODE) * 400)[:100_000]),
    ("'A' x 20,000", "A" * 20_000),
    ("CJK (20,000 chars)", "".join(chr(0x4E00 + (i * 7919) % 20000) for i in range(20_000))),
]
CHAT = [
    {"role": "system", "content": "You are a helpful AI assistant."},
    {"role": "user", "content": "Write a haiku about the sea."},
    {"role": "assistant", "content": "Waves fold into foam,\nsalt wind carries gull voices,\nthe tide keeps its time."},
    {"role": "user", "content": "Now one about the mountains.", "name": "alice"},
]
FUNCTIONS = [
    {
        "name": f"tool_{i}",
        "description": "Look something up on the web and summarise it.",
        "parameters": {"type": "object", "properties": {
            "query": {"type": "string", "description": "What to look for"},
            "lang": {"type": "string", "enum": ["en", "de", "fr"]},
        }},
    }
    for i in range(5)
]
ENGINES: list[tuple[str, Callable[[str], int]]] = [
    ("exact cl100k", lambda text: count_token(text, "gpt-4")),
    ("exact o200k", lambda text: count_token(text, "gpt-4o")),
    ("estimate", lambda text: len(split_tokens(text))),
]


def _rate(fn: Callable[[], object], seconds: float) -> float:
    """Calls per second of ``fn``, over at least ``seconds`` (and at least 3 calls)."""
    fn()  # warm: the encoding is loaded
    calls, start = 0, time.perf_counter()
    while calls < 3 or time.perf_counter() - start < seconds:
        fn()
        calls += 1
    return calls / (time.perf_counter() - start)


def load_times() -> dict[str, float]:
    """Seconds to load each encoding, each in a fresh interpreter (its first count)."""
    times = {}
    for encoding, model in (("cl100k_base", "gpt-4"), ("o200k_base", "gpt-4o")):
        code = (
            "import time; from autogen_classic.token_count_utils import count_token; "
            f"s = time.perf_counter(); count_token('x', {model!r}); print(time.perf_counter() - s)"
        )
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        times[encoding] = float(out.stdout.split()[-1])
    return times


def _fmt_rate(calls_per_s: float, tokens: int, long: bool) -> str:
    if long:
        return f"{calls_per_s * tokens / 1e6:7.2f} Mtok/s"
    return f"{calls_per_s / 1e3:7.1f} k/s"


def run(seconds: float) -> tuple[list[list[str]], list[list[str]], dict[str, float]]:
    """Measure; return the text table, the chat/function table and the load times."""
    rows = []
    for label, text in TEXTS:
        exact = count_token(text, "gpt-4")
        estimate = len(split_tokens(text))
        long = len(text) > 1000
        cells = [label, str(exact)]
        for _, engine in ENGINES:
            cells.append(_fmt_rate(_rate(lambda engine=engine: engine(text), seconds), exact, long))
        error = (estimate - exact) / exact * 100 if exact else 0.0
        rows.append(cells + [f"{error:+.0f}%"])
    other = [
        ["chat, 4 messages (gpt-4)", f"{count_token(CHAT, 'gpt-4')} tokens",
         f"{_rate(lambda: count_token(CHAT, 'gpt-4'), seconds) / 1e3:.1f} k/s"],
        ["chat, 4 messages (gpt-4o)", f"{count_token(CHAT, 'gpt-4o')} tokens",
         f"{_rate(lambda: count_token(CHAT, 'gpt-4o'), seconds) / 1e3:.1f} k/s"],
        ["5 functions (gpt-4o)", f"{num_tokens_from_functions(FUNCTIONS, 'gpt-4o')} tokens",
         f"{_rate(lambda: num_tokens_from_functions(FUNCTIONS, 'gpt-4o'), seconds) / 1e3:.1f} k/s"],
    ]
    return rows, other, load_times()


def _print_table(header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(header[i]), *(len(r[i]) for r in rows)) for i in range(len(header))]
    line = "  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(header, widths)))
    print(line)
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="0.2 s per measurement instead of 1 s")
    args = parser.parse_args(argv)
    rows, other, loads = run(0.2 if args.quick else 1.0)
    print("Token counting: calls per second (short texts) or tokens per second (long texts)")
    _print_table(["text", "tokens", *(name for name, _ in ENGINES), "estimate off by"], rows)
    print()
    _print_table(["exact count of", "count", "rate"], other)
    print()
    print("Loading an encoding (once per process, on its first count): "
          + ", ".join(f"{name} {seconds * 1000:.0f} ms" for name, seconds in loads.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
