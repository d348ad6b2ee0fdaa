"""The events of a run: input requests and their answers, termination, errors, completion; and the events of
this package's own (speaker selection with its trace, model requests, the end of a group chat).

``autogen.events.agent_events`` re-exports the classic ones.
"""

from __future__ import annotations

from typing import Any, Callable, Optional
from uuid import UUID

from pydantic import field_serializer, model_serializer
from termcolor import colored

from .base_event import BaseEvent, resolve_print_callable, wrap_event
from .console_text import named

__all__ = [
    "AsyncInputRequestEvent", "ErrorEvent", "GroupChatEndEvent", "InputRequestEvent", "InputResponseEvent",
    "ModelRequestEvent", "PACKAGE_EVENTS", "RunCompletionEvent", "SpeakerSelectionEvent", "TerminationEvent",
]

_JSON_PLAIN = (str, int, float, bool, type(None), dict, list)


def without_absent_selection(data: Any) -> Any:
    """An input request's serialised content without ``speaker_selection`` when it is None: the classic form."""
    if isinstance(data, dict) and data.get("speaker_selection", 0) is None:
        data.pop("speaker_selection")
    return data


@wrap_event
class InputRequestEvent(BaseEvent):
    """Human input is asked for. Answer it with ``event.content.respond(text)`` (once).

    ``respond`` is set by the stream that asks (a run's stream); it serialises as null.
    ``speaker_selection`` (this package's own, None otherwise): when the person picks the next speaker of a
    group chat, the choice as data: ``candidates`` (number, name, description), ``excluded`` (name, the step
    ``by`` and ``why``), ``suggestion`` (name, rule, reason, or None), ``last_speaker``, ``prompt``, ``view``
    and the ``commands``; answer with a candidate's name or number.
    """

    prompt: str
    password: bool = False
    respond: Optional[Callable[[str], Any]] = None
    type: str = "input_request"
    speaker_selection: Optional[dict[str, Any]] = None

    def park(self) -> Any:
        """Park the request instead of answering it (a group chat with a ``transcript_path``): the chat writes the
        request beside its transcript and stops; the run's events end and ``response.parked`` says what it waits
        for. Resume it later, in any process, with the person's answer.

        Raises:
            RuntimeError: the request cannot be parked (its chat keeps no transcript, or it was answered); it
                stays open, to be answered with ``respond``.
        """
        park = getattr(self.respond, "park", None)
        if park is None:
            raise RuntimeError(
                f"This input request (prompt {self.prompt!r}) cannot be parked: it did not come from a run's "
                "stream (run, run_group_chat ...). Answer it with respond(text)."
            )
        return park()

    @field_serializer("respond")
    def _no_function(self, respond: Any) -> None:
        # A function has no JSON form; the request reads the same before and after it can be answered.
        return None

    @model_serializer(mode="wrap")
    def _classic_form(self, handler: Any) -> Any:
        return without_absent_selection(handler(self))


@wrap_event
class AsyncInputRequestEvent(BaseEvent):
    """Human input is asked for, to be answered asynchronously."""

    prompt: str
    password: bool = False

    async def a_respond(self, response: Any) -> None:
        """Answer the request (a hook for streams that answer asynchronously; does nothing here)."""


@wrap_event
class InputResponseEvent(BaseEvent):
    """An answer to an input request."""

    value: str


@wrap_event
class ErrorEvent(BaseEvent):
    """The run failed with ``error``; a run's ``events`` raise it after yielding this event."""

    error: Any

    @field_serializer("error")
    def _error_text(self, error: Any) -> Any:
        # An exception has no JSON form of its own: its repr stands for it.
        return error if isinstance(error, _JSON_PLAIN) else repr(error)


@wrap_event
class RunCompletionEvent(BaseEvent):
    """The run finished: its summary, the chat history, the cost, the last speaker and the context variables."""

    summary: str
    history: list[dict[str, Any]]
    cost: dict[str, Any]
    last_speaker: Optional[str]
    context_variables: Any = None


@wrap_event
class TerminationEvent(BaseEvent):
    """A termination condition of the run was met; ``termination_reason`` says which."""

    termination_reason: str
    sender: str
    recipient: Optional[str] = None

    def __init__(self, *, uuid: Optional[UUID] = None, sender: Any, recipient: Any = None, termination_reason: str,
                 **fields: Any):
        super().__init__(uuid=uuid, termination_reason=termination_reason, sender=named(sender),
                         recipient=named(recipient) if recipient else None, **fields)

    def print(self, f: Optional[Callable[..., Any]] = None) -> None:
        """Print ``TERMINATING RUN (uuid): reason`` in red."""
        resolve_print_callable(f)(
            colored(f"\n>>>>>>>> TERMINATING RUN ({self.uuid}): {self.termination_reason}", "red"), flush=True
        )


# ------------------------------------------------------------------ this package's own
@wrap_event
class SpeakerSelectionEvent(BaseEvent):
    """One speaker-selection decision: the selection trace record of the round.

    ``record`` has the keys of ``SelectionRecord.to_dict()``: round, method, last_speaker, steps
    (each step's name and candidates), attempts (the model's answers), conditions (the transition
    conditions asked), chosen, reason, usage. Prints nothing: the console shows "Next speaker".
    """

    manager_name: str
    record: dict[str, Any]


@wrap_event
class ModelRequestEvent(BaseEvent):
    """One model request: endpoint, model, tokens, latency, cost and whether the cache answered. Prints nothing."""

    source_name: Optional[str] = None
    base_url: Optional[str] = None
    model: Optional[str] = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    cost: float = 0.0
    latency: float = 0.0
    is_cached: bool = False


@wrap_event
class GroupChatEndEvent(BaseEvent):
    """A group chat ended; ``end_reason`` says why (the manager's ``end_reason``).

    ``termination`` is the termination condition that fired, as data (``StopMessage.to_dict()``: content,
    source, details), or None when the chat ended otherwise (``max_round``, no eligible speaker, no reply);
    ``complete`` is True exactly when a condition (or ``is_termination_msg``) ended it.
    """

    manager_name: str
    end_reason: str
    message_count: int = 0
    termination: Optional[dict[str, Any]] = None
    complete: bool = False
    verbose: bool = False

    def print(self, f: Optional[Callable[..., Any]] = None) -> None:
        """Print the reason in red when ``verbose`` (a chat that ended for lack of a speaker)."""
        if self.verbose:
            resolve_print_callable(f)(colored(f"\n>>>>>>>> GROUP CHAT ENDED: {self.end_reason}", "red"), flush=True)




PACKAGE_EVENTS = (SpeakerSelectionEvent, ModelRequestEvent, GroupChatEndEvent)
"""This package's own events: they reach custom ``IOStream`` objects, websockets and chat streams, not the
responses of ``run`` (which carry the events AG2 Classic 0.14 sends, no others)."""
