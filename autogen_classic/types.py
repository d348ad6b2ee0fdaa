"""The shapes the whole package shares: message content, and the ``Agent`` protocol.

A message ``content`` is a string, None, or a list of parts: text parts and image parts,
as the OpenAI chat API defines them for multimodal messages. ``Agent`` and ``LLMAgent`` are
structural protocols: what every participant in a chat can do. They live here, at the
bottom of the package, so that any layer (graph helpers, tools) can name an agent without
importing the agents; ``autogen_classic.agentchat.agent`` is their classic path.
"""

from typing import Any, Literal, Optional, Protocol, TypedDict, Union, runtime_checkable

__all__ = [
    "Agent",
    "LLMAgent",
    "LLMMessageType",
    "MessageContentType",
    "UserMessageImageContentPart",
    "UserMessageTextContentPart",
    "is_agent",
]

MessageContentType = Union[str, list[Union[dict, str]], None]  # type: ignore[type-arg]

# One message as sent to a model (the classic ``autogen.agentchat.agent.LLMMessageType``); one object,
# re-exported wherever the classic package names it.
LLMMessageType = dict[str, Any]


class UserMessageTextContentPart(TypedDict):
    """A text part of a multimodal message: ``{"type": "text", "text": ...}``."""

    type: Literal["text"]
    text: str


class UserMessageImageContentPart(TypedDict):
    """An image part of a multimodal message: ``{"type": "image_url", "image_url": {"url": ...}}``."""

    type: Literal["image_url"]
    image_url: dict[Literal["url"], str]


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
