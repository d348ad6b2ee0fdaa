"""The "auto" selector's nested chat run directly, against the classic nested chat it stands for.

When nothing can observe the checking agent and the speaker selection agent, their turns run without
sending each message from one to the other (``selection/direct_turns.py``). Every chat here runs twice
against the scripted server, with the direct turns on and off, and must give the same model requests
(the bodies the server received), the same transcript, the same selection log and the same console
output, sync and async. The tests also check when the direct turns are (not) taken.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Callable

import pytest

from autogen_classic import ConversableAgent, GroupChat, GroupChatManager
from autogen_classic import runtime_logging
from autogen_classic.agentchat.contrib.capabilities import transform_messages, transforms
from autogen_classic.agentchat.groupchat.selection.auto import SpeakerSelectorChat
from autogen_classic.agentchat.groupchat.selection.direct_turns import DirectTurns
from autogen_classic.agentchat.groupchat.selection.trace import selection_log_to_json
from autogen_classic.io import IOStream
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer
from console_masks import mask_run_ids

NAMES = ("alice", "bob", "carol", "dave")
# One answer per selector request, in order: a clear name, two names (a follow-up prompt), no name
# (a retry prompt), a name that is not a candidate, and answers that never settle (retries run out).
ANSWERS = [
    "carol",
    "alice or bob", "bob",
    "nobody yet", "dave",
    "I choose zed", "alice",
    "?", "?", "?",
    "bob and carol", "carol",
    "dave",
]


def team() -> list[ConversableAgent]:
    return [
        ConversableAgent(name, llm_config=False, human_input_mode="NEVER", description=f"{name} helps",
                         default_auto_reply=f"{name} says hello.")
        for name in NAMES
    ]


def answer_in_turn(answers: list[str]) -> Callable[[dict[str, Any]], str]:
    queue = list(answers)
    return lambda body: queue.pop(0) if queue else "alice"


Run = dict[str, Any]


def run_chat(server: ScriptedOpenAIServer, direct: bool, monkeypatch: pytest.MonkeyPatch, *, use_async: bool = False,
             answers: list[str] = ANSWERS, max_round: int = 8, **group_kwargs: Any) -> Run:
    """One whole group chat on the scripted server; what a user could observe of it."""
    server.reset()
    server.set_responder(answer_in_turn(answers))
    monkeypatch.setattr(SpeakerSelectorChat, "_direct_turns", direct)
    agents = team()
    group_kwargs.setdefault("max_retries_for_selecting_speaker", 2)
    groupchat = GroupChat(agents=agents, messages=[], max_round=max_round, **group_kwargs)
    manager = GroupChatManager(groupchat, llm_config=server.llm_config())
    console = ScriptedIOStream()
    taken: list[str] = []
    original = DirectTurns.turns

    def spy(self: DirectTurns, *args: Any) -> Any:
        taken.append("direct")
        return original(self, *args)

    monkeypatch.setattr(DirectTurns, "turns", spy)
    with IOStream.set_default(console):
        if use_async:
            asyncio.run(agents[0].a_initiate_chat(manager, message="Plan the trip.", summary_method="last_msg"))
        else:
            agents[0].initiate_chat(manager, message="Plan the trip.", summary_method="last_msg")
    return {
        "requests": json.loads(json.dumps(server.requests)),
        "transcript": [dict(m) for m in groupchat.messages],
        "selection_log": selection_log_to_json(groupchat.selection_log),
        "console": mask_run_ids(console.output),
        "direct_turns": len(taken),
    }


def same_chat(first: Run, second: Run) -> None:
    for key in ("requests", "transcript", "selection_log", "console"):
        assert first[key] == second[key], key


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_direct_turns_give_the_same_chat(scripted_server: ScriptedOpenAIServer, monkeypatch: pytest.MonkeyPatch,
                                         use_async: bool) -> None:
    nested = run_chat(scripted_server, False, monkeypatch, use_async=use_async)
    direct = run_chat(scripted_server, True, monkeypatch, use_async=use_async)
    same_chat(nested, direct)
    assert nested["direct_turns"] == 0 and direct["direct_turns"] == 7  # one per selection
    # The chat did exercise every kind of answer: follow-ups, retries and a fallback.
    reasons = [record["reason"] for record in json.loads(direct["selection_log"])]
    assert len(reasons) == 7
    assert any("fall" in reason or "next" in reason for reason in reasons), reasons
    prompts = [body["messages"][-1]["content"] for body in direct["requests"]]
    assert len(prompts) == len(ANSWERS)
    assert sum("more than one" in p.lower() or "only one" in p.lower() for p in prompts) >= 2, prompts
    # The speakers follow the answers: carol, then bob (after the follow-up), then dave (after a retry).
    assert [m.get("name") for m in direct["transcript"][1:4]] == ["carol", "bob", "dave"]


def test_sync_and_async_direct_turns_agree(scripted_server: ScriptedOpenAIServer,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    same_chat(run_chat(scripted_server, True, monkeypatch), run_chat(scripted_server, True, monkeypatch, use_async=True))


@pytest.mark.parametrize(
    "group_kwargs",
    [
        {"role_for_select_speaker_messages": "system"},
        {"select_speaker_prompt_template": None},
        {"select_speaker_message_template": "Pick from {agentlist}. Roles: {roles}"},
        {"select_speaker_transform_messages": transform_messages.TransformMessages(
            transforms=[transforms.MessageHistoryLimiter(max_messages=2)])},
        {"allow_repeat_speaker": False},
        {"max_retries_for_selecting_speaker": 0},
    ],
    ids=["system-role", "no-prompt", "own-template", "transforms", "no-repeat", "no-retries"],
)
def test_direct_turns_with_the_selector_settings(scripted_server: ScriptedOpenAIServer,
                                                 monkeypatch: pytest.MonkeyPatch, group_kwargs: dict) -> None:
    nested = run_chat(scripted_server, False, monkeypatch, max_round=5, **group_kwargs)
    direct = run_chat(scripted_server, True, monkeypatch, max_round=5, **group_kwargs)
    same_chat(nested, direct)
    assert direct["direct_turns"] == 4


# ----------------------------------------------------------------- when the nested chat is observable
def test_verbose_selection_runs_the_nested_chat(scripted_server: ScriptedOpenAIServer,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    nested = run_chat(scripted_server, False, monkeypatch, max_round=4, select_speaker_auto_verbose=True)
    direct = run_chat(scripted_server, True, monkeypatch, max_round=4, select_speaker_auto_verbose=True)
    same_chat(nested, direct)
    assert direct["direct_turns"] == 0
    assert "speaker_selection_agent" in direct["console"]  # the nested chat is printed


def test_runtime_logging_runs_the_nested_chat(scripted_server: ScriptedOpenAIServer, monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Any) -> None:
    monkeypatch.setattr(runtime_logging, "autogen_logger", None)  # restored afterwards, as a fresh import has it
    runtime_logging.start(logger_type="file", config={"filename": str(tmp_path / "runtime.log")})
    try:
        run = run_chat(scripted_server, True, monkeypatch, max_round=4)
    finally:
        runtime_logging.stop()
    assert run["direct_turns"] == 0
    assert "speaker_selection_agent" in (tmp_path / "runtime.log").read_text()  # the nested chat was logged
    assert run["requests"] == run_chat(scripted_server, True, monkeypatch, max_round=4)["requests"]


def test_a_hook_on_the_selector_runs_the_nested_chat(scripted_server: ScriptedOpenAIServer,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []
    original_init = SpeakerSelectorChat.__init__

    def with_hook(self: SpeakerSelectorChat, *args: Any, **kwargs: Any) -> None:
        original_init(self, *args, **kwargs)

        def record(sender: Any, message: Any, recipient: Any, silent: bool) -> Any:
            seen.append(message)
            return message

        self.speaker_selection_agent.register_hook("process_message_before_send", record)

    monkeypatch.setattr(SpeakerSelectorChat, "__init__", with_hook)
    run = run_chat(scripted_server, True, monkeypatch, max_round=4)
    assert run["direct_turns"] == 0
    assert seen and seen[0] == "carol"  # the hook saw the selector's first answer


def test_a_failed_model_call_leaves_the_selector_ready(scripted_server: ScriptedOpenAIServer,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """An endpoint error in a direct turn propagates as in the nested chat, and the next selection works."""
    outcomes = []
    for direct in (False, True):
        scripted_server.reset()
        monkeypatch.setattr(SpeakerSelectorChat, "_direct_turns", direct)
        agents = team()
        groupchat = GroupChat(agents=agents, messages=[{"role": "user", "name": "alice", "content": "Plan it."}],
                              max_round=4)
        manager = GroupChatManager(groupchat, llm_config={**scripted_server.llm_config(), "max_retries": 0})
        # No reply scripted: the server answers HTTP 500.
        with pytest.raises(Exception) as failure:
            groupchat.select_speaker(agents[0], manager)
        scripted_server.add_reply("dave")
        chosen = groupchat.select_speaker(agents[0], manager)
        outcomes.append((type(failure.value), chosen.name, json.loads(json.dumps(scripted_server.requests))))
    assert outcomes[0] == outcomes[1]
    assert outcomes[1][1] == "dave"
