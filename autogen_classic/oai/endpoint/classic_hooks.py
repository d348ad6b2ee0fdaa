"""The request hooks of classic AutoGen's ``OpenAIClient``, which code subclasses, patches and calls.

``OpenAIClient`` inherits them and calls them where the classic client does, so overriding one in a
subclass, or patching it with ``unittest.mock.patch.object(OpenAIClient, ...)``, changes requests:

- ``_handle_openai_bad_request_error(func)`` wraps the function that sends a request; the wrapper
  first passes the request through ``_patch_messages_for_deepseek_reasoner`` and turns the server's
  refusal of an agent name (``_is_agent_name_error_message``) into a ``ValueError`` that says so.
- ``_patch_messages_for_deepseek_reasoner(**kwargs)`` puts DeepSeek's reasoning model's messages in
  the order it takes (system first, alternating roles, a user message last); other models' requests
  come back unchanged.
- ``_convert_system_role_to_user(messages)`` gives every system message the user role; requests
  to a model whose name contains ``mistral`` go through it, since the chat templates of Mistral's
  open models (served by vLLM, LM Studio, LiteLLM...) refuse a system role.
- ``_process_reasoning_model_params(params)`` prepares a request to an OpenAI reasoning model (a
  model whose name starts with ``o1``): it drops the sampling settings those models refuse, renames
  ``max_tokens`` and, for the first o1 models, turns system messages into user messages.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import re
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import openai

__all__ = [
    "AGENT_NAME_ERROR_TEXT",
    "DEEPSEEK_REASONER",
    "ClassicRequestHooks",
    "is_reasoning_model",
    "takes_no_system_role",
]

DEEPSEEK_REASONER = "deepseek-reasoner"

# The settings OpenAI's reasoning models refuse.
_REASONING_UNSUPPORTED = (
    "temperature",
    "top_p",
    "frequency_penalty",
    "presence_penalty",
    "logprobs",
    "top_logprobs",
    "logit_bias",
)
# The first o1 releases take no system message.
_NO_SYSTEM_MESSAGE_MODELS = frozenset({"o1-mini", "o1-preview", "o1-mini-2024-09-12", "o1-preview-2024-09-12"})
_SYSTEM_PREFIX = "System message: "

_AGENT_NAME_ERROR = re.compile(r"Invalid 'messages\[\d+\]\.name': string does not match pattern.")

# The classic text of the ValueError raised for a refused agent name; the server's message follows it.
AGENT_NAME_ERROR_TEXT = (
    "This error typically occurs when the agent name contains invalid characters, such as spaces or special "
    "symbols.\nPlease ensure that your agent name follows the correct format and doesn't include any unsupported "
    "characters.\nCheck the agent name and try again.\nHere is the full BadRequestError from openai:\n"
)


def is_reasoning_model(model: Any) -> bool:
    """Whether classic AutoGen treats ``model`` as an OpenAI reasoning model (its name starts with ``o1``)."""
    return isinstance(model, str) and model.startswith("o1")


def takes_no_system_role(model: Any) -> bool:
    """Whether classic AutoGen sends ``model`` its system messages as user messages (``mistral`` in the name)."""
    return isinstance(model, str) and "mistral" in model


def _server_messages(err: openai.BadRequestError) -> list[str]:
    """The error messages the server sent with ``err``: from its JSON body, else from the SDK's ``body``."""
    found: list[str] = []
    response = getattr(err, "response", None)
    try:
        data = response.json() if response is not None else None
    except Exception:  # noqa: BLE001 - a body that is not JSON: fall back to what the SDK parsed
        data = None
    if isinstance(data, dict) and isinstance(data.get("error"), dict):
        message = data["error"].get("message")
        if isinstance(message, str):
            found.append(message)
    body = getattr(err, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else None
        if isinstance(message, str) and message not in found:
            found.append(message)
    return found


class ClassicRequestHooks:
    """The classic hooks of ``OpenAIClient`` (see the module docstring); ``OpenAIClient`` inherits them.

    The hooks that the classic client calls by its class name are class methods here, so that a
    patch on ``OpenAIClient`` and an override in a subclass both reach the request.
    """

    @staticmethod
    def _is_agent_name_error_message(message: str) -> bool:
        """Whether ``message`` (a server's error text) is the refusal of a message's ``name`` field."""
        return bool(_AGENT_NAME_ERROR.match(message))

    @staticmethod
    def _move_system_message_to_beginning(messages: list[dict[str, Any]]) -> None:
        """Move the first system message of ``messages`` to the front, in place."""
        for position, message in enumerate(messages):
            if message.get("role") == "system":
                messages.insert(0, messages.pop(position))
                return

    @staticmethod
    def _convert_system_role_to_user(messages: list[dict[str, Any]]) -> None:
        """Give every system message of ``messages`` the user role, in place (the text stays as it is)."""
        for message in messages:
            if message.get("role", "") == "system":
                message["role"] = "user"

    @classmethod
    def _patch_messages_for_deepseek_reasoner(cls, **kwargs: Any) -> Any:
        """Return the request ``kwargs`` with messages DeepSeek's reasoning model accepts.

        For ``model="deepseek-reasoner"``: the system message goes first, a message with the same
        role as the one before it takes the other role (user/assistant), and a closing
        ``{"role": "user", "content": "continue"}`` is added when the last message is not the
        user's. The message dicts are changed in place. Any other request is returned unchanged.
        """
        messages = kwargs.get("messages")
        if kwargs.get("model") != DEEPSEEK_REASONER or not messages:
            return kwargs
        cls._move_system_message_to_beginning(messages)
        patched: list[dict[str, Any]] = []
        previous_role = None
        for message in messages:
            if "role" in message:
                role = message["role"]
                if role == previous_role and role in ("user", "assistant"):
                    message["role"] = "assistant" if role == "user" else "user"
                previous_role = message["role"]
            patched.append(message)
        if patched[-1].get("role") != "user":
            patched.append({"role": "user", "content": "continue"})
        kwargs["messages"] = patched
        return kwargs

    @classmethod
    def _agent_name_error(cls, err: openai.BadRequestError) -> ValueError | None:
        """The classic ``ValueError`` for a server's refusal of an agent name, or None for other errors."""
        if not any(cls._is_agent_name_error_message(message) for message in _server_messages(err)):
            return None
        return ValueError(f"{AGENT_NAME_ERROR_TEXT}{getattr(err, 'message', err)}.")

    @classmethod
    @contextlib.contextmanager
    def _agent_name_errors_translated(cls) -> Iterator[None]:
        """Raise the classic ``ValueError`` (from the error) where the server refuses an agent name."""
        try:
            yield
        except openai.BadRequestError as err:
            translated = cls._agent_name_error(err)
            if translated is None:
                raise
            raise translated from err

    @classmethod
    def _handle_openai_bad_request_error(cls, func: Callable[..., Any]) -> Callable[..., Any]:
        """Wrap ``func`` (the function sending a request) with the classic request handling.

        The wrapper passes the keyword arguments through ``_patch_messages_for_deepseek_reasoner``
        before calling ``func``, and raises a ``ValueError`` naming the agent name when the server
        refuses a message's ``name``; other ``openai.BadRequestError`` s are raised as they are. An
        async ``func`` gets an async wrapper.
        """
        if inspect.iscoroutinefunction(func):

            @functools.wraps(func)
            async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                with cls._agent_name_errors_translated():
                    return await func(*args, **cls._patch_messages_for_deepseek_reasoner(**kwargs))

            return async_wrapper

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with cls._agent_name_errors_translated():
                return func(*args, **cls._patch_messages_for_deepseek_reasoner(**kwargs))

        return wrapper

    def _process_reasoning_model_params(self, params: dict[str, Any]) -> None:
        """Prepare ``params`` (changed in place) for an OpenAI reasoning model such as ``o1``.

        Sampling settings these models refuse (``temperature``, ``top_p``, ``frequency_penalty``,
        ``presence_penalty``, ``logprobs``, ``top_logprobs``, ``logit_bias``) are dropped with a
        ``UserWarning`` each; ``max_tokens`` becomes ``max_completion_tokens``; for ``o1-mini`` and
        ``o1-preview`` every system message becomes a user message starting with "System message: ".
        """
        model = params.get("model")
        for name in _REASONING_UNSUPPORTED:
            if name in params:
                warnings.warn(f"`{name}` is not supported with {model} model and will be ignored.", stacklevel=2)
                params.pop(name)
        if "max_tokens" in params:
            params["max_completion_tokens"] = params.pop("max_tokens")
        if model in _NO_SYSTEM_MESSAGE_MODELS and "messages" in params:
            for message in params["messages"]:
                if message.get("role") == "system":
                    message["role"] = "user"
                    message["content"] = f"{_SYSTEM_PREFIX}{message['content']}"
