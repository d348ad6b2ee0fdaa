"""Checking answers to math problems (MATH-dataset style): find ``\\boxed{...}`` answers, normalise
their LaTeX, compare them, and vote among several responses.

The normalisation follows the MATH benchmark conventions (Hendrycks et al.): units, ``\\left``,
``\\right``, dollar and percent signs, degree marks and spaces are dropped; ``\\frac12``,
``\\sqrt3``, ``0.5`` and ``1/2`` are rewritten to one canonical form.
"""

from __future__ import annotations

from typing import Any, Optional

from .exception_utils import InvalidArgumentError, InvalidStateError
from .io.emit import emit_print

__all__ = [
    "DEFAULT_MODEL",
    "eval_math_responses",
    "get_answer",
    "is_equiv",
    "is_equiv_chain_of_thought",
    "last_boxed_only_string",
    "remove_boxed",
    "solve_problem",
    "voting_counts",
]

DEFAULT_MODEL = "gpt-4"

_MATH_PROMPT = (
    "{problem} Solve the problem carefully. Simplify your answer as much as possible. "
    "Put the final answer in \\boxed{{}}."
)

_BOXED_OPEN = "\\boxed{"


def solve_problem(problem: str, **config: Any) -> str:
    """Not available: it needs the legacy ``autogen.Completion`` API (``openai<1``).

    Ask a model yourself and pick the answer with ``eval_math_responses``::

        client = autogen.OpenAIWrapper(config_list=config_list)
        prompt = problem + " Solve the problem carefully. Simplify your answer as much as possible. "
                 "Put the final answer in \\\\boxed{}."
        response = client.create(messages=[{"role": "user", "content": prompt}], n=5)
        voted = eval_math_responses(client.extract_text_or_completion_object(response))["voted_answer"]

    Args:
        problem: the problem statement.
        **config: options for the model call.

    Raises:
        InvalidStateError: always (the classic function raised AssertionError on ``openai>=1`` too).
    """
    raise InvalidStateError(
        "(Deprecated) solve_problem needs the legacy autogen.Completion class, which requires openai<1 and is "
        "not provided. Ask a model with autogen.OpenAIWrapper(config_list=...).create(messages=[{'role': 'user', "
        f"'content': {_MATH_PROMPT.format(problem='<problem>')!r}}}]) or an AssistantAgent, then pick the answer "
        "with autogen.math_utils.eval_math_responses(responses)."
    )


def remove_boxed(string: str) -> Optional[str]:
    """The content of a ``\\boxed{...}`` string: ``remove_boxed("\\boxed{\\frac{2}{3}}") == "\\frac{2}{3}"``.

    Args:
        string: the whole boxed expression, e.g. from ``last_boxed_only_string``.

    Returns:
        The text between ``\\boxed{`` and the final ``}``; None if ``string`` is not of that form.
    """
    if not isinstance(string, str) or not string.startswith(_BOXED_OPEN) or not string.endswith("}"):
        return None
    return string[len(_BOXED_OPEN) : -1]


def last_boxed_only_string(string: str) -> Optional[str]:
    """The last ``\\boxed{...}`` (or, when there is none, ``\\fbox{...}``) of a text, braces balanced.

    Args:
        string: the text, e.g. a model's solution.

    Returns:
        The expression from ``\\boxed`` to its closing brace; None if there is none or it is not closed.
    """
    start = string.rfind("\\boxed")
    if start < 0:
        start = string.rfind("\\fbox")
        if start < 0:
            return None
    depth = 0
    for position in range(start, len(string)):
        char = string[position]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return string[start : position + 1]
    return None


def _fix_fracs(string: str) -> str:
    """``\\frac12`` -> ``\\frac{1}{2}``, ``\\frac1b`` -> ``\\frac{1}{b}``, ``\\frac1{72}`` -> ``\\frac{1}{72}``."""
    head, *pieces = string.split("\\frac")
    parts = [head]
    for piece in pieces:
        parts.append("\\frac")
        if piece[0] == "{":  # an empty piece ("\\frac" at the end) raises: the caller compares raw strings
            parts.append(piece)
            continue
        if len(piece) < 2:
            return string
        numerator, denominator, rest = piece[0], piece[1], piece[2:]
        if denominator == "{":
            parts.append("{" + numerator + "}" + denominator + rest)
        else:
            parts.append("{" + numerator + "}{" + denominator + "}" + rest)
    return "".join(parts)


def _fix_a_slash_b(string: str) -> str:
    """``2/3`` -> ``\\frac{2}{3}`` when both sides are plain integers."""
    sides = string.split("/")
    if len(sides) != 2:
        return string
    try:
        numerator, denominator = int(sides[0]), int(sides[1])
    except ValueError:
        return string
    if string != f"{numerator}/{denominator}":
        return string
    return "\\frac{" + str(numerator) + "}{" + str(denominator) + "}"


def _remove_right_units(string: str) -> str:
    """Drop a trailing unit written as ``\\text{ ...}``."""
    if "\\text{ " not in string:
        return string
    sides = string.split("\\text{ ")
    if len(sides) != 2:
        raise InvalidArgumentError(f"more than one unit in {string!r}")  # the caller then compares raw strings
    return sides[0]


def _fix_sqrt(string: str) -> str:
    """``\\sqrt3`` -> ``\\sqrt{3}``."""
    if "\\sqrt" not in string:
        return string
    head, *pieces = string.split("\\sqrt")
    parts = [head]
    for piece in pieces:
        if piece[0] == "{":  # an empty piece raises: the caller compares raw strings
            parts.append("\\sqrt" + piece)
        else:
            parts.append("\\sqrt{" + piece[0] + "}" + piece[1:])
    return "".join(parts)


# Plain replacements of the normalisation, in order; each pair is (old, new).
_FIRST_REPLACEMENTS = (
    ("\n", ""),
    ("\\!", ""),
    ("\\\\", "\\"),
    ("tfrac", "frac"),
    ("dfrac", "frac"),
    ("\\left", ""),
    ("\\right", ""),
    ("^{\\circ}", ""),
    ("^\\circ", ""),
    ("\\$", ""),
)
_AFTER_UNITS_REPLACEMENTS = (("\\%", ""), ("%", ""), (" .", " 0."), ("{.", "{0."))


def _strip_string(string: str) -> str:
    """Normalise a LaTeX answer so equal answers written differently compare equal."""
    for old, new in _FIRST_REPLACEMENTS:
        string = string.replace(old, new)
    string = _remove_right_units(string)
    for old, new in _AFTER_UNITS_REPLACEMENTS:
        string = string.replace(old, new)
    if not string:
        return string
    if string.startswith("."):
        string = "0" + string
    # "k = 5" -> "5": a short left-hand side is a variable name.
    sides = string.split("=")
    if len(sides) == 2 and len(sides[0]) <= 2:
        string = sides[1]
    string = _fix_sqrt(string)
    string = string.replace(" ", "")
    string = _fix_fracs(string)
    if string == "0.5":
        string = "\\frac{1}{2}"
    return _fix_a_slash_b(string)


def get_answer(solution: Optional[str]) -> Optional[str]:
    """The content of the last ``\\boxed{...}`` of a solution, or None.

    Args:
        solution: the solution text.
    """
    if solution is None:
        return None
    boxed = last_boxed_only_string(solution)
    if boxed is None:
        return None
    return remove_boxed(boxed)


def is_equiv(str1: Optional[str], str2: Optional[str]) -> float:
    """1.0 if two math answers are the same up to formatting (units, fractions, roots, LaTeX), else 0.0.

    Two None answers count as equal (a warning is printed); one None answer as different.

    Args:
        str1: an answer.
        str2: the other answer.
    """
    if str1 is None and str2 is None:
        emit_print("WARNING: Both None")
        return 1.0
    if str1 is None or str2 is None:
        return 0.0
    try:
        return float(_strip_string(str1) == _strip_string(str2))
    except Exception:  # noqa: BLE001 - answers the normaliser cannot parse are compared as written
        return float(str1 == str2)


def is_equiv_chain_of_thought(str1: str, str2: str) -> float:
    """``is_equiv`` of the boxed answers of two solutions.

    Args:
        str1: a solution.
        str2: the other solution.
    """
    return is_equiv(get_answer(str1), get_answer(str2))


def voting_counts(responses: list[str]) -> dict[int, int]:
    """Group equivalent answers: ``{index of the first response with that answer: number of responses}``.

    Responses without a boxed answer are not counted.

    Args:
        responses: the solutions.
    """
    counts: dict[int, int] = {}
    for index, response in enumerate(responses):
        if get_answer(response) is None:
            continue
        group = next((first for first in counts if is_equiv_chain_of_thought(response, responses[first])), index)
        counts[group] = counts.get(group, 0) + 1
    return counts


def eval_math_responses(responses: list[str], solution: Optional[str] = None, **args: Any) -> dict[str, Any]:
    """Pick a response by majority vote and, given the solution, score the responses.

    Args:
        responses: the solutions to choose from.
        solution: the reference solution (with a boxed answer), if known.
        **args: ignored.

    Returns:
        ``{"expected_success": 1 - (1 - share of correct responses) ** n, "success": any correct,
        "success_vote": whether the voted response is correct (1.0/0.0), "voted_answer": the voted
        response, "votes": its number of votes}``.
    """
    n = len(responses)
    if not n:
        return {"expected_success": 0, "success": False, "success_vote": 0, "voted_answer": None, "votes": 0}
    correct = [is_equiv_chain_of_thought(response, solution) for response in responses] if solution is not None else []
    counts = voting_counts(responses)
    voted, votes = max(counts.items(), key=lambda item: item[1], default=(0, 0))
    return {
        "expected_success": 1 - pow(1 - sum(correct) / n, n),
        "success": any(correct),
        "success_vote": is_equiv_chain_of_thought(responses[voted], solution),  # type: ignore[arg-type]
        "voted_answer": responses[voted],
        "votes": votes,
    }
