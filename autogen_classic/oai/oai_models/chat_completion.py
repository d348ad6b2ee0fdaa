"""The classic path ``autogen.oai.oai_models.chat_completion``: the OpenAI SDK's chat completion models, and the
classic ``ChatCompletionExtended`` (the completion with what the wrapper adds to it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Optional

from openai.types.chat.chat_completion import ChatCompletion, Choice, ChoiceLogprobs

from .chat_completion_message import ChatCompletionMessage
from .chat_completion_token_logprob import ChatCompletionTokenLogprob
from .completion_usage import CompletionUsage

from openai import BaseModel  # the base of the models, at the name the classic module gives it

__all__ = [
    "BaseModel",
    "ChatCompletion",
    "ChatCompletionExtended",
    "ChatCompletionMessage",
    "ChatCompletionTokenLogprob",
    "Choice",
    "ChoiceLogprobs",
    "CompletionUsage",
]


class ChatCompletionExtended(ChatCompletion):
    """A chat completion with the fields ``OpenAIWrapper`` sets on the responses it returns."""

    message_retrieval_function: Optional[Callable[[Any, ChatCompletion], list[ChatCompletionMessage]]] = None
    config_id: Optional[str] = None
    pass_filter: Optional[Callable[..., bool]] = None
    cost: Optional[float] = None
