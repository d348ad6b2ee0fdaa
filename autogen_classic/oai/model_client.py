"""The protocol a custom model client follows, the placeholder used until it is registered, and
``ChatCompletionExtended``, the chat-completion shape with the attributes ``OpenAIWrapper`` adds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Protocol, Union

from openai.types.chat import ChatCompletion

__all__ = ["ChatCompletionExtended", "ModelClient", "PlaceHolderClient"]


class ChatCompletionExtended(ChatCompletion):
    """A chat completion carrying the attributes ``OpenAIWrapper`` sets on the answers it returns.

    Attributes:
        message_retrieval_function: the client's ``message_retrieval``, which reads the replies out of it.
        config_id: the index of the ``config_list`` entry that answered.
        pass_filter: whether the answer passed the request's ``filter_func``.
        cost: the cost of the request in USD.
    """

    message_retrieval_function: Union[Callable[..., Any], None] = None
    config_id: Union[str, None] = None
    pass_filter: Union[Callable[..., bool], None] = None
    cost: Union[float, None] = None


class ModelClient(Protocol):
    """A model client usable by ``OpenAIWrapper``.

    A ``config_list`` entry with ``"model_client_cls": "MyClient"`` makes the wrapper wait
    for ``register_model_client(MyClient, **kwargs)``, which builds ``MyClient(config, **kwargs)``
    where ``config`` is that entry. The client must provide:

    - ``create(params)``: run the request and return a response with ``choices`` (each having a
      ``message`` with ``content``) and ``model``;
    - ``message_retrieval(response)``: a list of strings, or of message objects carrying
      ``tool_calls``/``function_call`` like OpenAI's ``ChatCompletionMessage``;
    - ``cost(response)``: the cost in USD;
    - ``get_usage(response)`` (static): a dict with the keys in ``RESPONSE_USAGE_KEYS``.

    An optional ``async def a_create(params)`` is used by ``OpenAIWrapper.a_create``; without
    it, ``create`` runs in a worker thread.
    """

    RESPONSE_USAGE_KEYS: ClassVar[list[str]] = ["prompt_tokens", "completion_tokens", "total_tokens", "cost", "model"]

    class ModelClientResponseProtocol(Protocol):
        class Choice(Protocol):
            class Message(Protocol):
                content: str | None

            message: Message

        choices: list[Choice]
        model: str

    def create(self, params: dict[str, Any]) -> ModelClientResponseProtocol:
        """Send the request described by ``params`` and return the response."""
        ...

    def message_retrieval(
        self, response: ModelClientResponseProtocol
    ) -> list[str] | list[ModelClient.ModelClientResponseProtocol.Choice.Message]:
        """Return the text (or message objects for tool/function calls) of each choice."""
        ...

    def cost(self, response: ModelClientResponseProtocol) -> float:
        """Return the cost of ``response`` in USD."""
        ...

    @staticmethod
    def get_usage(response: ModelClientResponseProtocol) -> dict[str, Any]:
        """Return ``{"prompt_tokens", "completion_tokens", "total_tokens", "cost", "model"}``."""
        ...


class PlaceHolderClient:
    """Stands in for a custom client named in ``config_list`` until it is registered."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config

    def __repr__(self) -> str:
        return f"PlaceHolderClient(model_client_cls={self.config.get('model_client_cls')!r})"
