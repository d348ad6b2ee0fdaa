"""A group chat stores each forwarded message once; every history still reads and edits as its own.

The recorded key ``data/history_edits_autogen_0141.json`` is what AG2 Classic 0.14.1 holds after the
scenario of :func:`_edits_scenario` (a round_robin chat with a ``process_last_received_message`` hook,
a ``process_all_messages_before_reply`` hook editing in place, and a script editing one history).
"""

from __future__ import annotations

import asyncio
import copy
import json
import pickle
from pathlib import Path
from typing import Any

import autogen_classic as autogen
from autogen_classic.agentchat.conversable.history import History, SharedMessage, last_of, own, peek
from autogen_classic.testing.io import ScriptedIOStream

REFERENCE = Path(__file__).parent / "data" / "history_edits_autogen_0141.json"


def _agent(name: str) -> autogen.ConversableAgent:
    return autogen.ConversableAgent(name, llm_config=False, human_input_mode="NEVER", default_auto_reply=f"from {name}")


def _group(n: int = 4, max_round: int = 6) -> tuple[list[autogen.ConversableAgent], autogen.GroupChat, Any]:
    agents = [_agent(name) for name in "abcdefgh"[:n]]
    groupchat = autogen.GroupChat(agents=agents, messages=[], max_round=max_round, speaker_selection_method="round_robin")
    return agents, groupchat, autogen.GroupChatManager(groupchat=groupchat, llm_config=False)


def _raw(history: list[Any]) -> list[Any]:
    return list.__getitem__(history, slice(None))  # the stored objects, none taken out


def _edits_scenario() -> dict[str, Any]:
    (a, b, c, d), groupchat, manager = _group()
    c.register_hook("process_last_received_message", lambda text: text.upper())

    def d_edit(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        messages[-1]["content"] = messages[-1]["content"] + " (seen by d)"
        return messages

    d.register_hook("process_all_messages_before_reply", d_edit)
    result = a.initiate_chat(manager, message="hello", silent=True)
    b.chat_messages[manager][-1]["content"] = "edited in b"
    return {
        "groupchat": groupchat.messages,
        "chat_history": result.chat_history,
        **{f"{x.name}<-m": x.chat_messages[manager] for x in (a, b, c, d)},
        **{f"m<-{x.name}": manager.chat_messages[x] for x in (a, b, c, d)},
        "summary_a": a.chat_messages_for_summary(manager),
    }


def test_hooks_and_in_place_edits_change_one_history_as_in_the_reference(console: ScriptedIOStream) -> None:
    ours = json.loads(json.dumps(_edits_scenario()))
    assert ours == json.loads(REFERENCE.read_text())
    # the edit made through b's history shows there only
    assert ours["b<-m"][-1]["content"] == "edited in b"
    assert ours["a<-m"][-1]["content"] == "from b"
    # c's hook rewrote c's stored copy of the message it replied to, and no one else's
    assert any(m["content"] == "FROM B" for m in ours["c<-m"])
    assert not any(m["content"] == "FROM B" for key, h in ours.items() if key != "c<-m" for m in h)


def test_a_forwarded_message_is_one_object_in_every_receiver(console: ScriptedIOStream) -> None:
    agents, groupchat, manager = _group(n=6, max_round=12)
    agents[0].initiate_chat(manager, message="hello", silent=True)
    receivers = [agent for agent in agents if agent is not agents[1]]
    # the 3rd message (agents[1]'s reply), as each receiver and the manager's copy for each of them store it
    stored = [_raw(agent.chat_messages[manager])[1] for agent in receivers]
    sent = [_raw(manager.chat_messages[agent])[1] for agent in receivers]
    assert len({id(m) for m in stored}) == 1 and type(stored[0]) is SharedMessage
    assert len({id(m) for m in sent}) == 1 and type(sent[0]) is SharedMessage
    assert stored[0] == {"content": "from b", "name": "b", "role": "user"}
    assert sent[0] == {"content": "from b", "name": "b", "role": "assistant"}
    # read through the history, each is a plain dict of its own, kept in place
    first = receivers[0].chat_messages[manager][1]
    assert type(first) is dict and first == stored[0] and first is not stored[0]
    assert receivers[0].chat_messages[manager][1] is first
    assert _raw(receivers[1].chat_messages[manager])[1] is stored[0]


def test_histories_serialise_and_copy_as_plain_lists_of_dicts(console: ScriptedIOStream) -> None:
    agents, groupchat, manager = _group()
    agents[0].initiate_chat(manager, message="hello", silent=True)
    history = agents[2].chat_messages[manager]
    assert isinstance(history, list) and type(history) is History
    expected = [dict(m) for m in _raw(history)]
    assert json.loads(json.dumps(history)) == expected
    assert all(type(m) is dict for m in pickle.loads(pickle.dumps(history)))
    assert all(type(m) is dict for m in copy.deepcopy(history)) and copy.deepcopy(history) == expected
    shallow = history.copy()
    assert type(shallow) is list and shallow == expected
    shallow[-1]["content"] = "through the copy"  # a shallow copy shares the dicts, as a list's does
    assert history[-1]["content"] == "through the copy"
    assert agents[3].chat_messages[manager][-1]["content"] != "through the copy"
    assert [m["content"] for m in reversed(history)] == [m["content"] for m in history][::-1]
    assert history[1:3] == expected[1:3] and all(type(m) is dict for m in history[1:3])
    popped = history.pop()
    assert type(popped) is dict and popped["content"] == "through the copy"


def test_helpers_read_without_taking_out() -> None:
    shared = SharedMessage(content="x", role="user")
    history = History([shared])
    assert peek(history, 0) is shared and last_of(history) is shared and last_of(History()) is None
    assert type(own(shared)) is dict and own(shared) == shared
    plain = {"content": "y"}
    assert own(plain) is plain and peek([plain], -1) is plain
    assert type(history[0]) is dict and peek(history, 0) is not shared


def test_clear_history_of_one_agent_and_of_all(console: ScriptedIOStream) -> None:
    agents, groupchat, manager = _group()
    agents[0].initiate_chat(manager, message="hello", silent=True)
    before = [m["content"] for m in agents[2].chat_messages[manager]]
    agents[1].clear_history(manager)
    assert agents[1].chat_messages[manager] == []
    assert [m["content"] for m in agents[2].chat_messages[manager]] == before
    agents[2].clear_history(nr_messages_to_preserve=2)
    kept = agents[2].chat_messages[manager]
    assert type(kept) is History and [m["content"] for m in kept] == before[-2:]
    for agent in agents:
        agent.clear_history()
    manager.clear_history()
    agents[0].initiate_chat(manager, message="again", silent=True)
    assert [m["content"] for m in agents[3].chat_messages[manager]][0] == "again"


def test_resume_continues_on_shared_histories(console: ScriptedIOStream) -> None:
    agents, groupchat, manager = _group(max_round=4)
    agents[0].initiate_chat(manager, message="hello", silent=True)
    saved = json.loads(json.dumps(groupchat.messages))
    agents2, groupchat2, manager2 = _group(max_round=8)
    last_agent, last_message = manager2.resume(messages=saved)
    assert last_agent.name == saved[-1]["name"]
    last_agent.initiate_chat(manager2, message=last_message, clear_history=False, silent=True)
    assert [m["content"] for m in groupchat2.messages][: len(saved)] == [m["content"] for m in saved]
    assert len(groupchat2.messages) > len(saved)
    history = agents2[2].chat_messages[manager2]
    assert type(history) is History
    assert [m["content"] for m in history][-1] == groupchat2.messages[-1]["content"]


def test_async_group_chat_shares_too(console: ScriptedIOStream) -> None:
    agents, groupchat, manager = _group()

    async def run() -> None:
        await agents[0].a_initiate_chat(manager, message="hello", silent=True)

    asyncio.run(run())
    stored = {id(_raw(agent.chat_messages[manager])[1]) for agent in agents if agent is not agents[1]}
    assert len(stored) == 1
    assert [m["content"] for m in agents[2].chat_messages[manager]][:2] == ["hello", "from b"]


def test_transform_messages_changes_only_the_request(console: ScriptedIOStream) -> None:
    from autogen_classic.agentchat.contrib.capabilities import transform_messages, transforms

    agents, groupchat, manager = _group()
    seen: list[list[str]] = []

    def record(recipient: Any, messages: Any, sender: Any, config: Any) -> tuple[bool, Any]:
        seen.append([m["content"] for m in messages])
        return False, None

    agents[2].register_reply([autogen.Agent, None], record, position=0)
    capability = transform_messages.TransformMessages(transforms=[transforms.MessageHistoryLimiter(max_messages=1)])
    capability.add_to_agent(agents[2])
    agents[0].initiate_chat(manager, message="hello", silent=True)
    assert seen and all(len(contents) == 1 for contents in seen)
    assert len(agents[2].chat_messages[manager]) > 1
    assert [m["content"] for m in agents[3].chat_messages[manager]][:2] == ["hello", "from b"]


def test_pattern_chat_histories_share_forwarded_messages(console: ScriptedIOStream) -> None:
    from autogen_classic.agentchat.group.multi_agent_chat import initiate_group_chat
    from autogen_classic.agentchat.group.patterns import RoundRobinPattern

    agents = [_agent(name) for name in "abcd"]
    user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False)
    pattern = RoundRobinPattern(initial_agent=agents[0], agents=agents, user_agent=user, group_manager_args={"llm_config": False})
    result, context, last = initiate_group_chat(pattern=pattern, messages="hello", max_rounds=6)
    manager = next(iter(agents[0].chat_messages))
    # the reply of agents[0] reached the others once
    ids = {id(_raw(agent.chat_messages[manager])[1]) for agent in agents[1:]}
    assert len(ids) == 1
    assert [m["content"] for m in result.chat_history][:2] == ["hello", "from a"]


NESTED_RESUME_REFERENCE = Path(__file__).parent / "data" / "history_nested_resume_autogen_0141.json"


def _nested_transform_clear_resume_scenario() -> dict[str, Any]:
    from autogen_classic.agentchat.contrib.capabilities import transform_messages, transforms

    def make(name: str, reply: str) -> autogen.ConversableAgent:
        return autogen.ConversableAgent(name, llm_config=False, human_input_mode="NEVER", default_auto_reply=reply)

    a, b, c, d = make("a", "from a"), make("b", "from b"), make("c", "from c"), make("d", "from d")
    inner1, inner2 = make("inner1", "inner says hi"), make("inner2", "inner2 answers")
    b.register_nested_chats(
        [{"recipient": inner2, "sender": inner1, "summary_method": "last_msg", "max_turns": 1}],
        trigger=lambda sender: sender is not None and sender.name == "chat_manager",
    )
    transform_messages.TransformMessages(transforms=[transforms.MessageHistoryLimiter(max_messages=2)]).add_to_agent(c)
    groupchat = autogen.GroupChat(agents=[a, b, c, d], messages=[], max_round=7, speaker_selection_method="round_robin")
    manager = autogen.GroupChatManager(groupchat=groupchat, llm_config=False)
    a.initiate_chat(manager, message="hello", silent=True)
    out: dict[str, Any] = {
        "first": groupchat.messages, **{f"{x.name}<-m": x.chat_messages[manager] for x in (a, b, c, d)},
        "inner1<-inner2": inner1.chat_messages[inner2], "inner2<-inner1": inner2.chat_messages[inner1],
    }
    a.clear_history(manager)
    d.clear_history(nr_messages_to_preserve=2)
    out["a_cleared"], out["d_kept"] = a.chat_messages[manager], d.chat_messages[manager]
    a2, b2, c2, d2 = (make(name, f"again {name}") for name in "abcd")
    groupchat2 = autogen.GroupChat(agents=[a2, b2, c2, d2], messages=[], max_round=10, speaker_selection_method="round_robin")
    manager2 = autogen.GroupChatManager(groupchat=groupchat2, llm_config=False)
    manager2.resume(messages=json.loads(json.dumps(groupchat.messages)))
    out["resumed_b"], out["resumed_m<-c"] = b2.chat_messages[manager2], manager2.chat_messages[c2]
    return out


def test_nested_chat_transform_clear_history_and_resume_as_in_the_reference(console: ScriptedIOStream) -> None:
    ours = json.loads(json.dumps(_nested_transform_clear_resume_scenario()))
    assert ours == json.loads(NESTED_RESUME_REFERENCE.read_text())
    assert ours["b<-m"][1]["content"] == "inner2 answers"  # b's reply is the nested chat's last message
    assert ours["a_cleared"] == [] and len(ours["d_kept"]) == 2 and len(ours["resumed_b"]) == 6
