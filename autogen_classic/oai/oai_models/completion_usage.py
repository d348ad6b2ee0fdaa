"""The classic path ``autogen.oai.oai_models.completion_usage`` (the OpenAI SDK's models)."""

from openai.types.completion_usage import CompletionTokensDetails, CompletionUsage, PromptTokensDetails

from openai import BaseModel  # the base of the models, at the name the classic module gives it

__all__ = [
    "BaseModel","CompletionTokensDetails", "CompletionUsage", "PromptTokensDetails"]
