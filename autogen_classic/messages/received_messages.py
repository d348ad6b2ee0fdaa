"""The events of a message an agent receives: text, function and tool calls, their responses.

``received_message_fields`` picks the event of a message dict; classic ``autogen.messages.agent_messages`` re-exports them.
"""

from __future__ import annotations

from typing import Any, Literal, Optional, Union
from uuid import UUID

from ..events import received_events as events
from .base_message import BaseMessage, wrap_message
from .console_text import SEPARATOR, Printer, agent_name, content_to_text, printer

__all__ = [
    "BasePrintReceivedMessage", "FunctionCall", "FunctionCallMessage", "FunctionResponseMessage", "ToolCall",
    "ToolCallMessage", "ToolResponse", "ToolResponseMessage", "TextMessage", "create_received_message_model",
    "received_message_fields",
]

MessageRole = Literal["assistant", "function", "tool"]
NAMES = {"sender_name": "sender", "recipient_name": "recipient"}  # classic field -> event field


class BasePrintReceivedMessage(BaseMessage):
    """A message as the receiving agent prints it: ``sender (to recipient):`` then the body."""

    content: Union[str, int, float, bool]
    sender_name: str
    recipient_name: str

    def print(self, f: Printer = None) -> None:
        events.heading(self.sender_name, self.recipient_name, printer(f))


class FunctionCall(events.FunctionCall):
    """A suggested function call: name and JSON arguments."""

    def print(self, f: Printer = None) -> None:
        events.FunctionCall.print(self, printer(f))


class ToolCall(events.ToolCall):
    """A suggested tool call: id and function."""

    function: FunctionCall

    def print(self, f: Printer = None) -> None:
        events.ToolCall.print(self, printer(f))


class ToolResponse(events.ToolResponse):
    """One tool result."""

    content: Any

    def print(self, f: Printer = None) -> None:
        events.ToolResponse.print(self, printer(f))


@wrap_message(event=events.FunctionResponseEvent, renames=NAMES)
class FunctionResponseMessage(BasePrintReceivedMessage):
    """The result of a function call, received."""

    name: Optional[str] = None
    role: MessageRole = "function"
    content: Union[str, int, float, bool]

    def print(self, f: Printer = None) -> None:
        events.print_function_response(printer(f), self.sender_name, self.recipient_name, self.role, self.name,
                                       self.content)


@wrap_message(event=events.ToolResponseEvent, renames=NAMES)
class ToolResponseMessage(BasePrintReceivedMessage):
    """Tool results, received (one box per response)."""

    role: MessageRole = "tool"
    tool_responses: list[ToolResponse]
    content: Union[str, int, float, bool]

    def print(self, f: Printer = None) -> None:
        events.print_tool_responses(printer(f), self.sender_name, self.recipient_name, self.tool_responses)


@wrap_message(event=events.FunctionCallEvent, renames=NAMES)
class FunctionCallMessage(BasePrintReceivedMessage):
    """A suggested function call, received."""

    content: Optional[Union[str, int, float, bool]] = None  # type: ignore[assignment]
    function_call: FunctionCall

    def print(self, f: Printer = None) -> None:
        events.print_calls(printer(f), self.sender_name, self.recipient_name, self.content, [self.function_call])


@wrap_message(event=events.ToolCallEvent, renames=NAMES)
class ToolCallMessage(BasePrintReceivedMessage):
    """Suggested tool calls, received."""

    content: Optional[Union[str, int, float, bool]] = None  # type: ignore[assignment]
    refusal: Optional[str] = None
    role: Optional[MessageRole] = None
    audio: Optional[str] = None
    function_call: Optional[FunctionCall] = None
    tool_calls: list[ToolCall]

    def print(self, f: Printer = None) -> None:
        events.print_calls(printer(f), self.sender_name, self.recipient_name, self.content, self.tool_calls)


@wrap_message(event=events.TextEvent, renames=NAMES)
class TextMessage(BasePrintReceivedMessage):
    """A text (or multimodal) message, received."""

    content: Optional[Union[str, int, float, bool, list[dict[str, Union[str, dict[str, Any]]]]]] = None  # type: ignore[assignment]

    def print(self, f: Printer = None) -> None:
        out = printer(f)
        events.heading(self.sender_name, self.recipient_name, out)
        if self.content is not None:
            out(content_to_text(self.content), flush=True)
        out("\n", SEPARATOR, flush=True, sep="")


def received_message_fields(message: dict[str, Any], sender_name: str, recipient_name: str) -> tuple[Any, dict]:
    """The event class and content fields for ``message`` received by ``recipient_name`` from ``sender_name``."""
    role = message.get("role")
    fields: dict[str, Any] = {"sender_name": sender_name, "recipient_name": recipient_name}
    if role == "function":
        return FunctionResponseMessage, {**fields, "content": message.get("content"), "name": message.get("name"),
                                         "role": "function"}
    if role == "tool":
        responses = message.get("tool_responses") or [message]
        return ToolResponseMessage, {**fields, "content": message.get("content"), "role": "tool",
                                     "tool_responses": [ToolResponse.model_construct(
                                         tool_call_id=r.get("tool_call_id"), role="tool", content=r.get("content"))
                                         for r in responses]}
    if message.get("function_call"):
        call = message["function_call"]
        return FunctionCallMessage, {**fields, "content": message.get("content"), "function_call":
                                     FunctionCall.model_construct(name=call.get("name"),
                                                                  arguments=call.get("arguments"))}
    if message.get("tool_calls"):
        calls = []
        for call in message["tool_calls"]:
            function = call.get("function") or {}
            calls.append(ToolCall.model_construct(
                id=call.get("id"), type=call.get("type", "function"),
                function=FunctionCall.model_construct(name=function.get("name"), arguments=function.get("arguments"))))
        return ToolCallMessage, {**fields, "content": message.get("content"), "refusal": None,
                                 "role": message.get("role") or "assistant",
                                 "audio": None, "function_call": None, "tool_calls": calls}
    return TextMessage, {**fields, "content": message.get("content")}


def _instantiate(content: Any, message: dict[str, Any], recipient: Any) -> Any:
    """``content`` filled with the message's ``context``: a callable is called with it, a str template is
    formatted only when the recipient's ``llm_config`` allows it; without a (non-empty) context it is kept."""
    context = message.get("context")
    if content is None or not context:
        return content
    if isinstance(content, str):
        llm_config = getattr(recipient, "llm_config", None)
        allowed = llm_config.get("allow_format_str_template", False) if llm_config else False
        return content.format(**context) if allowed else content
    return content(context)


def create_received_message_model(
    *, uuid: Optional[UUID] = None, message: dict[str, Any], sender: Any, recipient: Any
) -> Any:
    """The event for ``message`` as ``recipient`` receives it from ``sender`` (the class follows the message).

    The message's own keys are the event's fields (``role`` as given, ``None`` included), validated; a
    text content is first filled with the message's ``context``. A content the event cannot hold (a
    callable without a context) raises ``pydantic.ValidationError``.
    """
    names = {"sender_name": agent_name(sender) or "", "recipient_name": agent_name(recipient) or "", "uuid": uuid}
    role = message.get("role")
    if role == "function":
        return FunctionResponseMessage(**{**message, **names})
    if role == "tool":
        if "tool_responses" not in message:  # one plain tool result: its own response
            message = {**message, "tool_responses": [message]}
        return ToolResponseMessage(**{**message, **names})
    if message.get("function_call"):
        return FunctionCallMessage(**{**message, **names})
    if message.get("tool_calls"):
        return ToolCallMessage(**{**message, **names})
    return TextMessage(content=_instantiate(message.get("content"), message, recipient), **names)
