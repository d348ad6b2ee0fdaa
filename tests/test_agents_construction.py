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


def test_asking_for_docker_is_a_clear_error_with_a_local_alternative(monkeypatch: pytest.MonkeyPatch) -> None:
    # Outside a container, with no Docker engine answering (the probes are replaced: this machine may be
    # inside a container, where the classic rule runs the code locally instead).
    monkeypatch.setattr(autogen.code_utils, "in_docker_container", lambda: False)
    monkeypatch.setattr(autogen.code_utils, "is_docker_running", lambda: False)
    with pytest.raises(RuntimeError) as info:
        UserProxyAgent("user", code_execution_config={"use_docker": True})
    text = str(info.value)
    assert text.startswith("Code execution is set to be run in docker (default behaviour) but docker is not running.")
    assert '"use_docker": False' in text and "AUTOGEN_USE_DOCKER" in text


def test_asking_for_docker_inside_a_container_runs_the_code_locally(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Inside a container the classic rule runs the code locally, whatever Docker answers.
    monkeypatch.setattr(autogen.code_utils, "in_docker_container", lambda: True)
    monkeypatch.setattr(autogen.code_utils, "is_docker_running", lambda: False)
    proxy = UserProxyAgent(
        "user", code_execution_config={"use_docker": True, "work_dir": str(tmp_path)}, human_input_mode="NEVER"
    )
    assert proxy.use_docker is True
    assert proxy._code_execution_config == {"use_docker": True, "work_dir": str(tmp_path)}
    reply = proxy.generate_reply(
        messages=[{"role": "user", "content": "```python\nprint(6*7)\n```"}],
        sender=ConversableAgent("s", llm_config=False),
    )
    assert reply == "exitcode: 0 (execution succeeded)\nCode output: \n42\n"


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


@pytest.mark.parametrize("mode", ["always", "Never", "terminate", "sometimes", "", None, 3])
def test_other_human_input_modes_are_kept_and_work_like_terminate(mode: Any) -> None:
    # As in classic AutoGen: only the exact upper-case "ALWAYS" and "NEVER" are special; any other value
    # (lower case included) asks the human on termination only, with a warning naming the accepted values.
    with pytest.warns(UserWarning) as record:
        agent = ConversableAgent("c", llm_config=False, human_input_mode=mode, default_auto_reply="ok")
    message = str(record[0].message)
    assert message.startswith("human_input_mode should be 'ALWAYS', 'TERMINATE' or 'NEVER'")
    assert "works like 'TERMINATE'" in message and record[0].filename == __file__
    assert agent.human_input_mode == mode
    if not isinstance(mode, str):
        return  # classic AutoGen fails at the first auto reply on a non-str mode (see docs/migrating.md)
    asked: list[str] = []
    agent.get_human_input = lambda prompt: asked.append(prompt) or ""  # type: ignore[method-assign]
    peer = ConversableAgent("p", llm_config=False, human_input_mode="NEVER", default_auto_reply="TERMINATE")
    result = peer.initiate_chat(agent, message="hi", silent=True)
    assert [m["content"] for m in result.chat_history] == ["hi", "ok", "TERMINATE"]
    assert asked == ["Please give feedback to p. Press enter or type 'exit' to stop the conversation: "]


@pytest.mark.parametrize("mode", ["always", "Never", "sometimes", "", None, 3])
def test_user_proxy_without_description_raises_key_error_for_other_modes(mode: Any) -> None:
    # The default description of a UserProxyAgent is looked up by mode: classic AutoGen raises KeyError.
    with pytest.raises(KeyError) as info:
        UserProxyAgent("u", human_input_mode=mode, code_execution_config=False)
    assert info.value.args == (mode,)
    message = str(info.value)
    assert message.startswith(f"{mode!r}: human_input_mode must be 'ALWAYS', 'TERMINATE' or 'NEVER'")
    assert "give a description" in message
    with pytest.warns(UserWarning, match="human_input_mode should be"):
        proxy = UserProxyAgent("u", human_input_mode=mode, code_execution_config=False, description="d")
    assert proxy.human_input_mode == mode and proxy.description == "d"


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
    ("kwargs", "warning", "kept"),
    [
        ({"max_consecutive_auto_reply": -1}, "max_consecutive_auto_reply should be a non-negative int", -1),
        ({"max_consecutive_auto_reply": "3"}, "max_consecutive_auto_reply should be a non-negative int", "3"),
        ({"max_consecutive_auto_reply": True}, "got bool True. It is kept as given: counts as 1", True),
        ({"default_auto_reply": 5}, "default_auto_reply should be a str or a message dict", 5),
        ({"is_termination_msg": "TERMINATE"}, "is_termination_msg should be a callable", "TERMINATE"),
        ({"system_message": 5}, "system_message should be a str or a list of content parts", 5),
    ],
)
def test_other_doubtful_arguments_are_kept_with_a_warning(kwargs: dict[str, Any], warning: str, kept: Any) -> None:
    # Classic AutoGen accepts each of these when the agent is built (and fails, if at all, when it is used).
    with pytest.warns(UserWarning, match=warning):
        agent = ConversableAgent("c", llm_config=False, **kwargs)
    (argument,) = kwargs
    attribute = {
        "max_consecutive_auto_reply": "_max_consecutive_auto_reply",
        "default_auto_reply": "_default_auto_reply",
        "is_termination_msg": "_is_termination_msg",
        "system_message": "system_message",
    }[argument]
    assert getattr(agent, attribute) == kept


@pytest.mark.parametrize("name", ["", None, 3])
def test_empty_or_non_str_name_is_kept_with_a_warning(name: Any, scripted_server: ScriptedOpenAIServer) -> None:
    with pytest.warns(UserWarning, match="name"):
        agent = ConversableAgent(name, llm_config=False)
    assert agent.name == name
    if name == "":
        return
    # With a model, the whitespace check of the name fails on a non-str, as in classic AutoGen.
    with pytest.warns(UserWarning), pytest.raises(TypeError, match="expected string or bytes-like object"):
        ConversableAgent(name, llm_config=scripted_server.llm_config())


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


def test_str_of_an_agent_is_its_display_name_as_in_0_14() -> None:
    alice = ConversableAgent("alice", llm_config=False)
    assert str(alice) == "alice" and f"{alice}" == "alice"
    assert repr(alice) == "ConversableAgent(name='alice')"  # the repr says what it is
    # A subclass (or an instance) may change how it shows, as 0.14's own group agents do.

    class Shown(ConversableAgent):
        def _get_display_name(self) -> str:
            return f"agent {self.name}"

    assert str(Shown("bob", llm_config=False)) == "agent bob"
    from autogen_classic.agentchat.groupchat.handoffs.agents import establish_group_agent

    establish_group_agent(alice)
    assert str(alice) == "Group agent --> alice"
