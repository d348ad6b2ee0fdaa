"""The events of the model client (classic ``autogen.messages.client_messages``): usage and streamed text."""

from __future__ import annotations

from typing import Any, Callable, Iterable, Literal, Optional
from uuid import UUID

from pydantic import BaseModel
from termcolor import colored

from .base_message import BaseMessage, wrap_message
from .console_text import printer

__all__ = ["UsageSummaryMessage"]

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


def _usages(summary: Optional[dict[str, Any]]) -> dict[str, Any]:
    if summary is None:
        return {"usages": None, "total_cost": None}
    usages = [
        ModelUsageSummary(model=model, completion_tokens=data.get("completion_tokens", 0), cost=data.get("cost", 0),
                          prompt_tokens=data.get("prompt_tokens", 0), total_tokens=data.get("total_tokens", 0))
        for model, data in summary.items() if model != "total_cost" and isinstance(data, dict)
    ]
    return {"usages": usages, "total_cost": summary.get("total_cost")}


def _as_summary(usage: Any) -> Optional[dict[str, Any]]:
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
    lines = [f"Usage summary {word} cached usage: ", f"Total cost: {round(summary['total_cost'], 5)}"]  # type: ignore[index]
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


@wrap_message
class UsageSummaryMessage(BaseMessage):
    """A model client's usage summary, with and without cache hits."""

    actual: ActualUsageSummary
    total: TotalUsageSummary
    mode: Mode

    def __init__(
        self, *, uuid: Optional[UUID] = None, actual_usage_summary: Optional[dict[str, Any]] = None,
        total_usage_summary: Optional[dict[str, Any]] = None, mode: Mode = "both", **fields: Any,
    ) -> None:
        if "actual" not in fields:
            fields["actual"] = ActualUsageSummary(**_usages(actual_usage_summary))
        if "total" not in fields:
            fields["total"] = TotalUsageSummary(**_usages(total_usage_summary))
        super().__init__(uuid=uuid, mode=mode_name(mode), **fields)

    def print(self, f: Optional[Callable[..., Any]] = None) -> None:
        out = printer(f)
        for line in usage_summary_lines(_as_summary(self.actual), _as_summary(self.total), self.mode):
            out(line, flush=True)


@wrap_message
class StreamMessage(BaseMessage):
    """A piece of a streamed model answer, printed as it arrives."""

    content: str

    def print(self, f: Optional[Callable[..., Any]] = None) -> None:
        out = printer(f)
        out(colored(self.content, "green"), end="", flush=True)
