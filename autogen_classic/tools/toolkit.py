"""``Toolkit``: a named set of tools registered with agents together (the classic ``autogen.tools.toolkit``)."""

from __future__ import annotations

from collections.abc import Iterable

from ..exception_utils import InvalidAttributeTypeError
from .agent_protocol import ToolAgent
from .tool import Tool

__all__ = ["Toolkit"]


class Toolkit:
    """Tools kept by name, to register with an agent in one call.

    Args:
        tools: the tools; a later tool replaces an earlier one of the same name.

    Raises:
        TypeError: ``tools`` is not a list.
        InvalidAttributeTypeError: an item is not a ``Tool`` (also an ``AttributeError``, as classic AutoGen
            raised); wrap functions with ``Tool(func_or_tool=f)`` or the ``@tool()`` decorator.
    """

    def __init__(self, tools: list[Tool]) -> None:
        self.toolkit: dict[str, Tool] = {}
        for index, item in enumerate(_checked(tools)):
            if not isinstance(item, Tool):
                raise InvalidAttributeTypeError(
                    f"Toolkit tools[{index}] must be a Tool; got {type(item).__name__} {item!r:.60}. "
                    "Wrap a function with Tool(func_or_tool=f) or the @tool() decorator."
                )
            self.toolkit[item.name] = item

    @property
    def tools(self) -> list[Tool]:
        """The tools, in the order they were added."""
        return list(self.toolkit.values())

    def register_for_llm(self, agent: ToolAgent) -> None:
        """Let ``agent``'s model propose calls to every tool of the set.

        Args:
            agent: the agent whose llm_config gets the tool schemas.
        """
        for item in self.toolkit.values():
            item.register_for_llm(agent)

    def register_for_execution(self, agent: ToolAgent) -> None:
        """Let ``agent`` execute calls to every tool of the set.

        Args:
            agent: the agent that runs the tools.
        """
        for item in self.toolkit.values():
            item.register_for_execution(agent)

    def get_tool(self, tool_name: str) -> Tool:
        """Return the tool called ``tool_name``.

        Raises:
            ValueError: no tool of the set has that name.
        """
        if tool_name in self.toolkit:
            return self.toolkit[tool_name]
        raise ValueError(f"Tool '{tool_name}' not found in Toolkit.")

    def set_tool(self, tool: Tool) -> None:
        """Add ``tool``, replacing the tool of the same name if there is one."""
        if not isinstance(tool, Tool):
            raise TypeError(f"Toolkit.set_tool needs a Tool; got {type(tool).__name__} {tool!r:.60}.")
        self.toolkit[tool.name] = tool

    def remove_tool(self, tool_name: str) -> None:
        """Remove the tool called ``tool_name``.

        Raises:
            ValueError: no tool of the set has that name.
        """
        if tool_name not in self.toolkit:
            raise ValueError(f"Tool '{tool_name}' not found in Toolkit.")
        del self.toolkit[tool_name]

    def __len__(self) -> int:
        """The number of tools in the set."""
        return len(self.toolkit)

    def __repr__(self) -> str:
        return f"Toolkit({list(self.toolkit)!r})"


def _checked(tools: object) -> Iterable[object]:
    if isinstance(tools, (str, bytes, dict)) or not isinstance(tools, Iterable):
        raise TypeError(
            f"Toolkit(tools=...) needs a list of Tool objects; got {type(tools).__name__} {tools!r:.60}."
        )
    return list(tools)
