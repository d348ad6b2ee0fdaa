"""The ``Agent`` protocol: what every participant in a chat can do."""

from __future__ import annotations

from typing import Any, Optional, Protocol, Union, runtime_checkable

__all__ = ["Agent", "LLMAgent"]


@runtime_checkable
class Agent(Protocol):
    """Something that has a name and a description, sends and receives messages and can reply."""

    @property
    def name(self) -> str:
        """The name of the agent."""
        ...

    @property
    def description(self) -> str:
        """A short description used by others (e.g. a group chat manager) to decide when to call on it."""
        ...

    def send(self, message: Union[dict[str, Any], str], recipient: "Agent", request_reply: Optional[bool] = None) -> None:
        """Send a message to another agent."""
        ...

    async def a_send(
        self, message: Union[dict[str, Any], str], recipient: "Agent", request_reply: Optional[bool] = None
    ) -> None:
        """(async) Send a message to another agent."""
        ...

    def receive(self, message: Union[dict[str, Any], str], sender: "Agent", request_reply: Optional[bool] = None) -> None:
        """Receive a message from another agent."""
        ...

    async def a_receive(
        self, message: Union[dict[str, Any], str], sender: "Agent", request_reply: Optional[bool] = None
    ) -> None:
        """(async) Receive a message from another agent."""
        ...

    def generate_reply(
        self, messages: Optional[list[dict[str, Any]]] = None, sender: Optional["Agent"] = None, **kwargs: Any
    ) -> Union[str, dict[str, Any], None]:
        """Generate a reply based on the received messages."""
        ...

    async def a_generate_reply(
        self, messages: Optional[list[dict[str, Any]]] = None, sender: Optional["Agent"] = None, **kwargs: Any
    ) -> Union[str, dict[str, Any], None]:
        """(async) Generate a reply based on the received messages."""
        ...


@runtime_checkable
class LLMAgent(Agent, Protocol):
    """An agent backed by a language model, with a system message."""

    @property
    def system_message(self) -> str:
        """The system message of this agent."""
        ...

    def update_system_message(self, system_message: str) -> None:
        """Update this agent's system message."""
        ...


# isinstance() against a runtime-checkable protocol walks the protocol's members on every call
# (milliseconds per chat round once every reply function's trigger is checked); the answer depends
# on the class alone for the classes that take part in chats, so it is remembered per class.
_AGENT_CLASSES: dict[type, bool] = {}


def is_agent(obj: object) -> bool:
    """Whether ``obj`` satisfies the ``Agent`` protocol (``isinstance(obj, Agent)``, cached per class)."""
    cls = type(obj)
    known = _AGENT_CLASSES.get(cls)
    if known is None:
        known = _AGENT_CLASSES[cls] = isinstance(obj, Agent)
    return known
