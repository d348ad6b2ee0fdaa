"""The protocol every response cache follows."""

from __future__ import annotations

from types import TracebackType
from typing import Any, Protocol, runtime_checkable

__all__ = ["AbstractCache"]


@runtime_checkable
class AbstractCache(Protocol):
    """A key-value store for model responses, usable as a context manager.

    ``OpenAIWrapper.create(cache=...)`` accepts any object with these methods.
    """

    def get(self, key: str, default: Any | None = None) -> Any | None:
        """Return the value stored under ``key``, or ``default`` when there is none."""
        ...

    def set(self, key: str, value: Any) -> None:
        """Store ``value`` under ``key``."""
        ...

    def close(self) -> None:
        """Release files or connections (the cache may be used again afterwards)."""
        ...

    def __enter__(self) -> Any: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None: ...


class ClosingContextManager:
    """``with store: ...`` closes the store on exit; shared by every cache class."""

    def close(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def __enter__(self) -> Any:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

