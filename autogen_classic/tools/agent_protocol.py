"""What tools need of an agent, as a structural protocol: the tools never import the agents.

``ConversableAgent`` satisfies it; so does any object with these members.
"""

from __future__ import annotations

from typing import Any, Callable, Literal, Optional, Protocol

from ..types import Agent

__all__ = ["ToolAgent"]


class ToolAgent(Protocol):
    """An agent a tool is registered with or executed by."""

    @property
    def chat_messages(self) -> dict[Agent, list[dict[str, Any]]]:
        """The agent's conversations: peer -> list of messages (read by ``ChatContext``)."""
        ...

    def last_message(self, agent: Optional[Agent] = None) -> Optional[dict[str, Any]]:
        """The last message the agent exchanged (read by ``ChatContext``)."""
        ...

    def register_for_llm(
        self, *, name: Optional[str] = None, description: Optional[str] = None,
        api_style: Literal["function", "tool"] = "tool",
    ) -> Callable[[Any], Any]:
        """Decorator letting the agent's model propose calls to a function or tool."""
        ...

    def register_for_execution(self, name: Optional[str] = None) -> Callable[[Any], Any]:
        """Decorator letting the agent execute calls to a function or tool."""
        ...

    def update_tool_signature(self, tool_sig: Any, is_remove: bool) -> None:
        """Add (or, ``is_remove``, remove) a tool schema of the agent's ``llm_config``."""
        ...
