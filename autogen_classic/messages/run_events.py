"""Events the classic package never had: what this package knows about a run besides its text.

The speaker-selection decision (with its trace record), each model request, the end of a group
chat, and a request for human input. The first two print nothing on the console (they did not
before); they reach streams, websockets and custom ``IOStream`` objects. Each is the ``*Message``
shape of its ``autogen_classic.events.run_events`` event (same fields).
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from pydantic import PrivateAttr, model_serializer
from ..events import run_events as events
from ..events.base_event import content_class
from .base_message import BaseMessage, wrap_message
from .console_text import printer

__all__ = ["GroupChatEndMessage", "InputRequestMessage", "ModelRequestMessage", "SpeakerSelectionMessage"]


# The same fields and lines as their events (their content classes), printed with builtin ``print`` by default.
@wrap_message(event=events.SpeakerSelectionEvent)
class SpeakerSelectionMessage(content_class(events.SpeakerSelectionEvent), BaseMessage):  # type: ignore[misc]
    """One speaker-selection decision: the selection trace record of the round.

    ``record`` has the keys of ``SelectionRecord.to_dict()``: round, method, last_speaker, steps
    (each step's name and candidates), attempts (the model's answers), conditions (the transition
    conditions asked), chosen, reason, usage.
    """

    def print(self, f: Optional[Callable[..., Any]] = None) -> None:
        """Prints nothing: the console shows the chosen speaker as "Next speaker"."""


@wrap_message(event=events.ModelRequestEvent)
class ModelRequestMessage(content_class(events.ModelRequestEvent), BaseMessage):  # type: ignore[misc]
    """One model request: endpoint, model, tokens, latency, cost and whether the cache answered."""

    def print(self, f: Optional[Callable[..., Any]] = None) -> None:
        """Prints nothing: the console shows the answer when it is received."""


@wrap_message(event=events.GroupChatEndEvent)
class GroupChatEndMessage(content_class(events.GroupChatEndEvent), BaseMessage):  # type: ignore[misc]
    """A group chat ended; ``end_reason`` says why (the manager's ``end_reason``).

    ``termination`` is the termination condition that fired, as data (``StopMessage.to_dict()``: content,
    source, details), or None when the chat ended otherwise (``max_round``, no eligible speaker, no reply);
    ``complete`` is True exactly when a condition (or ``is_termination_msg``) ended it.
    """

    def print(self, f: Optional[Callable[..., Any]] = None) -> None:
        content_class(events.GroupChatEndEvent).print(self, printer(f))


def _answerable(fields: dict[str, Any], content: Any) -> dict[str, Any]:
    fields["respond"] = content._respond  # the stream's answer, if a stream asked
    return fields


@wrap_message(event=events.InputRequestEvent, adapt=_answerable)
class InputRequestMessage(BaseMessage):
    """Human input is asked for. In a chat stream, answer it with ``respond(text)``.

    ``speaker_selection``: for a manual speaker selection, the choice as data (see ``InputRequestEvent``).
    """

    prompt: str
    password: bool = False
    speaker_selection: Optional[dict[str, Any]] = None
    _respond: Optional[Callable[[str], None]] = PrivateAttr(default=None)

    @model_serializer(mode="wrap")
    def _classic_form(self, handler: Any) -> Any:
        return events.without_absent_selection(handler(self))

    def respond(self, text: str) -> None:
        """Answer the request (only for a request yielded by a chat stream)."""
        respond = self._respond
        if respond is None:
            raise RuntimeError("This input request does not come from a chat stream: nothing waits for an answer.")
        respond(text)

    def print(self, f: Optional[Callable[..., Any]] = None) -> None:
        """Prints nothing: the console's own ``input`` shows the prompt."""
