"""Termination conditions: each condition firing and not, reset, | and &, the classic one-message call,
validate_termination, a stop from another thread, timeouts, hand-offs and tool results from real chats, and a
model judging completion through the scripted OpenAI server (sync and async, with its usage counted)."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from typing import Any, Optional

import pytest

from autogen_classic import (
    ON_CONDITION,
    ConversableAgent,
    SwarmAgent,
    SwarmResult,
    UserProxyAgent,
    initiate_swarm_chat,
    register_function,
)
from autogen_classic.agentchat.termination import (
    AndTerminationCondition,
    ExternalTermination,
    FunctionalTermination,
    FunctionCallTermination,
    HandoffTermination,
    MaxMessageTermination,
    ModelJudgedTermination,
    OrTerminationCondition,
    RegexTermination,
    SourceMatchTermination,
    StopMessage,
    TerminationCondition,
    TerminationContext,
    TextMentionTermination,
    TimeoutTermination,
    TokenUsageTermination,
    validate_termination,
)
from autogen_classic.agentchat.termination.model_judged import parse_verdict
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply


def msg(content: Any, name: Optional[str] = None, **extra: Any) -> dict[str, Any]:
    message = {"role": "assistant", "content": content, **extra}
    if name is not None:
        message["name"] = name
    return message


def replay(condition: TerminationCondition, history: list[dict[str, Any]]) -> Optional[int]:
    """Check ``history`` one message at a time, as a chat does; the index of the message that fired."""
    for index, message in enumerate(history):
        context = TerminationContext(messages=history[: index + 1], speaker=message.get("name"), round=index)
        if condition.check([message], context) is not None:
            return index
    return None


# ----------------------------------------------------------------- text, sources, counts
def test_text_mention_fires_on_text_and_parts_and_respects_sources() -> None:
    condition = TextMentionTermination("TERMINATE")
    assert condition.check([msg("still working")]) is None and not condition.terminated
    stop = condition.check([msg([{"type": "text", "text": "done. TERMINATE"}], name="planner")])
    assert stop == StopMessage("Text 'TERMINATE' mentioned", "TextMentionTermination",
                               {"text": "TERMINATE", "speaker": "planner"})
    assert condition.terminated and condition.last_stop is stop
    assert condition.check([msg("anything")]) is stop  # stays fired until reset
    condition.reset()
    assert not condition.terminated and condition.check([msg("nothing")]) is None

    only_planner = TextMentionTermination("TERMINATE", sources=["planner"])
    assert only_planner.check([msg("TERMINATE", name="coder")]) is None
    # A message without a name is the context's speaker's (for the newest message).
    assert only_planner.check([msg("TERMINATE")], TerminationContext(speaker="planner")) is not None
    assert json.loads(json.dumps(only_planner.last_stop.to_dict()))["details"]["speaker"] == "planner"


def test_regex_and_source_match() -> None:
    regex = RegexTermination(r"APPROVED?\b", sources="reviewer")
    assert regex.check([msg("APPROVE", name="coder"), msg("not yet", name="reviewer")]) is None
    stop = regex.check([msg("I APPROVE this", name="reviewer")])
    assert stop is not None and stop.details["match"] == "APPROVE" and stop.source == "RegexTermination"
    assert RegexTermination(re.compile("done", re.I)).check([msg("DONE")]) is not None
    with pytest.raises(ValueError, match=r"pattern '\(' is not a valid regular expression"):
        RegexTermination("(")

    source = SourceMatchTermination(["reviewer"])
    assert source.check([msg("hi", name="coder")]) is None
    assert source.check([msg("ok")], TerminationContext(speaker="reviewer")).content == "'reviewer' answered"
    with pytest.raises(ValueError, match="sources is empty"):
        SourceMatchTermination([])


def test_max_messages_counts_across_checks_and_skips_bare_tool_calls() -> None:
    condition = MaxMessageTermination(3)
    assert condition.check([msg("a"), msg("b")]) is None
    stop = condition.check([msg("c")])
    assert stop.content == "Maximum number of messages 3 reached, current message count: 3"
    assert stop.details == {"max_messages": 3, "message_count": 3}
    condition.reset()
    assert condition.message_count == 0 and condition.check([msg("a")]) is None

    # The group chat keeps a call's missing text as "None": the request alone is an agent event.
    call = msg("None", name="coder", tool_calls=[{"id": "c1", "type": "function",
                                                  "function": {"name": "f", "arguments": "{}"}}])
    result = {"role": "tool", "content": "4",
              "tool_responses": [{"tool_call_id": "c1", "role": "tool", "content": "4"}]}
    assert MaxMessageTermination(2).check([call, result]) is None
    assert MaxMessageTermination(2, include_agent_event=True).check([call, result]) is not None


def test_token_usage_reads_the_context_usage() -> None:
    spent = {"prompt_tokens": 0, "completion_tokens": 0}
    context = TerminationContext(usage=lambda: spent)
    condition = TokenUsageTermination(max_total_token=100, max_completion_token=30)
    assert condition.check([msg("a")]) is None  # no context: it cannot know
    spent.update(prompt_tokens=50, completion_tokens=20)
    assert condition.check([msg("b")], context) is None
    spent.update(completion_tokens=30)
    stop = condition.check([msg("c")], context)
    assert stop.content == ("Token usage limit reached, total token count: 80, prompt token count: 50, "
                            "completion token count: 30.")
    assert stop.details["limits"] == {"max_total_token": 100, "max_completion_token": 30}
    with pytest.raises(ValueError, match="needs at least one limit"):
        TokenUsageTermination()


def test_timeout_fires_after_sleeping_past_it() -> None:
    condition = TimeoutTermination(0.05)
    assert condition.check([msg("start")]) is None  # the clock starts at the first check
    time.sleep(0.1)
    assert condition.check([msg("later")]).content == "Timeout of 0.05 seconds reached"
    condition.reset()
    assert condition.check([msg("again")]) is None
    long_ago = TerminationContext(started_at=time.monotonic() - 10)
    assert TimeoutTermination(5).check([msg("x")], long_ago) is not None
    assert TimeoutTermination(3600).check([msg("x")], TerminationContext(started_at=time.monotonic())) is None


def test_external_termination_set_from_another_thread() -> None:
    condition = ExternalTermination()
    assert condition.check([msg("a")]) is None
    button = threading.Thread(target=condition.set)
    button.start()
    button.join()
    assert condition.is_set
    assert condition.check([msg("b")]) == StopMessage("External termination requested", "ExternalTermination", {})
    condition.reset()
    assert not condition.is_set and condition.check([msg("c")]) is None


def test_functional_sync_async_and_with_context() -> None:
    long_chat = FunctionalTermination(lambda messages: any("bye" in m["content"] for m in messages))
    assert long_chat.check([msg("hi")]) is None and long_chat.check([msg("bye")]) is not None
    assert long_chat.last_stop.content == "Functional termination condition met"

    async def judged(messages: Any) -> bool:
        await asyncio.sleep(0)
        return messages[-1]["content"] == "stop"

    sync_path = FunctionalTermination(judged)
    assert sync_path.check([msg("go")]) is None and sync_path.check([msg("stop")]) is not None

    async def inside_a_loop() -> tuple[Any, Any]:
        in_loop = FunctionalTermination(judged)
        return in_loop.check([msg("stop")]), await FunctionalTermination(judged).a_check([msg("stop")])

    assert all(stop is not None for stop in asyncio.run(inside_a_loop()))

    def whole_chat(messages: Any, context: Optional[TerminationContext]) -> Any:
        if context is not None and len(context.messages) >= 3:
            return StopMessage("three messages in the chat", "whole_chat")
        return False

    with_context = FunctionalTermination(whole_chat)
    assert with_context.check([msg("a")], TerminationContext(messages=[msg("a")] * 2)) is None
    assert with_context.check([msg("b")], TerminationContext(messages=[msg("a")] * 3)).source == "whole_chat"


# ----------------------------------------------------------------- tool results and hand-offs from real chats
def test_function_call_termination_on_a_real_tool_chat(console: ScriptedIOStream,
                                                       scripted_server: ScriptedOpenAIServer) -> None:
    assistant = ConversableAgent("assistant", llm_config=scripted_server.llm_config(), human_input_mode="NEVER")
    user = UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False, max_consecutive_auto_reply=2)

    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    register_function(add, caller=assistant, executor=user, description="Add two numbers.")
    scripted_server.add_replies(ScriptedReply(tool_calls=[{"name": "add", "arguments": {"a": 2, "b": 3}}]), "5")
    result = user.initiate_chat(assistant, message="2 + 3?", max_turns=2)
    history = result.chat_history
    assert any(m.get("tool_responses") for m in history)
    assert replay(FunctionCallTermination("add"), history) == 2  # the tool result, not the request
    assert replay(FunctionCallTermination("subtract"), history) is None
    # Checked alone, the result is matched to its call through context.messages.
    late = FunctionCallTermination("add")
    stop = late.check([history[2]], TerminationContext(messages=history[:3]))
    assert stop.details["call_id"] == history[1]["tool_calls"][0]["id"]
    assert FunctionCallTermination("add").check([history[2]]) is None  # nothing tells which function it was
    legacy = {"role": "function", "name": "add", "content": "5"}
    assert FunctionCallTermination("add")(legacy) is True


@pytest.fixture
def swarm_history(console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer) -> list[dict[str, Any]]:
    """A real swarm: triage hands off to sales with a transfer tool, sales to human with a SwarmResult."""
    script = {"triage": [ScriptedReply(tool_calls=[{"name": "transfer_triage_to_sales", "arguments": {}}])],
              "sales": [ScriptedReply(tool_calls=[{"name": "escalate", "arguments": {}}])]}

    def responder(body: dict[str, Any]) -> str | ScriptedReply:
        name = body["messages"][0]["content"].split(".")[0].removeprefix("I am ")
        return script[name].pop(0) if script.get(name) else f"{name} is done."

    scripted_server.set_responder(responder)
    agents = {n: SwarmAgent(n, system_message=f"I am {n}.", llm_config=scripted_server.llm_config())
              for n in ("triage", "sales", "human")}

    def escalate() -> SwarmResult:
        """Escalate to a human."""
        return SwarmResult(values="escalated", agent=agents["human"])

    agents["sales"].add_functions([escalate])
    agents["triage"].register_hand_off(ON_CONDITION(agents["sales"], "when the customer wants to buy"))
    result, _, _ = initiate_swarm_chat(agents["triage"], "I want to buy", list(agents.values()))
    return result.chat_history


def test_handoff_termination_on_a_real_swarm(swarm_history: list[dict[str, Any]]) -> None:
    assert [m.get("name") for m in swarm_history] == [None, "triage", "Tool_Execution", "sales", "Tool_Execution",
                                                      "human"]
    to_sales = HandoffTermination("sales")
    assert replay(to_sales, swarm_history) == 2  # the transfer tool's result
    assert to_sales.last_stop.content == "Handoff to sales from triage detected."
    assert to_sales.last_stop.details == {"target": "sales", "speaker": "triage", "via": "transfer_triage_to_sales",
                                          "form": "tool_result"}
    # A SwarmResult hand-off leaves only its values in the message: the chat tells it through the context.
    to_human = HandoffTermination("human")
    assert replay(to_human, swarm_history) is None
    context = TerminationContext(messages=swarm_history[:5], speaker="Tool_Execution", handoff="human")
    assert to_human.check([swarm_history[4]], context).details["form"] == "context"
    assert replay(HandoffTermination("triage"), swarm_history) is None


def test_handoff_by_transfer_function_name() -> None:
    call = msg(None, name="a", tool_calls=[{"id": "t9", "type": "function",
                                            "function": {"name": "transfer_a_to_b_2", "arguments": "{}"}}])
    done = {"role": "tool", "tool_call_id": "t9", "content": "ok"}
    assert HandoffTermination("b").check([call, done]).details["via"] == "transfer_a_to_b_2"
    named_other = {"role": "tool", "tool_call_id": "t9", "content": "SwarmAgent --> c"}
    assert HandoffTermination("b").check([call, named_other]) is None  # the result names the agent: decisive
    with pytest.raises(TypeError, match="target must be an agent's name"):
        HandoffTermination(3)


# ----------------------------------------------------------------- combining, calling, validating
def test_or_fires_with_the_child_and_checks_every_child() -> None:
    count, text = MaxMessageTermination(3), TextMentionTermination("TERMINATE")
    either = text | count
    assert isinstance(either, OrTerminationCondition) and either.describe() == (
        "TextMentionTermination('TERMINATE') | MaxMessageTermination(3)")
    assert either.check([msg("a")]) is None and count.message_count == 1
    stop = either.check([msg("TERMINATE")])
    assert (stop.content, stop.source) == ("Text 'TERMINATE' mentioned", "TextMentionTermination")
    assert [f["source"] for f in stop.details["fired"]] == ["TextMentionTermination"]
    assert count.message_count == 2  # the count saw the message that fired the text condition
    either.reset()
    assert not text.terminated and count.message_count == 0


def test_and_fires_once_every_child_has_fired_at_different_checks() -> None:
    both = TextMentionTermination("APPROVED", sources=["reviewer"]) & TextMentionTermination("TESTS PASS")
    assert both.check([msg("TESTS PASS", name="ci")]) is None
    assert both.check([msg("hmm", name="reviewer")]) is None
    stop = both.check([msg("APPROVED", name="reviewer")])
    assert stop.source == "AndTerminationCondition"
    assert stop.content == "Text 'APPROVED' mentioned; Text 'TESTS PASS' mentioned"
    assert len(stop.details["fired"]) == 2
    both.reset()
    assert both.check([msg("APPROVED", name="reviewer")]) is None


def test_flattening_describe_and_operand_errors() -> None:
    a, b, c = TextMentionTermination("x"), MaxMessageTermination(5), ExternalTermination()
    assert (a | b | c).conditions == (a, b, c)
    assert ((a & b) | c).describe() == (
        "(TextMentionTermination('x') & MaxMessageTermination(5)) | ExternalTermination()")
    assert repr(AndTerminationCondition(a, AndTerminationCondition(b, c))) == (
        "TextMentionTermination('x') & MaxMessageTermination(5) & ExternalTermination()")
    with pytest.raises(TypeError, match=r"'\|' combines termination conditions, .* FunctionalTermination\(f\)"):
        _ = a | (lambda messages: True)
    with pytest.raises(TypeError, match=r"'&' combines .* 'TERMINATE' \(str\)"):
        _ = "TERMINATE" & a
    with pytest.raises(TypeError, match="argument 1 must be a TerminationCondition"):
        OrTerminationCondition(a, 3)


def test_call_with_one_message_is_a_classic_is_termination_msg(console: ScriptedIOStream) -> None:
    condition = TextMentionTermination("TERMINATE")
    assert condition({"content": "go on"}) is False and condition({"content": "TERMINATE"}) is True
    assert TextMentionTermination("x")([msg("x")]).content == "Text 'x' mentioned"
    with pytest.raises(TypeError, match="call it with a message dict"):
        condition("TERMINATE")
    with pytest.raises(TypeError, match=r"Pass \[message\]"):
        MaxMessageTermination(2).check(msg("a"))
    with pytest.raises(TypeError, match="context=TerminationContext"):
        MaxMessageTermination(2).check([msg("a")], {"speaker": "bob"})  # type: ignore[arg-type]

    # Given as is_termination_msg, a condition ends a real two-agent chat.
    alice = ConversableAgent("alice", llm_config=False, human_input_mode="NEVER", default_auto_reply="TERMINATE",
                             is_termination_msg=MaxMessageTermination(99))
    stopper = TextMentionTermination("TERMINATE")
    bob = ConversableAgent("bob", llm_config=False, human_input_mode="NEVER", default_auto_reply="more",
                           is_termination_msg=stopper)
    result = alice.initiate_chat(bob, message="start")
    assert [m["content"] for m in result.chat_history] == ["start", "more", "TERMINATE"]
    assert stopper.last_stop is not None


def test_validate_termination_names_the_field_and_the_fix() -> None:
    condition = MaxMessageTermination(4)
    assert validate_termination(None, "termination") is None
    assert validate_termination(condition, "termination") is condition
    with pytest.raises(TypeError, match=r"GroupChat\(termination=\.\.\.\) must be .* FunctionalTermination\(f\); a "
                                        r"classic is_termination_msg"):
        validate_termination(lambda m: True, "GroupChat(termination=...)")
    with pytest.raises(TypeError, match=r"TextMentionTermination\('DONE'\)"):
        validate_termination("DONE", "termination")
    with pytest.raises(TypeError, match=r"MaxMessageTermination\(10\)"):
        validate_termination(10, "termination")
    with pytest.raises(TypeError, match=r"got \['xxxxx[x]*\.\.\. \(list\)"):
        validate_termination(["x" * 500], "termination")


@pytest.mark.parametrize("make, error", [
    (lambda: MaxMessageTermination(0), "max_messages must be >= 1"),
    (lambda: MaxMessageTermination("5"), "max_messages must be an int"),
    (lambda: TextMentionTermination(""), "text must be a non-empty str"),
    (lambda: TextMentionTermination("x", sources=[1]), "sources must be non-empty agent names"),
    (lambda: TokenUsageTermination(max_prompt_token=-1), "max_prompt_token must be >= 1"),
    (lambda: TimeoutTermination(0), "timeout_seconds must be a finite number > 0"),
    (lambda: TimeoutTermination("1"), "timeout_seconds must be a number"),
    (lambda: FunctionCallTermination(len), "pass f.__name__"),
    (lambda: FunctionalTermination("f"), "func must be a function"),
    (lambda: ModelJudgedTermination(False), "llm_config must be a non-empty dict"),
    (lambda: ModelJudgedTermination({"model": "m"}, max_history=0), "max_history must be an int >= 1"),
])
def test_bad_arguments_name_the_argument(make: Any, error: str) -> None:
    with pytest.raises((TypeError, ValueError), match=re.escape(error)):
        make()


# ----------------------------------------------------------------- a model judges
@pytest.mark.parametrize("answer, verdict", [
    ("yes", True), ("Yes.", True), ("**YES**", True), ("Answer: yes", True), ("<think>no idea</think>\nYes", True),
    ("no", False), ("No, the rebounds are missing.", False), ("not yet", False),
    ("maybe", None), ("", None), ("maybe yes, maybe no", None), (None, None),
])
def test_parse_verdict(answer: Any, verdict: Optional[bool]) -> None:
    assert parse_verdict(answer) is verdict


def test_model_judged_asks_after_the_named_agents_and_counts_usage(scripted_server: ScriptedOpenAIServer) -> None:
    judge = ModelJudgedTermination(scripted_server.llm_config(), agents=["writer"])
    chat = [msg("Write a haiku.", name="user")]
    assert judge.check(chat[-1:], TerminationContext(messages=chat)) is None
    assert scripted_server.request_count == 0  # the user is not one of the agents: no question asked
    scripted_server.add_replies(ScriptedReply("No.", usage={"prompt_tokens": 40, "completion_tokens": 1}),
                                ScriptedReply("I'm not sure", usage={"prompt_tokens": 50, "completion_tokens": 3}),
                                ScriptedReply("Yes", usage={"prompt_tokens": 60, "completion_tokens": 1}))
    for text in ("A draft", "Another draft", "Old pond, frog jumps in"):
        chat.append(msg(text, name="writer"))
        stop = judge.check(chat[-1:], TerminationContext(messages=chat, speaker="writer"))
    assert scripted_server.request_count == 3 and judge.last_answer == "Yes"
    assert stop == StopMessage("The model judged the task complete", "ModelJudgedTermination",
                               {"answer": "Yes", "speaker": "writer"})
    question = scripted_server.requests[-1]["messages"][-1]["content"]
    assert "user: Write a haiku." in question and "writer: Old pond, frog jumps in" in question
    assert question.rstrip().endswith("Answer with only one word: yes or no.")
    (client,) = judge.usage_clients
    assert client is judge.client and client.total_usage_summary["scripted-model"]["prompt_tokens"] == 150
    assert client.total_usage_summary["scripted-model"]["completion_tokens"] == 5
    assert (TextMentionTermination("x") | judge).usage_clients == [client]


def test_model_judged_async_and_own_history(scripted_server: ScriptedOpenAIServer) -> None:
    judge = ModelJudgedTermination(scripted_server.llm_config(), prompt="Reply yes when the answer is final.")
    scripted_server.add_replies("no", "yes")

    async def run() -> list[Optional[StopMessage]]:
        return [await judge.a_check([msg("2 + 2?", name="user")]), await judge.a_check([msg("4", name="solver")])]

    first, second = asyncio.run(run())
    assert first is None and second is not None and second.details["speaker"] == "solver"
    system, transcript = scripted_server.requests[-1]["messages"]
    assert system == {"role": "system", "content": "Reply yes when the answer is final."}
    assert transcript["content"] == "user: 2 + 2?\n\nsolver: 4"  # the messages it checked (no context given)
    judge.reset()
    assert judge.last_answer is None and not judge.terminated


def test_model_judged_ends_a_real_chat(console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer) -> None:
    def responder(body: dict[str, Any]) -> str:
        if "Answer with only one word" in body["messages"][-1]["content"]:
            return "yes" if "42" in body["messages"][-1]["content"] else "no"
        return "Thinking..." if len(body["messages"]) < 4 else "The answer is 42."

    scripted_server.set_responder(responder)
    judge = ModelJudgedTermination(scripted_server.llm_config(), agents=["solver"])
    solver = ConversableAgent("solver", llm_config=scripted_server.llm_config(), human_input_mode="NEVER")
    user = ConversableAgent("user", llm_config=False, human_input_mode="NEVER", default_auto_reply="Go on.",
                            is_termination_msg=judge)
    result = user.initiate_chat(solver, message="What is six times seven?")
    assert result.chat_history[-1]["content"] == "The answer is 42." and judge.terminated
    assert judge.client.total_usage_summary is not None
