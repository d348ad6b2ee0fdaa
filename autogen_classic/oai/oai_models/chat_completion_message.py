"""The classic path ``autogen.oai.oai_models.chat_completion_message`` (the OpenAI SDK's models)."""

from openai.types.chat.chat_completion_audio import ChatCompletionAudio
from openai.types.chat.chat_completion_message import Annotation, AnnotationURLCitation, ChatCompletionMessage, FunctionCall

from .chat_completion_message_tool_call import (
    ChatCompletionMessageCustomToolCall,
    ChatCompletionMessageFunctionToolCall,
    ChatCompletionMessageToolCall,
)

from openai import BaseModel  # the base of the models, at the name the classic module gives it

__all__ = [
    "BaseModel",
    "Annotation",
    "AnnotationURLCitation",
    "ChatCompletionAudio",
    "ChatCompletionMessage",
    "ChatCompletionMessageCustomToolCall",
    "ChatCompletionMessageFunctionToolCall",
    "ChatCompletionMessageToolCall",
    "FunctionCall",
]
