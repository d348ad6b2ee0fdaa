"""A Responses API request from chat-style settings: messages become input items, tools are flattened.

The Responses API takes ``input`` items instead of ``messages``: a message's text becomes
``input_text`` parts (``output_text`` for the assistant), images ``input_image`` parts, an
assistant's tool calls ``function_call`` items and tool messages ``function_call_output`` items.
Tools lose their ``function`` wrapper, ``response_format`` becomes ``text.format``, and
``max_tokens`` / ``reasoning_effort`` / ``verbosity`` take their Responses API names.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Union

from ...types import content_part_type, content_str
from .tool_settings import IMAGE_SETTINGS

__all__ = ["convert_settings", "messages_to_input", "text_format_of"]

logger = logging.getLogger("autogen_classic.llm_clients")

_TEXT_PARTS = ("text", "input_text", "output_text")
_IMAGE_PARTS = ("image_url", "input_image", "image")
# Parts an answer of this package may carry back in a chat history (blocks of a previous answer):
# the model produced them, so they are not sent again.
_ANSWER_PARTS = ("parsed", "refusal", "reasoning", "tool_call", "file_citation", "web_search", "web_search_result")
_ROLES = ("user", "assistant", "system", "developer")


def parts_text(content: Union[str, list[Any], None]) -> str:
    """The text of a message ``content`` for a Responses input: a string, None (``""``) or parts, joined with nothing
    (text, ``input_text`` and ``output_text`` as they are, images as ``<image>``). Other than the join and
    the part types, it reads ``content`` as ``content_str`` does, whose checks it shares.

    Raises:
        TypeError: ``content`` is of another type, or a list item is not a dict.
        InvalidArgumentError: a part has no ``type``.
        ValueError: a part's ``type`` is neither text nor an image.
    """
    if not isinstance(content, list):
        return content_str(content)  # None, a string, or refused
    return "".join(_input_part_text(item) for item in content)


def _input_part_text(item: Any) -> str:
    kind = content_part_type(item)
    if kind in _TEXT_PARTS:
        return item.get("text") or ""  # type: ignore[no-any-return]
    if kind in ("image_url", "input_image"):
        return "<image>"
    raise ValueError(f"Wrong content format: unknown type {kind} within the content")


def _image_url(part: dict[str, Any]) -> Union[str, None]:
    url = part.get("image_url")
    if isinstance(url, dict):
        url = url.get("url")
    return url if isinstance(url, str) and url else None


def _parts(content: list[Any], role: str, where: str, image_params: dict[str, Any]) -> list[dict[str, Any]]:
    text_type = "output_text" if role == "assistant" else "input_text"
    parts: list[dict[str, Any]] = []
    for number, part in enumerate(content):
        if isinstance(part, str):
            parts.append({"type": text_type, "text": part})
            continue
        if not isinstance(part, dict):
            raise TypeError(f"{where}.content[{number}]: a content part must be a dict, got {type(part).__name__}")
        kind = part.get("type", "")
        if kind in _TEXT_PARTS:
            parts.append({"type": text_type, "text": part.get("text") or ""})
        elif kind in _IMAGE_PARTS:
            url = _image_url(part)
            if url is None:
                raise ValueError(f"{where}.content[{number}]: an image part needs an 'image_url' (a URL or data URI)")
            if role == "assistant":
                logger.debug("%s.content[%d]: the Responses API takes no images from the assistant; left out", where, number)
                continue
            image = {"type": "input_image", "image_url": url}
            detail = part.get("detail") or (part["image_url"].get("detail") if isinstance(part.get("image_url"), dict) else None)
            if detail:
                image["detail"] = detail
            parts.append(image)
        elif kind == "image_params":
            image_params.update({k: v for k, v in (part.get("image_params") or {}).items() if k in IMAGE_SETTINGS})
        elif kind == "citation":
            snippet = f": {part['snippet']}" if part.get("snippet") else ""
            parts.append({"type": text_type, "text": f"[{part.get('title') or part.get('url')}]({part.get('url')}){snippet}"})
        elif kind in _ANSWER_PARTS or str(kind).endswith("_call"):
            continue
        else:
            raise ValueError(
                f"{where}.content[{number}]: unknown content part type {kind!r}. The Responses API takes text parts "
                "('text', 'input_text', 'output_text') and images ('image_url', 'input_image')."
            )
    return parts


def messages_to_input(messages: list[Any], image_params: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``input`` items for chat ``messages``; ``image_params`` parts are collected into ``image_params``.

    Raises:
        TypeError: a message is not a dict.
        ValueError: a message has a role or a content part the Responses API has no form for.
    """
    items: list[dict[str, Any]] = []
    for index, message in enumerate(messages):
        where = f"messages[{index}]"
        if not isinstance(message, dict):
            raise TypeError(f"{where}: a message must be a dict with 'role' and 'content', got {type(message).__name__}")
        role = message.get("role") or "user"
        content = message.get("content")
        if role == "tool":
            output = content if isinstance(content, str) else parts_text(content) if isinstance(content, list) else (
                "" if content is None else json.dumps(content) if isinstance(content, dict) else str(content))
            items.append({"type": "function_call_output", "call_id": message.get("tool_call_id"), "output": output})
            continue
        if role == "function" or message.get("function_call"):
            raise ValueError(
                f"{where}: legacy function-call messages have no Responses API form; use tools (tool_calls and "
                "'tool' messages), e.g. register the function with register_function."
            )
        if role not in _ROLES:
            raise ValueError(f"{where}: role {role!r} is not one the Responses API takes; use one of {list(_ROLES)} or 'tool'")
        calls = message.get("tool_calls") or []
        if isinstance(content, list):
            parts = _parts(content, role, where, image_params)
        elif content is None or (content == "" and calls):
            parts = [] if calls else [{"type": "output_text" if role == "assistant" else "input_text", "text": ""}]
        else:
            parts = [{"type": "output_text" if role == "assistant" else "input_text", "text": str(content)}]
        if parts:
            items.append({"role": role, "content": parts})
        for call in calls:
            function = call.get("function") or {}
            items.append({
                "type": "function_call", "call_id": call.get("id"), "name": function.get("name"),
                "arguments": function.get("arguments") or "{}",
            })
    return items


def _tool(tool: Any) -> dict[str, Any]:
    if not isinstance(tool, dict):
        raise TypeError(f"tools: each tool must be a dict, got {type(tool).__name__}")
    if tool.get("type", "function") == "function" and isinstance(tool.get("function"), dict):
        tool = {"type": "function", **tool["function"]}
    if tool.get("type") == "function":
        # Chat tools are not strict unless they say so; the Responses API would make them strict.
        tool = {**tool, "strict": tool.get("strict", False)}
    return tool


def text_format_of(response_format: Any) -> Union[dict[str, Any], None]:
    """The ``text.format`` for a chat-style ``response_format`` dict (None for a pydantic class).

    Raises:
        ValueError: the dict is not a response format the API knows.
    """
    if response_format is None or isinstance(response_format, type):
        return None
    if not isinstance(response_format, dict):
        raise ValueError(f"response_format must be a pydantic model class or a dict, got {type(response_format).__name__}")
    kind = response_format.get("type")
    if kind == "json_schema":
        spec = response_format.get("json_schema") or {}
        if "schema" not in spec and "schema" in response_format:
            spec = response_format  # already in the Responses API's flat form
        out = {"type": "json_schema", "name": spec.get("name") or "response", "schema": spec.get("schema") or {}}
        if spec.get("strict") is not None:
            out["strict"] = spec["strict"]
        return out
    if kind in ("json_object", "text"):
        return {"type": kind}
    raise ValueError(
        f"response_format {response_format!r}: use a pydantic model class, {{'type': 'json_schema', 'json_schema': "
        "{'name': ..., 'schema': {...}}}, {'type': 'json_object'} or {'type': 'text'}"
    )


def convert_settings(params: dict[str, Any]) -> dict[str, Any]:
    """Give chat-completions settings their Responses API form (tools, tool_choice, limits, reasoning, text)."""
    out = dict(params)
    tools = [_tool(t) for t in out.pop("tools", None) or []]
    tools += [{"type": "function", "strict": False, **f} for f in out.pop("functions", None) or []]
    if tools:
        out["tools"] = tools
    choice = out.pop("tool_choice", None)
    legacy_choice = out.pop("function_call", None)
    if choice is None and legacy_choice is not None:
        choice = legacy_choice if isinstance(legacy_choice, str) else {"type": "function", "name": legacy_choice.get("name")}
    if isinstance(choice, dict) and isinstance(choice.get("function"), dict):
        choice = {"type": "function", "name": choice["function"].get("name")}
    if choice is not None:
        out["tool_choice"] = choice
    for name in ("max_tokens", "max_completion_tokens"):
        if name in out:
            out.setdefault("max_output_tokens", out.pop(name))
            out.pop(name, None)
    if "reasoning_effort" in out:
        out["reasoning"] = {**(out.get("reasoning") or {}), "effort": out.pop("reasoning_effort")}
    text = dict(out.get("text") or {})
    if "verbosity" in out:
        text["verbosity"] = out.pop("verbosity")
    text_format = text_format_of(out.get("response_format"))
    if text_format is not None:
        out.pop("response_format")
        text["format"] = text_format
    if text:
        out["text"] = text
    return out
