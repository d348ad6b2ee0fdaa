"""The candidate pipeline: which agents may speak next, narrowed step by step.

The steps, each recorded in the selection trace: ``all`` (the group's agents),
``function_call_filter`` (when the last message suggests a function or tool call, only the agents
able to run it; exactly one such agent is pinned and the next two steps are skipped),
``repeat_rule`` (``allow_repeat_speaker``), ``transition_graph`` (the agents the last speaker may
hand over to), ``transition_conditions`` (only when the last speaker has conditional transitions to
candidates: their conditions are asked, each outcome recorded in ``SelectionRecord.conditions``) and
``policy:<Name>`` (each eligibility policy, all of which must accept).
"""

from __future__ import annotations

from typing import Any

from ....eligibility import SelectionContext, apply_eligibility_policies, no_eligible_speaker_message
from ....exception_utils import NoEligibleSpeaker, TransitionConditionError
from ....graph_utils import describe_edge, evaluate_transition_condition
from ...agent import Agent
from .state import GroupState, overridden
from .trace import ConditionOutcome, SelectionRecord

__all__ = ["agent_name", "candidate_agents", "eligible_agents"]


def agent_name(agent: Any) -> str | None:
    """The ``name`` of ``agent``; None for None or an object without one."""
    return getattr(agent, "name", None) if agent is not None else None


def _called_functions(message: dict[str, Any]) -> list[str]:
    names: list[str] = []
    if message.get("function_call"):
        names.append(message["function_call"]["name"])
    for call in message.get("tool_calls") or []:
        if call.get("type", "function") == "function":
            names.append(call["function"]["name"])
    return names


def _function_call_filter(groupchat: GroupState, record: SelectionRecord) -> list[Agent] | None:
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
    groupchat: GroupState, last_speaker: Agent, record: SelectionRecord
) -> tuple[list[Agent], Agent | None]:
    """Run the candidate pipeline (all, function-call filter, repeat rule, graph, policies) after ``last_speaker``.

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
        try:
            candidates = _apply_repeat_rule_and_graph(groupchat, last_speaker, candidates, record)
        except NoEligibleSpeaker as error:
            if not (groupchat.eligibility_policies and str(error).startswith("No eligible speaker:")):
                raise
            # AG2 Classic 0.14.1's words when policies are set, then which filter left no one.
            raise NoEligibleSpeaker(
                "All candidates were eliminated after eligibility policies and speaker filters "
                f"(allow_repeat_speaker or transition rules). {error}"
            ) from None

    if groupchat.eligibility_policies:
        if overridden(groupchat, "_apply_eligibility_policies"):  # a subclass's or a mock's, where 0.14.1 calls it
            candidates = list(groupchat._apply_eligibility_policies(candidates, last_speaker, len(groupchat.messages)))
        else:
            candidates = eligible_agents(groupchat, candidates, last_speaker, len(groupchat.messages), record)
    return candidates, pinned


def eligible_agents(groupchat: GroupState, candidates: list[Agent], last_speaker: Agent | None, round_index: int,
                    record: SelectionRecord | None = None) -> list[Agent]:  # fmt: skip
    """The candidates every eligibility policy keeps (AND), in order; each policy's step goes into ``record``.

    The policies read AG2 Classic 0.14's context: ``round`` the messages so far, names for the speaker and the
    roster. (``GroupChat._apply_eligibility_policies`` is this, at its classic name.)

    Raises:
        NoEligibleSpeaker: no candidate is left; 0.14.1's words first, then what each policy removed.
    """
    policies = tuple(groupchat.eligibility_policies)
    if not policies:
        return list(candidates)
    agents = groupchat.agents
    ctx = SelectionContext(
        round=round_index,
        last_speaker=agent_name(last_speaker) if last_speaker is not None else None,
        participants=tuple(a.name for a in agents),
        messages=groupchat.messages,
        agents=tuple(agents),
    )
    kept, steps = apply_eligibility_policies(list(candidates), list(policies), ctx)
    if record is not None:
        for policy_name, names in steps:
            record.add_step(f"policy:{policy_name}", names)
    if not kept:
        raise NoEligibleSpeaker(
            f"No eligible agents after applying eligibility policies. Checked {len(candidates)} candidates: "
            f"{[a.name for a in candidates]}. Applied {len(policies)} policy/policies. "
            + no_eligible_speaker_message(candidates, steps)
        )
    return list(kept)


def _apply_repeat_rule_and_graph(
    groupchat: GroupState, last_speaker: Agent, candidates: list[Agent], record: SelectionRecord
) -> list[Agent]:
    last_name = agent_name(last_speaker)
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
    return _apply_transition_conditions(groupchat, last_speaker, narrowed, record)


def _apply_transition_conditions(
    groupchat: GroupState, last_speaker: Agent, candidates: list[Agent], record: SelectionRecord
) -> list[Agent]:
    """Ask the conditions of the transitions from ``last_speaker`` to the candidates; keep those they allow.

    Raises:
        TransitionConditionError: when a condition fails (recorded with the effect "error").
        NoEligibleSpeaker: when the conditions block every candidate, naming the blocking edges.
    """
    # getattr: a subclass may skip __post_init__, and then has no conditional transitions.
    conditions = getattr(groupchat, "transition_conditions", None)
    if not conditions:
        return candidates
    kept: list[Agent] = []
    blocked: list[str] = []
    asked = False
    for agent in candidates:
        entry = conditions.get((last_speaker, agent))
        if entry is None:
            kept.append(agent)
            continue
        asked = True
        edge, rule = entry
        outcome = ConditionOutcome(
            edge=describe_edge(last_speaker, edge), source=last_speaker.name, target=agent.name,
            label=edge.display_label, rule=rule,
        )
        record.conditions.append(outcome)
        try:
            result = evaluate_transition_condition(last_speaker, edge, groupchat)
        except TransitionConditionError:
            outcome.effect = "error"
            raise
        outcome.result = result
        allowed = result if rule == "allow_if" else not result
        outcome.effect = "allowed" if allowed else "blocked"
        if allowed:
            kept.append(agent)
        else:
            why = "its condition returned False" if rule == "allow_if" else "its condition returned True"
            blocked.append(f"{outcome.edge} ({why})")
    if asked:
        record.add_step("transition_conditions", kept)
    if not kept:
        raise NoEligibleSpeaker(
            f"No eligible speaker: the transition conditions block every candidate after {last_speaker.name}: "
            f"{'; '.join(blocked)}."
        )
    return kept

