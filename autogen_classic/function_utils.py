"""The classic import path ``autogen.function_utils``; the code lives in ``autogen_classic.tools``."""

from .tools.function_utils import (
    get_default_values,
    get_function_schema,
    get_load_param_if_needed_function,
    get_missing_annotations,
    get_param_annotations,
    get_parameter_json_schema,
    get_parameters,
    get_required_params,
    get_typed_annotation,
    get_typed_return_annotation,
    get_typed_signature,
    load_basemodels_if_needed,
    logger,  # the same logger object, so patching ``function_utils.logger`` reaches the schema warnings
    serialize_to_str,
)

__all__ = [
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
    "serialize_to_str",
]
