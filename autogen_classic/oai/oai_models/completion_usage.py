"""The classic path ``autogen.oai.oai_models.completion_usage`` (the OpenAI SDK's models)."""

from openai.types.completion_usage import CompletionTokensDetails, CompletionUsage, PromptTokensDetails

__all__ = ["CompletionTokensDetails", "CompletionUsage", "PromptTokensDetails"]
