"""Choosing the next speaker of a group chat: the selection entry points and the methods.

One selection runs in this order (each step is recorded in the selection trace):

1. A custom selection function (``speaker_selection_method`` callable) may return an agent (chosen,
   no filter applies), a method name (used below) or None (the chat ends).
2. The candidate pipeline (:mod:`.candidates`): all agents, the function-call filter (which may
   pin the one agent able to run a suggested call), the repeat rule, the transition graph and the
   eligibility policies.
3. No candidate left: ``NoEligibleSpeaker`` with the reason. One left: it speaks. Otherwise the method
   chooses: round robin, random, manual (console, :mod:`.manual`) or auto (model, :mod:`.auto`).

The sync and async entry points share every step except the model chat itself.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from typing import Any

from ....exception_utils import NoEligibleSpeaker
from ....io import IOStream
from ....messages.emit import listening, send_to
from ....logger.redaction import redact_secrets
from ....messages.run_events import SpeakerSelectionMessage
from ....types import is_agent
from ...agent import Agent
from ...conversable.agent_args import check_speaker_selection_method
from .auto import SpeakerSelectorChat, selector_chat_for, warn_no_model
from .candidates import agent_name, candidate_agents
from .manual import console_choice
from .state import GroupState
from .trace import HandoffStep, SelectionRecord

__all__ = ["a_auto_select_speaker", "a_select_speaker", "auto_select_speaker", "select_speaker"]

# The classic module name: logging configured for the group chat applies here.
logger = logging.getLogger("autogen_classic.agentchat.groupchat")


@dataclass
class _AutoJob:
    """An "auto" selection still to run (sync or async): the nested chat and the model's view of the chat."""

    chat: SpeakerSelectorChat
    messages: list[dict[str, Any]]
    candidates: list[Agent]
    reason_prefix: str = ""


def _resolve_method(
    groupchat: GroupState, last_speaker: Agent, record: SelectionRecord
) -> tuple[Agent | None, str, str]:
    """Apply a custom selection function; return ``(agent chosen by it, method name, reason prefix)``."""
    method = groupchat.speaker_selection_method
    prefix = ""
    if callable(method):
        record.method = "callable"
        try:
            result = method(last_speaker, groupchat)
        finally:
            # A selection callable may explain its decision (e.g. a swarm hand-off) in ``last_reason``; a
            # hand-off transition (a group chat of patterns) also says what moved the turn as a structured step,
            # kept in the record even when resolving it failed.
            why = getattr(method, "last_reason", None)
            record.reason = why if isinstance(why, str) else ""
            handoff = getattr(method, "last_handoff", None)
            if isinstance(handoff, HandoffStep):
                record.handoff = handoff
                record.method = "handoff"
        if result is None:
            raise NoEligibleSpeaker("Custom speaker selection function returned None. Terminating conversation.")
        if isinstance(result, str):
            method = result
            said = f"{record.reason}; " if record.reason else ""
            prefix = f"{said}the custom selection function chose the method {result!r}; "
        elif is_agent(result):  # cached per class: a protocol isinstance walks its members every time
            if result not in groupchat.agents:
                raise ValueError(
                    f"Custom speaker selection function returned an agent {result.name} not in the group chat."
                )
            return result, "callable", ""
        else:
            raise ValueError(  # noqa: TRY004 - the classic error type
                f"Custom speaker selection function returned an object of type {type(result)} instead of Agent or str."
            )
    # ValueError for an unknown name, AttributeError for a value that is not a str, as in the classic package.
    check_speaker_selection_method(method, groupchat._VALID_SPEAKER_SELECTION_METHODS)
    record.method = method.lower()
    return None, method.lower(), prefix


def _check_population(groupchat: GroupState, last_speaker: Agent, method: str) -> None:
    count = len(groupchat.agents)
    if count < 2:
        raise ValueError(
            f"GroupChat is underpopulated with {count} agents. "
            "Please add more agents to the GroupChat or use direct communication instead."
        )
    repeat = groupchat.allow_repeat_speaker
    repeat_ok = repeat if isinstance(repeat, bool) or repeat is None else last_speaker in repeat
    if count == 2 and method != "round_robin" and repeat_ok:
        logger.warning(
            f"GroupChat is underpopulated with {count} agents. "
            "Consider setting speaker_selection_method to 'round_robin' or allow_repeat_speaker to False, "
            "or use direct communication, unless repeated speaker is desired."
        )


def _model_view(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The one copy of the history the selector reads; a trailing call suggestion is blanked for the API."""
    view = list(messages)
    if view and (view[-1].get("function_call") or view[-1].get("tool_calls")):
        view[-1] = {k: v for k, v in view[-1].items() if k not in ("function_call", "tool_calls")}
    return view


def _auto_or_round_robin(
    groupchat: GroupState, last_speaker: Agent, selector: Any, candidates: list[Agent], record: SelectionRecord,
    prefix: str,
) -> Any:
    chat = selector_chat_for(groupchat, selector)
    if chat is not None:
        return _AutoJob(chat, _model_view(groupchat.messages), candidates, prefix)
    chosen = groupchat.next_agent(last_speaker, candidates)
    last = agent_name(last_speaker)
    record.reason = f"{prefix}no model is configured for auto selection; round robin after {last}"
    return chosen


def _plan(groupchat: GroupState, last_speaker: Agent, selector: Any, record: SelectionRecord) -> Any:
    """Everything but the model chat: return the chosen agent, or an ``_AutoJob`` to run."""
    direct, method, prefix = _resolve_method(groupchat, last_speaker, record)
    if direct is not None:
        record.reason = record.reason or "the custom selection function returned this agent"
        return direct
    _check_population(groupchat, last_speaker, method)
    candidates, pinned = candidate_agents(groupchat, last_speaker, record)
    if pinned is not None:
        record.reason = f"{prefix}the only agent able to execute the suggested function call"
        return pinned
    if len(candidates) == 1:
        record.reason = f"{prefix}the only eligible candidate"
        return candidates[0]

    if method == "round_robin":
        record.reason = f"{prefix}round robin after {agent_name(last_speaker)}"
        return groupchat.next_agent(last_speaker, candidates)
    if method == "random":
        record.reason = f"{prefix}random choice among {len(candidates)} candidates"
        return (getattr(groupchat, "random_source", None) or random).choice(candidates)
    if method == "manual":
        chosen, why = console_choice(candidates, record)
        if chosen is not None:
            record.reason = f"{prefix}chosen at the console"
            return chosen
        # The prompt promises auto selection; without a model, round robin is the automatic choice.
        prefix = f"{prefix}manual: {why}; "
        if selector_chat_for(groupchat, selector) is None:
            record.reason = f"{prefix}round robin after {agent_name(last_speaker)} (no model for auto selection)"
            return groupchat.next_agent(last_speaker, candidates)
    job = _auto_or_round_robin(groupchat, last_speaker, selector, candidates, record, prefix)
    if not isinstance(job, _AutoJob) and method == "auto":
        warn_no_model(groupchat)
    return job


def _start(groupchat: GroupState, last_speaker: Agent) -> SelectionRecord:
    record = SelectionRecord(
        round=len(groupchat.selection_log),
        method=str(groupchat.speaker_selection_method),
        last_speaker=agent_name(last_speaker),
    )
    groupchat.selection_log.append(record)
    return record


def _announce(record: SelectionRecord, selector: Any) -> None:
    """The decision as an event (for listeners beyond the plain console) and a DEBUG log record."""
    logger.debug("Speaker selection, round %d (%s): %s; %s", record.round, record.method, record.chosen,
                 record.reason)
    stream = IOStream.get_default()
    if listening(stream):
        send_to(stream, SpeakerSelectionMessage.build(
            manager_name=str(getattr(selector, "name", "")), record=redact_secrets(record.to_dict())))


def _done(record: SelectionRecord, chosen: Agent, selector: Any = None) -> Agent:
    record.chosen = chosen.name
    _announce(record, selector)
    return chosen


def _failed(record: SelectionRecord, error: BaseException, selector: Any = None) -> None:
    record.chosen = None
    text = error.message if isinstance(error, NoEligibleSpeaker) else f"{type(error).__name__}: {error}"
    record.reason = f"{record.reason + '; ' if record.reason else ''}{text}"
    _announce(record, selector)


def select_speaker(groupchat: GroupState, last_speaker: Agent, selector: Any) -> Agent:
    """Choose the speaker after ``last_speaker`` and record the decision in ``groupchat.selection_log``.

    Args:
        groupchat: the group chat.
        last_speaker: the agent that spoke last.
        selector: the agent selecting (the group chat manager); its ``llm_config`` is the default model
            of "auto" selection.

    Raises:
        NoEligibleSpeaker: when no agent may speak next; the message gives the reason.
    """
    record = _start(groupchat, last_speaker)
    try:
        planned = _plan(groupchat, last_speaker, selector, record)
        if isinstance(planned, _AutoJob):
            chosen = planned.chat.run(groupchat, last_speaker, planned.messages, planned.candidates, record)
            record.reason = planned.reason_prefix + record.reason
            return _done(record, chosen, selector)
        return _done(record, planned, selector)
    except BaseException as error:
        _failed(record, error, selector)
        raise


async def a_select_speaker(groupchat: GroupState, last_speaker: Agent, selector: Any) -> Agent:
    """(async) Choose the speaker after ``last_speaker``; see :func:`select_speaker`."""
    record = _start(groupchat, last_speaker)
    try:
        planned = _plan(groupchat, last_speaker, selector, record)
        if isinstance(planned, _AutoJob):
            chosen = await planned.chat.a_run(groupchat, last_speaker, planned.messages, planned.candidates, record)
            record.reason = planned.reason_prefix + record.reason
            return _done(record, chosen, selector)
        return _done(record, planned, selector)
    except BaseException as error:
        _failed(record, error, selector)
        raise


def _plan_auto(
    groupchat: GroupState, last_speaker: Agent, selector: Any, messages: list[dict[str, Any]] | None,
    agents: list[Agent] | None,
) -> tuple[SelectionRecord, Any]:
    """Start the record of an "auto"-only selection; return it with the chosen agent or the ``_AutoJob`` to run."""
    record = _start(groupchat, last_speaker)
    record.method = "auto"
    candidates = list(groupchat.agents if agents is None else agents)
    try:
        planned = _auto_or_round_robin(groupchat, last_speaker, selector, candidates, record, "")
    except BaseException as error:
        _failed(record, error, selector)
        raise
    if isinstance(planned, _AutoJob) and messages is not None:
        planned.messages = _model_view(messages)
    return record, planned


def auto_select_speaker(
    groupchat: GroupState,
    last_speaker: Agent,
    selector: Any,
    messages: list[dict[str, Any]] | None,
    agents: list[Agent] | None,
) -> Agent:
    """Run only the "auto" method: the model chooses among ``agents`` after reading ``messages``.

    Without a model, the next of ``agents`` after ``last_speaker`` (round robin). The decision is recorded in
    ``groupchat.selection_log``.

    Args:
        groupchat: the group chat.
        last_speaker: the agent that spoke last.
        selector: the selecting agent (its ``llm_config`` is the default model).
        messages: what the model reads (default: the group chat's messages).
        agents: the candidates (default: every agent of the group).
    """
    record, planned = _plan_auto(groupchat, last_speaker, selector, messages, agents)
    try:
        if isinstance(planned, _AutoJob):
            planned = planned.chat.run(groupchat, last_speaker, planned.messages, planned.candidates, record)
        return _done(record, planned, selector)
    except BaseException as error:
        _failed(record, error, selector)
        raise


async def a_auto_select_speaker(
    groupchat: GroupState,
    last_speaker: Agent,
    selector: Any,
    messages: list[dict[str, Any]] | None,
    agents: list[Agent] | None,
) -> Agent:
    """(async) Run only the "auto" method; see :func:`auto_select_speaker`."""
    record, planned = _plan_auto(groupchat, last_speaker, selector, messages, agents)
    try:
        if isinstance(planned, _AutoJob):
            planned = await planned.chat.a_run(groupchat, last_speaker, planned.messages, planned.candidates, record)
        return _done(record, planned, selector)
    except BaseException as error:
        _failed(record, error, selector)
        raise
