"""The events of a message an agent receives: text, function and tool calls, their responses.

``received_event_fields`` picks the event of a message dict; ``autogen.events.agent_events`` re-exports them.
"""

from __future__ import annotations

from typing import Any, Callable, Literal, Optional, Union
from uuid import UUID

from pydantic import BaseModel, field_validator
from termcolor import colored

from .base_event import BaseEvent, resolve_print_callable, wrap_event
from .console_text import SEPARATOR, agent_name, boxed, call_block, content_str

__all__ = [
    "BasePrintReceivedEvent", "FunctionCall", "FunctionCallEvent", "FunctionResponseEvent", "TextEvent", "ToolCall",
    "ToolCallEvent", "ToolResponse", "ToolResponseEvent", "create_received_event_model",
]

EventRole = Literal["assistant", "function", "tool"]
Printer = Optional[Callable[..., Any]]


class BasePrintReceivedEvent(BaseEvent):
    """A message as the receiving agent prints it: ``sender (to recipient):`` then the body."""

    content: Union[str, int, float, bool]
    sender: str
    recipient: str

    def print(self, f: Printer = None) -> None:
        """Print the heading ``sender (to recipient):``."""
        heading(self.sender, self.recipient, resolve_print_callable(f))


def heading(sender: str, recipient: str, out: Callable[..., Any]) -> None:
    """``sender (to recipient):`` with the sender in yellow, then an empty line."""
    out(f"{colored(sender, 'yellow')} (to {recipient}):\n", flush=True)


class FunctionCall(BaseModel):
    """A suggested function call: name and JSON arguments."""

    name: Optional[str] = None
    arguments: Optional[str] = None

    def print(self, f: Printer = None) -> None:
        """Print the call's title, arguments and a line of stars."""
        call_block(resolve_print_callable(f),
                   f"***** Suggested function call: {self.name or '(No function name found)'} *****", self.arguments)


class ToolCall(BaseModel):
    """A suggested tool call: id and function."""

    id: Optional[str] = None
    function: FunctionCall
    type: str

    def print(self, f: Printer = None) -> None:
        """Print the call's title (with its id), arguments and a line of stars."""
        name = self.function.name or "(No function name found)"
        call_block(resolve_print_callable(f),
                   f"***** Suggested tool call ({self.id or 'No tool call id found'}): {name} *****",
                   self.function.arguments)


class ToolResponse(BaseModel):
    """One tool result."""

    tool_call_id: Optional[str] = None
    role: EventRole = "tool"
    content: Union[str, int, float, bool]

    def print(self, f: Printer = None) -> None:
        """Print the result in a box titled with its call id."""
        boxed(resolve_print_callable(f),
              f"***** Response from calling {self.role} ({self.tool_call_id or 'No id found'}) *****", self.content)


# The lines of each received message, given its values: the classic ``messages.received_messages`` (other field
# names) prints them too, and the console renders either from a plain namespace of the fields.
def print_function_response(out: Callable[..., Any], sender: str, recipient: str, role: str, name: Optional[str],
                            content: Any) -> None:
    """The heading and a function's result in a box titled with the function's ``name``."""
    heading(sender, recipient, out)
    boxed(out, f"***** Response from calling {role} ({name or 'No id found'}) *****", content)
    out("\n", SEPARATOR, flush=True, sep="")


def print_tool_responses(out: Callable[..., Any], sender: str, recipient: str, tool_responses: list[Any]) -> None:
    """The heading and each tool result in a box."""
    heading(sender, recipient, out)
    for response in tool_responses:
        ToolResponse.print(response, out)
        out("\n", SEPARATOR, flush=True, sep="")


def print_calls(out: Callable[..., Any], sender: str, recipient: str, content: Any, calls: list[Any]) -> None:
    """The heading, any text, and each suggested call (``FunctionCall`` or ``ToolCall``)."""
    heading(sender, recipient, out)
    if content is not None:
        out(content, flush=True)
    for call in calls:
        call.print(out)
    out("\n", SEPARATOR, flush=True, sep="")


@wrap_event
class FunctionResponseEvent(BasePrintReceivedEvent):
    """The result of a function call, received."""

    name: Optional[str] = None
    role: EventRole = "function"
    content: Union[str, int, float, bool]

    def print(self, f: Printer = None) -> None:
        """Print the heading and the result in a box."""
        print_function_response(resolve_print_callable(f), self.sender, self.recipient, self.role, self.name,
                                self.content)


@wrap_event
class ToolResponseEvent(BasePrintReceivedEvent):
    """Tool results, received (one box per response)."""

    role: EventRole = "tool"
    tool_responses: list[ToolResponse]
    content: Union[str, int, float, bool]

    def print(self, f: Printer = None) -> None:
        """Print the heading and each result in a box."""
        print_tool_responses(resolve_print_callable(f), self.sender, self.recipient, self.tool_responses)


@wrap_event
class FunctionCallEvent(BasePrintReceivedEvent):
    """A suggested function call, received."""

    content: Optional[Union[str, int, float, bool]] = None  # type: ignore[assignment]
    function_call: FunctionCall

    def print(self, f: Printer = None) -> None:
        """Print the heading, any text, and the suggested call."""
        print_calls(resolve_print_callable(f), self.sender, self.recipient, self.content, [self.function_call])


@wrap_event
class ToolCallEvent(BasePrintReceivedEvent):
    """Suggested tool calls, received."""

    content: Optional[Union[str, int, float, bool]] = None  # type: ignore[assignment]
    refusal: Optional[str] = None
    role: Optional[EventRole] = None
    audio: Optional[str] = None
    function_call: Optional[FunctionCall] = None
    tool_calls: list[ToolCall]

    def print(self, f: Printer = None) -> None:
        """Print the heading, any text, and each suggested call."""
        print_calls(resolve_print_callable(f), self.sender, self.recipient, self.content, self.tool_calls)


def _without_images(content: Any) -> Any:
    # An image given as a PIL object is kept as "<image>", so the event stays serialisable.
    if not isinstance(content, list):
        return content
    for item in content:
        image = item.get("image_url") if isinstance(item, dict) else None
        if isinstance(image, dict) and "url" in image and type(image["url"]).__module__.startswith("PIL."):
            image["url"] = "<image>"
    return content


@wrap_event
class TextEvent(BasePrintReceivedEvent):
    """A text (or multimodal) message, received."""

    content: Optional[  # type: ignore[assignment]
        Union[str, int, float, bool, list[dict[str, Union[str, dict[str, Any]]]]]
    ] = None

    @field_validator("content", mode="before")
    @classmethod
    def validate_and_encode_content(cls, content: Any) -> Any:
        """Images given as PIL objects become the placeholder ``"<image>"``."""
        return _without_images(content)

    def print(self, f: Printer = None) -> None:
        """Print the heading, the text (a multimodal message's parts one per line) and a rule."""
        out = resolve_print_callable(f)
        heading(self.sender, self.recipient, out)
        if self.content is not None:
            out(content_str(self.content), flush=True)  # type: ignore[arg-type]
        out("\n", SEPARATOR, flush=True, sep="")


def create_received_event_model(
    *, uuid: Optional[UUID] = None, event: dict[str, Any], sender: Any, recipient: Any
) -> Any:
    """The event for the message dict ``event`` as ``recipient`` receives it from ``sender`` (agents or names).

    The class follows the message: a function or tool result, a function or tool call, else text.
    """
    names = {"sender": agent_name(sender) or "", "recipient": agent_name(recipient) or ""}
    role = event.get("role")
    if role == "function":
        return FunctionResponseEvent(**event, **names, uuid=uuid)
    if role == "tool":
        return ToolResponseEvent(**event, **names, uuid=uuid)
    if event.get("function_call"):
        return FunctionCallEvent(**event, **names, uuid=uuid)
    if event.get("tool_calls"):
        return ToolCallEvent(**event, **names, uuid=uuid)
    content = event.get("content")
    if content is not None and "context" in event:  # a template filled with the message's context
        llm_config = getattr(recipient, "llm_config", None)
        allow_format = bool(llm_config.get("allow_format_str_template", False)) if llm_config else False
        if callable(content):
            content = content(event["context"])
        elif allow_format and isinstance(content, str):
            content = content.format(**event["context"])
    return TextEvent(content=content, **names, uuid=uuid)
