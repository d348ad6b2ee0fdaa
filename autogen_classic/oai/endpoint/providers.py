"""Model providers reached through their OpenAI-compatible chat endpoints (``api_type``).

Every provider below offers a chat-completions endpoint that speaks the OpenAI protocol, so
one client (the ``openai`` SDK) serves them all: a ``config_list`` entry with
``"api_type": "groq"`` goes to Groq's endpoint with the key from ``GROQ_API_KEY`` unless the
entry gives ``base_url``/``api_key``. Classic provider-specific keys are accepted: they are
renamed to their OpenAI form (e.g. Ollama's ``num_predict`` -> ``max_tokens``), sent as they
are when the provider's endpoint takes them (e.g. Together's ``top_k``), or left out when the
endpoint has no use for them (e.g. Gemini's ``safety_settings``).

Providers without an OpenAI-compatible endpoint (Amazon Bedrock, Anthropic on Bedrock or Vertex
AI, Gemini on Vertex AI) are refused with a message naming the alternative: an
OpenAI-compatible gateway given as ``base_url`` (a Bedrock entry with a ``base_url`` is sent there).

The api types served by a client of ``llm_clients`` rather than the chat endpoint ("openai_v2",
"responses_v2", and "responses", the Responses API) are named at the end of this module.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...exception_utils import InvalidArgumentError

__all__ = [
    "CLASSIC_LLM_CLIENTS",
    "OPENAI",
    "PROVIDERS",
    "PROVIDER_OPTION_KEYS",
    "Provider",
    "UnsupportedProviderError",
    "V2_CLIENTS",
    "classic_llm_client_class",
    "is_llm_client",
    "is_v2_client",
    "provider_for",
    "v2_client_class",
]

OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1"
OPENAI_BASE_URL_ENV = "OPENAI_BASE_URL"


class UnsupportedProviderError(InvalidArgumentError, ImportError):
    """An ``api_type`` whose provider has no OpenAI-compatible chat endpoint.

    Also an ``ImportError``: where such a provider's SDK is not installed, classic AutoGen fails the
    same configuration with one, so code that guards the agent's creation that way keeps working.
    """


@dataclass(frozen=True)
class Provider:
    """How one ``api_type`` is served through the OpenAI protocol.

    Attributes:
        name: the provider's name in messages, e.g. "Groq".
        api_types: the ``api_type`` values (prefixes, as in the classic package) it serves.
        base_url: the documented OpenAI-compatible base URL used when the entry has none.
        key_env: environment variables holding the API key, tried in order.
        key_required: whether the hosted endpoint needs a key (a custom ``base_url`` never does).
        renamed: classic keys sent under their OpenAI name.
        dropped: classic keys the endpoint has no use for (or would refuse); never sent.
        passed: classic keys the endpoint takes as they are (sent in the request body).
        defaults: request settings used when neither the config nor ``create`` sets them.
    """

    name: str
    api_types: tuple[str, ...]
    base_url: str
    key_env: tuple[str, ...] = ()
    key_required: bool = True
    renamed: Mapping[str, str] = field(default_factory=dict)
    dropped: frozenset[str] = frozenset()
    passed: frozenset[str] = frozenset()
    defaults: Mapping[str, Any] = field(default_factory=dict)

    def default_base_url(self, config: Mapping[str, Any] | None = None) -> str:
        """The base URL for an entry without ``base_url``.

        Args:
            config: the entry, for providers whose classic keys name the server (Ollama's ``client_host``).
        """
        return self.base_url

    def env_key(self) -> str | None:
        """The API key from the provider's environment variables, or None."""
        for name in self.key_env:
            value = os.environ.get(name, "").strip()
            if value:
                return value
        return None

    def adapt(self, params: dict[str, Any]) -> dict[str, Any]:
        """Return request ``params`` in the form the provider's OpenAI-compatible endpoint takes.

        Classic keys of other providers (e.g. Ollama's ``num_predict`` sent to Groq) are left out too.
        """
        foreign = _FOREIGN_KEYS.get(self.name, frozenset())
        out: dict[str, Any] = {}
        for key, value in params.items():
            if key in self.dropped or key in foreign:
                continue
            target = self.renamed.get(key, key)
            if target != key and target in params:
                continue  # the OpenAI name given explicitly wins over the classic one
            out[target] = value
        for key, value in self.defaults.items():
            out.setdefault(key, value)
        return out


class _OpenAI(Provider):
    def adapt(self, params: dict[str, Any]) -> dict[str, Any]:
        # Any OpenAI-compatible server may take extra fields (vLLM's top_k, min_p, ...): all are sent.
        return params

    def default_base_url(self, config: Mapping[str, Any] | None = None) -> str:
        # The SDK honours OPENAI_BASE_URL; an entry without base_url goes there too.
        return os.environ.get(OPENAI_BASE_URL_ENV, "").strip() or self.base_url


class _Ollama(Provider):
    def default_base_url(self, config: Mapping[str, Any] | None = None) -> str:
        # The classic client_host, else OLLAMA_HOST (how Ollama's own clients find a server elsewhere),
        # as "host:port" or a URL; the OpenAI-compatible API lives under /v1.
        host = str((config or {}).get("client_host") or os.environ.get("OLLAMA_HOST", "")).strip().rstrip("/")
        if not host:
            return self.base_url
        if not host.startswith(("http://", "https://")):
            host = f"http://{host}"
        return f"{host}/v1"

    def adapt(self, params: dict[str, Any]) -> dict[str, Any]:
        # A negative num_predict (-1, the default of OllamaLLMConfigEntry) means "no limit": no max_tokens is sent.
        if isinstance(params.get("num_predict"), int) and params["num_predict"] < 0:
            params = {key: value for key, value in params.items() if key != "num_predict"}
        return super().adapt(params)


# Keys used by the classic Bedrock / Vertex AI clients; they never reach an OpenAI-compatible endpoint.
_AWS_KEYS = frozenset({"aws_access_key", "aws_secret_key", "aws_session_token", "aws_region", "aws_profile_name"})
_GCP_KEYS = frozenset({"gcp_project_id", "gcp_region", "gcp_auth_token"})

OPENAI = _OpenAI(name="OpenAI", api_types=("openai",), base_url=OPENAI_DEFAULT_BASE_URL, key_env=("OPENAI_API_KEY",))

PROVIDERS: tuple[Provider, ...] = (
    Provider(
        name="Anthropic",
        api_types=("anthropic",),
        base_url="https://api.anthropic.com/v1/",
        key_env=("ANTHROPIC_API_KEY",),
        renamed={"stop_sequences": "stop"},
        dropped=_AWS_KEYS | _GCP_KEYS | {"top_k"},
        defaults={"max_tokens": 4096},  # Anthropic needs a limit; 4096 is the classic client's default
    ),
    Provider(
        name="Google Gemini",
        api_types=("google", "gemini"),
        base_url="https://generativelanguage.googleapis.com/v1beta/openai/",
        key_env=("GOOGLE_GEMINI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"),
        dropped=frozenset(
            {
                "safety_settings",
                "project_id",
                "location",
                "google_application_credentials",
                "credentials",
                "response_validation",
                "system_instruction",
            }
        ),
    ),
    Provider(
        name="Mistral AI",
        api_types=("mistral",),
        base_url="https://api.mistral.ai/v1",
        key_env=("MISTRAL_API_KEY",),
        passed=frozenset({"random_seed", "safe_prompt"}),
    ),
    Provider(
        name="Groq",
        api_types=("groq",),
        base_url="https://api.groq.com/openai/v1",
        key_env=("GROQ_API_KEY",),
    ),
    Provider(
        name="Together AI",
        api_types=("together",),
        base_url="https://api.together.xyz/v1",
        key_env=("TOGETHER_API_KEY",),
        passed=frozenset({"top_k", "min_p", "repetition_penalty", "safety_model"}),
    ),
    Provider(
        name="Cerebras",
        api_types=("cerebras",),
        base_url="https://api.cerebras.ai/v1",
        key_env=("CEREBRAS_API_KEY",),
    ),
    _Ollama(
        name="Ollama",
        api_types=("ollama",),
        base_url="http://localhost:11434/v1",
        key_env=("OLLAMA_API_KEY",),
        key_required=False,
        renamed={"num_predict": "max_tokens"},
        dropped=frozenset({"client_host", "native_tool_calls", "repeat_penalty", "top_k"}),
    ),
    Provider(
        name="DeepSeek",
        api_types=("deepseek",),
        base_url="https://api.deepseek.com/v1",
        key_env=("DEEPSEEK_API_KEY",),
    ),
    Provider(
        name="Cohere",
        api_types=("cohere",),
        base_url="https://api.cohere.ai/compatibility/v1",
        key_env=("COHERE_API_KEY", "CO_API_KEY"),
        renamed={"p": "top_p", "stop_sequences": "stop"},
        dropped=frozenset({"k", "client_name", "conversation_id", "connectors", "max_input_tokens"}),
    ),
)

# api_type prefixes of providers without an OpenAI-compatible chat endpoint, served only through a
# gateway given as base_url (their cloud credentials are then left out of the requests).
_UNSUPPORTED: dict[str, Provider] = {
    "bedrock": Provider(
        name="Amazon Bedrock", api_types=("bedrock",), base_url="", key_required=False, dropped=_AWS_KEYS
    ),
}

# Every classic provider-specific key (accepted at the top of an llm_config, too).
PROVIDER_OPTION_KEYS: frozenset[str] = frozenset(
    {"hide_tools"}.union(
        *(p.renamed.keys() | p.dropped | p.passed for p in PROVIDERS),
    )
)


# Per provider, the classic keys of the other providers that its endpoint has no use for.
_FOREIGN_KEYS: dict[str, frozenset[str]] = {
    p.name: PROVIDER_OPTION_KEYS - {"hide_tools"} - p.passed - p.renamed.keys() - p.dropped for p in PROVIDERS
}


def _gateway_hint(provider: str) -> str:
    return (
        f"{provider} has no OpenAI-compatible chat endpoint, which is how autogen-classic reaches every model. "
        "Use an OpenAI-compatible gateway in front of it (e.g. LiteLLM or the Bedrock Access Gateway): "
        'set "base_url" to the gateway\'s URL and "api_type": "openai" (or leave api_type out).'
    )


# api_type prefixes served by a client answering with a UnifiedResponse, named by "module:class": the
# clients of autogen_classic.llm_clients build on this package, so it loads them only when an entry asks.
# Built as cls(response_format=..., **client_settings).
V2_CLIENTS: dict[str, str] = {
    "openai_v2": "autogen_classic.llm_clients.openai_completions_client:OpenAICompletionsClient",
    "responses_v2": "autogen_classic.llm_clients.openai_responses_v2:OpenAIResponsesV2Client",
}

# api_type prefixes served by a classic ModelClient of llm_clients (answering in its API's own form), loaded
# the same way. Built like OpenAIClient, as cls(client_settings, response_format=...). "responses" is
# the Responses API ("responses_v2" is not: the V2 table is consulted first).
CLASSIC_LLM_CLIENTS: dict[str, str] = {
    "responses": "autogen_classic.llm_clients.openai_responses:OpenAIResponsesClient",
}


def _load(path: str) -> type:
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)  # type: ignore[no-any-return]


def v2_client_class(api_type: Any) -> type | None:
    """The ``ModelClientV2`` class serving ``api_type`` ("openai_v2", "responses_v2"), or None for other types."""
    name = str(api_type or "").lower()
    for prefix, path in V2_CLIENTS.items():
        if name.startswith(prefix):
            return _load(path)
    return None


def classic_llm_client_class(api_type: Any) -> type | None:
    """The classic client class of ``llm_clients`` serving ``api_type`` ("responses"), or None for other types."""
    name = str(api_type or "").lower()
    if any(name.startswith(prefix) for prefix in V2_CLIENTS):
        return None
    for prefix, path in CLASSIC_LLM_CLIENTS.items():
        if name.startswith(prefix):
            return _load(path)
    return None


def is_v2_client(client: Any) -> bool:
    """Whether ``client`` is one of the ``V2_CLIENTS``."""
    cls = type(client)
    return f"{cls.__module__}:{cls.__qualname__}" in V2_CLIENTS.values()


def is_llm_client(client: Any) -> bool:
    """Whether ``client`` is one of the ``V2_CLIENTS`` or ``CLASSIC_LLM_CLIENTS`` (SDK errors are then
    handled as for ``OpenAIClient``: they have ``secrets`` and ``max_retries``)."""
    cls = type(client)
    path = f"{cls.__module__}:{cls.__qualname__}"
    return path in V2_CLIENTS.values() or path in CLASSIC_LLM_CLIENTS.values()


def provider_for(config: Mapping[str, Any]) -> Provider:
    """Return the provider serving a ``config_list`` entry (OpenAI for unknown ``api_type`` values).

    Args:
        config: the merged entry (``api_type``, ``api_key``, ``base_url``, provider keys, ...).

    Raises:
        UnsupportedProviderError: the provider has no OpenAI-compatible endpoint and the entry
            gives no ``base_url`` of a gateway.
    """
    api_type = str(config.get("api_type") or "openai").lower()
    for prefix, gateway in _UNSUPPORTED.items():
        if api_type.startswith(prefix):
            if config.get("base_url"):
                return gateway
            raise UnsupportedProviderError(
                f'config_list entry with "api_type": "{api_type}": {_gateway_hint(gateway.name)}'
            )
    for provider in PROVIDERS:
        if api_type.startswith(provider.api_types):
            _check_hosting(provider, api_type, config)
            return provider
    # Like the classic package, any other api_type ("openai", "vllm", "lmstudio", ...) is an OpenAI endpoint.
    return OPENAI


def _check_hosting(provider: Provider, api_type: str, config: Mapping[str, Any]) -> None:
    """Refuse entries meant for the classic Bedrock / Vertex AI clients (credentials, no API key)."""
    if config.get("api_key") or config.get("base_url") or provider.env_key():
        return
    where = None
    if provider.name == "Anthropic" and config.get("aws_region"):
        where = "Anthropic on Amazon Bedrock"
    elif provider.name == "Anthropic" and config.get("gcp_region"):
        where = "Anthropic on Google Vertex AI"
    elif provider.name == "Google Gemini" and any(
        config.get(k) for k in ("project_id", "credentials", "google_application_credentials")
    ):
        where = "Gemini on Google Vertex AI"
    if where is not None:
        raise UnsupportedProviderError(
            f'config_list entry with "api_type": "{api_type}" and cloud credentials instead of "api_key": '
            f"{_gateway_hint(where)} Or give the provider's own API key as \"api_key\" "
            f"(or in {' / '.join(provider.key_env)})."
        )
