"""initiate_chat: first message forms, max_turns, clear_history, silent, cache, summaries and carryover.

Transcripts, request bodies and summaries match the reference (ag2 0.7.3) on the same scenarios.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

from autogen_classic import AssistantAgent, Cache, ChatResult, ConversableAgent, InvalidCarryOverType, UserProxyAgent
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply
from console_masks import mask_run_ids

SEP = "-" * 80


def _contents(history: list[dict[str, Any]]) -> list[Any]:
    return [m["content"] for m in history]


def _simple(name: str, reply: str = "", **kwargs: Any) -> ConversableAgent:
    return ConversableAgent(name, llm_config=False, human_input_mode="NEVER", default_auto_reply=reply, **kwargs)


def _assistant(server: ScriptedOpenAIServer, name: str = "alice") -> AssistantAgent:
    return AssistantAgent(name, llm_config=server.llm_config())


def _proxy(name: str = "bob", **kwargs: Any) -> UserProxyAgent:
    kwargs.setdefault("human_input_mode", "NEVER")
    return UserProxyAgent(name, code_execution_config=False, **kwargs)


def test_two_agent_chat_until_terminate(console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("Hello there", "Second", "TERMINATE")
    alice, bob = _assistant(scripted_server), _proxy(max_consecutive_auto_reply=5)
    result = bob.initiate_chat(alice, message="hi")
    assert isinstance(result, ChatResult)
    assert result.chat_history == [
        {"content": "hi", "role": "assistant", "name": "bob"},
        {"content": "Hello there", "role": "user", "name": "alice"},
        {"content": "", "role": "assistant", "name": "bob"},
        {"content": "Second", "role": "user", "name": "alice"},
        {"content": "", "role": "assistant", "name": "bob"},
        {"content": "TERMINATE", "role": "user", "name": "alice"},
    ]
    assert result.chat_history is bob.chat_messages[alice]
    assert result.summary == ""  # last_msg without the word TERMINATE
    assert result.human_input == []
    assert isinstance(result.chat_id, int)  # a fresh id, as in autogen 0.14.1 (ag2 0.7.3: None)
    # The model saw the system message then the conversation from its own point of view.
    assert scripted_server.request_count == 3
    assert scripted_server.requests[1]["messages"][1:] == [
        {"content": "hi", "role": "user", "name": "bob"},
        {"content": "Hello there", "role": "assistant", "name": "alice"},
        {"content": "", "role": "user", "name": "bob"},
    ]
    assert scripted_server.requests[0]["messages"][0] == {"content": alice.system_message, "role": "system"}
    usage = result.cost["usage_including_cached_inference"]
    assert usage["total_cost"] == 0
    assert usage["scripted-model"]["completion_tokens"] == 4
    assert result.cost["usage_excluding_cached_inference"] == usage


def test_max_turns_counts_exchanges(console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("one", "two", "three")
    alice = ConversableAgent("alice", llm_config=scripted_server.llm_config(), human_input_mode="NEVER")
    bob = _simple("bob", "ok")
    result = bob.initiate_chat(alice, message="hi", max_turns=2)
    assert _contents(result.chat_history) == ["hi", "one", "ok", "two"]
    assert result.summary == "two"
    assert scripted_server.request_count == 2
    assert scripted_server.pending_replies == 1


def test_max_turns_zero_sends_nothing(console: ScriptedIOStream) -> None:
    alice, bob = _simple("alice", "x"), _simple("bob")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = bob.initiate_chat(alice, message="hi", max_turns=0)
    assert result.chat_history == [] and result.summary == ""
    assert [str(w.message) for w in caught] == [
        "Cannot extract summary using last_msg: list index out of range. Using an empty str as summary."
    ]
    assert mask_run_ids(console.output) == "\n>>>>>>>> TERMINATING RUN (ID): Maximum turns (0) reached\n"  # as 0.14.1


def test_max_auto_replies_end_the_chat(console: ScriptedIOStream) -> None:
    alice = _simple("alice", "a", max_consecutive_auto_reply=2)
    bob = _simple("bob", "b")
    result = bob.initiate_chat(alice, message="start")
    assert _contents(result.chat_history) == ["start", "a", "b", "a", "b"]


def test_dict_message_and_callable_message_with_context(console: ScriptedIOStream) -> None:
    alice, bob = _simple("alice", "ok"), _simple("bob")
    seen: list[Any] = []

    def first_message(sender: ConversableAgent, recipient: ConversableAgent, context: dict[str, Any]) -> dict:
        seen.append((sender.name, recipient.name, dict(context)))
        return {"content": "computed"}

    result = bob.initiate_chat(alice, message=first_message, max_turns=1, carryover="cc", extra="x")
    # A callable message gets the extra keyword arguments (carryover included) and is sent as returned.
    assert seen == [("bob", "alice", {"carryover": "cc", "extra": "x"})]
    assert _contents(result.chat_history) == ["computed", "ok"]
    result = bob.initiate_chat(alice, message={"content": "dict msg", "role": "user"}, max_turns=1,
                               clear_history=False, carryover=["c1", {"content": "c2"}])
    assert result.chat_history[2:] == [
        {"content": "dict msg\nContext: \nc1\nc2", "role": "assistant", "name": "bob"},
        {"content": "ok", "role": "user", "name": "alice"},
    ]


def test_carryover_is_appended_to_the_first_message(console: ScriptedIOStream) -> None:
    alice, bob = _simple("alice", "ok"), _simple("bob")
    result = bob.initiate_chat(alice, message="task", max_turns=1, carryover="earlier result")
    assert result.chat_history[0]["content"] == "task\nContext: \nearlier result"
    multimodal = {"content": [{"type": "text", "text": "look"}]}
    result = bob.initiate_chat(alice, message=multimodal, max_turns=1, carryover=["a", "b"])
    assert result.chat_history[0]["content"] == [
        {"type": "text", "text": "\nContext: \na\nb"}, {"type": "text", "text": "look"}
    ]
    with pytest.raises(InvalidCarryOverType, match="Carryover should be a string or a list of strings."):
        bob.initiate_chat(alice, message="task", max_turns=1, carryover=42)


def test_no_message_asks_the_console(console: ScriptedIOStream) -> None:
    console.add_inputs("typed task")
    alice, bob = _simple("alice", "ok"), _simple("bob")
    result = bob.initiate_chat(alice, max_turns=1)
    assert console.prompts == [">"]
    assert _contents(result.chat_history) == ["typed task", "ok"]
    assert result.human_input == ["typed task"]


def test_clear_history(console: ScriptedIOStream) -> None:
    alice, bob = _simple("alice", "ok"), _simple("bob")
    bob.initiate_chat(alice, message="q1", max_turns=1)
    result = bob.initiate_chat(alice, message="q2", max_turns=1, clear_history=False)
    assert _contents(result.chat_history) == ["q1", "ok", "q2", "ok"]
    assert _contents(alice.chat_messages[bob]) == ["q1", "ok", "q2", "ok"]
    result = bob.initiate_chat(alice, message="q3", max_turns=1)
    assert _contents(result.chat_history) == ["q3", "ok"]
    assert _contents(alice.chat_messages[bob]) == ["q3", "ok"]


def test_silent_chat_prints_nothing(console: ScriptedIOStream) -> None:
    alice, bob = _simple("alice", "ok"), _simple("bob")
    result = bob.initiate_chat(alice, message="q", max_turns=2, silent=True)
    assert console.output == ""
    assert len(result.chat_history) == 4


def test_chat_prints_the_classic_layout(console: ScriptedIOStream) -> None:
    alice, bob = _simple("alice", "ok"), _simple("bob", "fine")
    bob.initiate_chat(alice, message="q", max_turns=2)
    assert mask_run_ids(console.output) == (
        f"bob (to alice):\n\nq\n\n{SEP}\nalice (to bob):\n\nok\n\n{SEP}\n"
        f"bob (to alice):\n\nfine\n\n{SEP}\nalice (to bob):\n\nok\n\n{SEP}\n"
        "\n>>>>>>>> TERMINATING RUN (ID): Maximum turns (2) reached\n"
    )


def test_cache_serves_repeated_requests(
    console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer, tmp_path: Path
) -> None:
    scripted_server.add_replies("cached answer", "fresh answer")
    alice, bob = _assistant(scripted_server), _proxy()
    with Cache.disk(cache_seed=7, cache_path_root=tmp_path) as cache:
        first = bob.initiate_chat(alice, message="hi", max_turns=1, cache=cache)
        assert first.chat_history[-1]["content"] == "cached answer"
        first_cost = first.cost
        second = bob.initiate_chat(alice, message="hi", max_turns=1, cache=cache)
        assert second.chat_history[-1]["content"] == "cached answer"
    assert scripted_server.request_count == 1
    # The cached answer counts in the usage including cache hits only.
    including = second.cost["usage_including_cached_inference"]["scripted-model"]
    excluding = second.cost["usage_excluding_cached_inference"]["scripted-model"]
    assert including["total_tokens"] == 2 * first_cost["usage_including_cached_inference"]["scripted-model"]["total_tokens"]
    assert excluding == first_cost["usage_excluding_cached_inference"]["scripted-model"]
    assert alice.client_cache is None and alice.previous_cache is None  # restored after the chat
    third = bob.initiate_chat(alice, message="hi", max_turns=1)
    assert third.chat_history[-1]["content"] == "fresh answer"
    assert scripted_server.request_count == 2


def test_summary_reflection_with_llm_and_summary_args(
    console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer
) -> None:
    scripted_server.add_replies("one", "The summary.")
    alice, bob = _assistant(scripted_server), _proxy()
    result = bob.initiate_chat(alice, message="hi", max_turns=1, summary_method="reflection_with_llm",
                               summary_args={"summary_prompt": "Sum it up", "summary_role": "user"})
    assert result.summary == "The summary."
    # The recipient's model summarizes its own view of the chat, without its system message.
    assert scripted_server.requests[-1]["messages"] == [
        {"content": "hi", "role": "user", "name": "bob"},
        {"content": "one", "role": "assistant", "name": "alice"},
        {"content": "Sum it up", "role": "user"},
    ]
    assert _contents(result.chat_history) == ["hi", "one"]  # the summary request is not part of the chat


def test_summary_reflection_default_prompt(console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_replies("one TERMINATE", "The summary.")
    alice, bob = _assistant(scripted_server), _proxy()
    result = bob.initiate_chat(alice, message="hi", max_turns=1, summary_method="reflection_with_llm")
    assert result.summary == "The summary."
    assert scripted_server.requests[-1]["messages"][-1] == {
        "role": "system",
        "content": "Summarize the takeaway from the conversation. Do not add any introductory phrases.",
    }


def test_summary_request_rejected_gives_empty_summary_and_warning(
    console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer
) -> None:
    scripted_server.add_replies("one", ScriptedReply(status=400, error_message="bad summary"))
    alice, bob = _assistant(scripted_server), _proxy()
    with pytest.warns(UserWarning, match="Cannot extract summary using reflection_with_llm: Error code: 400 - bad summary"):
        result = bob.initiate_chat(alice, message="hi", max_turns=1, summary_method="reflection_with_llm")
    assert result.summary == ""


def test_reflection_without_any_model_is_refused_before_the_chat(console: ScriptedIOStream) -> None:
    alice, bob = _simple("alice", "x"), _simple("bob")
    with pytest.raises(ValueError, match="summary_method='reflection_with_llm' needs a model"):
        bob.initiate_chat(alice, message="hi", max_turns=1, summary_method="reflection_with_llm")
    assert console.output == ""
    assert bob.chat_messages[alice] == []


def test_callable_summary_and_none(console: ScriptedIOStream) -> None:
    alice, bob = _simple("alice", "final words TERMINATE"), _simple("bob")
    calls: list[Any] = []

    def summarize(sender: ConversableAgent, recipient: ConversableAgent, summary_args: dict[str, Any]) -> str:
        calls.append((sender.name, recipient.name, summary_args))
        return f"{len(sender.chat_messages[recipient])} messages"

    result = bob.initiate_chat(alice, message="hi", max_turns=1, summary_method=summarize,
                               summary_args={"style": "short"})
    assert result.summary == "2 messages"
    assert calls == [("bob", "alice", {"style": "short", "cache": None})]
    assert bob.initiate_chat(alice, message="hi", max_turns=1, summary_method=None).summary == ""
    last = bob.initiate_chat(alice, message="hi", max_turns=1)
    assert last.summary == "final words "


@pytest.mark.filterwarnings("ignore:Cannot extract summary:UserWarning")
@pytest.mark.parametrize(
    ("max_turns", "warning", "contents"),
    [
        (-1, "got -1. It is used as given: no message is sent", []),
        (True, "got True. It is used as given: counts as 1", ["hi", "x"]),
        ("2", "got '2'. It is used as given: it is not an int, so it is ignored", ["hi", "x", "", "x"]),
        (2.5, "got 2.5. It is used as given: it is not an int, so it is ignored", ["hi", "x", "", "x"]),
    ],
)
def test_doubtful_max_turns_is_used_as_classic_autogen_does(max_turns: Any, warning: str, contents: list) -> None:
    # Classic AutoGen runs max_turns turns only for an int (bool included); anything else runs as None.
    alice, bob = _simple("alice", "x"), _simple("bob")
    alice.update_max_consecutive_auto_reply(2)
    bob.update_max_consecutive_auto_reply(1)
    with pytest.warns(UserWarning, match="max_turns should be a non-negative int") as record:
        result = bob.initiate_chat(alice, message="hi", max_turns=max_turns, silent=True)
    assert any(warning in str(w.message) for w in record)
    assert [m["content"] for m in result.chat_history] == contents


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"summary_method": "nope"}, ValueError, "summary_method must be a string from"),
        ({"summary_args": "x"}, TypeError, "summary_args must be a dict"),
        ({"message": 42}, TypeError, "message must be a str or a dict with .content."),
        ({"message": {"role": "user"}}, ValueError, "Either content or function_call must be provided"),
    ],
)
def test_bad_chat_arguments_are_refused_before_the_chat(
    console: ScriptedIOStream, kwargs: dict[str, Any], error: type, match: str
) -> None:
    alice, bob = _simple("alice", "x"), _simple("bob")
    kwargs.setdefault("message", "hi")
    with pytest.raises(error, match=match):
        bob.initiate_chat(alice, **kwargs)
    assert console.output == ""
    assert bob.chat_messages[alice] == []


def test_recipient_must_be_an_agent(console: ScriptedIOStream) -> None:
    with pytest.raises(TypeError, match="recipient must be an agent; got str"):
        _simple("bob").initiate_chat("alice", message="hi")  # type: ignore[arg-type]
