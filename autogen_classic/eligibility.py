"""Eligibility policies: rules that narrow the candidates before a group chat picks a speaker.

A policy is any object with ``is_eligible(agent, ctx) -> bool``. A group chat applies all of
its ``eligibility_policies`` with AND semantics: an agent stays a candidate only if every
policy accepts it. :func:`apply_eligibility_policies` does this and records who was left
after each policy, for the selection trace.

Ready-made policies (all stateless: they read the :class:`SelectionContext`, so the same
policy object can serve several chats):

- :class:`TurnBudgetPolicy` (alias ``MaxTurnsPolicy``): at most N turns per agent.
- :class:`CooldownPolicy`: an agent rests N rounds after speaking.
- :class:`AllowListPolicy` / :class:`DenyListPolicy`: only / never these names.
- :class:`CallablePolicy`: wrap a plain function ``fn(agent, ctx) -> bool``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Optional, Protocol, runtime_checkable

__all__ = [
    "AgentEligibilityPolicy",
    "AllowListPolicy",
    "CallablePolicy",
    "CooldownPolicy",
    "DenyListPolicy",
    "MaxTurnsPolicy",
    "SelectionContext",
    "TurnBudgetPolicy",
    "apply_eligibility_policies",
    "describe_exclusions",
    "no_eligible_speaker_message",
    "policy_name",
    "validate_eligibility_policies",
]


@dataclass(frozen=True)
class SelectionContext:
    """What a policy may look at when judging a candidate.

    Args:
        round: the index (from 0) of the round whose speaker is being chosen.
        last_speaker: the agent that spoke last (None before anyone spoke).
        participants: all agents of the group chat, in order.
        messages: the group chat's messages so far (oldest first); each message carries the
            speaker's ``name``. Defaults to no messages.
    """

    round: int
    last_speaker: Any
    participants: list
    messages: Sequence[dict] = field(default_factory=tuple)

    def turns_taken(self, agent: Any) -> int:
        """Return how many of ``messages`` were spoken by ``agent`` (an agent or a name)."""
        name = _name_of(agent)
        return sum(1 for m in self.messages if isinstance(m, Mapping) and m.get("name") == name)

    def recent_speakers(self, n: int) -> list[str]:
        """Return the names of the speakers of the last ``n`` messages, oldest first."""
        if n <= 0:
            return []
        return [m.get("name") for m in self.messages[-n:] if isinstance(m, Mapping) and m.get("name")]


@runtime_checkable
class AgentEligibilityPolicy(Protocol):
    """A rule deciding whether an agent may be chosen as the next speaker."""

    def is_eligible(self, agent: Any, ctx: SelectionContext) -> bool:
        """Return True if ``agent`` may speak next in the situation ``ctx``."""
        ...


def _name_of(agent: Any) -> str:
    return agent if isinstance(agent, str) else agent.name


def policy_name(policy: Any) -> str:
    """Return the label of a policy in selection traces: its ``name`` attribute or its class name."""
    name = getattr(policy, "name", None)
    return name if isinstance(name, str) and name else type(policy).__name__


def validate_eligibility_policies(policies: Any) -> list:
    """Check ``policies`` and return them as a list.

    Raises:
        TypeError: if ``policies`` is not a list/tuple, or an item has no callable ``is_eligible``.
    """
    if policies is None:
        return []
    if not isinstance(policies, (list, tuple)):
        raise TypeError(
            "eligibility_policies must be a list of objects with an is_eligible(agent, ctx) method, "
            f"got {type(policies).__name__}."
        )
    for index, policy in enumerate(policies):
        if not callable(getattr(policy, "is_eligible", None)):
            hint = " Wrap a plain function in CallablePolicy(fn)." if callable(policy) else ""
            raise TypeError(
                f"eligibility_policies[{index}] ({policy!r}) has no is_eligible(agent, ctx) method; "
                f"every policy must implement AgentEligibilityPolicy.{hint}"
            )
    return list(policies)


def apply_eligibility_policies(
    agents: list, policies: Sequence[Any], ctx: SelectionContext
) -> tuple[list, list[tuple[str, list[str]]]]:
    """Keep the agents that every policy accepts (AND semantics).

    Args:
        agents: the candidates, in order.
        policies: the eligibility policies, applied in order.
        ctx: the selection context handed to each policy.

    Returns:
        ``(eligible, trace)``: the remaining candidates (order kept) and, for each policy,
        ``(policy name, names of the candidates left after it)``. Once no candidate is
        left, later policies are not consulted but still appear in the trace (with ``[]``).

    Raises:
        TypeError: if a policy has no ``is_eligible`` method.
    """
    checked = validate_eligibility_policies(policies)
    remaining = list(agents)
    trace: list[tuple[str, list[str]]] = []
    for policy in checked:
        if remaining:
            remaining = [agent for agent in remaining if bool(policy.is_eligible(agent, ctx))]
        trace.append((policy_name(policy), [agent.name for agent in remaining]))
    return remaining, trace


def describe_exclusions(
    candidates: Sequence[Any], trace: Sequence[tuple[str, Sequence[str]]]
) -> list[tuple[str, list[str]]]:
    """Say which candidates each policy removed.

    Args:
        candidates: the agents (or names) the policies were applied to, in order.
        trace: the trace returned by :func:`apply_eligibility_policies`.

    Returns:
        ``(policy name, names it removed)`` for each policy that removed someone, in order.
    """
    left = [_name_of(agent) for agent in candidates]
    removed: list[tuple[str, list[str]]] = []
    for policy, after in trace:
        kept = Counter(after)
        gone: list[str] = []
        for name in left:
            if kept[name] > 0:
                kept[name] -= 1
            else:
                gone.append(name)
        if gone:
            removed.append((policy, gone))
        left = list(after)
    return removed


def no_eligible_speaker_message(candidates: Sequence[Any], trace: Sequence[tuple[str, Sequence[str]]]) -> str:
    """The ``NoEligibleSpeaker`` message when the policies left no candidate: who each policy removed.

    Args:
        candidates: the agents (or names) the policies were applied to, in order.
        trace: the trace returned by :func:`apply_eligibility_policies` (ending with no candidate).
    """
    names = ", ".join(_name_of(agent) for agent in candidates)
    removed = describe_exclusions(candidates, trace)
    if not removed:
        return "No eligible speaker: there was no candidate left for the eligibility policies to choose from."
    if len(removed) == 1:
        return f"No eligible speaker: the eligibility policy {removed[0][0]} excluded every candidate ({names})."
    steps = "; ".join(f"{policy} removed {', '.join(gone)}" for policy, gone in removed)
    return f"No eligible speaker: the eligibility policies excluded every candidate ({names}): {steps}."


def _check_count(value: Any, argument: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{argument} must be an integer >= {minimum}, got {value!r}.")
    return value


def _check_names(names: Any, argument: str) -> frozenset[str]:
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise ValueError(f"{argument} must be a list of agent names (or agents), got {names!r}.")
    return frozenset(_name_of(n) for n in names)


class TurnBudgetPolicy:
    """Each agent may speak at most a given number of times in the chat.

    Turns are counted from ``ctx.messages`` (messages whose ``name`` is the agent's name),
    so the first message that started the chat counts for its sender too.

    Args:
        max_turns_per_agent: the budget of every agent, or a dict ``{agent name: budget}``;
            with a dict, agents not in it have no limit.
    """

    def __init__(self, max_turns_per_agent: int | Mapping[str, int]) -> None:
        if isinstance(max_turns_per_agent, Mapping):
            self._budgets: Optional[dict[str, int]] = {
                _name_of(k): _check_count(v, f"max_turns_per_agent[{k!r}]", 0) for k, v in max_turns_per_agent.items()
            }
            self._default: Optional[int] = None
        else:
            self._budgets = None
            self._default = _check_count(max_turns_per_agent, "max_turns_per_agent", 0)
        self.name = "TurnBudgetPolicy"

    def budget_of(self, agent: Any) -> Optional[int]:
        """Return the turn budget of ``agent`` (None: unlimited)."""
        if self._budgets is None:
            return self._default
        return self._budgets.get(_name_of(agent))

    def is_eligible(self, agent: Any, ctx: SelectionContext) -> bool:
        """True while the agent has spoken fewer times than its budget."""
        budget = self.budget_of(agent)
        return budget is None or ctx.turns_taken(agent) < budget

    def __repr__(self) -> str:
        limit = self._budgets if self._budgets is not None else self._default
        return f"{type(self).__name__}(max_turns_per_agent={limit!r})"


MaxTurnsPolicy = TurnBudgetPolicy


class CooldownPolicy:
    """An agent may not speak again until ``rounds`` other turns have passed.

    ``CooldownPolicy(1)`` forbids speaking twice in a row; ``CooldownPolicy(2)`` also forbids
    ``A, B, A``. The speakers of the last ``rounds`` messages in ``ctx.messages`` rest, and so
    does ``ctx.last_speaker``.

    Args:
        rounds: the number of rounds an agent rests after speaking (0 disables the policy).
    """

    def __init__(self, rounds: int) -> None:
        self.rounds = _check_count(rounds, "rounds", 0)
        self.name = "CooldownPolicy"

    def is_eligible(self, agent: Any, ctx: SelectionContext) -> bool:
        """False if the agent is among the most recent ``rounds`` speakers."""
        if self.rounds == 0:
            return True
        if ctx.last_speaker is not None and ctx.last_speaker is agent:
            return False
        return agent.name not in ctx.recent_speakers(self.rounds)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(rounds={self.rounds})"


class AllowListPolicy:
    """Only the listed agents may speak.

    Args:
        names: agent names (or agents) that may be chosen.
    """

    def __init__(self, names: Iterable[Any]) -> None:
        self.names = _check_names(names, "names")
        self.name = "AllowListPolicy"

    def is_eligible(self, agent: Any, ctx: SelectionContext) -> bool:
        """True if the agent's name is listed."""
        return agent.name in self.names

    def __repr__(self) -> str:
        return f"{type(self).__name__}(names={sorted(self.names)!r})"


class DenyListPolicy:
    """The listed agents may never speak.

    Args:
        names: agent names (or agents) that may not be chosen.
    """

    def __init__(self, names: Iterable[Any]) -> None:
        self.names = _check_names(names, "names")
        self.name = "DenyListPolicy"

    def is_eligible(self, agent: Any, ctx: SelectionContext) -> bool:
        """True unless the agent's name is listed."""
        return agent.name not in self.names

    def __repr__(self) -> str:
        return f"{type(self).__name__}(names={sorted(self.names)!r})"


class CallablePolicy:
    """A policy made from a function ``fn(agent, ctx) -> bool``.

    Args:
        fn: the function deciding eligibility.
        name: the label in selection traces (default: the function's ``__name__``).
    """

    def __init__(self, fn: Callable[[Any, SelectionContext], bool], name: Optional[str] = None) -> None:
        if not callable(fn):
            raise TypeError(f"fn must be a callable fn(agent, ctx) -> bool, got {fn!r}.")
        self.fn = fn
        self.name = name or getattr(fn, "__name__", None) or "CallablePolicy"

    def is_eligible(self, agent: Any, ctx: SelectionContext) -> bool:
        """Return what the wrapped function says, as a bool."""
        return bool(self.fn(agent, ctx))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name})"
