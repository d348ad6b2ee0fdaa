"""The ``LLMConfig`` of an enclosing ``with llm_config:`` block (the form of AG2 0.8 to 0.13, deprecated).

Agents built inside such a block without an ``llm_config`` take (a copy of) the innermost one.
Kept per thread and per asyncio task (a context variable), so parallel chats do not see each other's.
"""

from __future__ import annotations

import warnings
from contextvars import ContextVar
from typing import Any

__all__ = ["current", "pop", "push", "warn_deprecated"]

_STACK: ContextVar[tuple[Any, ...]] = ContextVar("autogen_classic_llm_config_stack", default=())


def push(config: Any) -> None:
    """Make ``config`` the current one (entering a ``with`` block)."""
    _STACK.set((*_STACK.get(), config))


def pop(config: Any) -> None:
    """Leave the ``with`` block of ``config``."""
    stack = _STACK.get()
    if stack and stack[-1] is config:
        _STACK.set(stack[:-1])
    else:  # blocks left out of order (a generator, a thread): drop the innermost entry of config
        index = max((i for i, c in enumerate(stack) if c is config), default=None)
        if index is not None:
            _STACK.set(stack[:index] + stack[index + 1 :])


def current() -> Any | None:
    """The innermost ``with``-block config, or None outside any block."""
    stack = _STACK.get()
    return stack[-1] if stack else None


def warn_deprecated(form: str, instead: str, stacklevel: int = 3) -> None:
    """A ``DeprecationWarning`` for a form AG2 0.14 removed, naming its replacement.

    Args:
        form: the deprecated form, e.g. "LLMConfig(config_list=[...])".
        instead: what to write instead.
        stacklevel: 3 points at the caller of the function that calls this one.
    """
    warnings.warn(
        f"{form} is deprecated (AG2 0.14 removed it) and still works here: {instead}.",
        DeprecationWarning,
        stacklevel=stacklevel,
    )
