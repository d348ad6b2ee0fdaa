"""``deprecated_by`` (classic ``autogen.events.helpers``): an old event name that builds its new class."""

from __future__ import annotations

import functools
import logging
from typing import Any, Callable, Optional

from pydantic import BaseModel

__all__ = ["deprecated_by"]

logger = logging.getLogger(__name__)


def deprecated_by(
    new_class: type[BaseModel],
    param_mapping: Optional[dict[str, str]] = None,
    default_params: Optional[dict[str, Any]] = None,
) -> Callable[[type[BaseModel]], Callable[..., BaseModel]]:
    """A decorator that replaces an old class by a function building ``new_class`` (with a warning logged).

    Args:
        new_class: the class calls now build.
        param_mapping: old keyword -> new keyword (``{"sender_name": "sender"}``).
        default_params: keywords added when the call does not give them.
    """
    mapping = dict(param_mapping or {})
    defaults = dict(default_params or {})

    def decorator(old_class: type[BaseModel]) -> Callable[..., BaseModel]:
        @functools.wraps(old_class)
        def build(*args: Any, **kwargs: Any) -> BaseModel:
            logger.warning(
                f"{old_class.__name__} is deprecated by {new_class.__name__}. Please import it from "
                f"{new_class.__module__} and use it instead."
            )
            new_kwargs = {mapping.get(key, key): value for key, value in kwargs.items()}
            for key, value in defaults.items():
                new_kwargs.setdefault(key, value)
            return new_class(*args, **new_kwargs)

        return build

    return decorator
