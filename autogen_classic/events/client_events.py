"""The events of the model client (classic ``autogen.events.client_events``): usage and streamed text.

The usage table is printed here once (:func:`print_usage`), for ``UsageSummaryEvent`` and the classic
``UsageSummaryMessage``; :func:`usage_summary_lines` gives the same lines as text, for the command line.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Literal, Optional
from uuid import UUID

from pydantic import BaseModel

from .base_event import BaseEvent, resolve_print_callable, wrap_event

__all__ = ["UsageSummaryEvent"]

Mode = Literal["both", "total", "actual"]


class ModelUsageSummary(BaseModel):
    """One model's usage: tokens and cost."""

    model: str
    completion_tokens: int
    cost: float
    prompt_tokens: int
    total_tokens: int


class ActualUsageSummary(BaseModel):
    """Usage without cache hits."""

    usages: Optional[list[ModelUsageSummary]] = None
    total_cost: Optional[float] = None


class TotalUsageSummary(BaseModel):
    """Usage with cache hits."""

    usages: Optional[list[ModelUsageSummary]] = None
    total_cost: Optional[float] = None


def usages_of(summary: Optional[dict[str, Any]]) -> dict[str, Any]:
    """A usage summary dict (``{"total_cost": ..., model: {...}}``) as the fields of a usage model."""
    if summary is None:
        return {"usages": None, "total_cost": None}
    usages = [
        ModelUsageSummary(model=model, completion_tokens=data.get("completion_tokens", 0), cost=data.get("cost", 0),
                          prompt_tokens=data.get("prompt_tokens", 0), total_tokens=data.get("total_tokens", 0))
        for model, data in summary.items() if model != "total_cost" and isinstance(data, dict)
    ]
    return {"usages": usages, "total_cost": summary.get("total_cost")}


def summary_of(usage: Any) -> Optional[dict[str, Any]]:
    """A usage model back as a usage summary dict; None when it holds nothing."""
    if usage.usages is None and usage.total_cost is None:
        return None
    summary: dict[str, Any] = {"total_cost": usage.total_cost or 0}
    for entry in usage.usages or []:
        summary[entry.model] = {"cost": entry.cost, "prompt_tokens": entry.prompt_tokens,
                                "completion_tokens": entry.completion_tokens, "total_tokens": entry.total_tokens}
    return summary


def mode_name(mode: str | Iterable[str]) -> Mode:
    """``mode`` of ``print_usage_summary`` as one name ("actual", "total" or "both").

    Raises:
        ValueError: for anything but "actual", "total", "both" or a list of "actual"/"total".
    """
    error = f'Invalid mode: {mode!r}, choose from "actual", "total", ["actual", "total"]'
    if isinstance(mode, str):
        if mode not in ("actual", "total", "both"):
            raise ValueError(error)
        return mode  # type: ignore[return-value]
    chosen = list(mode)
    if not chosen or len(chosen) > 2 or any(m not in ("actual", "total") for m in chosen):
        raise ValueError(error)
    return "both" if set(chosen) == {"actual", "total"} else chosen[0]


def _summary_block(summary: Optional[dict[str, Any]], usage_type: str) -> list[str]:
    models = {k: v for k, v in (summary or {}).items() if k != "total_cost"}
    if not models:
        return ["No actual cost incurred (all completions are using cache)."]
    word = "including" if usage_type == "total" else "excluding"
    total = round(summary["total_cost"], 5)  # type: ignore[index]
    lines = [f"Usage summary {word} cached usage: ", f"Total cost: {total}"]
    for model, data in models.items():
        lines.append(
            f"* Model '{model}': cost: {round(data['cost'], 5)}, prompt_tokens: {data['prompt_tokens']}, "
            f"completion_tokens: {data['completion_tokens']}, total_tokens: {data['total_tokens']}"
        )
    return lines


def usage_summary_lines(
    actual: Optional[dict[str, Any]], total: Optional[dict[str, Any]], mode: str | Iterable[str] = ("actual", "total")
) -> list[str]:
    """Return the lines ``print_usage_summary`` prints.

    Args:
        actual: the summary excluding cache hits.
        total: the summary including cache hits.
        mode: "actual", "total", "both", or a list of "actual"/"total".
    """
    name = mode_name(mode)
    if total is None:
        return ['No usage summary. Please call "create" first.']
    rule = "-" * 100
    lines = [rule]
    if name == "both":
        lines += _summary_block(actual, "actual") + [""]
        if actual == total:
            lines.append(
                "All completions are non-cached: the total cost with cached completions is the same as actual cost."
            )
        else:
            lines += _summary_block(total, "total")
    else:
        lines += _summary_block(total if name == "total" else actual, name)
    return lines + [rule]


def print_usage(
    actual: ActualUsageSummary, total: TotalUsageSummary, mode: str, out: Callable[..., Any]
) -> None:
    """Print a usage event's table with ``out``, call by call as the classic ``print`` does (a bare ``out()``
    for the empty line). Shared by ``UsageSummaryEvent`` and the classic ``UsageSummaryMessage``."""
    if total.usages is None:
        out('No usage summary. Please call "create" first.', flush=True)
        return
    out("-" * 100, flush=True)
    if mode == "both":
        _print_usage_block(actual, "actual", out)
        out()
        if total.model_dump_json() != actual.model_dump_json():
            _print_usage_block(total, "total", out)
        else:
            out("All completions are non-cached: the total cost with cached completions is the same as actual cost.",
                flush=True)
    else:
        _print_usage_block(total if mode == "total" else actual, mode, out)
    out("-" * 100, flush=True)


def _print_usage_block(usage: Any, usage_type: str, out: Callable[..., Any]) -> None:
    if not usage.usages:
        out("No actual cost incurred (all completions are using cache).", flush=True)
        return
    out(f"Usage summary {'including' if usage_type == 'total' else 'excluding'} cached usage: ", flush=True)
    out(f"Total cost: {round(usage.total_cost, 5)}", flush=True)
    for entry in usage.usages:
        out(f"* Model '{entry.model}': cost: {round(entry.cost, 5)}, prompt_tokens: {entry.prompt_tokens}, "
            f"completion_tokens: {entry.completion_tokens}, total_tokens: {entry.total_tokens}", flush=True)


def usage_fields(
    actual_usage_summary: Optional[dict[str, Any]], total_usage_summary: Optional[dict[str, Any]], fields: dict
) -> dict[str, Any]:
    """The ``actual`` and ``total`` fields of a usage event, unless ``fields`` has them (read back)."""
    if "actual" not in fields:
        fields["actual"] = ActualUsageSummary(**usages_of(actual_usage_summary))
    if "total" not in fields:
        fields["total"] = TotalUsageSummary(**usages_of(total_usage_summary))
    return fields


def _change_usage_summary_format(
    actual_usage_summary: Optional[dict[str, Any]] = None, total_usage_summary: Optional[dict[str, Any]] = None
) -> dict[str, dict[str, Any]]:
    """The classic plain-dict form of two usage summaries, as the usage event's ``actual`` / ``total`` fields.

    Each summary (``{"total_cost": ..., "<model>": {"cost": ..., "prompt_tokens": ...}}``) becomes
    ``{"usages": [{..., "model": "<model>"}, ...], "total_cost": ...}``; a missing one becomes
    ``{"usages": None, "total_cost": None}``.
    """
    summary: dict[str, dict[str, Any]] = {}
    for usage_type, usage_summary in (("actual", actual_usage_summary), ("total", total_usage_summary)):
        if usage_summary is None:
            summary[usage_type] = {"usages": None, "total_cost": None}
            continue
        altered: dict[str, Any] = {"usages": []}
        for key, value in usage_summary.items():
            if isinstance(key, str) and isinstance(value, dict):
                altered["usages"].append({**value, "model": key})
            else:
                altered[key] = value
        summary[usage_type] = altered
    return summary


@wrap_event
class UsageSummaryEvent(BaseEvent):
    """A model client's usage summary, with and without cache hits."""

    actual: ActualUsageSummary
    total: TotalUsageSummary
    mode: Mode

    def __init__(
        self, *, uuid: Optional[UUID] = None, actual_usage_summary: Optional[dict[str, Any]] = None,
        total_usage_summary: Optional[dict[str, Any]] = None, mode: Mode = "both", **fields: Any,
    ) -> None:
        fields = usage_fields(actual_usage_summary, total_usage_summary, fields)
        super().__init__(uuid=uuid, mode=mode, **fields)

    def print(self, f: Optional[Callable[..., Any]] = None) -> None:
        """Print the usage table (as ``print_usage_summary`` shows it)."""
        print_usage(self.actual, self.total, self.mode, resolve_print_callable(f))


@wrap_event
class StreamEvent(BaseEvent):
    """A piece of a streamed model answer, printed as it arrives (in green)."""

    content: str

    def __init__(self, *, uuid: Optional[UUID] = None, content: str, **fields: Any) -> None:
        super().__init__(uuid=uuid, content=content, **fields)

    def print(self, f: Optional[Callable[..., Any]] = None) -> None:
        """Print the piece between the terminal's green and reset codes."""
        out = resolve_print_callable(f)
        out("\033[32m", end="")
        out(self.content, end="", flush=True)
        out("\033[0m\n")
