"""One Responses API request from chat-style ``params``, and the conversation it continues on the server.

Shared by both Responses API clients (``OpenAIResponsesClient`` answers with the API's own ``Response``,
``OpenAIResponsesV2Client`` with a ``UnifiedResponse``). The Responses API keeps the conversation on
the server: each answer has an id, and a request that names it as ``previous_response_id`` continues
from there. For chat histories the client does that itself: when the ``messages`` of a request are
the previous request's messages plus the answer and what came after, only what came after is sent,
with the previous answer's id. Any other history (another peer's, a cleared one, one whose answer
came from a cache) is sent whole, as a new conversation. A request given as ``input`` items
continues the client's conversation, unless it names its own ``previous_response_id``.
"""

from __future__ import annotations

import threading
from typing import Any, Union

from pydantic import BaseModel

from .._sdk import require_model, split_for_sdk
from .request import convert_settings, messages_to_input
from .tool_settings import built_in_tool_configs

__all__ = ["LOCAL_KEYS", "ResponsesConversation"]

# Request keys the clients consume; they are never sent.
LOCAL_KEYS = ("workspace_dir", "allowed_paths", "allowed_commands", "denied_commands", "enable_command_filtering",
              "dangerous_patterns", "stream", "stream_options")


class ResponsesConversation:
    """The conversation state of a Responses API client and the request that continues it.

    The class using it provides ``client`` (an ``openai.OpenAI``), ``_default_response_format``, the
    built-in tool settings (``BuiltInToolSettings``) and ``_answer`` (what ``create`` returns), and
    calls ``_init_conversation()`` when built.
    """

    client: Any
    _default_response_format: Any

    def _init_conversation(self) -> None:
        self._state_lock = threading.Lock()
        self._previous_response_id: Union[str, None] = None
        self._sent_messages: Union[list[Any], None] = None  # the history the previous answer followed

    def _get_previous_response_id(self) -> Union[str, None]:
        return self._previous_response_id

    def _set_previous_response_id(self, response_id: Union[str, None]) -> None:
        with self._state_lock:
            self._previous_response_id = response_id
            self._sent_messages = None

    def reset_conversation(self) -> None:
        """Start a new conversation: the next request does not continue the previous answer."""
        self._set_previous_response_id(None)

    def _continuation(self, messages: list[Any]) -> tuple[list[Any], Union[str, None]]:
        """The messages to send and the answer they continue (see the module notes)."""
        with self._state_lock:
            sent, previous = self._sent_messages, self._previous_response_id
        if sent is None or previous is None or len(messages) <= len(sent) + 1:
            return messages, None  # nothing new after the answer: a fresh request
        reply = messages[len(sent)]
        if messages[: len(sent)] != sent or not (isinstance(reply, dict) and reply.get("role") == "assistant"):
            return messages, None
        return messages[len(sent) + 1 :], previous

    def create(self, params: dict[str, Any]) -> Any:
        """Send a Responses API request and return the answer: the SDK's ``Response``
        (``OpenAIResponsesClient``) or a ``UnifiedResponse`` (``OpenAIResponsesV2Client``).

        Args:
            params: ``model``; ``messages`` (chat messages, converted to ``input`` items) or ``input``
                (Responses API items); ``tools`` / ``tool_choice`` in chat or Responses form; ``built_in_tools``
                (``["web_search", "image_generation"]``) with ``web_search_config`` /
                ``image_generation_config``; ``response_format``; ``previous_response_id``; other
                settings (``temperature``, ``max_tokens``, ``reasoning_effort``, ``verbosity``, ...).

        Raises:
            TypeError: the request names no ``model``, or ``messages`` is not a list.
            ValueError: it has neither ``messages`` nor ``input``, or a message the API has no form for.
            NotImplementedError: ``built_in_tools`` names a tool that runs on this machine (apply_patch, shell).
        """
        return self._answer(self._send(params), str(params["model"]))

    def _answer(self, answer: Any, model: str) -> Any:
        """What ``create`` returns for the SDK's ``answer`` to a request for ``model``."""
        raise NotImplementedError

    def _send(self, params: dict[str, Any]) -> Any:
        """Send ``params`` (chat-style settings, see ``create``) and return the SDK's ``Response``."""
        name = type(self).__name__
        params = dict(params)
        require_model(params, name)
        for key in LOCAL_KEYS:
            params.pop(key, None)
        built_in = params.pop("built_in_tools", None)
        web_search_config = params.pop("web_search_config", None)
        image_config = params.pop("image_generation_config", None)
        messages = params.pop("messages", None)
        image_params: dict[str, Any] = {}
        sent: Union[list[Any], None] = None
        if "input" not in params and messages is not None:
            if not isinstance(messages, list):
                raise TypeError(f"{name}.create: messages must be a list of dicts, got {type(messages).__name__}")
            to_send, previous = messages, None
            if params.get("previous_response_id") is None:
                to_send, previous = self._continuation(messages)
                sent = list(messages)
            params["input"] = messages_to_input(to_send, image_params)
            if previous is not None:
                params["previous_response_id"] = previous
        elif "input" in params:
            if params.get("previous_response_id") is None and self._previous_response_id is not None:
                params["previous_response_id"] = self._previous_response_id
        elif not any(key in params for key in ("previous_response_id", "prompt")):
            raise ValueError(
                f"{name}.create: give 'messages' (chat messages, e.g. [{{'role': 'user', 'content': "
                "'Hi'}]) or 'input' (Responses API items)."
            )
        response_format = params.pop("response_format", None) or self._default_response_format
        use_parse = isinstance(response_format, type) and issubclass(response_format, BaseModel)
        if response_format is not None and not use_parse:
            params["response_format"] = response_format
        request = convert_settings(params)
        tools = built_in_tool_configs(self, built_in, image_config, web_search_config, image_params)  # type: ignore[arg-type]
        tools += request.get("tools") or []
        if tools:
            request["tools"] = tools
            request.setdefault("tool_choice", "auto")
        request = split_for_sdk(request, "responses")
        if use_parse:
            answer = self.client.responses.parse(text_format=response_format, **request)
        else:
            answer = self.client.responses.create(**request)
        with self._state_lock:
            self._previous_response_id = answer.id
            self._sent_messages = sent
        return answer
