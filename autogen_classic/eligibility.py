"""Eligibility policies: rules that narrow the candidates before a group chat picks a speaker.

A policy is any object with ``is_eligible(agent, ctx) -> bool``. A group chat applies all of
its ``eligibility_policies`` with AND semantics: an agent stays a candidate only if every
policy accepts it. :func:`apply_eligibility_policies` does this and records who was left
after each policy, for the selection trace.

The context is the one of AG2 0.14 (``autogen.agentchat.eligibility_policy``): ``ctx.round``
is the number of messages spoken so far (1 at the first selection of a chat opened by one
message), ``ctx.last_speaker`` the *name* of the last speaker (or None) and
``ctx.participants`` the tuple of the names of all the group's agents. The candidate handed
to ``is_eligible`` is the agent object itself. The group chat also fills ``ctx.messages``
(its messages) and ``ctx.agents`` (its agent objects), which the ready-made policies use.

Ready-made policies (all stateless: they read the :class:`SelectionContext`, so the same
policy object can serve several chats):

- :class:`TurnBudgetPolicy` (alias ``MaxTurnsPolicy``): at most N turns per agent.
- :class:`CooldownPolicy`: an agent rests N rounds after speaking.
- :class:`AllowListPolicy` / :class:`DenyListPolicy`: only / never these names.
- :class:`CallablePolicy`: wrap a plain function ``fn(agent, ctx) -> bool``.

:class:`AgentDescriptionGuard` marks an agent ``[UNAVAILABLE]`` in its description (a hint
for "auto" selection, which reads the descriptions) and restores it later.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Optional, Protocol, runtime_checkable

from .exception_utils import InvalidAttributeTypeError, NotAPolicyError

__all__ = [
    "AgentDescriptionGuard",
    "AgentEligibilityPolicy",
    "AllowListPolicy",
    "CallablePolicy",
    "CooldownPolicy",
    "DenyListPolicy",
    "MaxTurnsPolicy",
    "SelectionContext",
    "TurnBudgetPolicy",
    "UNAVAILABLE_PREFIX",
    "apply_eligibility_policies",
    "describe_exclusions",
    "no_eligible_speaker_message",
    "policy_name",
    "validate_eligibility_policies",
]


@dataclass(frozen=True)
class SelectionContext:
    """What a policy may look at when judging a candidate (frozen; equal and hashable by its first three fields).

    Args:
        round: the number of messages spoken so far. In a group chat opened by one message it is 1
            at the first selection (the opening message is appended before the speaker is chosen).
        last_speaker: the name of the agent that spoke last (None before anyone spoke).
        participants: the names of all the agents of the group chat, in order (the whole roster,
            not the candidates left by earlier rules); any iterable is stored as a tuple, a bare
            str is refused.
        messages: the group chat's messages so far (oldest first); each carries the speaker's
            ``name``. Defaults to no messages. Not part of the equality, hash or repr.
        agents: the agent objects of the group chat, in the order of ``participants`` (empty
            when the context was built by hand). Not part of the equality, hash or repr.

    Raises:
        TypeError: ``participants`` is a str (it would read as one name per character).
    """

    round: int
    last_speaker: Optional[str]
    participants: tuple[str, ...]
    messages: Sequence[dict] = field(default=(), repr=False, compare=False)
    agents: tuple[Any, ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.participants, str):
            raise TypeError(
                f"SelectionContext.participants must be a sequence of str, not a str (got {self.participants!r}).  "
                f"Wrap in a tuple: ({self.participants!r},)"
            )
        # frozen: the normalised values are set through object.__setattr__.
        object.__setattr__(self, "participants", tuple(self.participants))
        object.__setattr__(self, "agents", tuple(self.agents))

    def turns_taken(self, agent: Any) -> int:
        """Return how many of ``messages`` were spoken by ``agent`` (an agent or a name)."""
        name = _name_of(agent)
        return sum(1 for m in self.messages if isinstance(m, Mapping) and m.get("name") == name)

    def recent_speakers(self, n: int) -> list[str]:
        """Return the names of the speakers of the last ``n`` messages, oldest first."""
        if n <= 0:
            return []
        return [m.get("name") for m in self.messages[-n:] if isinstance(m, Mapping) and m.get("name")]

    def agent_named(self, name: Optional[str]) -> Any:
        """Return the agent object called ``name`` among ``agents`` (None if absent or not known)."""
        return next((a for a in self.agents if getattr(a, "name", None) == name), None)


@runtime_checkable
class AgentEligibilityPolicy(Protocol):
    """A rule deciding whether an agent may be chosen as the next speaker.

    ``isinstance(obj, AgentEligibilityPolicy)`` only checks that ``obj`` has an ``is_eligible``
    attribute, not its signature.
    """

    def is_eligible(self, agent: Any, ctx: SelectionContext) -> bool:
        """Return True to keep ``agent`` (the agent object) a candidate in the situation ``ctx``."""
        ...


def _name_of(agent: Any) -> Optional[str]:
    if agent is None or isinstance(agent, str):
        return agent
    return agent.name


def policy_name(policy: Any) -> str:
    """Return the label of a policy in selection traces: its ``name`` attribute or its class name."""
    name = getattr(policy, "name", None)
    return name if isinstance(name, str) and name else type(policy).__name__


def validate_eligibility_policies(policies: Any) -> list:
    """Check ``policies`` and return them as a list.

    Raises:
        TypeError: ``policies`` is not a list/tuple.
        NotAPolicyError: an item has no callable ``is_eligible`` (both a ``ValueError``, the classic
            type, and a ``TypeError``).
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
            raise NotAPolicyError(
                f"eligibility_policies[{index}] does not implement AgentEligibilityPolicy (missing is_eligible "
                f"method). Got {type(policy).__name__}: {policy!r:.80} has no is_eligible(agent, ctx) method; "
                f"give it a method is_eligible(self, agent, ctx) -> bool.{hint}"
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
        NotAPolicyError: if a policy has no ``is_eligible`` method.
    """
    checked = validate_eligibility_policies(policies)
    remaining = list(agents)
    trace: list[tuple[str, list[str]]] = []
    for policy in checked:
        if remaining:
            remaining = [agent for agent in remaining if bool(policy.is_eligible(agent, ctx))]
        trace.append((policy_name(policy), [_name_of(agent) for agent in remaining]))
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
    does the agent named by ``ctx.last_speaker`` (so the policy also works on a context
    without messages).

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
        name = _name_of(agent)
        # last_speaker is a name in a group chat's context; a hand-built context may hold the agent.
        if ctx.last_speaker is not None and _name_of(ctx.last_speaker) == name:
            return False
        return name not in ctx.recent_speakers(self.rounds)

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
        return _name_of(agent) in self.names

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
        return _name_of(agent) not in self.names

    def __repr__(self) -> str:
        return f"{type(self).__name__}(names={sorted(self.names)!r})"


class CallablePolicy:
    """A policy made from a function ``fn(agent, ctx) -> bool``.

    ``agent`` is the candidate agent object; ``ctx`` the :class:`SelectionContext` (names in
    ``last_speaker`` and ``participants``, ``round`` the number of messages so far).

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


UNAVAILABLE_PREFIX = "[UNAVAILABLE] "

# One lock for every guard: two guards of the same agent (e.g. one per circuit breaker) then
# never interleave their read-modify-write of its description.
_DESCRIPTION_LOCK = threading.RLock()
_UNSET: Any = object()


class AgentDescriptionGuard:
    """Marks an agent unavailable in its description, and restores it.

    ``mark_unavailable()`` puts ``"[UNAVAILABLE] "`` in front of ``agent.description``, so that
    "auto" speaker selection (whose model reads the descriptions) is steered away from the
    agent, e.g. while a circuit breaker is open; ``mark_available()`` takes the prefix off
    again. Both are idempotent and thread-safe. Text added to the description while the agent
    was marked is kept. A description that was None is shown as ``"[UNAVAILABLE] "`` and
    comes back as None.

    The prefix belongs to the guards: code that adds or removes it by hand makes the guard's
    record of the original description meaningless (``mark_available`` then only strips the
    prefix, if present).

    Args:
        agent: the agent (anything with a settable ``description``).

    Raises:
        InvalidAttributeTypeError: ``agent`` has no ``description`` attribute (an ``AttributeError``,
            as the classic package raised when marking such an object).
    """

    def __init__(self, agent: Any) -> None:
        if not hasattr(agent, "description"):
            raise InvalidAttributeTypeError(
                f"AgentDescriptionGuard needs an agent with a description attribute; got {type(agent).__name__} "
                f"{agent!r:.60}. Pass the agent itself (e.g. a ConversableAgent), not its name."
            )
        self._agent = agent
        self._lock = _DESCRIPTION_LOCK
        self._original_description: Any = _UNSET

    @property
    def agent(self) -> Any:
        """The guarded agent."""
        return self._agent

    @property
    def is_unavailable(self) -> bool:
        """True while the agent's description carries the ``[UNAVAILABLE]`` prefix."""
        return (self._agent.description or "").startswith(UNAVAILABLE_PREFIX)

    def mark_unavailable(self) -> None:
        """Prefix the description with ``"[UNAVAILABLE] "`` (nothing happens if it already is)."""
        with self._lock:
            current = self._agent.description or ""
            if current.startswith(UNAVAILABLE_PREFIX):
                return
            self._original_description = self._agent.description
            self._agent.description = UNAVAILABLE_PREFIX + current

    def mark_available(self) -> None:
        """Take the ``"[UNAVAILABLE] "`` prefix off the description (nothing happens without it).

        The rest of the live description is kept, including text appended while the agent was
        marked; a description that was None when marked comes back as None if nothing was added.
        """
        with self._lock:
            current = self._agent.description or ""
            original, self._original_description = self._original_description, _UNSET
            if not current.startswith(UNAVAILABLE_PREFIX):
                return
            rest = current[len(UNAVAILABLE_PREFIX):]
            self._agent.description = None if (original is None and rest == "") else rest

    def __repr__(self) -> str:
        state = "unavailable" if self.is_unavailable else "available"
        return f"{type(self).__name__}({getattr(self._agent, 'name', self._agent)!r}, {state})"
