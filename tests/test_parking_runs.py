"""Parking from a run's response: ``event.content.park()`` on an input request, resumed in another process.

A consumer of ``run`` / ``run_group_chat`` events parks the request instead of answering it: the events end,
``response.parked`` says what the chat waits for, and the process may exit. A later process resumes the chat
with the person's answer, as a response again (``run_parked_group_chat`` / ``run_parked_pattern_group_chat``,
whose further requests may be parked in turn) or in one call (``resume_parked_*``). The chat at the end
equals the chat run at once with the same answers.
"""

from __future__ import annotations

import asyncio
import textwrap
from pathlib import Path
from typing import Any

import pytest

import autogen_classic as autogen
from autogen_classic.agentchat import a_run_group_chat, initiate_group_chat, run_group_chat
from autogen_classic.events.run_events import InputRequestEvent
from autogen_classic.testing.io import ScriptedIOStream

from parking_setup import CLASSIC_CASES, SETUP, build, build_pattern, run_step


STEP = SETUP + textwrap.dedent('''
    import json, sys
    from autogen_classic.agentchat import run_group_chat, run_parked_pattern_group_chat
    from autogen_classic.events.run_events import InputRequestEvent

    kind, mode, path, method = sys.argv[1:5]
    if kind == "classic":
        human, manager = build(path, method)
        if mode == "start":
            response = human.run(manager, message="write a poem", silent=True)
        else:
            response = autogen.run_parked_group_chat(manager, sys.argv[5], initiator=human)
    elif mode == "start":
        response = run_group_chat(build_pattern(), "a poem about the sea", max_rounds=9, transcript_path=path)
    else:
        response = run_parked_pattern_group_chat(build_pattern(), path, sys.argv[5], max_rounds=9)
    shown = []
    for event in response.events:
        if isinstance(event, InputRequestEvent):
            event.content.park()  # nobody answers here: the process ends
        elif getattr(event, "type", None) == "text":
            shown.append(event.content.content)
    parked = response.parked
    if parked is not None:
        print(json.dumps({"parked": parked.kind, "agent": parked.agent, "round": parked.round, "shown": shown}))
    else:
        print(json.dumps({"messages": [m["content"] for m in response.messages], "summary": response.summary,
                          "context": None if response.context_variables is None
                          else response.context_variables.to_dict(), "last": response.last_speaker}))
''')

def _classic_at_once(path: Path, method: str, answers: list[str]) -> dict[str, Any]:
    human, manager = build(str(path), method)
    with autogen.io.IOStream.set_default(ScriptedIOStream(answers)):
        result = human.initiate_chat(manager, message="write a poem", silent=True)
    manager.groupchat.close_transcript()
    return {"messages": [m["content"] for m in result.chat_history], "summary": result.summary, "context": None,
            "last": manager.last_speaker.name}


@pytest.mark.parametrize(("method", "answers", "parks"), CLASSIC_CASES)
def test_a_run_parked_from_its_events_resumes_in_other_processes_as_the_chat_run_at_once(
    tmp_path: Path, method: str, answers: list[str], parks: list[tuple[Any, ...]]
) -> None:
    script = tmp_path / "step.py"
    script.write_text(STEP)
    path = str(tmp_path / "chat.jsonl")
    seen = [run_step(script, "classic", "start", path, method)]
    seen += [run_step(script, "classic", "resume", path, method, answer) for answer in answers]
    assert [(s["parked"], s["agent"], s["round"]) for s in seen[:-1]] == parks
    if method == "round_robin":  # the consumer saw the chat up to the request as events
        assert seen[0]["shown"] == ["draft v1", "needs work"]  # the opening is silent
    assert seen[-1] == _classic_at_once(tmp_path / "whole.jsonl", method, answers)
    assert autogen.load_parked_run(path) is None


def test_a_pattern_run_parked_from_its_events_resumes_in_other_processes(tmp_path: Path) -> None:
    script = tmp_path / "step.py"
    script.write_text(STEP)
    path = str(tmp_path / "chat.jsonl")
    answers = ["shorter please", "good", "exit"]
    seen = [run_step(script, "pattern", "start", path, "-")]
    seen += [run_step(script, "pattern", "resume", path, "-", answer) for answer in answers]
    assert [(s["parked"], s["agent"], s["round"]) for s in seen[:-1]] == [
        ("human_reply", "user", 3), ("human_reply", "user", 5), ("human_reply", "user", 7)]
    with autogen.io.IOStream.set_default(ScriptedIOStream(answers)):
        result, context, last = initiate_group_chat(build_pattern(), "a poem about the sea", max_rounds=9)
    assert seen[-1] == {"messages": [m["content"] for m in result.chat_history], "summary": result.summary,
                        "context": context.to_dict(), "last": last.name}


def test_a_resumed_run_answers_further_requests_through_its_events(tmp_path: Path) -> None:
    """Parked once, resumed as a response whose next request the consumer answers: no second park."""
    path = tmp_path / "chat.jsonl"
    human, manager = build(str(path), "round_robin")
    response = human.run(manager, message="write a poem", silent=True)
    for event in response.events:
        if isinstance(event, InputRequestEvent):
            event.content.park()
    assert response.parked is not None and response.parked.round == 3
    assert (tmp_path / "chat.jsonl.parked").exists()
    human, manager = build(str(path), "round_robin")
    response = autogen.run_parked_group_chat(manager, "ok from the human", initiator=human)
    prompts = []
    for event in response.events:
        if isinstance(event, InputRequestEvent):
            prompts.append(event.content.prompt)
            event.content.respond("exit")
    manager.groupchat.close_transcript()
    assert response.parked is None and len(prompts) == 1
    whole = _classic_at_once(tmp_path / "whole.jsonl", "round_robin", ["ok from the human", "exit"])
    assert [m["content"] for m in response.messages] == whole["messages"]
    assert response.summary == whole["summary"] and response.last_speaker == whole["last"]
    assert not (tmp_path / "chat.jsonl.parked").exists()


def test_the_selection_of_a_parked_human_turn_is_kept(tmp_path: Path) -> None:
    """The speaker chosen before the human was asked is in the resumed chat's selection trace, as in one run."""
    path = tmp_path / "chat.jsonl"
    human, manager = build(str(path), "round_robin")
    parked = autogen.park_group_chat(human, manager, "write a poem", silent=True)
    assert isinstance(parked, autogen.ParkedRun)
    human, manager = build(str(path), "round_robin")
    again = autogen.resume_parked_group_chat(manager, "ok", initiator=human)
    assert isinstance(again, autogen.ParkedRun) and again.round == 6  # the human's next turn
    human_whole, whole = build(str(tmp_path / "whole.jsonl"), "round_robin")
    with autogen.io.IOStream.set_default(ScriptedIOStream(["ok", "exit"])):
        human_whole.initiate_chat(whole, message="write a poem", silent=True)
    whole_log = [record.to_dict() for record in whole.groupchat.selection_log]
    # one record per turn so far, the human's parked turn (chosen before the park) included
    assert [record.to_dict() for record in manager.groupchat.selection_log] == whole_log[:6]
    manager.groupchat.close_transcript()
    whole.groupchat.close_transcript()


def test_an_async_pattern_run_parks_from_its_events_and_resumes_as_an_async_response(tmp_path: Path) -> None:
    path = str(tmp_path / "chat.jsonl")

    async def consume(response: Any, answer: str | None) -> Any:
        async for event in response.events:
            if isinstance(event, InputRequestEvent):
                if answer is None:
                    event.content.park()
                else:
                    event.content.respond(answer)
                    answer = None
        return response

    async def main() -> tuple[Any, Any]:
        first = await consume(await a_run_group_chat(build_pattern(), "a poem about the sea", max_rounds=9,
                                                     transcript_path=path), None)
        second = await consume(autogen.agentchat.a_run_parked_pattern_group_chat(
            build_pattern(), path, "shorter please", max_rounds=9), "good")
        return first, second

    first, second = asyncio.run(main())
    assert (first.parked.kind, first.parked.agent, first.parked.round) == ("human_reply", "user", 3)
    assert (second.parked.kind, second.parked.round) == ("human_reply", 7)  # "good" answered, the next parked
    third = autogen.agentchat.resume_parked_pattern_group_chat(build_pattern(), path, "exit", max_rounds=9)
    result, context, last = third
    with autogen.io.IOStream.set_default(ScriptedIOStream(["shorter please", "good", "exit"])):
        whole, whole_context, whole_last = initiate_group_chat(build_pattern(), "a poem about the sea", max_rounds=9)
    assert [m["content"] for m in result.chat_history] == [m["content"] for m in whole.chat_history]
    assert context.to_dict() == whole_context.to_dict() and last.name == whole_last.name


def test_a_request_that_cannot_park_says_so_and_stays_open(tmp_path: Path) -> None:
    """Without a transcript the request refuses to park (naming the fix) and is still answered normally."""
    human, manager = build(None, "round_robin")
    response = human.run(manager, message="write a poem", silent=True)
    errors = []
    for event in response.events:
        if isinstance(event, InputRequestEvent):
            with pytest.raises(RuntimeError, match="transcript_path='chat.jsonl'") as caught:
                event.content.park()
            errors.append(str(caught.value))
            event.content.respond("exit")
    assert len(errors) == 1 and response.parked is None
    assert response.summary == "exit" or response.messages[-1]["content"] == "needs work"


def test_a_request_is_answered_or_parked_once(tmp_path: Path) -> None:
    human, manager = build(str(tmp_path / "chat.jsonl"), "round_robin")
    response = run_group_chat(build_pattern(), "a poem about the sea", max_rounds=9,
                              transcript_path=tmp_path / "pattern.jsonl")
    for event in response.events:
        if isinstance(event, InputRequestEvent):
            assert event.content.respond.can_park
            event.content.park()
            with pytest.raises(RuntimeError, match="already answered"):
                event.content.respond("too late")
            with pytest.raises(RuntimeError, match="already answered"):
                event.content.park()
    assert response.parked is not None and response.summary is None
    manager.groupchat.close_transcript()
    # a request built by hand (no run's stream) cannot park
    with pytest.raises(RuntimeError, match="did not come from a run's stream"):
        InputRequestEvent(prompt="?").content.park()


def test_a_resumed_chat_counts_the_model_usage_of_the_part_before_the_park(
    tmp_path: Path, scripted_server: Any
) -> None:
    """Usage is checkpointed: after a park and a resume in fresh agents, the cost is the whole run's."""
    from autogen_classic.testing.scripted_server import ScriptedReply

    def build_with_model(path: Path) -> tuple[Any, Any, Any]:
        human = autogen.UserProxyAgent("human", human_input_mode="ALWAYS", code_execution_config=False)
        poet = autogen.AssistantAgent("poet", llm_config={**scripted_server.llm_config(), "cache_seed": None})
        groupchat = autogen.GroupChat(agents=[human, poet], messages=[], max_round=6,
                                      speaker_selection_method="round_robin", transcript_path=str(path))
        return human, poet, autogen.GroupChatManager(groupchat=groupchat, llm_config=False)

    for _ in range(2):  # one reply for the parked run, one for the run at once
        scripted_server.add_reply(ScriptedReply("roses are red",
                                                usage={"prompt_tokens": 11, "completion_tokens": 7}))
    human, poet, manager = build_with_model(tmp_path / "chat.jsonl")
    parked = autogen.park_group_chat(human, manager, "a poem", silent=True)
    assert isinstance(parked, autogen.ParkedRun) and parked.agent == "human"
    human, poet, manager = build_with_model(tmp_path / "chat.jsonl")  # as a new process would
    autogen.resume_parked_group_chat(manager, "exit", initiator=human)
    resumed = autogen.gather_usage_summary([poet])
    manager.groupchat.close_transcript()

    human, poet, manager = build_with_model(tmp_path / "whole.jsonl")
    with autogen.io.IOStream.set_default(ScriptedIOStream(["exit"])):
        human.initiate_chat(manager, message="a poem", silent=True)
    manager.groupchat.close_transcript()
    whole = autogen.gather_usage_summary([poet])
    assert resumed == whole
    assert whole["usage_including_cached_inference"]["total_cost"] >= 0
    model_usage = [v for k, v in whole["usage_including_cached_inference"].items() if k != "total_cost"]
    assert model_usage and model_usage[0]["total_tokens"] == 18


def test_a_tool_approval_parks_and_the_answer_runs_the_tool(tmp_path: Path, scripted_server: Any) -> None:
    """A tool call waits for the person's approval (the executing agent asks its human): parked from the run's
    events, resumed with "" (approve: the auto reply runs the tool), it ends as the chat run at once."""
    from autogen_classic.testing.scripted_server import ScriptedReply

    def responder(body: dict[str, Any]) -> ScriptedReply:
        if body["messages"][-1]["role"] == "tool":
            return ScriptedReply(content="The sum is 5. TERMINATE")
        return ScriptedReply(tool_calls=[{"name": "add", "arguments": {"a": 2, "b": 3}, "id": "c1"}])

    scripted_server.set_responder(responder)

    def build_tools(path: Path) -> tuple[Any, Any]:
        alice = autogen.AssistantAgent("alice", llm_config={**scripted_server.llm_config(), "cache_seed": None})
        bob = autogen.UserProxyAgent("bob", human_input_mode="ALWAYS", code_execution_config=False)

        @bob.register_for_execution()
        @alice.register_for_llm(description="Add two numbers")
        def add(a: int, b: int) -> int:
            return a + b

        groupchat = autogen.GroupChat(agents=[bob, alice], messages=[], max_round=6,
                                      speaker_selection_method="round_robin", transcript_path=str(path))
        return bob, autogen.GroupChatManager(groupchat=groupchat, llm_config=False)

    bob, manager = build_tools(tmp_path / "chat.jsonl")
    response = bob.run(manager, message="Add 2 and 3.", silent=True)
    for event in response.events:
        if isinstance(event, InputRequestEvent):
            event.content.park()
    parked = response.parked
    assert (parked.kind, parked.agent, parked.round) == ("human_reply", "bob", 2)
    assert autogen.load_transcript(tmp_path / "chat.jsonl")[-1]["tool_calls"][0]["function"]["name"] == "add"

    bob, manager = build_tools(tmp_path / "chat.jsonl")
    again = autogen.resume_parked_group_chat(manager, "", initiator=bob)  # approved: the tool runs
    assert isinstance(again, autogen.ParkedRun) and again.round == 4  # bob's next turn, after alice's answer
    bob, manager = build_tools(tmp_path / "chat.jsonl")
    result = autogen.resume_parked_group_chat(manager, "exit", initiator=bob)
    resumed = [(m.get("name"), m.get("content")) for m in manager.groupchat.messages]
    manager.groupchat.close_transcript()
    bob, whole = build_tools(tmp_path / "whole.jsonl")
    with autogen.io.IOStream.set_default(ScriptedIOStream(["", "exit"])):
        at_once = bob.initiate_chat(whole, message="Add 2 and 3.", silent=True)
    whole.groupchat.close_transcript()
    assert resumed == [(m.get("name"), m.get("content")) for m in whole.groupchat.messages]
    assert ("bob", "5") in resumed and result.summary == at_once.summary and "The sum is 5." in result.summary


def test_a_step_by_step_run_parks_too(tmp_path: Path) -> None:
    """``run_iter``: the consumer steps to the human's request and parks it; the iteration ends there."""
    human, manager = build(str(tmp_path / "chat.jsonl"), "round_robin")
    response = human.run_iter(manager, message="write a poem")
    seen = []
    for event in response:
        seen.append(type(event).__name__)
        if isinstance(event, InputRequestEvent):
            event.content.park()
    assert seen[-1] == "InputRequestEvent" and response.parked.round == 3
    human, manager = build(str(tmp_path / "chat.jsonl"), "round_robin")
    assert isinstance(autogen.resume_parked_group_chat(manager, "ok", initiator=human), autogen.ParkedRun)
    manager.groupchat.close_transcript()


def test_a_step_by_step_pattern_run_parks_and_resumes(tmp_path: Path) -> None:
    """``run_group_chat_iter(..., transcript_path=...)``: the iteration ends at the parked request; the chat is
    resumed in one call and ends as the chat run at once."""
    from autogen_classic.agentchat import resume_parked_pattern_group_chat, run_group_chat_iter

    path = tmp_path / "chat.jsonl"
    response = run_group_chat_iter(build_pattern(), "a poem about the sea", max_rounds=9, transcript_path=path)
    for event in response:
        if isinstance(event, InputRequestEvent):
            event.content.park()
    assert (response.parked.kind, response.parked.agent, response.parked.round) == ("human_reply", "user", 3)
    outcome: Any = None
    for answer in ["shorter please", "good", "exit"]:
        outcome = resume_parked_pattern_group_chat(build_pattern(), path, answer, max_rounds=9)
    result, context, last = outcome
    with autogen.io.IOStream.set_default(ScriptedIOStream(["shorter please", "good", "exit"])):
        whole, whole_context, whole_last = initiate_group_chat(build_pattern(), "a poem about the sea", max_rounds=9)
    assert [m["content"] for m in result.chat_history] == [m["content"] for m in whole.chat_history]
    assert context.to_dict() == whole_context.to_dict() and last.name == whole_last.name
