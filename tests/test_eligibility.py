"""Eligibility policies: AND semantics, the selection trace, the ready-made policies."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import pytest

from autogen_classic.eligibility import (
    AgentEligibilityPolicy,
    AllowListPolicy,
    CallablePolicy,
    CooldownPolicy,
    DenyListPolicy,
    MaxTurnsPolicy,
    SelectionContext,
    TurnBudgetPolicy,
    apply_eligibility_policies,
    policy_name,
    validate_eligibility_policies,
)


@dataclass(eq=False)
class Stand:
    name: str


A, B, C = Stand("A"), Stand("B"), Stand("C")
AGENTS = [A, B, C]


def _msgs(*names: str) -> tuple[dict, ...]:
    return tuple({"role": "user", "name": n, "content": f"from {n}"} for n in names)


def _ctx(*speakers: str, round: int = 0) -> SelectionContext:
    last = {a.name: a for a in AGENTS}.get(speakers[-1]) if speakers else None
    return SelectionContext(round=round, last_speaker=last, participants=AGENTS, messages=_msgs(*speakers))


def _names(agents: list) -> list[str]:
    return [a.name for a in agents]


def test_selection_context_is_frozen_with_empty_default_messages() -> None:
    ctx = SelectionContext(round=3, last_speaker=A, participants=AGENTS)
    assert ctx.messages == ()
    assert ctx.turns_taken(A) == 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        ctx.round = 4  # type: ignore[misc]


def test_context_helpers_count_turns_and_recent_speakers() -> None:
    ctx = _ctx("A", "B", "A", "C")
    assert ctx.turns_taken(A) == 2
    assert ctx.turns_taken("C") == 1
    assert ctx.recent_speakers(2) == ["A", "C"]
    assert ctx.recent_speakers(0) == []


def test_no_policies_keeps_everyone() -> None:
    assert apply_eligibility_policies(AGENTS, [], _ctx()) == (AGENTS, [])


def test_and_semantics_and_trace() -> None:
    eligible, trace = apply_eligibility_policies(
        AGENTS, [DenyListPolicy(["A"]), CallablePolicy(lambda a, ctx: a.name != "C", name="no_c")], _ctx()
    )
    assert _names(eligible) == ["B"]
    assert trace == [("DenyListPolicy", ["B", "C"]), ("no_c", ["B"])]


def test_empty_candidates_skip_later_policies_but_keep_trace() -> None:
    consulted: list[str] = []

    def spy(agent: Any, ctx: SelectionContext) -> bool:
        consulted.append(agent.name)
        return True

    eligible, trace = apply_eligibility_policies(AGENTS, [AllowListPolicy([]), CallablePolicy(spy)], _ctx())
    assert eligible == []
    assert trace == [("AllowListPolicy", []), ("spy", [])]
    assert consulted == []


def test_policy_receives_the_context() -> None:
    seen: list[tuple[str, int]] = []
    ctx = _ctx("B", round=7)
    apply_eligibility_policies(AGENTS, [CallablePolicy(lambda a, c: seen.append((a.name, c.round)) or True)], ctx)
    assert seen == [("A", 7), ("B", 7), ("C", 7)]


def test_policy_without_is_eligible_raises_type_error() -> None:
    with pytest.raises(TypeError, match=r"eligibility_policies\[1\] .* has no is_eligible\(agent, ctx\) method"):
        apply_eligibility_policies(AGENTS, [DenyListPolicy([]), object()], _ctx())
    with pytest.raises(TypeError, match=r"Wrap a plain function in CallablePolicy\(fn\)"):
        validate_eligibility_policies([lambda a, c: True])
    with pytest.raises(TypeError, match=r"eligibility_policies must be a list"):
        validate_eligibility_policies(DenyListPolicy([]))
    assert validate_eligibility_policies(None) == []


def test_ready_made_policies_satisfy_the_protocol() -> None:
    for policy in [TurnBudgetPolicy(1), CooldownPolicy(1), AllowListPolicy(["A"]), DenyListPolicy(["A"]),
                   CallablePolicy(lambda a, c: True)]:
        assert isinstance(policy, AgentEligibilityPolicy)
    assert not isinstance(object(), AgentEligibilityPolicy)


def test_turn_budget_counts_messages_by_name() -> None:
    assert MaxTurnsPolicy is TurnBudgetPolicy
    eligible, _ = apply_eligibility_policies(AGENTS, [TurnBudgetPolicy(2)], _ctx("A", "B", "A", "C"))
    assert _names(eligible) == ["B", "C"]


def test_turn_budget_per_agent_dict() -> None:
    policy = TurnBudgetPolicy({"A": 1, "C": 0})
    eligible, _ = apply_eligibility_policies(AGENTS, [policy], _ctx("B", "B", "B"))
    assert _names(eligible) == ["A", "B"]  # B has no budget entry: unlimited
    assert policy.budget_of(B) is None and policy.budget_of("A") == 1


@pytest.mark.parametrize("bad", [-1, 1.5, True, "2"])
def test_turn_budget_rejects_bad_values(bad: Any) -> None:
    with pytest.raises(ValueError, match="max_turns_per_agent must be an integer >= 0"):
        TurnBudgetPolicy(bad)


def test_cooldown_rounds() -> None:
    history = ("A", "B", "C", "A")
    assert _names(apply_eligibility_policies(AGENTS, [CooldownPolicy(1)], _ctx(*history))[0]) == ["B", "C"]
    assert _names(apply_eligibility_policies(AGENTS, [CooldownPolicy(2)], _ctx(*history))[0]) == ["B"]
    assert _names(apply_eligibility_policies(AGENTS, [CooldownPolicy(0)], _ctx(*history))[0]) == ["A", "B", "C"]


def test_cooldown_uses_last_speaker_without_messages() -> None:
    ctx = SelectionContext(round=1, last_speaker=B, participants=AGENTS)
    assert _names(apply_eligibility_policies(AGENTS, [CooldownPolicy(1)], ctx)[0]) == ["A", "C"]
    with pytest.raises(ValueError, match="rounds must be an integer >= 0"):
        CooldownPolicy(-2)


def test_allow_and_deny_lists_accept_names_or_agents() -> None:
    assert _names(apply_eligibility_policies(AGENTS, [AllowListPolicy(["C", A])], _ctx())[0]) == ["A", "C"]
    assert _names(apply_eligibility_policies(AGENTS, [DenyListPolicy([B])], _ctx())[0]) == ["A", "C"]
    with pytest.raises(ValueError, match="names must be a list of agent names"):
        AllowListPolicy("A")


def test_callable_policy_naming_and_validation() -> None:
    def only_even_rounds(agent: Any, ctx: SelectionContext) -> bool:
        return ctx.round % 2 == 0

    policy = CallablePolicy(only_even_rounds)
    assert policy_name(policy) == "only_even_rounds"
    assert _names(apply_eligibility_policies(AGENTS, [policy], _ctx(round=1))[0]) == []
    assert policy.is_eligible(A, _ctx(round=2)) is True
    with pytest.raises(TypeError, match=r"fn must be a callable fn\(agent, ctx\) -> bool"):
        CallablePolicy(42)  # type: ignore[arg-type]


def test_policy_name_falls_back_to_class_name() -> None:
    class OnlyA:
        def is_eligible(self, agent: Any, ctx: SelectionContext) -> bool:
            return agent.name == "A"

    eligible, trace = apply_eligibility_policies(AGENTS, [OnlyA()], _ctx())
    assert _names(eligible) == ["A"]
    assert trace == [("OnlyA", ["A"])]
