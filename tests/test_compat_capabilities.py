"""Classic capability scripts: AgentCapability, TextMessageCompressor, transforms_util, text_compressors.

Expected values were observed on ag2 0.7.3 with the same compressor and messages; the two
deliberate differences (plain-string parts of multimodal content are compressed for real, and
the input list is not changed in place) are marked where they show.
"""

import copy
from typing import Any, Optional

import pytest

import autogen_classic as autogen
from autogen_classic.agentchat.contrib.capabilities import agent_capability, text_compressors, transforms_util
from autogen_classic.agentchat.contrib.capabilities.agent_capability import AgentCapability
from autogen_classic.agentchat.contrib.capabilities.text_compressors import LLMLingua, TextCompressor
from autogen_classic.agentchat.contrib.capabilities.transform_messages import TransformMessages
from autogen_classic.agentchat.contrib.capabilities.transforms import (
    AbstractCache,
    Cache,
    MessageHistoryLimiter,
    MessageTokenLimiter,
    TextMessageCompressor,
    TextMessageContentName,
)
from autogen_classic.exception_utils import InvalidArgumentError, InvalidArgumentTypeError
from autogen_classic.io import IOStream
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer
from autogen_classic.token_count_utils import count_token


class DictCache:
    """A minimal AbstractCache."""

    def __init__(self) -> None:
        self.data: dict[str, Any] = {}

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def set(self, key: str, value: Any) -> None:
        self.data[key] = value

    def close(self) -> None:
        pass

    def __enter__(self) -> "DictCache":
        return self

    def __exit__(self, *exc: Any) -> None:
        pass


class Halver:
    """Keeps the first half of the words and reports the token counts."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict]] = []

    def compress_text(self, text: str, **compression_params: Any) -> dict[str, Any]:
        self.calls.append((text, compression_params))
        words = text.split()
        kept = words[: max(1, len(words) // 2)]
        return {"compressed_prompt": " ".join(kept), "origin_tokens": len(words), "compressed_tokens": len(kept)}


IMAGE = {"type": "image_url", "image_url": {"url": "http://127.0.0.1/x.png"}}
MESSAGES = [
    {"role": "system", "content": "one two three four"},
    {"role": "user", "content": "alpha beta gamma delta epsilon zeta", "name": "u"},
    {"role": "assistant", "content": None, "tool_calls": []},
    {"role": "user", "content": ""},
    {"role": "user", "content": [{"type": "text", "text": "a b c d"}, IMAGE, "e f g h"]},
]


def _contents(messages: list[dict]) -> list[Any]:
    return [m.get("content") for m in messages]


# ---------------------------------------------------------------- AgentCapability


def test_agent_capability_is_the_base_users_subclass() -> None:
    assert agent_capability.ConversableAgent is autogen.ConversableAgent
    with pytest.raises(NotImplementedError):
        AgentCapability().add_to_agent(autogen.ConversableAgent("a", llm_config=False))

    class Shout(AgentCapability):
        def add_to_agent(self, agent: autogen.ConversableAgent) -> None:
            agent.register_hook("process_last_received_message", lambda content: content.upper())

    agent = autogen.ConversableAgent("a", llm_config=False, human_input_mode="NEVER")
    Shout().add_to_agent(agent)
    assert agent.hook_lists["process_last_received_message"][0]("hi") == "HI"
    assert isinstance(TransformMessages(), AgentCapability)


# ---------------------------------------------------------------- TextMessageCompressor


def test_compresses_text_and_multimodal_parts_with_params() -> None:
    compressor = Halver()
    transform = TextMessageCompressor(text_compressor=compressor, compression_params={"rate": 0.5}, cache=DictCache())
    original = copy.deepcopy(MESSAGES)
    after = transform.apply_transform(MESSAGES)
    assert _contents(after) == [
        "one two", "alpha beta gamma", None, "",
        # The reference leaves the plain-string part "e f g h" as it was (while counting its savings).
        [{"type": "text", "text": "a b"}, IMAGE, "e f"],
    ]
    assert transform.get_logs(MESSAGES, after) == ("9 tokens saved with text compression.", True)
    assert compressor.calls == [
        ("one two three four", {"rate": 0.5}), ("alpha beta gamma delta epsilon zeta", {"rate": 0.5}),
        ("a b c d", {"rate": 0.5}), ("e f g h", {"rate": 0.5}),
    ]
    assert MESSAGES == original  # the reference changes the given messages in place


def test_compressed_contents_are_cached_by_content_and_min_tokens() -> None:
    compressor, cache = Halver(), DictCache()
    transform = TextMessageCompressor(text_compressor=compressor, cache=cache)
    transform.apply_transform(MESSAGES)
    assert cache.data["alpha beta gamma delta epsilon zetaNone"] == ("alpha beta gamma", 3)  # as the reference
    compressor.calls.clear()
    again = transform.apply_transform(MESSAGES)
    assert compressor.calls == []  # everything came from the cache
    assert _contents(again)[1] == "alpha beta gamma"
    assert transform.get_logs(MESSAGES, again) == ("9 tokens saved with text compression.", True)


def test_project_cache_objects_work_as_cache(tmp_path: Any) -> None:
    with Cache.disk(cache_seed="compress", cache_path_root=tmp_path) as cache:
        assert isinstance(cache, AbstractCache)
        TextMessageCompressor(text_compressor=Halver(), cache=cache).apply_transform(MESSAGES)
        compressor = Halver()
        after = TextMessageCompressor(text_compressor=compressor, cache=cache).apply_transform(MESSAGES)
    assert compressor.calls == [] and _contents(after)[0] == "one two"


def test_default_cache_is_a_disk_cache(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    transform = TextMessageCompressor(text_compressor=Halver())
    assert isinstance(transform._cache, Cache)
    transform.apply_transform(MESSAGES)
    assert (tmp_path / ".cache").is_dir()


def test_min_tokens_threshold() -> None:
    total = sum(transforms_util.count_text_tokens(m["content"]) for m in MESSAGES)
    compressor = Halver()
    below = TextMessageCompressor(text_compressor=compressor, min_tokens=total + 1, cache=DictCache())
    assert below.apply_transform(MESSAGES) == MESSAGES and compressor.calls == []
    reached = TextMessageCompressor(text_compressor=compressor, min_tokens=total, cache=DictCache())
    assert _contents(reached.apply_transform(MESSAGES))[0] == "one two"


def test_filter_dict_and_exclude_filter() -> None:
    only_system = TextMessageCompressor(
        text_compressor=Halver(), cache=DictCache(), filter_dict={"role": ["system"]}, exclude_filter=False
    )
    assert _contents(only_system.apply_transform(MESSAGES))[:2] == ["one two", "alpha beta gamma delta epsilon zeta"]
    not_system = TextMessageCompressor(text_compressor=Halver(), cache=DictCache(), filter_dict={"role": ["system"]})
    assert _contents(not_system.apply_transform(MESSAGES))[:2] == ["one two three four", "alpha beta gamma"]


def test_compressor_without_token_counts_saves_nothing_in_the_logs() -> None:
    class Upper:
        def compress_text(self, text: str, **params: Any) -> dict[str, Any]:
            return {"compressed_prompt": text.upper()}

    transform = TextMessageCompressor(text_compressor=Upper(), cache=DictCache())
    after = transform.apply_transform(MESSAGES)
    assert _contents(after)[1] == "ALPHA BETA GAMMA DELTA EPSILON ZETA"
    assert transform.get_logs(MESSAGES, after) == ("No tokens saved with text compression.", False)
    assert isinstance(Upper(), TextCompressor)


def test_transform_messages_prints_the_tokens_saved() -> None:
    stream = ScriptedIOStream()
    capability = TransformMessages(transforms=[TextMessageCompressor(text_compressor=Halver(), cache=DictCache())])
    with IOStream.set_default(stream):
        result = capability._transform_messages(copy.deepcopy(MESSAGES))
    assert stream.output == "7 tokens saved with text compression.\n"  # the system message is not compressed
    assert _contents(result)[:2] == ["one two three four", "alpha beta gamma"]


def test_compressed_history_is_what_the_model_receives(
    console: ScriptedIOStream, scripted_server: ScriptedOpenAIServer
) -> None:
    scripted_server.add_reply("ok")
    assistant = autogen.AssistantAgent("assistant", system_message="be brief", llm_config=scripted_server.llm_config())
    TransformMessages(transforms=[TextMessageCompressor(text_compressor=Halver(), cache=DictCache())]).add_to_agent(
        assistant
    )
    user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False)
    user.initiate_chat(assistant, message="please summarise this very long text now", max_turns=1)
    assert scripted_server.requests[0]["messages"] == [
        {"content": "be brief", "role": "system"},
        {"content": "please summarise this", "role": "user", "name": "user"},
    ]
    assert "\n4 tokens saved with text compression.\nassistant (to user):" in console.output


def test_argument_errors() -> None:
    with pytest.raises(InvalidArgumentError, match="min_tokens must be greater than 0 or None"):
        TextMessageCompressor(text_compressor=Halver(), min_tokens=0, cache=DictCache())
    with pytest.raises(ValueError, match="min_tokens must be greater than 0 or None"):
        TextMessageCompressor(text_compressor=Halver(), min_tokens=-1, cache=DictCache())
    with pytest.raises(InvalidArgumentTypeError, match="text_compressor must have a compress_text"):
        TextMessageCompressor(text_compressor=object(), cache=DictCache())  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentTypeError, match="compression_params must be a dict"):
        TextMessageCompressor(text_compressor=Halver(), compression_params=[1], cache=DictCache())  # type: ignore[arg-type]

    class Broken:
        def compress_text(self, text: str, **params: Any) -> dict[str, Any]:
            return {"text": text}

    with pytest.raises(KeyError, match="Broken.compress_text must return a dict with the compressed text"):
        TextMessageCompressor(text_compressor=Broken(), cache=DictCache()).apply_transform(MESSAGES)


@pytest.mark.parametrize(
    ("factory", "kwargs", "error", "message"),
    [
        (MessageHistoryLimiter, {"max_messages": 0}, InvalidArgumentError, "max_messages must be None or greater"),
        (MessageTokenLimiter, {"max_tokens": -1}, InvalidArgumentError, "max_tokens must be None or greater"),
        (MessageTokenLimiter, {"max_tokens_per_message": -2}, InvalidArgumentError, "max_tokens_per_message"),
        (MessageTokenLimiter, {"min_tokens": -1}, InvalidArgumentError, "min_tokens must be None or greater"),
        (MessageTokenLimiter, {"min_tokens": 5, "max_tokens": 3}, InvalidArgumentError,
         "min_tokens must not be more than max_tokens"),
        (MessageTokenLimiter, {"max_tokens": "a"}, InvalidArgumentTypeError, "max_tokens must be None or an integer"),
        (TextMessageContentName, {"position": "middle"}, InvalidArgumentError, "position must be 'start' or 'end'"),
        (TextMessageContentName, {"format_string": "x"}, InvalidArgumentError, "format_string must be a string"),
    ],
)
def test_transform_argument_errors_are_also_assertion_errors(
    factory: Any, kwargs: dict, error: type, message: str
) -> None:
    with pytest.raises(error, match=message) as info:
        factory(**kwargs)
    assert isinstance(info.value, AssertionError)


def test_llmlingua_names_the_extra_to_install() -> None:
    try:
        import llmlingua  # noqa: F401
    except ImportError:
        pass
    else:  # pragma: no cover - only where the optional extra is installed
        pytest.skip("llmlingua is installed: the missing-extra error cannot be shown")
    with pytest.raises(ImportError, match=r"pip install \"autogen-classic\[long-context\]\""):
        LLMLingua()
    with pytest.raises(ImportError, match="Module 'llmlingua' needed for LLMLingua is missing"):
        TextMessageCompressor()  # the default compressor is LLMLingua
    assert text_compressors.LONG_CONTEXT_EXTRA == "long-context"


# ---------------------------------------------------------------- transforms_util


def test_transforms_util_helpers_match_the_reference() -> None:
    assert transforms_util.cache_key("abc", 5, None) == "abc5None"
    assert transforms_util.cache_key(["x", {"a": 1}], 3) == "['x', {'a': 1}]3"
    cache = DictCache()
    assert transforms_util.cache_content_get(cache, "k") is None
    transforms_util.cache_content_set(cache, "k", "v", 3)
    assert transforms_util.cache_content_get(cache, "k") == ("v", 3)
    assert transforms_util.cache_content_get(None, "k") is None
    transforms_util.cache_content_set(None, "k", "v")  # no cache: nothing happens

    empty = {"": True, "x": False, None: True}
    for content, expected in empty.items():
        assert transforms_util.is_content_text_empty(content) is expected
    for content, expected in [([], True), ([""], True), ([{"type": "text", "text": ""}], True), ([IMAGE], True),
                              (["", {"text": "a"}], False), (5, True), ([5], True)]:
        assert transforms_util.is_content_text_empty(content) is expected  # type: ignore[arg-type]
    assert [transforms_util.is_content_right_type(c) for c in ("", [], None, 5)] == [True, True, False, False]


def test_count_text_tokens_and_min_tokens_reached() -> None:
    content = ["a b", {"type": "text", "text": "c d e"}, IMAGE]
    assert transforms_util.count_text_tokens(content) == count_token("a b") + count_token("c d e")
    assert transforms_util.count_text_tokens(None) == 0
    messages = [{"role": "user", "content": "hello world"}, {"role": "tool", "content": None}, {"role": "x"}]
    tokens = count_token("hello world")
    assert transforms_util.min_tokens_reached(messages, None) and transforms_util.min_tokens_reached(messages, 0)
    assert transforms_util.min_tokens_reached(messages, tokens)
    assert not transforms_util.min_tokens_reached(messages, tokens + 1)


@pytest.mark.parametrize(
    ("filter_dict", "exclude", "expected"),
    [
        (None, False, [True, True, True, True]),
        ({}, True, [True, True, True, True]),
        ({"role": ["user"]}, False, [True, False, True, False]),
        ({"role": ["user"]}, True, [False, True, False, True]),
        ({"role": ["user"], "name": ["a"]}, False, [True, False, False, False]),
        ({"role": ["user"], "name": ["a"]}, True, [False, True, False, True]),
        ({"name": ["a", None]}, True, [False, True, True, True]),
        ({"tags": ["y"]}, False, [False, False, False, True]),
        ({"tags": ["y"]}, True, [True, True, True, False]),
    ],
)
def test_should_transform_message_matches_the_reference(
    filter_dict: Optional[dict], exclude: bool, expected: list[bool]
) -> None:
    messages = [{"role": "user", "name": "a"}, {"role": "assistant", "name": "b"}, {"role": "user"},
                {"role": "system", "tags": ["x", "y"]}]
    assert [transforms_util.should_transform_message(m, filter_dict, exclude) for m in messages] == expected
