"""Functions and tools for models: schemas from type hints, injected parameters, execution and replies.

Imports only the layers below (io, exception_utils, types, _pydantic); an agent is known by a protocol.
"""

from .dependency_injection import BaseContext, ChatContext, Depends
from .execution import (
    a_execute_function,
    a_function_call_reply,
    a_tool_calls_reply,
    execute_function,
    format_json_str,
    function_call_reply,
    is_async_callable,
    tool_calls_reply,
    validate_function_map,
    wrap_function,
)
from .function_utils import (
    get_function_schema,
    get_param_annotations,
    get_typed_return_annotation,
    get_typed_signature,
    load_basemodels_if_needed,
    serialize_to_str,
)
from .tool import Tool, tool
from .toolkit import Toolkit

__all__ = [
    "BaseContext",
    "ChatContext",
    "Depends",
    "Tool",
    "Toolkit",
    "a_execute_function",
    "a_function_call_reply",
    "a_tool_calls_reply",
    "execute_function",
    "format_json_str",
    "function_call_reply",
    "get_function_schema",
    "get_param_annotations",
    "get_typed_return_annotation",
    "get_typed_signature",
    "is_async_callable",
    "load_basemodels_if_needed",
    "serialize_to_str",
    "tool",
    "tool_calls_reply",
    "validate_function_map",
    "wrap_function",
]
