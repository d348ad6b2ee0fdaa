"""The async twins (a_initiate_chat, a_send, a_receive, a_generate_reply) give the same chats as the sync API."""

from __future__ import annotations

import asyncio
from typing import Any, Callable

import pytest

from autogen_classic import AssistantAgent, ConversableAgent, UserProxyAgent
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply
from console_masks import mask_run_ids

AUTO = "\n>>>>>>>> USING AUTO REPLY...\n"


def _model_chat(server: ScriptedOpenAIServer) -> tuple[ConversableAgent, ConversableAgent, dict[str, Any]]:
    server.add_replies("one", "two", "TERMINATE")
    alice = AssistantAgent("alice", llm_config=server.llm_config())
    bob = UserProxyAgent("bob", human_input_mode="TERMINATE", code_execution_config=False,
                         max_consecutive_auto_reply=5, default_auto_reply="go on")
    return bob, alice, {"message": "hi"}


def _tool_chat(server: ScriptedOpenAIServer) -> tuple[ConversableAgent, ConversableAgent, dict[str, Any]]:
    server.add_replies(ScriptedReply(tool_calls=[{"name": "add", "arguments": {"a": 2, "b": 3}, "id": "c1"}]),
                       "result is 5 TERMINATE")
    alice = AssistantAgent("alice", llm_config=server.llm_config())
    bob = UserProxyAgent("bob", human_input_mode="NEVER", code_execution_config=False,
                         is_termination_msg=lambda m: "TERMINATE" in (m.get("content") or ""))

    @bob.register_for_execution()
    @alice.register_for_llm(description="Add two numbers")
    def add(a: int, b: int) -> int:
        return a + b

    return bob, alice, {"message": "add"}


def _max_turns_chat(server: ScriptedOpenAIServer) -> tuple[ConversableAgent, ConversableAgent, dict[str, Any]]:
    alice = ConversableAgent("alice", llm_config=False, human_input_mode="NEVER", default_auto_reply="ok")
    bob = ConversableAgent("bob", llm_config=False, human_input_mode="NEVER", default_auto_reply="more")
    return bob, alice, {"message": "q", "max_turns": 3, "carryover": "ctx"}


def _nested_chat(server: ScriptedOpenAIServer) -> tuple[ConversableAgent, ConversableAgent, dict[str, Any]]:
    inner = ConversableAgent("inner", llm_config=False, human_input_mode="NEVER", default_auto_reply="inner reply")
    alice = ConversableAgent("alice", llm_config=False, human_input_mode="NEVER")
    bob = ConversableAgent("bob", llm_config=False, human_input_mode="NEVER", default_auto_reply="bob")
    alice.register_nested_chats([{"recipient": inner, "max_turns": 1}], trigger=bob)
    return bob, alice, {"message": "outer q", "max_turns": 2}


SCENARIOS: dict[str, Callable[[ScriptedOpenAIServer], Any]] = {
    "model": _model_chat, "tools": _tool_chat, "max_turns": _max_turns_chat, "nested": _nested_chat,
}


def _run(server: ScriptedOpenAIServer, scenario: str, use_async: bool, inputs: list[str]) -> tuple[Any, str, list]:
    server.reset()
    stream = ScriptedIOStream(inputs)
    from autogen_classic.io import IOStream

    with IOStream.set_default(stream):
        sender, recipient, kwargs = SCENARIOS[scenario](server)
        if use_async:
            result = asyncio.run(sender.a_initiate_chat(recipient, **kwargs))
        else:
            result = sender.initiate_chat(recipient, **kwargs)
    requests = [request["messages"] for request in server.requests]
    return result, mask_run_ids(stream.output), requests


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_async_chat_matches_sync_chat(scripted_server: ScriptedOpenAIServer, scenario: str) -> None:
    sync_result, sync_output, sync_requests = _run(scripted_server, scenario, False, [""])
    async_result, async_output, async_requests = _run(scripted_server, scenario, True, [""])
    assert async_result.chat_history == sync_result.chat_history
    assert async_result.summary == sync_result.summary
    assert async_result.human_input == sync_result.human_input
    assert async_output == sync_output
    assert async_requests == sync_requests
    assert len(sync_result.chat_history) >= 2


def test_async_counts_each_auto_reply_once(console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer) -> None:
    # Deliberate difference: the reference runs both termination checks in async chats, printing
    # "USING AUTO REPLY" twice and moving the auto-reply counter by two per reply.
    scripted_server.add_replies("one", "two", "three", "four")
    alice = AssistantAgent("alice", llm_config=scripted_server.llm_config())
    bob = UserProxyAgent("bob", human_input_mode="TERMINATE", code_execution_config=False,
                         max_consecutive_auto_reply=3, default_auto_reply="go on")
    console.add_inputs("exit")
    result = asyncio.run(bob.a_initiate_chat(alice, message="hi"))
    assert [m["content"] for m in result.chat_history] == [
        "hi", "one", "go on", "two", "go on", "three", "go on", "four"
    ]
    assert console.output.count(AUTO) == 3
    assert len(console.prompts) == 1


def test_a_send_a_receive_a_generate_reply(console: ScriptedIOStream) -> None:
    alice = ConversableAgent("alice", llm_config=False, human_input_mode="NEVER")
    bob = ConversableAgent("bob", llm_config=False, human_input_mode="NEVER", default_auto_reply="auto")

    async def scenario() -> Any:
        await alice.a_send("hello", bob, request_reply=True)
        await bob.a_receive("no reply", alice, request_reply=False)
        return await bob.a_generate_reply(sender=alice)

    assert asyncio.run(scenario()) == "auto"
    assert [m["content"] for m in bob.chat_messages[alice]] == ["hello", "auto", "no reply"]
    assert [m["content"] for m in alice.chat_messages[bob]] == ["hello", "auto"]


def test_concurrent_chats_keep_their_own_console_streams(scripted_server: ScriptedOpenAIServer) -> None:
    from autogen_classic.io import IOStream

    async def one_chat(tag: str) -> tuple[str, list[str]]:
        stream = ScriptedIOStream([f"{tag}-typed", "exit"])
        with IOStream.set_default(stream):
            alice = ConversableAgent(f"alice_{tag}", llm_config=False, human_input_mode="NEVER",
                                     default_auto_reply=f"reply {tag}")
            bob = ConversableAgent(f"bob_{tag}", llm_config=False, human_input_mode="ALWAYS")
            await bob.a_initiate_chat(alice, message=f"start {tag}")
        return stream.output, stream.prompts

    async def both() -> list[tuple[str, list[str]]]:
        return list(await asyncio.gather(one_chat("x"), one_chat("y")))

    (out_x, prompts_x), (out_y, prompts_y) = asyncio.run(both())
    assert "start x" in out_x and "x-typed" in out_x and "start y" not in out_x
    assert "start y" in out_y and "y-typed" in out_y and "start x" not in out_y
    assert len(prompts_x) == len(prompts_y) == 2
