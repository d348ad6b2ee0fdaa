"""Message transforms and the TransformMessages capability."""

from __future__ import annotations

import copy
from typing import Any, Callable

import pytest

from autogen_classic.agentchat.contrib.capabilities import transform_messages, transforms
from autogen_classic.agentchat.contrib.capabilities.transform_messages import TransformMessages
from autogen_classic.agentchat.contrib.capabilities.transforms import (
    MessageHistoryLimiter,
    MessageTokenLimiter,
    MessageTransform,
    TextMessageContentName,
)
from autogen_classic.io import IOStream
from autogen_classic.testing.io import ScriptedIOStream


def _user(*contents: Any) -> list[dict]:
    return [{"role": "user", "content": c} for c in contents]


def _contents(messages: list[dict]) -> list[Any]:
    return [m.get("content") for m in messages]


# ---------------------------------------------------------------- MessageHistoryLimiter

SIX = _user("0", "1", "2", "3", "4", "5")


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        # The reference returns ['4', '3', '5'] and ['5', '4'] here (out of order); we keep the order.
        ({"max_messages": 3}, ["3", "4", "5"]),
        ({"max_messages": 2}, ["4", "5"]),
        # These match the reference.
        ({"max_messages": 3, "keep_first_message": True}, ["0", "4", "5"]),
        ({"max_messages": 1}, ["5"]),
        ({"max_messages": 1, "keep_first_message": True}, ["0"]),
        ({"max_messages": 6}, ["0", "1", "2", "3", "4", "5"]),
        ({}, ["0", "1", "2", "3", "4", "5"]),
    ],
)
def test_history_limiter_keeps_most_recent_in_order(kwargs: dict, expected: list[str]) -> None:
    limiter = MessageHistoryLimiter(**kwargs)
    assert _contents(limiter.apply_transform(SIX)) == expected


def test_history_limiter_logs_match_reference() -> None:
    limiter = MessageHistoryLimiter(max_messages=3)
    after = limiter.apply_transform(SIX)
    assert limiter.get_logs(SIX, after) == ("Removed 3 messages. Number of messages reduced from 6 to 3.", True)
    assert limiter.get_logs(SIX, SIX) == ("No messages were removed.", False)


def test_history_limiter_drops_orphaned_tool_results() -> None:
    history = [
        {"role": "user", "content": "0"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "1"}, {"id": "2"}]},
        {"role": "tool", "content": "t1"},
        {"role": "tool", "content": "t2"},
        {"role": "assistant", "content": "4"},
    ]
    assert _contents(MessageHistoryLimiter(max_messages=2).apply_transform(history)) == ["4"]
    # Both tool results would lose their request: both go (the reference keeps 't2').
    assert _contents(MessageHistoryLimiter(max_messages=3).apply_transform(history)) == ["4"]
    assert _contents(MessageHistoryLimiter(max_messages=4).apply_transform(history)) == [None, "t1", "t2", "4"]


def test_history_limiter_exclude_names() -> None:
    history = [{"role": "user", "name": n, "content": str(i)} for i, n in enumerate(["a", "noise", "b", "noise", "c"])]
    limiter = MessageHistoryLimiter(max_messages=2, exclude_names=["noise"])
    assert _contents(limiter.apply_transform(history)) == ["2", "4"]


@pytest.mark.parametrize("bad", [0, -3, 0.5])
def test_history_limiter_validation(bad: Any) -> None:
    with pytest.raises(ValueError, match="max_messages must be None or"):
        MessageHistoryLimiter(max_messages=bad)
    # Wrong types: TypeError (the reference raised TypeError for "2" too); both are also AssertionErrors.
    with pytest.raises(TypeError, match="max_messages must be None or an integer >= 1, got '2'"):
        MessageHistoryLimiter(max_messages="2")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="exclude_names must be None or a list of agent names"):
        MessageHistoryLimiter(exclude_names="noise")  # type: ignore[arg-type]


def test_history_limiter_accepts_numbers_as_the_reference() -> None:
    # The reference accepts any number and keeps whole messages: 2.0 keeps 2, 1.5 keeps 1.
    assert _contents(MessageHistoryLimiter(max_messages=2.0).apply_transform(SIX)) == ["4", "5"]  # type: ignore[arg-type]
    assert _contents(MessageHistoryLimiter(max_messages=1.5).apply_transform(SIX)) == ["5"]  # type: ignore[arg-type]


# ---------------------------------------------------------------- MessageTokenLimiter
# Every word below ("a", " b", "one", " two", ...) is one token of the estimate, as in cl100k.


def test_token_limiter_per_message_matches_reference() -> None:
    msgs = _user("one two three four five", "a b", "x y z w")
    limiter = MessageTokenLimiter(max_tokens_per_message=3)
    after = limiter.apply_transform(msgs)
    assert _contents(after) == ["one two three", "a b", "x y z"]
    assert limiter.get_logs(msgs, after) == ("Truncated 3 tokens. Number of tokens reduced from 11 to 8", True)
    assert _contents(msgs) == ["one two three four five", "a b", "x y z w"]  # input untouched


@pytest.mark.parametrize(
    ("kwargs", "contents", "expected"),
    [
        # The reference keeps only ['five six'] for the first two (it reserves an unlimited
        # per-message budget) and yields ['', 'd e', 'g h'] with an empty message for the last.
        ({"max_tokens": 5}, ["one two", "three four", "five six"], ["one", "three four", "five six"]),
        ({"max_tokens": 5, "max_tokens_per_message": 10}, ["one two", "three four", "five six"],
         ["one", "three four", "five six"]),
        ({"max_tokens": 10, "max_tokens_per_message": 5}, ["a b c", "d e f", "g h i", "j k l"],
         ["a", "d e f", "g h i", "j k l"]),
        ({"max_tokens": 4, "max_tokens_per_message": 2}, ["a b c", "d e f", "g h i"], ["d e", "g h"]),
        ({"max_tokens": 0}, ["a b c"], []),
        # Below min_tokens nothing changes (as the reference).
        ({"max_tokens": 100, "min_tokens": 50}, ["a b c", "d e f"], ["a b c", "d e f"]),
    ],
)
def test_token_limiter_total_budget(kwargs: dict, contents: list[str], expected: list[str]) -> None:
    assert _contents(MessageTokenLimiter(**kwargs).apply_transform(_user(*contents))) == expected


def test_token_limiter_keeps_messages_without_text() -> None:
    msgs = [{"role": "assistant", "content": None, "tool_calls": []}] + _user("a b c")
    assert _contents(MessageTokenLimiter(max_tokens_per_message=2).apply_transform(msgs)) == [None, "a b"]


def test_token_limiter_filter_dict_matches_reference() -> None:
    msgs = [{"role": "system", "content": "s t u v"}] + _user("a b c")
    excluded = MessageTokenLimiter(max_tokens_per_message=2, filter_dict={"role": ["system"]})
    assert _contents(excluded.apply_transform(msgs)) == ["s t u v", "a b"]
    only = MessageTokenLimiter(max_tokens_per_message=2, filter_dict={"role": ["system"]}, exclude_filter=False)
    assert _contents(only.apply_transform(msgs)) == ["s t", "a b c"]


def test_token_limiter_multimodal_text_shares_budget() -> None:
    image = {"type": "image_url", "image_url": {"url": "http://127.0.0.1/x.png"}}
    msgs = [{"role": "user", "content": [{"type": "text", "text": "a b c"}, image, {"type": "text", "text": "d e"}]}]
    after = MessageTokenLimiter(max_tokens_per_message=4).apply_transform(msgs)
    assert after[0]["content"] == [{"type": "text", "text": "a b c"}, image, {"type": "text", "text": "d"}]


def test_token_limiter_caps_to_model_limit_through_iostream() -> None:
    stream = ScriptedIOStream()
    with IOStream.set_default(stream):
        limiter = MessageTokenLimiter(max_tokens=10**6)
    assert stream.output == (
        "Max token was set to 1000000, but gpt-3.5-turbo-0613 can only accept 4096 tokens. Capping it to 4096.\n"
    )
    assert _contents(limiter.apply_transform(_user("a"))) == ["a"]


def test_token_limiter_unknown_model_warns_once() -> None:
    stream = ScriptedIOStream()
    with IOStream.set_default(stream):
        MessageTokenLimiter(max_tokens=10, max_tokens_per_message=5, model="my-local-model")
        MessageTokenLimiter(model="my-local-model")  # no limit given: the model does not matter
    assert stream.output == "Model my-local-model not found in token_count_utils.\n"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_tokens": -1}, "max_tokens must be None or greater than or equal to 0, got -1."),
        ({"max_tokens_per_message": -1}, "max_tokens_per_message must be None or greater than or equal to 0"),
        ({"min_tokens": -1}, "min_tokens must be None or greater than or equal to 0"),
        ({"min_tokens": 5, "max_tokens": 4}, r"min_tokens must not be more than max_tokens \(got min_tokens=5"),
    ],
)
def test_token_limiter_validation(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MessageTokenLimiter(**kwargs)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_tokens": "10"}, "max_tokens must be None or an integer >= 0, got '10'"),
        ({"filter_dict": ["role"]}, "filter_dict must be None or a dict"),
    ],
)
def test_token_limiter_wrong_types(kwargs: dict, message: str) -> None:
    # TypeError as the reference for "10"; a list filter_dict failed only when applied there.
    with pytest.raises(TypeError, match=message):
        MessageTokenLimiter(**kwargs)


# ---------------------------------------------------------------- TextMessageContentName


def test_text_message_content_name() -> None:
    msgs = [
        {"role": "user", "name": "alice", "content": "hi"},
        {"role": "user", "name": "bob", "content": "bob:\nalready"},
        {"role": "assistant", "content": "no name"},
    ]
    start = TextMessageContentName()
    after = start.apply_transform(msgs)
    assert _contents(after) == ["alice:\nhi", "bob:\nalready", "no name"]
    assert start.get_logs(msgs, after) == ("1 message(s) changed to incorporate name.", True)
    end = TextMessageContentName(position="end", format_string=" ({name})", deduplicate=False)
    assert _contents(end.apply_transform(msgs))[:2] == ["hi (alice)", "bob:\nalready (bob)"]
    with pytest.raises(ValueError, match="position must be 'start' or 'end'"):
        TextMessageContentName(position="middle")
    with pytest.raises(ValueError, match="format_string must be a string containing '{name}'"):
        TextMessageContentName(format_string="no placeholder")


# ---------------------------------------------------------------- TransformMessages


class FakeAgent:
    """Just enough of an agent to take a hook."""

    def __init__(self) -> None:
        self.hooks: list[tuple[str, Callable]] = []

    def register_hook(self, hookable_method: str, hook: Callable) -> None:
        self.hooks.append((hookable_method, hook))


def test_classic_import_paths() -> None:
    assert transform_messages.TransformMessages is TransformMessages
    assert transforms.MessageHistoryLimiter is MessageHistoryLimiter
    assert isinstance(MessageTokenLimiter(), MessageTransform)


def test_add_to_agent_registers_the_hook() -> None:
    capability = TransformMessages(transforms=[MessageHistoryLimiter(max_messages=1)], verbose=False)
    agent = FakeAgent()
    capability.add_to_agent(agent)
    assert len(agent.hooks) == 1
    method, hook = agent.hooks[0]
    assert method == "process_all_messages_before_reply"
    assert _contents(hook(_user("a", "b"))) == ["b"]


def test_system_message_is_kept_first_and_untouched() -> None:
    msgs = [{"role": "system", "content": "one two three"}] + _user("a", "b c d", "e")
    capability = TransformMessages(
        transforms=[MessageHistoryLimiter(max_messages=2), MessageTokenLimiter(max_tokens_per_message=1)],
        verbose=False,
    )
    original = copy.deepcopy(msgs)
    assert _contents(capability._transform_messages(msgs)) == ["one two three", "b", "e"]
    assert msgs == original


def test_transforms_run_in_order() -> None:
    msgs = _user("a b c", "d", "e")
    token_first = TransformMessages(
        transforms=[MessageTokenLimiter(max_tokens=2), MessageHistoryLimiter(max_messages=1)], verbose=False
    )
    history_first = TransformMessages(
        transforms=[MessageHistoryLimiter(max_messages=1), MessageTokenLimiter(max_tokens=2)], verbose=False
    )
    assert _contents(token_first._transform_messages(msgs)) == ["e"]
    assert _contents(history_first._transform_messages(_user("a", "b c d"))) == ["b c"]


def test_verbose_prints_logs_of_transforms_with_effect() -> None:
    stream = ScriptedIOStream()
    capability = TransformMessages(
        transforms=[MessageHistoryLimiter(max_messages=2), MessageTokenLimiter(max_tokens_per_message=1)]
    )
    with IOStream.set_default(stream):
        capability._transform_messages(_user("a", "b", "c d"))
        capability._transform_messages(_user("a"))  # no effect: nothing printed
    assert stream.output == (
        "Removed 1 messages. Number of messages reduced from 3 to 2.\n"
        "Truncated 1 tokens. Number of tokens reduced from 3 to 2\n"
    )


def test_quiet_and_empty() -> None:
    stream = ScriptedIOStream()
    with IOStream.set_default(stream):
        quiet = TransformMessages(transforms=[MessageHistoryLimiter(max_messages=1)], verbose=False)
        assert _contents(quiet._transform_messages(_user("a", "b"))) == ["b"]
        assert quiet._transform_messages([]) == []
    assert stream.output == ""


def test_transform_messages_validation() -> None:
    with pytest.raises(TypeError, match=r"transforms\[0\] .* has no apply_transform\(messages\) method"):
        TransformMessages(transforms=[object()])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="transforms must be a list of message transforms"):
        TransformMessages(transforms=MessageHistoryLimiter())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        TransformMessages([MessageHistoryLimiter()])  # type: ignore[misc]  # keyword-only, as classic
    assert TransformMessages().transforms == []
