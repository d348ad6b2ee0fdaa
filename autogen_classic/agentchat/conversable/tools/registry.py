"""Registering functions and tools on an agent: which the model may propose, which the agent executes."""

from __future__ import annotations

import re
import warnings
from typing import TYPE_CHECKING, Any, Callable, Literal, Optional, Union

from ....exception_utils import InvalidArgumentError, InvalidStateError
from ....tools import execution
from ....tools.dependency_injection import ChatContext
from ....tools.tool import Tool

if TYPE_CHECKING:
    from ...conversable_agent import ConversableAgent

__all__ = ["ToolRegistryMixin", "assert_valid_name", "register_function"]

ApiStyle = Literal["function", "tool"]


def assert_valid_name(name: str) -> str:
    """Return ``name`` if a model endpoint accepts it as a function name; raise ValueError otherwise."""
    if not isinstance(name, str) or not re.match(r"^[a-zA-Z0-9_-]+$", name):
        raise ValueError(f"Invalid name: {name}. Only letters, numbers, '_' and '-' are allowed.")
    if len(name) > 64:
        raise ValueError(f"Invalid name: {name}. Name must be less than 64 characters.")
    return name


def _tool_for(func_or_tool: Union[Callable[..., Any], Tool], name: Optional[str], description: Optional[str]) -> Tool:
    """The tool to register: a ``Tool`` given without a new name or description is registered as it is,
    so that the agent's ``tools`` hold the very object the caller has (and can remove it again)."""
    if isinstance(func_or_tool, Tool) and not (name or description):
        return func_or_tool
    return Tool(func_or_tool=func_or_tool, name=name, description=description)


def _schema_name(kind: ApiStyle, schema: dict[str, Any]) -> Any:
    """The function name of a legacy ``functions`` schema (``kind`` "function") or of a ``tools`` one."""
    return schema.get("name") if kind == "function" else schema.get("function", {}).get("name")


def _update_schemas(
    config: dict[str, Any], kind: ApiStyle, sig: Union[str, dict[str, Any]], is_remove: bool, silent_override: bool
) -> None:
    """Add, replace or (``is_remove``) remove the schema ``sig`` in ``config["functions"]`` (``kind``
    "function") or ``config["tools"]`` (``kind`` "tool"); the key goes once it is empty."""
    key = f"{kind}s"
    if is_remove:
        if not config.get(key):
            raise InvalidArgumentError(
                f"The agent config doesn't have {kind} {sig}. ({kind}_sig names a {kind} to remove; "
                f"llm_config has no '{key}'.)"
            )
        if isinstance(sig, str):  # the name of the schema to remove
            config[key] = [s for s in config[key] if _schema_name(kind, s) != sig]
        else:  # the schema itself
            config[key] = [s for s in config[key] if s != sig]
    else:
        if not isinstance(sig, dict):
            raise ValueError(
                f"The {kind} signature must be of the type dict. Received {kind} signature type {type(sig)}"
            )
        name = _schema_name(kind, sig)
        assert_valid_name(name)
        existing = config.get(key, [])
        if not silent_override and any(_schema_name(kind, s) == name for s in existing):
            warnings.warn(f"Function '{name}' is being overridden.", UserWarning)
        config[key] = [s for s in existing if _schema_name(kind, s) != name] + [sig]
    if not config[key]:
        del config[key]


class ToolRegistryMixin:
    """The function and tool methods of ``ConversableAgent``."""

    llm_config: Any
    client: Any
    _function_map: dict[str, Callable[..., Any]]
    _tools: list[Tool]  # offered to the model through register_for_llm, in order
    _ui_tools: list[Tool]  # the current set_ui_tools

    def _init_functions(self, function_map: Optional[dict[str, Callable[..., Any]]]) -> None:
        self._tools = []
        self._ui_tools = []
        if function_map is None:
            self._function_map = {}
            return
        execution.validate_function_map(function_map)
        self._function_map = {assert_valid_name(name): func for name, func in function_map.items()}

    @property
    def function_map(self) -> dict[str, Callable[..., Any]]:
        """Function name -> callable this agent executes."""
        return self._function_map

    def can_execute_function(self, name: Union[list[str], str]) -> bool:
        """Whether this agent can execute the function(s) named."""
        names = name if isinstance(name, list) else [name]
        return all(n in self._function_map for n in names)

    @property
    def tools(self) -> list[Tool]:
        """The tools offered to this agent's model (``register_for_llm``, ``functions=``, ``set_ui_tools``).

        A copy: change the offer with ``register_for_llm`` and ``remove_tool_for_llm``.
        """
        return list(getattr(self, "_tools", ()))

    def register_function(
        self, function_map: dict[str, Union[Callable[..., Any], None]], silent_override: bool = False
    ) -> None:
        """Add functions this agent executes; a value of None removes that function.

        Args:
            function_map: function name -> callable (None: remove the function of that name).
            silent_override: do not warn when a function replaces one of the same name.
        """
        if not isinstance(function_map, dict):
            raise TypeError(f"function_map must be a dict of name -> callable or None; got {type(function_map).__name__}.")
        for name, func in function_map.items():
            assert_valid_name(name)
            if func is not None and not callable(func):
                raise TypeError(f"function_map[{name!r}] must be callable or None; got {type(func).__name__}.")
            if func is None and name not in self._function_map:
                warnings.warn(f"The function {name} to remove doesn't exist", UserWarning)
            if name in self._function_map and func is not None and not silent_override:
                warnings.warn(f"Function '{name}' is being overridden.", UserWarning)
        self._function_map.update(function_map)  # type: ignore[arg-type]
        self._function_map = {k: v for k, v in self._function_map.items() if v is not None}

    def _require_llm_config(self, what: str) -> dict[str, Any]:
        if not isinstance(self.llm_config, dict) or not self.llm_config:
            name = getattr(self, "name", "?")
            raise InvalidStateError(
                f"To update a {what} signature, agent must have an llm_config: agent '{name}' has "
                f"llm_config={self.llm_config!r}. Create it with llm_config={{'config_list': [...]}} so its model "
                "can be offered functions, or register the function for execution only (register_for_execution)."
            )
        return self.llm_config

    def update_function_signature(
        self, func_sig: Union[str, dict[str, Any]], is_remove: Optional[bool] = False, silent_override: bool = False
    ) -> None:
        """Add, replace or (``is_remove``) remove a legacy ``functions`` entry of the llm_config.

        Args:
            func_sig: the function schema to add, or (to remove) its name or the schema itself.
            is_remove: remove the entry instead of adding it.
            silent_override: do not warn when the schema replaces one of the same name.
        """
        config = self._require_llm_config("function")
        if not is_remove and isinstance(func_sig, dict) and "name" not in func_sig:
            raise ValueError(f"The function signature must have a 'name' key. Received: {func_sig}")
        _update_schemas(config, "function", func_sig, bool(is_remove), silent_override)
        self.client = self._build_client()  # type: ignore[attr-defined]

    def update_tool_signature(
        self, tool_sig: Union[str, dict[str, Any]], is_remove: bool, silent_override: bool = False
    ) -> None:
        """Add, replace or (``is_remove``) remove a ``tools`` entry of the llm_config.

        Args:
            tool_sig: the tool schema to add, or (to remove) its function name or the schema itself.
            is_remove: remove the entry instead of adding it.
            silent_override: do not warn when the schema replaces one of the same name.
        """
        config = self._require_llm_config("tool")
        _update_schemas(config, "tool", tool_sig, is_remove, silent_override)
        self.client = self._build_client()  # type: ignore[attr-defined]

    def register_for_llm(
        self, *, name: Optional[str] = None, description: Optional[str] = None,
        api_style: ApiStyle = "tool", silent_override: bool = False,
    ) -> Callable[[Union[Callable[..., Any], Tool]], Tool]:
        """Decorator: let this agent's model propose calls to the function (schema from its type hints).

        Injected parameters (``ChatContext``, ``Depends``) are left out of the schema. The tool is added to
        ``tools`` (once).

        Args:
            name: the function name the model sees (default: the function's name).
            description: what the function does, for the model (default: from an earlier decorator or the docstring).
            api_style: "tool" (default) or the legacy "function".
            silent_override: do not warn when the tool replaces one of the same name.

        Raises (when decorating):
            ValueError: ``api_style`` is neither "tool" nor "function".
            InvalidStateError: the agent has no llm_config.
        """

        def decorator(
            func_or_tool: Union[Callable[..., Any], Tool], name: Optional[str] = name,
            description: Optional[str] = description,
        ) -> Tool:
            registered = _tool_for(func_or_tool, name, description)
            self._register_for_llm(registered, api_style, silent_override=silent_override)
            if registered not in self._tools:
                self._tools.append(registered)
            return registered

        return decorator

    def _register_for_llm(
        self, tool: Tool, api_style: ApiStyle, is_remove: bool = False, silent_override: bool = False
    ) -> None:
        """Add (or remove) ``tool``'s schema in the llm_config, in the given API style."""
        if api_style == "function":
            self.update_function_signature(tool.function_schema, is_remove=is_remove, silent_override=silent_override)
        elif api_style == "tool":
            self.update_tool_signature(tool.tool_schema, is_remove=is_remove, silent_override=silent_override)
        else:
            raise ValueError(f"Unsupported API style: {api_style}")

    def remove_tool_for_llm(self, tool: Tool) -> None:
        """Stop offering ``tool`` (one of ``tools``) to this agent's model; the agent may still execute it.

        Raises:
            InvalidArgumentError: ``tool`` is not one of ``tools`` (a ``ValueError``, as in classic AutoGen).
        """
        if tool not in self._tools:
            offered = [t.name for t in self._tools]
            raise InvalidArgumentError(
                f"Tool {tool} not found in collection: agent '{getattr(self, 'name', '?')}' offers its model "
                f"{offered}. Pass the Tool object register_for_llm returned (see the agent's tools)."
            )
        config = self.llm_config if isinstance(self.llm_config, dict) else {}
        if any(t.get("function", {}).get("name") == tool.name for t in config.get("tools") or []):
            self._register_for_llm(tool, "tool", is_remove=True)
        if any(f.get("name") == tool.name for f in config.get("functions") or []):  # api_style="function"
            self._register_for_llm(tool, "function", is_remove=True)
        self._tools.remove(tool)

    def set_ui_tools(self, tools: list[Tool]) -> None:
        """Offer ``tools`` to the model and execute them, replacing the previous UI tools.

        UI tools return their result unchanged (not turned into text), for a user interface to render. The
        previous UI tools are withdrawn from the model and from the functions this agent executes.

        Args:
            tools: the ``Tool`` objects.
        """
        items = [tools] if isinstance(tools, Tool) else list(tools)
        for index, tool in enumerate(items):
            if not isinstance(tool, Tool):
                raise TypeError(
                    f"set_ui_tools takes Tool objects; tools[{index}] is {type(tool).__name__} {tool!r:.60}. "
                    "Wrap a function with autogen.tools.Tool(func_or_tool=...) first."
                )
        self._unset_previous_ui_tools()
        for tool in items:
            self._register_for_llm(tool, "tool", silent_override=True)
            if tool not in self._tools:
                self._tools.append(tool)
            self.register_for_execution(serialize=False, silent_override=True)(tool)
        self._ui_tools = items

    def unset_ui_tools(self, tools: list[Tool]) -> None:
        """Stop offering ``tools`` to the model (``remove_tool_for_llm`` for each); they stay executable."""
        for tool in tools:
            self.remove_tool_for_llm(tool)

    def _unset_previous_ui_tools(self) -> None:
        # Those already withdrawn with unset_ui_tools are skipped (classic AutoGen fails on them).
        for tool in self._ui_tools:
            if tool in self._tools:
                self.remove_tool_for_llm(tool)
            self._function_map.pop(tool.name, None)
        self._ui_tools = []

    def register_for_execution(
        self, name: Optional[str] = None, description: Optional[str] = None, *, serialize: bool = True,
        silent_override: bool = False,
    ) -> Callable[[Union[Callable[..., Any], Tool]], Tool]:
        """Decorator: let this agent execute calls to the function (arguments validated, result as text).

        A ``ChatContext`` parameter of the function receives this agent's chat context.

        Args:
            name: the function name calls use (default: the function's name).
            description: the description of the returned ``Tool`` (default: the function's docstring).
            serialize: turn the result into text (``serialize_to_str``); False keeps it as returned.
            silent_override: do not warn when the function replaces one of the same name.
        """

        def decorator(
            func_or_tool: Union[Callable[..., Any], Tool], name: Optional[str] = name,
            description: Optional[str] = description,
        ) -> Tool:
            registered = _tool_for(func_or_tool, name, description)
            chat_context = ChatContext(self)  # type: ignore[arg-type]
            context_params = {param: chat_context for param in registered._chat_context_param_names}
            wrapped = self._wrap_function(registered.func, context_params, serialize=serialize)
            self.register_function({registered.name: wrapped}, silent_override=silent_override)
            return registered

        return decorator

    def _wrap_function(
        self, func: Callable[..., Any], inject_params: Optional[dict[str, Any]] = None, *, serialize: bool = True
    ) -> Callable[..., Any]:
        """``func`` taking JSON-shaped arguments and returning message text (``serialize``), with ``inject_params``."""
        return execution.wrap_function(func, inject_params, source=self, serialize=serialize)

    @staticmethod
    def _format_json_str(jstr: str) -> str:
        """Repair the JSON argument strings models produce (see ``tools.format_json_str``)."""
        return execution.format_json_str(jstr)

    def execute_function(
        self, func_call: dict[str, Any], call_id: Optional[str] = None, verbose: bool = False
    ) -> tuple[bool, dict[str, Any]]:
        """Execute one function or tool call with this agent's functions.

        Override it to change how function and tool calls are executed: the built-in replies call it.

        Args:
            func_call: the ``function_call`` of a message, or the ``function`` of a tool call: a dict
                with ``name`` and ``arguments`` (a JSON string).
            call_id: the tool call id, shown in the printed lines.
            verbose: also print the function's output.

        Returns:
            ``(is_exec_success, {"name", "role": "function", "content"})``. Failures are not raised: the
            content is ``"Error: Function <name> not found."``, ``"Error: <json error>\\n The argument must
            be in JSON format."`` or ``"Error: <exception>"``.
        """
        return execution.execute_function(
            self._function_map, func_call, call_id=call_id, verbose=verbose, agent_name=self.name
        )

    async def a_execute_function(
        self, func_call: dict[str, Any], call_id: Optional[str] = None, verbose: bool = False
    ) -> tuple[bool, dict[str, Any]]:
        """(async) ``execute_function``: async functions are awaited, sync ones called directly.

        Args:
            func_call: a dict with ``name`` and ``arguments`` (a JSON string).
            call_id: the tool call id, shown in the printed lines.
            verbose: also print the function's output.
        """
        return await execution.a_execute_function(
            self._function_map, func_call, call_id=call_id, verbose=verbose, agent_name=self.name
        )


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
