"""Old class names kept as deprecated aliases of their renamed classes."""

from __future__ import annotations

import warnings
from typing import Any

__all__ = ["renamed_class"]


class _RenamedClassMeta(type):
    """Metaclass of an alias: building one warns and builds the new class; isinstance/issubclass follow it."""

    _renamed_to: type

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        new = cls._renamed_to
        warnings.warn(
            f"{cls.__name__} has been renamed to {new.__name__}, the alias will be removed in the future",
            DeprecationWarning,
            stacklevel=2,
        )
        return new(*args, **kwargs)

    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, cls._renamed_to)

    def __subclasscheck__(cls, subclass: type) -> bool:
        return subclass is cls or issubclass(subclass, cls._renamed_to)


def renamed_class(old_name: str, new: type, module: str) -> type:
    """Return a class ``module.old_name`` that stands for ``new`` and warns (DeprecationWarning) when used."""
    namespace = {"_renamed_to": new, "__module__": module, "__doc__": f"{old_name} renamed to {new.__name__}"}
    return _RenamedClassMeta(old_name, (), namespace)
