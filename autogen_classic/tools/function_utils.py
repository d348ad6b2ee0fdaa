"""Describe Python functions to a model and adapt the values flowing in and out.

``get_function_schema`` turns a type-hinted function into the OpenAI tool schema
(``{"type": "function", "function": {"name", "description", "parameters"}}``).
Parameter descriptions come from ``Annotated[type, "description"]``; types are
rendered to JSON schema by pydantic, so ``Literal``, ``Optional``, containers and
``pydantic.BaseModel`` parameters all work.

``load_basemodels_if_needed`` converts JSON objects arriving for ``BaseModel``
parameters into model instances, and ``serialize_to_str`` turns whatever a tool
returns into the string content of a message.
"""

from __future__ import annotations

import copy
import functools
import inspect
import json
import logging
import types
from typing import Annotated, Any, Callable, Literal, Optional, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict
from pydantic import Field as _PydanticField
from pydantic.json_schema import JsonSchemaValue

from .._pydantic import model_dump, model_dump_json, type2schema
from ..import_utils import is_coroutine_callable  # noqa: F401 - importable here, as in classic AutoGen
from .signatures import Field as AG2Field  # noqa: F401 - the classic name of ``Field`` here
from .signatures import get_typed_annotation, get_typed_return_annotation, get_typed_signature

__all__ = [
    "Function",
    "Parameters",
    "ToolFunction",
    "get_default_values",
    "get_function_schema",
    "get_load_param_if_needed_function",
    "get_missing_annotations",
    "get_param_annotations",
    "get_parameter_json_schema",
    "get_parameters",
    "get_required_params",
    "get_typed_annotation",
    "get_typed_return_annotation",
    "get_typed_signature",
    "load_basemodels_if_needed",
    "model_dump",
    "model_dump_json",
    "serialize_to_str",
    "type2schema",
]

logger = logging.getLogger(__name__)

T = TypeVar("T")

# *args / **kwargs cannot be filled from a JSON object of named arguments.
_VARIADIC = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)


class Parameters(BaseModel):
    """The ``parameters`` object of a function schema (a JSON schema of type object).

    Shared model definitions, when parameters use nested pydantic models, are kept under an
    extra ``$defs`` key at this level, where the ``$ref``s of the properties resolve.
    """

    model_config = ConfigDict(extra="allow")

    type: Literal["object"] = "object"
    properties: dict[str, JsonSchemaValue]
    required: list[str]


class Function(BaseModel):
    """A function as the model sees it: description, name and parameters."""

    description: Annotated[str, _PydanticField(description="Description of the function")]
    name: Annotated[str, _PydanticField(description="Name of the function")]
    parameters: Annotated[Parameters, _PydanticField(description="Parameters of the function")]


class ToolFunction(BaseModel):
    """An entry of the ``tools`` request parameter: ``{"type": "function", "function": {...}}``."""

    type: Literal["function"] = "function"
    function: Annotated[Function, _PydanticField(description="Function under tool")]


def get_param_annotations(typed_signature: inspect.Signature) -> dict[str, Any]:
    """Map each annotated parameter name to its annotation.

    Args:
        typed_signature: a signature from ``get_typed_signature``.
    """
    return {
        name: param.annotation
        for name, param in typed_signature.parameters.items()
        if param.annotation is not inspect.Signature.empty
    }


def get_required_params(typed_signature: inspect.Signature) -> list[str]:
    """Names of the parameters without a default value, in signature order.

    Args:
        typed_signature: a signature from ``get_typed_signature``.
    """
    return [
        name
        for name, param in typed_signature.parameters.items()
        if param.default is inspect.Signature.empty and param.kind not in _VARIADIC
    ]


def get_default_values(typed_signature: inspect.Signature) -> dict[str, Any]:
    """Map each parameter that has a default value to that value.

    Args:
        typed_signature: a signature from ``get_typed_signature``.
    """
    return {
        name: param.default
        for name, param in typed_signature.parameters.items()
        if param.default is not inspect.Signature.empty
    }


def get_missing_annotations(typed_signature: inspect.Signature, required: list[str]) -> tuple[set[str], set[str]]:
    """Split the unannotated parameters into required ones and ones with a default.

    Args:
        typed_signature: a signature from ``get_typed_signature``.
        required: the required parameter names (see ``get_required_params``).

    Returns:
        ``(missing, unannotated_with_default)``: unannotated required parameters (an error
        for a tool) and unannotated parameters with a default (left out of the schema).
    """
    unannotated = {
        name
        for name, param in typed_signature.parameters.items()
        if param.annotation is inspect.Signature.empty and param.kind not in _VARIADIC
    }
    missing = unannotated & set(required)
    return missing, unannotated - missing


def _description_of(name: str, annotation: Any) -> str:
    """The description a parameter gets: the ``Annotated`` text, else its name."""
    if get_origin(annotation) is not Annotated:
        return name
    first = annotation.__metadata__[0]
    if isinstance(first, str):
        return first
    # Objects carrying a description (e.g. ``pydantic.Field(description=...)``) are accepted too.
    described = getattr(first, "description", None)
    if isinstance(described, str):
        return described
    if hasattr(first, "description"):
        return name
    # ag2 0.7.3's words first; then the way out.
    raise ValueError(
        f"Invalid {first} for parameter {name}, should be a DescriptionField, got {type(first)}: the first "
        f"Annotated metadata must be a description string, e.g. Annotated[int, \"what {name} is\"]."
    )


def get_parameter_json_schema(k: str, v: Any, default_values: dict[str, Any]) -> dict[str, Any]:
    """JSON schema of one parameter: its type's schema plus ``default`` and ``description``.

    Args:
        k: the parameter name.
        v: the parameter annotation (possibly ``Annotated[type, "description"]``).
        default_values: default values by parameter name (see ``get_default_values``).
    """
    description = _description_of(k, v)
    schema: dict[str, Any] = type2schema(v)
    if k in default_values:
        schema["default"] = default_values[k]
    schema["description"] = description
    return schema


_REF_PREFIX = "#/$defs/"


def _rename_refs(node: Any, renames: dict[str, str]) -> Any:
    """Rewrite ``#/$defs/<old>`` references to ``#/$defs/<new>`` throughout a schema."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith(_REF_PREFIX):
                out[key] = _REF_PREFIX + renames.get(value[len(_REF_PREFIX):], value[len(_REF_PREFIX):])
            else:
                out[key] = _rename_refs(value, renames)
        return out
    if isinstance(node, list):
        return [_rename_refs(item, renames) for item in node]
    return node


def _hoist_defs(properties: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Move each property's local ``$defs`` to one shared ``$defs`` at the root of ``parameters``.

    pydantic renders a model-typed parameter with its nested models under a ``$defs`` inside the
    property, while the ``$ref``s point at ``#/$defs/...`` of the document root, so no resolver finds
    them there. Identical definitions are shared between parameters; a different model with the same
    name gets a numbered name and the references of its parameter are rewritten.
    """
    shared: dict[str, Any] = {}
    for name, schema in list(properties.items()):
        local = schema.get("$defs")
        if not isinstance(local, dict) or not local:
            continue
        renames: dict[str, str] = {}
        for def_name, definition in local.items():
            target, number = def_name, 2
            while target in shared and shared[target] != definition:
                target, number = f"{def_name}_{number}", number + 1
            if target != def_name:
                renames[def_name] = target
        body = {k: v for k, v in schema.items() if k != "$defs"}
        if renames:
            body = _rename_refs(body, renames)
            local = _rename_refs(local, renames)
        for def_name, definition in local.items():
            shared.setdefault(renames.get(def_name, def_name), definition)
        properties[name] = body
    return shared


def get_parameters(
    required: list[str], param_annotations: dict[str, Any], default_values: dict[str, Any]
) -> Parameters:
    """The ``parameters`` object of a function schema.

    Model definitions used by model-typed parameters are collected in a ``$defs`` at the root of
    the returned object, so every ``$ref`` in it resolves.

    Args:
        required: the required parameter names.
        param_annotations: annotations by parameter name (see ``get_param_annotations``).
        default_values: default values by parameter name.
    """
    properties = {
        k: get_parameter_json_schema(k, v, default_values)
        for k, v in param_annotations.items()
        if v is not inspect.Signature.empty
    }
    defs = _hoist_defs(properties)
    extra = {"$defs": copy.deepcopy(defs)} if defs else {}
    return Parameters(properties=properties, required=list(required), **extra)


def get_function_schema(f: Callable[..., Any], *, name: Optional[str] = None, description: str) -> dict[str, Any]:
    """Build the OpenAI tool schema of a type-hinted function.

    Args:
        f: the function to describe. Every parameter without a default must be annotated;
            use ``Annotated[type, "description"]`` to describe a parameter to the model.
        name: the function name shown to the model (default: ``f.__name__``).
        description: what the function does, shown to the model.

    Returns:
        ``{"type": "function", "function": {"description", "name", "parameters"}}`` where
        ``parameters`` is ``{"type": "object", "properties": {...}, "required": [...]}``, plus a
        ``"$defs"`` with the definitions of nested pydantic models when parameters use them.

    Raises:
        TypeError: if a parameter without a default is not annotated, or ``description`` is not a string.
        ValueError: if an ``Annotated`` parameter's first metadata is not a description.

    Example:
        >>> def f(a: Annotated[str, "Parameter a"], b: int = 2) -> str: ...
        >>> get_function_schema(f, description="function f")["function"]["parameters"]
        {'type': 'object', 'properties': {'a': {'type': 'string', 'description': 'Parameter a'},
         'b': {'type': 'integer', 'default': 2, 'description': 'b'}}, 'required': ['a']}
    """
    if not isinstance(description, str):
        raise TypeError(f"description must be a str describing the function, got {type(description).__name__}.")
    fname = name if name else getattr(f, "__name__", None)
    if not fname:
        raise TypeError(f"name must be given for a callable without __name__ (got {f!r}).")

    typed_signature = get_typed_signature(f)
    required = get_required_params(typed_signature)
    default_values = get_default_values(typed_signature)
    param_annotations = {
        k: v for k, v in get_param_annotations(typed_signature).items()
        if typed_signature.parameters[k].kind not in _VARIADIC
    }
    missing, unannotated_with_default = get_missing_annotations(typed_signature, required)

    if inspect.signature(f).return_annotation is inspect.Signature.empty:
        logger.warning(
            f"The return type of the function '{fname}' is not annotated. Although annotating it is "
            "optional, the function should return either a string, a subclass of 'pydantic.BaseModel'."
        )
    if unannotated_with_default:
        listed = ", ".join(f"'{k}'" for k in sorted(unannotated_with_default))
        logger.warning(
            f"The following parameters of the function '{fname}' with default values are not annotated: {listed}."
        )
    if missing:
        listed = ", ".join(f"'{k}'" for k in sorted(missing))
        raise TypeError(
            f"All parameters of the function '{fname}' without default values must be annotated. "
            f"The annotations are missing for the following parameters: {listed}"
        )

    parameters = get_parameters(required, param_annotations, default_values)
    return model_dump(ToolFunction(function=Function(description=description, name=fname, parameters=parameters)))


def _basemodel_in(annotation: Any) -> Optional[type[BaseModel]]:
    """The BaseModel class a parameter expects: ``Model``, ``Annotated[Model, ...]`` or ``Optional[Model]``."""
    if get_origin(annotation) is Annotated:
        return _basemodel_in(get_args(annotation)[0])
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if get_origin(annotation) in (Union, types.UnionType):
        models = [m for m in (_basemodel_in(a) for a in get_args(annotation)) if m is not None]
        return models[0] if len(models) == 1 else None
    return None


def get_load_param_if_needed_function(t: Any) -> Optional[Callable[[Any, Any], Any]]:
    """A loader ``(value, annotation) -> value`` for BaseModel annotations, else ``None``.

    Args:
        t: the parameter annotation.
    """
    model = _basemodel_in(t)
    if model is None:
        return None

    def load_base_model(v: Any, _t: Any) -> Any:
        # Only JSON objects are converted; instances and None pass through untouched.
        return model.model_validate(v) if isinstance(v, dict) else v

    return load_base_model


def load_basemodels_if_needed(func: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``func`` so keyword arguments given as dicts for BaseModel parameters become model instances.

    Args:
        func: the function whose parameters may be annotated with ``pydantic.BaseModel`` subclasses.

    Returns:
        A wrapper with the same name and docstring; async when ``func`` is async.
    """
    param_annotations = get_param_annotations(get_typed_signature(func))
    loaders = {
        k: loader for k, t in param_annotations.items() if (loader := get_load_param_if_needed_function(t)) is not None
    }

    def load(kwargs: dict[str, Any]) -> dict[str, Any]:
        for k, loader in loaders.items():
            if k in kwargs:
                kwargs[k] = loader(kwargs[k], param_annotations[k])
        return kwargs

    if inspect.iscoroutinefunction(func):

        @functools.wraps(func)
        async def _a_load_parameters_if_needed(*args: Any, **kwargs: Any) -> Any:
            return await func(*args, **load(kwargs))

        return _a_load_parameters_if_needed

    @functools.wraps(func)
    def _load_parameters_if_needed(*args: Any, **kwargs: Any) -> Any:
        return func(*args, **load(kwargs))

    return _load_parameters_if_needed


def serialize_to_str(x: Any) -> str:
    """The message content for a tool's return value.

    Strings are returned unchanged, pydantic models as their JSON, anything else as
    ``json.dumps(x, ensure_ascii=False)``; values JSON cannot encode fall back to ``str(x)``.

    Args:
        x: the value a tool returned.
    """
    if isinstance(x, str):
        return x
    if isinstance(x, BaseModel):
        return x.model_dump_json()
    try:
        return json.dumps(x, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(x)
