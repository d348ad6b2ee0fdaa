"""Typed entries of the other providers: Anthropic, Amazon Bedrock, Cerebras, Cohere, Google Gemini, Groq,
Mistral AI, Ollama and Together AI (and the "v2" variants of Anthropic and Bedrock).

Each validates its provider's classic settings (ranges, allowed values, defaults). Requests go to
the provider's OpenAI-compatible endpoint (see ``endpoint.providers``), which is also what
``create_client()`` builds; Bedrock, which has none, needs an OpenAI-compatible gateway as ``base_url``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, HttpUrl, SecretStr, field_serializer

from .openai_entries import ChatCompletionsEntry

__all__ = [
    "AnthropicLLMConfigEntry",
    "AnthropicV2LLMConfigEntry",
    "BedrockLLMConfigEntry",
    "BedrockV2LLMConfigEntry",
    "CerebrasLLMConfigEntry",
    "CohereLLMConfigEntry",
    "GeminiLLMConfigEntry",
    "GroqLLMConfigEntry",
    "MistralLLMConfigEntry",
    "OllamaLLMConfigEntry",
    "TogetherLLMConfigEntry",
]

_HideTools = Literal["if_all_run", "if_any_run", "never"]
_ToolChoice = Literal["none", "auto", "required"]
_Price = list[float] | None


class AnthropicLLMConfigEntry(ChatCompletionsEntry):
    """Anthropic's Claude models (``max_tokens`` defaults to 4096, as Anthropic requires a limit)."""

    api_type: Literal["anthropic"] = "anthropic"
    timeout: int | None = Field(default=None, ge=1)
    temperature: float | None = Field(default=None, ge=0.0, le=1.0)
    top_k: int | None = Field(default=None, ge=1)
    top_p: float | None = Field(default=None, ge=0.0, le=1.0)
    max_tokens: int = Field(default=4096, ge=1)
    stop_sequences: list[str] | None = None
    stream: bool = False
    price: _Price = Field(default=None, min_length=2, max_length=2)
    tool_choice: dict[Any, Any] | None = None
    thinking: dict[Any, Any] | None = None
    gcp_project_id: str | None = None
    gcp_region: str | None = None
    gcp_auth_token: str | None = None


class AnthropicV2LLMConfigEntry(AnthropicLLMConfigEntry):
    """Anthropic under ``api_type="anthropic_v2"`` (served like ``"anthropic"``)."""

    api_type: Literal["anthropic_v2"] = "anthropic_v2"  # type: ignore[assignment]


class BedrockLLMConfigEntry(ChatCompletionsEntry):
    """Amazon Bedrock (``aws_region`` required). Reached only through an OpenAI-compatible gateway (``base_url``)."""

    api_type: Literal["bedrock"] = "bedrock"
    aws_region: str
    aws_access_key: SecretStr | None = None
    aws_secret_key: SecretStr | None = None
    aws_session_token: SecretStr | None = None
    aws_profile_name: str | None = None
    top_k: int | None = None
    k: int | None = None
    seed: int | None = None
    cache_seed: int | None = None
    supports_system_prompts: bool = True
    price: _Price = Field(default=None, min_length=2, max_length=2)
    timeout: int | None = None
    additional_model_request_fields: dict[str, Any] | None = None
    total_max_attempts: int | None = 5
    max_attempts: int | None = 5
    mode: Literal["standard", "adaptive", "legacy"] = "standard"

    @field_serializer("aws_access_key", "aws_secret_key", "aws_session_token", when_used="unless-none")
    def serialize_aws_secrets(self, v: SecretStr) -> str:
        """The credential itself: a dump is what a client is built from (only reprs mask it)."""
        return v.get_secret_value()


class BedrockV2LLMConfigEntry(BedrockLLMConfigEntry):
    """Amazon Bedrock under ``api_type="bedrock_v2"``."""

    api_type: Literal["bedrock_v2"] = "bedrock_v2"  # type: ignore[assignment]


class CerebrasLLMConfigEntry(ChatCompletionsEntry):
    """Cerebras (temperature up to 1.5)."""

    api_type: Literal["cerebras"] = "cerebras"
    seed: int | None = None
    stream: bool = False
    temperature: float | None = Field(default=None, ge=0.0, le=1.5)
    hide_tools: _HideTools = "never"
    tool_choice: _ToolChoice | None = None
    reasoning_effort: str | None = None


class CohereLLMConfigEntry(ChatCompletionsEntry):
    """Cohere (``k``: top-k sampling, 0 to 500; penalties 0 to 1)."""

    api_type: Literal["cohere"] = "cohere"
    k: int = Field(default=0, ge=0, le=500)
    seed: int | None = None
    frequency_penalty: float = Field(default=0, ge=0, le=1)
    presence_penalty: float = Field(default=0, ge=0, le=1)
    client_name: str | None = None
    strict_tools: bool = False
    stream: bool = False
    tool_choice: Literal["NONE", "REQUIRED"] | None = None


class GeminiLLMConfigEntry(ChatCompletionsEntry):
    """Google Gemini: ``api_type`` "google" (AI Studio, with an API key) or "google_vertex" (Vertex AI)."""

    api_type: Literal["google", "google_vertex"] = "google"
    project_id: str | None = None
    location: str | None = None
    google_application_credentials: str | None = None
    credentials: Any | str | None = None
    stream: bool = False
    safety_settings: list[dict[str, Any]] | dict[str, Any] | None = None
    price: _Price = Field(default=None, min_length=2, max_length=2)
    tool_config: Any | None = None
    proxy: str | None = None
    include_thoughts: bool | None = None
    thinking_budget: int | None = None
    thinking_level: Literal["High", "Medium", "Low", "Minimal"] | None = None


class GroqLLMConfigEntry(ChatCompletionsEntry):
    """Groq (penalties from -2 to 2)."""

    api_type: Literal["groq"] = "groq"
    frequency_penalty: float = Field(default=None, ge=-2, le=2)
    presence_penalty: float = Field(default=None, ge=-2, le=2)
    seed: int = Field(default=None)
    stream: bool = Field(default=False)
    hide_tools: _HideTools = "never"
    tool_choice: _ToolChoice | None = None


class MistralLLMConfigEntry(ChatCompletionsEntry):
    """Mistral AI (``tool_choice`` "none", "auto" or "any")."""

    api_type: Literal["mistral"] = "mistral"
    safe_prompt: bool = False
    random_seed: int | None = None
    stream: bool = False
    hide_tools: _HideTools = "never"
    tool_choice: Literal["none", "auto", "any"] | None = None


class OllamaLLMConfigEntry(ChatCompletionsEntry):
    """A model served by Ollama (``client_host`` names the server; ``num_predict=-1`` means no limit)."""

    api_type: Literal["ollama"] = "ollama"
    client_host: HttpUrl | None = None
    stream: bool = False
    num_predict: int = Field(default=-1)
    num_ctx: int = Field(default=2048)
    repeat_penalty: float = Field(default=1.1)
    seed: int = Field(default=0)
    top_k: int = Field(default=40)
    hide_tools: _HideTools = "never"
    native_tool_calls: bool = False


class TogetherLLMConfigEntry(ChatCompletionsEntry):
    """Together AI (``max_tokens`` defaults to 512)."""

    api_type: Literal["together"] = "together"
    max_tokens: int = Field(default=512, ge=0)
    stream: bool = False
    top_k: int | None = Field(default=None)
    repetition_penalty: float | None = Field(default=None)
    presence_penalty: float | None = Field(default=None, ge=-2, le=2)
    frequency_penalty: float | None = Field(default=None, ge=-2, le=2)
    min_p: float | None = Field(default=None, ge=0, le=1)
    safety_model: str | None = None
    hide_tools: _HideTools = "never"
    price: _Price = Field(default=None, min_length=2, max_length=2)
    tool_choice: str | dict[str, str | dict[str, str]] | None = None
