"""The classic path ``autogen.oai.oai_models.chat_completion_audio`` (the OpenAI SDK's model)."""

from openai.types.chat.chat_completion_audio import ChatCompletionAudio

__all__ = ["ChatCompletionAudio"]
