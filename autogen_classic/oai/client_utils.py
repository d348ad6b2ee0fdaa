"""Helpers shared by model clients: structured-output formatters, parameter checks, hiding used tools."""

from __future__ import annotations

import logging
import warnings
from typing import Any, Protocol, runtime_checkable

__all__ = ["FormatterProtocol", "logging_formatter", "merge_config_with_tools", "should_hide_tools", "validate_parameter"]

HIDE_TOOLS_VALUES = ("if_all_run", "if_any_run", "never")


@runtime_checkable
class FormatterProtocol(Protocol):
    """A structured-output class (e.g. a pydantic model used as ``response_format``) that can
    render itself as text through ``format()``; replies parsed into it are shown that way."""

    def format(self) -> str: ...


def _type_names(allowed_types: Any) -> str:
    if isinstance(allowed_types, tuple):
        return "(" + ", ".join(t.__name__ for t in allowed_types) + ")"
    return str(allowed_types.__name__)


def validate_parameter(
    params: dict[str, Any],
    param_name: str,
    allowed_types: tuple,
    allow_None: bool,  # noqa: N803 - classic parameter name
    default_value: Any,
    numerical_bound: tuple,
    allowed_values: list,
) -> Any:
    """Return ``params[param_name]`` when it is valid, else ``default_value`` (with a ``UserWarning``).

    Args:
        params: the request parameters.
        param_name: the parameter to read.
        allowed_types: the accepted type, or a tuple of types.
        allow_None: whether None is an accepted value.
        default_value: the value used when the parameter is missing or invalid.
        numerical_bound: ``(lower, upper)`` inclusive bounds (either may be None), or None/empty for no bound.
        allowed_values: the accepted values, or None for any.

    Returns:
        The parameter's value, or ``default_value``.

    Raises:
        TypeError: ``allowed_values`` is neither a list nor None.
    """
    if allowed_values is not None and not isinstance(allowed_values, list):
        raise TypeError(f"allowed_values should be a list or None, got {type(allowed_values).__name__}")

    value = params.get(param_name, default_value)
    problem = ""
    if value is None:
        if not allow_None:
            problem = "cannot be None"
    elif not isinstance(value, allowed_types):
        problem = f"must be of type {_type_names(allowed_types)}{' or None' if allow_None else ''}"
    elif numerical_bound:
        lower, upper = numerical_bound
        if (lower is not None and value < lower) or (upper is not None and value > upper):
            problem = "has numerical bounds"
            if lower is not None:
                problem += f", >= {lower!s}"
            if upper is not None:
                if lower is not None:
                    problem += " and"
                problem += f" <= {upper!s}"
            if allow_None:
                problem += ", or can be None"
    elif allowed_values and value not in allowed_values:
        problem = f"must be one of these values [{allowed_values}]{', or can be None' if allow_None else ''}"

    if problem:
        message = f"Config error - {param_name} {problem}, defaulting to {default_value}."
        warnings.warn(message, UserWarning, stacklevel=2)
        value = default_value
    return value


def should_hide_tools(messages: list[dict[str, Any]], tools: list[dict[str, Any]], hide_tools_param: str) -> bool:
    """Whether to leave ``tools`` out of the next request because they have already been run.

    Args:
        messages: the chat messages so far.
        tools: the tool definitions (``{"type": "function", "function": {"name": ...}}``).
        hide_tools_param: "never" (keep the tools), "if_any_run" (hide once any tool result is in
            ``messages``) or "if_all_run" (hide once every tool has been called at least once).

    Raises:
        TypeError: ``hide_tools_param`` is not one of the three values.
    """
    if hide_tools_param == "never" or tools is None or len(tools) == 0:
        return False
    if hide_tools_param == "if_any_run":
        return any("tool_call_id" in message for message in messages)
    if hide_tools_param == "if_all_run":
        not_run = [tool["function"]["name"] for tool in tools]
        called: dict[str, str] = {}  # tool call id -> function name
        for message in messages:
            if "tool_calls" in message:
                for call in message["tool_calls"] or []:
                    called[call["id"]] = call["function"]["name"]
            elif "tool_call_id" in message:
                name = called.get(message["tool_call_id"])
                if name in not_run:
                    not_run.remove(name)
        return len(not_run) == 0
    raise TypeError(
        f"hide_tools_param is not a valid value ['if_all_run','if_any_run','never'], got '{hide_tools_param}'"
    )


# The log line layout of the classic clients.
logging_formatter = logging.Formatter(
    "[%(name)s: %(asctime)s] {%(lineno)d} %(levelname)s - %(message)s", "%m-%d %H:%M:%S"
)


def merge_config_with_tools(config: dict[str, Any], client_config: dict[str, Any]) -> dict[str, Any]:
    """``{**config, **client_config}`` with the ``tools`` of both kept (the call's first).

    The ``tools`` of both are combined when there are any, unless the merged configuration uses
    the legacy ``functions`` (a request may not carry both).

    Args:
        config: the settings of the call (``create(...)``'s keyword arguments).
        client_config: the settings of one ``config_list`` entry.
    """
    merged = {**config, **client_config}
    tools = list(config.get("tools") or []) + list(client_config.get("tools") or [])
    if tools and "functions" not in merged:
        merged["tools"] = tools
    return merged
