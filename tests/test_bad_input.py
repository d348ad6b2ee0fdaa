"""Bad input is refused with a ValueError or TypeError whose message names the argument.

One table of invalid constructions and calls across the public API.
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
from autogen_classic.agentchat.groupchat_resume import messages_from_string, messages_to_string

# Never contacted: every case fails before a request would be made.
ENTRY = {"model": "m", "api_key": "k", "base_url": "http://127.0.0.1:9/v1"}


def agent(name: str = "a", **kwargs: Any) -> ConversableAgent:
    return ConversableAgent(name, **{"llm_config": False, "human_input_mode": "NEVER", **kwargs})


def manager() -> GroupChatManager:
    groupchat = GroupChat([agent("a"), agent("b")], speaker_selection_method="round_robin")
    return GroupChatManager(groupchat, llm_config=False)


def two() -> list[ConversableAgent]:
    return [agent("a"), agent("b")]


def json_file(tmp: Path, text: str) -> str:
    path = tmp / "OAI_CONFIG_LIST.json"
    path.write_text(text)
    return str(tmp)


# (call, expected exception, substring of the message); the call gets a temporary directory.
CASES: list[Any] = [
    # ConversableAgent
    pytest.param(
        lambda t: ConversableAgent(3, llm_config=False),
        TypeError, "name must be a non-empty str", id="agent-name-int",
    ),
    pytest.param(
        lambda t: ConversableAgent("", llm_config=False),
        TypeError, "name must be a non-empty str", id="agent-name-empty",
    ),
    pytest.param(
        lambda t: agent(human_input_mode="SOMETIMES"),
        ValueError, "human_input_mode must be one of", id="agent-human-input-mode",
    ),
    pytest.param(
        lambda t: agent(max_consecutive_auto_reply=-1),
        ValueError, "max_consecutive_auto_reply must be", id="agent-max-auto-reply-negative",
    ),
    pytest.param(
        lambda t: agent(max_consecutive_auto_reply="5"),
        ValueError, "max_consecutive_auto_reply must be", id="agent-max-auto-reply-str",
    ),
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
        lambda t: agent(system_message=3),
        TypeError, "system_message must be a str or a list", id="agent-system-message-int",
    ),
    pytest.param(
        lambda t: agent(is_termination_msg="TERMINATE"),
        TypeError, "is_termination_msg must be a callable", id="agent-is-termination-msg-str",
    ),
    pytest.param(
        lambda t: agent(default_auto_reply=3),
        TypeError, "default_auto_reply must be a str or a dict", id="agent-default-auto-reply-int",
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
        lambda t: agent("a").initiate_chat(agent("b"), message="hi", max_turns=-1),
        ValueError, "max_turns must be", id="chat-max-turns-negative",
    ),
    pytest.param(
        lambda t: agent("a").initiate_chat(agent("b"), message="hi", max_turns="2"),
        ValueError, "max_turns must be", id="chat-max-turns-str",
    ),
    pytest.param(
        lambda t: agent("a").initiate_chat(agent("b"), message="hi", max_turns=1, summary_method="nope"),
        ValueError, "summary_method must be", id="chat-summary-method",
    ),
    pytest.param(
        lambda t: agent("a").initiate_chat(agent("b"), message=3, max_turns=1),
        TypeError, "message must be a str, a dict, a callable or None", id="chat-message-int",
    ),
    pytest.param(
        lambda t: agent(description=3),
        TypeError, "description", id="agent-description-int",
    ),
    pytest.param(
        lambda t: agent(chat_messages=[]),
        TypeError, "chat_messages", id="agent-chat-messages-list",
    ),
    pytest.param(
        lambda t: agent(context_variables=[]),
        TypeError, "context_variables", id="agent-context-variables-list",
    ),
    pytest.param(
        lambda t: agent().update_system_message(3),
        TypeError, "system_message", id="agent-update-system-message-int",
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
        lambda t: GroupChat(tuple(two())),
        TypeError, "GroupChat agents must be a list", id="groupchat-agents-tuple",
    ),
    pytest.param(
        lambda t: GroupChat(two(), messages={}),
        TypeError, "GroupChat messages must be a list", id="groupchat-messages-dict",
    ),
    pytest.param(
        lambda t: GroupChat(two(), speaker_selection_method="loud"),
        ValueError, "speaker_selection_method is set to 'loud'", id="groupchat-selection-method",
    ),
    pytest.param(
        lambda t: GroupChat(two(), speaker_selection_method=3),
        ValueError, "speaker_selection_method is set to '3'", id="groupchat-selection-method-int",
    ),
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
        lambda t: GroupChat(two(), max_round="10"),
        TypeError, "max_round", id="groupchat-max-round-str",
    ),
    pytest.param(
        lambda t: GroupChat(two(), max_round=0),
        ValueError, "max_round", id="groupchat-max-round-zero",
    ),
    pytest.param(
        lambda t: GroupChat([agent("a"), "b"]),
        TypeError, "agents",
        id="groupchat-agent-name-not-agent",
    ),
    # GroupChatManager
    pytest.param(
        lambda t: GroupChatManager([agent()]),
        TypeError, "groupchat must be a GroupChat", id="manager-groupchat-list",
    ),
    pytest.param(
        lambda t: GroupChatManager(None),
        TypeError, "groupchat must be a GroupChat", id="manager-groupchat-none",
    ),
    pytest.param(
        lambda t: GroupChatManager(GroupChat(two()), llm_config={"config_list": [ENTRY], "tools": [{"type": "f"}]}),
        ValueError, "Please remove the 'functions' or 'tools' config in 'llm_config'", id="manager-llm-config-tools",
    ),
    pytest.param(
        lambda t: GroupChatManager(GroupChat(two()), llm_config=False, human_input_mode="X"),
        ValueError, "human_input_mode must be one of", id="manager-human-input-mode",
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
        lambda t: OpenAIWrapper(config_list=[]),
        ValueError, "'config_list' is empty", id="wrapper-config-list-empty",
    ),
    pytest.param(
        lambda t: OpenAIWrapper(config_list=[{**ENTRY, "api_type": "martian"}]),
        ValueError, "config_list[0].api_type: unknown api_type 'martian'", id="wrapper-api-type",
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
        lambda t: OpenAIWrapper(config_list=[ENTRY], cache_seed=1.5),
        ValueError, "cache_seed", id="wrapper-cache-seed-float",
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
        lambda t: filter_config([{"model": "m"}], {"model": "m"}),
        TypeError, "filter_dict['model'] must be a list or set", id="filter-config-filter-value-str",
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
        ValueError, "base_urls must have one URL per api key", id="get-config-list-lengths",
    ),
]


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
    areas = ("agent-", "chat-", "groupchat-", "manager-", "resume-", "messages-", "wrapper-", "config-", "filter-")
    for prefix in areas:
        assert any(i.startswith(prefix) for i in ids), prefix
