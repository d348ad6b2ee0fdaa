"""Guardrails (AG2 Classic 0.14's ``autogen.agentchat.group.guardrails``) and the agent methods that hold them.

Observed on the reference: a group chat runs the selected speaker's input guardrails on its conversation
with the manager before it replies (the model is then not asked), and its output guardrails on the reply;
the guardrail's reply ("<activation message>\\nJustification: <why>") is said in the speaker's name. A chat
of two agents does not run guardrails.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

import autogen_classic as autogen
from autogen_classic import ConversableAgent, GroupChat, GroupChatManager
from autogen_classic.agentchat.group import AgentNameTarget, AgentTarget, TerminateTarget
from autogen_classic.agentchat.group.guardrails import (
    Guardrail,
    GuardrailCheckResult,
    GuardrailResult,
    LLMGuardrail,
    RegexGuardrail,
)
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer

SSN = r"\d{3}-\d{2}-\d{4}"


def _agent(name: str, server: ScriptedOpenAIServer | None = None, **kwargs: Any) -> ConversableAgent:
    llm_config = server.llm_config() if server is not None else False
    return ConversableAgent(name, llm_config=llm_config, human_input_mode="NEVER", **kwargs)


def _contents(messages: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(m.get("name", ""), m.get("content")) for m in messages]


# ---------------------------------------------------------------- the guardrails themselves
def test_regex_guardrail_checks_texts_and_messages() -> None:
    guardrail = RegexGuardrail("no_secret", r"secret\w*", TerminateTarget())
    assert guardrail.activation_message == "Guardrail 'no_secret' has been activated."

    result = guardrail.check("my secretpass")
    assert isinstance(result, GuardrailResult) and isinstance(result, GuardrailCheckResult)
    assert result.activated and result.justification == "Match found -> secretpass"
    assert result.guardrail is guardrail
    assert str(result) == "Guardrail Result: True\nJustification: Match found -> secretpass"
    assert result.reply == "Guardrail 'no_secret' has been activated.\nJustification: Match found -> secretpass"

    messages = [{"role": "user", "content": "hi"}, {"role": "user"}, {"content": None}, {"content": "a secret"}]
    assert guardrail.check(messages).justification == "Match found -> secret"
    quiet = guardrail.check("nothing here")
    assert not quiet.activated and quiet.justification == "No match found in the context."
    # One message dict (a reply with tool calls, say) is checked as a list of one.
    assert guardrail.check({"content": "secrets", "role": "assistant"}).activated


def test_guardrail_activation_message_and_results() -> None:
    guardrail = RegexGuardrail("ssn", SSN, TerminateTarget(), activation_message="SSN leaked")
    assert guardrail.check("123-45-6789").reply == "SSN leaked\nJustification: Match found -> 123-45-6789"
    assert RegexGuardrail("x", "y", TerminateTarget(), activation_message="").activation_message == (
        "Guardrail 'x' has been activated."
    )
    parsed = GuardrailResult.parse('{"activated": false}', guardrail)
    assert not parsed.activated and parsed.justification == "No justification provided"
    assert GuardrailCheckResult.model_json_schema()["required"] == ["activated"]


def test_bad_guardrails_say_what_to_fix() -> None:
    with pytest.raises(ValueError, match=r"Invalid regex pattern '\(\[': unterminated character set"):
        RegexGuardrail("bad", "([", TerminateTarget())
    with pytest.raises(TypeError, match="condition must be a regular expression"):
        RegexGuardrail("bad", 5, TerminateTarget())  # type: ignore[arg-type]
    # AG2 Classic 0.14.1 accepts any target; an agent's name or an agent becomes the target it means here.
    by_name = RegexGuardrail("named", "x", "alice")  # type: ignore[arg-type]
    assert isinstance(by_name.target, AgentNameTarget) and by_name.target.agent_name == "alice"
    alice = ConversableAgent("alice", llm_config=False)
    by_agent = RegexGuardrail(name="agent", condition="x", target=alice)  # type: ignore[arg-type]
    assert isinstance(by_agent.target, AgentTarget) and by_agent.target.agent_name == "alice"
    with pytest.raises(TypeError, match="abstract"):
        Guardrail("g", "c", TerminateTarget())  # type: ignore[abstract]
    with pytest.raises(ValueError, match="LLMConfig is required"):
        LLMGuardrail("g", "c", TerminateTarget(), llm_config=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Context must be a string or a list of messages"):
        RegexGuardrail("g", "c", TerminateTarget()).check(5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Failed to parse GuardrailResult from text: not json"):
        GuardrailResult.parse("not json", RegexGuardrail("g", "c", TerminateTarget()))


def test_classic_paths_give_the_same_objects() -> None:
    from autogen_classic.agentchat.transitions import guardrails as home

    assert RegexGuardrail is home.RegexGuardrail and GuardrailResult is home.GuardrailResult
    namespace: dict[str, Any] = {}
    exec("from autogen_classic.agentchat.group.guardrails import *", namespace)  # noqa: S102
    assert {"Guardrail", "GuardrailCheckResult", "GuardrailResult", "LLMGuardrail", "RegexGuardrail"} <= set(namespace)


# ---------------------------------------------------------------- the agent's methods
def test_agents_hold_and_run_their_guardrails() -> None:
    agent = _agent("bob")
    assert agent.input_guardrails == [] and agent.output_guardrails == []
    first = RegexGuardrail("first", "apple", TerminateTarget())
    second = RegexGuardrail("second", "pear", TerminateTarget())
    agent.register_input_guardrail(first)
    agent.register_input_guardrails([second])
    agent.register_output_guardrails([second, first])
    assert agent.input_guardrails == [first, second]

    assert agent.run_input_guardrails([{"content": "a pear"}]).guardrail is second  # type: ignore[union-attr]
    assert agent.run_input_guardrails([{"content": "a plum"}]) is None
    assert agent.run_output_guardrails("apple and pear").guardrail is second  # type: ignore[union-attr]
    assert agent.run_output_guardrails({"content": "apple"}).guardrail is first  # type: ignore[union-attr]

    with pytest.raises(TypeError, match="register_input_guardrail of agent 'bob' takes a Guardrail"):
        agent.register_input_guardrail("apple")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"takes a list of guardrails.*register_output_guardrail\(guardrail\)"):
        agent.register_output_guardrails(first)  # type: ignore[arg-type]


def test_two_agent_chats_do_not_run_guardrails(scripted_server: ScriptedOpenAIServer) -> None:
    # As in AG2 Classic 0.14: only a group chat runs guardrails.
    scripted_server.add_replies("my SSN is 123-45-6789")
    alice, bob = _agent("alice", scripted_server), _agent("bob", scripted_server)
    bob.register_input_guardrail(RegexGuardrail("no_secret", "secret", AgentTarget(alice)))
    bob.register_output_guardrail(RegexGuardrail("no_ssn", SSN, TerminateTarget()))
    result = alice.initiate_chat(bob, message="tell me the secret", max_turns=1, silent=True)
    assert [m["content"] for m in result.chat_history] == ["tell me the secret", "my SSN is 123-45-6789"]


# ---------------------------------------------------------------- in a group chat
def _group(server: ScriptedOpenAIServer, max_round: int = 5) -> tuple[Any, ...]:
    user = _agent("user", default_auto_reply="go on")
    alice, bob = _agent("alice", server), _agent("bob", server)
    groupchat = GroupChat([user, alice, bob], messages=[], max_round=max_round, speaker_selection_method="round_robin")
    return user, alice, bob, groupchat, GroupChatManager(groupchat, llm_config=False)


def test_group_chat_runs_input_and_output_guardrails(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("alice: my SSN is 123-45-6789", "x")
    user, alice, bob, groupchat, manager = _group(scripted_server)
    bob.register_input_guardrail(
        RegexGuardrail("no_password", r"password \w+", AgentTarget(alice), activation_message="Password seen")
    )
    alice.register_output_guardrail(RegexGuardrail("no_ssn", SSN, TerminateTarget(), activation_message="SSN leaked"))

    user.initiate_chat(manager, message="my password hunter2", silent=True)

    assert _contents(groupchat.messages) == [
        ("user", "my password hunter2"),
        ("alice", "SSN leaked\nJustification: Match found -> 123-45-6789"),  # alice's reply, replaced
        ("bob", "Password seen\nJustification: Match found -> password hunter2"),  # bob never asked his model
        ("user", "go on"),
        ("alice", "x"),
    ]
    # Alice's model was asked twice, bob's never; the others received the replaced reply only (whose
    # justification quotes the match, as in AG2 Classic 0.14).
    assert scripted_server.request_count == 2
    assert "alice: my SSN" not in json.dumps(bob.chat_messages[manager])
    assert "alice: my SSN" not in json.dumps(scripted_server.requests[1]["messages"])


def test_async_group_chat_runs_guardrails(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("fine", "done")
    user, alice, bob, groupchat, manager = _group(scripted_server, max_round=3)
    alice.register_input_guardrail(RegexGuardrail("hello", "hello", AgentTarget(bob)))

    asyncio.run(user.a_initiate_chat(manager, message="hello all", silent=True))

    assert _contents(groupchat.messages) == [
        ("user", "hello all"),
        ("alice", "Guardrail 'hello' has been activated.\nJustification: Match found -> hello"),
        ("bob", "fine"),
    ]


class NoEmptyReplies(Guardrail):
    """A guardrail written as classic 0.14 code writes one: a subclass with its own check."""

    def check(self, context: Any) -> GuardrailResult:
        text = context if isinstance(context, str) else str(context.get("content", ""))
        empty = not text.strip()
        return GuardrailResult(activated=empty, justification="empty reply" if empty else "ok", guardrail=self)


def test_a_guardrail_subclass_guards_a_group_chat(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("   ", "bob here")
    user, alice, bob, groupchat, manager = _group(scripted_server, max_round=3)
    alice.register_output_guardrail(NoEmptyReplies("no_empty", "empty", AgentTarget(bob), "Alice had nothing to say"))

    user.initiate_chat(manager, message="go", silent=True)

    assert groupchat.messages[1]["content"] == "Alice had nothing to say\nJustification: empty reply"
    assert groupchat.messages[2]["content"] == "bob here"


# ---------------------------------------------------------------- model-judged guardrails
def test_llm_guardrail_asks_its_model(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies(
        '{"activated": true, "justification": "car repair is not cooking"}',
        '{"activated": false, "justification": "cooking"}',
        "not json",
    )
    guardrail = LLMGuardrail(
        "off_topic", "The user asks about anything but cooking", TerminateTarget(),
        llm_config=autogen.LLMConfig(scripted_server.config_entry()),
    )
    result = guardrail.check("how do I fix my car?")
    assert result.activated and result.reply == (
        "Guardrail 'off_topic' has been activated.\nJustification: car repair is not cooking"
    )
    assert not guardrail.check([{"role": "user", "content": "pasta?"}]).activated
    with pytest.raises(ValueError, match="Failed to parse GuardrailResult from text: not json"):
        guardrail.check("x")

    request = scripted_server.requests[0]
    assert request["messages"] == [
        {
            "role": "system",
            "content": "You are a guardrail that checks if a condition is met in the conversation you are given.\n"
            "You will activate the guardrail only if the condition is met.\n\n"
            "**Condition: The user asks about anything but cooking**",
        },
        {"role": "user", "content": "how do I fix my car?"},
    ]
    assert request["response_format"]["json_schema"]["name"] == "GuardrailCheckResult"
    assert scripted_server.requests[1]["messages"][1] == {"role": "user", "content": "pasta?"}


def test_llm_guardrail_in_a_group_chat(scripted_server: ScriptedOpenAIServer) -> None:
    # A classic llm_config dict works too; the guardrail's model is scripted like the agents'.
    scripted_server.add_replies(
        "Take two aspirin.",  # alice
        '{"activated": true, "justification": "medical advice"}',  # alice's output guardrail
        "bob speaks",  # bob
    )
    user, alice, bob, groupchat, manager = _group(scripted_server, max_round=3)
    alice.register_output_guardrail(
        LLMGuardrail("medical", "The text gives medical advice", AgentTarget(bob), llm_config=scripted_server.llm_config(),
                     activation_message="No medical advice here.")
    )
    user.initiate_chat(manager, message="I have a headache", silent=True)

    assert _contents(groupchat.messages)[1:] == [
        ("alice", "No medical advice here.\nJustification: medical advice"),
        ("bob", "bob speaks"),
    ]
    assert scripted_server.requests[1]["messages"][1] == {"role": "user", "content": "Take two aspirin."}


# ---------------------------------------------------------------- with hand-offs (initiate_group_chat)
def test_a_guardrail_hands_the_turn_to_its_target(scripted_server: ScriptedOpenAIServer, console: Any) -> None:
    from autogen_classic.agentchat import initiate_group_chat
    from autogen_classic.agentchat.group.patterns import DefaultPattern

    scripted_server.add_replies("security: noted", "tech: your SSN 123-45-6789", "security again", "tech2")
    llm_config = autogen.LLMConfig(scripted_server.config_entry())
    triage, security, tech = (ConversableAgent(n, llm_config=llm_config) for n in ("triage", "security", "tech"))
    triage.register_input_guardrail(
        RegexGuardrail("pw", "password", AgentTarget(security), activation_message="Password mentioned")
    )
    tech.register_output_guardrail(RegexGuardrail("ssn", SSN, AgentTarget(security)))
    triage.handoffs.set_after_work(AgentTarget(tech))
    security.handoffs.set_after_work(AgentTarget(tech))
    tech.handoffs.set_after_work(TerminateTarget())
    user = ConversableAgent("user", llm_config=False, human_input_mode="NEVER")
    pattern = DefaultPattern(initial_agent=triage, agents=[triage, security, tech], user_agent=user)

    result, _, last_agent = initiate_group_chat(pattern=pattern, messages="my password is hunter2", max_rounds=8)

    # As the reference: the guardrail's target speaks next, overriding the agent's after-work.
    assert _contents(result.chat_history) == [
        ("user", "my password is hunter2"),
        ("triage", "Password mentioned\nJustification: Match found -> password"),
        ("security", "security: noted"),
        ("tech", "Guardrail 'ssn' has been activated.\nJustification: Match found -> 123-45-6789"),
        ("security", "security again"),
        ("tech", "tech2"),
    ]
    assert last_agent is tech
    handoffs = [e.content.record["handoff"] for e in console.events if e.type == "speaker_selection"]
    assert {"kind": "guardrail", "source": "triage", "target": "security", "via": "pw", "result": "security"} in handoffs
    assert [h["kind"] for h in handoffs if h["source"] == "tech"][0] == "guardrail"
