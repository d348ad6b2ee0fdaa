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

The classic hooks of ``GroupChat`` are honoured where the classic package calls them: a subclass's
``_prepare_and_select_agents`` replaces steps 1 to 3 up to the method's choice (its candidates are then
those the method chooses from), and overriding one of the hooks of the "auto" nested chat runs that
chat the classic way (:mod:`.classic_chat`). Without overrides, nothing of this costs a call.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Optional

from ....exception_utils import NoEligibleSpeaker
from ....io import IOStream
from ....io.emit import emit_quiet, listening
from ....events.run_events import SpeakerSelectionEvent
from ....logger.redaction import redact_secrets
from ....types import is_agent
from ...agent import Agent
from ...conversable.agent_args import shown
from . import classic_chat
from .auto import NO_SELECTION_MODEL, SpeakerSelectorChat, selector_chat_for
from .candidates import agent_name, candidate_agents
from .manual import console_choice
from .state import GroupState, check_speaker_selection_method, overridden
from .trace import HandoffStep, SelectionRecord, shared_text
from ..steps import a_run_steps, run_steps

__all__ = [
    "SELECTION_RETURNED_NONE", "a_auto_select_speaker", "a_select_speaker", "auto_select_speaker", "select_speaker",
]

SELECTION_RETURNED_NONE = "Custom speaker selection function returned None. Terminating conversation."

# The classic module name: logging configured for the group chat applies here.
logger = logging.getLogger("autogen_classic.agentchat.groupchat")


@dataclass
class _AutoJob:
    """An "auto" selection still to run (sync or async): the nested chat and the model's view of the chat."""

    chat: SpeakerSelectorChat
    messages: list[dict[str, Any]]
    candidates: list[Agent]
    reason_prefix: str = ""

    def run(self, groupchat: GroupState, last_speaker: Agent, selector: Any, record: SelectionRecord) -> Agent:
        if classic_chat.hooks_in_use(groupchat):
            steps = classic_chat.selection_steps(
                self.chat, groupchat, last_speaker, selector, self.messages, self.candidates, record)
            return run_steps(steps)  # type: ignore[arg-type]
        return self.chat.run(groupchat, last_speaker, self.messages, self.candidates, record)

    async def a_run(self, groupchat: GroupState, last_speaker: Agent, selector: Any, record: SelectionRecord) -> Agent:
        if classic_chat.hooks_in_use(groupchat):
            steps = classic_chat.selection_steps(
                self.chat, groupchat, last_speaker, selector, self.messages, self.candidates, record)
            return await a_run_steps(steps)  # type: ignore[arg-type]
        return await self.chat.a_run(groupchat, last_speaker, self.messages, self.candidates, record)

    def chose(self, chosen: Agent, record: SelectionRecord) -> Agent:
        """``chosen``, the model's choice, with ``reason_prefix`` put before the reason it gave."""
        record.reason = self.reason_prefix + record.reason
        return chosen


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
            raise NoEligibleSpeaker(SELECTION_RETURNED_NONE)
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
    record.method = shared_text(method.lower())
    return None, record.method, prefix


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


def _auto_job(
    groupchat: GroupState, last_speaker: Agent, selector: Any, candidates: list[Agent], record: SelectionRecord,
    prefix: str, messages: list[dict[str, Any]] | None = None,
) -> Any:
    chat = selector_chat_for(groupchat, selector)
    if chat is not None:
        return _AutoJob(chat, messages if messages is not None else _model_view(groupchat.messages), candidates, prefix)
    raise ValueError(NO_SELECTION_MODEL)


@dataclass
class _Selection:
    """One selection in progress, as far as the candidate stage goes: where it is recorded, the reason prefix
    built so far, the method resolved and what the built-in ``_prepare_and_select_agents`` returned."""

    record: SelectionRecord
    prefix: str = ""
    method: str = ""
    candidates: list[Agent] | None = None
    selected: Agent | None = None


Prepared = tuple[Optional[Agent], list[Agent], Optional[list[dict[str, Any]]]]


def _prepare(groupchat: GroupState, last_speaker: Agent, ctx: _Selection, model_view: bool) -> Prepared:
    """The candidate stage, as the classic ``_prepare_and_select_agents``: ``(agent chosen or None, candidates,
    the messages the model reads or None)``; the "auto" method and a manual choice left open return no agent.

    ``model_view``: return the model's copy of the messages for "auto" (the classic value); the pipeline
    itself makes it only when a model is asked.
    """
    record = ctx.record
    direct, method, prefix = _resolve_method(groupchat, last_speaker, record)
    ctx.method, ctx.prefix = method, prefix
    if direct is not None:
        record.reason = record.reason or "the custom selection function returned this agent"
        ctx.candidates, ctx.selected = groupchat.agents, direct
        return direct, groupchat.agents, None
    _check_population(groupchat, last_speaker, method)
    candidates, pinned = candidate_agents(groupchat, last_speaker, record)
    ctx.candidates = candidates
    chosen: Agent | None = None
    if pinned is not None:
        record.reason = f"{prefix}the only agent able to execute the suggested function call"
        chosen = pinned
    elif len(candidates) == 1:
        record.reason = shared_text(f"{prefix}the only eligible candidate")
        chosen = candidates[0]
    elif method == "round_robin":
        record.reason = shared_text(f"{prefix}round robin after {agent_name(last_speaker)}")
        chosen = groupchat.next_agent(last_speaker, candidates)
    elif method == "random":
        record.reason = shared_text(f"{prefix}random choice among {len(candidates)} candidates")
        chosen = (getattr(groupchat, "random_source", None) or random).choice(candidates)
    elif method == "manual":
        chosen, why = console_choice(candidates, record, groupchat)
        if chosen is not None:
            record.reason = f"{prefix}chosen at the console"
        else:
            ctx.prefix = f"{prefix}manual: {why}; "
    ctx.selected = chosen
    messages = _model_view(groupchat.messages) if model_view and chosen is None and method == "auto" else None
    return chosen, candidates, messages


def prepare_and_select_agents(groupchat: GroupState, last_speaker: Agent) -> Prepared:
    """The built-in ``GroupChat._prepare_and_select_agents``: the candidate stage of the selection running on
    ``groupchat`` (recorded in its record), or of a selection of its own (recorded nowhere) when called directly."""
    ctx = getattr(groupchat, "_selection_in_progress", None)
    if not isinstance(ctx, _Selection):
        ctx = _Selection(SelectionRecord(
            round=len(groupchat.selection_log), method=str(groupchat.speaker_selection_method),
            last_speaker=agent_name(last_speaker),
        ))
    return _prepare(groupchat, last_speaker, ctx, model_view=True)


def _prepare_by_hook(groupchat: GroupState, last_speaker: Agent, ctx: _Selection) -> Prepared:
    """Call the group chat's own ``_prepare_and_select_agents`` (a subclass's override) and check its answer."""
    previous = getattr(groupchat, "_selection_in_progress", None)
    groupchat._selection_in_progress = ctx
    try:
        result = groupchat._prepare_and_select_agents(last_speaker)
    finally:
        groupchat._selection_in_progress = previous
    owner = f"{type(groupchat).__name__}._prepare_and_select_agents"
    if not (isinstance(result, tuple) and len(result) == 3):
        raise TypeError(
            f"{owner} must return (the chosen agent or None, the candidate agents, the messages or None); "
            f"got {shown(result)}."
        )
    selected, agents, messages = result
    if agents is None:
        agents = groupchat.agents
    elif not isinstance(agents, list) or not all(is_agent(a) for a in agents):
        raise TypeError(f"{owner} must return a list of agents as the candidates; got {shown(agents)}.")
    if agents is not ctx.candidates:
        ctx.record.add_step("_prepare_and_select_agents", agents)
    if selected is not None:
        if selected is not ctx.selected:
            ctx.record.reason = f"{ctx.prefix}chosen by {owner}"
        return selected, agents, None
    if not agents:
        raise NoEligibleSpeaker(f"No eligible speaker: {owner} returned no candidate.")
    # The model reads a copy of its own: the hook may have returned the group chat's very list.
    return None, agents, _model_view(messages) if messages else None


def _plan(groupchat: GroupState, last_speaker: Agent, selector: Any, record: SelectionRecord) -> Any:
    """Everything but the model chat: return the chosen agent, or an ``_AutoJob`` to run."""
    ctx = _Selection(record)
    if overridden(groupchat, "_prepare_and_select_agents"):
        chosen, candidates, messages = _prepare_by_hook(groupchat, last_speaker, ctx)
    else:
        chosen, candidates, messages = _prepare(groupchat, last_speaker, ctx, model_view=False)
    if chosen is not None:
        return chosen
    method = ctx.method or _setting_method(groupchat)
    prefix = ctx.prefix
    if method == "manual" and selector_chat_for(groupchat, selector) is None:
        # The prompt promises auto selection; without a model, round robin is the automatic choice.
        record.reason = f"{prefix}round robin after {agent_name(last_speaker)} (no model for auto selection)"
        return groupchat.next_agent(last_speaker, candidates)
    return _auto_job(groupchat, last_speaker, selector, candidates, record, prefix, messages)


def _setting_method(groupchat: GroupState) -> str:
    """The group's method name when a hook chose no agent without resolving one ("auto" for a function)."""
    method = groupchat.speaker_selection_method
    return method.lower() if isinstance(method, str) else "auto"


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
    if listening(stream):  # the record is redacted only for a listener
        emit_quiet(SpeakerSelectionEvent, stream, manager_name=str(getattr(selector, "name", "")),
                   record=_redacted(record))


def _redacted(record: SelectionRecord) -> dict[str, Any]:
    """The record as data with its secrets masked, as ``redact_secrets`` would give it.

    A record's keys are fixed and none is a secret's name; only the mentions of an answer are keyed by what the
    user named (agents), so only they need the walk, which would otherwise cost a noticeable part of a round.
    """
    data = record.to_dict()
    for attempt in data["attempts"]:
        if attempt["mentions"]:
            attempt["mentions"] = redact_secrets(attempt["mentions"])
    return data


def _done(record: SelectionRecord, chosen: Agent, selector: Any = None) -> Agent:
    record.chosen = chosen.name
    _announce(record, selector)
    return chosen


def _failed(record: SelectionRecord, error: BaseException, selector: Any = None) -> None:
    record.chosen = None
    text = error.message if isinstance(error, NoEligibleSpeaker) else f"{type(error).__name__}: {error}"
    record.reason = f"{record.reason + '; ' if record.reason else ''}{text}"
    _announce(record, selector)


@contextmanager
def _failures_recorded(record: SelectionRecord, selector: Any) -> Iterator[None]:
    """An error raised while selecting is recorded (and announced) in ``record`` before it goes on."""
    try:
        yield
    except BaseException as error:
        _failed(record, error, selector)
        raise


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
    with _failures_recorded(record, selector):
        planned = _plan(groupchat, last_speaker, selector, record)
        if isinstance(planned, _AutoJob):
            planned = planned.chose(planned.run(groupchat, last_speaker, selector, record), record)
        return _done(record, planned, selector)


def _asks_the_keyboard(groupchat: GroupState) -> bool:
    method = groupchat.speaker_selection_method
    return isinstance(method, str) and method.lower() == "manual"


async def a_select_speaker(groupchat: GroupState, last_speaker: Agent, selector: Any) -> Agent:
    """(async) Choose the speaker after ``last_speaker``; see :func:`select_speaker`."""
    record = _start(groupchat, last_speaker)
    with _failures_recorded(record, selector):
        if _asks_the_keyboard(groupchat):
            # The console prompt waits for its answer on a worker thread (with this task's context, so the
            # same default stream), so that the loop goes on: a run's consumer may answer on this very loop.
            planned = await asyncio.to_thread(_plan, groupchat, last_speaker, selector, record)
        else:
            planned = _plan(groupchat, last_speaker, selector, record)
        if isinstance(planned, _AutoJob):
            planned = planned.chose(await planned.a_run(groupchat, last_speaker, selector, record), record)
        return _done(record, planned, selector)


def _plan_auto(
    groupchat: GroupState, last_speaker: Agent, selector: Any, messages: list[dict[str, Any]] | None,
    agents: list[Agent] | None,
) -> tuple[SelectionRecord, Any]:
    """Start the record of an "auto"-only selection; return it with the chosen agent or the ``_AutoJob`` to run."""
    record = _start(groupchat, last_speaker)
    record.method = "auto"
    candidates = list(groupchat.agents if agents is None else agents)
    with _failures_recorded(record, selector):
        planned = _auto_job(groupchat, last_speaker, selector, candidates, record, "")
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
    with _failures_recorded(record, selector):
        if isinstance(planned, _AutoJob):
            planned = planned.run(groupchat, last_speaker, selector, record)
        return _done(record, planned, selector)


async def a_auto_select_speaker(
    groupchat: GroupState,
    last_speaker: Agent,
    selector: Any,
    messages: list[dict[str, Any]] | None,
    agents: list[Agent] | None,
) -> Agent:
    """(async) Run only the "auto" method; see :func:`auto_select_speaker`."""
    record, planned = _plan_auto(groupchat, last_speaker, selector, messages, agents)
    with _failures_recorded(record, selector):
        if isinstance(planned, _AutoJob):
            planned = await planned.a_run(groupchat, last_speaker, selector, record)
        return _done(record, planned, selector)
