"""The ``/v1/responses`` route of the scripted server: a minimal, faithful OpenAI Responses API.

A scripted reply (``ScriptedReply``) is rendered as a ``response`` object: a ``reasoning`` item
when the reply has reasoning text, a ``message`` item whose content is one ``output_text`` part,
and one ``function_call`` item per tool call; ``usage`` counts words as tokens, like the
chat-completions route. Requests are checked the way the hosted API checks them, so a client that
sends a malformed ``input`` fails here as it would there:

- ``model`` is required; ``input`` is a string or a list of items (messages with ``input_text`` /
  ``output_text`` / ``input_image`` parts, ``function_call``, ``function_call_output``, ``reasoning``);
- ``previous_response_id`` must name a response this server gave; the conversation it starts is
  counted as input tokens, as the hosted API bills it;
- a ``function_call_output`` must answer a ``function_call`` of the same input or of the chain of
  previous responses.

Imports nothing of the package but the standard library (the server loads this module).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Set, Tuple

__all__ = ["ResponsesLedger", "check_request", "render_response"]

_MESSAGE_ROLES = ("user", "assistant", "system", "developer")
_PART_TYPES = ("input_text", "output_text", "input_image", "input_file", "refusal")
_ITEM_TYPES = ("message", "function_call", "function_call_output", "reasoning")


@dataclass
class _Stored:
    previous: Optional[str]
    call_ids: Set[str]
    tokens: int  # input + output tokens of this response: the context a follow-up carries


@dataclass
class ResponsesLedger:
    """The responses a server gave, so that ``previous_response_id`` and call outputs can be checked."""

    _lock: threading.Lock = field(default_factory=threading.Lock)
    _stored: Dict[str, _Stored] = field(default_factory=dict)

    def clear(self) -> None:
        with self._lock:
            self._stored.clear()

    def known(self, response_id: str) -> bool:
        with self._lock:
            return response_id in self._stored

    def chain(self, response_id: Optional[str]) -> Tuple[Set[str], int]:
        """The call ids and the token count of the conversation ending at ``response_id``."""
        calls: Set[str] = set()
        tokens = 0
        with self._lock:
            while response_id is not None and response_id in self._stored:
                stored = self._stored[response_id]
                calls |= stored.call_ids
                tokens = max(tokens, stored.tokens)  # the latest response already carries its predecessors
                response_id = stored.previous
        return calls, tokens

    def store(self, response_id: str, previous: Optional[str], call_ids: Set[str], tokens: int) -> None:
        with self._lock:
            self._stored[response_id] = _Stored(previous, call_ids, tokens)


def _words(text: Any) -> int:
    return len(text.split()) if isinstance(text, str) else 0


def _items(body: Dict[str, Any]) -> List[Dict[str, Any]]:
    raw = body.get("input")
    if raw is None:
        return []
    if isinstance(raw, str):
        return [{"role": "user", "content": raw}]
    return raw


def check_request(ledger: ResponsesLedger, body: Dict[str, Any]) -> Optional[Tuple[int, str]]:
    """Return ``(status, message)`` when the request would be refused by the Responses API, else None."""
    if not body.get("model"):
        return 400, "Missing required parameter: 'model'."
    if body.get("stream"):
        return 400, "The scripted Responses route answers whole responses only: 'stream' is not supported."
    raw = body.get("input")
    if raw is not None and not isinstance(raw, (str, list)):
        return 400, f"Invalid type for 'input': expected a string or an array of items, got {type(raw).__name__}."
    previous = body.get("previous_response_id")
    if previous is not None and not ledger.known(str(previous)):
        return 400, f"Previous response with id '{previous}' not found."
    known_calls, _ = ledger.chain(previous)
    for index, item in enumerate(_items(body)):
        if not isinstance(item, dict):
            return 400, f"Invalid type for 'input[{index}]': expected an object."
        kind = item.get("type", "message")
        if kind not in _ITEM_TYPES:
            return 400, f"Invalid value for 'input[{index}].type': '{kind}'. Supported values are: {list(_ITEM_TYPES)}."
        if kind == "message":
            problem = _check_message(item, index)
            if problem:
                return 400, problem
        elif kind == "function_call":
            if not item.get("call_id") or not item.get("name"):
                return 400, f"Missing required parameter: 'input[{index}].call_id' and 'name' are required."
            known_calls.add(str(item["call_id"]))
        elif kind == "function_call_output":
            call_id = item.get("call_id")
            if call_id not in known_calls:
                return 400, f"No tool call found for function call output with call_id {call_id}."
            if not isinstance(item.get("output"), (str, list)):
                return 400, f"Invalid type for 'input[{index}].output': expected a string."
    return None


def _check_message(item: Dict[str, Any], index: int) -> Optional[str]:
    role = item.get("role")
    if role not in _MESSAGE_ROLES:
        return f"Invalid value for 'input[{index}].role': '{role}'. Supported values are: {list(_MESSAGE_ROLES)}."
    content = item.get("content")
    if isinstance(content, str):
        return None
    if not isinstance(content, list):
        return f"Invalid type for 'input[{index}].content': expected a string or an array of content parts."
    for number, part in enumerate(content):
        kind = part.get("type") if isinstance(part, dict) else None
        if kind not in _PART_TYPES:
            return (
                f"Invalid value for 'input[{index}].content[{number}].type': '{kind}'. "
                f"Supported values are: {list(_PART_TYPES)}."
            )
        if role == "assistant" and kind not in ("output_text", "refusal"):
            return f"Invalid value for 'input[{index}].content[{number}].type': an assistant message takes 'output_text'."
        if role != "assistant" and kind == "output_text":
            return f"Invalid value for 'input[{index}].content[{number}].type': 'output_text' is for assistant messages."
    return None


def _input_words(body: Dict[str, Any]) -> int:
    count = _words(body.get("instructions"))
    for item in _items(body):
        content = item.get("content")
        if isinstance(content, str):
            count += _words(content)
        elif isinstance(content, list):
            count += sum(_words(part.get("text")) for part in content if isinstance(part, dict))
        count += _words(item.get("arguments")) + _words(item.get("output"))
    return count


def _usage(reply: Any, prompt: int, completion: int) -> Dict[str, Any]:
    scripted = dict(reply.usage or {})
    # Chat-style overrides are accepted too: prompt_tokens / completion_tokens.
    input_tokens = scripted.get("input_tokens", scripted.get("prompt_tokens", max(prompt, 1)))
    output_tokens = scripted.get("output_tokens", scripted.get("completion_tokens", max(completion, 1)))
    return {
        "input_tokens": input_tokens,
        "input_tokens_details": {"cached_tokens": scripted.get("cached_tokens", 0)},
        "output_tokens": output_tokens,
        "output_tokens_details": {"reasoning_tokens": scripted.get("reasoning_tokens", 0)},
        "total_tokens": scripted.get("total_tokens", input_tokens + output_tokens),
    }


def render_response(
    ledger: ResponsesLedger, body: Dict[str, Any], reply: Any, number: int, tool_calls: Optional[List[Dict[str, Any]]]
) -> Dict[str, Any]:
    """The ``response`` object for a scripted reply (``tool_calls`` in the chat form the server builds)."""
    output: List[Dict[str, Any]] = []
    reasoning = getattr(reply, "reasoning", None)
    if reasoning:
        output.append({
            "type": "reasoning", "id": f"rs_scripted_{number}", "status": "completed",
            "summary": [], "content": [{"type": "reasoning_text", "text": reasoning}],
        })
    if reply.content is not None:
        output.append({
            "type": "message", "id": f"msg_scripted_{number}", "status": "completed", "role": "assistant",
            "content": [{"type": "output_text", "text": reply.content, "annotations": [], "logprobs": []}],
        })
    call_ids: Set[str] = set()
    for index, call in enumerate(tool_calls or []):
        call_ids.add(call["id"])
        output.append({
            "type": "function_call", "id": f"fc_scripted_{number}_{index}", "status": "completed",
            "call_id": call["id"], "name": call["function"]["name"], "arguments": call["function"]["arguments"],
        })
    previous = body.get("previous_response_id")
    _, carried = ledger.chain(previous)
    completion = _words(reply.content) + _words(reasoning) + sum(_words(c["function"]["arguments"]) for c in tool_calls or [])
    usage = _usage(reply, carried + _input_words(body), completion)
    response_id = f"resp_scripted_{number}"
    ledger.store(response_id, previous, call_ids, usage["input_tokens"] + usage["output_tokens"])
    tools = [t for t in body.get("tools") or [] if isinstance(t, dict)]
    return {
        "id": response_id,
        "object": "response",
        "created_at": int(time.time()),
        "status": "completed",
        "model": body.get("model"),
        "output": output,
        "usage": usage,
        "parallel_tool_calls": body.get("parallel_tool_calls", True),
        "tool_choice": body.get("tool_choice", "auto"),
        "tools": tools,
        "previous_response_id": previous,
        "instructions": body.get("instructions"),
        "temperature": body.get("temperature"),
        "top_p": body.get("top_p"),
        "text": body.get("text") or {"format": {"type": "text"}},
        "metadata": body.get("metadata") or {},
        "error": None,
        "incomplete_details": None,
    }
