"""Benchmark of tool calls on the embedded model: does it call the right tool, a wrong one, or answer in text?

A small labeled set (``CASES``): the front desk of an online shop gets one customer message and is
offered four tools, three hand-offs in the style of a swarm (``transfer_to_sales``,
``transfer_to_refunds``, ``transfer_to_triage``) and a plain function with an argument
(``get_order_status(order_id)``). Each case names the expected tool, or None when a text answer is
right (greetings and goodbyes). Every case is one request to a real embedded server at temperature 0
with a fixed seed.

Variants (``--variants``; all by default):

- ``tools``: the embedded server as started by default (chat format ``autogen-classic-tools``),
  ``tool_choice`` unset, which is what agents send;
- ``tools-required``: the same with ``tool_choice="required"`` (a tool must be called);
- ``tools-directive``: the same as ``tools`` with a more directive system message (route by topic,
  answer in text only greetings and goodbyes).

``bench/bench_embedded_model.py`` runs the ``tools`` variant beside the other measures of the embedded model.

Columns: ``right`` (the expected tool, or text when text is expected), ``wrong tool``, ``text``
(a text answer where a tool was expected), ``over-call`` (a tool where text was expected), ``args ok``
(calls whose arguments parse as a JSON object holding the required parameters), seconds per case and
errors; then the right answers per expected answer. ``always <tool>`` is what answering every case with
the most frequent tool would score.

Usage: ``python bench/bench_local_tools.py [--variants NAME ...] [--limit N] [--threads N] [--misses]``

The exit code is 0 whatever the scores; 2 when no server can be started.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import openai

from autogen_classic import local

SYSTEM = (
    "You are the front desk of an online shop. Hand each customer to the right agent with your transfer "
    "functions, or look up an order."
)
SYSTEM_DIRECTIVE = (
    "You are the front desk of an online shop. Never answer questions yourself: for every customer message, "
    "call the one function whose description matches its topic. Answer in text only greetings and goodbyes."
)


def _tool(name: str, description: str, parameters: dict[str, Any] | None = None) -> dict[str, Any]:
    schema = parameters or {"type": "object", "properties": {}}
    return {"type": "function", "function": {"name": name, "description": description, "parameters": schema}}


TOOLS = [
    _tool("transfer_to_sales",
          "Transfer the customer to the sales agent: buying, prices, plans, discounts, upgrades."),
    _tool("transfer_to_refunds",
          "Transfer the customer to the refunds agent: money back, returns, cancellations, wrong charges."),
    _tool("transfer_to_triage",
          "Transfer the customer to the triage agent: technical problems, accounts and anything else."),
    _tool(
        "get_order_status",
        "Look up where an order is: shipping and delivery of an order number.",
        {"type": "object", "properties": {"order_id": {"type": "string", "description": "the order number"}},
         "required": ["order_id"]},
    ),
]  # fmt: skip

CASES: list[tuple[str, str | None]] = [
    ("I'd like to buy the premium plan. How much is it?", "transfer_to_sales"),
    ("Do you have a discount for students?", "transfer_to_sales"),
    ("I want to upgrade my subscription to the family plan.", "transfer_to_sales"),
    ("What does the pro version cost per month?", "transfer_to_sales"),
    ("Can I get a quote for 50 licenses for my company?", "transfer_to_sales"),
    ("I'm interested in purchasing a gift card.", "transfer_to_sales"),
    ("I was charged twice for the same order, I want my money back.", "transfer_to_refunds"),
    ("The shoes don't fit, how do I return them for a refund?", "transfer_to_refunds"),
    ("Please cancel my order and refund me.", "transfer_to_refunds"),
    ("I got a damaged blender and I want a refund.", "transfer_to_refunds"),
    ("You billed me for a plan I never ordered. Refund it please.", "transfer_to_refunds"),
    ("My refund hasn't arrived yet, it's been two weeks.", "transfer_to_refunds"),
    ("Where is my order 48213?", "get_order_status"),
    ("Has order A-1009 shipped yet?", "get_order_status"),
    ("When will order 77120 be delivered?", "get_order_status"),
    ("Can you check the status of my order 5531?", "get_order_status"),
    ("Track order number 90017 for me.", "get_order_status"),
    ("The app crashes every time I log in.", "transfer_to_triage"),
    ("I forgot my password and can't get into my account.", "transfer_to_triage"),
    ("Your website shows an error 500 on the checkout page.", "transfer_to_triage"),
    ("I need to change the email address on my account.", "transfer_to_triage"),
    ("Thanks, that's all I needed. Bye!", None),
    ("Hello!", None),
    ("Thank you so much for your help.", None),
]

# name -> (server chat format, tool_choice, system message); None: the server's default format.
VARIANTS: dict[str, tuple[str | None, Any, str]] = {
    "tools": (None, None, SYSTEM),
    "tools-required": (None, "required", SYSTEM),
    "tools-directive": (None, None, SYSTEM_DIRECTIVE),
}
_N_CTX = 2048
# Bounds text answers; arguments fit (strings are capped at 200 characters by the default format).
_MAX_TOKENS = 256


@dataclass
class Outcome:
    """One case's answer: the tool called (None: text) and whether its arguments are usable."""

    message: str
    expected: str | None
    called: str | None = None
    arguments_ok: bool = False
    error: str = ""


@dataclass
class VariantResult:
    """The outcomes of one variant and the time it took."""

    name: str
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0

    def count(self) -> dict[str, int]:
        """The table's counts: right, wrong tool, text, over-call, calls, args ok, errors."""
        counts = Counter[str]()
        for o in self.outcomes:
            if o.error:
                counts["errors"] += 1
                continue
            if o.called is not None:
                counts["calls"] += 1
                counts["args ok"] += int(o.arguments_ok)
            if o.called == o.expected:
                counts["right"] += 1
            elif o.expected is None:
                counts["over-call"] += 1
            elif o.called is None:
                counts["text"] += 1
            else:
                counts["wrong tool"] += 1
        return dict(counts)


def arguments_ok(name: str, arguments: str) -> bool:
    """Whether ``arguments`` is a JSON object with the required parameters of tool ``name``."""
    try:
        value = json.loads(arguments)
    except (TypeError, ValueError):
        return False
    schema = next(t["function"]["parameters"] for t in TOOLS if t["function"]["name"] == name)
    return isinstance(value, dict) and all(key in value for key in schema.get("required", []))


def ask(client: openai.OpenAI, message: str, tool_choice: Any, system: str) -> tuple[str | None, bool]:
    """One request; returns the tool called (None: a text answer) and whether its arguments are usable."""
    extra: dict[str, Any] = {} if tool_choice is None else {"tool_choice": tool_choice}
    response = client.chat.completions.create(
        model=local.MODEL_NAME,
        messages=[{"role": "system", "content": system}, {"role": "user", "content": message}],
        tools=TOOLS,  # type: ignore[arg-type]
        temperature=0,
        seed=0,
        max_tokens=_MAX_TOKENS,
        **extra,
    )
    calls = response.choices[0].message.tool_calls or []
    if not calls:
        return None, False
    function = calls[0].function  # type: ignore[union-attr]
    return function.name, arguments_ok(function.name, function.arguments)


def run_variant(name: str, server: local.EmbeddedServer, cases: Sequence[tuple[str, str | None]]) -> VariantResult:
    """Ask every case of ``cases`` under variant ``name`` on ``server``."""
    _, tool_choice, system = VARIANTS[name]
    client = openai.OpenAI(base_url=server.base_url, api_key="not-needed", max_retries=0, timeout=600)
    result = VariantResult(name)
    start = time.perf_counter()
    for message, expected in cases:
        outcome = Outcome(message, expected)
        try:
            outcome.called, outcome.arguments_ok = ask(client, message, tool_choice, system)
        except openai.OpenAIError as err:
            outcome.error = f"{type(err).__name__}: {str(err)[:120]}"
        result.outcomes.append(outcome)
    result.seconds = time.perf_counter() - start
    return result


def table(results: Sequence[VariantResult]) -> str:
    """The results as a text table, one row per variant."""
    columns = ("right", "wrong tool", "text", "over-call", "args ok", "errors")
    header = f"{'variant':<16} {'cases':>5} " + " ".join(f"{c:>10}" for c in columns) + f" {'s/case':>7}"
    lines = [header, "-" * len(header)]
    for r in results:
        counts, n = r.count(), len(r.outcomes)
        cells = []
        for column in columns:
            value = counts.get(column, 0)
            if column == "right":
                cells.append(f"{value:>3} {100 * value / n:>5.1f}%")
            elif column == "args ok":
                cells.append(f"{value:>4}/{counts.get('calls', 0):<5}")
            else:
                cells.append(f"{value:>10}")
        lines.append(f"{r.name:<16} {n:>5} " + " ".join(cells) + f" {r.seconds / max(n, 1):>7.2f}")
    return "\n".join(lines)


def by_expected(results: Sequence[VariantResult]) -> str:
    """Right answers per expected answer (tool or text), one row per variant."""
    labels = list(dict.fromkeys(expected for _, expected in CASES))
    names = [label.removeprefix("transfer_to_") if label else "text" for label in labels]
    width = max(len(name) for name in names) + 1
    header = f"{'right per answer':<16} " + " ".join(f"{name:>{width}}" for name in names)
    lines = [header, "-" * len(header)]
    for r in results:
        cells = []
        for label in labels:
            mine = [o for o in r.outcomes if o.expected == label]
            right = sum(1 for o in mine if not o.error and o.called == label)
            cells.append(f"{f'{right}/{len(mine)}':>{width}}")
        lines.append(f"{r.name:<16} " + " ".join(cells))
    return "\n".join(lines)


def baseline(cases: Sequence[tuple[str, str | None]]) -> str:
    """What calling the most frequent expected tool every time would score."""
    tool, hits = Counter(expected for _, expected in cases if expected).most_common(1)[0]
    return f"always {tool}: {hits}/{len(cases)} ({100 * hits / len(cases):.1f}%)"


def spread(cases: Sequence[tuple[str, str | None]], limit: int | None) -> list[tuple[str, str | None]]:
    """``limit`` cases taken at even steps through ``cases`` (so every expected answer is represented)."""
    if limit is None or limit >= len(cases):
        return list(cases)
    if limit < 1:
        raise ValueError(f"--limit must be at least 1, got {limit}")
    return [cases[i * len(cases) // limit] for i in range(limit)]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the chosen variants and print the table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--variants", nargs="+", choices=list(VARIANTS), default=list(VARIANTS))
    parser.add_argument("--limit", type=int, default=None, help="only N cases, spread over the set")
    parser.add_argument("--threads", type=int, default=None, help="CPU threads of the servers (default: theirs)")
    parser.add_argument("--misses", action="store_true", help="list every case answered wrongly")
    args = parser.parse_args(argv)
    cases = spread(CASES, args.limit)
    results: list[VariantResult] = []
    formats = dict.fromkeys(VARIANTS[name][0] for name in args.variants)  # one server per format, in order
    for chat_format in formats:
        try:
            server = local.EmbeddedServer(n_ctx=_N_CTX, n_threads=args.threads, chat_format=chat_format).start()
        except (local.LocalModelUnavailableError, local.EmbeddedServerError, TimeoutError) as err:
            print(f"Error: {err}", file=sys.stderr)
            return 2
        try:
            for name in args.variants:
                if VARIANTS[name][0] == chat_format:
                    results.append(run_variant(name, server, cases))
                    print(f"  {name}: done in {results[-1].seconds:.0f} s", flush=True)
        finally:
            server.stop()
    results.sort(key=lambda r: args.variants.index(r.name))
    print(f"\n== tool calls on the embedded model ({len(cases)} cases, {len(TOOLS)} tools, temperature 0)")
    print(table(results))
    print()
    print(by_expected(results))
    print(f"\nbaseline: {baseline(cases)}")
    if args.misses:
        for r in results:
            for o in r.outcomes:
                if o.error or o.called != o.expected:
                    got = o.error or o.called or "text"
                    print(f"  {r.name}: {o.message!r}: expected {o.expected or 'text'}, got {got}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
