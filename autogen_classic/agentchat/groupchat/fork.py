"""Forking a recorded group chat: replay its first messages, change what happens next, run to the end.

``fork_group_chat(manager, messages, at_round, speaker=..., message=..., context_variables=...)`` asks
"what if X had spoken here?" of a recorded run (``groupchat.messages``, a JSON string, or the transcript
file itself, ``Path("chat.jsonl")``):

1. the fresh manager's group chat gets ``messages[:at_round]`` back through ``resume`` (the group chat and
   every agent's history hold them as the chat stored them), and the last of them is published again;
   the round count goes on from the record's, so ``max_round`` bounds the fork as it bounded the record.
   From a transcript file with its checkpoint (``<path>.state``), the state when the last kept message was
   appended is restored first (context variables, pending hand-off, auto-reply counters, random state,
   rounds: :mod:`.durable.snapshot`), so the fork goes on as the record did; without one, the chat goes on
   as the classic continuation (``last_agent.initiate_chat(manager, ..., clear_history=False)``) would;
2. the change decides message ``at_round``: ``context_variables`` updates the agents' context variables
   first; then ``speaker`` replies (instead of whoever selection chose), ``message`` is said by the
   recorded speaker (or by ``speaker``, when both are given), or, with neither, selection chooses. A named
   speaker or a new message takes the place of that selection: a pending hand-off, a forced target or a
   pattern's first turn for its initial agent is used up by it;
3. the chat runs to its end (``continue_chat``) and its ``ChatResult`` is returned.

Written once as a generator of steps (as the rounds are), driven by the sync or the async driver; the
pattern forks (``agentchat.group.durable.fork_chat``) run the same steps on the group chat a pattern sets up.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Any, Generator, Optional, Union

from ..chat import ChatResult
from ..conversable.agent_args import shown
from .durable.checkpoint_file import checkpoint_path, load_checkpoint
from .durable.snapshot import check_targets, clear_pending_choice
from .durable_resume import reopen_run, saved_round
from .resume import load_resume_messages, resume_steps
from .rounds import end, lent_cache, publish
from .stepping import begin_steps, chat_result, step_rounds
from .steps import Step, a_run_steps, arguments_of, run_steps
from .transcript import load_transcript

__all__ = ["ForkPlan", "ForkRecord", "a_fork_group_chat", "fork_group_chat", "fork_steps", "load_fork_record",
           "plan_fork"]

Recorded = Union[list[dict[str, Any]], str, "os.PathLike[str]"]


@dataclass
class ForkRecord:
    """A recorded run as a fork reads it: its messages and, from a transcript file, its checkpoint.

    Args:
        messages: a private copy of the recorded messages.
        path: the transcript file they were read from (None: given as a list or a JSON string).
        checkpoint: the parsed checkpoint beside that transcript (None: no file, or messages not from a file).
    """

    messages: list[dict[str, Any]]
    path: Optional[str] = None
    checkpoint: Any = None

    def state_before(self, at_round: int) -> Optional[dict[str, Any]]:
        """The checkpoint state when ``messages[at_round - 1]`` was appended (None without a checkpoint)."""
        return None if self.checkpoint is None else self.checkpoint.state_at(at_round - 1)


def load_fork_record(messages: Union[Recorded, ForkRecord]) -> ForkRecord:
    """The recorded run of a fork: a list of messages, a JSON string, or a transcript file given as a path.

    A ``str`` is always JSON text (``messages_to_string``); a transcript file is given as an ``os.PathLike``
    (``Path("chat.jsonl")``), so that a file name is never read as messages or the reverse.

    Raises:
        TypeError / ValueError: messages of no such kind, bad JSON (a str naming a file: give ``Path(...)``),
            or a corrupt transcript or checkpoint line (the message names the file and the line).
    """
    if isinstance(messages, ForkRecord):
        return ForkRecord(load_resume_messages(messages.messages), messages.path, messages.checkpoint)
    if isinstance(messages, os.PathLike):
        path = os.fspath(messages)
        checkpoint = load_checkpoint(checkpoint_path(path))
        return ForkRecord(load_transcript(path), str(path), checkpoint if checkpoint.indexes else None)
    try:
        return ForkRecord(load_resume_messages(messages))
    except ValueError:
        if isinstance(messages, str) and len(messages) < 4096 and os.path.isfile(messages):
            raise ValueError(
                f"fork: messages {messages!r} is the name of a file, but a str is read as JSON messages "
                f"(messages_to_string): give Path({messages!r}) to fork from that transcript (and its checkpoint)."
            ) from None
        raise


@dataclass
class ForkPlan:
    """What a fork replays and changes, checked before anything is touched.

    Args:
        replay: the messages given to ``resume``: the kept ones, plus the new message when ``message`` is given.
        chosen: the agent who replies at ``at_round`` (None: selection chooses, or the new message is said).
        context_variables: updates for the agents' context variables (empty: none).
        new_message: whether the last of ``replay`` is the new message said at ``at_round``.
        rounds: the rounds the record had counted once ``messages[at_round - 1]`` was appended.
        state: the checkpoint state at that moment, restored before the change (None: none recorded).
        where: the checkpoint file of ``state``, named in errors.
    """

    replay: list[dict[str, Any]]
    chosen: Any = None
    new_message: bool = False
    context_variables: dict[str, Any] = field(default_factory=dict)
    rounds: int = 0
    state: Optional[dict[str, Any]] = None
    where: str = ""


def _participant(groupchat: Any, name: Any) -> Any:
    """The agent of the group chat called ``name`` (None when there is none)."""
    return groupchat.agent_by_name(name) if isinstance(name, str) else None


def _speaker_agent(groupchat: Any, speaker: Any) -> Any:
    """``speaker`` (an agent of the group chat, or its name) as the group chat's agent."""
    names = groupchat.agent_names
    if isinstance(speaker, str):
        agent = groupchat.agent_by_name(speaker)
        if agent is None:
            raise ValueError(f"fork: speaker {speaker!r} is not an agent of the group chat; its agents are {names}.")
        return agent
    if not hasattr(speaker, "name"):
        raise TypeError(f"fork: speaker must be an agent of the group chat or its name; got {shown(speaker)}.")
    if not any(speaker is agent for agent in groupchat.agents):
        # Usually an agent of the recorded run's setup: the fork runs on the fresh manager's agents.
        raise ValueError(
            f"fork: speaker {speaker.name!r} is not an agent of this group chat (an agent of another setup?): give "
            f"its name, speaker={speaker.name!r}, to use the group chat's agent of that name; its agents are {names}."
        )
    return speaker


def _new_message(message: Any, recorded: dict[str, Any], sender: Any, at_round: int) -> dict[str, Any]:
    """The message said at ``at_round`` instead of the recorded one, as a message dict named after ``sender``."""
    if isinstance(message, str):
        return {"content": message, "role": recorded.get("role") or "user", "name": sender.name}
    if isinstance(message, dict):
        name = message.get("name", sender.name)
        if name != sender.name:
            raise ValueError(
                f"fork: message names {name!r}, but messages[{at_round}] is said by {sender.name!r}: leave 'name' "
                f"out, or give speaker={name!r} to have that agent say it."
            )
        return {"role": "user", **message, "name": sender.name}
    raise TypeError(f"fork: message must be a str (the new content) or a message dict; got {shown(message)}.")


def _same_file(first: Any, second: Any) -> bool:
    return first is not None and second is not None and (
        os.path.realpath(os.fspath(first)) == os.path.realpath(os.fspath(second)))


def plan_fork(
    manager: Any,
    messages: Union[Recorded, ForkRecord],
    at_round: Any,
    speaker: Any = None,
    message: Any = None,
    context_variables: Optional[dict[str, Any]] = None,
) -> ForkPlan:
    """Check a fork's arguments against ``manager`` and say what it will replay, restore and change.

    Raises:
        TypeError / ValueError: naming the argument and the fix (see ``fork_group_chat``).
        NotImplementedError: ``context_variables`` for a group chat whose agents keep none.
    """
    groupchat = getattr(manager, "groupchat", None)
    if groupchat is None or not hasattr(groupchat, "agents"):
        raise TypeError(f"fork: manager must be a GroupChatManager (with a GroupChat); got {shown(manager)}.")
    if groupchat.messages:
        raise ValueError(
            f"fork: the group chat of {manager.name!r} already holds {len(groupchat.messages)} message(s); a fork "
            "starts on a fresh setup: build new agents, group chat and manager (as for resume)."
        )
    record = load_fork_record(messages)  # a private copy; a JSON string is parsed, a path read
    recorded = record.messages
    if _same_file(record.path, getattr(groupchat, "transcript_path", None)):
        raise ValueError(
            f"fork: the group chat's transcript_path is the recorded run's transcript ({record.path!r}); the fork "
            "is a new chat: give its GroupChat another transcript_path (or none)."
        )
    if isinstance(at_round, bool) or not isinstance(at_round, int):
        raise TypeError(f"fork: at_round must be an int (how many recorded messages to keep); got {shown(at_round)}.")
    if not 1 <= at_round < len(recorded):
        raise ValueError(
            f"fork: at_round must be between 1 and {len(recorded) - 1} for these {len(recorded)} messages (the fork "
            f"keeps messages[:at_round] and changes messages[at_round]); got {at_round}."
            + (" A new opening message is a new chat, not a fork." if at_round == 0 else "")
        )
    state = record.state_before(at_round)
    where = "" if record.checkpoint is None else record.checkpoint.path
    if state is not None:
        check_targets(state, where)
    rounds = saved_round(state, at_round)
    if rounds >= groupchat.max_round:
        raise ValueError(
            f"fork: the group chat's max_round ({groupchat.max_round}) leaves no round after the {at_round} kept "
            f"messages{'' if rounds == at_round else f' ({rounds} rounds, as the checkpoint counted them)'}: give "
            f"the fork's GroupChat max_round > {rounds} (the record's max_round, usually)."
        )
    before = recorded[at_round - 1]
    if _participant(groupchat, before.get("name")) is None or before.get("role") == "function":
        raise ValueError(
            f"fork: messages[{at_round - 1}], the last kept message, was sent by {before.get('name')!r}, not by an "
            f"agent of the group chat, so the chat cannot go on from it: fork at another round."
        )
    chosen = None if speaker is None else _speaker_agent(groupchat, speaker)
    replay = recorded[:at_round]
    if message is not None:
        sender = chosen if chosen is not None else _participant(groupchat, recorded[at_round].get("name"))
        if sender is None:
            raise ValueError(
                f"fork: messages[{at_round}] was sent by {recorded[at_round].get('name')!r}, not by an agent of the "
                "group chat: give speaker= to say who says the new message."
            )
        replay = replay + [_new_message(message, recorded[at_round], sender, at_round)]
        chosen = None  # the new message is this round's: nobody replies to it instead
    updates: dict[str, Any] = {}
    if context_variables is not None:
        if not isinstance(context_variables, dict):
            raise TypeError(
                f"fork: context_variables must be a dict of the values to set; got {shown(context_variables)}."
            )
        if not any(hasattr(agent, "context_variables") for agent in groupchat.agents):
            raise NotImplementedError(
                "fork: context_variables updates the context variables of the group chat's agents "
                "(ConversableAgent.context_variables), and none of these agents keeps any; supported: speaker, "
                "message."
            )
        updates = dict(context_variables)
    return ForkPlan(replay=replay, chosen=chosen, context_variables=updates, new_message=message is not None,
                    rounds=rounds, state=state, where=where)


def _set_context(groupchat: Any, updates: dict[str, Any]) -> None:
    """Apply ``updates`` to every agent's context variables (once per shared object)."""
    seen: set[int] = set()
    for agent in groupchat.agents:
        variables = getattr(agent, "context_variables", None)
        if variables is None or id(variables) in seen:
            continue
        seen.add(id(variables))
        variables.update(updates)


def fork_steps(manager: Any, plan: ForkPlan) -> Generator[Step, Any, ChatResult]:
    """The steps of a fork planned by :func:`plan_fork`; the result is the forked chat's ``ChatResult``."""
    groupchat = manager.groupchat
    silent = bool(getattr(manager, "_silent", False))
    quiet = silent or not plan.new_message  # a new message is shown (the fork's first word)
    last_agent, last_message = yield from resume_steps(manager, plan.replay, None, silent)
    # The record's rounds count from its opening message: so do the fork's (max_round bounds both alike).
    rounds = plan.rounds + plan.new_message
    if plan.state is None:
        if plan.new_message:
            clear_pending_choice(manager)  # the recorded speaker was chosen: its new message answers that choice
        # Published again as the classic continuation would.
        yield from begin_steps(manager, last_agent, last_message, False, quiet)
        run = manager._chat_run
        run.rounds = rounds
        if not run.ended and run.rounds >= groupchat.max_round:  # as publish would have ended it, with that count
            end(run, f"max_round ({groupchat.max_round}) reached.", show=False,
                classic=f"Maximum rounds ({groupchat.max_round}) reached")
    else:
        # As a resumed run goes on: the record's state back first, then the last message published.
        run = yield from reopen_run(manager, last_agent, last_message, plan.state, plan.where,
                                    rounds=rounds - 1, silent=quiet)
        if plan.new_message:
            clear_pending_choice(manager)
        with lent_cache(manager, groupchat):
            yield from publish(run)
    if run.ended and plan.new_message:
        return chat_result(manager)  # the new message ended the chat: that is the fork's outcome
    if run.ended:
        raise ValueError(
            f"fork: the chat ends at the last replayed message ({run.end_reason}), with this manager's termination "
            "settings: the recorded chat went on, so the fork's setup differs from the record's."
        )
    if plan.context_variables:
        _set_context(groupchat, plan.context_variables)
    if plan.chosen is not None:
        clear_pending_choice(manager)  # the named speaker takes this round's selection, and what it would follow
        yield from step_rounds(manager, 1, chosen=plan.chosen)
    if not run.ended:  # an ended run is not reopened: a whole run would have stopped there too
        yield from step_rounds(manager, math.inf)
    return chat_result(manager)


def fork_group_chat(
    manager: Any,
    messages: Recorded,
    at_round: int,
    *,
    speaker: Any = None,
    message: Optional[Union[str, dict[str, Any]]] = None,
    context_variables: Optional[dict[str, Any]] = None,
) -> ChatResult:
    """Start a new run from round ``at_round`` of a recorded group chat, with one thing changed, to its end.

    Args:
        manager: a fresh ``GroupChatManager`` set up as for the recorded chat (same agent names; its group
            chat holds no message yet). The fork runs on it: read ``manager.groupchat`` afterwards.
        messages: the recorded run: ``groupchat.messages``, ``load_transcript(path)``, a JSON string made by
            ``messages_to_string``, or the transcript file as a path (``Path("chat.jsonl")``, not a str: a str
            is JSON text): with its checkpoint (``<path>.state``, written by ``GroupChat(transcript_path=...)``)
            the state at ``messages[at_round - 1]`` is restored (see below). It is not changed.
        at_round: how many recorded messages the fork keeps (``messages[:at_round]``, the opening message
            included); the change decides ``messages[at_round]``. From 1 to ``len(messages) - 1``.
        speaker: the agent (of this group chat) or the name of the agent who speaks at ``at_round`` instead
            of whoever did: it replies to the kept messages.
        message: the message said at ``at_round`` instead of the recorded one (a str content or a message
            dict), by the recorded speaker, or by ``speaker`` when both are given.
        context_variables: values set in the agents' context variables (``ConversableAgent.context_variables``,
            which their tools and reply functions read) before ``at_round``; alone, selection then chooses who
            speaks. The replay does not rerun tools: without a checkpoint the variables start as the fresh
            agents hold them; with one, as the record had them at ``at_round``, then updated.

    From a transcript file with a checkpoint, the fork goes on as the record did: context variables, a
    pending hand-off or forced target, auto-reply counters, the ``random_source`` state, the selection trace
    and the round count are restored as they were when ``messages[at_round - 1]`` was appended, before the
    change. A ``speaker`` or ``message`` replaces that round's selection, so a restored pending hand-off,
    forced target or first turn of a pattern's initial agent is dropped. Without a checkpoint (a list, a
    JSON string, a transcript written without one) nothing but the messages is restored.

    With no change the chat simply goes on from ``at_round``: a baseline (it repeats the record's
    continuation when the agents answer alike and selection is deterministic, seeded, or restored).

    Returns:
        ChatResult: the fork's whole chat (``chat_history`` holds the kept messages, then the new ones), cost
        and ``termination``; ``manager.end_reason`` says why it ended.

    Raises:
        TypeError / ValueError: bad arguments, before anything changes: ``at_round`` out of range or not
            below the group chat's ``max_round``, an unknown ``speaker``, a group chat that is not empty, a
            ``message`` naming another agent, messages ``resume`` refuses, a str naming a file (give
            ``Path(...)``), a corrupt transcript or checkpoint line, a fork writing to the record's transcript.
        NotImplementedError: ``context_variables`` with agents that keep none.
    """
    plan = plan_fork(manager, messages, at_round, speaker, message, context_variables)
    manager._raise_exception_on_async_reply_functions()
    return run_steps(fork_steps(manager, plan))


async def a_fork_group_chat(manager: Any, messages: Recorded, at_round: int, **change: Any) -> ChatResult:
    """(async) Fork a recorded group chat on the async agent API; see :func:`fork_group_chat`.

    Args:
        change: ``speaker``, ``message`` and/or ``context_variables``, as for :func:`fork_group_chat` (an
            unknown keyword is a ``TypeError``).
    """
    given = arguments_of(fork_group_chat, manager, messages, at_round, **change)
    plan = plan_fork(*given.values())
    return await a_run_steps(fork_steps(manager, plan))
