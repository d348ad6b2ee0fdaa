"""AG2 Classic 0.14's group orchestration, written as 0.14 scripts write it: patterns, hand-offs, run functions.

The agents talk to the scripted OpenAI-compatible server. Each kind of transition (an LLM condition's hand-off
tool, a tool's ``ReplyResult``, an ``OnContextCondition`` and its expression, an after-work target, the
pattern's own choice) is asserted in the messages, as AG2 Classic 0.14.1 produced them against the same
script, and in the group chat's selection trace. The expected messages, tool names, events and errors were
read from ``autogen==0.14.1`` run against the same scripted replies.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any, Iterator

import pytest

from autogen_classic import ConversableAgent
from autogen_classic.agentchat import (
    a_initiate_group_chat,
    a_run_group_chat,
    a_run_group_chat_iter,
    initiate_group_chat,
    run_group_chat,
    run_group_chat_iter,
)
from autogen_classic.agentchat.group import (
    AgentNameTarget,
    AgentTarget,
    ContextExpression,
    ContextVariables,
    ExpressionContextCondition,
    OnCondition,
    OnContextCondition,
    ReplyResult,
    RevertToUserTarget,
    StringContextCondition,
    StringLLMCondition,
    TerminateTarget,
)
from autogen_classic.agentchat.group.events.transition_events import (
    AfterWorksTransitionEvent,
    OnConditionLLMTransitionEvent,
    OnContextConditionTransitionEvent,
    ReplyResultTransitionEvent,
)
from autogen_classic.agentchat.group.group_tool_executor import GroupToolExecutor
from autogen_classic.agentchat.group.patterns import (
    AutoPattern,
    DefaultPattern,
    ManualPattern,
    RandomPattern,
    RoundRobinPattern,
)
from autogen_classic.agentchat.group.targets.group_manager_target import GroupManagerTarget
from autogen_classic.agentchat.groupchat.selection.trace import format_selection_log, selection_log_from_json, \
    selection_log_to_json
from autogen_classic.events.agent_events import InputRequestEvent, RunCompletionEvent, TerminationEvent, TextEvent
from autogen_classic.io.base import IOStream
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply


def call(name: str, **arguments: Any) -> ScriptedReply:
    return ScriptedReply(content=None, tool_calls=[{"name": name, "arguments": arguments}])


@pytest.fixture
def console() -> Iterator[ScriptedIOStream]:
    stream = ScriptedIOStream(default_input="exit")
    with IOStream.set_default(stream):
        yield stream


def run_chat(use_async: bool, pattern: Any, messages: Any, max_rounds: int) -> Any:
    if use_async:
        return asyncio.run(a_initiate_group_chat(pattern=pattern, messages=messages, max_rounds=max_rounds))
    return initiate_group_chat(pattern=pattern, messages=messages, max_rounds=max_rounds)


def groupchat_of(agent: Any) -> Any:
    return agent._group_manager.groupchat


def handoffs(agent: Any) -> list[tuple[str, str, str, str]]:
    """(kind, source, target, via) of each selection of the group chat ``agent`` took part in."""
    return [(r.handoff.kind, r.handoff.source, r.handoff.target, r.handoff.via) if r.handoff else ("", "", "", "")
            for r in groupchat_of(agent).selection_log]


def printed(stream: ScriptedIOStream) -> str:
    return "".join(stream.chunks)


def event_kinds(stream: ScriptedIOStream, *kinds: type) -> list[str]:
    return [type(e).__name__ for e in stream.events if isinstance(e, kinds)]


# ------------------------------------------------------------------------------------------------ the triage team
def refund(amount: int, context_variables: ContextVariables) -> ReplyResult:
    """Refund money"""
    context_variables["refunded"] = amount
    return ReplyResult(message=f"Refunded {amount}", target=AgentNameTarget("support"),
                       context_variables=context_variables)


def triage_team(server: ScriptedOpenAIServer) -> tuple[Any, Any, Any]:
    cfg = server.llm_config()
    triage = ConversableAgent("triage", system_message="You triage.", llm_config=cfg)
    billing = ConversableAgent("billing", system_message="You bill.", llm_config=cfg, functions=[refund])
    support = ConversableAgent("support", system_message="You support.", llm_config=cfg)
    triage.handoffs.add_llm_conditions(
        [OnCondition(target=AgentTarget(billing), condition=StringLLMCondition(prompt="When billing"))]
    )
    support.handoffs.set_after_work(TerminateTarget())
    return triage, billing, support


@pytest.mark.parametrize("use_async", [False, True])
def test_llm_condition_reply_result_and_after_work(scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream,
                                                    use_async: bool) -> None:
    scripted_server.add_replies(call("transfer_to_billing_1"), call("refund", amount=5), "Refund done.")
    triage, billing, support = triage_team(scripted_server)
    pattern = DefaultPattern(initial_agent=triage, agents=[triage, billing, support],
                             context_variables=ContextVariables(data={"logged_in": True}))

    result, context, last = run_chat(use_async, pattern, "I need a refund", 10)

    # The messages, as 0.14.1 has them.
    history = result.chat_history
    assert [(m.get("name"), m["role"], m["content"]) for m in history] == [
        (None, "assistant", "I need a refund"),  # the temporary "_User" is left out
        ("triage", "assistant", "None"),
        ("_Group_Tool_Executor", "tool", "Transfer to billing"),
        ("billing", "assistant", "None"),
        ("_Group_Tool_Executor", "tool", "Refunded 5"),
        ("support", "user", "Refund done."),
    ]
    assert history[1]["tool_calls"][0]["function"] == {"arguments": "{}", "name": "transfer_to_billing_1"}
    assert history[2]["tool_responses"] == [{"tool_call_id": "call_1", "role": "tool", "content": "Transfer to billing"}]
    assert result.summary == "Refund done."
    assert context.to_dict() == {"logged_in": True, "refunded": 5} and context is pattern.context_variables
    assert last is support

    # What the models saw: the hand-off tool with its condition; the tool without its injected parameter;
    # the hand-off call hidden from the agents after it (exclude_transit_message).
    first, second, third = scripted_server.requests
    assert first["tools"] == [{"type": "function", "function": {
        "description": "When billing", "name": "transfer_to_billing_1",
        "parameters": {"type": "object", "properties": {}, "required": []}}}]
    assert second["tools"][0]["function"]["name"] == "refund"
    assert list(second["tools"][0]["function"]["parameters"]["properties"]) == ["amount"]
    assert [m["content"] for m in second["messages"]] == ["You bill.", "I need a refund"]
    assert "tools" not in third and third["messages"][-1] == {"tool_call_id": "call_2", "role": "tool",
                                                              "content": "Refunded 5"}

    # What moved each turn, in the selection trace.
    assert handoffs(triage) == [
        ("initial_agent", None, "triage", "the pattern's initial_agent"),
        ("tool_call", "triage", "_Group_Tool_Executor", "transfer_to_billing_1"),
        ("llm_condition", "triage", "billing", "transfer_to_billing_1"),
        ("tool_call", "billing", "_Group_Tool_Executor", "refund"),
        ("reply_result", "billing", "support", "the ReplyResult of refund"),
        ("after_work", "support", "Terminate", "after work (always)"),
    ]
    log = groupchat_of(triage).selection_log
    assert [r.method for r in log] == ["handoff"] * 6
    assert [r.chosen for r in log] == ["triage", "_Group_Tool_Executor", "billing", "_Group_Tool_Executor",
                                       "support", None]
    assert log[-1].handoff.result == "terminate"
    table = format_selection_log(log)
    assert "    handoff llm_condition triage -> billing via transfer_to_billing_1" in table
    assert "    handoff reply_result billing -> support via the ReplyResult of refund" in table
    assert "    handoff after_work support -> Terminate via after work (always) (terminate)" in table
    assert selection_log_from_json(selection_log_to_json(log))[2].handoff == log[2].handoff

    # The events: the transitions, and why the chat ended (printed, as 0.14 prints it).
    assert event_kinds(console, OnConditionLLMTransitionEvent, ReplyResultTransitionEvent, AfterWorksTransitionEvent,
                       TerminationEvent) == ["OnConditionLLMTransitionEvent", "ReplyResultTransitionEvent",
                                             "AfterWorksTransitionEvent", "TerminationEvent"]
    text = printed(console)
    assert "***** LLM-based OnCondition handoff (triage): billing *****" in text
    assert "***** ReplyResult transition (billing): support *****" in text
    assert "***** AfterWork handoff (support): Terminate *****" in text
    assert "): No next speaker selected" in text and "GROUP CHAT ENDED" not in text
    selections = [e for e in console.events if type(e).__name__.startswith("SpeakerSelection")]
    assert [e.content.record["handoff"]["kind"] for e in selections] == [h[0] for h in handoffs(triage)]
    llm_event = next(e for e in console.events if isinstance(e, OnConditionLLMTransitionEvent))
    assert llm_event.content.source_agent is triage and llm_event.content.transition_target.agent_name == "billing"
    assert llm_event.model_dump(mode="json")["content"]["transition_target"] == {
        "type": "AgentTarget", "display_name": "billing"}


def login(context_variables: ContextVariables) -> ReplyResult:
    """Log in"""
    context_variables["logged_in"] = True
    return ReplyResult(message="Logged in", context_variables=context_variables)


@pytest.mark.parametrize("use_async", [False, True])
def test_context_condition_with_an_expression(scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream,
                                              use_async: bool) -> None:
    scripted_server.add_replies(call("login"), "logged")
    cfg = scripted_server.llm_config()
    triage = ConversableAgent("triage", system_message="You triage.", llm_config=cfg, functions=[login])
    billing = ConversableAgent("billing", system_message="You bill.", llm_config=cfg)
    expression = "${logged_in} and ${attempts} < 3"
    triage.handoffs.add_context_conditions([OnContextCondition(
        target=AgentTarget(billing), condition=ExpressionContextCondition(ContextExpression(expression)))])
    billing.handoffs.set_after_work(TerminateTarget())
    pattern = DefaultPattern(initial_agent=triage, agents=[triage, billing],
                             context_variables=ContextVariables(data={"logged_in": False, "attempts": 1}))

    result, context, last = run_chat(use_async, pattern, "Help me", 10)

    assert [(m.get("name"), m["content"]) for m in result.chat_history] == [
        (None, "Help me"), ("triage", "None"), ("_Group_Tool_Executor", "Logged in"),
        ("triage", "[Handing off to billing]"), ("billing", "logged"),
    ]
    assert context.to_dict() == {"logged_in": True, "attempts": 1} and last is billing
    assert len(scripted_server.requests) == 2  # triage handed off without asking its model again
    assert handoffs(triage) == [
        ("initial_agent", None, "triage", "the pattern's initial_agent"),
        ("tool_call", "triage", "_Group_Tool_Executor", "login"),
        ("tool_return", "_Group_Tool_Executor", "triage", "its tool calls ran"),
        ("context_condition", "triage", "billing", expression),
        ("after_work", "billing", "Terminate", "after work (always)"),
    ]
    assert f"    handoff context_condition triage -> billing via {expression}" in format_selection_log(
        groupchat_of(triage).selection_log)
    assert "***** OnContextCondition handoff (triage): billing *****" in printed(console)
    assert event_kinds(console, OnContextConditionTransitionEvent) == ["OnContextConditionTransitionEvent"]


def test_context_condition_that_does_not_hold_leaves_the_turn_to_the_after_work(
        scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream) -> None:
    scripted_server.add_replies("triage answers")
    cfg = scripted_server.llm_config()
    triage = ConversableAgent("triage", system_message="You triage.", llm_config=cfg)
    billing = ConversableAgent("billing", system_message="You bill.", llm_config=cfg)
    triage.handoffs.add_context_condition(OnContextCondition(
        target=AgentTarget(billing), condition=StringContextCondition(variable_name="vip")))
    pattern = DefaultPattern(initial_agent=triage, agents=[triage, billing],
                             context_variables=ContextVariables(data={"vip": False}))
    result, _, last = initiate_group_chat(pattern=pattern, messages="Hi", max_rounds=5)
    assert [m["content"] for m in result.chat_history] == ["Hi", "triage answers"] and last is triage
    assert handoffs(triage)[-1] == ("after_work", "triage", "Terminate", "the group's after work")


# ------------------------------------------------------------------------------------------------ the user
def test_revert_to_user_and_back(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("Hello from triage", "billing here")
    cfg = scripted_server.llm_config()
    triage = ConversableAgent("triage", system_message="You triage.", llm_config=cfg)
    billing = ConversableAgent("billing", system_message="You bill.", llm_config=cfg)
    user = ConversableAgent("customer", human_input_mode="ALWAYS", llm_config=False)
    triage.handoffs.set_after_work(RevertToUserTarget())
    pattern = DefaultPattern(initial_agent=triage, agents=[triage, billing], user_agent=user)
    console = ScriptedIOStream(["I am logged in now", "exit"])
    with IOStream.set_default(console):
        result, _, last = initiate_group_chat(pattern=pattern, messages="Help me", max_rounds=8)

    assert [(m.get("name"), m["role"], m["content"]) for m in result.chat_history] == [
        ("customer", "assistant", "Help me"), ("triage", "user", "Hello from triage"),
        ("customer", "assistant", "I am logged in now"), ("triage", "user", "billing here"),
    ]
    assert last is triage
    assert console.prompts == ["Replying as customer. Provide feedback to chat_manager. Press enter to skip and use "
                               "auto-reply, or type 'exit' to end the conversation: "] * 2
    assert handoffs(triage) == [
        ("initial_agent", None, "triage", "the pattern's initial_agent"),
        ("after_work", "triage", "Revert to User", "after work (always)"),
        ("user_return", "customer", "triage", "the user answered"),
        ("after_work", "triage", "Revert to User", "after work (always)"),
    ]
    text = printed(console)
    assert text.count("***** AfterWork handoff (triage): Revert to User *****") == 2
    # The user's "exit" ends the chat: both reasons are printed, as 0.14 prints them.
    assert text.index("): User requested to end the conversation") < text.index("): No reply generated")


def test_revert_to_user_without_a_user_agent_names_the_fix(scripted_server: ScriptedOpenAIServer,
                                                          console: ScriptedIOStream) -> None:
    scripted_server.add_replies("triage answers")
    triage = ConversableAgent("triage", system_message="You triage.", llm_config=scripted_server.llm_config())
    triage.handoffs.set_after_work(RevertToUserTarget())
    pattern = DefaultPattern(initial_agent=triage, agents=[triage])
    with pytest.raises(ValueError, match="User agent must be provided to the chat for the revert_to_user option"):
        initiate_group_chat(pattern=pattern, messages="Hi", max_rounds=5)
    gc = groupchat_of(triage)
    assert [m["content"] for m in gc.messages] == ["Hi", "triage answers"]  # the transcript is intact
    assert gc.selection_log[-1].chosen is None
    assert gc.selection_log[-1].handoff.target == "Revert to User"


# ------------------------------------------------------------------------------------------------ the patterns
def two_agents(server: ScriptedOpenAIServer, *more: str) -> list[Any]:
    cfg = server.llm_config()
    agents = [ConversableAgent("alice", system_message="You are Alice.", llm_config=cfg, description="Alice does math"),
              ConversableAgent("bob", system_message="You are Bob.", llm_config=cfg)]
    return agents + [ConversableAgent(n, system_message=f"You are {n.title()}.", llm_config=cfg) for n in more]


@pytest.mark.parametrize("use_async", [False, True])
def test_auto_pattern_the_manager_model_picks(scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream,
                                              use_async: bool) -> None:
    scripted_server.add_replies("alice speaks", "bob", "bob speaks", "alice", "alice again", "bob", "bob last")
    alice, bob = two_agents(scripted_server)
    pattern = AutoPattern(initial_agent=alice, agents=[alice, bob],
                          group_manager_args={"llm_config": scripted_server.llm_config()})
    result, _, last = run_chat(use_async, pattern, "Start", 5)

    assert [(m.get("name"), m["content"]) for m in result.chat_history] == [
        (None, "Start"), ("alice", "alice speaks"), ("bob", "bob speaks"), ("alice", "alice again"), ("bob", "bob last")]
    assert last is bob
    selector = scripted_server.requests[1]["messages"]
    assert selector[0]["content"] == (
        "You are in a role play game. The following roles are available:\n"
        "                _Group_Tool_Executor: Tool Execution, do not use this agent directly.\n"
        "alice: Alice does math\nbob: You are Bob.\n_User: You are a helpful AI Assistant..\n"
        "                Read the following conversation.\n"
        "                Then select the next role from ['_Group_Tool_Executor', 'alice', 'bob', '_User'] to play. "
        "Only return the role.")
    assert selector[-1]["content"] == ("Read the above conversation. Then select the next role from "
                                       "['_Group_Tool_Executor', 'alice', 'bob', '_User'] to play. Only return the role.")
    log = groupchat_of(alice).selection_log
    assert [r.method for r in log] == ["handoff", "auto", "auto", "auto"]
    assert [r.chosen for r in log] == ["alice", "bob", "alice", "bob"]
    assert handoffs(alice)[1] == ("pattern", "alice", "the group manager", "AutoPattern: the group's after work")
    assert log[1].handoff.result == "auto" and len(log[1].attempts) == 1
    assert "): Maximum rounds (5) reached" in printed(console)


def test_round_robin_pattern(scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream) -> None:
    scripted_server.add_replies("a1", "b1", "a2")
    alice, bob = two_agents(scripted_server)
    result, _, last = initiate_group_chat(pattern=RoundRobinPattern(initial_agent=alice, agents=[alice, bob]),
                                          messages="Start", max_rounds=4)
    assert [(m.get("name"), m["content"]) for m in result.chat_history] == [
        (None, "Start"), ("alice", "a1"), ("bob", "b1"), ("alice", "a2")]
    assert last is alice
    assert [str(c.target) for c in bob.handoffs.after_works] == ["Transfer to alice"]
    assert handoffs(alice)[1:] == [("pattern", "alice", "bob", "RoundRobinPattern: after work (always)"),
                                   ("pattern", "bob", "alice", "RoundRobinPattern: after work (always)")]
    text = printed(console)
    assert "***** AfterWork handoff (alice): bob *****" in text and "): Maximum rounds (4) reached" in text


def test_random_pattern_never_picks_the_agent_that_spoke(scripted_server: ScriptedOpenAIServer,
                                                         console: ScriptedIOStream) -> None:
    scripted_server.add_replies("x1", "x2", "x3", "x4", "x5", "x6")
    agents = two_agents(scripted_server, "carol")
    random.seed(0)
    result, _, _ = initiate_group_chat(pattern=RandomPattern(initial_agent=agents[0], agents=agents),
                                       messages="Start", max_rounds=7)
    speakers = [m.get("name") for m in result.chat_history][1:]
    # 0.14.1 drew the same agents with the same seed.
    assert speakers[:3] == ["alice", "carol", "bob"]
    assert all(a != b for a, b in zip(speakers, speakers[1:]))
    steps = handoffs(agents[0])[1:]
    assert {s[0] for s in steps} == {"pattern"} and all(s[3] == "RandomPattern: after work (always)" for s in steps)
    assert [s[2] for s in steps] == speakers[1:]  # the trace names the agent drawn


def test_a_pattern_random_source_makes_the_draws_its_own(console: ScriptedIOStream) -> None:
    def speakers_with(seed: int) -> list[str]:
        agents = [ConversableAgent(n, llm_config=False, default_auto_reply=f"{n} here") for n in ("a", "b", "c")]
        pattern = RandomPattern(initial_agent=agents[0], agents=agents)
        pattern.random_source = random.Random(seed)
        random.seed(12345)  # the `random` module's state does not matter any more
        result, _, _ = initiate_group_chat(pattern=pattern, messages="Go", max_rounds=9)
        random.random()
        return [m.get("name") for m in result.chat_history][1:]

    first = speakers_with(5)
    assert first == speakers_with(5) and len(first) == 8
    # The same draws as `random.seed(5)` before a chat that leaves random_source unset.
    agents = [ConversableAgent(n, llm_config=False, default_auto_reply=f"{n} here") for n in ("a", "b", "c")]
    random.seed(5)
    result, _, _ = initiate_group_chat(pattern=RandomPattern(initial_agent=agents[0], agents=agents),
                                       messages="Go", max_rounds=9)
    assert [m.get("name") for m in result.chat_history][1:] == first


def test_manual_pattern_asks_the_user(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("m1", "m2")
    alice, bob = two_agents(scripted_server)
    console = ScriptedIOStream(["3", "2"], default_input="exit")
    with IOStream.set_default(console):
        result, _, last = initiate_group_chat(pattern=ManualPattern(initial_agent=alice, agents=[alice, bob]),
                                              messages="Start", max_rounds=3)
    assert [(m.get("name"), m["content"]) for m in result.chat_history] == [
        (None, "Start"), ("alice", "m1"), ("bob", "m2")]
    text = printed(console)
    assert "Please select the next speaker from the following list:\n1: _Group_Tool_Executor\n2: alice\n3: bob\n" \
           "4: _User\n" in text
    assert console.prompts == ["Enter the number of the next speaker (enter nothing or `q` to use auto selection): "]
    log = groupchat_of(alice).selection_log
    assert log[1].method == "manual" and log[1].chosen == "bob"
    assert handoffs(alice)[1] == ("pattern", "alice", "Ask User", "ManualPattern: the group's after work")


def test_auto_and_manual_patterns_share_one_owner_of_their_fixed_after_work() -> None:
    from autogen_classic.agentchat.group import AskUserTarget
    from autogen_classic.agentchat.group.patterns.pattern import FixedAfterWorkPattern
    from autogen_classic.agentchat.group.targets.group_manager_target import GroupManagerSelectionMessageString

    alice, bob = ConversableAgent("alice", llm_config=False), ConversableAgent("bob", llm_config=False)
    prompt = GroupManagerSelectionMessageString(message="Pick one of {agentlist}.")
    auto = AutoPattern(alice, [alice, bob], None, None, None, prompt, False, "reflection_with_llm")
    manual = ManualPattern(alice, [alice, bob], None, None, None, False, "reflection_with_llm")
    assert ManualPattern.__init__ is FixedAfterWorkPattern.__init__
    for pattern in (auto, manual):
        assert isinstance(pattern, FixedAfterWorkPattern)
        assert (pattern.exclude_transit_message, pattern.summary_method) == (False, "reflection_with_llm")
    assert isinstance(auto.group_after_work, GroupManagerTarget)
    assert auto.group_after_work.selection_message is prompt is auto.selection_message
    assert isinstance(manual.group_after_work, AskUserTarget)


# ------------------------------------------------------------------------------------------------ run functions
RUN_EVENTS = ["TextEvent", "GroupChatRunChatEvent", "UsingAutoReplyEvent", "TextEvent", "AfterWorksTransitionEvent",
              "GroupChatRunChatEvent", "InputRequestEvent", "TextEvent", "GroupChatRunChatEvent",
              "UsingAutoReplyEvent", "TextEvent", "AfterWorksTransitionEvent", "GroupChatRunChatEvent",
              "InputRequestEvent", "TerminationEvent", "TerminationEvent", "RunCompletionEvent"]


def user_pattern(server: ScriptedOpenAIServer) -> DefaultPattern:
    server.add_replies("hi1", "hi2", "hi3")
    alice = ConversableAgent("alice", system_message="You are Alice.", llm_config=server.llm_config())
    user = ConversableAgent("user", human_input_mode="ALWAYS", llm_config=False)
    alice.handoffs.set_after_work(RevertToUserTarget())
    return DefaultPattern(initial_agent=alice, agents=[alice], user_agent=user,
                          context_variables=ContextVariables(data={"ticket": 7}))


def test_run_group_chat_events_and_results(scripted_server: ScriptedOpenAIServer) -> None:
    response = run_group_chat(pattern=user_pattern(scripted_server), messages="Start", max_rounds=6)
    answers, kinds, reasons = ["more", "exit"], [], []
    for event in response.events:
        kinds.append(type(event).__name__)
        if isinstance(event, InputRequestEvent):
            event.content.respond(answers.pop(0))
        elif isinstance(event, TerminationEvent):
            reasons.append(event.content.termination_reason)
        elif isinstance(event, RunCompletionEvent):
            assert event.content.context_variables.to_dict() == {"ticket": 7}
    assert kinds == RUN_EVENTS
    assert reasons == ["User requested to end the conversation", "No reply generated"]
    assert response.summary == "hi2" and response.last_speaker == "alice"
    assert response.context_variables.to_dict() == {"ticket": 7}
    assert [m["content"] for m in response.messages] == ["Start", "hi1", "more", "hi2"]
    # The cost covers every agent of the group (here: alice's two model calls).
    assert response.cost["usage_including_cached_inference"]["scripted-model"]["total_tokens"] > 0


def test_a_run_group_chat(scripted_server: ScriptedOpenAIServer) -> None:
    async def main() -> tuple[list[str], Any, Any]:
        response = await a_run_group_chat(pattern=user_pattern(scripted_server), messages="Start", max_rounds=6)
        answers, kinds = ["more", "exit"], []
        async for event in response.events:
            kinds.append(type(event).__name__)
            if isinstance(event, InputRequestEvent):
                event.content.respond(answers.pop(0))
        return kinds, await response.summary, await response.last_speaker

    assert asyncio.run(main()) == (RUN_EVENTS, "hi2", "alice")


@pytest.mark.parametrize("use_async", [False, True])
def test_run_group_chat_iter_yields_what_is_asked(scripted_server: ScriptedOpenAIServer, use_async: bool) -> None:
    pattern = user_pattern(scripted_server)
    answers, seen = ["more", "exit"], []
    if use_async:
        async def main() -> None:
            async for event in a_run_group_chat_iter(pattern=pattern, messages="Start", max_rounds=6,
                                                     yield_on=[TextEvent]):
                seen.append(type(event).__name__)
                if isinstance(event, InputRequestEvent):
                    event.content.respond(answers.pop(0))

        asyncio.run(main())
        assert seen == ["TextEvent", "TextEvent", "InputRequestEvent", "TextEvent", "TextEvent", "InputRequestEvent"]
    else:
        for event in run_group_chat_iter(pattern=pattern, messages="Start", max_rounds=6,
                                         yield_on=[TextEvent, TerminationEvent]):
            seen.append(type(event).__name__)
            if isinstance(event, InputRequestEvent):
                event.content.respond(answers.pop(0))
        assert seen == ["TextEvent", "TextEvent", "InputRequestEvent", "TextEvent", "TextEvent", "InputRequestEvent",
                        "TerminationEvent", "TerminationEvent"]


def test_run_group_chat_reports_a_bad_pattern_as_an_error_event(scripted_server: ScriptedOpenAIServer) -> None:
    alice = ConversableAgent("alice", llm_config=scripted_server.llm_config())
    alice.handoffs.set_after_work(AgentNameTarget("ghost"))
    response = run_group_chat(pattern=DefaultPattern(initial_agent=alice, agents=[alice]), messages="x")
    kinds = []
    with pytest.raises(ValueError, match="Agent in after work target Hand-offs must be in the agents list"):
        for event in response.events:
            kinds.append(type(event).__name__)
    assert kinds == ["ErrorEvent"] and scripted_server.requests == []


# ------------------------------------------------------------------------------------------------ bad input
def test_handoffs_outside_the_group_fail_before_the_chat(scripted_server: ScriptedOpenAIServer,
                                                        console: ScriptedIOStream) -> None:
    cfg = scripted_server.llm_config()
    outsider = ConversableAgent("outsider", llm_config=False)
    cases = [
        (lambda a: a.handoffs.add_llm_condition(OnCondition(target=AgentTarget(outsider),
                                                            condition=StringLLMCondition("x"))),
         "Agent in OnCondition Hand-offs must be in the agents list: agent 'alice' has OnCondition leading to "
         "'outsider'"),
        (lambda a: a.handoffs.add_context_condition(OnContextCondition(
            target=AgentNameTarget("ghost"), condition=StringContextCondition(variable_name="flag"))),
         "Agent in OnContextCondition Hand-offs must be in the agents list: agent 'alice' has OnContextCondition "
         "leading to 'ghost'"),
        (lambda a: a.handoffs.set_after_work(AgentNameTarget("ghost")),
         "Agent in after work target Hand-offs must be in the agents list"),
    ]
    for add, message in cases:
        alice = ConversableAgent("alice", system_message="You are Alice.", llm_config=cfg)
        add(alice)
        with pytest.raises(ValueError, match=message.replace("(", r"\(")):
            initiate_group_chat(pattern=DefaultPattern(initial_agent=alice, agents=[alice]), messages="x")
    assert scripted_server.requests == [] and console.chunks == []  # nothing was sent


def test_patterns_that_cannot_run_fail_before_the_chat(scripted_server: ScriptedOpenAIServer,
                                                      console: ScriptedIOStream) -> None:
    cfg = scripted_server.llm_config()
    alice = ConversableAgent("alice", llm_config=cfg)
    with pytest.raises(ValueError, match=r"DefaultPattern has no agents \(agents=\[\]\)"):
        initiate_group_chat(pattern=DefaultPattern(initial_agent=alice, agents=[]), messages="x")
    with pytest.raises(ValueError, match="initial_agent 'carol' is not one of its agents"):
        initiate_group_chat(pattern=DefaultPattern(initial_agent=ConversableAgent("carol", llm_config=cfg),
                                                   agents=[alice]), messages="x")
    with pytest.raises(ValueError, match="Invalid group agent name in last message: nobody"):
        initiate_group_chat(pattern=DefaultPattern(initial_agent=alice, agents=[alice]),
                            messages=[{"role": "user", "content": "x", "name": "nobody"}])
    n1, n2 = ConversableAgent("n1", llm_config=False), ConversableAgent("n2", llm_config=False)
    with pytest.raises(ValueError, match="AutoPattern requires the group_manager_args to include an llm_config"):
        initiate_group_chat(pattern=AutoPattern(initial_agent=n1, agents=[n1, n2]), messages="x")
    n1.handoffs.set_after_work(GroupManagerTarget())
    with pytest.raises(ValueError, match="The group manager doesn't have an LLM Config"):
        initiate_group_chat(pattern=DefaultPattern(initial_agent=n1, agents=[n1, n2]), messages="x")
    with pytest.raises(TypeError, match="initiate_group_chat takes a Pattern"):
        initiate_group_chat(pattern=[n1, n2], messages="x")  # type: ignore[arg-type]
    assert scripted_server.requests == [] and console.chunks == []


def test_llm_condition_without_any_llm_config(console: ScriptedIOStream) -> None:
    n1, n2 = ConversableAgent("n1", llm_config=False), ConversableAgent("n2", llm_config=False)
    n1.handoffs.add_llm_condition(OnCondition(target=AgentTarget(n2), condition=StringLLMCondition("x")))
    # AssertionError, as 0.14.1 raises; the message names the agent, the condition's tool and the fix.
    with pytest.raises(AssertionError, match="To update a tool signature, agent must have an llm_config: agent 'n1' "
                                             "has 1 LLM condition"):
        initiate_group_chat(pattern=DefaultPattern(initial_agent=n1, agents=[n1, n2]), messages="x")
    assert console.chunks == []


def bad(context_variables: ContextVariables) -> ReplyResult:
    """bad"""
    return ReplyResult(message="go", target=AgentNameTarget("ghost"))


def test_reply_result_naming_an_unknown_agent(scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream) -> None:
    scripted_server.add_replies(call("bad"))
    bob = ConversableAgent("bob", system_message="You are Bob.", llm_config=scripted_server.llm_config(),
                           functions=[bad])
    with pytest.raises(ValueError, match="Agent 'ghost' not found in groupchat"):
        initiate_group_chat(pattern=DefaultPattern(initial_agent=bob, agents=[bob]), messages="x", max_rounds=5)
    gc = groupchat_of(bob)
    assert [m["content"] for m in gc.messages] == ["x", "None", "go"]  # the transcript is intact
    last = gc.selection_log[-1]
    assert last.chosen is None and (last.handoff.kind, last.handoff.target) == ("reply_result", "ghost")


# ------------------------------------------------------------------------------------------------ the executor
def test_the_tool_executor_takes_every_agents_tools(scripted_server: ScriptedOpenAIServer) -> None:
    triage, billing, support = triage_team(scripted_server)
    pattern = DefaultPattern(initial_agent=triage, agents=[triage, billing, support])
    prepared = pattern.prepare_group_chat(max_rounds=5, messages="x")
    executor = prepared[6]
    assert isinstance(executor, GroupToolExecutor) and executor.name == "_Group_Tool_Executor"
    assert executor.system_message == "Tool Execution, do not use this agent directly."
    assert sorted(executor.function_map) == ["refund", "transfer_to_billing_1"]
    assert executor.function_is_agent_llm_handoff("triage", "transfer_to_billing_1")
    assert not executor.function_is_agent_llm_handoff("billing", "refund")
    assert [a.name for a in prepared[7].agents] == ["_Group_Tool_Executor", "triage", "billing", "support", "_User"]
    assert all(a.context_variables is pattern.context_variables for a in [triage, billing, support, executor])


# ------------------------------------------------------------------------------------------------ classic group chats
def test_a_classic_group_chat_run_ends_with_the_014_termination_event(scripted_server: ScriptedOpenAIServer) -> None:
    from autogen_classic import GroupChat, GroupChatManager

    scripted_server.add_replies("one", "two")
    cfg = scripted_server.llm_config()
    a = ConversableAgent("a", llm_config=cfg)
    b = ConversableAgent("b", llm_config=cfg)
    user = ConversableAgent("user", llm_config=False, human_input_mode="NEVER")
    manager = GroupChatManager(GroupChat([user, a, b], messages=[], max_round=3,
                                         speaker_selection_method="round_robin"))
    ends = [e.content.termination_reason for e in user.run(manager, message="go").events
            if isinstance(e, TerminationEvent)]
    assert ends == ["Maximum rounds (3) reached"]


def test_a_classic_group_chat_prints_the_014_termination_line(scripted_server: ScriptedOpenAIServer,
                                                              console: ScriptedIOStream) -> None:
    from autogen_classic import GroupChat, GroupChatManager

    scripted_server.add_replies("one")
    a = ConversableAgent("a", llm_config=scripted_server.llm_config())
    user = ConversableAgent("user", llm_config=False, human_input_mode="NEVER")
    manager = GroupChatManager(GroupChat([user, a], messages=[], max_round=2, speaker_selection_method="round_robin"))
    user.initiate_chat(manager, message="go")
    assert printed(console).endswith("): Maximum rounds (2) reached\n")  # as AG2 Classic 0.14.1 prints it
    scripted_server.add_replies("two")
    quiet = ScriptedIOStream()
    with IOStream.set_default(quiet):
        user.initiate_chat(manager, message="go", silent=True)
    # The manager prints its rounds as in the classic packages (it has its own silent=); the chat started with
    # silent=True gets no TERMINATING RUN line (0.14.1 would print it).
    assert "Next speaker: a" in quiet.output and "TERMINATING RUN" not in quiet.output


def test_the_swarm_records_its_hand_offs_as_the_engine_does(scripted_server: ScriptedOpenAIServer,
                                                           console: ScriptedIOStream) -> None:
    from autogen_classic import AFTER_WORK, ON_CONDITION, AfterWorkOption, SwarmAgent, initiate_swarm_chat

    scripted_server.add_replies(call("transfer_triage_to_sales"), "sales here")
    cfg = scripted_server.llm_config()
    triage = SwarmAgent("triage", llm_config=cfg)
    sales = SwarmAgent("sales", llm_config=cfg)
    triage.register_hand_off(ON_CONDITION(sales, "Sales questions"))
    sales.register_hand_off(AFTER_WORK(AfterWorkOption.TERMINATE))
    initiate_swarm_chat(initial_agent=triage, agents=[triage, sales], messages="buy", max_rounds=8)
    manager = [p for p in triage.chat_messages if p.name == "chat_manager"][-1]
    steps = [(r.handoff.kind, r.handoff.source, r.handoff.target) for r in manager.groupchat.selection_log]
    assert steps == [("initial_agent", None, "triage"), ("tool_call", "triage", "Tool_Execution"),
                     ("llm_condition", "triage", "sales"), ("after_work", "sales", "TERMINATE")]
    assert manager.groupchat.selection_log[2].reason == "handoff: triage -> sales, transfer_triage_to_sales"


def test_the_same_agents_run_a_second_group_chat(scripted_server: ScriptedOpenAIServer,
                                                 console: ScriptedIOStream) -> None:
    triage, billing, support = triage_team(scripted_server)
    for _ in range(2):
        scripted_server.add_replies(call("transfer_to_billing_1"), call("refund", amount=5), "Refund done.")
        pattern = DefaultPattern(initial_agent=triage, agents=[triage, billing, support])
        result, context, last = initiate_group_chat(pattern=pattern, messages="I need a refund", max_rounds=10)
        assert [m.get("name") for m in result.chat_history] == [None, "triage", "_Group_Tool_Executor", "billing",
                                                                  "_Group_Tool_Executor", "support"]
        assert context.to_dict() == {"refunded": 5} and last is support
    # The hand-off tool is offered once, and the refund tool still without its injected parameter.
    assert [t["function"]["name"] for t in scripted_server.requests[-3]["tools"]] == ["transfer_to_billing_1"]
    assert list(scripted_server.requests[-2]["tools"][0]["function"]["parameters"]["properties"]) == ["amount"]


def test_transit_messages_are_left_out_without_touching_the_history() -> None:
    from autogen_classic.agentchat.groupchat.handoffs.agents import make_remove_function

    history = [
        {"role": "user", "content": "help"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "function": {"name": "transfer_to_tech_1", "arguments": "{}"}},
            {"id": "c2", "function": {"name": "lookup", "arguments": "{}"}},
        ]},
        {"role": "tool", "content": "x", "tool_responses": [
            {"tool_call_id": "c1", "content": "Transfer to tech"}, {"tool_call_id": "c2", "content": "found"}]},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c3", "function": {"name": "transfer_to_tech_1", "arguments": "{}"}}]},
        {"role": "tool", "content": "y", "tool_responses": [{"tool_call_id": "c3", "content": "Transfer to tech"}]},
    ]
    before = repr(history)
    shown = make_remove_function(["transfer_to_tech_1"])(history)
    assert [m.get("tool_calls") for m in shown] == [
        None, [{"id": "c2", "function": {"name": "lookup", "arguments": "{}"}}], None]
    assert shown[2]["tool_responses"] == [{"tool_call_id": "c2", "content": "found"}]
    assert repr(history) == before  # the stored history is untouched
    assert shown[0] is history[0]  # messages that lose nothing are not copied
    assert make_remove_function([])(history) is history  # nothing to leave out: nothing is copied


def test_leaving_run_group_chat_iter_early_stops_the_chat(scripted_server: ScriptedOpenAIServer) -> None:
    import threading

    from autogen_classic.io.chat_worker import ChatThread

    pattern = user_pattern(scripted_server)
    seen = []
    for event in run_group_chat_iter(pattern=pattern, messages="Start", max_rounds=6, yield_on=[TextEvent]):
        seen.append((type(event).__name__, event.content.sender))
        if len(seen) == 2:
            break  # after alice's first answer: the user is never asked
    assert seen == [("TextEvent", "user"), ("TextEvent", "alice")]
    assert not [t for t in threading.enumerate() if isinstance(t, ChatThread) and t.is_alive()]
    assert scripted_server.request_count == 1 and scripted_server.pending_replies == 2
