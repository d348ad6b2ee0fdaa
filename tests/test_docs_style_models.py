"""Model providers configured the way AG2 Classic 0.14's model pages configure them.

Providers that speak the OpenAI protocol (vLLM, LM Studio, a LiteLLM proxy, Ollama's OpenAI route...)
are pointed at the scripted OpenAI-compatible server; providers with their own classic SDK client are
only built (no chat), checking that a missing key fails the classic way.
"""

from typing import Any

import pytest

import autogen_classic as autogen
from autogen_classic import AssistantAgent, ConversableAgent, LLMConfig, UserProxyAgent
from autogen_classic.oai.client import OpenAIClient
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer


def _local_entry(server: ScriptedOpenAIServer, model: str) -> dict[str, Any]:
    # The shape a self-hosted server's page gives: an OpenAI api_type, a placeholder key, the server's URL.
    return {"api_type": "openai", "model": model, "api_key": "NotRequired", "base_url": server.base_url,
            "cache_seed": None}


def _roles(body: dict[str, Any]) -> list[str]:
    return [m["role"] for m in body["messages"]]


def test_a_mistral_model_behind_an_openai_compatible_server_gets_no_system_role(
    scripted_server: ScriptedOpenAIServer,
) -> None:
    scripted_server.add_reply("Hello from the local model.")
    scripted_server.add_reply("Still here.")
    assistant = ConversableAgent(
        "helper", system_message="Answer briefly.",
        llm_config=LLMConfig(_local_entry(scripted_server, "mistralai/Mistral-7B-Instruct-v0.2")),
    )
    user = UserProxyAgent("user", code_execution_config=False, human_input_mode="NEVER", max_consecutive_auto_reply=1)
    user.initiate_chat(assistant, message="Hi there", max_turns=2)

    first, second = scripted_server.requests
    assert _roles(first) == ["user", "user"]
    assert first["messages"][0]["content"] == "Answer briefly."
    assert _roles(second)[0] == "user"
    # Only the request changes: the agent keeps its system message as one.
    assert assistant.system_message == "Answer briefly."
    assert assistant._oai_system_message[0]["role"] == "system"


def test_other_models_keep_the_system_role(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply("Done.")
    assistant = AssistantAgent("helper", system_message="Answer briefly.",
                               llm_config=LLMConfig(_local_entry(scripted_server, "llama-3-8b")))
    assistant.generate_reply(messages=[{"role": "user", "content": "Hi"}])
    assert _roles(scripted_server.requests[0]) == ["system", "user"]


def test_a_mixtral_model_named_by_its_mistralai_repository_counts_as_mistral(
    scripted_server: ScriptedOpenAIServer,
) -> None:
    scripted_server.add_reply("Done.")
    config = {"config_list": [_local_entry(scripted_server, "mistralai/Mixtral-8x7B-Instruct-v0.1")]}
    assistant = AssistantAgent("helper", llm_config=config)
    assistant.generate_reply(messages=[{"role": "user", "content": "Hi"}])
    assert _roles(scripted_server.requests[0]) == ["user", "user"]


def test_the_role_rewrite_is_a_classic_hook_of_the_openai_client() -> None:
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]
    OpenAIClient._convert_system_role_to_user(messages)
    assert messages == [{"role": "user", "content": "Be brief."}, {"role": "user", "content": "Hi"}]


@pytest.mark.parametrize(
    "api_type, key_env",
    [("groq", "GROQ_API_KEY"), ("together", "TOGETHER_API_KEY"), ("cerebras", "CEREBRAS_API_KEY"),
     ("mistral", "MISTRAL_API_KEY"), ("cohere", "COHERE_API_KEY")],
)
def test_a_native_provider_without_a_key_fails_when_the_agent_is_built(
    monkeypatch: pytest.MonkeyPatch, api_type: str, key_env: str
) -> None:
    monkeypatch.delenv(key_env, raising=False)
    config = LLMConfig({"model": "some-model", "api_type": api_type})
    # The classic provider clients assert that a key is there.
    with pytest.raises(AssertionError, match=key_env):
        autogen.AssistantAgent("helper", llm_config=config)


def test_anthropic_without_a_key_fails_with_a_value_error(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ANTHROPIC_API_KEY", "AWS_REGION", "GCP_REGION"):
        monkeypatch.delenv(name, raising=False)
    config = LLMConfig({"model": "claude-sonnet-4-5", "api_type": "anthropic"})
    with pytest.raises(ValueError, match="ANTHROPIC_API_KEY"):
        autogen.AssistantAgent("helper", llm_config=config)


def test_a_provider_without_an_openai_route_fails_as_a_missing_sdk_would() -> None:
    config = LLMConfig({"api_type": "bedrock", "model": "meta.llama3-1-70b-instruct-v1:0", "aws_region": "us-west-2",
                        "aws_access_key": "placeholder", "aws_secret_key": "placeholder"})
    # Classic AutoGen raises ImportError here when boto3 is absent; the message names the way out.
    with pytest.raises(ImportError, match="base_url") as caught:
        autogen.AssistantAgent("helper", llm_config=config)
    assert isinstance(caught.value, ValueError)


def test_the_same_provider_behind_a_gateway_runs(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply("From the gateway.")
    entry = _local_entry(scripted_server, "meta.llama3-1-70b-instruct-v1:0")
    assistant = autogen.AssistantAgent("helper", llm_config=LLMConfig(entry))
    assert assistant.generate_reply(messages=[{"role": "user", "content": "Hi"}]) == "From the gateway."
