"""ag2 0.7.3's ``autogen.messages``: each class dumps and prints exactly as there.

The cases are built as 0.7.3's own message tests build them (keyword arguments, a fixed ``uuid``, agents
made with ``llm_config=False`` or ``MagicMock``s with a ``name``), and the expected values are what
ag2 0.7.3 gives for them, written out: ``model_dump()`` and the calls made to a mock print callable.
"""

from __future__ import annotations

from typing import Any, Iterator
from unittest.mock import MagicMock, call
from uuid import UUID

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError

from autogen_classic import ConversableAgent
from autogen_classic.coding import CodeBlock
from autogen_classic.events.agent_events import GroupChatResumeEvent, PostCarryoverProcessingEvent
from autogen_classic.events.base_event import as_event
from autogen_classic.events.client_events import StreamEvent, UsageSummaryEvent
from autogen_classic.messages.agent_messages import (
    ClearAgentsHistoryMessage,
    ClearConversableAgentHistoryMessage,
    ClearConversableAgentHistoryWarningMessage,
    ConversableAgentUsageSummaryMessage,
    ConversableAgentUsageSummaryNoCostIncurredMessage,
    ExecuteCodeBlockMessage,
    ExecutedFunctionMessage,
    ExecuteFunctionMessage,
    FunctionCallMessage,
    FunctionResponseMessage,
    GenerateCodeExecutionReplyMessage,
    GroupChatResumeConsoleMessage,
    GroupChatResumeMessage,
    GroupChatRunChatMessage,
    PostCarryoverProcessingMessage,
    SelectSpeakerInvalidInputMessage,
    SelectSpeakerMessage,
    SelectSpeakerTryCountExceededMessage,
    SpeakerAttemptFailedMultipleAgentsMessage,
    SpeakerAttemptFailedNoAgentsMessage,
    SpeakerAttemptSuccessfullMessage,
    TerminationAndHumanReplyMessage,
    TextMessage,
    ToolCallMessage,
    ToolResponse,
    ToolResponseMessage,
    UsingAutoReplyMessage,
    create_received_message_model,
)
from autogen_classic.messages.base_message import BaseMessage, get_annotated_type_for_message_classes, wrap_message
from autogen_classic.messages.client_messages import (
    StreamConsoleMessage,
    StreamMessage,
    UsageSummaryMessage,
    _change_usage_summary_format,
)
from autogen_classic.messages.print_message import PrintMessage

RULE = "\n", "-" * 80  # the received messages' closing call: call(*RULE, flush=True, sep="")
HEAD = "\x1b[33msender\x1b[0m (to recipient):\n"


@pytest.fixture(autouse=True)
def _colour(monkeypatch: pytest.MonkeyPatch) -> None:
    # The expected calls hold termcolor's codes, which it leaves out when stdout is not a terminal.
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("ANSI_COLORS_DISABLED", raising=False)


@pytest.fixture
def uuid() -> UUID:
    return UUID("12345678-1234-5678-1234-567812345678")


@pytest.fixture
def sender() -> ConversableAgent:
    return ConversableAgent("sender", llm_config=False)


@pytest.fixture
def recipient() -> ConversableAgent:
    return ConversableAgent("recipient", llm_config=False)


def _named(name: str) -> MagicMock:
    agent = MagicMock()
    agent.name = name
    return agent


def _printed(message: Any) -> list[Any]:
    mock = MagicMock()
    message.print(f=mock)
    return mock.call_args_list


# ----------------------------------------------------------------- received messages
def test_tool_call_message_keeps_the_role_it_was_given(uuid: UUID, sender: Any, recipient: Any) -> None:
    message = {
        "content": None, "refusal": None, "role": None, "audio": None, "function_call": None,
        "tool_calls": [
            {"id": "call_rJfVpHU3MXuPRR2OAdssVqUV", "function": {"arguments": '{"num_to_be_cubed": 3}', "name": "_cube"},
             "type": "function"},
            {"id": "call_zMxZk7yRCRGVwR9Qj7TkFZfY", "function": {"arguments": '{"num_to_be_cubed": 4}', "name": "_cube"},
             "type": "function"},
        ],
    }
    actual = create_received_message_model(uuid=uuid, message=message, sender=sender, recipient=recipient)
    assert isinstance(actual, ToolCallMessage) and actual.type == "tool_call"
    assert actual.model_dump() == {"type": "tool_call", "content": {
        "uuid": uuid, "content": None, "sender_name": "sender", "recipient_name": "recipient", "refusal": None,
        "role": None, "audio": None, "function_call": None,
        "tool_calls": [
            {"id": "call_rJfVpHU3MXuPRR2OAdssVqUV", "function": {"name": "_cube", "arguments": '{"num_to_be_cubed": 3}'},
             "type": "function"},
            {"id": "call_zMxZk7yRCRGVwR9Qj7TkFZfY", "function": {"name": "_cube", "arguments": '{"num_to_be_cubed": 4}'},
             "type": "function"},
        ],
    }}
    title_3 = "***** Suggested tool call (call_rJfVpHU3MXuPRR2OAdssVqUV): _cube *****"
    title_4 = "***** Suggested tool call (call_zMxZk7yRCRGVwR9Qj7TkFZfY): _cube *****"
    stars = "\x1b[32m" + "*" * 70 + "\x1b[0m"
    assert _printed(actual) == [
        call(HEAD, flush=True),
        call(f"\x1b[32m{title_3}\x1b[0m", flush=True),
        call("Arguments: \n", '{"num_to_be_cubed": 3}', flush=True, sep=""),
        call(stars, flush=True),
        call(f"\x1b[32m{title_4}\x1b[0m", flush=True),
        call("Arguments: \n", '{"num_to_be_cubed": 4}', flush=True, sep=""),
        call(stars, flush=True),
        call(*RULE, flush=True, sep=""),
    ]


def test_tool_call_message_with_text_and_role(uuid: UUID) -> None:
    message = {"role": "assistant", "content": "calling",
               "tool_calls": [{"id": "c1", "function": {"name": "f", "arguments": ""}, "type": "function"}]}
    actual = create_received_message_model(uuid=uuid, message=message, sender=_named("sender"),
                                           recipient=_named("recipient"))
    assert actual.content.role == "assistant"
    assert _printed(actual) == [
        call(HEAD, flush=True),
        call("calling", flush=True),
        call("\x1b[32m***** Suggested tool call (c1): f *****\x1b[0m", flush=True),
        call("Arguments: \n", "(No arguments found)", flush=True, sep=""),
        call("\x1b[32m" + "*" * 39 + "\x1b[0m", flush=True),
        call(*RULE, flush=True, sep=""),
    ]


def test_tool_response_message(uuid: UUID, sender: Any, recipient: Any) -> None:
    message = {"role": "tool", "content": "Timer is done!\\n\\nStopwatch is done!", "tool_responses": [
        {"tool_call_id": "call_rJfVpHU3MXuPRR2OAdssVqUV", "role": "tool", "content": "Timer is done!"},
        {"tool_call_id": "call_zFZVYovdsklFYgqxttcOHwlr", "role": "tool", "content": "Stopwatch is done!"}]}
    actual = create_received_message_model(uuid=uuid, message=message, sender=sender, recipient=recipient)
    assert isinstance(actual, ToolResponseMessage)
    assert actual.model_dump() == {"type": "tool_response", "content": {
        "uuid": uuid, "content": "Timer is done!\\n\\nStopwatch is done!", "sender_name": "sender",
        "recipient_name": "recipient", "role": "tool", "tool_responses": message["tool_responses"]}}
    stars = "\x1b[32m" + "*" * 70 + "\x1b[0m"
    assert _printed(actual) == [
        call(HEAD, flush=True),
        call("\x1b[32m***** Response from calling tool (call_rJfVpHU3MXuPRR2OAdssVqUV) *****\x1b[0m", flush=True),
        call("Timer is done!", flush=True),
        call(stars, flush=True),
        call(*RULE, flush=True, sep=""),
        call("\x1b[32m***** Response from calling tool (call_zFZVYovdsklFYgqxttcOHwlr) *****\x1b[0m", flush=True),
        call("Stopwatch is done!", flush=True),
        call(stars, flush=True),
        call(*RULE, flush=True, sep=""),
    ]


def test_function_messages(uuid: UUID, sender: Any, recipient: Any) -> None:
    response = create_received_message_model(
        uuid=uuid, message={"name": "get_random_number", "role": "function", "content": "76"}, sender=sender,
        recipient=recipient)
    assert isinstance(response, FunctionResponseMessage)
    assert response.model_dump() == {"type": "function_response", "content": {
        "uuid": uuid, "content": "76", "sender_name": "sender", "recipient_name": "recipient",
        "name": "get_random_number", "role": "function"}}
    assert _printed(response) == [
        call(HEAD, flush=True),
        call("\x1b[32m***** Response from calling function (get_random_number) *****\x1b[0m", flush=True),
        call("76", flush=True),
        call("\x1b[32m" + "*" * 62 + "\x1b[0m", flush=True),
        call(*RULE, flush=True, sep=""),
    ]
    suggested = create_received_message_model(
        uuid=uuid, message={"content": "Let's play a game.", "function_call": {"name": "get_random_number",
                                                                              "arguments": "{}"}},
        sender=sender, recipient=recipient)
    assert isinstance(suggested, FunctionCallMessage)
    assert suggested.model_dump() == {"type": "function_call", "content": {
        "uuid": uuid, "content": "Let's play a game.", "sender_name": "sender", "recipient_name": "recipient",
        "function_call": {"name": "get_random_number", "arguments": "{}"}}}
    assert _printed(suggested) == [
        call(HEAD, flush=True),
        call("Let's play a game.", flush=True),
        call("\x1b[32m***** Suggested function call: get_random_number *****\x1b[0m", flush=True),
        call("Arguments: \n", "{}", flush=True, sep=""),
        call("\x1b[32m" + "*" * 54 + "\x1b[0m", flush=True),
        call(*RULE, flush=True, sep=""),
    ]


def test_response_titles_name_the_role(uuid: UUID) -> None:
    response = FunctionResponseMessage(uuid=uuid, sender_name="a", recipient_name="b", content="r", role="tool",
                                       name="f")
    assert _printed(response)[1] == call("\x1b[32m***** Response from calling tool (f) *****\x1b[0m", flush=True)
    assert _printed(ToolResponse(role="function", content=1)) == [
        call("\x1b[32m***** Response from calling function (No id found) *****\x1b[0m", flush=True),
        call(1, flush=True),
        call("\x1b[32m" + "*" * 56 + "\x1b[0m", flush=True),
    ]


@pytest.mark.parametrize(("content", "printed"), [
    ("Hello, World!", "Hello, World!"),
    ([{"type": "text", "text": "Please extract table from the following image and convert it to Markdown."},
      {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}],
     "Please extract table from the following image and convert it to Markdown.<image>"),
    (None, None),
])
def test_text_message(content: Any, printed: Any, uuid: UUID, sender: Any, recipient: Any) -> None:
    actual = create_received_message_model(uuid=uuid, message={"content": content}, sender=sender,
                                           recipient=recipient)
    assert isinstance(actual, TextMessage)
    assert actual.model_dump() == {"type": "text", "content": {
        "uuid": uuid, "content": content, "sender_name": "sender", "recipient_name": "recipient"}}
    body = [] if printed is None else [call(printed, flush=True)]
    assert _printed(actual) == [call(HEAD, flush=True), *body, call(*RULE, flush=True, sep="")]


@pytest.mark.parametrize(("message", "recipient_llm_config", "expected"), [
    ({"content": lambda context: f"hello {context['name']}", "context": {"name": "there"}}, False, "hello there"),
    ({"content": "hello {name}", "context": {"name": "there"}}, False, "hello {name}"),
    ({"content": "hello {name}", "context": {"name": "there"}},
     {"config_list": [{"model": "gpt-4o", "api_key": "sk-test"}], "allow_format_str_template": True}, "hello there"),
], ids=["lambda", "template-not-allowed", "template-allowed"])
def test_a_content_filled_with_its_context(message: dict[str, Any], recipient_llm_config: Any, expected: str,
                                           uuid: UUID, sender: Any) -> None:
    recipient = ConversableAgent("recipient", llm_config=recipient_llm_config)
    actual = create_received_message_model(uuid=uuid, message=message, sender=sender, recipient=recipient)
    assert actual.model_dump() == {"type": "text", "content": {
        "uuid": uuid, "content": expected, "sender_name": "sender", "recipient_name": "recipient"}}
    assert _printed(actual) == [call(HEAD, flush=True), call(expected, flush=True), call(*RULE, flush=True, sep="")]


def test_a_callable_content_without_context_is_refused(uuid: UUID, sender: Any, recipient: Any) -> None:
    for message in ({"content": lambda context: "hi"}, {"content": lambda context: "hi", "context": {}}):
        with pytest.raises(ValidationError):
            create_received_message_model(uuid=uuid, message=message, sender=sender, recipient=recipient)
    with pytest.raises(ValidationError):
        TextMessage(uuid=uuid, content=lambda context: "hi", sender_name="a", recipient_name="b")


# ----------------------------------------------------------------- carryover
@pytest.mark.parametrize(("carryover", "expected"), [
    ("This is a test function", "This is a test function"),
    (["This is a test function", "This is another test function"],
     "This is a test function\nThis is another test function"),
    ([{"content": "This is a test function"}, {"content": "This is another test function"}],
     "This is a test function\nThis is another test function"),
    ([{"content": "This is a test function"}, "This is another test function", 3],
     "This is a test function\nThis is another test function\n3"),
    ([{"role": "user"}, {"content": None}, {"content": [{"type": "text", "text": "a"}]}],
     "{'role': 'user'}\nNone\n[{'type': 'text', 'text': 'a'}]"),
])
def test_post_carryover_processing(carryover: Any, expected: str, uuid: UUID, sender: Any, recipient: Any) -> None:
    chat_info = {"carryover": carryover, "message": "Start chat", "verbose": True, "sender": sender,
                 "recipient": recipient, "summary_method": "last_msg", "max_turns": 5}
    actual = PostCarryoverProcessingMessage(uuid=uuid, chat_info=chat_info)
    assert actual.model_dump() == {"type": "post_carryover_processing", "content": {
        "uuid": uuid, "carryover": carryover, "message": "Start chat", "verbose": True, "sender_name": "sender",
        "recipient_name": "recipient", "summary_method": "last_msg", "summary_args": None, "max_turns": 5}}
    assert actual.content._process_carryover() == expected
    banner = "\x1b[34m\n" + "*" * 80 + "\x1b[0m"
    assert _printed(actual) == [
        call(banner, flush=True, sep=""),
        call("\x1b[34mStarting a new chat....\x1b[0m", flush=True),
        call("\x1b[34mMessage:\nStart chat\x1b[0m", flush=True),
        call(f"\x1b[34mCarryover:\n{expected}\x1b[0m", flush=True),
        call(banner, flush=True, sep=""),
    ]
    # AG2 Classic 0.14.1's event has the same private helper.
    assert PostCarryoverProcessingEvent(uuid=uuid, chat_info=chat_info).content._process_carryover() == expected


def summary(messages: list[dict[str, Any]]) -> str:
    return "x"


@pytest.mark.parametrize(("given", "message", "summary_method"), [
    ({"message": lambda context: "x", "summary_method": summary}, "Callable: <lambda>", "summary"),
    ({"message": {"content": "hi"}, "summary_method": "reflection_with_llm"}, "Dict: {'content': 'hi'}",
     "reflection_with_llm"),
    ({"message": None}, "None", ""),
    ({"message": 5, "summary_method": "last_msg"}, "", "last_msg"),
], ids=["callable", "dict", "none", "other"])
def test_post_carryover_processing_message_and_method(given: dict[str, Any], message: str, summary_method: str,
                                                      uuid: UUID) -> None:
    chat_info = {"carryover": "c", "sender": _named("sender"), "recipient": _named("recipient"), **given}
    actual = PostCarryoverProcessingMessage(uuid=uuid, chat_info=chat_info)
    assert actual.model_dump()["content"] == {
        "uuid": uuid, "carryover": "c", "message": message, "verbose": False, "sender_name": "sender",
        "recipient_name": "recipient", "summary_method": summary_method, "summary_args": None, "max_turns": None}
    assert len(_printed(actual)) == 3  # not verbose: no message, no carryover


# ----------------------------------------------------------------- chats and group chats
@pytest.mark.parametrize(("agent", "nr", "expected"), [
    (None, None, "Clearing history for all agents."),
    (None, 5, "Clearing history for all agents except last 5 messages."),
    ("bob", None, "Clearing history for bob."),
    ("bob", 5, "Clearing history for bob except last 5 messages."),
])
def test_clear_agents_history(agent: Any, nr: Any, expected: str, uuid: UUID) -> None:
    actual = ClearAgentsHistoryMessage(uuid=uuid, agent=_named(agent) if agent else None, nr_messages_to_preserve=nr)
    assert actual.model_dump() == {"type": "clear_agents_history", "content": {
        "uuid": uuid, "agent_name": agent, "nr_messages_to_preserve": nr}}
    assert _printed(actual) == [call(expected)]


@pytest.mark.parametrize(("cls", "tag", "printed"), [
    (SpeakerAttemptSuccessfullMessage, "speaker_attempt_successfull",
     "\x1b[32m>>>>>>>> Select speaker attempt 1 of 3 successfully selected: agent_1\x1b[0m"),
    (SpeakerAttemptFailedMultipleAgentsMessage, "speaker_attempt_failed_multiple_agents",
     "\x1b[31m>>>>>>>> Select speaker attempt 1 of 3 failed as it included multiple agent names.\x1b[0m"),
    (SpeakerAttemptFailedNoAgentsMessage, "speaker_attempt_failed_no_agents",
     "\x1b[31m>>>>>>>> Select speaker attempt #1 failed as it did not include any agent names.\x1b[0m"),
])
def test_speaker_attempts(cls: Any, tag: str, printed: str, uuid: UUID) -> None:
    mentions = {"agent_1": 1, "agent_2": 2}
    actual = cls(uuid=uuid, mentions=mentions, attempt=1, attempts_left=2)
    assert actual.model_dump() == {"type": tag, "content": {
        "uuid": uuid, "mentions": mentions, "attempt": 1, "attempts_left": 2, "verbose": False}}
    assert _printed(actual) == [call(printed, flush=True)]
    assert cls(uuid=uuid, mentions=mentions, attempt=1, attempts_left=2,
               select_speaker_auto_verbose=None).content.verbose is None


def test_group_chat_resume(uuid: UUID) -> None:
    messages = [{"content": "Let's get this meeting started.", "role": "user", "name": "chairperson"},
                {"content": "hi", "role": "user", "name": "bob"}]
    dumped = {"type": "group_chat_resume", "content": {
        "uuid": uuid, "last_speaker_name": "chairperson", "messages": messages, "verbose": True}}
    line = call("Prepared group chat with 2 messages, the last speaker is", "\x1b[33mchairperson\x1b[0m", flush=True)
    actual = GroupChatResumeMessage(uuid=uuid, last_speaker_name="chairperson", messages=messages)
    assert actual.model_dump() == dumped and _printed(actual) == [line]
    silent = GroupChatResumeMessage(uuid=uuid, last_speaker_name="chairperson", messages=messages, silent=True)
    assert silent.content.verbose is False and _printed(silent) == [line]  # 0.7.3 prints it all the same

    # What the package sends: the same message, printing AG2 Classic 0.14.1's line.
    sent = GroupChatResumeConsoleMessage(uuid=uuid, last_speaker_name="chairperson", messages=messages)
    assert isinstance(sent, GroupChatResumeMessage) and isinstance(sent, GroupChatResumeEvent)
    assert type(sent).__name__ == "GroupChatResumeMessage" and sent.model_dump() == dumped
    assert _printed(sent) == [
        call("Prepared group chat with 2 events, the last speaker is", "\x1b[33mchairperson\x1b[0m", flush=True)]
    assert type(TypeAdapter(get_annotated_type_for_message_classes()).validate_python(dumped)) is GroupChatResumeMessage
    assert type(as_event(sent)) is GroupChatResumeEvent


@pytest.mark.parametrize("silent", [False, True])
def test_group_chat_run_chat(silent: bool, uuid: UUID, recipient: Any) -> None:
    actual = GroupChatRunChatMessage(uuid=uuid, speaker=recipient, silent=silent)
    assert actual.model_dump() == {"type": "group_chat_run_chat", "content": {
        "uuid": uuid, "speaker_name": "recipient", "verbose": not silent}}
    assert _printed(actual) == [call("\x1b[32m\nNext speaker: recipient\n\x1b[0m", flush=True)]


@pytest.mark.parametrize(("given", "sender_name"), [("agent", "sender"), (None, "No sender")])
def test_human_reply_messages(given: Any, sender_name: str, uuid: UUID, sender: Any, recipient: Any) -> None:
    who = sender if given else None
    no_input = TerminationAndHumanReplyMessage(uuid=uuid, no_human_input_msg="NO HUMAN INPUT RECEIVED.", sender=who,
                                               recipient=recipient)
    assert list(no_input.model_dump()["content"].items()) == [
        ("uuid", uuid), ("no_human_input_msg", "NO HUMAN INPUT RECEIVED."), ("sender_name", sender_name),
        ("recipient_name", "recipient")]
    assert no_input.type == "termination_and_human_reply"
    assert _printed(no_input) == [call("\x1b[31m\n>>>>>>>> NO HUMAN INPUT RECEIVED.\x1b[0m", flush=True)]
    auto = UsingAutoReplyMessage(uuid=uuid, human_input_mode="ALWAYS", sender=who, recipient=recipient)
    assert list(auto.model_dump()["content"].items()) == [
        ("uuid", uuid), ("human_input_mode", "ALWAYS"), ("sender_name", sender_name), ("recipient_name", "recipient")]
    assert _printed(auto) == [call("\x1b[31m\n>>>>>>>> USING AUTO REPLY...\x1b[0m", flush=True)]


# ----------------------------------------------------------------- code and functions
def test_code_and_function_execution(uuid: UUID, recipient: Any) -> None:
    block = ExecuteCodeBlockMessage(uuid=uuid, code="print('hello world')", language="python", code_block_count=0,
                                    recipient=recipient)
    assert list(block.model_dump()["content"].items()) == [
        ("uuid", uuid), ("code", "print('hello world')"), ("language", "python"), ("code_block_count", 0),
        ("recipient_name", "recipient")]
    assert _printed(block) == [
        call("\x1b[31m\n>>>>>>>> EXECUTING CODE BLOCK 0 (inferred language is python)...\x1b[0m", flush=True)]

    function = ExecuteFunctionMessage(uuid=uuid, func_name="add_num", call_id="call_12345xyz",
                                      arguments={"num_to_be_added": 5}, recipient=recipient)
    assert list(function.model_dump()["content"].items()) == [
        ("uuid", uuid), ("func_name", "add_num"), ("call_id", "call_12345xyz"), ("arguments", {"num_to_be_added": 5}),
        ("recipient_name", "recipient")]
    assert _printed(function) == [call(
        "\x1b[35m\n>>>>>>>> EXECUTING FUNCTION add_num...\nCall ID: call_12345xyz\nInput arguments: "
        "{'num_to_be_added': 5}\x1b[0m", flush=True)]

    executed = ExecutedFunctionMessage(uuid=uuid, func_name="add_num", call_id="call_12345xyz",
                                       arguments={"num_to_be_added": 5}, content="15", recipient=recipient)
    assert list(executed.model_dump()["content"]) == [
        "uuid", "func_name", "call_id", "arguments", "content", "recipient_name"]
    assert _printed(executed) == [call(
        "\x1b[35m\n>>>>>>>> EXECUTED FUNCTION add_num...\nCall ID: call_12345xyz\nInput arguments: "
        "{'num_to_be_added': 5}\nOutput:\n15\x1b[0m", flush=True)]


def test_generate_code_execution_reply(uuid: UUID, sender: Any, recipient: Any) -> None:
    blocks = [CodeBlock(code="print('hello world')", language="python"), CodeBlock(code="ls", language="sh")]
    two = GenerateCodeExecutionReplyMessage(uuid=uuid, code_blocks=blocks, sender=sender, recipient=recipient)
    assert two.model_dump() == {"type": "generate_code_execution_reply", "content": {
        "uuid": uuid, "code_block_languages": ["python", "sh"], "sender_name": "sender",
        "recipient_name": "recipient"}}
    assert _printed(two) == [
        call("\x1b[31m\n>>>>>>>> EXECUTING 2 CODE BLOCKS (inferred languages are [python, sh])...\x1b[0m", flush=True)]
    one = GenerateCodeExecutionReplyMessage(uuid=uuid, code_blocks=blocks[:1], recipient=recipient)
    assert one.content.sender_name is None
    assert _printed(one) == [
        call("\x1b[31m\n>>>>>>>> EXECUTING CODE BLOCK (inferred language is python)...\x1b[0m", flush=True)]


# ----------------------------------------------------------------- manual selection, history, usage headings
@pytest.mark.parametrize(("agents", "names"), [
    (["bob", "charlie"], ["bob", "charlie"]), ([], None), (None, None)])
def test_manual_selection(agents: Any, names: Any, uuid: UUID) -> None:
    given = None if agents is None else [ConversableAgent(name, llm_config=False) for name in agents]
    select = SelectSpeakerMessage(uuid=uuid, agents=given)
    assert select.model_dump() == {"type": "select_speaker", "content": {"uuid": uuid, "agent_names": names}}
    assert _printed(select) == [call("Please select the next speaker from the following list:"),
                                *[call(f"{i}: {name}") for i, name in enumerate(names or [], start=1)]]
    exceeded = SelectSpeakerTryCountExceededMessage(uuid=uuid, try_count=3, agents=given)
    assert list(exceeded.model_dump()["content"].items()) == [("uuid", uuid), ("try_count", 3), ("agent_names", names)]
    assert _printed(exceeded) == [call("You have tried 3 times. The next speaker will be selected automatically.")]
    invalid = SelectSpeakerInvalidInputMessage(uuid=uuid, agents=given)
    assert invalid.model_dump()["content"] == {"uuid": uuid, "agent_names": names}
    assert _printed(invalid) == [call(f"Invalid input. Please enter a number between 1 and {len(names or [])}.")]


def test_history_and_usage_headings(uuid: UUID, recipient: Any) -> None:
    preserved = ClearConversableAgentHistoryMessage(uuid=uuid, agent=recipient, no_messages_preserved=2)
    assert preserved.model_dump() == {"type": "clear_conversable_agent_history", "content": {
        "uuid": uuid, "agent_name": "recipient", "recipient_name": "recipient", "no_messages_preserved": 2}}
    line = "Preserving one more message for recipient to not divide history between tool call and tool response."
    assert _printed(preserved) == [call(line), call(line)]
    warning = ClearConversableAgentHistoryWarningMessage(uuid=uuid, recipient=recipient)
    assert warning.model_dump() == {"type": "clear_conversable_agent_history_warning", "content": {
        "uuid": uuid, "recipient_name": "recipient"}}
    assert _printed(warning) == [call("\x1b[33mWARNING: `nr_preserved_messages` is ignored when clearing chat history "
                                      "with a specific agent.\x1b[0m", flush=True)]
    no_cost = ConversableAgentUsageSummaryNoCostIncurredMessage(uuid=uuid, recipient=_named("recipient"))
    assert no_cost.model_dump() == {"type": "conversable_agent_usage_summary_no_cost_incurred", "content": {
        "uuid": uuid, "recipient_name": "recipient"}}
    assert _printed(no_cost) == [call("No cost incurred from agent 'recipient'.")]
    heading = ConversableAgentUsageSummaryMessage(uuid=uuid, recipient=recipient)
    assert heading.type == "conversable_agent_usage_summary" and _printed(heading) == [call("Agent 'recipient':")]


# ----------------------------------------------------------------- client messages
MINI = {"gpt-4o-mini-2024-07-18": {"cost": 4.23e-05, "prompt_tokens": 45, "completion_tokens": 25,
                                   "total_tokens": 70}, "total_cost": 4.23e-05}
TWO = {**MINI, "gpt-4o": {"cost": 0.00123456, "prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150},
       "total_cost": 0.00127686}
MINI_USAGES = {"usages": [{"model": "gpt-4o-mini-2024-07-18", "completion_tokens": 25, "cost": 4.23e-05,
                           "prompt_tokens": 45, "total_tokens": 70}], "total_cost": 4.23e-05}
LINE = call("-" * 100, flush=True)
MINI_EXCLUDING = [
    call("Usage summary excluding cached usage: ", flush=True),
    call("Total cost: 4e-05", flush=True),
    call("* Model 'gpt-4o-mini-2024-07-18': cost: 4e-05, prompt_tokens: 45, completion_tokens: 25, total_tokens: 70",
         flush=True),
]


@pytest.mark.parametrize("cls", [UsageSummaryMessage, UsageSummaryEvent], ids=["0.7.3", "0.14.1"])
def test_usage_summary_same_actual_and_total(cls: Any, uuid: UUID) -> None:
    actual = cls(uuid=uuid, actual_usage_summary=MINI, total_usage_summary=MINI, mode="both")
    assert actual.model_dump() == {"type": "usage_summary", "content": {
        "uuid": uuid, "actual": MINI_USAGES, "total": MINI_USAGES, "mode": "both"}}
    assert _printed(actual) == [
        LINE, *MINI_EXCLUDING, call(),
        call("All completions are non-cached: the total cost with cached completions is the same as actual cost.",
             flush=True),
        LINE,
    ]


def test_usage_summary_modes(uuid: UUID) -> None:
    both = UsageSummaryMessage(uuid=uuid, actual_usage_summary=MINI, total_usage_summary=TWO)
    including = [
        call("Usage summary including cached usage: ", flush=True),
        call("Total cost: 0.00128", flush=True),
        MINI_EXCLUDING[2],
        call("* Model 'gpt-4o': cost: 0.00123, prompt_tokens: 100, completion_tokens: 50, total_tokens: 150",
             flush=True),
    ]
    assert _printed(both) == [LINE, *MINI_EXCLUDING, call(), *including, LINE]
    total = UsageSummaryMessage(uuid=uuid, actual_usage_summary=MINI, total_usage_summary=TWO, mode="total")
    assert _printed(total) == [LINE, *including, LINE]
    cached = UsageSummaryMessage(uuid=uuid, actual_usage_summary={"total_cost": 0}, total_usage_summary=MINI,
                                 mode="actual")
    assert cached.model_dump()["content"]["actual"] == {"usages": [], "total_cost": 0.0}
    assert _printed(cached) == [
        LINE, call("No actual cost incurred (all completions are using cache).", flush=True), LINE]


def test_usage_summary_without_usage(uuid: UUID) -> None:
    empty = UsageSummaryMessage(uuid=uuid)
    assert empty.model_dump() == {"type": "usage_summary", "content": {
        "uuid": uuid, "actual": {"usages": None, "total_cost": None}, "total": {"usages": None, "total_cost": None},
        "mode": "both"}}
    assert _printed(empty) == [call('No usage summary. Please call "create" first.', flush=True)]
    with pytest.raises(ValidationError):
        UsageSummaryMessage(uuid=uuid, actual_usage_summary=MINI, total_usage_summary=MINI, mode="x")  # type: ignore[arg-type]


def test_change_usage_summary_format() -> None:
    assert _change_usage_summary_format(MINI, None) == {
        "actual": {"usages": [{"cost": 4.23e-05, "prompt_tokens": 45, "completion_tokens": 25, "total_tokens": 70,
                               "model": "gpt-4o-mini-2024-07-18"}], "total_cost": 4.23e-05},
        "total": {"usages": None, "total_cost": None},
    }


def test_stream_message(uuid: UUID) -> None:
    actual = StreamMessage(uuid=uuid, content="random stream chunk content")
    assert actual.model_dump() == {"type": "stream", "content": {"uuid": uuid, "content": "random stream chunk content"}}
    expected = [call("\x1b[32m", end=""), call("random stream chunk content", end="", flush=True), call("\x1b[0m\n")]
    assert _printed(actual) == expected
    assert _printed(StreamEvent(uuid=uuid, content="random stream chunk content")) == expected  # 0.14.1 alike

    # What the package sends while streaming: the same message, keeping the answer on one line.
    sent = StreamConsoleMessage(uuid=uuid, content="tok")
    assert isinstance(sent, StreamMessage) and isinstance(sent, StreamEvent) and type(sent).__name__ == "StreamMessage"
    assert sent.model_dump() == {"type": "stream", "content": {"uuid": uuid, "content": "tok"}}
    assert _printed(sent) == [call("\x1b[32mtok\x1b[0m", end="", flush=True)]


# ----------------------------------------------------------------- print message and the base class
class _Point(BaseModel):
    x: int


def test_print_message(uuid: UUID) -> None:
    actual = PrintMessage("Hello, World!", "How are you", sep=" ", end="\n", flush=False, uuid=uuid)
    assert actual.model_dump() == {"type": "print", "content": {
        "uuid": uuid, "objects": ["Hello, World!", "How are you"], "sep": " ", "end": "\n"}}
    assert _printed(actual) == [call("Hello, World!", "How are you", sep=" ", end="\n", flush=True)]
    objects = PrintMessage(1, None, {"a": 1}, _Point(x=2), uuid=uuid)
    assert objects.content.objects == ["1", "null", '{"a": 1}', '{"x":2}']


@pytest.fixture
def restore_message_classes() -> Iterator[None]:
    from autogen_classic.messages import base_message

    before = dict(base_message._message_classes)
    yield
    base_message._message_classes.clear()
    base_message._message_classes.update(before)


@pytest.mark.usefixtures("restore_message_classes")
def test_wrap_message(uuid: UUID) -> None:
    @wrap_message
    class TestMessage(BaseMessage):
        sender: str
        receiver: str
        content: str

    message = TestMessage(uuid=uuid, sender="sender", receiver="receiver", content="Hello, World!")
    expected = {"type": "test", "content": {
        "uuid": uuid, "sender": "sender", "receiver": "receiver", "content": "Hello, World!"}}
    assert message.model_dump() == expected
    back = TypeAdapter(get_annotated_type_for_message_classes()).validate_python(expected)
    assert isinstance(back, TestMessage) and back.model_dump() == expected
    assert _printed(message) == []  # a class that does not say how it prints prints nothing

    with pytest.raises(ValueError, match="Message class name must end with 'Message'"):
        @wrap_message
        class Something(BaseMessage):
            x: int
