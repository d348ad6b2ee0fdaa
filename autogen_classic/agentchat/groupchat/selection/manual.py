"""The "manual" speaker-selection method: the person at the console picks from a numbered list.

Invalid input asks again; the third try, empty input, ``q``, a closed input (EOF) or Ctrl-C gives up,
and the caller chooses automatically. Every answer is recorded as an attempt of the selection.
"""

from __future__ import annotations

from typing import Any

from ....io import IOStream
from ....messages.agent_messages import (
    SelectSpeakerInvalidInputMessage,
    SelectSpeakerMessage,
    SelectSpeakerTryCountExceededMessage,
)
from ....messages.emit import emit
from ...agent import Agent
from .trace import SelectionAttempt, SelectionRecord

__all__ = ["MANUAL_PROMPT", "ask_console_for_speaker", "console_choice"]

MANUAL_PROMPT = "Enter the number of the next speaker (enter nothing or `q` to use auto selection): "
_MANUAL_TRIES = 3  # the classic count: the third try gives up without asking


def console_choice(agents: list[Agent], record: SelectionRecord | None) -> tuple[Agent | None, str]:
    """Ask at the console; return ``(agent, "")`` or ``(None, why no agent was chosen)``."""
    out = IOStream.get_default()
    names = [a.name for a in agents]
    emit(SelectSpeakerMessage, out, agent_names=names)

    def note(answer: str, outcome: str) -> None:
        if record is not None:
            record.attempts.append(SelectionAttempt("human", answer, {}, outcome))  # type: ignore[arg-type]

    for try_count in range(1, _MANUAL_TRIES + 1):
        if try_count >= _MANUAL_TRIES:
            emit(SelectSpeakerTryCountExceededMessage, out, try_count=try_count, agent_names=names)
            return None, f"{try_count - 1} invalid inputs"
        try:
            answer = out.input(MANUAL_PROMPT)
        except EOFError:
            note("<EOF>", "none")
            return None, "the console input is closed (EOF)"
        except KeyboardInterrupt:
            note("<KeyboardInterrupt>", "none")
            return None, "the selection was interrupted (KeyboardInterrupt)"
        text = str(answer).strip()
        if text in ("", "q"):
            note(text, "none")
            return None, "empty input" if text == "" else "`q` entered"
        try:
            number = int(text)
        except ValueError:
            number = 0
        if 1 <= number <= len(agents):
            note(text, "selected")
            return agents[number - 1], ""
        note(text, "invalid")
        emit(SelectSpeakerInvalidInputMessage, out, agent_names=names)
    return None, "no valid input"  # pragma: no cover - the loop always returns


def ask_console_for_speaker(groupchat: Any, agents: list[Agent], record: SelectionRecord | None) -> Agent | None:
    """Show the numbered list of ``agents`` and read the choice from the console.

    Invalid input re-prompts; on the third try, or on empty input, ``q``, EOF or Ctrl-C, returns None
    (the caller falls back).

    Args:
        groupchat: the group chat asking (the menu lists ``agents`` only).
        agents: the candidates, numbered from 1 in this order.
        record: the selection record that receives each answer as an attempt (None: not recorded).
    """
    return console_choice(agents, record)[0]
