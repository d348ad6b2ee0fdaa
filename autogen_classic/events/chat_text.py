"""The lines the agent and group-chat events print, written once for both their shapes.

``events.chat_events`` (AG2 Classic 0.14.1's events) and the classic ``messages.agent_messages`` (ag2 0.7.3's
shapes, with other field names) print the same lines, but for the word some use for a chat's messages
("event" in 0.14.1, "message" in 0.7.3), which the callers pass. These take values, not an event: the console
renders an event from a plain namespace of its fields.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from termcolor import colored

__all__ = [
    "attempt_failed_text", "attempt_successful_text", "carryover_text", "chat_message_text", "code_block_text",
    "code_blocks_text", "function_text", "print_candidates", "print_chat_banner", "print_clearing",
    "print_preserving", "print_resumed",
]

Out = Callable[..., Any]


# ------------------------------------------------------------------ chats
def chat_message_text(message: Any) -> str:
    """A chat's first message as its banner shows it: a str as is, "Callable: name", "Dict: {...}", "None";
    anything else as ""."""
    if isinstance(message, str):
        return message
    if callable(message):
        return "Callable: " + getattr(message, "__name__", str(message))
    if isinstance(message, dict):
        return "Dict: " + str(message)
    return "None" if message is None else ""


def carryover_text(carryover: Any) -> str:
    """A carryover as printed: a str as is, a list's items (a dict's content) joined by newlines."""
    if not isinstance(carryover, list):
        return carryover  # type: ignore[no-any-return]
    return "\n".join(
        item if isinstance(item, str) else str(item["content"]) if isinstance(item, dict) and "content" in item
        else str(item)
        for item in carryover
    )


def print_chat_banner(out: Out, verbose: Any, message: str, carryover: Any, title: str) -> None:
    """The banner before each chat of ``initiate_chats``; when ``verbose``, with the message (under ``title``,
    "Event" or "Message") and the carryover."""
    out(colored("\n" + "*" * 80, "blue"), flush=True, sep="")
    out(colored("Starting a new chat....", "blue"), flush=True)
    if verbose:
        out(colored(f"{title}:\n" + message, "blue"), flush=True)
        out(colored("Carryover:\n" + carryover_text(carryover), "blue"), flush=True)
    out(colored("\n" + "*" * 80, "blue"), flush=True, sep="")


# ------------------------------------------------------------------ code and functions
def code_block_text(code_block_count: int, language: str) -> str:
    """The notice before code block number ``code_block_count`` runs."""
    return f"\n>>>>>>>> EXECUTING CODE BLOCK {code_block_count} (inferred language is {language})..."


def code_blocks_text(languages: list[str]) -> str:
    """The notice before a code executor runs the blocks of a message (given their languages)."""
    if len(languages) == 1:
        return f"\n>>>>>>>> EXECUTING CODE BLOCK (inferred language is {languages[0]})..."
    return f"\n>>>>>>>> EXECUTING {len(languages)} CODE BLOCKS (inferred languages are [{', '.join(languages)}])..."


def function_text(state: str, func_name: str, call_id: Optional[str], arguments: Any) -> str:
    """The notice of a function call (``state``: "EXECUTING" or "EXECUTED"): its name, call id and arguments."""
    return f"\n>>>>>>>> {state} FUNCTION {func_name}...\nCall ID: {call_id}\nInput arguments: {arguments}"


# ------------------------------------------------------------------ group chats
def print_resumed(out: Out, count: int, noun: str, last_speaker_name: str) -> None:
    """A group chat resumes with ``count`` earlier ``noun`` ("events" or "messages") and its last speaker."""
    out(f"Prepared group chat with {count} {noun}, the last speaker is", colored(last_speaker_name, "yellow"),
        flush=True)


def print_clearing(out: Out, agent: Optional[str], to_preserve: Optional[int], noun: str) -> None:
    """A "clear history" command clears ``agent``'s history (None: every agent's), keeping the last
    ``to_preserve`` ``noun`` ("events" or "messages") when given."""
    who = agent if agent else "all agents"
    if to_preserve:
        out(f"Clearing history for {who} except last {to_preserve} {noun}.")
    else:
        out(f"Clearing history for {who}.")


def print_preserving(out: Out, preserved: int, agent: str, noun: str) -> None:
    """One line per ``noun`` ("event" or "message") kept so a tool response keeps its tool call."""
    for _ in range(preserved):
        out(f"Preserving one more {noun} for {agent} to not divide history between tool call and tool response.")


def attempt_successful_text(attempt: int, attempts_left: int, mentions: dict[str, int]) -> str:
    """An "auto" selection attempt named exactly one agent (the first of ``mentions``)."""
    return (f">>>>>>>> Select speaker attempt {attempt} of {attempt + attempts_left} successfully selected: "
            f"{next(iter(mentions))}")


def attempt_failed_text(attempt: int, attempts_left: int, multiple: bool) -> str:
    """An "auto" selection attempt named several agents (``multiple``) or none."""
    if multiple:
        return (f">>>>>>>> Select speaker attempt {attempt} of {attempt + attempts_left} failed as it included "
                "multiple agent names.")
    return f">>>>>>>> Select speaker attempt #{attempt} failed as it did not include any agent names."


def print_candidates(out: Out, agent_names: Optional[list[str]]) -> None:
    """The numbered list of manual speaker selection."""
    out("Please select the next speaker from the following list:")
    for number, name in enumerate(agent_names or [], start=1):
        out(f"{number}: {name}")
