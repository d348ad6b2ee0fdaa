"""The role-match rule: pick the candidate whose description the latest message asks for, without a model.

A hand-off often names the work rather than the worker ("the script needs to be executed", "these notes
are ready to be turned into a draft"). A very small model reads such a message barely better than chance,
while the words it shares with one candidate's description often settle it. The rule scores each
candidate by the distinctive words (stemmed, stop words dropped, words that every candidate's
description uses weighted down) the message shares with the candidate's name and description, and
answers only when one candidate leads the runner-up by a clear margin; otherwise the model decides.

Two readings refine the words (see ``negation`` and ``first_turn``):

- A word under a negation does not ask for a role: in "nobody has planned anything yet" or "the wiring is
  not the problem" the negated words count for no one. When the negation reports work not done yet
  ("nobody has *planned*", "hasn't been *reviewed*", "no *samples* yet"), that work counts instead for the
  candidates who do it: those whose name is the doer of it (planner, reviewer) or whose description
  leads with it as a verb ("Plans the menu", "Reviews plans"), not those who merely mention it.
- On a new task, the one candidate whose description says it engages first ("starts every task")
  is chosen before any word is weighed.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Iterable, Sequence
from typing import Any

from ....coding.utils import content_str
from ...agent import Agent
from .first_turn import first_turn_agent
from .negation import IRREGULAR_PARTICIPLES, read_negation

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


_CLAUSE = re.compile(r"[.;:!?\u2014]")
# Words after which a verb ending in "-s" takes its object: "... and *signs* the risk forms".
_OBJECT_OPENERS = frozenset(
    "the a an each every all any its their his her them it what whatever which whether how that new final off "
    "up out".split()
)
_LINKS = frozenset({"and", "or", "then", ","})
_AGENT_SUFFIXES = ("er", "or")


def _stems(words: Iterable[str]) -> set[str]:
    kept = [w for w in words if len(w) > 2 and w not in _STOP_WORDS]
    with _STEMMER_LOCK:
        if not _STEMMERS:
            import snowballstemmer

            _STEMMERS.append(snowballstemmer.stemmer("english"))
        return set(_STEMMERS[0].stemWords(kept))


def _terms(text: str) -> set[str]:
    return _stems(_WORD.findall(text.lower()))


def _description(agent: Agent) -> str:
    return agent.description if isinstance(agent.description, str) else ""


def _role_text(agent: Agent) -> str:
    return f"{agent.name.replace('_', ' ')} {_description(agent)}"


def _name_roots(name: str) -> list[str]:
    """The work an agent's name says it does: "planner" -> "plan", "coder" -> "code", "editor" -> "edit"."""
    roots = []
    for word in name.lower().replace("-", "_").split("_"):
        roots.append(word)
        if len(word) > 4 and word.endswith(_AGENT_SUFFIXES):
            base = word[:-2]
            roots += [base, word[:-1]]  # "edit(or)", "code(r)"
            if len(base) > 2 and base[-1] == base[-2]:
                roots.append(base[:-1])  # "plann(er)" -> "plan"
    return roots


def _description_verbs(description: str) -> list[str]:
    """The verbs a description leads its clauses with ("*Writes* and *fixes* the code, *signs* the forms")."""
    verbs = []
    for clause in _CLAUSE.split(description.lower()):
        words = re.findall(r"[a-z]+|,", clause)
        if not words or words[0] == ",":
            continue
        verbs.append(words[0])
        chained = True  # "Trains, evaluates and deploys models": the leading verb's coordinated verbs
        for index in range(1, len(words)):
            word, previous = words[index], words[index - 1]
            following = words[index + 1] if index + 1 < len(words) else ""
            if word in _LINKS:
                continue
            is_verb_shape = word.endswith("s") and previous in _LINKS
            if chained and is_verb_shape:
                verbs.append(word)
                continue
            chained = False
            if is_verb_shape and following in _OBJECT_OPENERS:
                verbs.append(word)
    return verbs


def _work_terms(agent: Agent) -> set[str]:
    """The stems of the work ``agent`` does itself (its name's root and its description's leading verbs)."""
    return _stems([*_name_roots(agent.name), *_description_verbs(_description(agent))])


def role_match_scores(message: dict[str, Any] | None, agents: list[Agent]) -> dict[str, float]:
    """Score each candidate by the words ``message`` shares with its name and description.

    A shared word weighs ``log(1 + n / k)`` for ``n`` candidates of which ``k`` use it, so words that
    set a candidate apart count most. Words under a negation count for no one, except work the negation
    reports as not done yet ("nobody has planned"): it counts for the ``k`` candidates who do that work
    (see the module docstring), with the same weight. Returns ``{name: score}``; all zero when nothing is
    shared.
    """
    reading = read_negation(content_str(message.get("content")) if message else "")
    asked = _stems(reading.plain)
    missing = _stems(IRREGULAR_PARTICIPLES.get(word, word) for word in reading.missing) - asked
    roles = {agent.name: _terms(_role_text(agent)) for agent in agents}
    doers = {agent.name: _work_terms(agent) for agent in agents} if missing else {}
    count = len(agents)
    return {
        name: _weight(asked, terms, roles) + (_weight(missing, doers[name], doers) if missing else 0.0)
        for name, terms in roles.items()
    }


def _weight(words: set[str], terms: set[str], every: dict[str, set[str]]) -> float:
    """The summed ``log(1 + n / k)`` of the ``words`` in ``terms``, ``k`` counted over ``every`` candidate."""
    shared = words & terms
    if not shared:
        return 0.0
    count = len(every)
    return sum(math.log(1 + count / sum(term in other for other in every.values())) for term in shared)


def role_matched_agent(
    message: dict[str, Any] | None,
    agents: list[Agent],
    margin: float = ROLE_MATCH_MARGIN,
    *,
    history: Sequence[dict[str, Any]] | None = None,
    first_turn: bool = True,
) -> Agent | None:
    """Return the candidate ``message`` clearly asks for by its role, or None when no one clearly leads.

    The message's author is not a candidate here (a speaker's own words echo its own role). When one
    other candidate remains, it is chosen when its score alone exceeds the margin. On a new task the
    first-turn rule comes first (see ``first_turn.first_turn_agent``).

    Args:
        message: the latest group message (its ``content`` is read).
        agents: the eligible candidates.
        margin: how far the best score must exceed the runner-up's (see ``role_match_scores``).
        history: the group's messages (``message`` last), when known: a chat that holds only its opening
            message is at a new task. Without it, only a message announcing a new task ("New task: ...") is.
        first_turn: whether to apply the first-turn rule (off when the caller applies it itself).
    """
    # The author's own words echo the author's role; the rule looks for the one they hand over to.
    author = message.get("name") if message else None
    others = [agent for agent in agents if agent.name != author]
    if not others:
        return None
    if first_turn:
        opener = first_turn_agent(message, agents, history)
        if opener is not None:
            return opener
    scores = role_match_scores(message, others)
    ranked = sorted(others, key=lambda agent: scores[agent.name], reverse=True)
    best = scores[ranked[0].name]
    runner_up = scores[ranked[1].name] if len(ranked) > 1 else 0.0
    return ranked[0] if best - runner_up > margin else None
