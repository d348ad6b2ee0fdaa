"""Bad input is refused with an error whose message names the argument, or accepted with a warning.

One table of invalid constructions and calls across the public API (``CASES``). Where classic AutoGen
(ag2 0.7.3) raised only when the value was first used, the error comes at that moment, with the classic
type (``RUN_TIME_CASES``). Where it accepted a value that is probably a mistake, the value is accepted and
used as there, with a UserWarning naming the argument (``WARNED_CASES``). Each behaviour was observed in
the reference on the same calls.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from autogen_classic import (
    ConversableAgent,
    GroupChat,
    GroupChatManager,
    OpenAIWrapper,
    config_list_from_json,
    filter_config,
    get_config_list,
    load_transcript,
)
from autogen_classic import UserProxyAgent
from autogen_classic.agentchat.groupchat.resume import messages_from_string, messages_to_string

# Never contacted: every case fails before a request would be made.
ENTRY = {"model": "m", "api_key": "k", "base_url": "http://127.0.0.1:9/v1"}


def agent(name: str = "a", **kwargs: Any) -> ConversableAgent:
    return ConversableAgent(name, **{"llm_config": False, "human_input_mode": "NEVER", **kwargs})


def manager() -> GroupChatManager:
    groupchat = GroupChat([agent("a"), agent("b")], speaker_selection_method="round_robin")
    return GroupChatManager(groupchat, llm_config=False)


def two() -> list[ConversableAgent]:
    return [agent("a"), agent("b")]


def group_chat_with(groupchat: Any, **manager_kwargs: Any) -> Any:
    """Agent "u" starts a chat with a manager of ``groupchat``; returns the group chat."""
    chat_manager = GroupChatManager(groupchat, **{"llm_config": False, "silent": True, **manager_kwargs})
    agent("u").initiate_chat(chat_manager, message="hi", silent=True)
    return groupchat


def select(groupchat: GroupChat) -> Any:
    """Select the speaker after the first agent."""
    return groupchat.select_speaker(groupchat.agents[0], None)


def raises(error: type[Exception], call: Callable[[], Any], text: str = "") -> bool:
    """True when ``call()`` raises ``error`` with ``text`` in its message."""
    with pytest.raises(error) as raised:
        call()
    return text in str(raised.value)


def history(sender: ConversableAgent, recipient: ConversableAgent, **kwargs: Any) -> list[Any]:
    """The (name, content) pairs of a silent chat from ``sender`` to ``recipient``."""
    result = sender.initiate_chat(recipient, message="hi", silent=True, **kwargs)
    return [(m.get("name"), m.get("content")) for m in result.chat_history]


def with_description(value: Any) -> ConversableAgent:
    a = agent()
    a.description = value
    return a


def with_system_message(value: Any) -> ConversableAgent:
    a = agent()
    a.update_system_message(value)
    return a


def json_file(tmp: Path, text: str) -> str:
    path = tmp / "OAI_CONFIG_LIST.json"
    path.write_text(text)
    return str(tmp)


# (call, expected exception, substring of the message); the call gets a temporary directory.
CASES: list[Any] = [
    # ConversableAgent
    pytest.param(
        lambda t: ConversableAgent("x", llm_config="gpt-4"),
        TypeError, "llm_config must be a dict", id="agent-llm-config-str",
    ),
    pytest.param(
        lambda t: ConversableAgent("x", llm_config=True),
        TypeError, "llm_config must be a dict", id="agent-llm-config-true",
    ),
    pytest.param(
        lambda t: ConversableAgent("x", llm_config={"config_list": "gpt-4"}),
        ValueError, "config_list: must be a list of dicts", id="agent-config-list-str",
    ),
    pytest.param(
        lambda t: ConversableAgent("x", llm_config={"config_list": ["gpt-4"]}),
        ValueError, "config_list[0]: must be a dict", id="agent-config-list-item-str",
    ),
    pytest.param(
        lambda t: ConversableAgent("x", llm_config={"config_list": [ENTRY], "temperature": "hot"}),
        ValueError, "temperature", id="agent-temperature-str",
    ),
    pytest.param(
        lambda t: ConversableAgent("x", llm_config={**ENTRY, "timeout": "soon"}),
        ValueError, "timeout", id="agent-timeout-str",
    ),
    pytest.param(
        lambda t: agent(code_execution_config="yes"),
        ValueError, "code_execution_config must be a dict or False", id="agent-code-execution-str",
    ),
    pytest.param(
        lambda t: agent(code_execution_config=True),
        TypeError, "code_execution_config must be a dict or False", id="agent-code-execution-true",
    ),
    pytest.param(
        lambda t: agent(function_map=[print]),
        TypeError, "function_map must be a dict", id="agent-function-map-list",
    ),
    pytest.param(
        lambda t: agent(function_map={"f": 3}),
        TypeError, "function_map['f'] must be a callable", id="agent-function-map-value",
    ),
    pytest.param(
        lambda t: agent().register_reply(3, lambda *a: (False, None)),
        ValueError, "trigger must be", id="agent-register-reply-trigger",
    ),
    pytest.param(
        lambda t: agent().register_reply([ConversableAgent], "f"),
        TypeError, "reply_func must be callable", id="agent-register-reply-func",
    ),
    pytest.param(
        lambda t: agent().register_function(function_map=[print]),
        TypeError, "function_map must be a dict", id="agent-register-function-list",
    ),
    pytest.param(
        lambda t: agent("a").send(3, agent("b")),
        TypeError, "message must be a str or a dict", id="agent-send-message-int",
    ),
    pytest.param(
        lambda t: agent("a").initiate_chat(None, message="hi"),
        TypeError, "recipient must be an agent", id="chat-recipient-none",
    ),
    pytest.param(
        lambda t: agent("a").initiate_chat(agent("b"), message="hi", max_turns=1, summary_method="nope"),
        ValueError, "summary_method must be", id="chat-summary-method",
    ),
    pytest.param(
        lambda t: agent("a").initiate_chat(agent("b"), message=3, max_turns=1),
        TypeError, "message must be a str or a dict with 'content'", id="chat-message-int",
    ),
    pytest.param(
        lambda t: agent(chat_messages=["earlier"]),
        TypeError, "chat_messages", id="agent-chat-messages-list",
    ),
    pytest.param(
        lambda t: agent("a").send("hi", "b"),
        TypeError, "recipient",
        id="agent-send-recipient-str",
    ),
    pytest.param(
        lambda t: agent().generate_reply(messages="hi"),
        TypeError, "messages",
        id="agent-generate-reply-messages-str",
    ),
    # GroupChat
    pytest.param(
        lambda t: GroupChat(two(), allow_repeat_speaker="yes"),
        ValueError, "allow_repeat_speaker should be a bool or a list", id="groupchat-allow-repeat-str",
    ),
    pytest.param(
        lambda t: GroupChat(two(), allowed_or_disallowed_speaker_transitions={}, speaker_transitions_type="maybe"),
        ValueError, "speaker_transitions_type is set to 'maybe'", id="groupchat-transitions-type",
    ),
    pytest.param(
        lambda t: GroupChat(two(), allowed_or_disallowed_speaker_transitions={}),
        ValueError, "speaker_transitions_type is None", id="groupchat-transitions-without-type",
    ),
    pytest.param(
        lambda t: GroupChat(two(), allowed_or_disallowed_speaker_transitions={}, speaker_transitions_type="allowed",
                            allow_repeat_speaker=True),
        ValueError, "Don't provide both allowed_or_disallowed_speaker_transitions and allow_repeat_speaker",
        id="groupchat-transitions-and-repeat",
    ),
    pytest.param(
        lambda t: GroupChat(two(), max_retries_for_selecting_speaker=-1),
        ValueError, "max_retries_for_selecting_speaker must be greater than or equal to zero",
        id="groupchat-max-retries-negative",
    ),
    pytest.param(
        lambda t: GroupChat(two(), max_retries_for_selecting_speaker="2"),
        ValueError, "max_retries_for_selecting_speaker cannot be None or non-int", id="groupchat-max-retries-str",
    ),
    pytest.param(
        lambda t: GroupChat(two(), select_speaker_auto_verbose=None),
        ValueError, "select_speaker_auto_verbose cannot be None or non-bool", id="groupchat-auto-verbose-none",
    ),
    pytest.param(
        lambda t: GroupChat(two(), select_speaker_message_template=""),
        ValueError, "select_speaker_message_template cannot be empty", id="groupchat-message-template-empty",
    ),
    pytest.param(
        lambda t: GroupChat(two(), role_for_select_speaker_messages=""),
        ValueError, "role_for_select_speaker_messages cannot be empty", id="groupchat-role-empty",
    ),
    pytest.param(
        lambda t: GroupChat(two(), select_speaker_auto_llm_config="gpt-4"),
        TypeError, "select_speaker_auto_llm_config must be None, False or an llm_config dict",
        id="groupchat-auto-llm-config-str",
    ),
    pytest.param(
        lambda t: GroupChat(two(), select_speaker_structured_output="yes"),
        TypeError, "select_speaker_structured_output must be None", id="groupchat-structured-output-str",
    ),
    pytest.param(
        lambda t: GroupChat(two(), select_speaker_auto_addressed="yes"),
        TypeError, "select_speaker_auto_addressed must be None", id="groupchat-auto-addressed-str",
    ),
    pytest.param(
        lambda t: GroupChat(two(), select_speaker_transform_messages="x"),
        ValueError, "select_speaker_transform_messages must be None", id="groupchat-transform-messages-str",
    ),
    pytest.param(
        lambda t: GroupChat(two(), eligibility_policies=[3]),
        TypeError, "eligibility_policies[0]", id="groupchat-eligibility-policy-int",
    ),
    pytest.param(
        lambda t: GroupChat(two(), transcript_path=3),
        TypeError, "transcript_path must be None, a str or an os.PathLike", id="groupchat-transcript-path-int",
    ),
    pytest.param(
        lambda t: GroupChat(two(), transcript_path=t),
        ValueError, "is a directory", id="groupchat-transcript-path-directory",
    ),
    pytest.param(
        lambda t: GroupChat([agent("a"), "b"]),
        TypeError, "agents",
        id="groupchat-agent-name-not-agent",
    ),
    # GroupChatManager
    pytest.param(
        lambda t: GroupChatManager(GroupChat(two()), llm_config={"config_list": [ENTRY], "tools": [{"type": "f"}]}),
        ValueError, "Please remove the 'functions' or 'tools' config in 'llm_config'", id="manager-llm-config-tools",
    ),
    # resume and saved messages
    pytest.param(lambda t: manager().resume([]), ValueError, "no messages were provided", id="resume-empty"),
    pytest.param(
        lambda t: manager().resume(3),
        TypeError, "messages must be a list of message dicts", id="resume-int",
    ),
    pytest.param(
        lambda t: manager().resume("{bad"),
        ValueError, "message_string is not a valid JSON string", id="resume-bad-json",
    ),
    pytest.param(
        lambda t: manager().resume([{"content": "x", "role": "user", "name": "zed"}]),
        ValueError, "zed (messages[0])", id="resume-unknown-name",
    ),
    pytest.param(
        lambda t: manager().resume([{"role": "user", "name": "a"}]),
        ValueError, "messages[0] has no 'content'", id="resume-message-without-body",
    ),
    pytest.param(
        lambda t: manager().resume([{"content": "x", "role": "user", "name": 3}]),
        TypeError, "messages[0]['name'] must be a str", id="resume-name-int",
    ),
    pytest.param(
        lambda t: manager().resume([{"content": "x", "name": "a"}], remove_termination_string=3),
        TypeError, "remove_termination_string must be None, a str, or a function", id="resume-remove-termination-int",
    ),
    pytest.param(
        lambda t: messages_from_string(b"[]"),
        TypeError, "message_string must be a str", id="messages-from-string-bytes",
    ),
    pytest.param(
        lambda t: messages_from_string("nope"),
        ValueError, "message_string is not a valid JSON string", id="messages-from-string-garbage",
    ),
    pytest.param(
        lambda t: messages_from_string('{"a": 1}'),
        ValueError, "message_string must be a JSON list of message objects", id="messages-from-string-object",
    ),
    pytest.param(
        lambda t: messages_to_string({"a": 1}),
        TypeError, "messages must be a list of message dicts", id="messages-to-string-dict",
    ),
    pytest.param(
        lambda t: load_transcript(3),
        TypeError, "path must be a str or os.PathLike", id="load-transcript-int",
    ),
    # OpenAIWrapper
    pytest.param(
        lambda t: OpenAIWrapper(config_list="gpt-4"),
        ValueError, "config_list: must be a list of dicts", id="wrapper-config-list-str",
    ),
    pytest.param(
        lambda t: OpenAIWrapper(config_list=["gpt-4"]),
        ValueError, "config_list[0]: must be a dict", id="wrapper-config-list-item-str",
    ),
    pytest.param(
        lambda t: OpenAIWrapper(config_list=[ENTRY], timeout=-1),
        ValueError, "timeout: must be > 0", id="wrapper-timeout-negative",
    ),
    pytest.param(
        lambda t: OpenAIWrapper(config_list=[{**ENTRY, "max_retries": "x"}]),
        ValueError, "config_list[0].max_retries", id="wrapper-max-retries-str",
    ),
    pytest.param(
        lambda t: OpenAIWrapper(config_list=[{**ENTRY, "model": 3}]),
        ValueError, "config_list[0].model", id="wrapper-model-int",
    ),
    pytest.param(
        lambda t: OpenAIWrapper(config_list=[{**ENTRY, "base_url": 3}]),
        ValueError, "config_list[0].base_url", id="wrapper-base-url-int",
    ),
    pytest.param(
        lambda t: OpenAIWrapper(config_list=[ENTRY]).create(messages="hi"),
        TypeError, "messages must be a list of message dicts", id="wrapper-create-messages-str",
    ),
    pytest.param(
        lambda t: OpenAIWrapper(config_list=[ENTRY], temprature=0.5),
        ValueError, "temprature",
        id="wrapper-misspelt-option",
    ),
    # config lists
    pytest.param(
        lambda t: config_list_from_json("OAI_CONFIG_LIST.json", file_location=json_file(t, "{not json")),
        ValueError, "is not valid JSON", id="config-json-garbage-file",
    ),
    pytest.param(
        lambda t: config_list_from_json("OAI_CONFIG_LIST.json", file_location=json_file(t, '{"model": "m"}')),
        ValueError, "must hold a JSON list of objects", id="config-json-object-file",
    ),
    pytest.param(
        lambda t: config_list_from_json("OAI_CONFIG_LIST.json", file_location=json_file(t, "[]"),
                                        filter_dict=["model"]),
        TypeError, "filter_dict must be a dict", id="config-json-filter-dict-list",
    ),
    pytest.param(
        lambda t: config_list_from_json(3),
        TypeError, "env_or_file", id="config-json-env-or-file-int",
    ),
    pytest.param(
        lambda t: config_list_from_json("OAI_CONFIG_LIST.json", file_location=3),
        TypeError, "file_location", id="config-json-file-location-int",
    ),
    pytest.param(
        lambda t: filter_config([{"model": "m"}], ["model"]),
        TypeError, "filter_dict must be a dict", id="filter-config-filter-dict-list",
    ),
    pytest.param(
        lambda t: filter_config({"model": "m"}, {"model": ["m"]}),
        TypeError, "config_list",
        id="filter-config-config-list-dict",
    ),
    pytest.param(
        lambda t: filter_config(["m"], {"model": ["m"]}),
        TypeError, "config_list", id="filter-config-item-str",
    ),
    pytest.param(
        lambda t: get_config_list("sk-1"),
        TypeError, "api_keys must be a list", id="get-config-list-keys-str",
    ),
    pytest.param(
        lambda t: get_config_list(["k1", "k2"], base_urls=["u"]),
        # The classic text exactly (classic tests compare it whole); it names both arguments.
        ValueError, "The length of api_keys must match the length of base_urls", id="get-config-list-lengths",
    ),
]


# Accepted when built, as in the classic package, and refused when first used, with the classic error type
# (the construction warnings are checked in WARNED_CASES).
RUN_TIME_CASES: list[Any] = [
    pytest.param(
        lambda t: agent(3).initiate_chat(agent("b"), message="hi", max_turns=1),
        ValueError, "sender_name: Input should be a valid string", id="agent-name-int-printed",
    ),
    pytest.param(
        lambda t: UserProxyAgent("u", human_input_mode="never"),
        KeyError, "'never': human_input_mode must be 'ALWAYS', 'TERMINATE' or 'NEVER'", id="user-proxy-mode-lower",
    ),
    pytest.param(
        lambda t: UserProxyAgent("u", human_input_mode="SOMETIMES"),
        KeyError, "'SOMETIMES': human_input_mode must be", id="user-proxy-mode-unknown",
    ),
    pytest.param(
        lambda t: select(GroupChat(two(), speaker_selection_method="loud")),
        ValueError, "GroupChat speaker_selection_method is set to 'loud'. It should be one of", id="groupchat-method",
    ),
    pytest.param(
        lambda t: select(GroupChat(two(), speaker_selection_method=3)),
        AttributeError, "'int' object has no attribute 'lower': GroupChat speaker_selection_method",
        id="groupchat-method-int",
    ),
    pytest.param(
        lambda t: group_chat_with(GroupChat(two(), max_round="10")),
        TypeError, "'str' object cannot be interpreted as an integer: GroupChat max_round must be",
        id="groupchat-max-round-str",
    ),
    pytest.param(
        lambda t: group_chat_with(GroupChat(two(), messages=None)),
        AttributeError, "'NoneType' object has no attribute 'clear': GroupChat messages must be a list",
        id="groupchat-messages-none",
    ),
    pytest.param(
        lambda t: GroupChat([agent("a", description=3), agent("b")]).introductions_msg(),
        AttributeError, "'int' object has no attribute 'strip': the description of agent 'a' must be a str",
        id="groupchat-description-int",
    ),
    pytest.param(
        lambda t: agent("u").initiate_chat(GroupChatManager(None, llm_config=False), message="hi"),
        AttributeError, "'NoneType' object has no attribute 'agents': the groupchat of GroupChatManager",
        id="manager-groupchat-none",
    ),
    pytest.param(
        lambda t: group_chat_with(GroupChat(two(), speaker_selection_method="round_robin"), name=None, silent=False),
        ValueError, "recipient_name: Input should be a valid string", id="manager-name-none-printed",
    ),
]

# (call, substring of the warning, check of what the accepted value does: as in the classic package).
WARNED_CASES: list[Any] = [
    pytest.param(
        lambda t: agent(3), "name should be a non-empty str; got int 3",
        lambda a: a.name == 3 and history(agent("z", default_auto_reply="r"), a, max_turns=1)[0] == ("z", "hi"),
        id="agent-name-int",
    ),
    pytest.param(
        lambda t: agent(""), "name should be a non-empty str; got an empty str", lambda a: a.name == "", id="agent-name-empty",
    ),
    pytest.param(
        lambda t: agent(human_input_mode="SOMETIMES"),
        "human_input_mode should be 'ALWAYS', 'TERMINATE' or 'NEVER'; got 'SOMETIMES'. It is kept as given and "
        "works like 'TERMINATE'",
        lambda a: a.human_input_mode == "SOMETIMES", id="agent-human-input-mode",
    ),
    pytest.param(
        lambda t: agent(human_input_mode="never"), "(upper case: 'NEVER'); got 'never'",
        lambda a: a.human_input_mode == "never", id="agent-human-input-mode-lower",
    ),
    pytest.param(
        lambda t: GroupChatManager(GroupChat(two()), llm_config=False, human_input_mode="X"),
        "human_input_mode should be", lambda m: m.human_input_mode == "X", id="manager-human-input-mode",
    ),
    pytest.param(
        lambda t: agent("b", default_auto_reply="x", max_consecutive_auto_reply=-1),
        "max_consecutive_auto_reply should be a non-negative int (or None: 100); got int -1",
        # The budget is spent from the start: with "NEVER", b never replies.
        lambda b: history(agent(), b, max_turns=2) == [("a", "hi"), ("a", "")],
        id="agent-max-auto-reply-negative",
    ),
    pytest.param(
        lambda t: agent("b", default_auto_reply="x", max_consecutive_auto_reply="5"),
        "max_consecutive_auto_reply should be a non-negative int",
        lambda b: raises(TypeError, lambda: history(agent(), b, max_turns=1), "'>=' not supported"),
        id="agent-max-auto-reply-str",
    ),
    pytest.param(
        lambda t: agent(system_message=3), "system_message should be a str or a list of content parts",
        lambda a: a.system_message == 3 and a.description == 3, id="agent-system-message-int",
    ),
    pytest.param(
        lambda t: with_system_message(3), "system_message should be a str or a list of content parts",
        lambda a: a.system_message == 3, id="agent-update-system-message-int",
    ),
    pytest.param(
        lambda t: agent("b", is_termination_msg="TERMINATE"), "is_termination_msg should be a callable",
        lambda b: raises(TypeError, lambda: history(agent(), b, max_turns=1), "'str' object is not callable"),
        id="agent-is-termination-msg-str",
    ),
    pytest.param(
        lambda t: agent(default_auto_reply=3), "default_auto_reply should be a str or a message dict",
        lambda a: a.generate_reply([{"role": "user", "content": "x"}], agent("s")) == 3,
        id="agent-default-auto-reply-int",
    ),
    pytest.param(
        lambda t: agent(description=3), "description should be a str", lambda a: a.description == 3,
        id="agent-description-int",
    ),
    pytest.param(
        lambda t: with_description(["x"]), "description should be a str", lambda a: a.description == ["x"],
        id="agent-description-setter-list",
    ),
    pytest.param(
        lambda t: agent(context_variables=[]), "context_variables should be a dict",
        lambda a: raises(AttributeError, lambda: a.get_context("k")), id="agent-context-variables-list",
    ),
    pytest.param(
        lambda t: agent("a").initiate_chat(agent("b"), message="hi", max_turns=-1, silent=True),
        "max_turns should be a non-negative int", lambda r: r.chat_history == [] and r.summary == "",
        id="chat-max-turns-negative",
    ),
    pytest.param(
        lambda t: agent("a", max_consecutive_auto_reply=1).initiate_chat(
            agent("b", max_consecutive_auto_reply=1), message="hi", max_turns="2", silent=True
        ),
        "it is not an int, so it is ignored", lambda r: len(r.chat_history) == 3, id="chat-max-turns-str",
    ),
    pytest.param(
        lambda t: GroupChat(two(), messages={}), "GroupChat messages should be a list of message dicts",
        lambda g: raises(AttributeError, lambda: group_chat_with(g), "'dict' object has no attribute 'append'"),
        id="groupchat-messages-dict",
    ),
    pytest.param(
        lambda t: GroupChat(two(), speaker_selection_method="loud"),
        "GroupChat speaker_selection_method is set to 'loud'. It should be one of",
        lambda g: g.speaker_selection_method == "loud", id="groupchat-selection-method",
    ),
    pytest.param(
        lambda t: GroupChat(two(), speaker_selection_method="round_robin", max_round=0),
        "GroupChat max_round should be an int >= 1; got 0", lambda g: group_chat_with(g).messages == [],
        id="groupchat-max-round-zero",
    ),
    pytest.param(
        lambda t: GroupChat(two(), max_round=None), "GroupChat max_round should be an int >= 1; got NoneType None",
        lambda g: raises(TypeError, lambda: group_chat_with(g)), id="groupchat-max-round-none",
    ),
    pytest.param(
        lambda t: GroupChat(set(two())), "GroupChat agents should be a list of agents; got set",
        lambda g: isinstance(g.agents, set), id="groupchat-agents-set",
    ),
    pytest.param(
        lambda t: GroupChatManager([agent()], llm_config=False), "groupchat should be a GroupChat; got list",
        lambda m: m.groupchat[0].name == "a", id="manager-groupchat-list",
    ),
    pytest.param(
        lambda t: GroupChatManager(GroupChat(two()), name=None, llm_config=False), "name should be a non-empty str",
        lambda m: m.name is None, id="manager-name-none",
    ),
]


@pytest.mark.filterwarnings("ignore:.*(kept|used) as given:UserWarning")
@pytest.mark.parametrize(("call", "error", "names"), RUN_TIME_CASES)
def test_bad_input_used_raises_the_classic_error_naming_the_argument(
    call: Callable[[Path], Any], error: type[Exception], names: str, tmp_path: Path
) -> None:
    with pytest.raises(error) as raised:
        call(tmp_path)
    assert names in str(raised.value)


@pytest.mark.filterwarnings("ignore:Cannot extract summary:UserWarning")
@pytest.mark.parametrize(("call", "warning", "check"), WARNED_CASES)
def test_bad_input_accepted_by_classic_autogen_is_accepted_with_a_warning(
    call: Callable[[Path], Any], warning: str, check: Callable[[Any], bool], tmp_path: Path
) -> None:
    with pytest.warns(UserWarning) as record:
        result = call(tmp_path)
    messages = [str(w.message) for w in record]
    assert any(warning in m for m in messages), messages
    # The warning points at the caller's line, not inside the package.
    assert all(w.filename == __file__ for w in record if warning in str(w.message))
    assert check(result)


@pytest.mark.parametrize(("call", "error", "names"), CASES)
def test_bad_input_raises_an_error_naming_the_argument(
    call: Callable[[Path], Any], error: type[Exception], names: str, tmp_path: Path
) -> None:
    with pytest.raises(error) as raised:
        call(tmp_path)
    assert names in str(raised.value)


def test_the_table_covers_every_area() -> None:
    ids = [case.id for case in CASES if not case.marks]
    assert len(ids) >= 40
    assert len(RUN_TIME_CASES) >= 10 and len(WARNED_CASES) >= 20
    areas = ("agent-", "chat-", "groupchat-", "manager-", "resume-", "messages-", "wrapper-", "config-", "filter-")
    for prefix in areas:
        assert any(i.startswith(prefix) for i in ids), prefix
