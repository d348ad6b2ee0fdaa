"""The "manual" speaker-selection method: the person at the keyboard picks the next speaker.

The classic numbered list and prompt by default; names, ``?`` (help), ``h`` (recent messages) and ``x`` (end the
chat) besides, and a rich view that shows the candidates with their descriptions and a zero-call suggestion.
Modules: ``prompt`` (the question and its tries), ``answers`` (what a typed line means), ``decision`` (the
candidates, the exclusions and the suggestion) and ``views`` (the texts shown).
"""

from .answers import Answer, read_answer
from .decision import Exclusion, ManualDecision, Suggestion, build_decision
from .prompt import (
    ENDED_AT_KEYBOARD,
    FREE_ASKS,
    MANUAL_PROMPT,
    ChatEndedAtKeyboard,
    ask_console_for_speaker,
    console_choice,
    selection_view,
)
from .views import RICH_PROMPT

__all__ = [
    "Answer", "ChatEndedAtKeyboard", "ENDED_AT_KEYBOARD", "Exclusion", "FREE_ASKS", "MANUAL_PROMPT", "ManualDecision",
    "RICH_PROMPT", "Suggestion", "ask_console_for_speaker", "build_decision", "console_choice", "read_answer",
    "selection_view",
]
