"""The rounds of a group chat, written once as generators of I/O steps (see :mod:`.steps`).

A run's state between rounds is a :class:`ChatRun`: who spoke last, the newest message, how many
rounds ran and whether (and why) the run ended. ``chat_rounds`` runs a chat from its opening
message to the end; the step-by-step API of the manager (``begin``, ``step``, ``invoke``,
``continue_chat``) drives the same two pieces, :func:`publish` (append, forward, check the end) and
:func:`take_turn` (select, reply, send), so a chat run step by step equals a whole run with the
same selections.
"""

from __future__ import annotations

import logging
import operator
import time
from dataclasses import dataclass, field
from typing import Any, Generator, Optional

from ...exception_utils import InvalidArgumentTypeError, NoEligibleSpeaker
from ...events.chat_events import GroupChatRunChatEvent
from ...events.run_events import GroupChatEndEvent, TerminationEvent
from ...io.base import IOStream
from ...io.emit import emit, emit_run_event, send_to
from ...io.input_details import allow_parking
from ...io.parked import ParkRequested
from ..conversable.agent_args import printable_name, shown
from ..termination import StopMessage, TerminationCondition, TerminationContext
from .durable.parked_file import park_turn
from .durable.snapshot import follow_run
from .clear_history import apply_clear_history, parse_clear_history
from .guardrail_turns import forwarded_message, guarded_input, guarded_output
from .selection.pipeline import SELECTION_RETURNED_NONE
from .steps import CheckTermination, GenerateReply, SelectSpeaker, Send, Step

__all__ = ["ChatRun", "chat_rounds", "lent_cache", "open_run", "publish", "run_rounds", "take_turn"]

logger = logging.getLogger("autogen_classic.agentchat.groupchat.manager")

_TOKEN_KEYS = ("prompt_tokens", "completion_tokens", "total_tokens")


@dataclass
class ChatRun:
    """The state of one group chat run, kept between its rounds (and between steps).

    Args:
        manager: the agent running the chat (usually a ``GroupChatManager``).
        groupchat: the ``GroupChat`` it runs.
        speaker: the agent who sent ``message``.
        message: the newest message, to be published (appended and forwarded) next, or already published.
        rounds: how many messages this run appended to the group chat.
        published: whether ``message`` was appended and forwarded.
        ended: whether the run is over; ``end_reason`` says why and ``stop`` holds the condition that fired.
    """

    manager: Any
    groupchat: Any
    speaker: Any
    message: dict[str, Any]
    rounds: int = 0
    published: bool = False
    ended: bool = False
    end_reason: Optional[str] = None
    stop: Optional[StopMessage] = None
    started_at: float = field(default_factory=time.monotonic)
    usage_baseline: dict[str, int] = field(default_factory=dict)

    def usage(self) -> dict[str, int]:
        """Tokens spent by the chat's model clients since the run started."""
        now = _token_totals(self.manager)
        return {key: now.get(key, 0) - self.usage_baseline.get(key, 0) for key in _TOKEN_KEYS}

    def context(self) -> TerminationContext:
        """What a termination condition may read besides the newest message."""
        # A hand-off tool executor remembers the hand-off its tools asked for until the next selection.
        pending = getattr(self.speaker, "pending_handoff_agent", None)
        return TerminationContext(
            messages=self.groupchat.messages, speaker=getattr(self.speaker, "name", None), round=self.rounds,
            started_at=self.started_at, usage=self.usage, handoff=pending() if callable(pending) else None,
        )


def _token_totals(manager: Any) -> dict[str, int]:
    totals = dict.fromkeys(_TOKEN_KEYS, 0)
    for client in getattr(manager, "usage_clients", None) or ():
        summary = getattr(client, "total_usage_summary", None) or {}
        for usage in summary.values():
            if isinstance(usage, dict):
                for key in _TOKEN_KEYS:
                    totals[key] += int(usage.get(key, 0) or 0)
    return totals


def open_run(manager: Any, groupchat: Any, speaker: Any, message: dict[str, Any]) -> ChatRun:
    """Start a run whose opening ``message`` was sent by ``speaker``; reset the chat's termination conditions."""
    _check_max_round(groupchat.max_round)
    groupchat.is_complete = False
    if hasattr(manager, "stop_message"):
        manager.stop_message = None
    for condition in _conditions(manager, groupchat):
        condition.reset()
    run = ChatRun(manager, groupchat, speaker, message)
    follow_run(run)  # with a transcript_path, each message's checkpoint line is taken from this run
    if getattr(groupchat, "termination", None) is not None or _conditions(manager, groupchat):
        run.usage_baseline = _token_totals(manager)
    return run


def _conditions(manager: Any, groupchat: Any) -> list[TerminationCondition]:
    found = [c for c in (getattr(groupchat, "termination", None), getattr(manager, "_is_termination_msg", None))
             if isinstance(c, TerminationCondition)]
    return found


class lent_cache:  # noqa: N801 - a context manager used like a function
    """The manager's ``client_cache`` serves every participant while the rounds run."""

    def __init__(self, manager: Any, groupchat: Any) -> None:
        self.cache = manager.client_cache
        self.agents = list(groupchat.agents)

    def __enter__(self) -> None:
        if self.cache is not None:
            for agent in self.agents:
                agent.previous_cache = agent.client_cache
                agent.client_cache = self.cache

    def __exit__(self, *exc: Any) -> None:
        if self.cache is not None:
            for agent in self.agents:
                agent.client_cache = agent.previous_cache
                agent.previous_cache = None


def introductions(manager: Any, groupchat: Any) -> Generator[Step, Any, None]:
    """Send the introductions to each participant (not appended to ``groupchat.messages``, as classically)."""
    if getattr(groupchat, "send_introductions", False):
        intro = groupchat.introductions_msg()
        for agent in groupchat.agents:
            yield Send(manager, intro, agent)


def chat_rounds(
    manager: Any, groupchat: Any, messages: Optional[list[dict[str, Any]]], sender: Any
) -> Generator[Step, Any, tuple[bool, None]]:
    """The rounds of a group chat, as steps for ``run_steps`` / ``a_run_steps``.

    Each round: the message is appended to the group chat once and forwarded to every other participant; the
    chat ends on a termination message or condition, at ``max_round``, when no speaker is eligible or when the
    speaker gives no reply; otherwise the next speaker is selected, announced, asked for its reply and sends it
    to the manager. ``manager`` may be a GroupChatManager or any ConversableAgent the reply function is
    registered on.
    """
    if messages is None:
        messages = manager._oai_messages[sender]
    first = messages[-1]  # taken before the introductions, which the manager also sends to the sender
    yield from introductions(manager, groupchat)
    with lent_cache(manager, groupchat):
        run = open_run(manager, groupchat, sender, first)
        if hasattr(manager, "_chat_run"):
            manager._chat_run = run
        yield from run_rounds(run)
    return True, None


def run_rounds(run: ChatRun, first_speaker: Any = None) -> Generator[Step, Any, None]:
    """Publish the run's newest message, then take turns and publish each reply until the run ends.

    ``first_speaker``: the agent whose turn comes first, already chosen (a resumed chat parked at that agent's
    human reply); None: the speaker selection chooses, as for every later turn.
    """
    yield from publish(run)
    while not run.ended:
        yield from _parkable_turn(run, first_speaker)
        first_speaker = None
        if not run.ended:
            yield from publish(run)


def _parkable_turn(run: ChatRun, chosen: Any) -> Generator[Step, Any, None]:
    """``take_turn``, whose input requests may be parked when the group chat keeps a transcript: a parked
    request is written beside it and ends the chat with ``RunParked``."""
    transcript = getattr(run.groupchat, "_transcript", None)
    path = None if transcript is None or transcript.closed else str(transcript.path)
    before = allow_parking(path)
    try:
        yield from take_turn(run, chosen)
    except ParkRequested as request:
        if path is None:
            raise
        raise park_turn(run.groupchat, request) from None
    finally:
        allow_parking(before)


def publish(run: ChatRun) -> Generator[Step, Any, None]:
    """Append the run's newest message to the group chat, forward it, and end the run if it should end."""
    manager, groupchat, speaker, message = run.manager, run.groupchat, run.speaker, run.message
    # max_round is read every round: a change made during the chat applies at once.
    if run.rounds >= groupchat.max_round:
        end(run, f"max_round ({groupchat.max_round}) reached.", show=False,
            classic=f"Maximum rounds ({groupchat.max_round}) reached")
        return
    if hasattr(manager, "_last_speaker"):
        manager._last_speaker = speaker
    groupchat.append(message, speaker)
    run.rounds += 1
    run.published = True
    checked = bool(getattr(groupchat, "_inter_agent_guardrails", None))  # a safeguard policy's checks
    for agent in list(groupchat.agents):
        if agent != speaker:
            copy = (yield from forwarded_message(groupchat, speaker, agent, message)) if checked else message
            yield Send(manager, copy, agent)
    stop = yield from _termination(run)
    if stop is not None:
        groupchat.is_complete = True
        end(run, stop.content, show=False, stop=stop, classic=_classic_stop_reason(manager, stop))
    elif run.rounds >= groupchat.max_round:
        end(run, f"max_round ({groupchat.max_round}) reached.", show=False,
            classic=f"Maximum rounds ({groupchat.max_round}) reached")


def _termination(run: ChatRun) -> Generator[Step, Any, Optional[StopMessage]]:
    """The stop message when the newest message ends the chat: ``is_termination_msg`` first, then ``termination``."""
    manager, message = run.manager, run.message
    check = manager._is_termination_msg
    if isinstance(check, TerminationCondition):
        stop = yield CheckTermination(check, [message], run.context())
        if stop is not None:
            return stop  # type: ignore[no-any-return]
    elif check(message):
        name = getattr(run.speaker, "name", None)
        return StopMessage(
            f"{name} sent a termination message.", "is_termination_msg", {"speaker": name}
        )
    condition = getattr(run.groupchat, "termination", None)
    if condition is None:
        return None
    return (yield CheckTermination(condition, [message], run.context()))  # type: ignore[no-any-return]


def take_turn(run: ChatRun, chosen: Any = None) -> Generator[Step, Any, None]:
    """Select the next speaker (or take ``chosen``), ask for its reply and send it to the manager.

    Sets the run's new speaker and message, or ends the run (no eligible speaker, no reply).
    """
    manager, groupchat = run.manager, run.groupchat
    silent = bool(getattr(manager, "_silent", False))
    try:
        speaker = chosen if chosen is not None else (yield SelectSpeaker(groupchat, run.speaker, manager))
        if not silent:
            emit(GroupChatRunChatEvent, speaker=printable_name(speaker, "speaker_name"), verbose=True)
        guarded = yield from guarded_input(groupchat, speaker, manager)
        reply = guarded if guarded is not None else (yield GenerateReply(speaker, manager))
    except KeyboardInterrupt:
        admin = _admin_of(groupchat)
        if admin is None:
            raise
        speaker = admin
        if not silent:
            emit(GroupChatRunChatEvent, speaker=printable_name(speaker, "speaker_name"), verbose=True)
        guarded = None
        reply = yield GenerateReply(speaker, manager)
    except NoEligibleSpeaker as e:
        # A selection function returning None is the usual way to end: the classic line says all there is.
        show = not silent and str(e) != SELECTION_RETURNED_NONE
        end(run, str(e) or "No eligible speakers.", show=show, classic="No next speaker selected")
        return
    if reply is None:
        end(run, f"{speaker.name} gave no reply.", show=False, classic="No reply generated", recipient=speaker)
        return
    if guarded is None:  # an input guardrail's reply is not checked again
        reply = yield from guarded_output(groupchat, speaker, reply)
    reply = _clear_history_if_asked(groupchat, reply)
    yield Send(speaker, reply, manager, silent=silent)
    run.speaker = speaker
    run.message = manager.last_message(speaker)
    run.published = False


def end(run: ChatRun, reason: str, *, show: bool, stop: Optional[StopMessage] = None,
        classic: Optional[str] = None, recipient: Any = None) -> None:
    """End the run: record why on the run and the manager, and emit the end events.

    ``classic`` is the reason as AG2 Classic 0.14 words it in its ``TerminationEvent`` (sent to a run's stream
    only, as for two-agent chats); ``recipient`` the agent it names (default: the last speaker).
    """
    run.ended, run.end_reason, run.stop = True, reason, stop
    manager = run.manager
    if hasattr(manager, "end_reason"):
        manager.end_reason = reason
        manager.stop_message = stop
    messages = getattr(run.groupchat, "messages", None)
    count = len(messages) if isinstance(messages, list) else 0
    logger.debug("Group chat of %s ended after %d messages: %s", getattr(manager, "name", None), count, reason)
    # A chat of AG2 0.14's group orchestration (initiate_group_chat) prints its TerminationEvent, as 0.14 does.
    prints_termination = bool(getattr(manager, "_prints_termination_events", False)) and classic is not None
    emit(GroupChatEndEvent, manager_name=str(getattr(manager, "name", "")), end_reason=reason, message_count=count,
         termination=None if stop is None else stop.to_dict(), complete=stop is not None,
         verbose=show and not prints_termination)
    if classic is not None:
        last = recipient if recipient is not None else run.speaker
        fields = dict(termination_reason=classic, sender=str(getattr(manager, "name", "")),
                      recipient=getattr(last, "name", None))
        if prints_termination:
            send_to(IOStream.get_default(), TerminationEvent.build(**fields))
        else:  # printed too unless the chat or the manager is silent, as AG2 Classic 0.14 prints it
            emit_run_event(TerminationEvent, silent=bool(getattr(manager, "_silent", False)), **fields)


def _classic_stop_reason(manager: Any, stop: StopMessage) -> str:
    """What AG2 Classic 0.14 says when the manager's ``is_termination_msg`` ends a group chat (else the condition's text)."""
    if stop.source == "is_termination_msg":
        return f"Termination message condition on the GroupChatManager '{getattr(manager, 'name', '')}' met"
    return stop.content


def _clear_history_if_asked(groupchat: Any, reply: Any) -> Any:
    """Apply a "clear history" command found in ``reply`` and return the reply without it."""
    if not getattr(groupchat, "enable_clear_history", False):
        return reply
    as_dict = {"content": reply} if isinstance(reply, str) else reply
    content = as_dict.get("content") if isinstance(as_dict, dict) else None
    if not isinstance(content, str):
        return reply
    command = parse_clear_history(content, groupchat.agents)
    if command is None:
        return reply
    apply_clear_history(command, as_dict, groupchat)
    if isinstance(reply, str):
        return command.remaining_text
    return {**reply, "content": command.remaining_text}


def _check_max_round(max_round: Any) -> None:
    """Refuse a ``max_round`` that is not a whole number, when the chat starts (as the classic package did)."""
    try:
        operator.index(max_round)
    except TypeError:
        raise InvalidArgumentTypeError(
            f"'{type(max_round).__name__}' object cannot be interpreted as an integer: GroupChat max_round must "
            f"be an int >= 1 (the most rounds of the chat); got {shown(max_round)}."
        ) from None


def _admin_of(groupchat: Any) -> Any:
    """The participant named ``admin_name``, who takes over on Ctrl-C; None when there is none."""
    if groupchat.admin_name not in groupchat.agent_names:
        return None
    return groupchat.agent_by_name(groupchat.admin_name)
