"""Checking and converting a tool's keyword arguments from its type hints, as classic AutoGen does.

Classic AutoGen builds one pydantic model per tool function (named after the function) and validates
the arguments of a call as that model's input: a missing argument reads back to the model as
``Field required [type=missing, input_value={...the arguments...}, input_type=dict]``. ``keyword_checked``
does the same; calls it cannot check that way (positional arguments, ``*args`` / ``**kwargs``, parameter
names pydantic refuses as fields) go through ``pydantic.validate_call``, or run unchecked.
"""

from __future__ import annotations

import inspect
import warnings
from typing import Any, Callable, Optional

from pydantic import BaseModel, ConfigDict, create_model, validate_call

from .signatures import get_typed_signature

__all__ = ["keyword_checked", "signature_checked"]

_PLAIN_KINDS = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


def _config(title: Optional[str]) -> ConfigDict:
    # protected_namespaces=(): a tool parameter named ``model_name`` is an ordinary argument here.
    config = ConfigDict(arbitrary_types_allowed=True, protected_namespaces=())
    if title:
        config["title"] = title
    return config


def signature_checked(func: Callable[..., Any], title: Optional[str] = None) -> Callable[..., Any]:
    """``func`` with its arguments checked and converted from its type hints by ``pydantic.validate_call``;
    errors are titled ``title`` (default: the function's name). Signatures pydantic refuses run unchecked."""
    title = title if title is not None else getattr(func, "__name__", None)
    try:
        return validate_call(func, config=_config(title))  # type: ignore[no-any-return]
    except Exception:  # noqa: BLE001 - e.g. exotic annotations: run the function as given
        return func


def _arguments_model(func: Callable[..., Any], title: str) -> Optional[type[BaseModel]]:
    """The model of ``func``'s parameters, or None when they cannot all be model fields."""
    try:
        params = list(get_typed_signature(func).parameters.values())
    except (TypeError, ValueError):
        return None
    if any(p.kind not in _PLAIN_KINDS or p.name.startswith("_") for p in params):
        return None
    fields: dict[str, Any] = {
        p.name: (
            Any if p.annotation is inspect.Parameter.empty else p.annotation,
            ... if p.default is inspect.Parameter.empty else p.default,
        )
        for p in params
    }
    try:
        with warnings.catch_warnings():  # a field named like a BaseModel attribute ("json") is fine here
            warnings.simplefilter("ignore")
            return create_model(title, __config__=_config(title), **fields)  # type: ignore[call-overload,no-any-return]
    except Exception:  # noqa: BLE001 - a name or annotation pydantic refuses: check the signature instead
        return None


def keyword_checked(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` with its arguments checked and converted from its type hints.

    The returned callable takes the call's arguments as keywords, plus ``__input__``: the mapping the
    arguments are validated from (the call's arguments as given, unknown ones included, so a validation
    error shows what the model sent). Only the arguments that were given are passed on, so ``func`` keeps
    its own defaults. Errors are ``pydantic.ValidationError`` titled with the function's name.
    """
    title = getattr(func, "__name__", None)
    fallback = signature_checked(func, title)
    model = _arguments_model(func, title) if title else None
    if model is None:

        def unchecked_input(*args: Any, __input__: Any = None, **kwargs: Any) -> Any:
            return fallback(*args, **kwargs)

        return unchecked_input
    names = list(model.model_fields)

    def checked(*args: Any, __input__: Optional[dict[str, Any]] = None, **kwargs: Any) -> Any:
        if args:
            return fallback(*args, **kwargs)
        data = kwargs if __input__ is None else {**__input__, **kwargs}
        validated = model.model_validate(data)
        given = validated.model_fields_set
        return func(**{name: validated.__dict__[name] for name in names if name in given})

    return checked
