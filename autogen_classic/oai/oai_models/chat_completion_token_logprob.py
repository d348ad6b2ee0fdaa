"""The classic path ``autogen.oai.oai_models.chat_completion_token_logprob`` (the OpenAI SDK's models)."""

from openai.types.chat.chat_completion_token_logprob import ChatCompletionTokenLogprob, TopLogprob

__all__ = ["ChatCompletionTokenLogprob", "TopLogprob"]
