"""Tool responses are unrolled for the endpoint, and the check for them reads only new messages."""

from __future__ import annotations

from typing import Any

import pytest

from autogen_classic import ConversableAgent
from autogen_classic.agentchat.groupchat import GroupChat
from autogen_classic.agentchat.conversable.tools.responses import ToolResponseScan, unroll_tool_responses
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer

TOOL_MESSAGE = {
    "role": "tool", "content": "5\n\n7", "name": "bob",
    "tool_responses": [{"tool_call_id": "c1", "role": "tool", "content": "5"},
                       {"tool_call_id": "c2", "role": "tool", "content": "7"}],
}


def plain(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


class CountingMessage(dict):
    """A message dict that counts how often ``get`` reads it."""

    reads = 0

    def get(self, key: Any, default: Any = None) -> Any:
        CountingMessage.reads += 1
        return super().get(key, default)


def test_unroll_replaces_the_combined_message_by_one_message_per_response() -> None:
    call = {"role": "assistant", "content": None, "tool_responses": [{"tool_call_id": "x", "role": "tool",
                                                                      "content": "1"}]}
    assert unroll_tool_responses([plain("a"), TOOL_MESSAGE, call]) == [
        plain("a"),
        {"tool_call_id": "c1", "role": "tool", "content": "5"},
        {"tool_call_id": "c2", "role": "tool", "content": "7"},
        {"tool_call_id": "x", "role": "tool", "content": "1"},
        {"role": "assistant", "content": None},  # a non-tool message keeps its own part
    ]


def test_scan_reads_only_the_messages_added_since_the_last_check() -> None:
    scan = ToolResponseScan()
    messages = [CountingMessage(plain(str(i))) for i in range(100)]
    CountingMessage.reads = 0
    assert scan.is_plain(messages) and CountingMessage.reads == 100
    messages.append(CountingMessage(plain("more")))
    CountingMessage.reads = 0
    assert scan.is_plain(messages) and CountingMessage.reads == 1
    assert scan.is_plain(messages) and CountingMessage.reads == 1


def test_scan_finds_a_tool_message_appended_later_and_keeps_finding_it() -> None:
    scan = ToolResponseScan()
    messages = [plain("a"), plain("b")]
    assert scan.is_plain(messages)
    messages.append(TOOL_MESSAGE)
    assert not scan.is_plain(messages)
    messages.append(plain("c"))
    assert not scan.is_plain(messages)


@pytest.mark.parametrize("change", ["new list", "shortened", "shortened and regrown", "last replaced"])
def test_scan_reads_again_from_the_start_when_the_list_changed(change: str) -> None:
    scan = ToolResponseScan()
    messages = [plain("a"), plain("b"), plain("c")]
    assert scan.is_plain(messages)
    if change == "new list":
        messages = [TOOL_MESSAGE, plain("b"), plain("c")]
    elif change == "shortened":
        messages[:] = [TOOL_MESSAGE]
    elif change == "shortened and regrown":  # e.g. clear_history, then as many new messages
        messages[:] = [TOOL_MESSAGE, plain("x"), plain("y")]
    else:
        messages[-1] = TOOL_MESSAGE
    assert not scan.is_plain(messages)


def test_mark_plain_trusts_the_caller_then_reads_only_what_follows() -> None:
    scan = ToolResponseScan()
    messages = [CountingMessage(plain(str(i))) for i in range(50)]
    scan.mark_plain(messages)
    messages.append(TOOL_MESSAGE)
    CountingMessage.reads = 0
    assert not scan.is_plain(messages) and CountingMessage.reads == 0  # TOOL_MESSAGE is a plain dict


def test_agent_request_unrolls_tool_messages_arriving_late_in_a_long_conversation(
    scripted_server: ScriptedOpenAIServer,
) -> None:
    assistant = ConversableAgent("assistant", llm_config=scripted_server.llm_config(), human_input_mode="NEVER")
    user = ConversableAgent("user", llm_config=False, human_input_mode="NEVER")
    scripted_server.add_replies("first", "second")
    for index in range(30):
        assistant._append_oai_message(plain(f"m{index}"), "user", user, is_sending=False)
    assert assistant.generate_reply(sender=user) == "first"
    assistant._append_oai_message(TOOL_MESSAGE, "tool", user, is_sending=False)
    assert assistant.generate_reply(sender=user) == "second"
    assert scripted_server.requests[1]["messages"][-2:] == TOOL_MESSAGE["tool_responses"]
    assert all("tool_responses" not in m for m in scripted_server.requests[1]["messages"])


def test_selector_sees_tool_responses_unrolled_whether_they_come_first_or_late(
    scripted_server: ScriptedOpenAIServer,
) -> None:
    agents = [ConversableAgent(n, llm_config=False, human_input_mode="NEVER") for n in ("alice", "bob", "carol")]
    manager = ConversableAgent("chat_manager", llm_config=scripted_server.llm_config(), human_input_mode="NEVER")
    gc = GroupChat(agents=agents, messages=[{**plain("Plan."), "name": "alice"}], func_call_filter=False)
    scripted_server.add_replies("bob", "carol", "alice")
    assert gc.select_speaker(agents[0], manager) is agents[1]
    gc.messages.append(dict(TOOL_MESSAGE))  # a combined tool message joins the group's history
    assert gc.select_speaker(agents[1], manager) is agents[2]
    request = scripted_server.requests[1]["messages"]
    assert request[2:4] == TOOL_MESSAGE["tool_responses"]
    assert all("tool_responses" not in m for m in request)
    gc.messages.append({**plain("Done."), "name": "carol"})
    assert gc.select_speaker(agents[2], manager) is agents[0]
    assert all("tool_responses" not in m for m in scripted_server.requests[2]["messages"])
