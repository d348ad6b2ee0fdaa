"""Negation scope in short English messages: which words a negation covers, and whether it reports missing work.

A hand-off often names work under a negation: "nobody has planned anything yet", "the code hasn't been
reviewed", "there is no text to proofread". Such a word is not a request for the role whose description
merely mentions it (the critic "reviews plans"), and when the negation reports work that has not
happened yet it points at whoever does that work.

The reading is rule-based and deliberately narrow:

- a negation word ("no", "not", "-n't", "never", "nobody", "nothing", "none", "without", ...) covers the
  words after it up to the end of its clause (punctuation, or a word such as "but", "so", "because",
  "until", or "and"/"or" opening a new clause), at most ``SCOPE_LIMIT`` words;
- "X is not the problem" (a negated copula before a noun phrase) also covers its subject X;
- fixed phrases that are not negations ("don't forget to", "not only", "not sure whether", "no later
  than") cover nothing;
- a scope reports missing work when it says "yet", follows "still", or is a negated perfect ("has not
  been reviewed", "nobody has planned", "no samples have been prepared").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["IRREGULAR_PARTICIPLES", "SCOPE_LIMIT", "NegatedScope", "NegationReading", "negated_scopes", "read_negation"]

# How many words a negation covers at most when no clause boundary comes first.
SCOPE_LIMIT = 10

# Words that negate what follows them. "n't" is split off its verb by the tokenizer.
_CUES = frozenset("no not n't never nobody nothing none neither nor nowhere without noone cannot".split())
# Cues whose words themselves are not content (never counted as plain words).
_FILLER = _CUES | {"one"}
# Words that say the work named in the scope has not happened (yet).
_MISSING_CUES = frozenset({"missing", "lacks", "lacking", "lack", "absent"})
_PERFECT = frozenset({"has", "have", "had", "'ve"})
# Words that end a clause, and so a scope.
_STOPS = frozenset(
    "but however although though so because since while whereas which who whom whose until unless except "
    "instead then therefore otherwise".split()
)
# "and"/"or" end a scope when a new clause follows them: a pronoun subject ("no plan and we are idle"), or a
# noun phrase with a verb right after it ("no plan and the coder is idle", but not "no price or the deadline").
_SUBJECTS = frozenset("it we i you he she they someone somebody everyone anyone there".split())
_NOUN_OPENERS = frozenset("the a an this that these those our my your their his her its".split())
_VERBS = frozenset(
    "is are was were has have had 's 're 've will would can could must should shall may might needs need "
    "does do did keeps".split()
)
_COPULAS = frozenset({"is", "are", "was", "were", "'s", "'re", "be", "been"})
_DETERMINERS = frozenset("the a an my our your their his her its what any".split())
# Fixed phrases that contain a negation word but negate nothing (matched on the words from the cue on).
_NOT_NEGATIONS = (
    ("n't", "forget"), ("not", "forget"), ("never", "forget"), ("n't", "hesitate"), ("not", "hesitate"),
    ("not", "only"), ("not", "just"), ("no", "doubt"), ("no", "matter"), ("nothing", "but"),
    ("no", "later"), ("not", "later"), ("not", "sure"), ("not", "certain"), ("no", "idea"),
    ("without", "fail"), ("without", "delay"), ("not", "least"),
)
# Words after which a noun phrase names the missing thing ("no plan", "missing tests", "don't have a plan").
_NOMINAL_CUES = frozenset({"no", "none", "without", "missing", "lacks", "lacking", "lack"})
_POSSESSION = frozenset({"have", "has", "had", "got", "get", "see"})
_PHRASE_SKIP = frozenset("a an the any single one our my your their its this that these those".split())
_PHRASE_ENDS = frozenset(
    "of for to in on at by with from about into under over after before between through during against per "
    "yet is are was were be been being has have had 's 're 've will would can could must should shall may "
    "might do does did anything anyone anybody something someone".split()
)
# Past participles that do not end in "-ed" ("no code has been *written*"), with their base forms.
IRREGULAR_PARTICIPLES: dict[str, str] = dict(
    pair.split(":")
    for pair in """written:write done:do made:make built:build drawn:draw chosen:choose taken:take given:give
    sent:send run:run begun:begin spoken:speak broken:break found:find bought:buy paid:pay sold:sell told:tell
    thought:think brought:bring taught:teach caught:catch kept:keep left:leave read:read led:lead set:set
    put:put cut:cut shown:show seen:see known:know grown:grow driven:drive eaten:eat hidden:hide proven:prove
    fed:feed met:meet held:hold won:win sung:sing drunk:drink shot:shoot got:get gotten:get frozen:freeze
    thrown:throw understood:understand rewritten:rewrite redone:redo rebuilt:rebuild""".split()
)
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?|[.,;:!?()\[\]\"]|--|\u2014|\u2013")
_CONTRACTIONS = {"can't": ("can", "n't"), "won't": ("will", "n't"), "shan't": ("shall", "n't")}


@dataclass(frozen=True)
class _Token:
    text: str
    start: int
    end: int

    @property
    def boundary(self) -> bool:
        return not self.text[0].isalnum() and not self.text.startswith("'")


@dataclass(frozen=True)
class NegatedScope:
    """The words one negation covers: character offsets ``[start, end)`` of the text, and what it says.

    Args:
        start: the offset of the first covered word.
        end: the offset just after the last covered word.
        missing: the ``(start, end)`` offsets of the words naming work the negation reports as not done
            yet ("*planned*" in "nobody has planned anything yet"); empty when it only denies.
    """

    start: int
    end: int
    missing: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class NegationReading:
    """The content words of a text, sorted by negation (lowercase, in text order, repeats kept).

    Args:
        plain: the words no negation covers.
        negated: the words a negation covers.
        missing: the covered words that name work reported as not done yet (a subset of ``negated``).
    """

    plain: tuple[str, ...]
    negated: tuple[str, ...]
    missing: tuple[str, ...]


def _tokens(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    for match in _WORD.finditer(text.lower().replace("\u2019", "'")):
        word, start, end = match.group(), match.start(), match.end()
        if word in _CONTRACTIONS:
            first, second = _CONTRACTIONS[word]
            tokens += [_Token(first, start, end - 3), _Token(second, end - 3, end)]
        elif word.endswith("n't"):
            tokens += [_Token(word[:-3], start, end - 3), _Token("n't", end - 3, end)]
        elif "'" in word and word.split("'", 1)[1] in {"s", "re", "ve", "ll", "d", "m"}:
            head, tail = word.split("'", 1)
            tokens += [_Token(head, start, start + len(head)), _Token("'" + tail, start + len(head), end)]
        else:
            tokens.append(_Token(word, start, end))
    return tokens


def _ends_scope(tokens: list[_Token], index: int) -> bool:
    token = tokens[index]
    if token.boundary or token.text in _STOPS:
        return True
    if token.text not in {"and", "or"}:
        return False
    following = [t.text for t in tokens[index + 1: index + 5]]
    if following[:1] and following[0] in _SUBJECTS:
        return True
    return bool(following[:1]) and following[0] in _NOUN_OPENERS and any(w in _VERBS for w in following[1:])


def _is_cue(tokens: list[_Token], index: int) -> bool:
    word = tokens[index].text
    if word not in _CUES and word not in _MISSING_CUES:
        return False
    following = tokens[index + 1].text if index + 1 < len(tokens) else ""
    if (word, following) in _NOT_NEGATIONS:
        return False
    # "do not forget": the verb may sit between the cue and "forget" only as "do"/"you".
    after_next = tokens[index + 2].text if index + 2 < len(tokens) else ""
    return not (following in {"you", "ever"} and (word, after_next) in _NOT_NEGATIONS)


def _reports_missing(tokens: list[_Token], cue: int, last: int) -> bool:
    words = [t.text for t in tokens[cue: last + 1]]
    before = [t.text for t in tokens[max(0, cue - 2): cue]]
    if tokens[cue].text in _MISSING_CUES or "yet" in words or "still" in before:
        return True
    # A negated perfect: "hasn't been", "has never", "nobody has", "no samples have been" (but "has no
    # complaint" is a possession, not a perfect).
    perfect_before = bool(before[-1:]) and before[-1] in _PERFECT and words[0] in {"not", "n't", "never"}
    return perfect_before or any(w in _PERFECT for w in words[1:])


def _subject_start(tokens: list[_Token], copula: int) -> int:
    start = copula
    while start > 0 and not _ends_scope(tokens, start - 1) and tokens[start - 1].text not in {"and", "or"}:
        start -= 1
    return start


def _is_participle(word: str) -> bool:
    return (len(word) > 4 and word.endswith("ed")) or word in IRREGULAR_PARTICIPLES


def _missing_work(tokens: list[_Token], cue: int, last: int) -> list[int]:
    """The indexes of the words that name the missing work in the scope ``cue..last``.

    The work is what the negation says has not been done: the participles ("nobody has *planned*", "hasn't
    been *reviewed*") and the noun phrase a "no"/"missing"/"have" introduces ("no *samples* yet", "we don't
    have a *plan* yet"). Other words of the scope (the object in "nobody has tested *the build*") name
    things that exist and are not counted as missing.
    """
    found: list[int] = []
    opens_phrase = tokens[cue].text in _NOMINAL_CUES
    for index in range(cue + 1, last + 1):
        word = tokens[index].text
        if opens_phrase:
            if word in _PHRASE_SKIP:
                continue
            if word in _PHRASE_ENDS or _is_participle(word):
                opens_phrase = False
            else:
                found.append(index)
                continue
        if _is_participle(word):
            found.append(index)
        elif word in _POSSESSION:
            opens_phrase = True
    return found


def _scope_of(tokens: list[_Token], index: int) -> tuple[int, int]:
    last = index
    while last + 1 < len(tokens) and last - index < SCOPE_LIMIT and not _ends_scope(tokens, last + 1):
        last += 1
    first = index + 1
    # "The wiring is not the problem": a negated copula before a noun phrase denies its subject too.
    copula = index - 1
    following = tokens[index + 1].text if index + 1 < len(tokens) else ""
    if copula >= 0 and tokens[copula].text in _COPULAS and (following in _DETERMINERS or tokens[index].text == "no"):
        first = _subject_start(tokens, copula)
    return first, last


def negated_scopes(text: str) -> list[NegatedScope]:
    """Return the scopes of the negations in ``text``, in text order (empty when nothing is negated)."""
    tokens = _tokens(text)
    scopes: list[NegatedScope] = []
    for index in range(len(tokens)):
        if not _is_cue(tokens, index):
            continue
        first, last = _scope_of(tokens, index)
        if first > last:
            continue
        work = _missing_work(tokens, index, last) if _reports_missing(tokens, index, last) else []
        spans = tuple((tokens[i].start, tokens[i].end) for i in work)
        scopes.append(NegatedScope(tokens[first].start, tokens[last].end, spans))
    return scopes


def read_negation(text: str) -> NegationReading:
    """Sort the words of ``text`` into plain, negated and missing (see :class:`NegationReading`).

    The negation words themselves ("no", "nobody", "n't") and punctuation are left out.
    """
    scopes = negated_scopes(text)
    missing_at = {span[0] for scope in scopes for span in scope.missing}
    plain: list[str] = []
    negated: list[str] = []
    missing: list[str] = []
    for token in _tokens(text):
        if token.boundary or token.text in _FILLER or token.text.startswith("'"):
            continue
        if not any(s.start <= token.start < s.end for s in scopes):
            plain.append(token.text)
            continue
        negated.append(token.text)
        if token.start in missing_at:
            missing.append(token.text)
    return NegationReading(tuple(plain), tuple(negated), tuple(missing))
