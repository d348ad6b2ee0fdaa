"""Safeguard policies (AG2 Classic 0.14's ``autogen.agentchat.group.safeguards``) in real chats.

A policy's rules check what agents say to each other (``inter_agent_safeguards``) and what they exchange
with tools, the model and the human (``agent_environment_safeguards``), with a regular expression or a
model, and block, mask or warn. Each step is a ``SafeguardEvent``.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

import autogen_classic as autogen
from autogen_classic import ConversableAgent, GroupChat, GroupChatManager, register_function
from autogen_classic.agentchat.group.safeguards import (
    SafeguardEnforcer,
    SafeguardEvent,
    apply_safeguard_policy,
    reset_safeguard_policy,
)
from autogen_classic.agentchat.group.safeguards.validator import SafeguardValidator
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply

SSN = r"\d{3}-\d{2}-\d{4}"
BLOCKED = "🛡️ BLOCKED: Content blocked by safeguard"


def _agent(name: str, server: ScriptedOpenAIServer | None = None, **kwargs: Any) -> ConversableAgent:
    kwargs.setdefault("human_input_mode", "NEVER")
    return ConversableAgent(name, llm_config=server.llm_config() if server is not None else False, **kwargs)


def _transition(source: str, destination: str, **rule: Any) -> dict[str, Any]:
    return {"inter_agent_safeguards": {"agent_transitions": [
        {"message_source": source, "message_destination": destination, **rule}
    ]}}


def _safeguard_events(console: ScriptedIOStream) -> list[dict[str, Any]]:
    return [json.loads(e.model_dump_json())["content"] for e in console.events if isinstance(e, SafeguardEvent)]


# ---------------------------------------------------------------- between two agents
def test_block_and_mask_between_two_agents(scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream) -> None:
    scripted_server.add_replies("SSN 123-45-6789", "alice again", "bob again")
    alice, bob = _agent("alice", scripted_server), _agent("bob", scripted_server)
    policy = {"inter_agent_safeguards": {"agent_transitions": [
        {"message_source": "bob", "message_destination": "alice", "check_method": "regex", "pattern": SSN,
         "action": "block"},
        {"message_source": "alice", "message_destination": "bob", "check_method": "regex",
         "pattern": r"password\s*\w+", "violation_response": "mask", "activation_message": "no passwords"},
    ]}}
    enforcer = apply_safeguard_policy(agents=[alice, bob], policy=policy)
    assert isinstance(enforcer, SafeguardEnforcer)
    assert [h.__name__ for h in alice.hook_lists["process_message_before_send"]] == ["message_before_send_hook"]

    result = alice.initiate_chat(bob, message="my password hunter2 ok?", max_turns=2)

    assert result.chat_history == [
        {"content": "my [SENSITIVE_INFO] ok?", "role": "assistant", "name": "alice"},
        {"content": BLOCKED, "role": "user", "name": "bob"},
        {"content": "alice again", "role": "assistant", "name": "alice"},
        {"content": "bob again", "role": "user", "name": "bob"},
    ]
    # Neither model saw what the policy caught.
    assert "hunter2" not in json.dumps(scripted_server.requests) and "123-45-6789" not in json.dumps(
        scripted_server.requests[1]
    )
    events = _safeguard_events(console)
    assert events[0]["event_type"] == "load"
    assert events[0]["message"] == "Loaded 2 inter-agent and 0 environment safeguard rules"
    assert [(e["event_type"], e["message"]) for e in events[1:4]] == [
        ("check", "Checking inter-agent communication"),
        ("violation", "VIOLATION DETECTED: Match found -> password hunter2"),
        ("action", "MASKED: no passwords"),
    ]
    assert events[3] | {"uuid": None} == {
        "uuid": None, "event_type": "action", "message": "MASKED: no passwords", "source_agent": "alice",
        "target_agent": "bob", "guardrail_type": None, "action": "mask", "content_preview": "my password hunter2 ok?",
    }
    assert [e["message"] for e in events if e["event_type"] == "action"] == [
        "MASKED: no passwords", "BLOCKED: Content blocked by safeguard",
    ]
    text = "".join(console.chunks)
    assert "***** Safeguard Enforcement Action: BLOCK *****" in text and "🚨 BLOCKED: Content blocked by safeguard" in text
    assert "  • From: bob\n  • To: alice\n  • Action: block\n  • Content: SSN 123-45-6789" in text


def test_warning_lets_the_message_through(scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream) -> None:
    scripted_server.add_reply("hello back")
    alice, bob = _agent("alice", scripted_server), _agent("bob", scripted_server)
    apply_safeguard_policy(agents=[alice, bob], policy=_transition(
        "*", "bob", check_method="regex", pattern="hello", action="warning"
    ))
    result = alice.initiate_chat(bob, message="hello bob", max_turns=1)
    assert [m["content"] for m in result.chat_history] == ["hello bob", "hello back"]
    assert [e["message"] for e in _safeguard_events(console) if e["event_type"] == "action"] == [
        "WARNING: Content blocked by safeguard"
    ]


def test_llm_checked_rule_between_agents(scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream) -> None:
    scripted_server.add_replies(
        '{"activated": true, "justification": "rude"}',  # the safeguard's model on alice's message
        "bob answers",
        '{"activated": false, "justification": "fine"}',  # ... on bob's answer (rule "*" -> "*")
    )
    alice, bob = _agent("alice", scripted_server), _agent("bob", scripted_server)
    apply_safeguard_policy(
        agents=[alice, bob],
        policy=_transition("*", "*", check_method="llm", custom_prompt="Flag rude content", action="block"),
        safeguard_llm_config=autogen.LLMConfig(scripted_server.config_entry()),
    )
    result = alice.initiate_chat(bob, message="hi you idiot", max_turns=1)

    assert [m["content"] for m in result.chat_history] == [BLOCKED, "bob answers"]
    check = scripted_server.requests[0]
    assert check["messages"][0]["content"].endswith("**Condition: Flag rude content**")
    assert check["messages"][1] == {"role": "user", "content": "hi you idiot"}
    violations = [e for e in _safeguard_events(console) if e["event_type"] == "violation"]
    assert [(v["message"], v["guardrail_type"]) for v in violations] == [("VIOLATION DETECTED: rude", "LLMGuardrail")]


def test_llm_rule_masks_with_the_masking_model(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies(
        '{"activated": true, "justification": "contains a diagnosis"}',  # the checking model
        "I have [SENSITIVE_INFO], see you",  # the masking model
        "get well",  # bob
    )
    alice, bob = _agent("alice", scripted_server), _agent("bob", scripted_server)
    apply_safeguard_policy(
        agents=[alice, bob],
        policy=_transition("alice", "bob", check_method="llm", disallow_item=["medical records"], action="mask"),
        safeguard_llm_config=scripted_server.llm_config(), mask_llm_config=scripted_server.llm_config(),
    )
    result = alice.initiate_chat(bob, message="I have diabetes, see you", max_turns=1, silent=True)
    assert [m["content"] for m in result.chat_history] == ["I have [SENSITIVE_INFO], see you", "get well"]
    mask_request = scripted_server.requests[1]["messages"][0]["content"]
    assert "Content: I have diabetes, see you" in mask_request and "Sensitive categories: medical records" in mask_request
    assert "diabetes" not in json.dumps(scripted_server.requests[2])


# ---------------------------------------------------------------- tools, the model, the human
def _tool_pair(server: ScriptedOpenAIServer) -> tuple[ConversableAgent, ConversableAgent, list[str]]:
    alice, bob = _agent("alice", server), _agent("bob")
    ran: list[str] = []

    def lookup(query: str) -> str:
        ran.append(query)
        return f"record for {query}: card 4111-1111-1111-1111"

    register_function(lookup, caller=alice, executor=bob, description="Look up a record.")
    return alice, bob, ran


TOOL_POLICY = {"agent_environment_safeguards": {"tool_interaction": [
    {"message_source": "bob", "message_destination": "lookup", "check_method": "regex", "pattern": "drop table",
     "action": "block"},
    {"message_source": "lookup", "message_destination": "bob", "check_method": "regex",
     "pattern": r"\d{4}-\d{4}-\d{4}-\d{4}", "action": "mask"},
]}}


def test_tool_calls_are_blocked_and_their_results_masked(
    scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream
) -> None:
    scripted_server.add_replies(
        ScriptedReply(tool_calls=[{"name": "lookup", "arguments": {"query": "bob"}, "id": "call_1"}]),
        ScriptedReply(tool_calls=[{"name": "lookup", "arguments": {"query": "x; DROP TABLE users"}, "id": "call_2"}]),
        "done",
    )
    alice, bob, ran = _tool_pair(scripted_server)
    apply_safeguard_policy(agents=[alice, bob], policy=TOOL_POLICY)
    assert sorted(name for name, hooks in bob.hook_lists.items() if hooks) == [
        "safeguard_tool_inputs", "safeguard_tool_outputs",
    ]
    assert not any(alice.hook_lists.values())

    result = bob.initiate_chat(alice, message="find bob", max_turns=3)

    assert ran == ["bob"]  # the blocked call never ran
    responses = [m for m in result.chat_history if m.get("tool_responses")]
    assert [r["tool_responses"] for r in responses] == [
        [{"tool_call_id": "call_1", "role": "tool", "content": "record for bob: card [SENSITIVE_INFO]"}],
        [{"tool_call_id": "call_2", "role": "tool", "content": BLOCKED}],
    ]
    events = _safeguard_events(console)
    assert [(e["event_type"], e["message"]) for e in events if e["event_type"] != "check"][1:] == [
        ("violation", r"REGEX VIOLATION: Content matched pattern: \d{4}-\d{4}-\d{4}-\d{4}"),
        ("action", "MASKED: Content blocked by safeguard"),
        ("violation", "REGEX VIOLATION: Content matched pattern: drop table"),
        ("action", "BLOCKED: Content blocked by safeguard"),
    ]
    checks = [e for e in events if e["event_type"] == "check"]
    assert checks[0]["message"] == "Checking tool interaction: bob <-> lookup (input)"
    assert (checks[1]["source_agent"], checks[1]["target_agent"]) == ("lookup", "bob")


def test_async_chats_are_checked_too(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies(
        ScriptedReply(tool_calls=[{"name": "lookup", "arguments": {"query": "drop table t"}, "id": "call_1"}]),
        "SSN 123-45-6789",
    )
    alice, bob, ran = _tool_pair(scripted_server)
    policy = {"agent_environment_safeguards": {
        "tool_interaction": TOOL_POLICY["agent_environment_safeguards"]["tool_interaction"],
        "llm_interaction": [{"message_source": "llm", "message_destination": "alice", "check_method": "regex",
                             "pattern": SSN, "action": "mask"}],
    }}
    apply_safeguard_policy(agents=[alice, bob], policy=policy)
    result = asyncio.run(bob.a_initiate_chat(alice, message="find", max_turns=2, silent=True))
    assert ran == []
    assert [m["content"] for m in result.chat_history[2:]] == [BLOCKED, "SSN [SENSITIVE_INFO]"]


def test_model_requests_and_replies_are_checked(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("SSN 123-45-6789", "second")
    alice, bob = _agent("alice", scripted_server), _agent("bob")
    apply_safeguard_policy(agents=[alice, bob], policy={"agent_environment_safeguards": {"llm_interaction": [
        {"message_source": "alice", "message_destination": "llm", "check_method": "regex", "pattern": "secret",
         "action": "block"},
        {"message_source": "llm", "message_destination": "alice", "check_method": "regex", "pattern": SSN,
         "action": "mask"},
    ]}})
    first = bob.initiate_chat(alice, message="what is my SSN?", max_turns=1, silent=True)
    assert first.chat_history[-1]["content"] == "SSN [SENSITIVE_INFO]"  # the model's reply, masked

    second = bob.initiate_chat(alice, message="the secret is 42", max_turns=1, silent=True)
    assert second.chat_history[-1]["content"] == BLOCKED  # the model was not asked
    assert scripted_server.request_count == 1


def test_human_input_is_checked(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("noted", "ok")
    alice, bob = _agent("alice", scripted_server), _agent("bob", human_input_mode="ALWAYS")
    apply_safeguard_policy(agents=[alice, bob], policy={"agent_environment_safeguards": {"user_interaction": [
        {"message_source": "user", "message_destination": "bob", "check_method": "regex", "pattern": r"pw \w+",
         "action": "mask"},
    ]}})
    stream = ScriptedIOStream(["my pw hunter2", "exit"])
    with autogen.IOStream.set_default(stream):
        result = bob.initiate_chat(alice, message="hi", max_turns=2)
    assert [m["content"] for m in result.chat_history] == ["hi", "noted", "my [SENSITIVE_INFO]", "ok"]
    assert "hunter2" not in json.dumps(scripted_server.requests)
    assert bob._human_input[0] == "my [SENSITIVE_INFO]"


# ---------------------------------------------------------------- group chats
def test_group_chat_policy_checks_each_forwarded_copy(
    scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream
) -> None:
    scripted_server.add_replies("alice: my SSN is 123-45-6789", "bob ok")
    user = _agent("user", default_auto_reply="go on")
    alice, bob = _agent("alice", scripted_server), _agent("bob", scripted_server)
    groupchat = GroupChat([user, alice, bob], messages=[], max_round=3, speaker_selection_method="round_robin")
    manager = GroupChatManager(groupchat, llm_config=False)
    apply_safeguard_policy(groupchat_manager=manager, policy=_transition(
        "alice", "bob", check_method="regex", pattern=SSN, action="block"
    ))
    assert len(groupchat._inter_agent_guardrails) == 1

    user.initiate_chat(manager, message="hello all", silent=True)

    assert groupchat.messages[1]["content"] == "alice: my SSN is 123-45-6789"  # the chat keeps what was said
    assert bob.chat_messages[manager][1] == {"content": BLOCKED, "name": "alice", "role": "user"}
    assert user.chat_messages[manager][1]["content"] == "alice: my SSN is 123-45-6789"
    assert "123-45-6789" not in json.dumps(scripted_server.requests[1])  # bob's model never saw it

    reset_safeguard_policy(groupchat_manager=manager)
    assert groupchat._inter_agent_guardrails == []
    assert not any(hooks for agent in groupchat.agents for hooks in agent.hook_lists.values())
    text = "".join(console.chunks)
    assert "📋 Found 3 agents in GroupChat: user, alice, bob\n🔗 Clearing 1 inter-agent guardrails from GroupChat" in text
    assert "✅ Safeguard reset completed for 3 agents" in text


def test_policy_from_a_json_file_and_reset(tmp_path: Path, scripted_server: ScriptedOpenAIServer) -> None:
    path = tmp_path / "policy.json"
    path.write_text(json.dumps(_transition("alice", "bob", check_method="regex", pattern="x", action="block")))
    alice, bob = _agent("alice"), _agent("bob")
    enforcer = apply_safeguard_policy(agents=[alice, bob], policy=str(path))
    assert enforcer.policy["inter_agent_safeguards"]["agent_transitions"][0]["pattern"] == "x"
    reset_safeguard_policy(agents=[alice, bob])
    assert not any(alice.hook_lists.values()) and not any(bob.hook_lists.values())


# ---------------------------------------------------------------- bad policies
REGEX = {"check_method": "regex", "pattern": "x", "action": "block"}
BAD_POLICIES = [
    ([1], "Policy must be a dictionary"),
    ({"inter_agent_safeguards": []}, "inter_agent_safeguards must be a dictionary"),
    ({"inter_agent_safeguards": {"agent_transitions": {}}}, "agent_transitions must be a list"),
    ({"inter_agent_safeguards": {"agent_transitions": [5]}}, r"agent_transitions\[0\] must be a dictionary"),
    (_transition("alice", "bob", pattern="x", action="block"),
     r"agent_transitions\[0\] missing required field: check_method \(add \"check_method\": \"regex\""),
    (_transition("alice", "bob", check_method="xx"), "invalid check_method: xx. Must be 'llm' or 'regex'"),
    (_transition("alice", "bob", check_method="llm", action="block"), "must have either 'custom_prompt' or 'disallow_item'"),
    (_transition("alice", "bob", check_method="regex", pattern="([", action="block"), "invalid regex pattern '\\(\\['"),
    (_transition("alice", "bob", check_method="regex", pattern="x"), "missing required field: violation_response or action"),
    (_transition("alice", "bob", check_method="regex", pattern="x", action="delete"),
     "invalid action: delete. Must be 'block', 'mask', or 'warning'"),
    (_transition("alice", "carol", **REGEX),
     r"Policy validation failed: agent_transitions\[0\] references unknown destination agent: 'carol'. "
     r"Available agents: \['alice', 'bob'\]"),
    (_transition("alice", "bob", check_method="llm", disallow_item=["pii"], action="mask"),
     "safeguard_llm_config is required for LLM-based guardrail: alice -> bob"),
    ({"agent_environment_safeguards": {"tool_interaction": [REGEX]}},
     r"tool_interaction\[0\] must have 'message_source' and 'message_destination'"),
    ({"agent_environment_safeguards": {"llm_interaction": [
        {"message_source": "alice", "message_destination": "llm", "check_method": "regex", "pattern": "x"}]}},
     r"llm_interaction\[0\] missing required field: action"),
    ({"agent_environment_safeguards": {"llm_interaction": [
        {"message_source": "zed", "message_destination": "llm", **REGEX}]}},
     r"llm_interaction\[0\] references unknown agent: 'zed'"),
    ({"agent_environment_safeguards": {"tool_interaction": [
        {"message_source": "bob", "message_destination": "zap", **REGEX}]}},
     r"tool_interaction\[0\] references unknown tool: 'zap'. Available tools: \['lookup'\]"),
    ({"agent_environment_safeguards": {"tool_interaction": [
        {"message_source": "alice", "message_destination": "lookup", **REGEX}]}},
     r"agent 'alice' does not have access to tool 'lookup'. Agent's tools: \[\]"),
]


@pytest.mark.parametrize(("policy", "message"), BAD_POLICIES, ids=[m[:40] for _, m in BAD_POLICIES])
def test_bad_policies_name_the_rule_field_and_fix(scripted_server: ScriptedOpenAIServer, policy: Any, message: str) -> None:
    alice, bob = _agent("alice", scripted_server), _agent("bob")
    bob.register_for_execution(name="lookup")(lambda query: query)
    with pytest.raises(ValueError, match=message):
        apply_safeguard_policy(agents=[alice, bob], policy=policy)


def test_bad_calls_and_unknown_sections() -> None:
    alice = _agent("alice")
    policy = _transition("alice", "alice", **REGEX)
    with pytest.raises(ValueError, match="Either agents or groupchat_manager must be provided"):
        apply_safeguard_policy(policy=policy)
    with pytest.raises(ValueError, match="groupchat_manager must be an instance of GroupChatManager"):
        apply_safeguard_policy(groupchat_manager=alice, policy=policy)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Either agents or groupchat_manager must be provided"):
        reset_safeguard_policy()
    with pytest.raises(FileNotFoundError):
        apply_safeguard_policy(agents=[alice], policy="/no/such/policy.json")
    with pytest.warns(UserWarning, match=r"'tool_interactions' is not a known section.*'tool_interaction'"):
        apply_safeguard_policy(agents=[alice], policy={"agent_environment_safeguards": {"tool_interactions": []}})
    with pytest.warns(UserWarning, match="groupchat_message_check is read but not enforced"):
        apply_safeguard_policy(agents=[alice], policy={"inter_agent_safeguards": {"groupchat_message_check": {}}})


def test_validator_on_its_own() -> None:
    validator = SafeguardValidator(_transition("alice", "*", **REGEX))
    validator.validate_policy_structure()
    validator.validate_policy_complete(agent_names=["alice"], agent_tool_mapping={"alice": []})
    with pytest.raises(ValueError, match="unknown source agent: 'alice'"):
        validator.validate_agent_names(["bob"])
    with pytest.raises(ValueError, match="Policy must be a dictionary"):
        SafeguardValidator(5).validate_policy_structure()  # type: ignore[arg-type]


def test_policy_of_a_group_chat_with_hand_offs(scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream) -> None:
    """``initiate_group_chat(safeguard_policy=...)``: the group's tool executor runs alice's tool, so the tool rule
    naming alice applies to it; the copy bob receives of alice's message is checked on the way."""
    from autogen_classic.agentchat import initiate_group_chat
    from autogen_classic.agentchat.group import AgentTarget, TerminateTarget
    from autogen_classic.agentchat.group.patterns import DefaultPattern

    scripted_server.add_replies(
        ScriptedReply(tool_calls=[{"name": "lookup", "arguments": {"query": "bob"}, "id": "call_1"}]),
        "the secret record",
        "bob done",
    )

    def lookup(query: str) -> str:
        """Look up a record."""
        return f"record for {query}: card 4111-1111-1111-1111"

    llm_config = autogen.LLMConfig(scripted_server.config_entry())
    alice = ConversableAgent("alice", llm_config=llm_config, functions=[lookup])
    bob = ConversableAgent("bob", llm_config=llm_config)
    alice.handoffs.set_after_work(AgentTarget(bob))
    bob.handoffs.set_after_work(TerminateTarget())
    policy = {
        "agent_environment_safeguards": {"tool_interaction": [
            {"message_source": "lookup", "message_destination": "alice", "check_method": "regex",
             "pattern": r"\d{4}-\d{4}-\d{4}-\d{4}", "action": "mask"},
        ]},
        "inter_agent_safeguards": {"agent_transitions": [
            {"message_source": "alice", "message_destination": "bob", "check_method": "regex", "pattern": "secret",
             "action": "block"},
        ]},
    }
    result, _, _ = initiate_group_chat(
        pattern=DefaultPattern(initial_agent=alice, agents=[alice, bob]), messages="find bob", max_rounds=8,
        safeguard_policy=policy,
    )

    assert result.chat_history[2]["tool_responses"][0]["content"] == "record for bob: card [SENSITIVE_INFO]"
    assert result.chat_history[3]["content"] == "the secret record"  # the chat keeps it; bob's copy is blocked
    assert "the secret record" not in json.dumps(scripted_server.requests[2]) and BLOCKED in json.dumps(
        scripted_server.requests[2], ensure_ascii=False
    )
    checks = [e for e in _safeguard_events(console) if e["event_type"] == "check"]
    assert "Checking tool interaction: alice <-> lookup (output)" in [c["message"] for c in checks]
