"""Render chat events in the classic AutoGen console layout.

Every function takes plain data (names, message dicts) and prints through the
current ``IOStream``; nothing here knows about agents or group chats, so a UI
can replace the stream and receive exactly the text a terminal would show.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Optional, Sequence

from termcolor import colored

from .base import IOStream

SEPARATOR = "-" * 80


def _stream(iostream: Optional[IOStream]) -> IOStream:
    return iostream if iostream is not None else IOStream.get_default()


def content_to_text(content: Any) -> str:
    """Text of a message content: a string, ``None`` or a multimodal list of parts."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for item in content:
            if isinstance(item, Mapping) and item.get("type") == "text":
                parts.append(str(item.get("text", "")))
            elif isinstance(item, Mapping) and item.get("type") in ("image_url", "input_image"):
                parts.append("<image>")
            else:
                parts.append(str(item))
        # Parts are joined without a separator, as the classic console shows them.
        return "".join(parts)
    return str(content)


def _boxed(title: str, body: Any, out: IOStream) -> None:
    out.print(colored(title, "green"), flush=True)
    out.print(body, flush=True)
    out.print(colored("*" * len(title), "green"), flush=True)


def _call_block(title: str, arguments: Any, out: IOStream) -> None:
    out.print(colored(title, "green"), flush=True)
    out.print("Arguments: \n", arguments if arguments else "(No arguments found)", flush=True, sep="")
    out.print(colored("*" * len(title), "green"), flush=True)


def received_message(
    message: Mapping[str, Any], sender_name: str, recipient_name: str, iostream: Optional[IOStream] = None
) -> None:
    """Print a message the way the receiving agent shows it: ``alice (to bob):`` then the body."""
    out = _stream(iostream)
    out.print(f"{colored(sender_name, 'yellow')} (to {recipient_name}):\n", flush=True)
    role = message.get("role")
    if role == "function":
        _boxed(f"***** Response from calling function ({message.get('name') or 'No id found'}) *****",
               message.get("content"), out)
    elif role == "tool":
        for response in message.get("tool_responses") or [message]:
            _boxed(f"***** Response from calling tool ({response.get('tool_call_id') or 'No id found'}) *****",
                   response.get("content"), out)
            out.print("\n", SEPARATOR, flush=True, sep="")
        return
    elif message.get("function_call"):
        if message.get("content") is not None:
            out.print(message["content"], flush=True)
        call = message["function_call"]
        _call_block(f"***** Suggested function call: {call.get('name') or '(No function name found)'} *****",
                    call.get("arguments"), out)
    elif message.get("tool_calls"):
        if message.get("content") is not None:
            out.print(message["content"], flush=True)
        for call in message["tool_calls"]:
            function = call.get("function") or {}
            name = function.get("name") or "(No function name found)"
            _call_block(f"***** Suggested tool call ({call.get('id') or 'No tool call id found'}): {name} *****",
                        function.get("arguments"), out)
    elif message.get("content") is not None:
        out.print(content_to_text(message["content"]), flush=True)
    out.print("\n", SEPARATOR, flush=True, sep="")


def no_human_input(iostream: Optional[IOStream] = None) -> None:
    _stream(iostream).print(colored("\n>>>>>>>> NO HUMAN INPUT RECEIVED.", "red"), flush=True)


def using_auto_reply(iostream: Optional[IOStream] = None) -> None:
    _stream(iostream).print(colored("\n>>>>>>>> USING AUTO REPLY...", "red"), flush=True)


def new_chat(message: str, carryover: str, verbose: bool, iostream: Optional[IOStream] = None) -> None:
    """The banner ``initiate_chats`` prints before each chat of a sequence."""
    out = _stream(iostream)
    out.print(colored("\n" + "*" * 80, "blue"), flush=True, sep="")
    out.print(colored("Starting a new chat....", "blue"), flush=True)
    if verbose:
        out.print(colored("Message:\n" + message, "blue"), flush=True)
        out.print(colored("Carryover:\n" + carryover, "blue"), flush=True)
    out.print(colored("\n" + "*" * 80, "blue"), flush=True, sep="")


def preserving_tool_message(agent_name: str, count: int, iostream: Optional[IOStream] = None) -> None:
    out = _stream(iostream)
    for _ in range(count):
        out.print(
            f"Preserving one more message for {agent_name} to not divide history between tool call and tool response."
        )


def preserve_ignored_warning(iostream: Optional[IOStream] = None) -> None:
    _stream(iostream).print(
        colored("WARNING: `nr_preserved_messages` is ignored when clearing chat history with a specific agent.",
                "yellow"),
        flush=True,
    )


def next_speaker(name: str, iostream: Optional[IOStream] = None) -> None:
    _stream(iostream).print(colored(f"\nNext speaker: {name}\n", "green"), flush=True)


def speaker_menu(names: Sequence[str], iostream: Optional[IOStream] = None) -> None:
    out = _stream(iostream)
    out.print("Please select the next speaker from the following list:")
    for number, name in enumerate(names, start=1):
        out.print(f"{number}: {name}")


def lines(text_lines: Iterable[str], color: Optional[str] = None, iostream: Optional[IOStream] = None) -> None:
    """Print plain lines, optionally coloured."""
    out = _stream(iostream)
    for line in text_lines:
        out.print(colored(line, color) if color else line, flush=True)
