"""Parking a group chat at an input request and resuming it with the answer, in other processes.

Each step of a parked chat runs in a fresh Python process (the one before has exited): the chat parks at a
human reply or a manual speaker selection, and a later process resumes it with the answer. The messages and
summary at the end equal those of the same chat run at once with a console typing the same answers.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

import autogen_classic as autogen
from autogen_classic.agentchat.groupchat.parking import (
    ParkedRun,
    load_parked_run,
    park_group_chat,
    resume_parked_group_chat,
)
from autogen_classic.testing.io import ScriptedIOStream

from parking_setup import CLASSIC_CASES, SETUP, build, build_pattern, run_step


STEP = SETUP + textwrap.dedent('''
    import json, sys
    from autogen_classic.agentchat.groupchat.parking import ParkedRun, park_group_chat, resume_parked_group_chat

    mode, path, method = sys.argv[1:4]
    human, manager = build(path, method)
    if mode == "park":
        out = park_group_chat(human, manager, "write a poem", silent=True)
    else:
        out = resume_parked_group_chat(manager, sys.argv[4], initiator=human)
    if isinstance(out, ParkedRun):
        print(json.dumps({"parked": out.kind, "agent": out.agent, "round": out.round}))
    else:
        print(json.dumps({"messages": [m["content"] for m in manager.groupchat.messages], "summary": out.summary}))
''')

def _at_once(path: Path, method: str, answers: list[str]) -> dict[str, Any]:
    human, manager = build(str(path), method)
    with autogen.io.IOStream.set_default(ScriptedIOStream(answers)):
        result = human.initiate_chat(manager, message="write a poem", silent=True)
    manager.groupchat.close_transcript()
    return {"messages": [m["content"] for m in manager.groupchat.messages], "summary": result.summary}


@pytest.mark.parametrize(("method", "answers", "parks"), CLASSIC_CASES)
def test_a_parked_chat_resumed_in_other_processes_ends_as_a_chat_run_at_once(
    tmp_path: Path, method: str, answers: list[str], parks: list[tuple[Any, ...]]
) -> None:
    script = tmp_path / "step.py"
    script.write_text(STEP)
    path = str(tmp_path / "chat.jsonl")
    seen = [run_step(script, "park", path, method)]
    for answer in answers:
        seen.append(run_step(script, "resume", path, method, answer))
    assert [(s["parked"], s["agent"], s["round"]) for s in seen[:-1]] == parks
    assert seen[-1] == _at_once(tmp_path / "whole.jsonl", method, answers)
    assert load_parked_run(path) is None  # the request is gone once answered for good


def test_parking_needs_a_transcript_and_refuses_a_wrong_or_late_answer(tmp_path: Path) -> None:
    writer = autogen.ConversableAgent("writer", llm_config=False, human_input_mode="NEVER")
    manager = autogen.GroupChatManager(autogen.GroupChat(agents=[writer], messages=[]), llm_config=False)
    with pytest.raises(ValueError, match="transcript_path='chat.jsonl'"):
        park_group_chat(writer, manager, "hi")

    path = tmp_path / "chat.jsonl"
    human, manager = build(str(path), "round_robin")
    parked = park_group_chat(human, manager, "write a poem", silent=True)
    assert isinstance(parked, ParkedRun) and (parked.kind, parked.agent, parked.round) == ("human_reply", "human", 3)
    assert load_parked_run(path) == parked and "Provide feedback" in parked.prompt
    human, manager = build(str(path), "round_robin")
    with pytest.raises(TypeError, match="answer must be a str"):
        resume_parked_group_chat(manager, 3)  # type: ignore[arg-type]
    manager.groupchat.close_transcript()
    # the transcript went on without the answer: refused, nothing changed
    with open(path, "a", encoding="utf-8") as file:
        file.write(json.dumps({"content": "more", "role": "user", "name": "writer", "index": 3}) + "\n")
    human, manager = build(str(path), "round_robin")
    with pytest.raises(ValueError, match="holds 4 messages but the chat parked at 3"):
        resume_parked_group_chat(manager, "ok")
    manager.groupchat.close_transcript()
    (tmp_path / "chat.jsonl.parked").unlink()
    human, manager = build(str(path), "round_robin")
    with pytest.raises(ValueError, match="is not parked"):
        resume_parked_group_chat(manager, "ok")
    manager.groupchat.close_transcript()
    (tmp_path / "bad.jsonl.parked").write_text("{not json")
    with pytest.raises(ValueError, match="is not a parked request"):
        load_parked_run(tmp_path / "bad.jsonl")


def test_an_answer_for_another_request_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    human, manager = build(str(path), "manual")
    parked = park_group_chat(human, manager, "write a poem", silent=True)
    assert isinstance(parked, ParkedRun) and parked.kind == "speaker_selection"
    human, manager = build(str(path), "round_robin")  # rebuilt differently: the next request is the human's reply
    with pytest.raises(ValueError, match="asks for a human_reply .human., but the answer given is for the parked "
                                         "speaker_selection"):
        resume_parked_group_chat(manager, "critic")



PATTERN_STEP = SETUP + textwrap.dedent('''
    import json, sys
    from autogen_classic.agentchat import park_pattern_group_chat, resume_parked_pattern_group_chat
    from autogen_classic.agentchat.groupchat.parking import ParkedRun

    mode, path = sys.argv[1:3]
    if mode == "park":
        out = park_pattern_group_chat(build_pattern(), "a poem about the sea", path, max_rounds=9)
    else:
        out = resume_parked_pattern_group_chat(build_pattern(), path, sys.argv[3], max_rounds=9)
    if isinstance(out, ParkedRun):
        print(json.dumps({"parked": out.kind, "agent": out.agent, "round": out.round}))
    else:
        result, context, last = out
        print(json.dumps({"messages": [m["content"] for m in result.chat_history], "summary": result.summary,
                          "context": context.to_dict(), "last": last.name}))
''')


def test_a_parked_pattern_chat_resumed_in_other_processes_ends_as_a_chat_run_at_once(tmp_path: Path) -> None:
    from autogen_classic.agentchat import initiate_group_chat

    script = tmp_path / "pattern_step.py"
    script.write_text(PATTERN_STEP)
    path = str(tmp_path / "chat.jsonl")
    answers = ["shorter please", "good", "exit"]
    seen = [run_step(script, "park", path)] + [run_step(script, "resume", path, answer) for answer in answers]
    # after each reply of the user the critic speaks again, then the user is asked (as in the chat run at once)
    assert [(s["parked"], s["agent"], s["round"]) for s in seen[:-1]] == [("human_reply", "user", 3),
                                                                          ("human_reply", "user", 5),
                                                                          ("human_reply", "user", 7)]
    with autogen.io.IOStream.set_default(ScriptedIOStream(answers)):
        result, context, last = initiate_group_chat(build_pattern(), "a poem about the sea", max_rounds=9)
    assert seen[-1] == {"messages": [m["content"] for m in result.chat_history], "summary": result.summary,
                        "context": context.to_dict(), "last": last.name}


def test_a_chat_parks_over_websockets_and_a_later_connection_answers_it(tmp_path: Path) -> None:
    """Each connection runs the chat only while it has something to do: the first parks at the human's turn
    and ends; a later one, carrying the person's answer, resumes from the files. No thread waits between them."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from autogen_classic.io import IOWebsockets

    path = str(tmp_path / "chat.jsonl")

    def on_connect(iostream: IOWebsockets) -> None:
        request = json.loads(iostream.websocket.recv())
        human, manager = build(path, "round_robin")
        if request["answer"] is None:
            outcome = park_group_chat(human, manager, request["task"], silent=True)
        else:
            outcome = resume_parked_group_chat(manager, request["answer"], initiator=human)
        if isinstance(outcome, ParkedRun):
            iostream.websocket.send(json.dumps({"parked": outcome.kind, "agent": outcome.agent, "prompt": outcome.prompt}))
        else:
            iostream.websocket.send(json.dumps({"summary": outcome.summary}))

    def exchange(uri: str, request: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        received = []
        with connect(uri) as ws:
            ws.send(json.dumps(request))
            try:
                while True:
                    received.append(json.loads(ws.recv(timeout=30)))
            except ConnectionClosed:
                pass
        return received[:-1], received[-1]

    with IOWebsockets.run_server_in_thread(on_connect=on_connect, port=0) as uri:
        shown, outcome = exchange(uri, {"task": "write a poem", "answer": None})
        assert outcome["parked"] == "human_reply" and outcome["agent"] == "human"
        assert "Provide feedback" in outcome["prompt"]
        # the client saw the chat so far as events: the writer's and the critic's messages (the opening is silent)
        said = [e["content"]["content"] for e in shown if e.get("type") == "text"]
        assert said == ["draft v1", "needs work"]
        shown, outcome = exchange(uri, {"answer": "ok from the human"})
        assert outcome["parked"] == "human_reply"
        shown, outcome = exchange(uri, {"answer": "exit"})
    assert outcome == {"summary": _at_once(tmp_path / "whole.jsonl", "round_robin", ["ok from the human", "exit"])["summary"]}
    assert [m["content"] for m in autogen.load_transcript(path)] == _at_once(
        tmp_path / "again.jsonl", "round_robin", ["ok from the human", "exit"])["messages"]
