"""``Tool``: a function with the name and description a model sees."""

from __future__ import annotations

import inspect
from typing import Any, Callable, Optional, Union

from .agent_protocol import ToolAgent
from .dependency_injection import ChatContext, get_context_params, inject_params
from .function_utils import get_function_schema

__all__ = ["Tool", "tool"]


class Tool:
    """A callable function plus the name and description under which a model may call it.

    Parameters that are injected (``ctx: ChatContext``, ``Annotated[T, Depends(...)]``) are left out
    of the schemas and filled in when the tool runs; the other arguments are checked and converted
    from the type hints.

    Args:
        name: the tool name (default: the function name).
        description: what the tool does, for the model (default: the function's docstring).
        func_or_tool: the function, or another ``Tool`` to copy name/description/function from.
        parameters_json_schema: the JSON schema of the parameters as the model should see it; None
            (default): built from the function's type hints.
    """

    def __init__(
        self,
        *,
        name: Optional[str] = None,
        description: Optional[str] = None,
        func_or_tool: Union["Tool", Callable[..., Any]],
        parameters_json_schema: Optional[dict[str, Any]] = None,
    ) -> None:
        if isinstance(func_or_tool, Tool):
            self._name: str = name or func_or_tool.name
            self._description: str = description or func_or_tool.description
            self._func: Callable[..., Any] = func_or_tool.func
            self._chat_context_param_names: list[str] = list(func_or_tool._chat_context_param_names)
        elif inspect.isfunction(func_or_tool) or inspect.ismethod(func_or_tool) or inspect.isbuiltin(func_or_tool):
            try:
                self._chat_context_param_names = get_context_params(func_or_tool, subclass=ChatContext)
            except (TypeError, ValueError):  # builtins without a readable signature
                self._chat_context_param_names = []
            self._func = inject_params(func_or_tool)
            self._name = name or func_or_tool.__name__
            self._description = description or func_or_tool.__doc__ or ""
        else:
            raise ValueError(
                f"Parameter 'func_or_tool' must be a function, method or a Tool instance, it is "
                f"'{type(func_or_tool)}' instead."
            )
        if parameters_json_schema is not None and not isinstance(parameters_json_schema, dict):
            raise TypeError(
                f"parameters_json_schema must be a JSON schema as a dict (or None to build it from the type hints); "
                f"got {type(parameters_json_schema).__name__} {parameters_json_schema!r:.60}."
            )
        self._parameters_json_schema = parameters_json_schema or None

    @property
    def name(self) -> str:
        """The name the model calls the tool by."""
        return self._name

    @property
    def description(self) -> str:
        """What the tool does, as the model reads it."""
        return self._description

    @property
    def func(self) -> Callable[..., Any]:
        """The callable run for the tool (injected parameters resolved, arguments converted)."""
        return self._func

    @property
    def tool_schema(self) -> dict[str, Any]:
        """The schema for the ``tools`` request parameter (with ``parameters_json_schema`` when one was given)."""
        if self._parameters_json_schema is not None:
            return {
                "type": "function",
                "function": {"name": self._name, "description": self._description,
                             "parameters": self._parameters_json_schema},
            }
        return get_function_schema(self._func, name=self._name, description=self._description)

    @property
    def function_schema(self) -> dict[str, Any]:
        """The schema for the legacy ``functions`` request parameter."""
        return self.tool_schema["function"]  # type: ignore[no-any-return]

    @property
    def realtime_tool_schema(self) -> dict[str, Any]:
        """The flat schema realtime endpoints take: ``{"type": "function", "name", "description", "parameters"}``."""
        schema = self.tool_schema
        return {"type": schema["type"], **schema["function"]}

    def register_for_llm(self, agent: ToolAgent) -> None:
        """Let ``agent``'s model propose calls to this tool.

        Args:
            agent: the agent whose llm_config gets the tool schema.
        """
        if self._parameters_json_schema is not None:
            agent.update_tool_signature(self.tool_schema, is_remove=False)
            return
        agent.register_for_llm()(self)

    def register_for_execution(self, agent: ToolAgent) -> None:
        """Let ``agent`` execute calls to this tool.

        Args:
            agent: the agent that runs the tool when a model calls it.
        """
        agent.register_for_execution()(self)

    def register_tool(self, agent: ToolAgent) -> None:
        """Both ``register_for_llm`` and ``register_for_execution`` on one agent.

        Args:
            agent: the agent that both proposes and executes the tool.
        """
        self.register_for_llm(agent)
        self.register_for_execution(agent)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Run the tool's function with the given arguments."""
        return self._func(*args, **kwargs)

    def __repr__(self) -> str:
        return f"Tool(name={self._name!r})"


def tool(name: Optional[str] = None, description: Optional[str] = None) -> Callable[[Callable[..., Any]], Tool]:
    """Decorator turning a function into a ``Tool``.

    Args:
        name: the tool name (default: the function name).
        description: what the tool does (default: the function's docstring).
    """

    def decorator(func_or_tool: Callable[..., Any]) -> Tool:
        return Tool(name=name, description=description, func_or_tool=func_or_tool)

    return decorator
