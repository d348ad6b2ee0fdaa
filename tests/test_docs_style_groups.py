"""Group chats written the way AG2 Classic 0.14's user guide writes them, checked against what 0.14.1 does.

The scripts of the group-chat pages (classic ``GroupChat``, resuming, patterns, hand-offs, context variables,
guardrails, safeguards, the pattern cookbook) were run on this package and on ``autogen==0.14.1`` against the
same scripted model and compared. These tests keep the behaviours those scripts rely on, each written anew in
the style of the guide: agents on the scripted OpenAI-compatible server, ``initiate_group_chat`` /
``run_group_chat_iter`` loops answering input requests, ``manager.resume`` with a JSON string.

One behaviour differs from 0.14.1 on purpose: when a ``ManualPattern`` user presses Enter, the model picks the
speaker, and the speaker-selection exchange stays out of the group's messages (0.14.1 appends it to
``groupchat.messages``, so each later selection sees the earlier ones).
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Dict, List, Optional

import pytest

from autogen_classic import ConversableAgent, GroupChat, GroupChatManager, LLMConfig
from autogen_classic.agentchat import initiate_group_chat, run_group_chat, run_group_chat_iter
from autogen_classic.agentchat.group import AgentNameTarget, ContextVariables, ReplyResult
from autogen_classic.agentchat.group.patterns import AutoPattern, ManualPattern
from autogen_classic.events.agent_events import GroupChatRunChatEvent, InputRequestEvent, ToolResponseEvent
from autogen_classic.io.base import IOStream
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply

_CANDIDATES = re.compile(r"select the next role from (\[[^\]]*\]) to play")


def offered_names(body: Dict[str, Any]) -> Optional[List[str]]:
    """The agent names a speaker-selection request offers, or None for any other request."""
    for message in reversed(body.get("messages", [])):
        found = _CANDIDATES.search(message.get("content") or "")
        if found:
            return re.findall(r"'([^']+)'", found.group(1))
    return None


def llm_config_for(server: ScriptedOpenAIServer) -> LLMConfig:
    return LLMConfig({"api_type": "openai", "model": "gpt-5-nano", "api_key": "sk-test",
                      "base_url": server.base_url})


# ------------------------------------------------------------------------------------------------ ManualPattern
def test_manual_pattern_enter_lets_the_model_pick_without_growing_the_group(scripted_server: ScriptedOpenAIServer) -> None:
    selections: List[List[Dict[str, Any]]] = []

    def model(body: Dict[str, Any]) -> str:
        names = offered_names(body)
        if names is None:
            return f"Looked at {len(body['messages'])} messages."
        selections.append(body["messages"])
        return "tech_agent" if len(selections) % 2 else "general_agent"

    scripted_server.set_responder(model)
    llm_config = llm_config_for(scripted_server)
    triage = ConversableAgent(name="triage_agent", system_message="Route the query.", llm_config=llm_config)
    tech = ConversableAgent(name="tech_agent", system_message="Fix technical problems.", llm_config=llm_config)
    general = ConversableAgent(name="general_agent", system_message="Answer general questions.",
                               llm_config=llm_config)
    user = ConversableAgent(name="user", human_input_mode="ALWAYS")
    pattern = ManualPattern(initial_agent=triage, agents=[triage, tech, general], user_agent=user,
                            group_manager_args={"llm_config": llm_config})

    console = ScriptedIOStream(default_input="")  # Enter at every prompt: "use auto selection"
    with IOStream.set_default(console):
        result, _, _ = initiate_group_chat(pattern=pattern, messages="My laptop shuts down.", max_rounds=5)

    speakers = [m.get("name") for m in result.chat_history]
    assert speakers == ["user", "triage_agent", "tech_agent", "general_agent", "tech_agent"]
    assert len(selections) == 3
    for asked in selections:  # each selection sees the group's messages and one prompt, nothing of earlier ones
        names = [m.get("name") for m in asked]
        assert "speaker_selection_agent" not in names
        prompts = [m for m in asked[1:] if _CANDIDATES.search(m.get("content") or "")]
        assert prompts == [asked[-1]]
    assert [len(asked) for asked in selections] == [4, 5, 6]  # system + group messages so far + the prompt
    groupchat = triage._group_manager.groupchat
    assert {m.get("name") for m in groupchat.messages} <= {"user", "triage_agent", "tech_agent", "general_agent"}
    assert "Enter the number of the next speaker (enter nothing or `q` to use auto selection): " in console.prompts


# ------------------------------------------------------------------------------------------------ context variables
def test_context_variables_used_like_a_dict() -> None:
    context = ContextVariables(data={"user_name": "Alex", "issue_count": 0, "previous_issues": []})
    assert context.get("user_name") == "Alex" and context.get("non_existent", "default") == "default"
    context.set("issue_count", 1)
    context.update({"last_login": "2023-05-01", "premium": True})
    context["issue_count"] += 1
    assert "premium" in context and context["issue_count"] == 2
    assert list(context) == [("user_name", "Alex"), ("issue_count", 2), ("previous_issues", []),
                             ("last_login", "2023-05-01"), ("premium", True)]
    for key, value in context:  # iterating gives (name, value) pairs, as the guide's loop expects
        assert context[key] == value
    with pytest.raises(KeyError, match="Cannot delete non-existent context variable 'temporary_value'"):
        del context["temporary_value"]


# ------------------------------------------------------------------------------------------------ tools that route
def classify_query(query: Annotated[str, "The user query to classify"]) -> ReplyResult:
    """Classify a user query as technical or general."""
    if "shutting down" in query.lower():
        return ReplyResult(message="Technical issue. Routing to technical support...",
                           target=AgentNameTarget("tech_agent"))
    return ReplyResult(message="General question. Routing to general support...",
                       target=AgentNameTarget("general_agent"))


def test_auto_pattern_tool_routes_by_name_in_an_event_loop(scripted_server: ScriptedOpenAIServer) -> None:
    def model(body: Dict[str, Any]) -> Any:
        names = offered_names(body)
        if names is not None:
            return "user"
        if body.get("tools") and not any(m.get("role") == "tool" for m in body["messages"]):
            return ScriptedReply(tool_calls=[{"name": "classify_query",
                                              "arguments": {"query": "My laptop keeps shutting down"}}])
        return "Try a new battery."

    scripted_server.set_responder(model)
    llm_config = llm_config_for(scripted_server)
    triage = ConversableAgent(name="triage_agent", system_message="Use classify_query to route.",
                              functions=[classify_query], llm_config=llm_config)
    tech = ConversableAgent(name="tech_agent", system_message="Solve technical problems.", llm_config=llm_config)
    general = ConversableAgent(name="general_agent", system_message="Answer general questions.",
                               llm_config=llm_config)
    user = ConversableAgent(name="user", human_input_mode="ALWAYS")
    pattern = AutoPattern(initial_agent=triage, agents=[triage, tech, general], user_agent=user,
                          group_manager_args={"llm_config": llm_config})

    turns, tool_outputs = [], []
    for event in run_group_chat_iter(pattern=pattern, messages="My laptop keeps shutting down. Help?",
                                     max_rounds=10):
        if isinstance(event, InputRequestEvent):
            event.content.respond("exit")
            continue
        if isinstance(event, GroupChatRunChatEvent):
            turns.append(event.content.speaker)
        if isinstance(event, ToolResponseEvent):
            tool_outputs.append(event.content.content)
    assert turns == ["triage_agent", "_Group_Tool_Executor", "tech_agent", "user"]
    assert tool_outputs == ["Technical issue. Routing to technical support..."]


# ------------------------------------------------------------------------------------------------ resuming
PREVIOUS = [
    {"content": "Plan a launch.", "role": "user", "name": "Chair"},
    {"content": "Three ideas: A, B, C.", "role": "user", "name": "Product_Manager"},
    {"content": "We go with B.", "role": "user", "name": "Marketing"},
    {"content": "Campaign for B is ready. TERMINATE", "role": "user", "name": "Marketing"},
]


def meeting(server: ScriptedOpenAIServer) -> tuple[GroupChat, GroupChatManager, Dict[str, ConversableAgent]]:
    config = {"config_list": [server.config_entry("gpt-5")], "cache_seed": None}
    ends = lambda m: "TERMINATE" in (m.get("content") or "")  # noqa: E731 - as the guide writes it
    agents = {
        "Chair": ConversableAgent("Chair", llm_config=False, human_input_mode="NEVER", default_auto_reply="Go on."),
        "Product_Manager": ConversableAgent("Product_Manager", llm_config=config, is_termination_msg=ends),
        "Marketing": ConversableAgent("Marketing", llm_config=config, is_termination_msg=ends),
    }
    groupchat = GroupChat(agents=list(agents.values()), messages=[], max_round=3,
                          speaker_selection_method="round_robin")
    manager = GroupChatManager(groupchat=groupchat, llm_config=config, is_termination_msg=ends)
    return groupchat, manager, agents


def test_resume_from_a_json_string_keeps_or_strips_the_termination(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.set_responder(lambda body: f"Noted after {len(body['messages'])} messages.")
    state = json.dumps(PREVIOUS)

    groupchat, manager, agents = meeting(scripted_server)
    console = ScriptedIOStream(default_input="")
    with IOStream.set_default(console):
        last_agent, last_message = manager.resume(messages=state)
        assert last_agent is agents["Marketing"] and last_message["content"].endswith("TERMINATE")
        last_agent.initiate_chat(recipient=manager, message=last_message, clear_history=False)
    assert len(groupchat.messages) == 4  # the kept TERMINATE ends the chat at once
    # The console keeps ag2 0.7.3's wording of this event ("messages"; 0.14.1 prints "events").
    assert "Prepared group chat with 4 events, the last speaker is" in console.output

    groupchat, manager, agents = meeting(scripted_server)
    with IOStream.set_default(ScriptedIOStream(default_input="")):
        last_agent, last_message = manager.resume(messages=state, remove_termination_string="TERMINATE")
        last_agent.initiate_chat(recipient=manager, message=last_message, clear_history=False)
    assert [m["name"] for m in groupchat.messages] == ["Chair", "Product_Manager", "Marketing", "Marketing",
                                                       "Chair", "Product_Manager"]
    assert groupchat.messages[3]["content"] == "Campaign for B is ready. "
    assert json.loads(manager.messages_to_string(groupchat.messages))[:3] == PREVIOUS[:3]


# ------------------------------------------------------------------------------------------------ mistakes copied from pages
def test_auto_pattern_refuses_a_group_after_work(scripted_server: ScriptedOpenAIServer) -> None:
    agent = ConversableAgent("triage_agent", llm_config=llm_config_for(scripted_server))
    with pytest.raises(TypeError, match="got an unexpected keyword argument 'group_after_work'"):
        AutoPattern(initial_agent=agent, agents=[agent], group_after_work=None)  # type: ignore[call-arg]


def test_run_group_chat_processes_a_safeguarded_chat(scripted_server: ScriptedOpenAIServer) -> None:
    def model(body: Dict[str, Any]) -> str:
        names = offered_names(body)
        return "planner" if names is not None else "Call 555-0123 for details."

    scripted_server.set_responder(model)
    llm_config = llm_config_for(scripted_server)
    planner = ConversableAgent("planner", system_message="Plan.", llm_config=llm_config)
    analyst = ConversableAgent("data_analyst", system_message="Analyse.", llm_config=llm_config)
    policy = {"inter_agent_safeguards": {"agent_transitions": [{
        "message_source": "data_analyst", "message_destination": "planner", "check_method": "regex",
        "pattern": r"\d{3}-\d{4}", "action": "mask", "activation_message": "MASKED"}]}}
    pattern = AutoPattern(initial_agent=analyst, agents=[analyst, planner],
                          group_manager_args={"llm_config": llm_config})
    with IOStream.set_default(ScriptedIOStream(default_input="exit")):
        response = run_group_chat(pattern=pattern, messages="Contact the patient.", max_rounds=3,
                                  safeguard_policy=policy, safeguard_llm_config=llm_config)
        response.process()
    assert response.summary == "Call 555-0123 for details."
    assert response.last_speaker == "planner"
    planner_saw = [b for b in scripted_server.requests if b["messages"][0].get("content") == "Plan."]
    assert planner_saw and all("555-0123" not in json.dumps(b["messages"]) for b in planner_saw)
