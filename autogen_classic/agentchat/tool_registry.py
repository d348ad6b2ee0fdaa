"""Registering functions and tools on an agent: which the model may propose, which the agent executes."""

from __future__ import annotations

import re
import warnings
from typing import TYPE_CHECKING, Any, Callable, Literal, Optional, Union

from pydantic import ConfigDict, validate_call

from ..tools.tool import Tool

if TYPE_CHECKING:
    from .conversable_agent import ConversableAgent

__all__ = ["ToolRegistryMixin", "assert_valid_name", "register_function"]


def assert_valid_name(name: str) -> str:
    """Return ``name`` if a model endpoint accepts it as a function name; raise ValueError otherwise."""
    if not isinstance(name, str) or not re.match(r"^[a-zA-Z0-9_-]+$", name):
        raise ValueError(f"Invalid name: {name}. Only letters, numbers, '_' and '-' are allowed.")
    if len(name) > 64:
        raise ValueError(f"Invalid name: {name}. Name must be less than 64 characters.")
    return name


class ToolRegistryMixin:
    """The function and tool methods of ``ConversableAgent``."""

    llm_config: Any
    client: Any
    _function_map: dict[str, Callable[..., Any]]

    def _init_functions(self, function_map: Optional[dict[str, Callable[..., Any]]]) -> None:
        from ..tools.execution import validate_function_map

        if function_map is None:
            self._function_map = {}
            return
        validate_function_map(function_map)
        self._function_map = {assert_valid_name(name): func for name, func in function_map.items()}

    @property
    def function_map(self) -> dict[str, Callable[..., Any]]:
        """Function name -> callable this agent executes."""
        return self._function_map

    def can_execute_function(self, name: Union[list[str], str]) -> bool:
        """Whether this agent can execute the function(s) named."""
        names = name if isinstance(name, list) else [name]
        return all(n in self._function_map for n in names)

    def register_function(self, function_map: dict[str, Union[Callable[..., Any], None]]) -> None:
        """Add functions this agent executes; a value of None removes that function."""
        if not isinstance(function_map, dict):
            raise TypeError(f"function_map must be a dict of name -> callable or None; got {type(function_map).__name__}.")
        for name, func in function_map.items():
            assert_valid_name(name)
            if func is not None and not callable(func):
                raise TypeError(f"function_map[{name!r}] must be callable or None; got {type(func).__name__}.")
            if func is None and name not in self._function_map:
                warnings.warn(f"The function {name} to remove doesn't exist", UserWarning)
            if name in self._function_map and func is not None:
                warnings.warn(f"Function '{name}' is being overridden.", UserWarning)
        self._function_map.update(function_map)  # type: ignore[arg-type]
        self._function_map = {k: v for k, v in self._function_map.items() if v is not None}

    def _require_llm_config(self, what: str) -> dict[str, Any]:
        if not isinstance(self.llm_config, dict):
            raise AssertionError(f"To update a {what} signature, agent must have an llm_config")
        return self.llm_config

    def update_function_signature(self, func_sig: Union[str, dict[str, Any]], is_remove: Optional[bool]) -> None:
        """Add, replace or (``is_remove``) remove a legacy ``functions`` entry of the llm_config."""
        config = self._require_llm_config("function")
        if is_remove:
            if "functions" not in config:
                raise AssertionError(f"The agent config doesn't have function {func_sig}.")
            config["functions"] = [f for f in config["functions"] if f["name"] != func_sig]
        else:
            if not isinstance(func_sig, dict):
                raise ValueError(
                    f"The function signature must be of the type dict. Received function signature type {type(func_sig)}"
                )
            if "name" not in func_sig:
                raise ValueError(f"The function signature must have a 'name' key. Received: {func_sig}")
            assert_valid_name(func_sig["name"])
            existing = config.get("functions", [])
            if any(f.get("name") == func_sig["name"] for f in existing):
                warnings.warn(f"Function '{func_sig['name']}' is being overridden.", UserWarning)
            config["functions"] = [f for f in existing if f.get("name") != func_sig["name"]] + [func_sig]
        if not config["functions"]:
            del config["functions"]
        self.client = self._build_client()  # type: ignore[attr-defined]

    def update_tool_signature(self, tool_sig: Union[str, dict[str, Any]], is_remove: bool) -> None:
        """Add, replace or (``is_remove``) remove a ``tools`` entry of the llm_config."""
        config = self._require_llm_config("tool")
        if is_remove:
            if "tools" not in config:
                raise AssertionError(f"The agent config doesn't have tool {tool_sig}.")
            config["tools"] = [t for t in config["tools"] if t["function"]["name"] != tool_sig]
        else:
            if not isinstance(tool_sig, dict):
                raise ValueError(
                    f"The tool signature must be of the type dict. Received tool signature type {type(tool_sig)}"
                )
            name = tool_sig.get("function", {}).get("name")
            assert_valid_name(name)  # type: ignore[arg-type]
            existing = config.get("tools", [])
            if any(t.get("function", {}).get("name") == name for t in existing):
                warnings.warn(f"Function '{name}' is being overridden.", UserWarning)
            config["tools"] = [t for t in existing if t.get("function", {}).get("name") != name] + [tool_sig]
        if not config["tools"]:
            del config["tools"]
        self.client = self._build_client()  # type: ignore[attr-defined]

    def register_for_llm(
        self, *, name: Optional[str] = None, description: Optional[str] = None,
        api_style: Literal["function", "tool"] = "tool",
    ) -> Callable[[Union[Callable[..., Any], Tool]], Tool]:
        """Decorator: let this agent's model propose calls to the function (schema from its type hints).

        Args:
            name: the function name the model sees (default: the function's name).
            description: what the function does, for the model (default: from an earlier decorator or the docstring).
            api_style: "tool" (default) or the legacy "function".
        """
        if api_style not in ("tool", "function"):
            raise ValueError(f"Unsupported API style: {api_style}")

        def decorator(func_or_tool: Union[Callable[..., Any], Tool]) -> Tool:
            if not isinstance(self.llm_config, dict):
                raise RuntimeError("LLM config must be setup before registering a function for LLM.")
            registered = Tool(func_or_tool=func_or_tool, name=name, description=description)
            if api_style == "function":
                self.update_function_signature(registered.function_schema, is_remove=False)
            else:
                self.update_tool_signature(registered.tool_schema, is_remove=False)
            return registered

        return decorator

    def register_for_execution(self, name: Optional[str] = None) -> Callable[[Union[Callable[..., Any], Tool]], Tool]:
        """Decorator: let this agent execute calls to the function (arguments validated, result as text).

        Args:
            name: the function name calls use (default: the function's name).
        """

        def decorator(func_or_tool: Union[Callable[..., Any], Tool]) -> Tool:
            from ..tools.execution import wrap_function

            registered = Tool(func_or_tool=func_or_tool, name=name)
            wrapped = wrap_function(_validating(registered.func))
            wrapped._origin = registered.func  # type: ignore[attr-defined]
            self.register_function({registered.name: wrapped})
            return registered

        return decorator


def _validating(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` with its arguments checked and converted from the type hints (pydantic), as classic AutoGen
    does: a model's ``"2"`` for an ``int`` becomes ``2``, and wrong arguments give a validation error that
    goes back to the model as the call's result. Signatures pydantic cannot handle are left unchecked."""
    try:
        # Titled with the plain name, so errors read "... validation errors for add" as the model saw it.
        title = getattr(func, "__name__", None)
        return validate_call(func, config=ConfigDict(title=title) if title else None)  # type: ignore[no-any-return]
    except Exception:  # noqa: BLE001 - e.g. exotic annotations: run the function as given
        return func


def register_function(
    f: Callable[..., Any],
    *,
    caller: "ConversableAgent",
    executor: "ConversableAgent",
    name: Optional[str] = None,
    description: str,
) -> None:
    """Let ``caller``'s model propose calls to ``f`` and ``executor`` execute them.

    Args:
        f: the function.
        caller: the agent whose model proposes the calls (needs an llm_config).
        executor: the agent that executes them (typically a UserProxyAgent).
        name: the name the model sees (default: ``f.__name__``).
        description: what ``f`` does, for the model.
    """
    registered = caller.register_for_llm(name=name, description=description)(f)
    executor.register_for_execution(name=name)(registered)
