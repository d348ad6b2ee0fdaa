"""The shapes the whole package shares: message content, and the ``Agent`` protocol.

A message ``content`` is a string, None, or a list of parts: text parts and image parts,
as the OpenAI chat API defines them for multimodal messages. ``Agent`` and ``LLMAgent`` are
structural protocols: what every participant in a chat can do. They live here, at the
bottom of the package, so that any layer (graph helpers, tools) can name an agent without
importing the agents; ``autogen_classic.agentchat.agent`` is their classic path.
"""

from typing import Any, Literal, Optional, Protocol, TypedDict, Union, runtime_checkable

from .exception_utils import InvalidArgumentError

__all__ = [
    "Agent",
    "LLMAgent",
    "LLMMessageType",
    "MessageContentType",
    "UserMessageImageContentPart",
    "UserMessageTextContentPart",
    "content_part_type",
    "content_str",
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


def content_str(content: Union[str, list[Union[UserMessageTextContentPart, UserMessageImageContentPart]], None]) -> str:
    """Turn the ``content`` of an OpenAI message into plain text.

    Args:
        content (str, list or None): a string, None, or a list of content parts (dicts with a
            ``type``): text (``"text"``, ``"input_text"``), images (``"image_url"``,
            ``"input_image"``), calls (``"function"``, ``"tool_call"``, ``"tool_calls"``) and the
            Responses API's ``"apply_patch_call"`` and ``"shell_call"``.

    Returns:
        str: the parts' texts, one per line (AG2 0.14; ag2 0.7 joined them with nothing between):
        text as it is, each image as ``<image>``, a call as ``<function: name>`` (``<function>``
        without a name), a patch as ``<apply_patch_call: TYPE on PATH (status: S) diff: D>``, a
        shell call as ``[shell_call id=ID commands=[...]]``; None becomes ``""``.

    Raises:
        TypeError: ``content`` is of another type, or a list item is not a dict.
        InvalidArgumentError: a part has no ``type`` (also an ``AssertionError``, the classic type).
        ValueError: a part's ``type`` is unknown.
    """
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise TypeError(f"content must be None, str, or list, but got {type(content)}")
    return "\n".join(_part_text(item) for item in content)


def content_part_type(item: Any) -> Any:
    """The ``type`` of one part of a list ``content``, once the part is known to be a dict that has one.

    Raises:
        TypeError: ``item`` is not a dict.
        InvalidArgumentError: it has no ``type`` (also an ``AssertionError``, the classic type).
    """
    if not isinstance(item, dict):
        raise TypeError("Wrong content format: every element should be dict if the content is a list.")
    if "type" not in item:
        raise InvalidArgumentError("Wrong content format. Missing 'type' key in content's dict.")
    return item["type"]


def _part_text(item: Any) -> str:
    """The text of one content part (see :func:`content_str`)."""
    kind = content_part_type(item)
    if kind in ("text", "input_text"):
        return item["text"]
    if kind in ("image_url", "input_image"):
        return "<image>"
    if kind in ("function", "tool_call", "tool_calls"):
        return f"<function: {item['name']}>" if "name" in item else "<function>"
    if kind == "apply_patch_call":
        operation = item.get("operation", {})
        return (
            f"<apply_patch_call: {operation.get('type', 'unknown_operation')} on {operation.get('path', 'unknown_path')}"
            f" (status: {item.get('status', 'unknown_status')}) diff: {operation.get('diff', 'unknown_diff')}>"
        )
    if kind == "shell_call":
        commands = item.get("action", {}).get("commands", [])
        return f"[shell_call id={item.get('call_id', '<unknown>')} commands={commands}]"
    raise ValueError(f"Wrong content format: unknown type {kind} within the content")
