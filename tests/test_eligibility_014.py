"""Eligibility policies as AG2 0.14 code writes them: the context holds names and counts messages.

A 0.14 policy reads ``ctx.round`` (messages spoken so far: 1 at the first selection),
``ctx.last_speaker`` (a name or None) and ``ctx.participants`` (a tuple of names); the agent it
judges is the agent object. The package's own policies keep working on that context.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import threading
from typing import Any

import pytest

import autogen_classic as autogen
from autogen_classic import ConversableAgent, GroupChat, GroupChatManager
from autogen_classic.agentchat.eligibility_policy import (
    AgentDescriptionGuard,
    AgentEligibilityPolicy,
    SelectionContext,
)
from autogen_classic.eligibility import (
    AllowListPolicy,
    CallablePolicy,
    CooldownPolicy,
    DenyListPolicy,
    TurnBudgetPolicy,
    apply_eligibility_policies,
)
from autogen_classic.exception_utils import NoEligibleSpeaker, NoEligibleSpeakerError
from autogen_classic.testing.io import ScriptedIOStream


def scripted(name: str, reply: str = "", **kwargs: Any) -> ConversableAgent:
    kwargs.setdefault("description", f"{name} does {name} work")
    return ConversableAgent(name, llm_config=False, human_input_mode="NEVER", default_auto_reply=reply, **kwargs)


def trio() -> tuple[ConversableAgent, ConversableAgent, ConversableAgent]:
    return scripted("a", "hi from a"), scripted("b", "hi from b"), scripted("c", "hi from c")


def speakers(groupchat: GroupChat) -> list[str]:
    return [m["name"] for m in groupchat.messages]


class Spy:
    """A 0.14-style policy: records what it sees and forbids the last speaker by name."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, int, Any, Any]] = []

    def is_eligible(self, agent: Any, ctx: SelectionContext) -> bool:
        self.seen.append((agent.name, ctx.round, ctx.last_speaker, ctx.participants))
        return agent.name != ctx.last_speaker


# ----------------------------------------------------------------- the context
def test_the_context_is_the_014_one() -> None:
    fields = [f.name for f in dataclasses.fields(SelectionContext)]
    assert fields[:3] == ["round", "last_speaker", "participants"]
    ctx = SelectionContext(1, None, ["a", "b"])
    assert ctx.participants == ("a", "b") and isinstance(ctx.participants, tuple)
    assert repr(ctx) == "SelectionContext(round=1, last_speaker=None, participants=('a', 'b'))"
    assert SelectionContext(1, None, (n for n in "ab")).participants == ("a", "b")
    with pytest.raises(dataclasses.FrozenInstanceError):
        ctx.round = 2  # type: ignore[misc]
    with pytest.raises(TypeError, match=r"participants must be a sequence of str, not a str .*Wrap in a tuple: \('ab',\)"):
        SelectionContext(1, None, "ab")  # type: ignore[arg-type]
    # The extra fields (messages, agents) take no part in equality or hashing.
    with_messages = SelectionContext(1, "a", ["a"], messages=[{"name": "a", "content": "x"}])
    assert with_messages == SelectionContext(1, "a", ("a",)) and hash(with_messages) == hash(SelectionContext(1, "a", ("a",)))
    assert with_messages.turns_taken("a") == 1 and with_messages.recent_speakers(1) == ["a"]


def test_the_same_objects_at_every_classic_path() -> None:
    from autogen_classic import agentchat
    from autogen_classic.agentchat import groupchat as groupchat_module

    for name in ("SelectionContext", "AgentEligibilityPolicy", "AgentDescriptionGuard"):
        assert getattr(autogen, name) is getattr(agentchat, name)
    assert groupchat_module.SelectionContext is SelectionContext
    assert groupchat_module.AgentEligibilityPolicy is AgentEligibilityPolicy
    assert autogen.NoEligibleSpeakerError is NoEligibleSpeakerError is NoEligibleSpeaker


def test_round_robin_policy_sees_names_and_the_message_count(console: ScriptedIOStream) -> None:
    a, b, c = trio()
    spy = Spy()
    groupchat = GroupChat([a, b, c], messages=[], max_round=4, speaker_selection_method="round_robin",
                          eligibility_policies=[spy])
    a.initiate_chat(GroupChatManager(groupchat, llm_config=False), message="start")

    assert speakers(groupchat) == ["a", "b", "c", "a"]
    roster = ("a", "b", "c")
    assert spy.seen == [
        ("a", 1, "a", roster), ("b", 1, "a", roster), ("c", 1, "a", roster),
        ("a", 2, "b", roster), ("b", 2, "b", roster), ("c", 2, "b", roster),
        ("a", 3, "c", roster), ("b", 3, "c", roster), ("c", 3, "c", roster),
    ]


def test_random_selection_with_a_no_repeat_policy_never_repeats(console: ScriptedIOStream) -> None:
    a, b, c = trio()
    spy = Spy()
    groupchat = GroupChat([a, b, c], messages=[], max_round=12, speaker_selection_method="random",
                          eligibility_policies=[spy])
    groupchat.random_source = random.Random(7)
    a.initiate_chat(GroupChatManager(groupchat, llm_config=False), message="start")

    order = speakers(groupchat)
    assert len(order) == 12
    assert all(x != y for x, y in zip(order, order[1:]))
    assert [r for _, r, _, _ in spy.seen[::3]] == list(range(1, 12))


def test_first_turn_rule_with_auto_selection_on_a_model(console: ScriptedIOStream, scripted_server: Any) -> None:
    # The docstring example of 0.14: skip the expensive agent on the opening turn (round == 1).
    user, cheap, expensive = scripted("user", "u1"), scripted("cheap", "c1"), scripted("expensive", "TERMINATE")

    class SkipExpensiveFirst:
        def is_eligible(self, agent: Any, ctx: SelectionContext) -> bool:
            if ctx.round == 1:
                return agent.name != "expensive"
            return True

    groupchat = GroupChat([user, cheap, expensive], messages=[], max_round=5, allow_repeat_speaker=False,
                          eligibility_policies=[SkipExpensiveFirst()])
    manager = GroupChatManager(groupchat, llm_config=scripted_server.llm_config(model="gpt-4o"))
    scripted_server.add_replies("expensive")

    user.initiate_chat(manager, message="start")

    # Round 1: only "cheap" was left, chosen without asking the model; round 2: the model chose.
    assert speakers(groupchat) == ["user", "cheap", "expensive"]
    assert scripted_server.request_count == 1
    prompt = scripted_server.requests[0]["messages"][-1]["content"]
    assert "user" in prompt and "expensive" in prompt and "cheap" not in prompt


def test_async_chat_builds_the_same_context(console: ScriptedIOStream) -> None:
    a, b, c = trio()
    spy = Spy()
    groupchat = GroupChat([a, b, c], messages=[], max_round=3, speaker_selection_method="round_robin",
                          eligibility_policies=[spy])
    asyncio.run(a.a_initiate_chat(GroupChatManager(groupchat, llm_config=False), message="start"))
    assert speakers(groupchat) == ["a", "b", "c"]
    assert {(r, last) for _, r, last, _ in spy.seen} == {(1, "a"), (2, "b")}


# ----------------------------------------------------------------- nobody eligible
def test_policies_removing_everyone_end_the_chat(console: ScriptedIOStream) -> None:
    a, b, c = trio()

    class NoOne:
        def is_eligible(self, agent: Any, ctx: SelectionContext) -> bool:
            return False

    groupchat = GroupChat([a, b, c], messages=[], max_round=4, speaker_selection_method="round_robin",
                          eligibility_policies=[NoOne()])
    manager = GroupChatManager(groupchat, llm_config=False)
    result = a.initiate_chat(manager, message="start")

    assert speakers(groupchat) == ["a"] and result.summary == "start"
    assert manager.end_reason == (
        "No eligible agents after applying eligibility policies. Checked 3 candidates: ['a', 'b', 'c']. "
        "Applied 1 policy/policies. No eligible speaker: the eligibility policy NoOne excluded every candidate (a, b, c)."
    )
    # Selecting directly raises the error, catchable under both classic names.
    for name in (NoEligibleSpeakerError, NoEligibleSpeaker):
        with pytest.raises(name, match="NoOne excluded every candidate"):
            groupchat.select_speaker(a, manager)


def test_a_policy_raising_no_eligible_speaker_error_ends_the_chat(console: ScriptedIOStream) -> None:
    a, b, c = trio()

    class Breaker:
        def is_eligible(self, agent: Any, ctx: SelectionContext) -> bool:
            if ctx.round >= 2:
                raise NoEligibleSpeakerError("circuit open")
            return True

    groupchat = GroupChat([a, b, c], messages=[], max_round=6, speaker_selection_method="round_robin",
                          eligibility_policies=[Breaker()])
    manager = GroupChatManager(groupchat, llm_config=False)
    a.initiate_chat(manager, message="start")
    assert speakers(groupchat) == ["a", "b"]
    assert manager.end_reason == "circuit open"


@pytest.mark.parametrize("bad", [object(), lambda agent, ctx: True, 3])
def test_a_policy_without_is_eligible_is_refused_the_classic_way(bad: Any) -> None:
    a, b, _ = trio()
    with pytest.raises(ValueError, match=r"eligibility_policies\[1\] does not implement AgentEligibilityPolicy "
                                         r"\(missing is_eligible method\)\. Got ") as info:
        GroupChat([a, b], eligibility_policies=[DenyListPolicy([]), bad])
    assert isinstance(info.value, TypeError)  # what this package raised before
    assert "is_eligible(self, agent, ctx)" in str(info.value)
    assert ("CallablePolicy(fn)" in str(info.value)) == callable(bad)


# ----------------------------------------------------------------- the package's own policies
def test_ready_made_policies_in_a_chat_with_the_014_context(console: ScriptedIOStream) -> None:
    a, b, c = trio()
    groupchat = GroupChat([a, b, c], messages=[], max_round=10, speaker_selection_method="random",
                          eligibility_policies=[CooldownPolicy(1), TurnBudgetPolicy(2), DenyListPolicy(["c"])])
    groupchat.random_source = random.Random(3)
    manager = GroupChatManager(groupchat, llm_config=False)
    a.initiate_chat(manager, message="start")

    # a and b alternate (cooldown), c never speaks (deny list), each at most twice (budget).
    assert speakers(groupchat) == ["a", "b", "a", "b"]
    assert "excluded every candidate" in str(manager.end_reason)
    record = groupchat.selection_log[-1]
    assert [s.name for s in record.steps if s.name.startswith("policy:")] == [
        "policy:CooldownPolicy", "policy:TurnBudgetPolicy", "policy:DenyListPolicy"]


def test_ready_made_policies_accept_hand_built_contexts_of_either_style() -> None:
    a, b, c = trio()
    names_ctx = SelectionContext(round=2, last_speaker="b", participants=("a", "b", "c"))
    agents_ctx = SelectionContext(round=2, last_speaker=b, participants=[a, b, c])  # the older style
    for ctx in (names_ctx, agents_ctx):
        eligible, _ = apply_eligibility_policies([a, b, c], [CooldownPolicy(1), AllowListPolicy(["a", b])], ctx)
        assert [x.name for x in eligible] == ["a"]


def test_old_style_callable_policy_and_candidate_func_still_work(console: ScriptedIOStream) -> None:
    a, b, c = trio()

    def not_c(agent: Any, ctx: Any) -> bool:  # reads only the agent, as older code did
        return agent.name != "c"

    groupchat = GroupChat([a, b, c], messages=[], max_round=4, speaker_selection_method="round_robin",
                          eligibility_policies=[CallablePolicy(not_c), autogen.candidate_func_policy(lambda m: ["a", "b"])])
    a.initiate_chat(GroupChatManager(groupchat, llm_config=False), message="start")
    assert speakers(groupchat) == ["a", "b", "a", "b"]


def test_the_context_carries_the_agents_for_policies_that_need_them(console: ScriptedIOStream) -> None:
    a, b, c = trio()
    found: list[Any] = []

    def remember(agent: Any, ctx: SelectionContext) -> bool:
        found.append(ctx.agent_named(ctx.last_speaker))
        return ctx.agents == (a, b, c)

    groupchat = GroupChat([a, b, c], messages=[], max_round=2, speaker_selection_method="round_robin",
                          eligibility_policies=[CallablePolicy(remember)])
    a.initiate_chat(GroupChatManager(groupchat, llm_config=False), message="start")
    assert speakers(groupchat) == ["a", "b"] and found and all(x is a for x in found)


# ----------------------------------------------------------------- AgentDescriptionGuard
def test_guard_prefix_idempotence_and_restore() -> None:
    agent = scripted("coder", description="writes code")
    guard = AgentDescriptionGuard(agent)
    guard.mark_unavailable()
    guard.mark_unavailable()
    assert agent.description == "[UNAVAILABLE] writes code" and guard.is_unavailable
    guard.mark_available()
    guard.mark_available()
    assert agent.description == "writes code" and not guard.is_unavailable
    # Text added while marked is kept.
    guard.mark_unavailable()
    agent.description += " (v2)"
    guard.mark_available()
    assert agent.description == "writes code (v2)"


def test_guard_restores_a_none_description_and_strips_a_foreign_prefix() -> None:
    class Plain:
        name = "plain"
        description = None

    plain = Plain()
    guard = AgentDescriptionGuard(plain)
    guard.mark_unavailable()
    assert plain.description == "[UNAVAILABLE] "
    guard.mark_available()
    assert plain.description is None
    plain.description = "[UNAVAILABLE] set by hand"
    guard.mark_available()
    assert plain.description == "set by hand"


def test_guard_refuses_an_object_without_description() -> None:
    with pytest.raises(AttributeError, match="needs an agent with a description attribute.*not its name"):
        AgentDescriptionGuard("coder")


def test_guard_from_several_threads() -> None:
    agent = scripted("worker", description="does the work")
    guards = [AgentDescriptionGuard(agent) for _ in range(4)]
    barrier = threading.Barrier(8)
    errors: list[BaseException] = []

    def toggle(guard: AgentDescriptionGuard, rounds: int) -> None:
        try:
            barrier.wait()
            for _ in range(rounds):
                guard.mark_unavailable()
                # Another thread may have marked it available already, never twice unavailable.
                assert agent.description.count("[UNAVAILABLE]") <= 1
                assert agent.description.endswith("does the work")
                guard.mark_available()
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            errors.append(error)

    threads = [threading.Thread(target=toggle, args=(guards[i % 4], 300)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    # Whatever the interleaving, the prefix was never doubled and the description comes back whole.
    assert agent.description in ("does the work", "[UNAVAILABLE] does the work")
    guards[0].mark_available()
    assert agent.description == "does the work"


def test_guard_marks_the_agent_in_the_auto_selection_prompt(console: ScriptedIOStream, scripted_server: Any) -> None:
    user, coder, tester = scripted("user", "u1"), scripted("coder", "TERMINATE"), scripted("tester", "TERMINATE")
    guard = AgentDescriptionGuard(coder)
    guard.mark_unavailable()
    groupchat = GroupChat([user, coder, tester], messages=[], max_round=3, allow_repeat_speaker=False)
    manager = GroupChatManager(groupchat, llm_config=scripted_server.llm_config(model="gpt-4o"))
    scripted_server.add_replies("tester")

    user.initiate_chat(manager, message="start")

    system_prompt = scripted_server.requests[0]["messages"][0]["content"]
    assert "coder: [UNAVAILABLE] coder does coder work" in system_prompt
    assert "tester: tester does tester work" in system_prompt
    assert speakers(groupchat) == ["user", "tester"]
    guard.mark_available()
    assert coder.description == "coder does coder work"
