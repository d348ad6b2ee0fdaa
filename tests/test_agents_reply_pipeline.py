"""The reply-function pipeline: register_reply positions, triggers, configs, reset, async functions, hooks."""

from __future__ import annotations

import asyncio
from typing import Any, Optional

import pytest

from autogen_classic import Agent, ConversableAgent, SenderRequired
from autogen_classic.testing.io import ScriptedIOStream

MESSAGES = [{"content": "x", "role": "user"}]


def _agent(name: str = "alice", **kwargs: Any) -> ConversableAgent:
    kwargs.setdefault("default_auto_reply", "default")
    return ConversableAgent(name, llm_config=False, human_input_mode="NEVER", **kwargs)


def _replying(text: str, log: Optional[list] = None) -> Any:
    def reply(recipient: ConversableAgent, messages: Any, sender: Any, config: Any) -> tuple[bool, Any]:
        if log is not None:
            log.append(text)
        return True, text

    reply.__name__ = text
    return reply


def _passing(text: str, log: list) -> Any:
    def reply(recipient: ConversableAgent, messages: Any, sender: Any, config: Any) -> tuple[bool, Any]:
        log.append(text)
        return False, "ignored because not final"

    reply.__name__ = text
    return reply


def _names(agent: ConversableAgent) -> list[str]:
    return [entry["reply_func"].__name__ for entry in agent._reply_func_list]


def test_last_registered_is_checked_first_and_position_inserts(console: ScriptedIOStream) -> None:
    alice, bob = _agent(), _agent("bob")
    log: list[str] = []
    alice.register_reply(Agent, _replying("r_final", log))
    alice.register_reply(Agent, _passing("r_pass", log))
    alice.register_reply(Agent, _passing("r_middle", log), position=1)
    assert _names(alice)[:3] == ["r_pass", "r_middle", "r_final"]
    assert _names(alice)[3] == "a_check_termination_and_human_reply"
    assert alice.generate_reply(MESSAGES, bob) == "r_final"
    assert log == ["r_pass", "r_middle", "r_final"]


def test_no_final_reply_gives_default_auto_reply(console: ScriptedIOStream) -> None:
    alice, bob = _agent(default_auto_reply={"content": "dict default"}), _agent("bob")
    assert alice.generate_reply(MESSAGES, bob) == {"content": "dict default"}


@pytest.mark.parametrize(
    ("trigger", "fires_for_bob", "fires_for_none"),
    [
        (Agent, True, False),
        (ConversableAgent, True, False),
        ("bob", True, None),  # None: a name trigger needs a sender
        ("carol", False, None),
        (lambda sender: sender is not None and sender.name.startswith("b"), True, False),
        (None, False, True),
        ([None, "bob"], True, True),
    ],
)
def test_triggers(console: ScriptedIOStream, trigger: Any, fires_for_bob: bool, fires_for_none: Optional[bool]) -> None:
    alice, bob = _agent(), _agent("bob")
    alice.register_reply(trigger, _replying("fired"))
    assert (alice.generate_reply(MESSAGES, bob) == "fired") is fires_for_bob
    if fires_for_none is None:
        with pytest.raises(SenderRequired, match="Sender is required but not provided."):
            alice.generate_reply(MESSAGES, None)
    else:
        assert (alice.generate_reply(MESSAGES, None) == "fired") is fires_for_none


def test_agent_instance_trigger(console: ScriptedIOStream) -> None:
    alice, bob, carol = _agent(), _agent("bob"), _agent("carol")
    alice.register_reply(bob, _replying("for bob only"))
    assert alice.generate_reply(MESSAGES, bob) == "for bob only"
    assert alice.generate_reply(MESSAGES, carol) == "default"


def test_bad_triggers_and_reply_functions() -> None:
    alice, bob = _agent(), _agent("bob")
    with pytest.raises(ValueError, match="trigger must be a class, a string, an agent, a callable or a list."):
        alice.register_reply(42, _replying("x"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="reply_func must be callable"):
        alice.register_reply(Agent, "not callable")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="position must be an int"):
        alice.register_reply(Agent, _replying("x"), position="0")  # type: ignore[arg-type]
    alice.register_reply(lambda sender: "yes", _replying("x"))  # type: ignore[arg-type,return-value]
    with pytest.raises(TypeError, match="must return a boolean value"):
        alice.generate_reply(MESSAGES, bob)


def test_generate_reply_needs_messages_or_sender() -> None:
    with pytest.raises(AssertionError, match="Either messages=None or sender=None must be provided."):
        _agent().generate_reply()


def test_config_is_passed_copied_and_restored_by_reset(console: ScriptedIOStream) -> None:
    alice, bob = _agent(), _agent("bob")
    seen: list[Any] = []

    def counting(recipient: ConversableAgent, messages: Any, sender: Any, config: dict) -> tuple[bool, Any]:
        config["n"] += 1
        seen.append(dict(config))
        return False, None

    initial = {"n": 0}
    alice.register_reply(Agent, counting, config=initial)
    bob.initiate_chat(alice, message="one", max_turns=2, silent=True)
    assert seen == [{"n": 1}, {"n": 2}]
    assert initial == {"n": 0}  # the registered config is a copy
    alice.reset()
    assert alice._reply_func_list[0]["config"] == {"n": 0}


def test_reset_config_is_called_instead_of_restoring(console: ScriptedIOStream) -> None:
    alice = _agent()
    resets: list[Any] = []
    state = {"n": 5}
    alice.register_reply(Agent, _replying("x"), config=state, reset_config=lambda config: resets.append(config))
    alice.reset()
    assert resets == [{"n": 5}]


def test_reset_clears_history_counters_and_reply_at_receive(console: ScriptedIOStream) -> None:
    alice, bob = _agent(), _agent("bob")
    bob.initiate_chat(alice, message="hi", max_turns=1, silent=True)
    alice._consecutive_auto_reply_counter[bob] = 3
    alice.reply_at_receive[bob] = True
    alice.reset()
    assert dict(alice.chat_messages) == {}
    assert alice._consecutive_auto_reply_counter[bob] == 0
    assert alice.reply_at_receive[bob] is False


def test_remove_other_reply_funcs(console: ScriptedIOStream) -> None:
    alice, bob = _agent(), _agent("bob")
    alice.register_reply([Agent, None], _replying("only"), remove_other_reply_funcs=True)
    assert _names(alice) == ["only"]
    result = bob.initiate_chat(alice, message="hi", max_turns=2, silent=True)
    assert [m["content"] for m in result.chat_history] == ["hi", "only", "default", "only"]


def test_exclude_and_replace_reply_func(console: ScriptedIOStream) -> None:
    alice, bob = _agent(), _agent("bob")
    first = _replying("first")
    alice.register_reply(Agent, first)
    assert alice.generate_reply(MESSAGES, bob, exclude=[first]) == "default"
    alice.replace_reply_func(first, _replying("replaced"))
    assert alice.generate_reply(MESSAGES, bob) == "replaced"


async def _async_reply(recipient: ConversableAgent, messages: Any, sender: Any, config: Any) -> tuple[bool, Any]:
    await asyncio.sleep(0)
    return True, "async reply"


def test_async_reply_function_in_a_sync_chat(console: ScriptedIOStream) -> None:
    alice, bob = _agent(), _agent("bob")
    alice.register_reply([Agent, None], _async_reply)
    with pytest.raises(RuntimeError) as info:
        bob.initiate_chat(alice, message="x", max_turns=1)
    assert str(info.value) == (
        "Async reply functions can only be used with ConversableAgent.a_initiate_chat(). "
        "The following async reply functions are found: _async_reply"
    )
    # generate_reply skips it; the async chat awaits it.
    assert alice.generate_reply(MESSAGES, bob) == "default"
    result = asyncio.run(bob.a_initiate_chat(alice, message="x", max_turns=1, silent=True))
    assert [m["content"] for m in result.chat_history] == ["x", "async reply"]


def test_ignore_async_in_sync_chat(console: ScriptedIOStream) -> None:
    alice, bob = _agent(), _agent("bob")
    alice.register_reply([Agent, None], _async_reply, ignore_async_in_sync_chat=True)
    result = bob.initiate_chat(alice, message="x", max_turns=1, silent=True)
    assert [m["content"] for m in result.chat_history] == ["x", "default"]


def test_sync_reply_function_runs_in_async_chat(console: ScriptedIOStream) -> None:
    alice, bob = _agent(), _agent("bob")
    alice.register_reply([Agent, None], _replying("sync in async"))
    result = asyncio.run(bob.a_initiate_chat(alice, message="x", max_turns=1, silent=True))
    assert result.chat_history[-1]["content"] == "sync in async"


def test_hooks_on_received_messages(console: ScriptedIOStream) -> None:
    alice, bob = _agent(), _agent("bob")
    seen: list[Any] = []

    def echo(recipient: ConversableAgent, messages: Any, sender: Any, config: Any) -> tuple[bool, Any]:
        seen.append([m["content"] for m in messages])
        return True, "echo:" + messages[-1]["content"]

    alice.register_reply(Agent, echo)
    alice.register_hook("process_last_received_message", lambda text: text + "!")
    alice.register_hook("process_all_messages_before_reply", lambda messages: messages[-1:])
    states: list[int] = []
    alice.register_hook("update_agent_state", lambda agent, messages: states.append(len(messages)))
    result = bob.initiate_chat(alice, message="hi", max_turns=1, silent=True)
    assert seen == [["hi!"]]
    assert result.chat_history[-1]["content"] == "echo:hi!"
    # As in AG2 Classic 0.14.1: the receiver's stored message holds the rewritten text, the sender's does not.
    assert alice.chat_messages[bob][0]["content"] == "hi!"
    assert bob.chat_messages[alice][0]["content"] == "hi"
    assert states == [1]


def test_reply_functions_do_not_outlive_their_agents(console: ScriptedIOStream) -> None:
    """Whether a reply function is async is remembered without keeping it (or a bound method's owner) alive."""
    import gc
    import weakref

    from autogen_classic.agentchat.conversable.reply_pipeline import is_async_reply_function

    class Owner:
        def reply(self, recipient: Any, messages: Any = None, sender: Any = None, config: Any = None) -> Any:
            return True, "from the owner"

        async def a_reply(self, recipient: Any, messages: Any = None, sender: Any = None, config: Any = None) -> Any:
            return True, "from the owner"

    owners = []
    for index in range(5):
        owner = Owner()
        owners.append(weakref.ref(owner))
        alice, bob = _agent(f"alice{index}"), _agent(f"bob{index}", max_consecutive_auto_reply=1)
        alice.register_reply([Agent, None], owner.reply, position=0)
        result = bob.initiate_chat(alice, message="hi", max_turns=1, silent=True)
        assert result.chat_history[-1]["content"] == "from the owner"
        assert is_async_reply_function(owner.a_reply) and not is_async_reply_function(owner.reply)
        del owner, alice, bob, result
    gc.collect()
    assert [ref() for ref in owners] == [None] * 5


def test_the_remembered_answer_goes_with_its_function() -> None:
    """The answer is remembered per function and forgotten when the function is gone (ids are reused)."""
    import gc

    from autogen_classic.agentchat.conversable import reply_pipeline

    def make(is_async: bool) -> Any:
        if is_async:
            async def reply(*args: Any) -> Any:
                return True, "a"
            return reply

        def reply_sync(*args: Any) -> Any:
            return True, "s"
        return reply_sync

    functions = [make(index % 2 == 0) for index in range(50)]
    assert [reply_pipeline.is_async_reply_function(f) for f in functions] == [i % 2 == 0 for i in range(50)]
    assert [reply_pipeline.is_async_reply_function(f) for f in functions] == [i % 2 == 0 for i in range(50)]
    remembered = [id(f) for f in functions]
    del functions
    gc.collect()
    assert not any(key in reply_pipeline._ASYNC_ANSWERS for key in remembered)
    # new functions (which may reuse those ids) get their own answers
    again = [make(index % 2 == 1) for index in range(50)]
    assert [reply_pipeline.is_async_reply_function(f) for f in again] == [i % 2 == 1 for i in range(50)]
