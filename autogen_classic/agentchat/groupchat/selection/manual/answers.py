"""What a line typed at the manual selection prompt means (pure: no I/O).

In this order: empty input or ``q`` asks for automatic selection (the classic answers); ``?``, ``h`` and ``x``
are commands (help, the recent messages, end the chat); a number chooses from the numbered list (the classic
answer); otherwise the text is read as a candidate's name, in any letter case, or the start of one. A start
that several names share is ambiguous. The commands win over names: a candidate named ``h`` or ``x`` (or one
whose name starts with that letter) is chosen by its number or by a longer start of its name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["Answer", "AnswerKind", "COMMANDS", "read_answer"]

AnswerKind = Literal["auto", "pick", "help", "history", "end", "ambiguous", "invalid"]
COMMANDS: dict[str, AnswerKind] = {"?": "help", "h": "history", "x": "end"}


@dataclass(frozen=True)
class Answer:
    """One typed line, read.

    Args:
        kind: "auto" (empty or ``q``), "pick" (``agent`` chosen), "help" (``?``), "history" (``h``), "end"
            (``x``), "ambiguous" (``matches`` share the typed start) or "invalid".
        text: the line without surrounding blanks.
        agent: the candidate chosen ("pick" only).
        matches: the candidates an ambiguous start matches.
        by: how the pick was made: "number", "name" or "prefix" ("" otherwise).
    """

    kind: AnswerKind
    text: str
    agent: Any = None
    matches: tuple[Any, ...] = ()
    by: str = ""


def read_answer(typed: Any, candidates: list[Any], commands: tuple[str, ...] = tuple(COMMANDS)) -> Answer:
    """Read one line typed at the prompt against the numbered ``candidates``.

    Args:
        typed: the line as read from the input stream.
        candidates: the agents, numbered from 1 in this order.
        commands: the commands understood here (``manual_select_speaker`` outside a chat has no ``x``).
    """
    text = str(typed).strip()
    if text in ("", "q"):
        return Answer("auto", text)
    if text in commands:
        return Answer(COMMANDS[text], text)
    try:
        number = int(text)
    except ValueError:
        number = None
    if number is not None:
        if 1 <= number <= len(candidates):
            return Answer("pick", text, candidates[number - 1], by="number")
        return Answer("invalid", text)
    folded = text.casefold()
    exact = [agent for agent in candidates if str(agent.name).casefold() == folded]
    if len(exact) == 1:
        return Answer("pick", text, exact[0], by="name")
    starting = exact or [agent for agent in candidates if str(agent.name).casefold().startswith(folded)]
    if len(starting) == 1:
        return Answer("pick", text, starting[0], by="prefix")
    if starting:
        return Answer("ambiguous", text, matches=tuple(starting))
    return Answer("invalid", text)
