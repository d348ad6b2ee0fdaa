"""The role-match rule: pick the candidate whose description the latest message asks for, without a model.

A hand-off often names the work rather than the worker ("the script needs to be executed", "these notes
are ready to be turned into a draft"). A very small model reads such a message barely better than chance,
while the words it shares with one candidate's description often settle it. The rule scores each
candidate by the distinctive words (stemmed, stop words dropped, words that every candidate's
description uses weighted down) the message shares with the candidate's name and description, and
answers only when one candidate leads the runner-up by a clear margin; otherwise the model decides.
"""

from __future__ import annotations

import math
import re
import threading
from typing import Any

from ....coding.utils import content_str
from ...agent import Agent

__all__ = ["ROLE_MATCH_MARGIN", "role_match_scores", "role_matched_agent"]

# How far the best candidate must lead the runner-up (in summed word weights: one distinctive shared
# word is worth about 1.1-1.8) before the rule answers without the model.
ROLE_MATCH_MARGIN = 0.5

_STOP_WORDS = frozenset(
    """a about after all also an and any are as at be been before but by can could did do does done each
    for from has have he her here his how i if in into is it its just me my no not now of on only or our
    out please she so some than that the their them then there they this to up was we were what when where
    which who will with would you your""".split()
)
_WORD = re.compile(r"[a-z]+")
# Snowball's English (Porter2) stemmer maps "decide"/"decides"/"decided" and "executes"/"executed" to one
# form. A stemmer object keeps its state between calls, so threads take turns. The package loads every
# language it knows (about 1 MiB), so it is imported on the first use of the rule, not with this module.
_STEMMER_LOCK = threading.Lock()
_STEMMERS: list[Any] = []


def _terms(text: str) -> set[str]:
    words = [w for w in _WORD.findall(text.lower()) if len(w) > 2 and w not in _STOP_WORDS]
    with _STEMMER_LOCK:
        if not _STEMMERS:
            import snowballstemmer

            _STEMMERS.append(snowballstemmer.stemmer("english"))
        return set(_STEMMERS[0].stemWords(words))


def _role_text(agent: Agent) -> str:
    description = agent.description if isinstance(agent.description, str) else ""
    return f"{agent.name.replace('_', ' ')} {description}"


def role_match_scores(message: dict[str, Any] | None, agents: list[Agent]) -> dict[str, float]:
    """Score each candidate by the words ``message`` shares with its name and description.

    A shared word weighs ``log(1 + n / k)`` for ``n`` candidates of which ``k`` use it, so words that
    set a candidate apart count most. Returns ``{name: score}``; all zero when nothing is shared.
    """
    text = content_str(message.get("content")) if message else ""
    asked = _terms(text)
    roles = {agent.name: _terms(_role_text(agent)) for agent in agents}
    frequency: dict[str, int] = {}
    for terms in roles.values():
        for term in terms:
            frequency[term] = frequency.get(term, 0) + 1
    count = len(agents)
    return {
        name: sum(math.log(1 + count / frequency[term]) for term in asked & terms)
        for name, terms in roles.items()
    }


def role_matched_agent(
    message: dict[str, Any] | None, agents: list[Agent], margin: float = ROLE_MATCH_MARGIN
) -> Agent | None:
    """Return the candidate ``message`` clearly asks for by its role, or None when no one clearly leads.

    The message's author is not a candidate here (a speaker's own words echo its own role). When one
    other candidate remains, it is chosen when its score alone exceeds the margin.

    Args:
        message: the latest group message (its ``content`` is read).
        agents: the eligible candidates.
        margin: how far the best score must exceed the runner-up's (see ``role_match_scores``).
    """
    # The author's own words echo the author's role; the rule looks for the one they hand over to.
    author = message.get("name") if message else None
    others = [agent for agent in agents if agent.name != author]
    if not others:
        return None
    scores = role_match_scores(message, others)
    ranked = sorted(others, key=lambda agent: scores[agent.name], reverse=True)
    best = scores[ranked[0].name]
    runner_up = scores[ranked[1].name] if len(ranked) > 1 else 0.0
    return ranked[0] if best - runner_up > margin else None
