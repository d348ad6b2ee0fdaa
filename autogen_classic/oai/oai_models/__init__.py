"""The classic path ``autogen.oai.oai_models``: the response models of a chat completion.

AG2 Classic 0.14 keeps its own copies of the OpenAI SDK's response models; here they are the SDK's own classes
(so a response built from them is what the model client returns, ``isinstance`` holds both ways), and
``ChatCompletion`` is the classic extended one: the SDK's ``ChatCompletion`` with the fields the wrapper adds
(``cost``, ``config_id``, ``pass_filter``, ``message_retrieval_function``). Code builds them to fake or inspect a
model's answer, e.g. in a custom ``ModelClient``.
"""

from .chat_completion import ChatCompletionExtended as ChatCompletion
from .chat_completion import Choice
from .chat_completion_message import ChatCompletionMessage
from .chat_completion_message_tool_call import (
    ChatCompletionMessageCustomToolCall,
    ChatCompletionMessageFunctionToolCall,
    ChatCompletionMessageToolCall,
)
from .completion_usage import CompletionUsage

__all__ = [
    "ChatCompletion",
    "ChatCompletionMessage",
    "ChatCompletionMessageCustomToolCall",
    "ChatCompletionMessageFunctionToolCall",
    "ChatCompletionMessageToolCall",
    "Choice",
    "CompletionUsage",
]
