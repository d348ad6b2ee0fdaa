"""The first-turn rule: on a new task, pick the candidate whose description says it engages first.

Teams often write their protocol into the descriptions: "starts every task", "plans the work first", "the
first to respond to a new request". When the conversation is at a new task, such a description settles
the next speaker whatever the task's own words suggest (a task to "write a script" mentions the coder's
work, yet the planner goes first). The rule answers only when exactly one candidate carries such a cue,
and never when the cue's agent wrote the new task itself (it has already engaged).

A conversation is at a new task when it holds only its opening message, or when the latest message
announces one ("New task: ...", "Here is a new project for you", "Another request: ...").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ....coding.utils import content_str
from ...agent import Agent
from .negation import negated_scopes

__all__ = ["first_turn_agent", "first_turn_cue", "is_new_task", "opens_new_task"]

# A unit of work a team receives.
_WORK = (
    r"(?:tasks?|requests?|jobs?|assignments?|projects?|tickets?|problems?|questions?|challenges?|cases?|orders?"
    r"|missions?|briefs?|issues?|enquir(?:y|ies)|inquir(?:y|ies)|bookings?)"
)
# Cues in a description that its agent engages first on a new task (matched on the lowercased text).
_FIRST_CUES = (
    # "the first to respond", "always the first to pick up a new challenge"
    re.compile(r"\bfirst (?:one |agent |member |person )?to [a-z]+"),
    # "first point of contact", "first responder", "first port of call"
    re.compile(r"\bfirst (?:point of contact|contact|responder|port of call|line)\b"),
    # "starts every task", "takes on each new project", "receives all incoming requests"
    re.compile(
        r"\b(?:starts?|begins?|opens?|kicks? off|initiates?|takes?(?: on| up)?|picks? up|receives?|triages?"
        r"|fields?|greets?|screens?|welcomes?)\b(?: [a-z']+){0,2}? (?:every|each|all|any|incoming|new)"
        rf"(?: new| incoming)? (?:[a-z]+ )?{_WORK}\b"
    ),
    # "plans the work first", "goes first", "meets the couple first whenever ..." (not "the first draft")
    re.compile(
        r"\b(?<!the )(?<!a )(?<!at )(?<!its )(?<!their )first\b"
        r"(?=\s*(?:$|[.,;:!?)]|(?:on|for|when|whenever|in|before|with|after|of all|then|and|if|as|once)\b))"
    ),
    # "before anyone else", "before any other member"
    re.compile(r"\bbefore (?:anyone|anybody|everyone|the others|any other (?:agent|member)s?)(?: else)?\b"),
)
# A latest message that announces a new task: a work noun after "new"/"next"/"another"..., opening a
# sentence or after "a"/"here is a"/"I have a"; the noun must end its phrase ("new task runner" does not count).
_NEW_TASK = re.compile(
    r"(?:^|[.!?]\s+|\b(?:a|an|one|here is a|here's a|i have a|we have a|there is a|got a)\s+)"
    r"(?:new|next|another|fresh|different|one more)\s+(?:[a-z'-]+\s+){0,2}?" + _WORK +
    r"(?=\s*(?:$|[:,.;!?\u2014-]|\b(?:for|from|to|about|on|in|is|came|just|has|arrived|here|that)\b))"
)


def first_turn_cue(description: str) -> str | None:
    """Return the phrase of ``description`` that says its agent engages first on a new task, or None.

    A cue under a negation ("never starts a task", "is not the first to answer") does not count.
    """
    text = " ".join(description.lower().replace("\u2019", "'").split())
    scopes = negated_scopes(text)
    for pattern in _FIRST_CUES:
        for match in pattern.finditer(text):
            if not any(scope.start <= match.start() < scope.end for scope in scopes):
                return match.group().strip()
    return None


def opens_new_task(message: dict[str, Any] | None) -> bool:
    """Whether ``message`` announces a new task ("New task: ...", "Here is a new project for you")."""
    if not message:
        return False
    text = " ".join(content_str(message.get("content")).lower().replace("\u2019", "'").split())
    return _NEW_TASK.search(text) is not None


def is_new_task(message: dict[str, Any] | None, history: Sequence[dict[str, Any]] | None = None) -> bool:
    """Whether the conversation is at a new task.

    Args:
        message: the latest group message.
        history: the group's messages (``message`` last), when known. A history of one message is a chat
            that holds only its opening task.
    """
    if not message:
        return False
    return (history is not None and len(history) == 1) or opens_new_task(message)


def _description(agent: Agent) -> str:
    return agent.description if isinstance(agent.description, str) else ""


def first_turn_agent(
    message: dict[str, Any] | None, agents: list[Agent], history: Sequence[dict[str, Any]] | None = None
) -> Agent | None:
    """Return the candidate that engages first on the new task ``message`` brings, or None.

    None (the rule abstains) when the conversation is not at a new task (see :func:`is_new_task`), when
    no candidate's description or several carry a first-turn cue (see :func:`first_turn_cue`), or when
    the message's author carries one (it opened the task, so it has taken the first turn).

    Args:
        message: the latest group message.
        agents: the eligible candidates (the author may be among them).
        history: the group's messages (``message`` last), when known.
    """
    if not is_new_task(message, history):
        return None
    assert message is not None  # is_new_task is False without a message
    openers = [agent for agent in agents if first_turn_cue(_description(agent)) is not None]
    if len(openers) != 1 or openers[0].name == message.get("name"):
        return None
    return openers[0]
