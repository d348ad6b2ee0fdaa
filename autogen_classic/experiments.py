"""Run the same group chat many times and look at what happened, as tidy records.

Speaker selection is a policy: to judge one (a transition graph, a selection method, an eligibility
policy, a model), run many chats and count. :func:`run_group_chats` builds a fresh group chat for every
run, starts it and returns one :class:`ChatRecord` per chat: who spoke in which order, the speaker
transitions, why the chat ended, how many questions went to the selector, which model answers named
an agent that was not eligible, what the conditions of conditional transitions decided, and the tokens
used. :func:`records_to_rows` flattens the records into plain dicts (one per chat, the same keys in
every row) for a table, a CSV file or ``pandas.DataFrame``; :func:`format_table` prints such rows as
text without any extra package.

Example::

    def make_groupchat():
        return GroupChat(agents=[planner, coder, critic], max_round=6, speaker_selection_method="random")

    records = run_group_chats(make_groupchat, 20, message="Plan the release.", seed=0)
    print(format_table(records_to_rows(records), columns=["run", "rounds", "speakers", "end_reason"]))
    print(transition_counts(records))
    print(condition_counts(records))  # with ConditionalEdge items in the graph
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .agentchat.conversable_agent import ConversableAgent
from .agentchat.groupchat import GroupChat, GroupChatManager
from .agentchat.groupchat.selection.auto import mentioned_agents
from .agentchat.groupchat.selection.trace import SelectionRecord

__all__ = [
    "ChatRecord",
    "RejectedChoice",
    "allowed_transitions",
    "condition_counts",
    "format_table",
    "records_to_rows",
    "run_group_chats",
    "speaker_counts",
    "transition_counts",
]

Transition = tuple[str, str]
_ON_ERROR = ("raise", "record")


@dataclass(frozen=True)
class RejectedChoice:
    """A selector answer that named an agent of the group who was not a candidate at that moment.

    The transition graph, the repeat rule or an eligibility policy had excluded the agent, so the
    answer could not be taken as it was (the selector was asked again, or another candidate was used).

    Args:
        round: the index of the selection decision in the chat's selection log.
        answer: the selector's raw answer.
        named: the group agents named in the answer that were not candidates.
        candidates: the agents that were eligible.
    """

    round: int
    answer: str
    named: tuple[str, ...]
    candidates: tuple[str, ...]


@dataclass
class ChatRecord:
    """What happened in one group chat run by :func:`run_group_chats`.

    Args:
        run: the index of the run (0 for the first).
        method: the speaker selection method ("auto", "random", ...; a custom function's name).
        label: the label given to :func:`run_group_chats` (e.g. the name of the graph tried).
        speakers: the name of the speaker of every message, in order (the opening message included).
        end_reason: why the chat ended (``GroupChatManager.end_reason``).
        selections: the number of speaker-selection decisions.
        selection_calls: the number of questions put to the model to choose a speaker.
        rejected: the model answers that named an agent who was not eligible.
        selection_tokens: the tokens used by the speaker-selection calls.
        agent_tokens: the tokens used by the participants' own model calls.
        allowed: the (from, to) speaker transitions the group chat allowed (conditional ones included).
        messages: the group chat's messages.
        selection_log: the group chat's selection log (see ``format_selection_log``).
        error: ``"ExceptionType: message"`` when the chat raised and errors were recorded, else None.
        transition_conditions: per conditional transition (``"coder -> critic [label]"``), how often its
            condition let the target be a candidate and how often it blocked it:
            ``{"allowed": n, "blocked": m}``; empty without conditional transitions.
    """

    run: int
    method: str
    label: str | None
    speakers: list[str]
    end_reason: str | None
    selections: int = 0
    selection_calls: int = 0
    rejected: list[RejectedChoice] = field(default_factory=list)
    selection_tokens: int = 0
    agent_tokens: int = 0
    allowed: frozenset[Transition] = field(default=frozenset(), repr=False)
    messages: list[dict[str, Any]] = field(default_factory=list, repr=False)
    selection_log: list[SelectionRecord] = field(default_factory=list, repr=False)
    error: str | None = None
    transition_conditions: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def rounds(self) -> int:
        """The number of messages of the chat (the opening message included)."""
        return len(self.speakers)

    @property
    def transitions(self) -> dict[Transition, int]:
        """(speaker, next speaker) -> how often that hand-over happened, in order of first occurrence."""
        return dict(Counter(zip(self.speakers, self.speakers[1:])))

    @property
    def off_graph(self) -> dict[Transition, int]:
        """The observed transitions that the group chat did not allow (expected to be empty)."""
        return {pair: count for pair, count in self.transitions.items() if pair not in self.allowed}

    @property
    def total_tokens(self) -> int:
        """Selection tokens plus agent tokens."""
        return self.selection_tokens + self.agent_tokens


# ----------------------------------------------------------------- running
def allowed_transitions(groupchat: GroupChat) -> frozenset[Transition]:
    """Return the (from, to) pairs of agent names that the group chat's transition graph allows.

    Without a graph this is every pair, with self-loops as ``allow_repeat_speaker`` says.
    """
    graph = groupchat.transition_graph()
    return frozenset((source.name, target.name) for source, targets in graph.items() for target in targets)


def _check_arguments(n: Any, sender: Any, on_error: Any, seed: Any) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be the number of chats to run, an int >= 0; got {n!r}.")
    if sender is not None and not isinstance(sender, (str, ConversableAgent)):
        raise TypeError(
            "sender must be None (the group's first agent), the name of a group agent or a ConversableAgent; "
            f"got {type(sender).__name__}."
        )
    if on_error not in _ON_ERROR:
        raise ValueError(f"on_error must be one of {list(_ON_ERROR)}; got {on_error!r}.")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise TypeError(f"seed must be None or an int; got {type(seed).__name__}.")


def _build_manager(
    built: Any,
    llm_config: dict[str, Any] | Literal[False] | None,
    is_termination_msg: Callable[..., bool] | None,
    silent: bool,
) -> GroupChatManager:
    if isinstance(built, GroupChatManager):
        if llm_config is not None or is_termination_msg is not None:
            raise ValueError(
                "make_groupchat returned a GroupChatManager, so llm_config and is_termination_msg must be left out: "
                "set them on the manager it builds (or return the GroupChat instead)."
            )
        return built
    if not isinstance(built, GroupChat):
        raise TypeError(
            f"make_groupchat must return a GroupChat or a GroupChatManager; it returned {type(built).__name__}."
        )
    return GroupChatManager(
        built,
        llm_config=False if llm_config is None else llm_config,
        is_termination_msg=is_termination_msg,
        silent=silent,
    )


def _opening_agent(groupchat: GroupChat, sender: str | ConversableAgent | None) -> ConversableAgent:
    if isinstance(sender, ConversableAgent):
        return sender
    if not groupchat.agents:
        raise ValueError("make_groupchat returned a GroupChat without agents; add at least two agents.")
    agent = groupchat.agents[0] if sender is None else groupchat.agent_by_name(sender)
    if agent is None:
        raise ValueError(
            f"sender {sender!r} is not an agent of the group chat; the agents are {groupchat.agent_names}."
        )
    if not isinstance(agent, ConversableAgent):
        raise TypeError(f"the opening agent {agent.name!r} must be a ConversableAgent to start a chat.")
    return agent


def _usage_clients(groupchat: GroupChat, manager: GroupChatManager) -> list[Any]:
    """The participants' model clients (nested managers included), without the selection client."""
    clients: dict[int, Any] = {}
    for agent in groupchat.agents:
        if agent is manager:
            continue
        if getattr(agent, "client", None) is not None:
            clients[id(agent.client)] = agent.client  # type: ignore[attr-defined]
        for client in getattr(agent, "usage_clients", None) or ():
            clients[id(client)] = client
    return list(clients.values())


def _total_tokens(clients: Iterable[Any]) -> int:
    total = 0
    for client in clients:
        for model, entry in (getattr(client, "total_usage_summary", None) or {}).items():
            if model != "total_cost" and isinstance(entry, dict):
                total += int(entry.get("total_tokens", 0) or 0)
    return total


def _method_name(method: Any) -> str:
    if isinstance(method, str):
        return method.lower()
    return str(getattr(method, "__name__", None) or type(method).__name__)


def _rejected_choices(groupchat: GroupChat, log: list[SelectionRecord]) -> list[RejectedChoice]:
    found = []
    for record in log:
        candidates = record.candidates()
        for attempt in record.attempts:
            if attempt.prompt_role == "human" or not attempt.answer:
                continue
            named = [name for name in mentioned_agents(attempt.answer, groupchat.agents) if name not in candidates]
            if named:
                found.append(RejectedChoice(record.round, attempt.answer, tuple(named), tuple(candidates)))
    return found


def _condition_outcomes(log: list[SelectionRecord]) -> dict[str, dict[str, int]]:
    """Per conditional transition, in order of first occurrence: how often it allowed and blocked its target."""
    counts: dict[str, dict[str, int]] = {}
    for record in log:
        for outcome in record.conditions:
            entry = counts.setdefault(outcome.edge, {"allowed": 0, "blocked": 0})
            if outcome.effect in entry:  # a failed condition ("error") stops the chat and is in ``error``
                entry[outcome.effect] += 1
    return counts


def _record(
    run: int, label: str | None, groupchat: GroupChat, manager: GroupChatManager, agent_tokens: int,
    error: str | None,
) -> ChatRecord:
    log = list(groupchat.selection_log)
    return ChatRecord(
        run=run,
        method=_method_name(groupchat.speaker_selection_method),
        label=label,
        speakers=[str(m.get("name", "")) for m in groupchat.messages],
        end_reason=manager.end_reason,
        selections=len(log),
        selection_calls=sum(1 for r in log for a in r.attempts if a.prompt_role != "human"),
        rejected=_rejected_choices(groupchat, log),
        selection_tokens=sum(int(r.usage.get("total_tokens", 0) or 0) for r in log),
        agent_tokens=agent_tokens,
        allowed=allowed_transitions(groupchat),
        messages=[dict(m) for m in groupchat.messages],
        selection_log=log,
        error=error,
        transition_conditions=_condition_outcomes(log),
    )


def run_group_chats(
    make_groupchat: Callable[[], GroupChat | GroupChatManager],
    n: int,
    *,
    message: str | dict[str, Any],
    sender: str | ConversableAgent | None = None,
    speaker_selection_method: Any = None,
    llm_config: dict[str, Any] | Literal[False] | None = None,
    is_termination_msg: Callable[[dict[str, Any]], bool] | None = None,
    seed: int | None = None,
    label: str | None = None,
    silent: bool = True,
    on_error: Literal["raise", "record"] = "raise",
) -> list[ChatRecord]:
    """Run ``n`` group chats, each on a fresh group chat, and return one record per chat.

    Args:
        make_groupchat: a function without arguments returning a new ``GroupChat`` (a manager is built
            for it) or a ready ``GroupChatManager``. It is called once per run, so no state leaks between
            runs; the agents themselves may be shared (their histories are cleared when a chat starts).
        n: the number of chats to run.
        message: the opening message of every chat.
        sender: who sends the opening message: the name of an agent of the group (default: the group's
            first agent) or any ``ConversableAgent``.
        speaker_selection_method: when given, replaces the group chat's method ("auto", "manual",
            "random", "round_robin" or a function), so one factory serves every method.
        llm_config: the manager's ``llm_config``, used by "auto" selection (default: no model; "auto"
            then falls back to round robin). Only when ``make_groupchat`` returns a ``GroupChat``.
        is_termination_msg: the manager's termination test (default: the classic "TERMINATE" check).
            Only when ``make_groupchat`` returns a ``GroupChat``.
        seed: seeds Python's ``random`` module with ``seed + run`` before each run, so "random" selection
            (and anything else drawing from ``random``) repeats; the module's previous state is restored
            afterwards. None leaves ``random`` alone.
        label: copied into every record, to tell experiments apart once their records are combined.
        silent: do not print the chats (a manager returned by ``make_groupchat`` keeps its own ``silent``).
        on_error: "raise" (default) stops at the first chat that raises; "record" keeps going and stores
            ``"ExceptionType: message"`` in the record's ``error``.

    Returns:
        The records, in run order.
    """
    _check_arguments(n, sender, on_error, seed)
    if not callable(make_groupchat):
        raise TypeError(
            f"make_groupchat must be a function returning a GroupChat; got {type(make_groupchat).__name__}."
        )
    if speaker_selection_method is not None:
        GroupChat._check_speaker_selection_method(speaker_selection_method)
    saved_state = random.getstate() if seed is not None else None
    records: list[ChatRecord] = []
    try:
        for run in range(n):
            manager = _build_manager(make_groupchat(), llm_config, is_termination_msg, silent)
            groupchat = manager.groupchat
            if speaker_selection_method is not None:
                groupchat.speaker_selection_method = speaker_selection_method
            opener = _opening_agent(groupchat, sender)
            clients = _usage_clients(groupchat, manager)
            before = _total_tokens(clients)
            if seed is not None:
                random.seed(seed + run)
            error = None
            try:
                opener.initiate_chat(manager, message=message, clear_history=True, silent=silent)
            except Exception as exc:
                if on_error == "raise":
                    raise
                error = f"{type(exc).__name__}: {exc}"
            records.append(_record(run, label, groupchat, manager, _total_tokens(clients) - before, error))
    finally:
        if saved_state is not None:
            random.setstate(saved_state)
    return records


# ----------------------------------------------------------------- summaries
def _check_records(records: Any) -> list[ChatRecord]:
    records = list(records)
    for item in records:
        if not isinstance(item, ChatRecord):
            raise TypeError(f"records must hold ChatRecord objects (from run_group_chats); got {type(item).__name__}.")
    return records


def transition_counts(records: Iterable[ChatRecord]) -> dict[Transition, int]:
    """Return (speaker, next speaker) -> count over all ``records``, most frequent first (ties by name)."""
    total: Counter[Transition] = Counter()
    for record in _check_records(records):
        total.update(record.transitions)
    return dict(sorted(total.items(), key=lambda item: (-item[1], item[0])))


def speaker_counts(records: Iterable[ChatRecord]) -> dict[str, int]:
    """Return speaker name -> number of messages over all ``records``, most frequent first (ties by name)."""
    total: Counter[str] = Counter()
    for record in _check_records(records):
        total.update(record.speakers)
    return dict(sorted(total.items(), key=lambda item: (-item[1], item[0])))


def condition_counts(records: Iterable[ChatRecord]) -> dict[str, dict[str, int]]:
    """Return conditional transition -> ``{"allowed": n, "blocked": m}`` over all ``records``, sorted by edge."""
    total: dict[str, Counter[str]] = {}
    for record in _check_records(records):
        for edge, counts in record.transition_conditions.items():
            total.setdefault(edge, Counter()).update(counts)
    return {
        edge: {"allowed": counts["allowed"], "blocked": counts["blocked"]} for edge, counts in sorted(total.items())
    }


def records_to_rows(records: Iterable[ChatRecord]) -> list[dict[str, Any]]:
    """Flatten records into one plain dict per chat, with the same keys in every row.

    Keys: ``run``, ``label``, ``method``, ``rounds``, ``speakers`` (names joined by " > "), ``end_reason``,
    ``selections``, ``selection_calls``, ``rejected`` (count), ``off_graph`` (count of transitions outside
    the graph), ``selection_tokens``, ``agent_tokens``, ``total_tokens``, ``error``, then ``turns:<name>``
    (messages by that agent) for every speaker seen in any record, in order of first appearance, then
    ``allowed:<edge>`` and ``blocked:<edge>`` (how often the condition of that conditional transition
    allowed or blocked its target) for every conditional transition asked in any record.
    The rows fit ``pandas.DataFrame(rows)``, ``csv.DictWriter`` or :func:`format_table`.
    """
    records = _check_records(records)
    names = list(dict.fromkeys(name for record in records for name in record.speakers))
    edges = list(dict.fromkeys(edge for record in records for edge in record.transition_conditions))
    rows = []
    for record in records:
        turns = Counter(record.speakers)
        row: dict[str, Any] = {
            "run": record.run,
            "label": record.label,
            "method": record.method,
            "rounds": record.rounds,
            "speakers": " > ".join(record.speakers),
            "end_reason": record.end_reason,
            "selections": record.selections,
            "selection_calls": record.selection_calls,
            "rejected": len(record.rejected),
            "off_graph": sum(record.off_graph.values()),
            "selection_tokens": record.selection_tokens,
            "agent_tokens": record.agent_tokens,
            "total_tokens": record.total_tokens,
            "error": record.error,
        }
        row.update({f"turns:{name}": turns.get(name, 0) for name in names})
        for edge in edges:
            counts = record.transition_conditions.get(edge, {})
            row[f"allowed:{edge}"] = counts.get("allowed", 0)
            row[f"blocked:{edge}"] = counts.get("blocked", 0)
        rows.append(row)
    return rows


def format_table(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None, max_width: int = 60) -> str:
    """Return ``rows`` (dicts) as a plain-text table with a header line.

    Args:
        rows: the rows, e.g. from :func:`records_to_rows`.
        columns: the keys to show, in order (default: the keys of the first row).
        max_width: longer cells are cut to this many characters, ending with "...".
    """
    if isinstance(max_width, bool) or not isinstance(max_width, int) or max_width < 4:
        raise ValueError(f"max_width must be an int >= 4; got {max_width!r}.")
    rows = list(rows)
    if columns is None:
        columns = list(rows[0]) if rows else []
    missing = [c for c in columns if rows and c not in rows[0]]
    if missing:
        raise ValueError(f"columns {missing} are not keys of the rows; the keys are {list(rows[0])}.")

    def cell(value: Any) -> str:
        text = "" if value is None else str(value)
        return text if len(text) <= max_width else text[: max_width - 3] + "..."

    table = [list(columns)] + [[cell(row.get(c)) for c in columns] for row in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(columns))]
    return "\n".join("  ".join(text.ljust(w) for text, w in zip(line, widths)).rstrip() for line in table)
