"""The data of AG2 Classic 0.14's group orchestration: hand-offs, targets, conditions, context variables and
expressions, used as 0.14 scripts use them (deep imports from ``autogen.agentchat.group``), and the
context variables as ag2 0.7.3 swarm code uses them (a plain dict).

Expected values marked "reference" were observed by running the same code on ``autogen==0.14.1``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

import autogen_classic as autogen
from autogen_classic import ConversableAgent, GroupChat, GroupChatManager, SwarmAgent
from autogen_classic.agentchat import ContextVariables as ContextVariablesFromAgentchat
from autogen_classic.agentchat import ReplyResult as ReplyResultFromAgentchat
from autogen_classic.agentchat.group import (
    AgentNameTarget,
    AgentTarget,
    AskUserTarget,
    ContextExpression,
    ContextStr,
    ContextStrLLMCondition,
    ContextVariables,
    ExpressionAvailableCondition,
    ExpressionContextCondition,
    FunctionTarget,
    FunctionTargetResult,
    GroupChatConfig,
    GroupChatTarget,
    Handoffs,
    NestedChatTarget,
    OnCondition,
    OnContextCondition,
    ReplyResult,
    RevertToUserTarget,
    SpeakerSelectionResult,
    StayTarget,
    StringAvailableCondition,
    StringContextCondition,
    StringLLMCondition,
    TerminateTarget,
)
from autogen_classic.agentchat.group.available_condition import AvailableCondition
from autogen_classic.agentchat.group.context_condition import ContextCondition
from autogen_classic.agentchat.group.llm_condition import LLMCondition
from autogen_classic.agentchat.group.targets.function_target import FunctionTargetMessage, broadcast, validate_fn_sig
from autogen_classic.agentchat.group.targets.group_manager_target import (
    GroupManagerSelectionMessageContextStr,
    GroupManagerSelectionMessageString,
    GroupManagerTarget,
)
from autogen_classic.agentchat.group.targets.transition_target import RandomAgentTarget, TransitionTarget
from autogen_classic.agentchat.group.targets.transition_utils import __AGENT_WRAPPER_PREFIX__


def _a_pattern() -> Any:
    """A real pattern (GroupChatConfig checks its type once the group engine is loaded)."""
    from autogen_classic.agentchat.group.patterns import DefaultPattern

    solo = ConversableAgent("solo", llm_config=False)
    return DefaultPattern(initial_agent=solo, agents=[solo])


def agent(name: str, **kwargs: Any) -> ConversableAgent:
    return ConversableAgent(name, llm_config=False, human_input_mode="NEVER", **kwargs)


# ================================================================================================ Handoffs
def test_every_agent_has_handoffs_and_context_variables() -> None:
    triage = agent("triage")
    assert isinstance(triage.handoffs, Handoffs) and isinstance(triage.context_variables, ContextVariables)
    assert triage.handoffs.llm_conditions == [] and len(triage.context_variables) == 0
    assert agent("other").handoffs is not triage.handoffs  # one Handoffs per agent
    manager = GroupChatManager(GroupChat(agents=[], messages=[]), llm_config=False)
    assert isinstance(manager.handoffs, Handoffs) and isinstance(manager.context_variables, ContextVariables)
    given = Handoffs()
    assert agent("a", handoffs=given).handoffs is given


def test_building_handoffs_as_014_scripts_do() -> None:
    triage, tech, billing, user = agent("triage"), agent("tech"), agent("billing"), agent("user")
    returned = triage.handoffs.add_llm_conditions([
        OnCondition(target=AgentTarget(tech), condition=StringLLMCondition(prompt="The issue is technical.")),
        OnCondition(
            target=AgentTarget(billing),
            condition=ContextStrLLMCondition(ContextStr(template="The customer {customer} has a billing question.")),
            available=StringAvailableCondition("logged_in"),
        ),
    ])
    assert returned is triage.handoffs
    triage.handoffs.add_context_conditions([
        OnContextCondition(
            target=AgentTarget(billing),
            condition=ExpressionContextCondition(ContextExpression("${unpaid} > 0 and not ${escalated}")),
        ),
    ])
    triage.handoffs.set_after_work(RevertToUserTarget())
    tech.register_handoff(OnCondition(target=AgentTarget(triage), condition=StringLLMCondition("Not technical")))
    tech.register_handoffs([
        OnContextCondition(target=TerminateTarget(), condition=StringContextCondition(variable_name="solved")),
        OnCondition(target=AgentNameTarget("user"), condition=StringLLMCondition("Ask the user")),
    ])

    assert [c.target.display_name() for c in triage.handoffs.llm_conditions] == ["tech", "billing"]
    assert [type(c.target).__name__ for c in triage.handoffs.after_works] == ["RevertToUserTarget"]
    assert triage.handoffs.after_works[0].condition is None
    assert len(tech.handoffs.context_conditions) == 1 and len(tech.handoffs.llm_conditions) == 2

    # the prompts the model gets: fixed text, or filled from the agent's context variables
    triage.context_variables.set("customer", "Ada")
    prompts = [c.condition.get_prompt(triage, []) for c in triage.handoffs.llm_conditions]
    assert prompts == ["The issue is technical.", "The customer Ada has a billing question."]
    # availability and context conditions read the context variables
    available = triage.handoffs.llm_conditions[1].available
    assert available is not None and available.is_available(triage, []) is False
    triage.context_variables["logged_in"] = True
    assert available.is_available(triage, []) is True
    condition = triage.handoffs.context_conditions[0].condition
    assert condition is not None
    assert condition.evaluate(ContextVariables({"unpaid": 3, "escalated": False})) is True
    assert condition.evaluate(ContextVariables({"unpaid": 3, "escalated": True})) is False

    # tool names of the LLM conditions (reference: transfer_to_<target>_<n>, n counted over all conditions)
    triage.handoffs.set_llm_function_names()
    assert [c.llm_function_name for c in triage.handoffs.llm_conditions] == ["transfer_to_tech_1", "transfer_to_billing_2"]
    user.handoffs.add_llm_conditions([
        OnCondition(target=AgentTarget(tech), condition=StringLLMCondition("a")),
        OnCondition(target=AgentTarget(tech), condition=StringLLMCondition("b")),
        OnCondition(target=GroupManagerTarget(), condition=StringLLMCondition("c")),
    ]).set_llm_function_names()
    assert [c.llm_function_name for c in user.handoffs.llm_conditions] == [
        "transfer_to_tech_1", "transfer_to_tech_2", "transfer_to_the group manager_3",  # reference
    ]


def test_handoffs_queries_chaining_and_clear() -> None:
    a, b = agent("a"), agent("b")
    nested = NestedChatTarget(nested_chat_config={"chat_queue": []})
    handoffs = (
        Handoffs()
        .add(OnCondition(target=AgentTarget(b), condition=StringLLMCondition("to b")))
        .add(OnContextCondition(target=nested, condition=StringContextCondition(variable_name="deep")))
        .add_many([
            OnCondition(target=nested, condition=StringLLMCondition("nested")),
            OnContextCondition(target=AgentTarget(a), condition=None),
        ])
        .add_llm_condition(OnCondition(target=StayTarget(), condition=StringLLMCondition("stay")))
        .add_context_condition(OnContextCondition(target=TerminateTarget()))
    )
    assert [type(c.target).__name__ for c in handoffs.llm_conditions] == ["AgentTarget", "NestedChatTarget", "StayTarget"]
    assert [type(c.target).__name__ for c in handoffs.context_conditions] == [
        "NestedChatTarget", "AgentTarget", "TerminateTarget",
    ]
    assert [c.condition.prompt for c in handoffs.get_llm_conditions_by_target_type(AgentTarget)] == ["to b"]
    assert handoffs.get_llm_conditions_by_target_type(TransitionTarget) == handoffs.llm_conditions
    assert len(handoffs.get_context_conditions_by_target_type(NestedChatTarget)) == 1
    assert [c.condition.prompt for c in handoffs.get_llm_conditions_requiring_wrapping()] == ["nested"]
    assert [c.target for c in handoffs.get_context_conditions_requiring_wrapping()] == [nested]
    assert handoffs.llm_conditions[0].has_target_type(AgentTarget) and not handoffs.llm_conditions[0].target_requires_wrapping()
    assert handoffs.clear() is handoffs
    assert (handoffs.context_conditions, handoffs.llm_conditions, handoffs.after_works) == ([], [], [])


def test_after_works_keep_one_fallback_last() -> None:
    when_x = OnContextCondition(target=StayTarget(), condition=StringContextCondition(variable_name="x"))
    when_y = OnContextCondition(target=AgentNameTarget("y"), condition=StringContextCondition(variable_name="y"))
    handoffs = Handoffs().set_after_work(TerminateTarget())
    handoffs.add_after_work(when_x)  # reference: [Stay, Terminate]
    assert [type(c.target).__name__ for c in handoffs.after_works] == ["StayTarget", "TerminateTarget"]
    handoffs.add_after_work(OnContextCondition(target=RevertToUserTarget()))  # a new fallback replaces the old
    assert [type(c.target).__name__ for c in handoffs.after_works] == ["StayTarget", "RevertToUserTarget"]
    handoffs.add_after_works([OnContextCondition(target=AskUserTarget()), when_y, OnContextCondition(target=TerminateTarget())])
    assert [type(c.target).__name__ for c in handoffs.after_works] == ["StayTarget", "AgentNameTarget", "TerminateTarget"]
    # Differs from the reference on purpose: its add_after_works drops the existing fallback when the new list
    # has none (add_after_work keeps it); here both keep it.
    handoffs = Handoffs().set_after_work(TerminateTarget()).add_after_works([when_x])
    assert [type(c.target).__name__ for c in handoffs.after_works] == ["StayTarget", "TerminateTarget"]
    handoffs.set_after_work(StayTarget())  # replaces every after-work
    assert [(type(c.target).__name__, c.condition) for c in handoffs.after_works] == [("StayTarget", None)]


def test_handoffs_refuse_what_is_not_a_condition() -> None:
    b = agent("b")
    handoffs = Handoffs()
    with pytest.raises(TypeError, match="Expected an OnCondition instance, got str.*StringLLMCondition"):
        handoffs.add_llm_condition("to b")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"All conditions must be of type OnCondition: item 1 .* is str"):
        handoffs.add_llm_conditions([OnCondition(target=AgentTarget(b), condition=StringLLMCondition("x")), "y"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="Expected an OnContextCondition instance, got OnCondition"):
        handoffs.add_context_condition(OnCondition(target=AgentTarget(b), condition=StringLLMCondition("x")))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Expected a TransitionTarget instance, got ConversableAgent.*AgentTarget"):
        handoffs.set_after_work(b)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Unsupported condition type: int"):
        handoffs.add(3)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="takes a list of OnContextCondition"):
        handoffs.add_after_works(OnContextCondition(target=StayTarget()))  # type: ignore[arg-type]
    assert (handoffs.llm_conditions, handoffs.context_conditions, handoffs.after_works) == ([], [], [])
    # pydantic's ValidationError (a ValueError), whose text says what to write instead
    with pytest.raises(ValidationError, match=r"OnCondition.target should be a TransitionTarget; got ConversableAgent 'b'\. Use AgentTarget\(b\)"):
        OnCondition(target=b, condition=StringLLMCondition("x"))
    with pytest.raises(ValidationError, match=r"Use StringLLMCondition\(prompt='go to b'\)"):
        OnCondition(target=AgentTarget(b), condition="go to b")
    with pytest.raises(ValidationError, match=r"ExpressionContextCondition\(ContextExpression\('\$\{x\} > 1'\)\)"):
        OnContextCondition(target=AgentTarget(b), condition="${x} > 1")
    with pytest.raises(ValidationError, match=r"AgentNameTarget\('b'\)"):
        ReplyResult(message="m", target="b")


def test_subclassed_conditions_and_targets_work_in_handoffs() -> None:
    class AfterHours(ContextCondition):
        hour_variable: str = "hour"

        def evaluate(self, context_variables: ContextVariables) -> bool:
            return context_variables.get(self.hour_variable, 12) >= 18

    class OnlyForVip(AvailableCondition):
        def is_available(self, agent: ConversableAgent, messages: list[dict[str, Any]]) -> bool:
            return bool(agent.context_variables.get("vip"))

    class Shouting(LLMCondition):
        def get_prompt(self, agent: ConversableAgent, messages: list[dict[str, Any]]) -> str:
            return "The customer is shouting: " + messages[-1]["content"]

    class Voicemail(TransitionTarget):
        def can_resolve_for_speaker_selection(self) -> bool:
            return True

        def resolve(self, groupchat: Any, current_agent: Any, user_agent: Any) -> SpeakerSelectionResult:
            return SpeakerSelectionResult(terminate=True)

        def display_name(self) -> str:
            return "voicemail"

        def normalized_name(self) -> str:
            return "voicemail"

        def needs_agent_wrapper(self) -> bool:
            return False

    desk = agent("desk")
    desk.handoffs.add_context_condition(OnContextCondition(target=Voicemail(), condition=AfterHours(), available=OnlyForVip()))
    desk.handoffs.add_llm_condition(OnCondition(target=Voicemail(), condition=Shouting()))
    desk.handoffs.set_llm_function_names()
    on_context = desk.handoffs.context_conditions[0]
    assert on_context.condition is not None and on_context.available is not None
    assert on_context.condition.evaluate(ContextVariables({"hour": 20})) is True
    assert on_context.available.is_available(desk, []) is False
    assert desk.handoffs.llm_conditions[0].condition.get_prompt(desk, [{"content": "HELLO"}]) == "The customer is shouting: HELLO"
    assert desk.handoffs.llm_conditions[0].llm_function_name == "transfer_to_voicemail_1"
    assert desk.handoffs.get_llm_conditions_by_target_type(Voicemail)[0].target.resolve(None, desk, None).terminate


# ================================================================================================ targets
# display_name, normalized_name, str, can_resolve_for_speaker_selection, needs_agent_wrapper (reference)
TARGET_FACES = [
    (lambda a, b: AgentTarget(a), ("alice", "alice", "Transfer to alice", True, False)),
    (lambda a, b: AgentNameTarget("b c"), ("b c", "b c", "Transfer to b c", True, False)),
    (lambda a, b: RevertToUserTarget(), ("Revert to User", "revert_to_user", "Revert to User", True, False)),
    (lambda a, b: TerminateTarget(), ("Terminate", "terminate", "Terminate", True, False)),
    (lambda a, b: StayTarget(), ("Stay", "stay", "Stay with agent", True, False)),
    (lambda a, b: AskUserTarget(), ("Ask User", "ask_user", "Ask User", True, False)),
    (lambda a, b: RandomAgentTarget([a, b]), (
        "<Not Randomly Selected Yet>", "<Not Randomly Selected Yet>", "Transfer to <Not Randomly Selected Yet>", True,
        False)),
    (lambda a, b: NestedChatTarget(nested_chat_config={"chat_queue": []}),
     ("a nested chat", "nested_chat", "Transfer to nested chat", False, True)),
    (lambda a, b: GroupManagerTarget(), ("the group manager", "the group manager", "Transfer to the group manager", True, False)),
    (lambda a, b: GroupChatTarget(group_chat_config=GroupChatConfig(pattern=_a_pattern(), messages="hi")),
     ("a group chat", "group_chat", "Transfer to group chat", False, True)),
]


@pytest.mark.parametrize(("make", "expected"), TARGET_FACES, ids=[e[0] for _, e in TARGET_FACES])
def test_target_names_and_kinds(make: Any, expected: tuple[Any, ...]) -> None:
    target = make(agent("alice"), agent("bob"))
    assert (target.display_name(), target.normalized_name(), str(target), target.can_resolve_for_speaker_selection(),
            target.needs_agent_wrapper()) == expected
    if not target.needs_agent_wrapper():
        with pytest.raises(NotImplementedError, match=f"{type(target).__name__} does not require wrapping in an agent"):
            target.create_wrapper_agent(agent("p"), 0)


def test_targets_resolve_in_a_group_chat() -> None:
    alice, bob, user = agent("alice"), agent("bob"), agent("user")
    groupchat = GroupChat(agents=[alice, bob, user], messages=[])

    def pick(target: TransitionTarget, current: ConversableAgent = alice, user_agent: Any = user) -> Any:
        return target.resolve(groupchat, current, user_agent).get_speaker_selection_result(groupchat)

    assert pick(AgentTarget(bob)) is bob
    assert pick(AgentNameTarget("bob")) is bob
    assert pick(StayTarget(), current=bob) is bob
    assert pick(RevertToUserTarget()) is user
    assert pick(TerminateTarget()) is None
    assert pick(AskUserTarget()) == "manual"
    assert pick(GroupManagerTarget()) == "auto"
    random_target = RandomAgentTarget([alice, bob])
    assert [pick(random_target, current=alice) for _ in range(5)] == [bob] * 5  # never the current agent
    assert random_target.nominated_name == "bob" and random_target.display_name() == "bob"
    assert AgentTarget(bob).resolve(groupchat, alice, None) == SpeakerSelectionResult(agent_name="bob")

    with pytest.raises(ValueError, match="User agent must be provided to the chat for the revert_to_user option"):
        RevertToUserTarget().resolve(groupchat, alice, None)
    with pytest.raises(ValueError, match=r"Agent 'carol' not found in groupchat\. Its agents are \['alice', 'bob', 'user'\]"):
        pick(AgentNameTarget("carol"))
    with pytest.raises(NotImplementedError, match="NestedChatTarget does not support the resolve method"):
        NestedChatTarget(nested_chat_config={"chat_queue": []}).resolve(groupchat, alice, user)
    with pytest.raises(ValueError, match="RandomAgentTarget of alice has no agent to choose from besides alice"):
        RandomAgentTarget([alice]).resolve(groupchat, alice, None)


def test_speaker_selection_result() -> None:
    a = agent("a")
    groupchat = GroupChat(agents=[a], messages=[])
    assert SpeakerSelectionResult(agent_name="a").get_speaker_selection_result(groupchat) is a
    assert SpeakerSelectionResult(speaker_selection_method="round_robin").get_speaker_selection_result(groupchat) == "round_robin"
    assert SpeakerSelectionResult(terminate=True).get_speaker_selection_result(groupchat) is None
    for empty in (SpeakerSelectionResult(), SpeakerSelectionResult(terminate=False)):
        with pytest.raises(ValueError, match="Unable to establish speaker selection result"):
            empty.get_speaker_selection_result(groupchat)
    assert repr(SpeakerSelectionResult(agent_name="a")) == (
        "SpeakerSelectionResult(terminate=None, agent_name='a', speaker_selection_method=None)"  # reference
    )


def test_targets_serialize_and_compare() -> None:
    alice = agent("alice")
    assert AgentTarget(alice).model_dump() == {"agent_name": "alice"}
    assert repr(AgentTarget(alice)) == "AgentTarget(agent_name='alice')"
    assert AgentTarget(alice) == AgentTarget(agent("alice")) and AgentTarget(alice) != AgentNameTarget("alice")
    assert RandomAgentTarget([alice, agent("bob")]).model_dump() == {
        "agent_names": ["alice", "bob"], "nominated_name": "<Not Randomly Selected Yet>",
    }
    on = OnContextCondition(target=AgentTarget(alice), condition=ExpressionContextCondition(ContextExpression("${x} > 1")))
    assert on.condition is not None and on.condition.model_dump() == {"expression": {"expression": "${x} > 1"}}
    assert json.loads(Handoffs().set_after_work(AgentTarget(alice)).model_dump_json()) == {
        "context_conditions": [], "llm_conditions": [], "after_works": [{"target": {}, "condition": None, "available": None}],
    }  # reference: a field typed TransitionTarget serializes as the base class


def test_bad_target_arguments_say_what_to_write() -> None:
    from autogen_classic.exception_utils import InvalidAttributeTypeError

    with pytest.raises(AttributeError, match=r"AgentTarget takes an agent .* got str 'bob'\. Use AgentNameTarget\('bob'\)") as info:
        AgentTarget("bob")  # type: ignore[arg-type]
    assert isinstance(info.value, InvalidAttributeTypeError)  # reference: AttributeError
    with pytest.raises(ValueError, match=r"AgentNameTarget takes the name of an agent; got ConversableAgent 'bob'\. Use AgentTarget"):
        AgentNameTarget(agent("bob"))  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="GroupChatConfig.pattern should be a Pattern"):
        GroupChatConfig(pattern=None, messages="hi")


def test_nested_chat_target_wrapper_runs_the_nested_chat() -> None:
    parent = agent("parent")
    solver = agent("solver", default_auto_reply="the answer is 42")
    target = NestedChatTarget(nested_chat_config={
        "chat_queue": [{"recipient": solver, "message": "solve it", "max_turns": 1, "summary_method": "last_msg"}],
    })
    wrapper = target.create_wrapper_agent(parent, 2)
    # reference: name, class, no model, hands back to the parent
    assert (wrapper.name, type(wrapper), wrapper.llm_config) == ("wrapped_nested_parent_3", ConversableAgent, False)
    assert wrapper.name.startswith(__AGENT_WRAPPER_PREFIX__)
    assert [str(c.target) for c in wrapper.handoffs.after_works] == ["Transfer to parent"]
    reply = wrapper.generate_reply(messages=[{"role": "user", "content": "please"}], sender=parent)
    assert reply == "the answer is 42"  # reference
    assert [(m["role"], m["content"]) for m in solver.chat_messages[wrapper]] == [
        ("user", "solve it"), ("assistant", "the answer is 42"),
    ]
    with pytest.raises(ValueError, match="NestedChatTarget of parent has no 'chat_queue'"):
        NestedChatTarget(nested_chat_config={"queue": []}).create_wrapper_agent(parent, 0)


def test_group_chat_target_wrapper_runs_initiate_group_chat(monkeypatch: pytest.MonkeyPatch) -> None:
    from autogen_classic.agentchat.group.targets import group_chat_target

    parent = ConversableAgent("parent", llm_config=False)
    config = GroupChatConfig(pattern=_a_pattern(), messages="start", max_rounds=7)
    target = GroupChatTarget(group_chat_config=config)
    calls: list[dict[str, Any]] = []

    def initiate_group_chat(pattern: Any, messages: Any, max_rounds: int) -> tuple[Any, Any, Any]:
        calls.append({"pattern": pattern, "messages": messages, "max_rounds": max_rounds})
        return autogen.ChatResult(summary="inner summary"), ContextVariables(), None

    monkeypatch.setattr(group_chat_target, "initiate_group_chat", initiate_group_chat)
    wrapper = target.create_wrapper_agent(parent, 1)
    assert wrapper.name == "wrapped_group_parent_2" and [str(c.target) for c in wrapper.handoffs.after_works] == [
        "Transfer to parent"]
    reply = wrapper.generate_reply(
        messages=[{"role": "user", "content": "the task"}, {"role": "user", "content": "handing off"}], sender=parent)
    assert reply == {"content": "inner summary"}  # the inner chat's summary, as the reference answers
    assert calls == [{"pattern": config.pattern, "messages": "the task", "max_rounds": 7}]


def test_group_manager_selection_messages() -> None:
    desk = agent("desk", context_variables=ContextVariables({"customer": "Ada"}))
    message = GroupManagerSelectionMessageContextStr(context_str_template="Pick from {agentlist} for {customer}")
    assert message.context_str_template == "Pick from <<agent_list>> for {customer}"  # reference
    assert message.get_message(desk) == "Pick from {agentlist} for Ada"
    assert GroupManagerSelectionMessageString(message="x {agentlist}").get_message(desk) == "x {agentlist}"


# ================================================================================================ function targets
def test_function_target_and_its_result() -> None:
    alice, bob = agent("alice"), agent("bob")
    groupchat = GroupChat(agents=[alice, bob], messages=[{"role": "user", "content": "order 17 is late", "name": "user"}])
    alice.context_variables = ContextVariables({"escalations": 0})
    seen: list[Any] = []

    def route(output: str, ctx: ContextVariables, team: str = "support") -> FunctionTargetResult:
        seen.append((output, ctx.get("escalations"), team))
        return FunctionTargetResult(context_variables=ContextVariables({"escalations": 1}), target=AgentTarget(bob))

    target = FunctionTarget(route, extra_args={"team": "logistics"})
    assert (target.fn_name, target.extra_args, target.display_name(), target.normalized_name(), str(target)) == (
        "route", {"team": "logistics"}, "route", "route", "Transfer to tool route")
    assert not target.can_resolve_for_speaker_selection() and not target.needs_agent_wrapper()
    assert repr(target) == "FunctionTarget(fn_name='route', extra_args={'team': 'logistics'})"  # reference
    result = target.resolve(groupchat, alice, None)
    assert result == SpeakerSelectionResult(agent_name="bob") and seen == [("order 17 is late", 0, "logistics")]
    assert alice.context_variables.to_dict() == {"escalations": 1}
    with pytest.raises(NotImplementedError, match="FunctionTarget is executed inline and needs no wrapper"):
        target.create_wrapper_agent(alice, 0)

    # messages need the group manager the running group chat gives the agent
    def tell(output: str, ctx: ContextVariables) -> FunctionTargetResult:
        return FunctionTargetResult(messages="look at order 17", target=StayTarget())

    with pytest.raises(ValueError, match="Current agent must have a group manager to broadcast messages: alice"):
        FunctionTarget(tell).resolve(groupchat, alice, None)

    def wrong(output: str, ctx: ContextVariables) -> Any:
        return "bob"

    with pytest.raises(ValueError, match="must return a FunctionTargetResult object: wrong returned str 'bob'"):
        FunctionTarget(wrong).resolve(groupchat, alice, None)


def test_function_target_broadcasts_through_the_group_manager() -> None:
    alice, bob = agent("alice"), agent("bob")
    groupchat = GroupChat(agents=[alice, bob], messages=[])
    manager = GroupChatManager(groupchat, llm_config=False)
    alice._group_manager = manager  # what a running group chat sets on its agents
    broadcast("check the stock", groupchat, alice, "route", AgentTarget(bob))
    broadcast([FunctionTargetMessage(content="thanks", msg_target=alice)], groupchat, alice, "route", StayTarget())
    # reference: what each agent holds
    assert bob.chat_messages[manager] == [
        {"content": "[FUNCTION_HANDOFF] - Reply from function route: \n\n check the stock", "name": "route", "role": "user"},
    ]
    assert alice.chat_messages[manager] == [
        {"content": "[FUNCTION_HANDOFF] - Reply from function route: \n\n thanks", "name": "route", "role": "user"},
    ]
    with pytest.raises(ValueError, match="No agent found with in the group chat matching the target agent name carol"):
        broadcast("x", groupchat, alice, "route", AgentNameTarget("carol"))


def test_function_target_signature_checks() -> None:
    def one(output: str) -> Any: ...

    def needs_k(output: str, ctx: Any, k: int) -> Any: ...

    def takes_kwargs(output: str, ctx: Any, **extra: Any) -> Any: ...

    # reference messages
    with pytest.raises(ValueError, match=r"Function 'one' must accept at least two positional parameters: \(output, ctx\)\. Current: \['output'\]"):
        FunctionTarget(one)
    with pytest.raises(ValueError, match=r"Missing required extra_args for function 'needs_k': \['k'\]"):
        FunctionTarget(needs_k)
    assert validate_fn_sig(takes_kwargs, {"anything": 1}) is None  # **kwargs takes any extra argument
    with pytest.raises(ValueError, match=r"Invalid extra_args for function 'needs_k': \['z'\]\. Allowed parameters are: \['output', 'ctx', 'k'\]"):
        FunctionTarget(needs_k, extra_args={"k": 1, "z": 2})
    with pytest.raises(ValueError, match="FunctionTarget must be initialized with a callable function"):
        FunctionTarget(3)  # type: ignore[arg-type]
    assert FunctionTarget(needs_k, extra_args={"k": 1}).extra_args == {"k": 1}


# ================================================================================================ ReplyResult
def test_reply_result_fields() -> None:
    assert ReplyResultFromAgentchat is ReplyResult and ContextVariablesFromAgentchat is ContextVariables
    plain = ReplyResult(message="Refund recorded")
    assert (plain.message, plain.target, plain.context_variables, str(plain)) == ("Refund recorded", None, None, "Refund recorded")
    full = ReplyResult(message="m", target=AgentTarget(agent("a")), context_variables=ContextVariables({"x": 1}))
    assert repr(full) == (
        "ReplyResult(message='m', target=AgentTarget(agent_name='a'), context_variables=ContextVariables(data={'x': 1}))"
    )  # reference
    assert full.model_dump() == {"message": "m", "target": {}, "context_variables": {"data": {"x": 1}}}  # reference
    # A plain dict of variables is taken as the variables (the reference keeps an empty ContextVariables).
    assert ReplyResult(message="m", context_variables={"x": 1}).context_variables == ContextVariables({"x": 1})
    assert ReplyResult(message="m", context_variables={"data": {"x": 1}}).context_variables == ContextVariables({"x": 1})
    with pytest.raises(TypeError):
        ReplyResult("positional")  # type: ignore[misc]  # reference: keyword arguments only
    with pytest.raises(ValidationError):
        ReplyResult(target=StayTarget())  # type: ignore[call-arg]

    result = FunctionTargetResult(target=StayTarget())
    assert repr(result) == "FunctionTargetResult(messages=None, context_variables=None, target=StayTarget())"  # reference
    with pytest.raises(ValidationError, match="FunctionTargetResult.target should be a TransitionTarget"):
        FunctionTargetResult(target="stay")


# ================================================================================================ ContextVariables
def test_context_variables_as_014_code_uses_them() -> None:
    ctx = ContextVariables(data={"user": "Ada", "attempts": 0})
    ctx.set("attempts", ctx.get("attempts") + 1)
    ctx["cart"] = ["kettle"]
    assert ctx["attempts"] == 1 and ctx.get("missing") is None and ctx.get("missing", 5) == 5
    assert "cart" in ctx and ctx.contains("user") and not ctx.contains("nope")
    assert len(ctx) == 3 and list(ctx.keys()) == ["user", "attempts", "cart"]
    assert list(ctx.values()) == ["Ada", 1, ["kettle"]] and list(ctx.items())[0] == ("user", "Ada")
    assert list(ctx) == [("user", "Ada"), ("attempts", 1), ("cart", ["kettle"])]  # reference: iteration gives pairs
    assert dict(ctx) == {**ctx} == ctx.to_dict() == {"user": "Ada", "attempts": 1, "cart": ["kettle"]}
    copy = ctx.to_dict()
    copy["user"] = "Bob"
    assert ctx["user"] == "Ada"  # to_dict is a copy
    ctx.update({"user": "Bea", "vip": True})
    assert ctx.remove("vip") is True and ctx.remove("vip") is False
    del ctx["cart"]
    assert str(ctx) == "ContextVariables({'user': 'Bea', 'attempts': 1})"  # reference
    assert repr(ctx) == "ContextVariables(data={'user': 'Bea', 'attempts': 1})"
    assert ctx == ContextVariables.from_dict({"user": "Bea", "attempts": 1}) and ctx != {"user": "Bea", "attempts": 1}
    assert ContextVariables.model_validate_json(ctx.model_dump_json()) == ctx
    assert ctx.model_dump() == {"data": {"user": "Bea", "attempts": 1}}
    ctx.clear()
    assert len(ctx) == 0 and not ctx and ContextVariables() == ContextVariables(None) == ContextVariables({})
    given = {"a": 1}
    assert ContextVariables(given).data is not given  # reference: the constructor copies

    with pytest.raises(KeyError, match="Context variable 'nope' not found"):
        ctx["nope"]
    with pytest.raises(KeyError, match="Cannot delete non-existent context variable 'nope'"):
        del ctx["nope"]
    with pytest.raises(ValidationError, match=r"ContextVariables data should be a dict of name -> value; got list \[1\]"):
        ContextVariables([1])  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="ContextVariables names should be str; got int 1"):
        ContextVariables({1: "x"})  # type: ignore[dict-item]


def test_agent_context_variables_014_and_073_views_are_one_storage() -> None:
    # 0.14: a ContextVariables given to the agent is kept as is
    shared = ContextVariables({"stage": "start"})
    a, b = agent("a", context_variables=shared), agent("b", context_variables=shared)
    assert a.context_variables is shared and b.context_variables is shared
    a.context_variables.set("stage", "billing")
    assert b.context_variables["stage"] == "billing" and b._context_variables == {"stage": "billing"}

    # 0.7.3: a plain dict is kept (not copied) and is what _context_variables, get_context ... use
    state = {"order_verified": False}
    legacy = agent("legacy", context_variables=state)
    assert legacy._context_variables is state
    legacy.set_context("order_verified", True)
    legacy.update_context({"refunded": 40})
    assert state == {"order_verified": True, "refunded": 40} and legacy.get_context("refunded") == 40
    assert legacy.context_variables.get("refunded") == 40  # the 0.14 view sees the same dict
    legacy.context_variables["case_closed"] = True
    assert state["case_closed"] is True and legacy.pop_context("case_closed") is True

    # a swarm points every agent at one dict (agent._context_variables = shared_dict)
    swarm_state: dict[str, Any] = {"b_open": True}
    for member in (a, b):
        member._context_variables = swarm_state
    assert isinstance(a.context_variables, ContextVariables) and a.context_variables.data is swarm_state
    assert StringAvailableCondition("b_open").is_available(b, []) is True
    swarm_state["b_open"] = False
    assert StringAvailableCondition("b_open").is_available(b, []) is False
    assert ExpressionAvailableCondition(ContextExpression("not ${b_open}")).is_available(a, [])

    # SwarmAgent (0.7.3) with a dict, read by 0.14 conditions
    swarm_agent = SwarmAgent("sw", llm_config=False, context_variables={"tier": "gold"})
    assert ExpressionContextCondition("${tier} == 'gold'").evaluate(swarm_agent.context_variables) is True
    assert agent("fresh")._context_variables == {} and agent("fresh").context_variables == ContextVariables()


def test_context_str() -> None:
    template = ContextStr(template="Hello {name}, you have {count} items")
    assert template.format(ContextVariables({"name": "Ada", "count": 2})) == "Hello Ada, you have 2 items"
    assert template.format(ContextVariables()) == "Hello {name}, you have {count} items"  # reference: no variables
    assert str(template) == "ContextStr, unformatted: Hello {name}, you have {count} items"
    with pytest.raises(KeyError, match=r"names the context variable 'count', which is not set \(set: \['name'\]\)"):
        template.format(ContextVariables({"name": "Ada"}))


# ================================================================================================ ContextExpression
CONTEXT = {
    "logged_in": True, "is_admin": False, "guest_checkout": True, "attempts": 3, "n": 5, "name": "Ada",
    "items": [1, 2], "empty": [], "orders": [], "score": 2.5, "neg": -1, "none": None, "d": {"k": 1},
    "quote": "it's", "s0": "", "zero": 0, "status": "open", "t": (1,), "cart_items": ["x"], "user_active": True,
    "checkout_started": False,
}

# expression -> repr of its value with CONTEXT, as autogen 0.14.1 evaluates it
REFERENCE_VALUES = {
    "${logged_in}": "True",
    "not ${logged_in}": "False",
    "${logged_in} and not ${is_admin}": "True",
    "not ${logged_in} and ${is_admin} or ${guest_checkout}": "True",
    "!${logged_in} & ${is_admin} | ${guest_checkout}": "True",
    "${n} > 3": "True",
    "${n} >= 5": "True",
    "${n} < 5": "False",
    "${n} <= 4": "False",
    "${n} == 5": "True",
    "${n} != 5": "False",
    "len(${items}) == 0": "False",
    "len(${items}) > 1": "True",
    "len(${empty}) == 0": "True",
    "len(${orders}) > 0 & ${user_active}": "False",
    "len(${cart_items}) == 0 | ${checkout_started}": "False",
    "${name} == 'Ada'": "True",
    '${name} == "Ada"': "True",
    "${name} != 'Bob'": "True",
    "${status} == 'open' and ${n} > 1": "True",
    "(${logged_in} or ${is_admin}) and ${n} > 10": "False",
    "${logged_in} or (${is_admin} and ${n} > 10)": "True",
    "${score} > 2": "True",
    "${score} == 2.5": "True",
    "${neg} < 0": "True",
    "${neg} == -1": "True",
    "-${n} < 0": "True",
    "${n} > -3": "True",
    "True": "True",
    "False": "False",
    "${logged_in} == True": "True",
    "${is_admin} == False": "True",
    "not (${n} > 3)": "False",
    "!(${n} > 3)": "False",
    "${items}": "True",
    "${empty}": "False",
    "not ${empty}": "True",
    "${none}": "None",
    "${none} == None": "True",
    "${d}": "True",
    "len(${d}) == 1": "True",
    "len(${name}) == 3": "True",
    "len(${n}) == 0": "True",
    "${quote} == \"it's\"": "True",
    "${s0}": "''",
    "${s0} == ''": "True",
    "${zero}": "0",
    "${zero} == 0": "True",
    "1 < ${n} < 10": "True",
    "${n} > 3 > 1": "True",
    "${t}": "True",
    "len(${t})": "1",
    "${n}": "5",
    "${name}": "'Ada'",
    "${n} == 5.0": "True",
    "${attempts} > 2 and ${attempts} < 5": "True",
    "${logged_in} and ${n}": "5",
    "${n} or ${zero}": "5",
    "${zero} or ${s0}": "''",
    "${name} > 'A'": "True",
    "'a' < 'b'": "True",
    "1 == 1": "True",
    "${n} == '5'": "False",
    "!${is_admin}": "True",
    "! ${is_admin}": "True",
    "${status} == 'a & b'": "False",
    "not not ${logged_in}": "True",
    "${n}>3": "True",
    "${n} == 1e1": "False",
    "${n} == 0x5": "True",
    "None": "None",
    "'abc'": "'abc'",
    "5": "5",
    "len('abc') == 3": "True",
    "True and 'x'": "'x'",
    "${n} >= 5 >= 5": "True",
}

# Where this package answers where the reference fails (the reference's text rewriting misreads them).
BEYOND_REFERENCE = {
    "${logged_in}&${is_admin}": "False",  # reference: ValueError (& / | need spaces around them there)
    "${logged_in}|${is_admin}": "True",
    "len( ${items} ) == 2": "True",  # reference: ValueError (spaces inside len())
    "len(${items}) > 0 and ${items}": "True",  # reference: ValueError (a variable both in len() and outside)
    "!True": "False",  # reference: SyntaxError (! only before ${ or ()
    " ${n} > 3": "True",  # reference: SyntaxError (leading space: "unexpected indent")
}


@pytest.mark.parametrize("expression", sorted({**REFERENCE_VALUES, **BEYOND_REFERENCE}))
def test_context_expression_values(expression: str) -> None:
    expected = {**REFERENCE_VALUES, **BEYOND_REFERENCE}[expression]
    assert repr(ContextExpression(expression).evaluate(ContextVariables(dict(CONTEXT)))) == expected
    assert repr(ContextExpression(expression).evaluate(dict(CONTEXT))) == expected  # a 0.7.3-style dict too


# expression -> (exception type, when: "make" / "evaluate", parts of the message). The type and the moment are
# the reference's; the message names the expression, the position and the fix.
BAD_EXPRESSIONS = {
    "${n} >": (SyntaxError, "make", ["Invalid expression syntax in '${n} >'", "position 5", "add a value after it"]),
    "(${n} > 3": (SyntaxError, "make", ["'(' at position 0 was never closed", "add ')'"]),
    "": (SyntaxError, "make", ["the expression is empty", "${logged_in} and ${attempts} < 3"]),
    "   ": (SyntaxError, "make", ["the expression is empty"]),
    "${n} ===  5": (SyntaxError, "make", ["'===' at position 5", "write == to compare"]),
    "${n} = 5": (SyntaxError, "make", ["'=' at position 5", "write == to compare"]),
    "${logged_in} && ${n}": (SyntaxError, "make", ["'&&' at position 13", "write 'and' (or '&')"]),
    "${logged_in} || ${n}": (SyntaxError, "make", ["'||' at position 13", "write 'or' (or '|')"]),
    "${a b}": (SyntaxError, "make", ["'${a b}' at position 0", "written ${name}"]),
    "${}": (SyntaxError, "make", ["'${}' at position 0 has no name"]),
    "${n > 3": (SyntaxError, "make", ["'${' at position 0 is not closed"]),
    "'unterminated": (SyntaxError, "make", ["the string starting at position 0 is not closed", "end it with '"]),
    "${n} > 3 and": (SyntaxError, "make", ["'and' at position 9 has nothing after it"]),
    "len ${items}": (SyntaxError, "make", ["'len' at position 0 must be called: write len(${name})"]),
    "${a} ${b}": (SyntaxError, "make", ["unexpected '${b}' at position 5", "join conditions with and / or"]),
    "${a})": (SyntaxError, "make", ["')' at position 4 closes no '('"]),
    "${logged_in} is True": (ValueError, "make", ["Error validating expression", "'is' at position 13", "compare with =="]),
    "${n} in [1,5]": (ValueError, "make", ["position 8"]),
    "${n} + 1 > 3": (ValueError, "make", ["'+' at position 5 is not allowed (arithmetic)", "len(${name})"]),
    "${n} - 1 > 3": (ValueError, "make", ["'-' at position 5 is not allowed (arithmetic)"]),
    "${n} * 2": (ValueError, "make", ["'*' at position 5"]),
    "abs(${n}) > 1": (ValueError, "make", ["Only the len() function is allowed, got: abs"]),
    "len(${items}, ${n})": (ValueError, "make", ["len() function must have exactly one argument, got 2"]),
    "len()": (ValueError, "make", ["len() function must have exactly one argument, got 0"]),
    "${name}.upper()": (ValueError, "make", ["'.' at position 7 is not allowed (attribute access)"]),
    "${items}[0]": (ValueError, "make", ["'[' at position 8 is not allowed (indexing and lists)"]),
    "{'a':1}": (ValueError, "make", ["'{' at position 0"]),
    "${n} if True else 0": (ValueError, "make", ["'if' at position 5: conditional expressions are not allowed"]),
    "lambda: 1": (ValueError, "make", ["lambda"]),
    "~${n}": (ValueError, "make", ["'~' at position 0"]),
    "+${n} > 0": (ValueError, "make", ["'+' at position 0"]),
    "len(5)": (ValueError, "make", ["len() at position 0 takes a context variable"]),  # reference: on evaluate
    "x": (ValueError, "evaluate", ["Error evaluating expression 'x'", "name 'x' at position 0 is not defined",
                                   "write ${x} to read the context variable 'x'"]),
    "${n} < 'a'": (ValueError, "evaluate", ["'<' at position 5 cannot compare int 5 with str 'a'"]),
    "-${name} < 0": (ValueError, "evaluate", ["'-' at position 0 cannot negate str 'Ada'"]),
    "${missing}": (KeyError, "evaluate", ["Missing context variable: 'missing'", "context_variables.set('missing'"]),
    "len(${missing}) == 0": (KeyError, "evaluate", ["Missing context variable: 'missing'"]),
    # every variable must be set, even one that and / or would skip (reference)
    "${logged_in} or ${missing}": (KeyError, "evaluate", ["Missing context variable: 'missing'"]),
}


@pytest.mark.parametrize("expression", sorted(BAD_EXPRESSIONS))
def test_bad_context_expressions(expression: str) -> None:
    kind, when, parts = BAD_EXPRESSIONS[expression]
    with pytest.raises(kind) as info:
        ContextExpression(expression).evaluate(ContextVariables(dict(CONTEXT)))
    message = str(info.value.args[0]) if kind is KeyError else str(info.value)
    assert all(part in message for part in parts), message
    made = True
    try:
        ContextExpression(expression)
    except (SyntaxError, ValueError):
        made = False
    assert made == (when == "evaluate")


def test_context_expression_object() -> None:
    expression = ContextExpression("${a} and not ${b}")
    assert str(expression) == "ContextExpression('${a} and not ${b}')"  # reference
    assert repr(expression) == "ContextExpression(expression='${a} and not ${b}')"
    assert expression == ContextExpression("${a} and not ${b}")
    assert expression.evaluate(ContextVariables({"a": True, "b": False})) is True
    with pytest.raises(SyntaxError) as info:
        ContextExpression("${n} >")
    assert info.value.offset == 6 and info.value.text == "${n} >"  # where, for tools that show it
    with pytest.raises(ValueError, match="an expression is a str"):
        ContextExpression(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="needs the context variables"):
        expression.evaluate(["a"])  # type: ignore[arg-type]
    # conditions accept the expression's text
    assert ExpressionContextCondition("${a}").expression == ContextExpression("${a}")
    with pytest.raises(ValidationError, match=r"should be a ContextExpression"):
        ExpressionContextCondition(3)  # type: ignore[arg-type]
    assert autogen.ContextExpression is ContextExpression


# ================================================================================================ layering
def test_transitions_import_no_agent_and_no_group_chat() -> None:
    """The agent core imports agentchat.transitions, so it must import nothing of agentchat but the Agent protocol."""
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("autogen_classic", exclude_type_checking_imports=True)
    package = "autogen_classic.agentchat.transitions"
    imported = {
        target
        for module in graph.modules
        if module == package or module.startswith(package + ".")
        for target in graph.find_modules_directly_imported_by(module)
        if target.startswith("autogen_classic.agentchat") and not target.startswith(package)
    }
    assert imported <= {"autogen_classic.agentchat.agent"}, imported


def test_the_targets_that_make_agents_have_one_home_above_the_hand_off_data() -> None:
    """NestedChatTarget and GroupManagerTarget live with the group chat's hand-offs, GroupChatTarget with the
    group orchestration; their classic paths re-export those classes."""
    from autogen_classic.agentchat import transitions
    from autogen_classic.agentchat.group.targets import group_chat_target, group_manager_target, transition_target
    from autogen_classic.agentchat.groupchat import handoffs

    assert transition_target.NestedChatTarget is handoffs.NestedChatTarget is autogen.agentchat.group.NestedChatTarget
    assert group_manager_target.GroupManagerTarget is handoffs.GroupManagerTarget
    assert group_manager_target.GroupToolExecutor is handoffs.GroupToolExecutor
    assert group_chat_target.GroupChatTarget.__module__ == group_chat_target.__name__
    assert not {"NestedChatTarget", "GroupManagerTarget", "GroupChatTarget"} & set(dir(transitions))
