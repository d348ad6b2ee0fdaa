"""The classic ``autogen.doc_utils`` path: ``export_module``, the decorator classic modules mark public names with."""

from __future__ import annotations

from typing import Callable, TypeVar

__all__ = ["export_module"]

T = TypeVar("T")


def export_module(module: str) -> Callable[[T], T]:
    """Mark a public name as documented under ``module``; the object is returned unchanged.

    Args:
        module: the module path the name is documented at (e.g. ``"autogen"``).
    """

    def decorator(o: T) -> T:
        return o

    return decorator
