"""Reading a function's parameters: string annotations resolved, ``Field`` descriptions.

Both the schema builder (:mod:`.function_utils`) and dependency injection
(:mod:`.dependency_injection`) read signatures through here, so neither imports the other.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, ForwardRef

__all__ = ["Field", "get_typed_annotation", "get_typed_return_annotation", "get_typed_signature"]


class Field:
    """A parameter description usable as ``Annotated`` metadata: ``Annotated[str, Field("the city")]``.

    Args:
        description: the description shown to the model.
    """

    def __init__(self, description: str) -> None:
        self._description = description

    @property
    def description(self) -> str:
        return self._description

    def __repr__(self) -> str:
        return f"Field(description={self._description!r})"


def _globals_of(call: Callable[..., Any]) -> dict[str, Any]:
    # Decorated functions keep the original's module globals on the innermost function.
    try:
        target = inspect.unwrap(call)
    except ValueError:
        target = call
    return getattr(target, "__globals__", None) or getattr(call, "__globals__", None) or {}


def get_typed_annotation(annotation: Any, globalns: dict[str, Any]) -> Any:
    """Resolve a string (forward reference) annotation in ``globalns``.

    Args:
        annotation: the annotation as written (a type or a string).
        globalns: the global namespace of the function the annotation belongs to.

    Returns:
        The evaluated annotation; an unresolvable string becomes a ``ForwardRef``.
    """
    if isinstance(annotation, Field):
        annotation = annotation.description
    # A quoted annotation under ``from __future__ import annotations`` is a string of a string.
    for _ in range(3):
        if not isinstance(annotation, str):
            return annotation
        try:
            annotation = eval(annotation, globalns)  # noqa: S307 - the evaluation typing.get_type_hints does
        except Exception:
            return ForwardRef(annotation)
    return ForwardRef(annotation) if isinstance(annotation, str) else annotation


def get_typed_signature(call: Callable[..., Any]) -> inspect.Signature:
    """Return the signature of ``call`` with string annotations of its parameters resolved.

    Args:
        call: the function to inspect.

    Returns:
        An ``inspect.Signature`` holding the parameters (the return annotation is left out).
    """
    signature = inspect.signature(call)
    globalns = _globals_of(call)
    params = [
        param.replace(annotation=get_typed_annotation(param.annotation, globalns))
        for param in signature.parameters.values()
    ]
    return inspect.Signature(params)


def get_typed_return_annotation(call: Callable[..., Any]) -> Any:
    """Return the resolved return annotation of ``call``, or ``None`` when it has none.

    Args:
        call: the function to inspect.
    """
    annotation = inspect.signature(call).return_annotation
    if annotation is inspect.Signature.empty:
        return None
    return get_typed_annotation(annotation, _globals_of(call))
