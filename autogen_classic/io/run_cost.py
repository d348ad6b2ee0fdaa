"""The cost of a run (``Usage``, ``CostBreakdown``, ``Cost``; classic path ``autogen.io.run_response``).

``Cost`` is the typed form AG2 Classic 0.14 gives ``response.cost``; it also reads like the dict a
``ChatResult`` had (``cost["usage_including_cached_inference"]["total_cost"]``, ``sorted(cost)``,
``cost == {...}``), so ag2 0.7.3 code reading a run's cost keeps working.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from typing import Any, Optional

from pydantic import BaseModel, Field, PrivateAttr

__all__ = ["Cost", "CostBreakdown", "Usage"]


class Usage(BaseModel):
    """One model's usage: cost and tokens."""

    cost: float
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int


class CostBreakdown(BaseModel):
    """The total cost and each model's usage."""

    total_cost: float
    models: dict[str, Usage] = Field(default_factory=dict)

    @classmethod
    def from_raw(cls, data: dict[str, Any]) -> "CostBreakdown":
        """From a usage summary dict: ``{"total_cost": ..., "<model>": {"cost": ..., "prompt_tokens": ...}}``."""
        models = {name: Usage(**usage) for name, usage in data.items() if name != "total_cost"}
        return cls(total_cost=data.get("total_cost", 0.0), models=models)

    def as_raw(self) -> dict[str, Any]:
        """Back as a usage summary dict."""
        return {"total_cost": self.total_cost, **{name: usage.model_dump() for name, usage in self.models.items()}}


class Cost(BaseModel):
    """The cost of a run, with and without the answers the cache gave.

    Reads as the classic cost dict too: ``cost["usage_including_cached_inference"]`` is that summary dict.
    """

    usage_including_cached_inference: CostBreakdown
    usage_excluding_cached_inference: CostBreakdown
    _raw: Optional[dict[str, Any]] = PrivateAttr(default=None)

    @classmethod
    def from_raw(cls, data: dict[str, Any]) -> "Cost":
        """From the cost dict of a ``ChatResult`` (``usage_including_cached_inference`` and
        ``usage_excluding_cached_inference``, each a usage summary dict)."""
        cost = cls(
            usage_including_cached_inference=CostBreakdown.from_raw(data.get("usage_including_cached_inference", {})),
            usage_excluding_cached_inference=CostBreakdown.from_raw(data.get("usage_excluding_cached_inference", {})),
        )
        cost._raw = data
        return cost

    # ----------------------------------------------------------- the classic dict
    def _as_dict(self) -> dict[str, Any]:
        if self._raw is not None:
            return self._raw
        return {
            "usage_including_cached_inference": self.usage_including_cached_inference.as_raw(),
            "usage_excluding_cached_inference": self.usage_excluding_cached_inference.as_raw(),
        }

    def __getitem__(self, key: str) -> Any:
        return self._as_dict()[key]

    def get(self, key: str, default: Any = None) -> Any:
        """The classic dict's ``get``."""
        return self._as_dict().get(key, default)

    def keys(self) -> Any:
        """The classic dict's keys."""
        return self._as_dict().keys()

    def values(self) -> Any:
        """The classic dict's values."""
        return self._as_dict().values()

    def items(self) -> Any:
        """The classic dict's items."""
        return self._as_dict().items()

    def __contains__(self, key: object) -> bool:
        return key in self._as_dict()

    def __iter__(self) -> Iterator[str]:  # type: ignore[override]
        # As the classic dict iterates: its keys (``sorted(cost)``, ``dict(cost)``, ``for key in cost``).
        return iter(self._as_dict())

    def __len__(self) -> int:
        return len(self._as_dict())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, dict):
            return self._as_dict() == other
        return super().__eq__(other)

    __hash__ = None  # type: ignore[assignment]

    def __await__(self) -> Generator[Any, None, "Cost"]:
        # ``await response.cost`` (an async run's cost) gives the cost itself.
        return self
        yield  # pragma: no cover - makes this a generator
