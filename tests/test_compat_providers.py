"""Classic ``api_type`` providers served through their OpenAI-compatible endpoints.

The scripted server stands in for each provider's endpoint (``base_url`` points at it); the tests
check the request it received and that the provider's key variable is used when ``api_key`` is absent.
"""

from __future__ import annotations

from typing import Any

import pytest

import autogen_classic as autogen
from autogen_classic.exception_utils import InvalidArgumentError
from autogen_classic.oai import OpenAIWrapper
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer

USER = [{"role": "user", "content": "Name one prime number."}]

# api_type, model, key variable, documented OpenAI-compatible base URL
PROVIDERS = [
    ("anthropic", "claude-3-5-sonnet-20241022", "ANTHROPIC_API_KEY", "https://api.anthropic.com/v1/"),
    ("google", "gemini-1.5-flash", "GOOGLE_GEMINI_API_KEY", "https://generativelanguage.googleapis.com/v1beta/openai/"),
    ("mistral", "mistral-large-latest", "MISTRAL_API_KEY", "https://api.mistral.ai/v1"),
    ("groq", "llama-3.3-70b-versatile", "GROQ_API_KEY", "https://api.groq.com/openai/v1"),
    ("together", "meta-llama/Llama-3.3-70B-Instruct-Turbo", "TOGETHER_API_KEY", "https://api.together.xyz/v1"),
    ("cerebras", "llama3.1-8b", "CEREBRAS_API_KEY", "https://api.cerebras.ai/v1"),
    ("ollama", "qwen2.5:7b", "OLLAMA_API_KEY", "http://localhost:11434/v1"),
    ("deepseek", "deepseek-chat", "DEEPSEEK_API_KEY", "https://api.deepseek.com/v1"),
    ("cohere", "command-r-plus", "COHERE_API_KEY", "https://api.cohere.ai/compatibility/v1"),
]
KEY_VARIABLES = [p[2] for p in PROVIDERS] + ["GEMINI_API_KEY", "GOOGLE_API_KEY", "CO_API_KEY", "OPENAI_API_KEY"]


@pytest.fixture(autouse=True)
def _no_ambient_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in KEY_VARIABLES + ["OPENAI_BASE_URL", "OLLAMA_HOST"]:
        monkeypatch.delenv(name, raising=False)


def _ask(config_list: list[dict[str, Any]], **settings: Any) -> Any:
    assistant = autogen.AssistantAgent(
        "assistant", system_message="Answer briefly.", llm_config={"config_list": config_list, "cache_seed": None, **settings}
    )
    user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False)
    return user.initiate_chat(assistant, message=USER[0]["content"], max_turns=1, silent=True)


@pytest.mark.parametrize("api_type, model, key_variable, base_url", PROVIDERS, ids=[p[0] for p in PROVIDERS])
def test_provider_uses_its_key_variable_and_the_openai_protocol(
    api_type: str, model: str, key_variable: str, base_url: str,
    scripted_server: ScriptedOpenAIServer, monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setenv(key_variable, f"key-from-{key_variable}")
    scripted_server.add_reply("2 is prime.")
    result = _ask([{"api_type": api_type, "model": model, "base_url": scripted_server.base_url}])
    assert result.summary == "2 is prime."
    body = scripted_server.requests[0]
    assert body["model"] == model
    assert body["messages"] == [{"role": "system", "content": "Answer briefly."}, {**USER[0], "name": "user"}]
    assert scripted_server.request_headers[0]["authorization"] == f"Bearer key-from-{key_variable}"


@pytest.mark.parametrize("api_type, model, key_variable, base_url", PROVIDERS, ids=[p[0] for p in PROVIDERS])
def test_provider_default_base_url(
    api_type: str, model: str, key_variable: str, base_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(key_variable, "key")
    assert repr(OpenAIWrapper(config_list=[{"api_type": api_type, "model": model}])) == (
        f"OpenAIWrapper(endpoints=[{model} at {base_url}])"
    )


@pytest.mark.parametrize("api_type, key_variable", [(p[0], p[2]) for p in PROVIDERS if p[0] != "ollama"])
def test_hosted_provider_without_a_key_names_its_variable(api_type: str, key_variable: str) -> None:
    with pytest.raises(InvalidArgumentError, match=f"no 'api_key' for the .* endpoint.*{key_variable}"):
        OpenAIWrapper(config_list=[{"api_type": api_type, "model": "m"}])


def test_an_explicit_api_key_wins_over_the_variable(
    scripted_server: ScriptedOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GROQ_API_KEY", "from-env")
    scripted_server.add_reply("ok")
    _ask([{"api_type": "groq", "model": "m", "base_url": scripted_server.base_url, "api_key": "gsk-own"}])
    assert scripted_server.request_headers[0]["authorization"] == "Bearer gsk-own"


def test_other_gemini_key_variables(scripted_server: ScriptedOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "gemini-key")
    scripted_server.add_reply("ok")
    _ask([{"api_type": "gemini", "model": "gemini-2.0-flash", "base_url": scripted_server.base_url}])
    assert scripted_server.request_headers[0]["authorization"] == "Bearer gemini-key"


# ----------------------------------------------------------------------------- classic provider keys
@pytest.mark.parametrize(
    "entry, sent, absent",
    [
        ({"api_type": "anthropic", "stop_sequences": ["END"], "top_k": 5, "aws_region": "us-east-1"},
         {"stop": ["END"], "max_tokens": 4096}, {"stop_sequences", "top_k", "aws_region"}),
        ({"api_type": "anthropic", "max_tokens": 100}, {"max_tokens": 100}, set()),
        ({"api_type": "google", "safety_settings": [{"category": "x"}], "project_id": "p", "temperature": 0.5},
         {"temperature": 0.5}, {"safety_settings", "project_id"}),
        ({"api_type": "mistral", "random_seed": 7, "safe_prompt": True}, {"random_seed": 7, "safe_prompt": True}, set()),
        ({"api_type": "together", "top_k": 40, "min_p": 0.1, "repetition_penalty": 1.1},
         {"top_k": 40, "min_p": 0.1, "repetition_penalty": 1.1}, set()),
        ({"api_type": "groq", "top_k": 40, "num_predict": 5, "seed": 3}, {"seed": 3}, {"top_k", "num_predict"}),
        ({"api_type": "ollama", "num_predict": 64, "native_tool_calls": False, "repeat_penalty": 1.1},
         {"max_tokens": 64}, {"num_predict", "native_tool_calls", "repeat_penalty"}),
        ({"api_type": "cohere", "p": 0.5, "k": 10, "stop_sequences": ["x"]}, {"top_p": 0.5, "stop": ["x"]},
         {"p", "k", "stop_sequences"}),
        ({"api_type": "cerebras", "max_tokens": 10, "top_p": 0.9}, {"max_tokens": 10, "top_p": 0.9}, set()),
    ],
)  # fmt: skip
def test_classic_provider_keys_are_mapped_or_left_out(
    entry: dict[str, Any], sent: dict[str, Any], absent: set[str],
    scripted_server: ScriptedOpenAIServer, monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    scripted_server.add_reply("ok")
    _ask([{**entry, "model": "m", "api_key": "key", "base_url": scripted_server.base_url}])
    body = scripted_server.requests[0]
    assert {k: body.get(k) for k in sent} == sent
    assert not absent & set(body)


def test_provider_keys_are_accepted_at_the_top_of_llm_config(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply("ok")
    _ask([{"api_type": "ollama", "model": "m", "base_url": scripted_server.base_url}], num_predict=32, top_k=3)
    body = scripted_server.requests[0]
    assert body["max_tokens"] == 32 and "top_k" not in body and "num_predict" not in body


def test_ollama_server_from_client_host_or_ollama_host(
    scripted_server: ScriptedOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = scripted_server.base_url.removesuffix("/v1")
    scripted_server.add_replies("from client_host", "from OLLAMA_HOST")
    assert _ask([{"api_type": "ollama", "model": "qwen2.5:7b", "client_host": host}]).summary == "from client_host"
    monkeypatch.setenv("OLLAMA_HOST", host.removeprefix("http://"))
    assert _ask([{"api_type": "ollama", "model": "qwen2.5:7b"}]).summary == "from OLLAMA_HOST"
    assert [b["model"] for b in scripted_server.requests] == ["qwen2.5:7b", "qwen2.5:7b"]
    assert "client_host" not in scripted_server.requests[0]


def test_hide_tools_leaves_run_tools_out(scripted_server: ScriptedOpenAIServer) -> None:
    tool = {"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {}}}}
    ran = USER + [
        {"role": "assistant", "content": None,
         "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "done"},
    ]  # fmt: skip
    client = OpenAIWrapper(
        config_list=[{"api_type": "groq", "model": "m", "api_key": "k", "base_url": scripted_server.base_url}],
        cache_seed=None, hide_tools="if_any_run", tools=[tool],
    )  # fmt: skip
    scripted_server.add_replies("first", "second")
    client.create(messages=USER)
    client.create(messages=ran)
    assert "tools" in scripted_server.requests[0] and "tools" not in scripted_server.requests[1]
    assert "hide_tools" not in scripted_server.requests[0]


# ----------------------------------------------------------------------------- other api_types
@pytest.mark.parametrize("api_type", ["openai", "vllm", "lmstudio"])
def test_other_api_types_are_openai_endpoints(api_type: str, scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply("ok")
    _ask([{"api_type": api_type, "model": "m", "api_key": "k", "base_url": scripted_server.base_url, "top_k": 4}])
    assert scripted_server.requests[0]["top_k"] == 4  # any OpenAI-compatible server may take extra fields


def test_bedrock_is_refused_with_the_gateway_alternative() -> None:
    with pytest.raises(InvalidArgumentError) as info:
        OpenAIWrapper(config_list=[{"api_type": "bedrock", "model": "anthropic.claude-3", "aws_region": "us-east-1"}])
    message = str(info.value)
    assert "Amazon Bedrock has no OpenAI-compatible chat endpoint" in message
    assert '"base_url"' in message and "gateway" in message
    with pytest.raises(AssertionError):  # classic code catching AssertionError still catches it
        autogen.AssistantAgent("a", llm_config={"config_list": [{"api_type": "bedrock", "model": "m"}]})


def test_bedrock_behind_a_gateway_base_url(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.add_reply("via the gateway")
    entry = {"api_type": "bedrock", "model": "anthropic.claude-3", "aws_region": "us-east-1",
             "aws_secret_key": "secret", "base_url": scripted_server.base_url}  # fmt: skip
    assert _ask([entry]).summary == "via the gateway"
    assert scripted_server.requests[0]["model"] == "anthropic.claude-3"
    assert not {"aws_region", "aws_secret_key"} & set(scripted_server.requests[0])


@pytest.mark.parametrize(
    "entry, where",
    [
        ({"api_type": "anthropic", "aws_region": "us-east-1", "aws_access_key": "a"}, "Anthropic on Amazon Bedrock"),
        ({"api_type": "anthropic", "gcp_region": "us-east5", "gcp_project_id": "p"}, "Anthropic on Google Vertex AI"),
        ({"api_type": "google", "project_id": "p", "location": "us-central1"}, "Gemini on Google Vertex AI"),
    ],
)
def test_cloud_hosted_variants_are_refused_with_the_alternatives(entry: dict[str, Any], where: str) -> None:
    with pytest.raises(InvalidArgumentError, match=f"{where} has no OpenAI-compatible chat endpoint.*\"api_key\""):
        OpenAIWrapper(config_list=[{**entry, "model": "m"}])
