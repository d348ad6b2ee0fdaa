"""The built-in reply functions every ``ConversableAgent`` registers.

Each has the reply-function signature ``(self, messages, sender, config) -> (final, reply)``
and becomes a method of ``ConversableAgent``. In the order they are checked:
termination and human input, legacy function calls, tool calls, code blocks, the model.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional, Union

from ...coding.reply import code_execution_reply
from ...exception_utils import InvalidArgumentError
from ...io import IOStream
from ...events.chat_events import TerminationAndHumanReplyNoInputEvent, UsingAutoReplyEvent
from ...events.run_events import TerminationEvent
from ...io.emit import emit, emit_run_event, send_to
from ...tools.execution import a_function_call_reply, a_tool_calls_reply, function_call_reply, tool_calls_reply
from .human_reply import human_reply_message, plan_human_input, stop_reason
from .guards.safeguard_hooks import (
    a_guarded_tool_call, guarded_model_reply, guarded_model_request, guarded_tool_call, has_llm_hooks, has_tool_hooks,
)
from .history import peek
from .tools.responses import unroll_tool_responses

if TYPE_CHECKING:
    from ..agent import Agent
    from ..conversable_agent import ConversableAgent

Reply = tuple[bool, Union[str, dict[str, Any], None]]

# Sync built-ins whose async twin is also registered: async chats run only the twin,
# so that (unlike the reference) the auto-reply counter moves once per reply.
ASYNC_TWINS = {
    "generate_oai_reply": "a_generate_oai_reply",
    "generate_tool_calls_reply": "a_generate_tool_calls_reply",
    "generate_function_call_reply": "a_generate_function_call_reply",
    "check_termination_and_human_reply": "a_check_termination_and_human_reply",
}


def _conversation(self: "ConversableAgent", messages: Optional[list[dict[str, Any]]], sender: Optional["Agent"]) -> list:
    if messages is not None:
        return messages
    return self._oai_messages[sender] if sender is not None else []


# ---------------------------------------------------------------- the model
def _normalize_calls(self: "ConversableAgent", response: Any) -> Union[str, dict[str, Any], None]:
    if response is None:
        return None
    if not isinstance(response, (str, dict)) and hasattr(response, "model_dump"):
        response = response.model_dump()
    if isinstance(response, dict):
        if response.get("function_call"):
            response["function_call"]["name"] = self._normalize_name(response["function_call"]["name"])
        for call in response.get("tool_calls") or []:
            call["function"]["name"] = self._normalize_name(call["function"]["name"])
            # Some OpenAI-compatible servers omit these; sending back None would be rejected.
            if call.get("id") is None:
                call.pop("id", None)
            if call.get("type") is None:
                call.pop("type", None)
    return response


def _request(self: "ConversableAgent", conversation: list[dict[str, Any]]) -> tuple[Any, list[dict[str, Any]]]:
    """The last message's ``context`` and the system message plus ``conversation`` as the endpoint wants them.

    Whether the conversation holds tool responses is known from the messages added since the last
    request, so a long chat does not re-read its whole history on every call to find out.
    """
    messages = self._oai_system_message + conversation
    context = peek(messages, -1).get("context")
    if self._tool_response_scan.is_plain(conversation):
        return context, messages
    return context, unroll_tool_responses(messages)


def _reply_from_response(self: "ConversableAgent", llm_client: Any, response: Any) -> Union[str, dict[str, Any], None]:
    extracted = llm_client.extract_text_or_completion_object(response)[0]
    if extracted is None:
        warnings.warn(f"Extracted_response from {response} is None.", UserWarning)
    return _normalize_calls(self, extracted)


def generate_oai_reply_from_client(
    self: "ConversableAgent", llm_client: Any, messages: list[dict[str, Any]], cache: Any, **kwargs: Any
) -> Union[str, dict[str, Any], None]:
    """Ask ``llm_client`` for the next message of ``messages`` (``kwargs``: further request options)."""
    response = llm_client.create(
        context=peek(messages, -1).get("context"), messages=unroll_tool_responses(messages), cache=cache, agent=self,
        **kwargs,
    )
    return _reply_from_response(self, llm_client, response)


@dataclass
class _ModelCall:
    """The request ``generate_oai_reply`` wants answered: the face asks ``client`` (``create`` or ``a_create``)
    with ``request`` and the caller's further ``options``, and stores the ``response``."""

    client: Any
    request: dict[str, Any]
    options: dict[str, Any]
    response: Any = None


def _oai_reply(
    self: "ConversableAgent", messages: Optional[list[dict[str, Any]]], sender: Optional["Agent"], config: Optional[Any],
    options: dict[str, Any],
) -> Iterator[Any]:
    """A model reply, written once for ``generate_oai_reply`` and ``a_generate_oai_reply``: yields the
    ``_ModelCall`` to make (none when there is no client or a safeguard blocks the request), then the reply."""
    client = self.client if config is None else config
    if client is None:
        yield False, None
        return
    context, request = _request(self, _conversation(self, messages, sender))
    guarded = has_llm_hooks(self)
    if guarded:
        request = guarded_model_request(self, request)
        if isinstance(request, dict):  # a safeguard blocked the call: its text is the reply
            yield True, request
            return
    call = _ModelCall(client, {"context": context, "messages": request, "cache": self.client_cache, "agent": self},
                      options)
    yield call
    reply = _reply_from_response(self, client, call.response)
    if guarded and reply is not None:
        reply = guarded_model_reply(self, reply)
    yield (False, None) if reply is None else (True, reply)


def generate_oai_reply(
    self: "ConversableAgent", messages: Optional[list[dict[str, Any]]] = None, sender: Optional["Agent"] = None,
    config: Optional[Any] = None, **kwargs: Any,
) -> Reply:
    """Reply with the model (``config`` may be another ``OpenAIWrapper`` to use).

    ``kwargs`` are further request options for this call (``temperature=0``, ``response_format=...``).
    """
    steps = _oai_reply(self, messages, sender, config, kwargs)
    step = next(steps)
    if isinstance(step, _ModelCall):
        step.response = step.client.create(**step.request, **step.options)
        step = next(steps)
    return step  # type: ignore[no-any-return]


async def a_generate_oai_reply(
    self: "ConversableAgent", messages: Optional[list[dict[str, Any]]] = None, sender: Optional["Agent"] = None,
    config: Optional[Any] = None, **kwargs: Any,
) -> Reply:
    """(async) Reply with the model, without blocking the event loop; ``kwargs`` as for ``generate_oai_reply``."""
    steps = _oai_reply(self, messages, sender, config, kwargs)
    step = next(steps)
    if isinstance(step, _ModelCall):
        step.response = await step.client.a_create(**step.request, **step.options)
        step = next(steps)
    return step  # type: ignore[no-any-return]


# ---------------------------------------------------------------- code blocks
def generate_code_execution_reply(
    self: "ConversableAgent", messages: Optional[list[dict[str, Any]]] = None, sender: Optional["Agent"] = None,
    config: Optional[Any] = None,
) -> Reply:
    """Run the code blocks of the latest messages (when code execution is enabled)."""
    code_execution_config = config if config is not None else self._code_execution_config
    if code_execution_config is False:
        return False, None
    return code_execution_reply(
        _conversation(self, messages, sender), code_execution_config, IOStream.get_default(), run_code=self.run_code
    )


# ---------------------------------------------------------------- functions and tools
def _executors(self: "ConversableAgent") -> tuple[Any, Any]:
    """The agent's ``execute_function`` / ``a_execute_function``, through its safeguard hooks when it has some."""
    if has_tool_hooks(self):
        return guarded_tool_call(self, self.execute_function), a_guarded_tool_call(self, self.a_execute_function)
    return self.execute_function, self.a_execute_function


def generate_function_call_reply(
    self: "ConversableAgent", messages: Optional[list[dict[str, Any]]] = None, sender: Optional["Agent"] = None,
    config: Optional[Any] = None,
) -> Reply:
    """Execute a legacy ``function_call`` in the last message."""
    execute, a_execute = _executors(self)
    reply = function_call_reply(
        self._function_map, peek(_conversation(self, messages, sender), -1), execute=execute, a_execute=a_execute
    )
    return (False, None) if reply is None else (True, reply)


async def a_generate_function_call_reply(
    self: "ConversableAgent", messages: Optional[list[dict[str, Any]]] = None, sender: Optional["Agent"] = None,
    config: Optional[Any] = None,
) -> Reply:
    """(async) Execute a legacy ``function_call``; async functions are awaited."""
    execute, a_execute = _executors(self)
    reply = await a_function_call_reply(
        self._function_map, peek(_conversation(self, messages, sender), -1), execute=execute, a_execute=a_execute
    )
    return (False, None) if reply is None else (True, reply)


def generate_tool_calls_reply(
    self: "ConversableAgent", messages: Optional[list[dict[str, Any]]] = None, sender: Optional["Agent"] = None,
    config: Optional[Any] = None,
) -> Reply:
    """Execute the ``tool_calls`` of the last message; a tool's error is its result, never raised."""
    message = peek(_conversation(self, messages, sender), -1)
    execute, a_execute = _executors(self)
    reply = tool_calls_reply(self._function_map, message.get("tool_calls") or [], execute=execute, a_execute=a_execute)
    return (False, None) if reply is None else (True, reply)


async def a_generate_tool_calls_reply(
    self: "ConversableAgent", messages: Optional[list[dict[str, Any]]] = None, sender: Optional["Agent"] = None,
    config: Optional[Any] = None,
) -> Reply:
    """(async) Execute the ``tool_calls`` of the last message, concurrently."""
    message = peek(_conversation(self, messages, sender), -1)
    reply = await a_tool_calls_reply(self._function_map, message.get("tool_calls") or [], a_execute=_executors(self)[1])
    return (False, None) if reply is None else (True, reply)


# ---------------------------------------------------------------- termination and human input
def _plan(self: "ConversableAgent", message: dict[str, Any], sender: Optional["Agent"]) -> Any:
    return plan_human_input(
        self.human_input_mode,
        is_termination=bool(self._is_termination_msg(message)),
        auto_replies=self._consecutive_auto_reply_counter[sender],
        max_auto_replies=self._max_consecutive_auto_reply_dict[sender],
        agent_name=self.name,
        sender_name="the sender" if sender is None else sender.name,
    )


def _apply_human_reply(
    self: "ConversableAgent", plan: Any, reply: str, message: dict[str, Any], sender: Optional["Agent"]
) -> Reply:
    if plan.prompt is not None and not reply:
        emit(TerminationAndHumanReplyNoInputEvent, no_human_input_msg="NO HUMAN INPUT RECEIVED.",
             sender=getattr(sender, "name", "No sender"), recipient=self.name)
    if plan.stop or reply == "exit" or (not reply and plan.stop_if_empty):
        self._consecutive_auto_reply_counter[sender] = 0
        reason = stop_reason(self.human_input_mode, plan, reply, self.name)
        if reason is not None:  # AG2 Classic 0.14's event: sent to a run's stream only, never printed classically
            fields = dict(termination_reason=reason, sender=self.name, recipient=getattr(sender, "name", None))
            if getattr(sender, "_prints_termination_events", False):  # a chat of initiate_group_chat: printed
                send_to(IOStream.get_default(), TerminationEvent.build(**fields))
            else:
                emit_run_event(TerminationEvent, **fields)
        return True, None
    if reply or self._max_consecutive_auto_reply_dict[sender] == 0:
        self._consecutive_auto_reply_counter[sender] = 0
        return True, human_reply_message(reply, message)
    self._consecutive_auto_reply_counter[sender] += 1
    if self.human_input_mode != "NEVER":
        if not isinstance(self.human_input_mode, str):
            # Classic AutoGen fails here too, when it announces the auto reply.
            raise InvalidArgumentError(
                f"human_input_mode must be a str ('ALWAYS', 'TERMINATE' or 'NEVER'); agent {self.name!r} has "
                f"{self.human_input_mode!r}. Pass one of those when building the agent."
            )
        emit(UsingAutoReplyEvent, human_input_mode=self.human_input_mode,
             sender=getattr(sender, "name", "No sender"), recipient=self.name)
    return False, None


def check_termination_and_human_reply(
    self: "ConversableAgent", messages: Optional[list[dict[str, Any]]] = None, sender: Optional["Agent"] = None,
    config: Optional[Any] = None, iostream: Optional[Any] = None,
) -> Reply:
    """End the chat, take the human's reply, or let the next reply function answer.

    "exit" (or closed input) ends the chat; an empty answer means auto-reply, except on a termination
    message, where it ends the chat. ``iostream``: the stream to ask on and print to (default: the current one).
    """
    if iostream is not None:  # the default stream for this call, so that overrides of get_human_input see it too
        with IOStream.set_default(iostream):
            return check_termination_and_human_reply(self, messages, sender, config)
    message = peek(_conversation(self, messages, sender), -1)
    plan = _plan(self, message, sender)
    reply = self.get_human_input(plan.prompt) if plan.prompt is not None else ""
    return _apply_human_reply(self, plan, reply, message, sender)


async def a_check_termination_and_human_reply(
    self: "ConversableAgent", messages: Optional[list[dict[str, Any]]] = None, sender: Optional["Agent"] = None,
    config: Optional[Any] = None, iostream: Optional[Any] = None,
) -> Reply:
    """(async) See ``check_termination_and_human_reply``; ``iostream`` may be an async stream."""
    if iostream is not None:
        with IOStream.set_default(iostream):
            return await a_check_termination_and_human_reply(self, messages, sender, config)
    message = peek(_conversation(self, messages, sender), -1)
    plan = _plan(self, message, sender)
    reply = await self.a_get_human_input(plan.prompt) if plan.prompt is not None else ""
    return _apply_human_reply(self, plan, reply, message, sender)
