"""Token usage and cost: the price table, usage summaries and their printed form."""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterable, Sequence
from typing import Any

from ..io.base import IOStream
from ..messages.client_messages import UsageSummaryMessage, mode_name, usage_summary_lines
from ..io.emit import send_to

__all__ = [
    "OAI_PRICE1K",
    "cost_for_tokens",
    "gather_usage_summary",
    "lookup_price",
    "normalize_price",
    "print_usage_summary",
    "update_usage_summary",
    "usage_summary_lines",
]

logger = logging.getLogger("autogen_classic.oai")

Price = tuple[float, float]

# USD per 1000 tokens as (prompt, completion); from the providers' public price pages.
# A single number means the same price for prompt and completion tokens.
OAI_PRICE1K: dict[str, float | Price] = {
    # reasoning models
    "o1": (0.015, 0.06),
    "o1-2024-12-17": (0.015, 0.06),
    "o1-preview": (0.015, 0.06),
    "o1-preview-2024-09-12": (0.015, 0.06),
    "o1-mini": (0.0011, 0.0044),
    "o1-mini-2024-09-12": (0.0011, 0.0044),
    "o3-mini": (0.0011, 0.0044),
    "o3-mini-2025-01-31": (0.0011, 0.0044),
    "o1-pro": (0.15, 0.6),
    "o1-pro-2025-03-19": (0.15, 0.6),
    "o3": (0.002, 0.008),
    "codex-mini-latest": (0.0015, 0.006),
    # gpt-5 family (the Responses API's models)
    "gpt-5": (0.00125, 0.01),
    "gpt-5-2025-08-07": (0.00125, 0.01),
    "gpt-5-chat-latest": (0.00125, 0.01),
    "gpt-5-codex": (0.00125, 0.01),
    "gpt-5-search-api": (0.00125, 0.01),
    "gpt-5-mini": (0.00025, 0.002),
    "gpt-5-mini-2025-08-07": (0.00025, 0.002),
    "gpt-5-nano": (0.00005, 0.0004),
    "gpt-5-nano-2025-08-07": (0.00005, 0.0004),
    "gpt-5-pro": (0.015, 0.12),
    "gpt-5.1": (0.00125, 0.01),
    "gpt-5.1-2025-11-13": (0.00125, 0.01),
    "gpt-5.1-chat-latest": (0.00125, 0.01),
    "gpt-5.1-codex": (0.00125, 0.01),
    "gpt-5.1-codex-max": (0.00125, 0.01),
    "gpt-5.1-codex-mini": (0.00025, 0.002),
    "gpt-5.2": (0.00175, 0.014),
    "gpt-5.2-chat-latest": (0.00175, 0.014),
    "gpt-5.2-codex": (0.00175, 0.014),
    "gpt-5.2-pro": (0.021, 0.168),
    # gpt-4.1
    "gpt-4.1": (0.002, 0.008),
    "gpt-4.1-mini": (0.0004, 0.0016),
    "gpt-4.1-nano": (0.0001, 0.0004),
    # gpt-4o
    "gpt-4o": (0.0025, 0.01),
    "gpt-4o-2024-05-13": (0.005, 0.015),
    "gpt-4o-2024-08-06": (0.0025, 0.01),
    "gpt-4o-2024-11-20": (0.0025, 0.01),
    "gpt-4o-mini": (0.00015, 0.0006),
    "gpt-4o-mini-2024-07-18": (0.00015, 0.0006),
    # gpt-4 turbo and gpt-4
    "gpt-4-turbo": (0.01, 0.03),
    "gpt-4-turbo-2024-04-09": (0.01, 0.03),
    "gpt-4-turbo-preview": (0.01, 0.03),
    "gpt-4-0125-preview": (0.01, 0.03),
    "gpt-4-1106-preview": (0.01, 0.03),
    "gpt-4-1106-vision-preview": (0.01, 0.03),
    "gpt-4": (0.03, 0.06),
    "gpt-4-0314": (0.03, 0.06),
    "gpt-4-0613": (0.03, 0.06),
    "gpt-4-32k": (0.06, 0.12),
    "gpt-4-32k-0314": (0.06, 0.12),
    "gpt-4-32k-0613": (0.06, 0.12),
    # gpt-3.5 turbo (Azure spells it gpt-35-turbo)
    "gpt-3.5-turbo": (0.0005, 0.0015),
    "gpt-3.5-turbo-0125": (0.0005, 0.0015),
    "gpt-3.5-turbo-1106": (0.001, 0.002),
    "gpt-3.5-turbo-0613": (0.0015, 0.002),
    "gpt-3.5-turbo-0301": (0.0015, 0.002),
    "gpt-3.5-turbo-16k-0613": (0.003, 0.004),
    "gpt-3.5-turbo-instruct": (0.0015, 0.002),
    "gpt-35-turbo": (0.0005, 0.0015),
    "gpt-35-turbo-0125": (0.0005, 0.0015),
    "gpt-35-turbo-1106": (0.001, 0.002),
    "gpt-35-turbo-0613": (0.0015, 0.002),
    "gpt-35-turbo-0301": (0.0015, 0.002),
    "gpt-35-turbo-16k": (0.003, 0.004),
    "gpt-35-turbo-16k-0613": (0.003, 0.004),
    "gpt-35-turbo-instruct": (0.0015, 0.002),
    # base models
    "davinci-002": 0.002,
    "babbage-002": 0.0004,
    # other OpenAI-compatible hosted models
    "deepseek-chat": (0.00027, 0.0011),
    "deepseek-reasoner": (0.00055, 0.00219),
}

_DATED = re.compile(r"^(?P<base>.+?)-(?:\d{4}-\d{2}-\d{2}|\d{4})$")
_warned_models: set[str] = set()
_warned_lock = threading.Lock()


def normalize_price(price: None | float | Sequence[float]) -> Price | None:
    """Turn a ``price`` setting (one number or [prompt, completion] per 1K tokens) into a pair."""
    if price is None:
        return None
    if isinstance(price, (int, float)) and not isinstance(price, bool):
        return (float(price), float(price))
    if isinstance(price, (list, tuple)) and len(price) == 2:
        return (float(price[0]), float(price[1]))
    raise ValueError("price must be [prompt_price_per_1k_tokens, completion_price_per_1k_tokens], e.g. [0.0025, 0.01]")


def lookup_price(model: str | None) -> Price | None:
    """Return the (prompt, completion) price per 1K tokens of a well-known model, or None.

    A dated snapshot that is not listed (``gpt-4o-2025-01-01``) is priced like its base model.
    """
    if not model or not isinstance(model, str):  # a response object of a fake client may carry anything here
        return None
    for candidate in (model, model.replace("gpt-35", "gpt-3.5")):
        if candidate in OAI_PRICE1K:
            return normalize_price(OAI_PRICE1K[candidate])  # type: ignore[arg-type]
    match = _DATED.match(model)
    if match and match.group("base") in OAI_PRICE1K:
        return normalize_price(OAI_PRICE1K[match.group("base")])  # type: ignore[arg-type]
    return None


def cost_for_tokens(
    model: str | None, prompt_tokens: int | None, completion_tokens: int | None, price: Price | None = None
) -> float:
    """Return the USD cost of a call.

    Args:
        model: the model that answered (used with the price table when ``price`` is None).
        prompt_tokens: tokens sent.
        completion_tokens: tokens generated.
        price: (prompt, completion) USD per 1K tokens; overrides the table.
    """
    if price is None:
        price = lookup_price(model)
    if price is None:
        name = model or "<unknown>"
        with _warned_lock:
            first = name not in _warned_models
            _warned_models.add(name)
        if first:  # once per model: a local model would otherwise warn on every call
            logger.warning(
                "Model %s is not found. The cost will be 0. In your config_list, add field "
                '{"price" : [prompt_price_per_1k, completion_token_price_per_1k]} for customized pricing.',
                name,
            )
        return 0.0
    return (price[0] * (prompt_tokens or 0) + price[1] * (completion_tokens or 0)) / 1000


_USAGE_KEYS = frozenset(("prompt_tokens", "completion_tokens", "total_tokens", "cost", "model"))


def update_usage_summary(summary: dict[str, Any] | None, usage: dict[str, Any] | None) -> dict[str, Any] | None:
    """Add one call's usage (``get_usage`` dict) to a summary and return the summary.

    The summary has the classic shape ``{"total_cost": float, "<model>": {"cost",
    "prompt_tokens", "completion_tokens", "total_tokens"}}``. A usage dict missing any of
    ``prompt_tokens, completion_tokens, total_tokens, cost, model`` is ignored.
    """
    if not usage or not _USAGE_KEYS <= usage.keys():
        return summary
    cost = usage["cost"] or 0
    summary = {"total_cost": 0} if summary is None else summary
    summary["total_cost"] += cost
    entry = summary.setdefault(
        usage["model"], {"cost": 0, "prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}
    )
    entry["cost"] += cost
    entry["prompt_tokens"] += usage["prompt_tokens"] or 0
    entry["completion_tokens"] += usage["completion_tokens"] or 0
    entry["total_tokens"] += usage["total_tokens"] or 0
    return summary


def print_usage_summary(
    actual: dict[str, Any] | None, total: dict[str, Any] | None, mode: str | Iterable[str] = ("actual", "total")
) -> None:
    """Print a usage summary through the default ``IOStream`` (see ``usage_summary_lines``)."""
    send_to(IOStream.get_default(), UsageSummaryMessage(
        actual_usage_summary=actual, total_usage_summary=total, mode=mode_name(mode)))


def _add_into(target: dict[str, Any], summary: dict[str, Any] | None) -> None:
    if not summary:
        return
    target["total_cost"] += summary.get("total_cost", 0)
    for model, data in summary.items():
        if model == "total_cost":
            continue
        if model not in target:
            target[model] = dict(data)  # a flat dict of numbers
            continue
        for key in ("cost", "prompt_tokens", "completion_tokens", "total_tokens"):
            target[model][key] = target[model].get(key, 0) + data.get(key, 0)


def gather_usage_summary(agents: Iterable[Any]) -> dict[str, dict[str, Any]]:
    """Sum the usage of the agents' model clients.

    Args:
        agents: agents (anything with a ``client`` attribute holding an ``OpenAIWrapper``, or None, and
            optionally a ``usage_clients`` iterable of more clients, e.g. a group chat manager's).

    Returns:
        ``{"usage_including_cached_inference": {...}, "usage_excluding_cached_inference": {...}}``,
        each ``{"total_cost": 0}`` when no agent made a call.
    """
    including: dict[str, Any] = {"total_cost": 0}
    excluding: dict[str, Any] = {"total_cost": 0}
    seen: set[int] = set()
    for agent in agents:
        # ``usage_clients``: further clients working for the agent (e.g. a group chat's speaker selection).
        clients = [getattr(agent, "client", None), *(getattr(agent, "usage_clients", None) or ())]
        for client in clients:
            if client is None or id(client) in seen:
                continue  # a client reached twice is counted once
            seen.add(id(client))
            _add_into(including, getattr(client, "total_usage_summary", None))
            _add_into(excluding, getattr(client, "actual_usage_summary", None))
    return {"usage_including_cached_inference": including, "usage_excluding_cached_inference": excluding}
