"""The manual selection prompt: the person at the keyboard picks the next speaker.

The classic view (the default) shows the classic numbered list and prompt. Beside the classic answers (a
number; empty input or ``q`` for automatic selection), the prompt takes a candidate's name in any letter case or
a unique start of one, and three commands: ``?`` (the candidates, who was excluded and why, and the zero-call
suggestion), ``h`` (the recent messages) and ``x`` (end the chat). The rich view shows the candidates with their
descriptions and the suggestion before the first prompt.

Tries, as in the classic prompt: the third try gives up without asking and the caller chooses automatically.
A number out of range, text matching no candidate and an ambiguous start of a name each use a try (the
ambiguous start lists the names it matches); ``?`` and ``h`` do not (after ``FREE_ASKS`` of them in one
selection they do, so a script repeating them cannot loop forever). Empty input, ``q``, a closed input (EOF)
or Ctrl-C give up at once. Every answer that used a try or ended the question is recorded as an attempt.
"""

from __future__ import annotations

from typing import Any

from .....exception_utils import NoEligibleSpeaker
from .....io import IOStream
from .....io.input_details import asking_for_speaker
from .....events.chat_events import SelectSpeakerEvent, SelectSpeakerInvalidInputEvent, SelectSpeakerTryCountExceededEvent
from .....io.emit import emit, emit_print
from ....agent import Agent
from ..trace import ManualPick, SelectionAttempt, SelectionRecord
from .answers import read_answer
from .decision import ManualDecision, build_decision
from .views import RICH_PROMPT, VIEWS, ambiguous_text, help_text, history_text, rich_details_text, rich_invalid_text

__all__ = [
    "ChatEndedAtKeyboard", "ENDED_AT_KEYBOARD", "FREE_ASKS", "MANUAL_PROMPT", "ask_console_for_speaker",
    "console_choice", "selection_view",
]

MANUAL_PROMPT = "Enter the number of the next speaker (enter nothing or `q` to use auto selection): "
_MANUAL_TRIES = 3  # the classic count: the third try gives up without asking
FREE_ASKS = 20  # ``?`` and ``h`` answered per selection before they count as tries
ENDED_AT_KEYBOARD = "The person at the keyboard ended the chat (x at the speaker selection prompt)."


class ChatEndedAtKeyboard(NoEligibleSpeaker):
    """The person typed ``x`` at the manual selection prompt: no one speaks next and the chat ends.

    A ``NoEligibleSpeaker``, so every driver of a group chat ends the chat the way it does when no agent may
    speak: the messages, the transcript and the selection trace are kept, and ``manager.end_reason`` is
    :data:`ENDED_AT_KEYBOARD`.
    """

    def __init__(self, message: str = ENDED_AT_KEYBOARD) -> None:
        super().__init__(message)


def selection_view(groupchat: Any) -> str:
    """The view of manual selection the group chat asks for: "classic" (the default) or "rich"."""
    view = getattr(groupchat, "manual_selection_view", "classic")
    return view if isinstance(view, str) and view in VIEWS else "classic"


class _Question:
    """One manual selection in progress: the stream, the candidates and the decision (built when first needed)."""

    def __init__(self, groupchat: Any, agents: list[Agent], record: SelectionRecord | None, view: str) -> None:
        self.out = IOStream.get_default()
        self.groupchat = groupchat
        self.agents = agents
        self.names = [a.name for a in agents]
        self.record = record
        self.view = view
        self._decision: ManualDecision | None = None
        self.pick = ManualPick(view=view)
        if record is not None:
            # The trace says what was suggested even when no one asked: computed without a model call.
            found = self.decision.suggestion
            if found is not None:
                self.pick.suggested, self.pick.suggestion_rule = found.name, found.rule
                self.pick.suggestion_reason = found.reason
            record.manual = self.pick

    @property
    def decision(self) -> ManualDecision:
        if self._decision is None:
            self._decision = build_decision(self.groupchat, self.agents, self.record)
        return self._decision

    def note(self, answer: str, outcome: str) -> None:
        if self.record is not None:
            self.record.attempts.append(SelectionAttempt("human", answer, {}, outcome))  # type: ignore[arg-type]

    def show_list(self) -> None:
        emit(SelectSpeakerEvent, self.out, agents=self.names)
        if self.view == "rich":
            emit_print(rich_details_text(self.decision), iostream=self.out)

    def invalid(self, text: str) -> None:
        if self.view == "rich":
            emit_print(rich_invalid_text(text, len(self.agents)), iostream=self.out)
        else:
            emit(SelectSpeakerInvalidInputEvent, self.out, agents=self.names)


def console_choice(
    agents: list[Agent], record: SelectionRecord | None, groupchat: Any = None, *, view: str | None = None,
    allow_end: bool = True,
) -> tuple[Agent | None, str]:
    """Ask at the console; return ``(agent, "")`` or ``(None, why no agent was chosen)``.

    Args:
        agents: the candidates, numbered from 1 in this order.
        record: the selection record that receives each answer as an attempt (None: not recorded); its steps
            tell who was excluded and why.
        groupchat: the group chat (its messages feed ``h`` and the suggestion; ``manual_selection_view`` the view).
        view: "classic" or "rich" (default: the group chat's ``manual_selection_view``, else "classic").
        allow_end: whether ``x`` ends the chat (a selection inside a chat) or is read as text.

    Raises:
        ChatEndedAtKeyboard: the person typed ``x``.
    """
    question = _Question(groupchat, agents, record, selection_view(groupchat) if view is None else view)
    commands = ("?", "h", "x") if allow_end else ("?", "h")
    prompt = RICH_PROMPT if question.view == "rich" else MANUAL_PROMPT
    out = question.out
    question.show_list()
    tries = asks = 0
    while True:
        if tries >= _MANUAL_TRIES - 1:
            emit(SelectSpeakerTryCountExceededEvent, out, try_count=tries + 1, agents=question.names)
            return None, f"{tries} invalid inputs"
        try:
            with asking_for_speaker(question.decision.to_data(prompt, question.view, commands)):
                typed = out.input(prompt)
        except EOFError:
            question.note("<EOF>", "none")
            return None, "the console input is closed (EOF)"
        except KeyboardInterrupt:
            question.note("<KeyboardInterrupt>", "none")
            return None, "the selection was interrupted (KeyboardInterrupt)"
        answer = read_answer(typed, agents, commands)
        if answer.kind == "auto":
            question.note(answer.text, "none")
            return None, "empty input" if answer.text == "" else "`q` entered"
        if answer.kind == "pick":
            question.note(answer.text, "selected")
            pick = question.pick
            pick.picked, pick.picked_by = answer.agent.name, answer.by
            pick.followed = None if pick.suggested is None else pick.suggested == pick.picked
            return answer.agent, ""
        if answer.kind == "end":
            question.note(answer.text, "none")
            question.pick.ended = True
            raise ChatEndedAtKeyboard()
        if answer.kind in ("help", "history") and asks < FREE_ASKS:
            asks += 1
            question.pick.commands.append(answer.text)
            if answer.kind == "help":
                emit_print(help_text(question.decision, commands), iostream=out)
            else:
                emit_print(history_text(question.decision.messages), iostream=out)
            continue
        tries += 1
        if answer.kind == "ambiguous":
            question.note(answer.text, "multiple")
            emit_print(ambiguous_text(answer.text, answer.matches), iostream=out)
        else:
            question.note(answer.text, "invalid")
            question.invalid(answer.text)


def ask_console_for_speaker(groupchat: Any, agents: list[Agent], record: SelectionRecord | None) -> Agent | None:
    """Show the numbered list of ``agents`` and read the choice from the console (``manual_select_speaker``).

    Invalid input re-prompts; on the third try, or on empty input, ``q``, EOF or Ctrl-C, returns None
    (the caller falls back). Names, ``?`` and ``h`` are understood; ``x`` is not a command here (no chat to end).

    Args:
        groupchat: the group chat asking (the menu lists ``agents`` only).
        agents: the candidates, numbered from 1 in this order.
        record: the selection record that receives each answer as an attempt (None: not recorded).
    """
    return console_choice(agents, record, groupchat, allow_end=False)[0]
