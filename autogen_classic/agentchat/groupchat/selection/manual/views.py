"""The texts of manual selection beyond the classic list: help (``?``), recent messages (``h``), the rich view.

The rich view keeps the classic numbered list (and its event) and adds the candidates' descriptions, the
exclusions and the suggestion under it.

Pure functions from a :class:`~.decision.ManualDecision` to text; the prompt sends the text as events.
"""

from __future__ import annotations

from typing import Any

from .....coding.utils import content_str
from .decision import ManualDecision, description_of

__all__ = [
    "HISTORY_COUNT", "RICH_PROMPT", "VIEWS", "ambiguous_text", "help_text", "history_text", "rich_details_text",
    "rich_invalid_text",
]

VIEWS = ("classic", "rich")
# The prompt of the rich view; the classic view keeps the classic prompt.
RICH_PROMPT = "Next speaker (number or name; Enter or q = auto, ? = help, h = recent messages, x = end the chat): "
HISTORY_COUNT = 5  # how many messages ``h`` shows
_CLIP = 240
_ANSWERS = ("Type a number or a name (any letter case, or the start of one). Enter or q: automatic selection. "
            "?: this help. h: the recent messages. x: end the chat.")


def _clip(text: str, limit: int = _CLIP) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _candidate_line(number: int, agent: Any, decision: ManualDecision) -> str:
    description = description_of(agent)
    line = f"{number}: {agent.name}" + (f" - {_clip(description, 120)}" if description else "")
    if decision.suggestion is not None and decision.suggestion.name == agent.name:
        line += "  <- suggested"
    return line


def _suggestion_line(decision: ManualDecision) -> str:
    found = decision.suggestion
    if found is None:
        return "Suggestion: none (no rule settles it without a model; Enter leaves it to automatic selection)."
    return f"Suggestion: {found.name}, because {found.reason}."


def _exclusion_lines(decision: ManualDecision) -> list[str]:
    if not decision.exclusions:
        return ["Not eligible: nobody (the rules allow every agent of the group)."]
    return ["Not eligible:"] + [f"  {e.name}: {e.why}" for e in decision.exclusions]


def help_text(decision: ManualDecision, commands: tuple[str, ...] = ("?", "h", "x")) -> str:
    """The answer to ``?``: the candidates the rules allow, who was excluded and why, the suggestion, the answers."""
    after = f" after {decision.last_speaker}" if decision.last_speaker else ""
    lines = [f"Candidates{after}:"]
    lines += [f"  {_candidate_line(n, a, decision)}" for n, a in enumerate(decision.candidates, start=1)]
    lines += _exclusion_lines(decision)
    lines.append(_suggestion_line(decision))
    answers = _ANSWERS if "x" in commands else _ANSWERS.replace(" x: end the chat.", "")
    lines.append(answers)
    return "\n".join(lines)


def history_text(messages: list[dict[str, Any]], count: int = HISTORY_COUNT) -> str:
    """The answer to ``h``: the last ``count`` messages of the group, one clipped line each."""
    if not messages:
        return "No messages yet."
    shown = messages[-count:]
    first = len(messages) - len(shown)
    lines = [f"The last {len(shown)} of {len(messages)} messages:"]
    for index, message in enumerate(shown, start=first + 1):
        who = message.get("name") or message.get("role") or "?"
        text = content_str(message.get("content")) if message.get("content") is not None else ""
        if not text and (message.get("tool_calls") or message.get("function_call")):
            text = "(suggests a function call)"
        lines.append(f"  [{index}] {who}: {_clip(text)}")
    return "\n".join(lines)


def rich_details_text(decision: ManualDecision) -> str:
    """What the rich view adds under the classic numbered list: who the candidates are, who may not speak and
    why, and the suggestion."""
    lines = ["Who they are:"]
    lines += [f"  {_candidate_line(n, a, decision)}" for n, a in enumerate(decision.candidates, start=1)]
    if decision.exclusions:
        lines += _exclusion_lines(decision)
    lines.append(_suggestion_line(decision))
    return "\n".join(lines)


def ambiguous_text(text: str, matches: tuple[Any, ...]) -> str:
    """What an ambiguous start of a name answers."""
    names = ", ".join(agent.name for agent in matches)
    return f"{text!r} matches several candidates: {names}. Type more of the name, or its number."


def rich_invalid_text(text: str, count: int) -> str:
    """What the rich view answers to text that matches no candidate."""
    return f"No candidate matches {text!r}. Type a number between 1 and {count} or a name (? for help)."
