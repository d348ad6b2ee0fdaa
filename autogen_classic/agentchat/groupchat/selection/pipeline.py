"""Choosing the next speaker of a group chat: the candidate pipeline and the selection methods.

One selection runs in this order (each step is recorded in the selection trace):

1. A custom selection function (``speaker_selection_method`` callable) may return an agent (chosen,
   no filter applies), a method name (used below) or None (the chat ends).
2. ``all``: the group's agents.
3. ``function_call_filter``: when the last message suggests a function/tool call, only agents able to
   execute it remain; if exactly one can, it is pinned (steps 4 and 5 are skipped).
4. ``repeat_rule``: ``allow_repeat_speaker`` False (or a list without the last speaker) removes the last
   speaker.
5. ``transition_graph``: only the agents the last speaker may hand over to remain.
6. ``policy:<Name>``: each eligibility policy, with AND semantics.
7. No candidate left: ``NoEligibleSpeaker`` with the reason. One left: it speaks. Otherwise the method
   chooses: round robin, random, manual (console) or auto (model, see :mod:`.auto_selection`).

The sync and async entry points share every step except the model chat itself.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..eligibility import SelectionContext, apply_eligibility_policies, no_eligible_speaker_message
from ..exception_utils import NoEligibleSpeaker
from ..io import IOStream, render
from .agent import Agent
from .agent_args import check_speaker_selection_method
from .auto_selection import SpeakerSelectorChat, selector_chat_for, warn_no_model
from .selection_trace import SelectionAttempt, SelectionRecord

if TYPE_CHECKING:
    from .groupchat_core import GroupChat

__all__ = [
    "a_auto_select_speaker",
    "a_select_speaker",
    "ask_console_for_speaker",
    "auto_select_speaker",
    "candidate_agents",
    "select_speaker",
]

logger = logging.getLogger("autogen_classic.agentchat.groupchat")

MANUAL_PROMPT = "Enter the number of the next speaker (enter nothing or `q` to use auto selection): "
_MANUAL_TRIES = 3  # the classic count: the third try gives up without asking


@dataclass
class _AutoJob:
    """An "auto" selection still to run (sync or async): the nested chat and the model's view of the chat."""

    chat: SpeakerSelectorChat
    messages: list[dict[str, Any]]
    candidates: list[Agent]
    reason_prefix: str = ""


def _name(agent: Any) -> str | None:
    return getattr(agent, "name", None) if agent is not None else None


# ----------------------------------------------------------------- candidates
def _called_functions(message: dict[str, Any]) -> list[str]:
    names: list[str] = []
    if message.get("function_call"):
        names.append(message["function_call"]["name"])
    for call in message.get("tool_calls") or []:
        if call.get("type", "function") == "function":
            names.append(call["function"]["name"])
    return names


def _function_call_filter(groupchat: GroupChat, record: SelectionRecord) -> list[Agent] | None:
    """Return the agents able to run the suggested call (None when the last message suggests none)."""
    if not groupchat.func_call_filter or not groupchat.messages:
        return None
    last = groupchat.messages[-1]
    if "function_call" not in last and "tool_calls" not in last:
        return None
    funcs = _called_functions(last)
    able = [a for a in groupchat.agents if _can_execute(a, funcs)]
    if not able:
        able = [a for a in groupchat.agents if getattr(a, "function_map", None)]
    record.add_step("function_call_filter", able)
    if not able:
        # A configuration error, not the end of the chat: it propagates out of initiate_chat.
        raise ValueError(
            f"No agent can execute the function {', '.join(funcs)}. Please check the function_map of the agents."
        )
    return able


def _can_execute(agent: Any, funcs: list[str]) -> bool:
    check = getattr(agent, "can_execute_function", None)
    return bool(check(funcs)) if callable(check) else False


def candidate_agents(
    groupchat: GroupChat, last_speaker: Agent, record: SelectionRecord
) -> tuple[list[Agent], Agent | None]:
    """Run the candidate pipeline (steps 2 to 6) for the speaker after ``last_speaker``.

    Returns:
        ``(candidates, pinned)``: the eligible agents in group order, and the agent pinned by the
        function-call filter (None when no single agent was pinned).

    Raises:
        NoEligibleSpeaker: when a step leaves no candidate, naming the step.
        ValueError: when the last message calls a function that no agent has (nor any agent has a function map).
    """
    agents = groupchat.agents
    record.add_step("all", agents)
    pinned: Agent | None = None
    able = _function_call_filter(groupchat, record)
    candidates = list(agents) if able is None else able
    if able is not None and len(able) == 1:
        pinned = able[0]
    else:
        candidates = _apply_repeat_rule_and_graph(groupchat, last_speaker, candidates, record)

    if groupchat.eligibility_policies:
        ctx = SelectionContext(
            round=record.round, last_speaker=last_speaker, participants=list(agents), messages=groupchat.messages
        )
        before = candidates
        candidates, steps = apply_eligibility_policies(candidates, groupchat.eligibility_policies, ctx)
        for policy_name, names in steps:
            record.add_step(f"policy:{policy_name}", names)
        if not candidates:
            raise NoEligibleSpeaker(no_eligible_speaker_message(before, steps))
    return candidates, pinned


def _apply_repeat_rule_and_graph(
    groupchat: GroupChat, last_speaker: Agent, candidates: list[Agent], record: SelectionRecord
) -> list[Agent]:
    last_name = _name(last_speaker)
    repeat = groupchat.allow_repeat_speaker
    if repeat is not None:
        allowed = repeat if isinstance(repeat, bool) else last_speaker in repeat
        if allowed is False:
            candidates = [a for a in candidates if a is not last_speaker]
        record.add_step("repeat_rule", candidates)
        if not candidates:
            raise NoEligibleSpeaker(
                f"No eligible speaker: {last_name} may not speak twice in a row and no one else is eligible."
            )

    graph = groupchat.transition_graph()
    if last_speaker not in groupchat.agents:
        # Someone outside the group spoke last: the graph says nothing about who follows.
        return candidates
    if last_speaker not in graph:
        record.add_step("transition_graph", [])
        raise NoEligibleSpeaker(f"Last speaker {last_name} is not in the allowed_speaker_transitions_dict.")
    targets = graph[last_speaker]
    narrowed = [a for a in candidates if a in targets]
    if groupchat.allowed_or_disallowed_speaker_transitions is not None or len(narrowed) != len(candidates):
        record.add_step("transition_graph", narrowed)
    if not narrowed and not targets:
        raise NoEligibleSpeaker(
            f"No eligible speaker: {last_name} has no outgoing transition in the speaker transition graph (a sink)."
        )
    if not narrowed:
        raise NoEligibleSpeaker(
            f"No eligible speaker: the speaker transition graph allows no transition from {last_name} "
            f"to any of the candidates ({', '.join(a.name for a in candidates)})."
        )
    return narrowed


# ----------------------------------------------------------------- manual selection
def _console_choice(
    groupchat: GroupChat, agents: list[Agent], record: SelectionRecord | None
) -> tuple[Agent | None, str]:
    """Ask at the console; return ``(agent, "")`` or ``(None, why no agent was chosen)``."""
    out = IOStream.get_default()
    render.speaker_menu([a.name for a in agents], iostream=out)

    def note(answer: str, outcome: str) -> None:
        if record is not None:
            record.attempts.append(SelectionAttempt("human", answer, {}, outcome))  # type: ignore[arg-type]

    for try_count in range(1, _MANUAL_TRIES + 1):
        if try_count >= _MANUAL_TRIES:
            out.print(f"You have tried {try_count} times. The next speaker will be selected automatically.")
            return None, f"{try_count - 1} invalid inputs"
        try:
            answer = out.input(MANUAL_PROMPT)
        except EOFError:
            note("<EOF>", "none")
            return None, "the console input is closed (EOF)"
        except KeyboardInterrupt:
            note("<KeyboardInterrupt>", "none")
            return None, "the selection was interrupted (KeyboardInterrupt)"
        text = str(answer).strip()
        if text in ("", "q"):
            note(text, "none")
            return None, "empty input" if text == "" else "`q` entered"
        try:
            number = int(text)
        except ValueError:
            number = 0
        if 1 <= number <= len(agents):
            note(text, "selected")
            return agents[number - 1], ""
        note(text, "invalid")
        out.print(f"Invalid input. Please enter a number between 1 and {len(agents)}.")
    return None, "no valid input"  # pragma: no cover - the loop always returns


def ask_console_for_speaker(groupchat: GroupChat, agents: list[Agent], record: SelectionRecord | None) -> Agent | None:
    """Show the numbered list of ``agents`` and read the choice from the console.

    Invalid input re-prompts; on the third try, or on empty input, ``q``, EOF or Ctrl-C, returns None
    (the caller falls back). Each answer is recorded in ``record`` when given.
    """
    return _console_choice(groupchat, agents, record)[0]


# ----------------------------------------------------------------- the pipeline
def _resolve_method(
    groupchat: GroupChat, last_speaker: Agent, record: SelectionRecord
) -> tuple[Agent | None, str, str]:
    """Apply a custom selection function; return ``(agent chosen by it, method name, reason prefix)``."""
    method = groupchat.speaker_selection_method
    prefix = ""
    if callable(method):
        record.method = "callable"
        result = method(last_speaker, groupchat)
        if result is None:
            raise NoEligibleSpeaker("Custom speaker selection function returned None. Terminating conversation.")
        if isinstance(result, str):
            method = result
            prefix = f"the custom selection function chose the method {result!r}; "
        elif isinstance(result, Agent):
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


def _check_population(groupchat: GroupChat, last_speaker: Agent, method: str) -> None:
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
    groupchat: GroupChat, last_speaker: Agent, selector: Any, candidates: list[Agent], record: SelectionRecord,
    prefix: str,
) -> Any:
    chat = selector_chat_for(groupchat, selector)
    if chat is not None:
        return _AutoJob(chat, _model_view(groupchat.messages), candidates, prefix)
    chosen = groupchat.next_agent(last_speaker, candidates)
    record.reason = f"{prefix}no model is configured for auto selection; round robin after {_name(last_speaker)}"
    return chosen


def _plan(groupchat: GroupChat, last_speaker: Agent, selector: Any, record: SelectionRecord) -> Any:
    """Everything but the model chat: return the chosen agent, or an ``_AutoJob`` to run."""
    direct, method, prefix = _resolve_method(groupchat, last_speaker, record)
    if direct is not None:
        record.reason = "the custom selection function returned this agent"
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
        record.reason = f"{prefix}round robin after {_name(last_speaker)}"
        return groupchat.next_agent(last_speaker, candidates)
    if method == "random":
        record.reason = f"{prefix}random choice among {len(candidates)} candidates"
        return random.choice(candidates)
    if method == "manual":
        chosen, why = _console_choice(groupchat, candidates, record)
        if chosen is not None:
            record.reason = f"{prefix}chosen at the console"
            return chosen
        # The prompt promises auto selection; without a model, round robin is the automatic choice.
        prefix = f"{prefix}manual: {why}; "
        if selector_chat_for(groupchat, selector) is None:
            record.reason = f"{prefix}round robin after {_name(last_speaker)} (no model for auto selection)"
            return groupchat.next_agent(last_speaker, candidates)
    job = _auto_or_round_robin(groupchat, last_speaker, selector, candidates, record, prefix)
    if not isinstance(job, _AutoJob) and method == "auto":
        warn_no_model(groupchat)
    return job


def _start(groupchat: GroupChat, last_speaker: Agent) -> SelectionRecord:
    record = SelectionRecord(
        round=len(groupchat.selection_log),
        method=str(groupchat.speaker_selection_method),
        last_speaker=_name(last_speaker),
    )
    groupchat.selection_log.append(record)
    return record


def _done(record: SelectionRecord, chosen: Agent) -> Agent:
    record.chosen = chosen.name
    return chosen


def _failed(record: SelectionRecord, error: BaseException) -> None:
    record.chosen = None
    text = error.message if isinstance(error, NoEligibleSpeaker) else f"{type(error).__name__}: {error}"
    record.reason = f"{record.reason + '; ' if record.reason else ''}{text}"


def select_speaker(groupchat: GroupChat, last_speaker: Agent, selector: Any) -> Agent:
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
            return _done(record, chosen)
        return _done(record, planned)
    except BaseException as error:
        _failed(record, error)
        raise


async def a_select_speaker(groupchat: GroupChat, last_speaker: Agent, selector: Any) -> Agent:
    """(async) Choose the speaker after ``last_speaker``; see :func:`select_speaker`."""
    record = _start(groupchat, last_speaker)
    try:
        planned = _plan(groupchat, last_speaker, selector, record)
        if isinstance(planned, _AutoJob):
            chosen = await planned.chat.a_run(groupchat, last_speaker, planned.messages, planned.candidates, record)
            record.reason = planned.reason_prefix + record.reason
            return _done(record, chosen)
        return _done(record, planned)
    except BaseException as error:
        _failed(record, error)
        raise



def _plan_auto(
    groupchat: GroupChat, last_speaker: Agent, selector: Any, messages: list[dict[str, Any]] | None,
    agents: list[Agent] | None,
) -> tuple[SelectionRecord, Any]:
    """Start the record of an "auto"-only selection; return it with the chosen agent or the ``_AutoJob`` to run."""
    record = _start(groupchat, last_speaker)
    record.method = "auto"
    candidates = list(groupchat.agents if agents is None else agents)
    try:
        planned = _auto_or_round_robin(groupchat, last_speaker, selector, candidates, record, "")
    except BaseException as error:
        _failed(record, error)
        raise
    if isinstance(planned, _AutoJob) and messages is not None:
        planned.messages = _model_view(messages)
    return record, planned


def auto_select_speaker(
    groupchat: GroupChat,
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
        return _done(record, planned)
    except BaseException as error:
        _failed(record, error)
        raise


async def a_auto_select_speaker(
    groupchat: GroupChat,
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
        return _done(record, planned)
    except BaseException as error:
        _failed(record, error)
        raise
