"""``OpenAIResponsesClient``: the classic client of the OpenAI Responses API, selected by
``"api_type": "responses"`` in a ``config_list`` entry.

It answers with the SDK's own ``Response`` (``client.responses.create``), and gives agents their
replies in the form AG2 0.14 stores them: one assistant message whose ``content`` is a list of
parts (``{"type": "text", "role": "assistant", "text": ...}`` per message item, one part per
built-in tool call) and whose ``tool_calls`` are the function calls of the answer. The request is
built by the same machinery as ``OpenAIResponsesV2Client`` (``responses.conversation``): chat
messages become ``input`` items, tools are flattened, built-in tools are added, and a chat that
goes on continues the server-side conversation through ``previous_response_id``.

Its classic paths are ``oai.openai_responses``, a thin face that nothing in the package imports, and
``oai.client``, which loads it on first use: this package builds on ``oai``, so ``oai`` names it by import
path (``oai.endpoint.providers``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Union

from ._sdk import SdkEndpoint, build_sdk_client
from .responses.conversation import ResponsesConversation
from .responses.pricing import calculate_token_cost
from .responses.response import item_dict, output_blocks, usage_of
from .responses.tool_settings import BuiltInToolSettings

__all__ = ["OpenAIResponsesClient"]

logger = logging.getLogger("autogen_classic.llm_clients")

# Settings of the image_generation tool an image part carries back (as the answer reported them).
_IMAGE_KEYS = ("quality", "background", "size", "output_format", "output_compression")


class OpenAIResponsesClient(ResponsesConversation, BuiltInToolSettings, SdkEndpoint):
    """A ``ModelClient`` for the Responses API (``/responses``) that returns the SDK's ``Response``.

    Args:
        client: an ``openai.OpenAI`` client (its key, base URL and retries are used), or a dict of
            client settings (``api_key``, ``base_url``, ``timeout``, ``max_retries``, ...) to build one.
        response_format: a pydantic model (or JSON-schema dict) every request asks for; a request's
            own ``response_format`` wins.

    Attributes:
        previous_response_id: the id of the last answer, which a request given as ``input`` continues.
        image_output_params: the defaults of the ``image_generation`` tool (``set_image_output_params``).
        image_costs: the cost in USD of every image generated through this client so far.
    """

    def __init__(self, client: Any, response_format: Any = None) -> None:
        if isinstance(client, Mapping):
            settings = dict(client)
            client = build_sdk_client(settings.pop("api_key", None), settings.pop("base_url", None),
                                      settings.pop("timeout", 60.0), settings)
        if not hasattr(client, "responses"):
            raise TypeError(
                "OpenAIResponsesClient: client must be an openai.OpenAI client (or a dict of its settings such as "
                f"{{'api_key': ..., 'base_url': ...}}), got {type(client).__name__}"
            )
        self._use_client(client, getattr(client, "api_key", None))
        self.response_format = response_format
        self._init_tool_settings()
        self._init_conversation()
        self.image_costs = 0.0

    @property
    def _default_response_format(self) -> Any:
        return self.response_format  # what every request asks for, as the classic attribute says

    @property
    def previous_response_id(self) -> Union[str, None]:
        """The id of the last answer (None before the first or after ``reset_conversation``)."""
        return self._get_previous_response_id()

    @previous_response_id.setter
    def previous_response_id(self, response_id: Union[str, None]) -> None:
        self._set_previous_response_id(response_id)

    # ----------------------------------------------------------------- answer
    def _answer(self, answer: Any, model: str) -> Any:
        self.image_costs += self._image_cost(answer)
        return answer  # the SDK's own Response, as the classic client returns it

    def _image_cost(self, response: Any) -> float:
        return output_blocks(list(getattr(response, "output", None) or []), self._image_output_format())[1]

    def message_retrieval(self, response: Any) -> list[dict[str, Any]]:
        """The answer as one assistant message: ``content`` (a list of parts, or None) and ``tool_calls`` (when any).

        Message items become ``{"type": "text", "role": "assistant", "text": ...}``; function calls
        become ``tool_calls`` (``{"id", "function": {"name", "arguments"}, "type": "function_call"}``);
        built-in tool calls become parts with ``"role": "tool_calls"`` (a generated image with its
        ``image_url`` as a data URI); reasoning items are left out; any other item is kept as it came.
        """
        content: list[dict[str, Any]] = []
        tool_calls: list[dict[str, Any]] = []
        for raw in getattr(response, "output", None) or []:
            item = item_dict(raw)
            if item is None:
                continue
            kind = item.get("type")
            if kind == "reasoning":
                continue
            if kind == "message":
                texts = [p.get("text") or "" for p in item.get("content") or [] if isinstance(p, dict)
                         and p.get("type") == "output_text"]
                content.append({"type": "text", "role": "assistant", "text": " ".join(texts)})
            elif kind == "function_call":
                tool_calls.append({
                    "id": item.get("call_id"),
                    "function": {"name": item.get("name"), "arguments": item.get("arguments")},
                    "type": "function_call",
                })
            elif kind in ("apply_patch_call", "shell_call"):
                detail = "operation" if kind == "apply_patch_call" else "action"
                content.append({
                    "id": item.get("id"), "role": "tool_calls", "type": kind, "call_id": item.get("call_id"),
                    "status": item.get("status", "in_progress"), detail: item.get(detail, {}),
                })
            elif isinstance(kind, str) and kind.endswith("_call"):
                content.append(self._tool_part(item, kind[: -len("_call")]))
            else:
                content.append(item)
        reply: dict[str, Any] = {"role": "assistant", "id": getattr(response, "id", None), "content": content or None}
        if tool_calls:  # no empty list: agents store the message as it is, and chat endpoints refuse []
            reply["tool_calls"] = tool_calls
        return [reply]

    def _tool_part(self, item: dict[str, Any], tool: str) -> dict[str, Any]:
        part: dict[str, Any] = {"id": item.get("id"), "role": "tool_calls", "type": "tool_call", "name": tool}
        if tool == "image_generation":
            part.update({key: item[key] for key in _IMAGE_KEYS if key in item})
            result = item.get("result") or ""
            part["content"] = result
            part["image_url"] = f"data:image/{self._image_output_format()};base64,{result}"
        return part

    def cost(self, response: Any) -> float:
        """The cost in USD of ``response``: its tokens (priced from ``OAI_PRICE1K``) and the images it generated."""
        usage = usage_of(response)
        tokens = calculate_token_cost(str(getattr(response, "model", "") or ""), int(usage.get("prompt_tokens", 0)),
                                      int(usage.get("completion_tokens", 0)))
        return tokens + self._image_cost(response)

    @staticmethod
    def get_usage(response: Any) -> dict[str, Any]:
        """The classic usage keys (``RESPONSE_USAGE_KEYS``) and ``reasoning_tokens``."""
        usage = usage_of(response)
        return {
            "prompt_tokens": usage.get("prompt_tokens", 0),
            "completion_tokens": usage.get("completion_tokens", 0),
            "total_tokens": usage.get("total_tokens", 0),
            "cost": getattr(response, "cost", 0) or 0,
            "model": getattr(response, "model", "") or "",
            "reasoning_tokens": usage.get("reasoning_tokens", 0),
        }
