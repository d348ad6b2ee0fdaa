"""The classic path ``autogen.oai.oai_models.chat_completion_message_tool_call`` (the OpenAI SDK's models)."""

from openai.types.chat.chat_completion_message_custom_tool_call import ChatCompletionMessageCustomToolCall, Custom
from openai.types.chat.chat_completion_message_function_tool_call import ChatCompletionMessageFunctionToolCall, Function

ChatCompletionMessageToolCall = ChatCompletionMessageFunctionToolCall
"""A tool call of a chat completion message (a function call), as in AG2 Classic 0.14."""

from openai import BaseModel  # the base of the models, at the name the classic module gives it

__all__ = [
    "BaseModel",
    "ChatCompletionMessageCustomToolCall",
    "ChatCompletionMessageFunctionToolCall",
    "ChatCompletionMessageToolCall",
    "Custom",
    "Function",
]
