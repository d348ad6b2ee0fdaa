"""Auto speaker selection against the scripted OpenAI-compatible server."""

from __future__ import annotations

import asyncio
import re
import warnings
from types import SimpleNamespace
from typing import Any

import pytest

from autogen_classic import ConversableAgent
from autogen_classic.agentchat.groupchat.selection.auto import mentioned_agents
from autogen_classic.agentchat.contrib.capabilities import (
    transform_messages,
    transforms,
)
from autogen_classic.agentchat.groupchat import GroupChat
from autogen_classic.agentchat.groupchat.selection.trace import (
    selection_log_from_json,
    selection_log_to_json,
)
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply

HISTORY = [
    {"role": "user", "content": "Plan the trip.", "name": "alice"},
    {"role": "user", "content": "I will book trains.", "name": "bob"},
]
AGENTLIST = "['alice', 'bob', 'carol']"


def agent(name: str) -> ConversableAgent:
    return ConversableAgent(name, llm_config=False, human_input_mode="NEVER", description=f"{name} helps")


@pytest.fixture
def abc() -> list[ConversableAgent]:
    return [agent("alice"), agent("bob"), agent("carol")]


@pytest.fixture
def manager(scripted_server: ScriptedOpenAIServer) -> ConversableAgent:
    return ConversableAgent("chat_manager", llm_config=scripted_server.llm_config(), human_input_mode="NEVER")


def group(agents: list[ConversableAgent], **kwargs: Any) -> GroupChat:
    return GroupChat(agents=agents, messages=[dict(m) for m in HISTORY], **kwargs)


def sent(server: ScriptedOpenAIServer, index: int = -1) -> list[dict[str, Any]]:
    return server.requests[index]["messages"]


def attempts(gc: GroupChat) -> list[tuple[str, str, dict, str]]:
    return [(a.prompt_role, a.answer, a.mentions, a.outcome) for a in gc.selection_log[-1].attempts]


# ----------------------------------------------------------------- name matching
def test_mentions_use_word_boundaries_and_underscore_variants() -> None:
    story, critic, c_plus = agent("Story_writer"), agent("critic"), agent("c++")
    text = "Story writer, then critic; not critics or Story_writer2. Story\\_writer again. c++ last"
    assert mentioned_agents(text, [story, critic, c_plus]) == {"Story_writer": 2, "critic": 1, "c++": 1}
    assert mentioned_agents("critic", [critic]) == {"critic": 1}  # names at the edges match
    assert mentioned_agents("Critic", [critic]) == {}  # case-sensitive
    assert mentioned_agents({"content": "ask critic"}, [critic]) == {"critic": 1}
    assert mentioned_agents([{"type": "text", "text": "critic"}], [critic]) == {"critic": 1}
    dotted = agent("a.b")
    assert mentioned_agents("aXb and a.b", [dotted]) == {"a.b": 1}  # regex-special characters are literal
    assert GroupChat(agents=[story, critic])._mentioned_agents("critic?", None) == {"critic": 1}


# ----------------------------------------------------------------- one name
def test_one_name_selects_with_one_call(abc: list, manager: ConversableAgent, scripted_server: ScriptedOpenAIServer,
                                        console: ScriptedIOStream) -> None:
    gc = group(abc)
    scripted_server.add_reply("carol")
    assert gc.select_speaker(abc[1], manager) is abc[2]
    assert scripted_server.request_count == 1
    assert sent(scripted_server) == [
        {"role": "system", "content": gc.select_speaker_msg(abc)},
        *HISTORY,
        {"role": "system", "name": "checking_agent",
         "content": f"Read the above conversation. Then select the next role from {AGENTLIST} to play. "
                    "Only return the role."},
    ]
    assert scripted_server.requests[0]["model"] == "scripted-model"
    record = gc.selection_log[0]
    assert (record.method, record.last_speaker, record.chosen) == ("auto", "bob", "carol")
    assert record.reason == "auto: the model named carol (attempt 1 of 3)"
    assert attempts(gc) == [("system", "carol", {"carol": 1}, "selected")]
    assert console.output == ""  # not verbose: the nested chat is silent
    assert gc.messages == HISTORY  # the group's messages are untouched


def test_several_names_requery_with_the_multiple_template(abc: list, manager: ConversableAgent,
                                                          scripted_server: ScriptedOpenAIServer) -> None:
    gc = group(abc, role_for_select_speaker_messages="user")
    scripted_server.add_replies("alice or bob", "bob")
    assert gc.select_speaker(abc[2], manager) is abc[1]
    assert scripted_server.request_count == 2
    assert sent(scripted_server, 0)[-1]["role"] == "user"
    assert sent(scripted_server, 1)[-2:] == [
        {"role": "assistant", "content": "alice or bob", "name": "speaker_selection_agent"},
        {"role": "user", "name": "checking_agent", "content": gc.select_speaker_auto_multiple_template},
    ]
    assert attempts(gc) == [("user", "alice or bob", {"alice": 1, "bob": 1}, "multiple"),
                            ("user", "bob", {"bob": 1}, "selected")]


def test_no_name_requery_with_the_none_template(abc: list, manager: ConversableAgent,
                                                scripted_server: ScriptedOpenAIServer) -> None:
    gc = group(abc)
    scripted_server.add_replies("the planner", "alice")
    assert gc.select_speaker(abc[1], manager) is abc[0]
    assert scripted_server.request_count == 2
    none_prompt = sent(scripted_server)[-1]
    assert none_prompt == {"role": "system", "name": "checking_agent",
                           "content": gc.select_speaker_auto_none_template.format(agentlist=AGENTLIST)}
    assert f"The only names that are accepted are {AGENTLIST}." in none_prompt["content"]
    assert [a[3] for a in attempts(gc)] == ["none", "selected"]


def test_garbage_every_time_falls_back_to_the_next_candidate(abc: list, manager: ConversableAgent,
                                                             scripted_server: ScriptedOpenAIServer) -> None:
    gc = group(abc)
    scripted_server.add_replies("???", "alice bob carol", "")
    assert gc.select_speaker(abc[0], manager) is abc[1]
    assert scripted_server.request_count == 3  # one query + max_retries_for_selecting_speaker (2) requeries
    assert [a[3] for a in attempts(gc)] == ["none", "multiple", "invalid"]
    templates = [sent(scripted_server, i)[-1]["content"] for i in (1, 2)]
    assert templates == [gc.select_speaker_auto_none_template.format(agentlist=AGENTLIST),
                         gc.select_speaker_auto_multiple_template]
    assert gc.selection_log[0].reason == (
        "auto: no single agent named in 3 attempt(s); falling back to the next candidate after alice: bob")


def test_no_retries_means_one_call(abc: list, manager: ConversableAgent, scripted_server: ScriptedOpenAIServer) -> None:
    gc = group(abc, max_retries_for_selecting_speaker=0, allow_repeat_speaker=False)
    scripted_server.add_replies("nobody", "carol")
    assert gc.select_speaker(abc[2], manager) is abc[0]  # next candidate after carol (who may not repeat)
    assert scripted_server.request_count == 1 and scripted_server.pending_replies == 1


def test_a_tool_call_answer_is_invalid_and_requeried(abc: list, manager: ConversableAgent,
                                                     scripted_server: ScriptedOpenAIServer) -> None:
    gc = group(abc)
    scripted_server.add_replies(ScriptedReply(tool_calls=[{"name": "pick", "arguments": {"who": "bob"}}]), "bob")
    assert gc.select_speaker(abc[0], manager) is abc[1]
    assert [a[3] for a in attempts(gc)] == ["invalid", "selected"]


# ----------------------------------------------------------------- what the selector sees
def test_candidates_restrict_the_names_offered_and_accepted(abc: list, manager: ConversableAgent,
                                                            scripted_server: ScriptedOpenAIServer) -> None:
    gc = group(abc, allow_repeat_speaker=False)
    scripted_server.add_replies("bob", "carol")  # bob just spoke: he is not a candidate
    assert gc.select_speaker(abc[1], manager) is abc[2]
    first = sent(scripted_server, 0)
    assert "['alice', 'carol']" in first[0]["content"] and "bob helps" not in first[0]["content"]
    assert "['alice', 'carol']" in first[-1]["content"]
    assert attempts(gc)[0][3] == "none"


def test_trailing_tool_call_is_removed_from_the_selectors_view(abc: list, manager: ConversableAgent,
                                                               scripted_server: ScriptedOpenAIServer) -> None:
    gc = group(abc, func_call_filter=False)
    call = {"role": "assistant", "content": "calling", "name": "alice",
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}
    gc.messages.append(call)
    scripted_server.add_reply("bob")
    assert gc.select_speaker(abc[0], manager) is abc[1]
    assert sent(scripted_server)[-2] == {"role": "assistant", "content": "calling", "name": "alice"}
    assert "tool_calls" in gc.messages[-1]  # the group's own message keeps its call


def test_transforms_trim_what_the_selector_sees(abc: list, manager: ConversableAgent,
                                                scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream) -> None:
    limiter = transform_messages.TransformMessages(transforms=[transforms.MessageHistoryLimiter(max_messages=2)],
                                                   verbose=False)
    gc = group(abc, select_speaker_transform_messages=limiter)
    scripted_server.add_replies("carol", "alice")
    gc.select_speaker(abc[1], manager)
    request = sent(scripted_server)
    assert [m["role"] for m in request] == ["system", "user", "system"]
    assert request[1] == HISTORY[1] and request[2]["name"] == "checking_agent"
    # the transform is attached once and can be removed later
    gc.select_speaker(abc[2], manager)
    assert len(sent(scripted_server)) == 3
    gc.select_speaker_transform_messages = None
    scripted_server.add_reply("bob")
    gc.select_speaker(abc[0], manager)
    assert len(sent(scripted_server)) == 4


def test_without_prompt_template_the_last_message_closes_the_context_once(
    abc: list, manager: ConversableAgent, scripted_server: ScriptedOpenAIServer
) -> None:
    gc = group(abc, select_speaker_prompt_template=None)
    scripted_server.add_reply("alice")
    assert gc.select_speaker(abc[1], manager) is abc[0]
    request = sent(scripted_server)
    assert [m["content"] for m in request[1:]] == ["Plan the trip.", "I will book trains."]
    assert attempts(gc)[0][0] == "user"
    assert gc.messages == HISTORY


# ----------------------------------------------------------------- verbose
def test_verbose_prints_each_attempt_and_the_nested_chat(abc: list, manager: ConversableAgent,
                                                         scripted_server: ScriptedOpenAIServer,
                                                         console: ScriptedIOStream) -> None:
    gc = group(abc, select_speaker_auto_verbose=True)
    scripted_server.add_replies("alice and bob", "nobody", "carol")
    gc.select_speaker(abc[0], manager)
    out = console.output
    assert ">>>>>>>> Select speaker attempt 1 of 3 failed as it included multiple agent names.\n" in out
    assert ">>>>>>>> Select speaker attempt #2 failed as it did not include any agent names.\n" in out
    assert out.endswith(">>>>>>>> Select speaker attempt 3 of 3 successfully selected: carol\n")
    assert out.startswith(
        "checking_agent (to speaker_selection_agent):\n\n"
        f"Read the above conversation. Then select the next role from {AGENTLIST} to play. Only return the role.\n"
        "\n" + "-" * 80 + "\nspeaker_selection_agent (to checking_agent):\n\nalice and bob\n\n" + "-" * 80 + "\n")
    assert out.count("checking_agent (to speaker_selection_agent):") == 3


# ----------------------------------------------------------------- model configuration
def test_one_client_is_reused_and_rebuilt_when_the_config_changes(
    abc: list, manager: ConversableAgent, scripted_server: ScriptedOpenAIServer
) -> None:
    gc = group(abc)
    scripted_server.add_replies("carol", "alice", "bob")
    gc.select_speaker(abc[1], manager)
    client = gc.selection_client
    assert client is not None and client is not manager.client
    gc.select_speaker(abc[2], manager)
    assert gc.selection_client is client
    gc.select_speaker_auto_llm_config = scripted_server.llm_config(model="selector-model")
    gc.select_speaker(abc[0], manager)
    assert gc.selection_client is not client
    assert [r["model"] for r in scripted_server.requests] == ["scripted-model", "scripted-model", "selector-model"]


def test_usage_of_the_selection_calls_is_recorded(abc: list, manager: ConversableAgent,
                                                  scripted_server: ScriptedOpenAIServer) -> None:
    gc = group(abc)
    scripted_server.add_replies(ScriptedReply(content="nobody", usage={"prompt_tokens": 40, "completion_tokens": 1}),
                                ScriptedReply(content="bob", usage={"prompt_tokens": 60, "completion_tokens": 1}))
    gc.select_speaker(abc[0], manager)
    usage = gc.selection_log[0].usage
    assert (usage["prompt_tokens"], usage["completion_tokens"], usage["total_tokens"]) == (100, 2, 102)
    summary = gc.selection_client.total_usage_summary
    assert summary["scripted-model"]["prompt_tokens"] == 100
    assert manager.client.total_usage_summary is None  # the manager's own client made no call


class PickCarol:
    """A custom model client that always answers "carol"."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.model = config["model"]

    def create(self, params: dict[str, Any]) -> SimpleNamespace:
        message = SimpleNamespace(content="carol", tool_calls=None, function_call=None)
        return SimpleNamespace(choices=[SimpleNamespace(message=message)], model=self.model, cost=0.0)

    def message_retrieval(self, response: SimpleNamespace) -> list[str]:
        return [c.message.content for c in response.choices]

    def cost(self, response: SimpleNamespace) -> float:
        return 0.0

    @staticmethod
    def get_usage(response: SimpleNamespace) -> dict[str, Any]:
        return {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2, "cost": 0.0, "model": response.model}


def test_custom_model_client_class(abc: list) -> None:
    config = {"config_list": [{"model": "local", "model_client_cls": "PickCarol"}], "cache_seed": None}
    gc = group(abc, select_speaker_auto_llm_config=config, select_speaker_auto_model_client_cls=[PickCarol])
    assert gc.select_speaker(abc[0], None) is abc[2]
    gc = group(abc, select_speaker_auto_llm_config=config)
    with pytest.raises(ValueError, match="no 'model_client_cls' was supplied for registration in GroupChat"):
        gc.select_speaker(abc[0], None)
    gc = group(abc, select_speaker_auto_llm_config=config, select_speaker_auto_model_client_cls=[ScriptedReply])
    with pytest.raises(ValueError, match="No model's __name__ matches the model client class 'PickCarol'"):
        gc.select_speaker(abc[0], None)


def test_without_a_model_auto_raises_the_classic_error(abc: list) -> None:
    # As AG2 Classic 0.14.1: "auto" selection that must ask a model, with none configured, is a ValueError.
    gc = group(abc)
    no_model = agent("chat_manager")
    for selector in (no_model, None):
        with pytest.raises(ValueError, match=re.escape(
            "The group chat's internal speaker selection agent does not have an LLM configuration. Please provide a "
            "valid LLM config to the group chat's GroupChatManager or set it with the select_speaker_auto_llm_config "
            "parameter."
        )):
            gc.select_speaker(abc[0], selector)
    assert gc.selection_client is None
    gc.select_speaker_auto_llm_config = {"config_list": [{"model": "m", "api_key": "k", "base_url": "http://127.0.0.1:9"}]}
    assert gc.select_speaker_auto_llm_config  # the fix the message names


# ----------------------------------------------------------------- trace and async
def test_trace_json_round_trip(abc: list, manager: ConversableAgent, scripted_server: ScriptedOpenAIServer) -> None:
    gc = group(abc, allow_repeat_speaker=False)
    scripted_server.add_replies("alice, carol", "carol")
    gc.select_speaker(abc[1], manager)
    text = selection_log_to_json(gc.selection_log)
    restored = selection_log_from_json(text)
    assert restored == gc.selection_log
    data = restored[0].to_dict()
    assert data["steps"] == [{"name": "all", "candidates": ["alice", "bob", "carol"]},
                             {"name": "repeat_rule", "candidates": ["alice", "carol"]}]
    assert [a["outcome"] for a in data["attempts"]] == ["multiple", "selected"]
    assert data["attempts"][0]["mentions"] == {"alice": 1, "carol": 1}
    with pytest.raises(ValueError, match="JSON array"):
        selection_log_from_json('{"round": 0}')


def test_async_auto_selection(abc: list, manager: ConversableAgent, scripted_server: ScriptedOpenAIServer,
                              console: ScriptedIOStream) -> None:
    gc = group(abc, select_speaker_auto_verbose=True)
    scripted_server.add_replies("I pick alice and carol", "carol")

    chosen = asyncio.run(gc.a_select_speaker(abc[0], manager))
    assert chosen is abc[2] and scripted_server.request_count == 2
    assert sent(scripted_server, 0)[-1]["name"] == "checking_agent"  # same start message as the sync path
    assert sent(scripted_server, 1)[-1]["content"] == gc.select_speaker_auto_multiple_template
    assert "Select speaker attempt 2 of 3 successfully selected: carol" in console.output
    assert gc.selection_log[0].reason == "auto: the model named carol (attempt 2 of 3)"


def test_empty_history_still_asks_the_model(abc: list, manager: ConversableAgent,
                                            scripted_server: ScriptedOpenAIServer) -> None:
    gc = GroupChat(agents=abc)
    scripted_server.add_reply("bob")
    assert gc.select_speaker(abc[0], manager) is abc[1]
    assert [m["role"] for m in sent(scripted_server)] == ["system", "system"]


def test_a_model_error_propagates_and_is_recorded(abc: list, manager: ConversableAgent,
                                                  scripted_server: ScriptedOpenAIServer) -> None:
    gc = group(abc)
    scripted_server.add_reply(ScriptedReply(status=400))
    with pytest.raises(Exception, match="400"):
        gc.select_speaker(abc[0], manager)
    record = gc.selection_log[0]
    assert record.chosen is None and "HTTP 400" in record.reason
    scripted_server.add_reply("carol")  # the nested chat is clean for the next selection
    assert gc.select_speaker(abc[0], manager) is abc[2]
    assert len(sent(scripted_server)) == len(HISTORY) + 2
