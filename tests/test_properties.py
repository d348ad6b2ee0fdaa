"""Property-based tests: arbitrary console input, arbitrary message dicts, eligibility explanations.

Each property runs a real chat (scripted agents, no model) many times with generated input and checks
what must always hold: no unexpected exception, only group members speak, the transcript file equals
``groupchat.messages``, and accepted messages survive a JSON round trip.
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Optional

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from autogen_classic import ConversableAgent, GroupChat, GroupChatManager, load_transcript
from autogen_classic.agentchat.groupchat.resume import messages_from_string
from autogen_classic.eligibility import (
    AllowListPolicy,
    CallablePolicy,
    DenyListPolicy,
    SelectionContext,
    apply_eligibility_policies,
    describe_exclusions,
    no_eligible_speaker_message,
)
from autogen_classic.io.base import IOStream
from autogen_classic.testing.io import ScriptedIOStream

NAMES = ["alice", "bob", "carol"]
MANUAL_PROMPT = "Enter the number of the next speaker (enter nothing or `q` to use auto selection): "
# PROPERTY_EXAMPLES raises the number of examples for a longer bug hunt (e.g. 2000).
PROPERTY = settings(max_examples=int(os.environ.get("PROPERTY_EXAMPLES", "80")), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

# Text that stresses consoles and parsers: control characters, escape codes, non-ASCII, huge strings.
ODD_TEXT = st.sampled_from(
    ["", " ", "q", " q ", "Q", "TERMINATE", "exit", "\x00", "\x1b[2J\x1b[31m", "\t\r\n", "é中文🙂", "\u202e3",
     "٢", "２", "+3", "1_0", "3.0", "0x1", "-1", "1e1", "None", "{}", "[]"]
)
HUGE_TEXT = st.builds(lambda piece, times: piece * times, st.text(min_size=1, max_size=3), st.integers(500, 3000))
TEXT = st.one_of(st.text(max_size=30), ODD_TEXT, HUGE_TEXT)


@pytest.fixture(autouse=True)
def _quiet_console() -> Iterator[None]:
    # Chats print; a fresh scripted console per test keeps pytest's output clean (each example installs its own).
    with IOStream.set_default(ScriptedIOStream()):
        yield


def scripted(name: str, reply: Any = None, **kwargs: Any) -> ConversableAgent:
    """An agent without a model: it answers with ``reply(messages)`` (default: a fixed text naming itself)."""
    agent = ConversableAgent(name, llm_config=False, human_input_mode="NEVER", **kwargs)
    turns = [0]

    def answer(recipient: ConversableAgent, messages: Optional[list[dict[str, Any]]] = None, sender: Any = None,
               config: Any = None) -> tuple[bool, Any]:
        turns[0] += 1
        return True, (reply(messages) if reply is not None else f"{name} speaks ({turns[0]})")

    agent.register_reply([ConversableAgent, None], answer)
    return agent


def start(sender: ConversableAgent, recipient: ConversableAgent, message: Any, use_async: bool,
          **kwargs: Any) -> Any:
    """``initiate_chat``, or ``a_initiate_chat`` in a fresh event loop."""
    if use_async:
        return asyncio.run(sender.a_initiate_chat(recipient, message=message, **kwargs))
    return sender.initiate_chat(recipient, message=message, **kwargs)


@dataclass
class TempTranscript:
    """A transcript path in a fresh directory, removed afterwards."""

    directory: tempfile.TemporaryDirectory  # type: ignore[type-arg]

    @property
    def path(self) -> str:
        return os.path.join(self.directory.name, "chat.jsonl")


def temp_transcript() -> TempTranscript:
    return TempTranscript(tempfile.TemporaryDirectory())


# ----------------------------------------------------------------- manual selection
EOF_MARK = object()  # the closed console, in the replayed rules
INTERRUPT = KeyboardInterrupt
# ``x`` ends the chat at the prompt (tests/test_manual_selection_keyboard.py); here every chat runs to max_round.
LINE = st.one_of(TEXT.filter(lambda text: text.strip() != "x"), st.integers(-3, 6).map(str), st.just(INTERRUPT))


def expected_manual_chat(script: list[Any], eof: bool, rounds: int) -> tuple[list[str], int]:
    """The documented manual-selection rules, replayed: return the speakers and how many prompts are shown.

    Per selection: a number from 1 to 3 chooses, and so does a name in any letter case or the start of one;
    ``?`` and ``h`` show help and ask again without using a try; other text is invalid and asks again, at most
    twice; empty input, ``q``, EOF or Ctrl-C, or a second invalid input, choose by round robin (no model).
    """
    inputs = deque(script)
    speakers: list[str] = []
    prompts = 0
    last = 0
    for _ in range(rounds):
        choice: Optional[int] = None
        invalid = 0
        while choice is None and invalid < 2:
            if inputs:
                item = inputs.popleft()
            elif eof:
                item = EOF_MARK
            else:
                item = ""
            prompts += 1
            if item is INTERRUPT or item is EOF_MARK:
                break
            text = item.strip()
            if text in ("", "q"):
                break
            if text in ("?", "h"):
                continue
            try:
                number = int(text)
            except ValueError:
                number = None
            folded = text.casefold()
            named = [i for i, name in enumerate(NAMES) if name == folded] or [
                i for i, name in enumerate(NAMES) if name.startswith(folded)]
            if number is not None and 1 <= number <= len(NAMES):
                choice = number - 1
            elif number is None and len(named) == 1:  # the names share no start: never ambiguous
                choice = named[0]
            else:
                invalid += 1
        last = choice if choice is not None else (last + 1) % len(NAMES)
        speakers.append(NAMES[last])
    return speakers, prompts


@PROPERTY
@given(script=st.lists(LINE, max_size=12), eof=st.booleans(), max_round=st.integers(2, 6), use_async=st.booleans())
def test_manual_selection_survives_any_console_input(
    script: list[Any], eof: bool, max_round: int, use_async: bool
) -> None:
    stream = ScriptedIOStream(script) if eof else ScriptedIOStream(script, default_input="")
    transcript = temp_transcript()
    with IOStream.set_default(stream), transcript.directory:
        alice, bob, carol = (scripted(name) for name in NAMES)
        groupchat = GroupChat([alice, bob, carol], speaker_selection_method="manual", max_round=max_round,
                              transcript_path=transcript.path)
        manager = GroupChatManager(groupchat, llm_config=False)
        start(alice, manager, "hello", use_async)
        groupchat.close_transcript()

        speakers, prompts = expected_manual_chat(script, eof, max_round - 1)
        assert [record.chosen for record in groupchat.selection_log] == speakers
        assert [message["name"] for message in groupchat.messages] == ["alice", *speakers]
        assert set(speakers) <= set(NAMES)
        assert stream.prompts == [MANUAL_PROMPT] * prompts
        assert stream.output.count("Please select the next speaker from the following list:") == max_round - 1
        assert load_transcript(transcript.path) == groupchat.messages


def test_the_manual_oracle_matches_known_cases() -> None:
    # The replayed rules agree with tests/test_groupchat_selection_manual.py on hand-picked scripts.
    assert expected_manual_chat(["3"], True, 1) == (["carol"], 1)
    assert expected_manual_chat(["abc", "2"], True, 1) == (["bob"], 2)
    assert expected_manual_chat(["0", "9", "2"], True, 1) == (["bob"], 2)
    assert expected_manual_chat([""], True, 2) == (["bob", "carol"], 2)  # the second prompt meets EOF
    assert expected_manual_chat([INTERRUPT, "1"], False, 2) == (["bob", "alice"], 2)
    # tests/test_manual_selection_keyboard.py: names and their starts choose; ? and h use no try.
    assert expected_manual_chat(["?", "h", "zed", "CAR"], True, 1) == (["carol"], 4)


# ----------------------------------------------------------------- message dicts
JSON_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | TEXT,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=6,
)
FUNCTION_NAME = st.one_of(st.sampled_from(["echo", "missing", "", "echo "]), st.text(max_size=12))
PART = st.one_of(
    st.builds(lambda text: {"type": "text", "text": text}, TEXT),
    st.just({"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}),
    st.sampled_from([{"type": "text"}, {"type": "audio"}, {"text": "no type"}, {"type": None}, {"type": "text",
                     "text": 3}]),
    JSON_VALUE,
)
CONTENT = st.one_of(TEXT, st.none(), st.lists(PART, max_size=3), JSON_VALUE)
ROLE = st.one_of(st.sampled_from(["user", "assistant", "system", "function", "tool"]), TEXT)
ARGUMENTS = st.one_of(TEXT, st.builds(json.dumps, st.dictionaries(st.text(max_size=5), JSON_VALUE, max_size=3)))
FUNCTION_CALL = st.one_of(st.fixed_dictionaries({"name": FUNCTION_NAME, "arguments": ARGUMENTS}), JSON_VALUE)
TOOL_CALL = st.one_of(
    st.fixed_dictionaries({"id": TEXT, "type": st.just("function"),
                           "function": st.fixed_dictionaries({"name": FUNCTION_NAME, "arguments": ARGUMENTS})}),
    JSON_VALUE,
)
TOOL_RESPONSE = st.one_of(
    st.fixed_dictionaries({"tool_call_id": TEXT, "role": st.just("tool"), "content": JSON_VALUE}), JSON_VALUE
)
MESSAGE_DICT = st.builds(
    lambda extra, fields: {**extra, **fields},
    st.dictionaries(st.one_of(st.text(max_size=10), st.sampled_from(["index", "override_role", "id"])), JSON_VALUE,
                    max_size=2),
    st.fixed_dictionaries({}, optional={
        "content": CONTENT, "role": ROLE, "name": st.one_of(TEXT, JSON_VALUE),
        "function_call": FUNCTION_CALL, "tool_calls": st.one_of(st.lists(TOOL_CALL, max_size=2), JSON_VALUE),
        "tool_call_id": TEXT, "tool_responses": st.one_of(st.lists(TOOL_RESPONSE, max_size=2), JSON_VALUE),
        "context": JSON_VALUE,
    }),
)
MESSAGE = st.one_of(TEXT, MESSAGE_DICT)
# What a refusal must name: the argument or the field at fault.
FIELDS = ("message", "content", "function_call", "tool_calls", "tool_responses")


def echo(messages: Optional[list[dict[str, Any]]]) -> Any:
    """Reply with the received message itself (calls, odd keys and all)."""
    return dict(messages[-1]) if messages else "nothing received"


def function_map() -> dict[str, Any]:
    return {"echo": lambda **kwargs: kwargs}


def assert_refusal_names_the_problem(error: Exception) -> None:
    assert isinstance(error, (TypeError, ValueError)), f"{type(error).__name__}: {error}"
    assert any(field in str(error) for field in FIELDS), str(error)


def assert_json_round_trip(messages: list[dict[str, Any]]) -> None:
    assert messages_from_string(json.dumps(messages)) == messages


@PROPERTY
@given(message=MESSAGE, replies=st.sampled_from(["fixed", "echo"]), silent=st.booleans(), use_async=st.booleans())
def test_two_agent_chat_accepts_or_refuses_any_message(message: Any, replies: str, silent: bool,
                                                       use_async: bool) -> None:
    sender = ConversableAgent("a", llm_config=False, human_input_mode="NEVER", function_map=function_map(),
                              max_consecutive_auto_reply=2)
    receiver = scripted("b", reply=echo if replies == "echo" else None, function_map=function_map())
    try:
        start(sender, receiver, message, use_async, max_turns=2, silent=silent)
    except (TypeError, ValueError) as error:
        assert_refusal_names_the_problem(error)
        event(f"refused: {str(error)[:25]}")
        # A refused first message is stored nowhere.
        assert sender.chat_messages[receiver] == [] and receiver.chat_messages[sender] == []
        return
    event("accepted")
    history = sender.chat_messages[receiver]
    assert history and all(isinstance(m, dict) and "role" in m for m in history)
    assert len(receiver.chat_messages[sender]) == len(history)
    assert_json_round_trip(history)
    assert_json_round_trip(receiver.chat_messages[sender])


@PROPERTY
@given(message=MESSAGE, replies=st.lists(st.sampled_from(["fixed", "echo"]), min_size=3, max_size=3),
       method=st.sampled_from(["round_robin", "random"]), use_async=st.booleans())
def test_group_chat_accepts_or_refuses_any_message(message: Any, replies: list[str], method: str,
                                                   use_async: bool) -> None:
    transcript = temp_transcript()
    with transcript.directory:
        agents = [scripted(name, reply=echo if kind == "echo" else None, function_map=function_map())
                  for name, kind in zip(NAMES, replies)]
        groupchat = GroupChat(agents, speaker_selection_method=method, max_round=4, transcript_path=transcript.path)
        manager = GroupChatManager(groupchat, llm_config=False)
        try:
            start(agents[0], manager, message, use_async)
            event("accepted")
        except (TypeError, ValueError) as error:
            assert_refusal_names_the_problem(error)
            event(f"refused: {str(error)[:25]}")
        finally:
            groupchat.close_transcript()
        assert all(m.get("name") in NAMES or m.get("role") == "function" for m in groupchat.messages)
        assert load_transcript(transcript.path) == groupchat.messages
        assert_json_round_trip(groupchat.messages)
        assert_json_round_trip(manager.chat_messages[agents[0]])


@pytest.mark.parametrize(
    "message",
    [
        {"content": 5},
        {"content": [{"type": "text"}]},
        {"function_call": "add"},
        {"tool_calls": "add"},
        {"tool_calls": ["add"]},
        {"role": "tool", "content": "x", "tool_responses": "x"},
    ],
)
def test_malformed_fields_are_refused_before_anything_is_stored(message: dict[str, Any]) -> None:
    a, b = scripted("a"), scripted("b")
    with pytest.raises((TypeError, ValueError)) as refused:
        a.send(message, b)
    assert_refusal_names_the_problem(refused.value)
    assert a.chat_messages[b] == [] and b.chat_messages[a] == []


def test_results_and_templates_keep_their_content() -> None:
    a, b = scripted("a"), scripted("b")
    a.send({"role": "function", "name": "f", "content": {"total": 3}}, b, request_reply=False)
    a.send({"role": "tool", "content": 4, "tool_responses": [{"tool_call_id": "c1", "role": "tool", "content": 4}]},
           b, request_reply=False)
    a.send({"content": lambda context: f"hi {context['who']}", "context": {"who": "bob"}}, b, request_reply=False)
    stored = b.chat_messages[a]
    assert stored[0]["content"] == "{'total': 3}" and stored[1]["content"] == "4"
    assert stored[1]["tool_responses"] == [{"tool_call_id": "c1", "role": "tool", "content": "4"}]
    assert callable(stored[2]["content"])


# ----------------------------------------------------------------- valid arguments stay accepted
def test_classic_argument_types_are_accepted() -> None:
    peer = scripted("peer")
    plain = {peer: [{"content": "earlier", "role": "user", "name": "peer"}]}
    agent = ConversableAgent("c", llm_config=False, human_input_mode="NEVER", description=None, chat_messages=plain,
                             context_variables={"k": 1})
    assert agent.description == "You are a helpful AI Assistant."
    assert agent.chat_messages[peer] is plain[peer]  # the earlier conversation is kept, not copied
    newcomer = scripted("newcomer")
    agent.send("hello", newcomer, request_reply=False)  # a plain dict of conversations takes new peers too
    assert agent.chat_messages[newcomer][0]["content"] == "hello"
    agent.update_system_message([{"type": "text", "text": "parts"}])
    assert agent.system_message == [{"type": "text", "text": "parts"}]
    assert agent.generate_reply(messages=[{"role": "user", "content": "hi"}], sender=peer) == ""
    assert agent.generate_reply(messages=None, sender=peer) == ""
    shared = {"k": 1}
    agent = ConversableAgent("d", llm_config=False, context_variables=shared)
    agent.set_context("j", 2)
    assert shared == {"k": 1, "j": 2}  # context variables are shared, not copied


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda: ConversableAgent("x", llm_config=False, chat_messages=["earlier"]), "chat_messages must be a dict"),
        (lambda: ConversableAgent("x", llm_config=False, chat_messages={"peer": []}),
         "chat_messages keys must be agents"),
        (lambda: scripted("a").send("hi", "b"), "recipient must be an Agent (got str 'b'); pass the agent object"),
        (lambda: scripted("x").generate_reply(messages="hi"), "messages must be a list of message dicts"),
        (lambda: scripted("x").generate_reply(messages=["hi"]), "got an item str 'hi'"),
    ],
)
def test_weak_arguments_are_refused_with_a_clear_type_error(call: Any, expected: str) -> None:
    with pytest.raises(TypeError) as refused:
        call()
    assert expected in str(refused.value)


def _updated_system_message(value: Any) -> Any:
    agent = scripted("x")
    agent.update_system_message(value)
    return agent.system_message


@pytest.mark.parametrize(
    ("call", "expected", "value"),
    [
        (lambda: ConversableAgent("x", llm_config=False, description=3).description, "description should be a str", 3),
        (lambda: ConversableAgent("x", llm_config=False, context_variables=[])._context_variables,
         "context_variables should be a dict", []),
        (lambda: _updated_system_message(3), "system_message should be a str or a list", 3),
    ],
)
def test_weak_arguments_classic_autogen_accepted_are_kept_with_a_warning(call: Any, expected: str, value: Any) -> None:
    # Classic AutoGen accepts these and keeps them; so does this package, with a warning naming the argument.
    with pytest.warns(UserWarning, match=expected):
        kept = call()
    assert kept == value


def test_description_setter_warns_about_the_type_and_keeps_the_value() -> None:
    agent = scripted("x")
    agent.description = "writes code"
    assert agent.description == "writes code"
    with pytest.warns(UserWarning, match="description should be a str"):
        agent.description = 3  # type: ignore[assignment]
    assert agent.description == 3


# ----------------------------------------------------------------- eligibility explanations
@dataclass(eq=False)
class Stand:
    name: str


CANDIDATES = [Stand(n) for n in ("ann", "ben", "cyd", "dot")]
SUBSETS = st.lists(st.sampled_from([c.name for c in CANDIDATES]), unique=True)
POLICY = st.one_of(
    SUBSETS.map(AllowListPolicy),
    SUBSETS.map(DenyListPolicy),
    SUBSETS.map(lambda names: CallablePolicy(lambda agent, ctx, names=frozenset(names): agent.name in names,
                                             name="custom")),
)


@PROPERTY
@given(policies=st.lists(POLICY, min_size=1, max_size=4))
def test_eligibility_explanations_name_who_each_policy_removed(policies: list[Any]) -> None:
    ctx = SelectionContext(round=0, last_speaker=None, participants=CANDIDATES)
    eligible, trace = apply_eligibility_policies(CANDIDATES, policies, ctx)
    removed = describe_exclusions(CANDIDATES, trace)
    # Every candidate is either eligible or removed by exactly one policy: the first to refuse it.
    gone = [name for _, names in removed for name in names]
    assert sorted(gone + [a.name for a in eligible]) == sorted(c.name for c in CANDIDATES)
    for policy_label, names in removed:
        index = next(i for i, (label, _) in enumerate(trace) if label == policy_label and
                     set(names).isdisjoint(trace[i][1]))
        before = [c.name for c in CANDIDATES] if index == 0 else trace[index - 1][1]
        assert set(names) <= set(before)
    if eligible:
        return
    message = no_eligible_speaker_message(CANDIDATES, trace)
    assert message.startswith("No eligible speaker: ")
    for policy_label, names in removed:
        assert policy_label in message and all(name in message for name in names)
    if len(removed) > 1:
        for policy_label, names in removed:
            assert f"{policy_label} removed {', '.join(names)}" in message


def test_eligibility_message_examples() -> None:
    ctx = SelectionContext(round=0, last_speaker=None, participants=CANDIDATES)
    _, trace = apply_eligibility_policies(CANDIDATES, [DenyListPolicy(["ann"]), AllowListPolicy(["ann", "ben"]),
                                                       DenyListPolicy(["ben"])], ctx)
    assert no_eligible_speaker_message(CANDIDATES, trace) == (
        "No eligible speaker: the eligibility policies excluded every candidate (ann, ben, cyd, dot): "
        "DenyListPolicy removed ann; AllowListPolicy removed cyd, dot; DenyListPolicy removed ben.")
    _, trace = apply_eligibility_policies(CANDIDATES, [AllowListPolicy([])], ctx)
    assert no_eligible_speaker_message(CANDIDATES, trace) == (
        "No eligible speaker: the eligibility policy AllowListPolicy excluded every candidate (ann, ben, cyd, dot).")
    assert no_eligible_speaker_message([], [("AllowListPolicy", [])]).startswith(
        "No eligible speaker: there was no candidate left")
