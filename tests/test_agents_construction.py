"""Constructing agents: classic defaults, validation of arguments, the classic exception classes.

Expected defaults and messages were checked against the reference (ag2 0.7.3) on the same calls.
"""

from __future__ import annotations

from typing import Any

import pytest

import autogen_classic as autogen
from autogen_classic import AssistantAgent, ConversableAgent, UserProxyAgent
from autogen_classic import exception_utils
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer


def _names(agent: ConversableAgent) -> list[str]:
    return [entry["reply_func"].__name__ for entry in agent._reply_func_list]


# ----------------------------------------------------------------------------- defaults


def test_conversable_agent_defaults() -> None:
    agent = ConversableAgent("c", llm_config=False)
    assert agent.name == "c"
    assert agent.system_message == "You are a helpful AI Assistant."
    assert agent.description == agent.system_message
    assert agent.human_input_mode == "TERMINATE"
    assert agent.max_consecutive_auto_reply() == 100
    assert agent.llm_config is False
    assert agent.client is None
    assert agent._code_execution_config is False
    assert agent.use_docker is None
    assert agent.function_map == {}
    assert agent.chat_messages == {}
    assert agent.last_message() is None
    # Checked last-registered-first: termination/human input, function call, tool calls, model (no code).
    assert _names(agent) == [
        "a_check_termination_and_human_reply",
        "check_termination_and_human_reply",
        "a_generate_function_call_reply",
        "generate_function_call_reply",
        "a_generate_tool_calls_reply",
        "generate_tool_calls_reply",
        "a_generate_oai_reply",
        "generate_oai_reply",
    ]


def test_default_llm_config_is_false_and_none_means_default() -> None:
    assert ConversableAgent.DEFAULT_CONFIG is False
    assert ConversableAgent("c").llm_config is False


def test_assistant_agent_defaults(scripted_server: ScriptedOpenAIServer) -> None:
    assistant = AssistantAgent("assistant", llm_config=scripted_server.llm_config())
    assert assistant.system_message == AssistantAgent.DEFAULT_SYSTEM_MESSAGE
    assert assistant.system_message.startswith("You are a helpful AI assistant.\nSolve tasks using your coding")
    assert 'Reply "TERMINATE" in the end when everything is done.' in assistant.system_message
    assert assistant.description == AssistantAgent.DEFAULT_DESCRIPTION
    assert assistant.human_input_mode == "NEVER"
    assert assistant._code_execution_config is False
    assert assistant.max_consecutive_auto_reply() == 100
    assert assistant.llm_config["config_list"][0]["model"] == "scripted-model"
    # A custom system message keeps the description equal to it.
    custom = AssistantAgent("helper", system_message="Be brief.", llm_config=False)
    assert custom.description == "Be brief."


def test_user_proxy_defaults(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("AUTOGEN_USE_DOCKER", raising=False)
    proxy = UserProxyAgent("user", code_execution_config={"use_docker": False})
    assert proxy.human_input_mode == "ALWAYS"
    assert proxy.llm_config is False
    assert proxy.system_message == ""
    assert proxy._code_execution_config == {"use_docker": False}
    # Code execution is checked after function and tool calls, before the (absent) model.
    assert _names(proxy)[-3:] == ["generate_code_execution_reply", "a_generate_oai_reply", "generate_oai_reply"]
    descriptions = UserProxyAgent.DEFAULT_USER_PROXY_AGENT_DESCRIPTIONS
    for mode in ("ALWAYS", "TERMINATE", "NEVER"):
        agent = UserProxyAgent("u", human_input_mode=mode, code_execution_config=False)
        assert agent.description == descriptions[mode]
    assert descriptions["NEVER"].startswith("A computer terminal that performs no other action than running Python")


def test_code_execution_false_registers_no_code_reply() -> None:
    proxy = UserProxyAgent("user", code_execution_config=False)
    assert "generate_code_execution_reply" not in _names(proxy)
    assert proxy.use_docker is None


def test_asking_for_docker_is_a_clear_error_with_a_local_alternative() -> None:
    with pytest.raises(RuntimeError) as info:
        UserProxyAgent("user", code_execution_config={"use_docker": True})
    text = str(info.value)
    assert text.startswith("Code execution is set to be run in docker (default behaviour) but docker is not running.")
    assert '"use_docker": False' in text and "AUTOGEN_USE_DOCKER" in text


def test_description_and_system_message_can_be_updated() -> None:
    agent = ConversableAgent("c", system_message="old", description="seen by others", llm_config=False)
    assert agent.description == "seen by others"
    agent.update_system_message("new")
    assert agent.system_message == "new"
    assert agent._oai_system_message == [{"content": "new", "role": "system"}]
    agent.description = "changed"
    assert agent.description == "changed"


def test_update_max_consecutive_auto_reply_globally_and_per_sender() -> None:
    agent = ConversableAgent("c", llm_config=False, max_consecutive_auto_reply=3)
    other = ConversableAgent("o", llm_config=False)
    assert agent.max_consecutive_auto_reply(other) == 3
    agent.update_max_consecutive_auto_reply(1, other)
    assert agent.max_consecutive_auto_reply(other) == 1
    assert agent.max_consecutive_auto_reply() == 3
    agent.update_max_consecutive_auto_reply(7)
    assert agent.max_consecutive_auto_reply() == 7
    assert agent.max_consecutive_auto_reply(other) == 7


def test_chat_messages_argument_is_the_starting_history() -> None:
    peer = ConversableAgent("peer", llm_config=False)
    history = {peer: [{"content": "earlier", "role": "user", "name": "peer"}]}
    agent = ConversableAgent("c", llm_config=False, chat_messages=history)
    assert agent.chat_messages[peer][0]["content"] == "earlier"
    assert agent.last_message(peer) == {"content": "earlier", "role": "user", "name": "peer"}


def test_context_variables() -> None:
    agent = ConversableAgent("c", llm_config=False, context_variables={"k": 1})
    assert agent.get_context("k") == 1
    agent.set_context("j", 2)
    agent.update_context({"k": 3})
    assert agent.pop_context("j") == 2
    assert agent.get_context("j", "none") == "none"
    assert agent.get_context("k") == 3


def test_llm_config_is_copied(scripted_server: ScriptedOpenAIServer) -> None:
    config = scripted_server.llm_config()
    agent = ConversableAgent("c", llm_config=config)
    agent.llm_config["temperature"] = 0.5
    assert "temperature" not in config
    assert agent.client is not None


# ----------------------------------------------------------------------------- validation


@pytest.mark.parametrize("mode", ["always", "Never", "terminate"])
def test_human_input_mode_accepts_any_letter_case(mode: str) -> None:
    assert ConversableAgent("c", llm_config=False, human_input_mode=mode).human_input_mode == mode.upper()  # type: ignore[arg-type]


@pytest.mark.parametrize("mode", ["sometimes", "", None, 3])
def test_unknown_human_input_mode_names_the_argument_and_values(mode: Any) -> None:
    with pytest.raises(ValueError) as info:
        ConversableAgent("c", llm_config=False, human_input_mode=mode)
    message = str(info.value)
    assert "human_input_mode" in message
    for accepted in ("ALWAYS", "TERMINATE", "NEVER"):
        assert accepted in message
    with pytest.raises(ValueError, match="human_input_mode"):
        UserProxyAgent("u", human_input_mode=mode, code_execution_config=False)


def test_non_callable_in_function_map_is_a_type_error_naming_the_key() -> None:
    with pytest.raises(TypeError) as info:
        ConversableAgent("c", llm_config=False, function_map={"add": 3})  # type: ignore[dict-item]
    assert "function_map['add']" in str(info.value) and "callable" in str(info.value)
    with pytest.raises(TypeError, match="function_map"):
        ConversableAgent("c", llm_config=False, function_map=[print])  # type: ignore[arg-type]
    agent = ConversableAgent("c", llm_config=False)
    with pytest.raises(TypeError, match=r"function_map\['f'\] must be callable or None"):
        agent.register_function({"f": "not a function"})  # type: ignore[dict-item]


def test_invalid_function_name_in_function_map() -> None:
    with pytest.raises(ValueError, match="Invalid name: bad name. Only letters, numbers, '_' and '-' are allowed."):
        ConversableAgent("c", llm_config=False, function_map={"bad name": print})


@pytest.mark.parametrize("config", ["gpt-4", ["gpt-4"], 42, True])
def test_wrong_llm_config_type_names_the_argument_and_accepted_values(config: Any) -> None:
    with pytest.raises(TypeError) as info:
        ConversableAgent("c", llm_config=config)
    message = str(info.value)
    assert "llm_config" in message and "dict" in message and "False" in message and "None" in message


@pytest.mark.parametrize("config", [{}, {"config_list": []}, {"config_list": [{"model": ""}]}])
def test_llm_config_without_a_model_is_the_classic_error(config: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="specify a non-empty 'model' either in 'llm_config'"):
        ConversableAgent("c", llm_config=config)


def test_whitespace_in_name_is_refused_for_openai_endpoints(scripted_server: ScriptedOpenAIServer) -> None:
    with pytest.raises(ValueError, match="The name of the agent cannot contain any whitespace. The name provided is: 'my agent'"):
        ConversableAgent("my agent", llm_config=scripted_server.llm_config())
    assert ConversableAgent("my agent", llm_config=False).name == "my agent"


@pytest.mark.parametrize(
    ("kwargs", "error", "argument"),
    [
        ({"max_consecutive_auto_reply": -1}, ValueError, "max_consecutive_auto_reply"),
        ({"max_consecutive_auto_reply": "3"}, ValueError, "max_consecutive_auto_reply"),
        ({"default_auto_reply": 5}, TypeError, "default_auto_reply"),
        ({"is_termination_msg": "TERMINATE"}, TypeError, "is_termination_msg"),
        ({"system_message": 5}, TypeError, "system_message"),
    ],
)
def test_other_bad_arguments_name_the_argument(kwargs: dict[str, Any], error: type, argument: str) -> None:
    with pytest.raises(error, match=argument):
        ConversableAgent("c", llm_config=False, **kwargs)


def test_name_must_be_a_non_empty_string() -> None:
    with pytest.raises(TypeError, match="name"):
        ConversableAgent("", llm_config=False)
    with pytest.raises(TypeError, match="name"):
        ConversableAgent(None, llm_config=False)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- exceptions


def test_classic_exceptions_and_default_messages() -> None:
    expected = {
        "AgentNameConflict": "Found multiple agents with the same name.",
        "InvalidCarryOverType": "Carryover should be a string or a list of strings. Not adding carryover to the message.",
        "NoEligibleSpeaker": "No eligible speakers.",
        "SenderRequired": "Sender is required but not provided.",
        "UndefinedNextAgent": "The provided agents list does not overlap with agents in the group.",
    }
    for name, message in expected.items():
        cls = getattr(exception_utils, name)
        assert issubclass(cls, Exception)
        assert str(cls()) == message
        assert str(cls("custom")) == "custom"
        assert getattr(autogen, name) is cls
    error = exception_utils.ModelToolNotSupportedError("o1-mini")
    assert str(error) == "Tools are not supported with o1-mini models."
    assert error.message == str(error)
    assert exception_utils.NoEligibleSpeaker().message == "No eligible speakers."
