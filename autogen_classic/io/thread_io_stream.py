"""The ``IOStream`` of a chat run for a consumer (classic ``autogen.io.thread_io_stream``).

Everything the chat prints or sends becomes an event on a queue the consumer reads; a request for
human input is an ``InputRequestEvent`` the consumer answers with ``event.content.respond(text)``.
``ThreadIOStream`` serves a chat on a thread of its own (optionally step by step, with a
``StepController``); ``AsyncThreadIOStream`` a chat that is a task of the consumer's event loop.

When the consumer stops reading (``close()``), the chat raises :class:`ChatStreamClosed` at its next
event or input, which ends it.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Generator
from typing import TYPE_CHECKING, Any, Callable, Optional

from ..events.base_event import as_event
from ..events.print_event import PrintEvent
from ..events.run_events import PACKAGE_EVENTS, InputRequestEvent
from .base import AsyncIOStreamProtocol, IOStreamProtocol  # noqa: F401 - importable here, as in AG2 Classic 0.14
from .input_details import parking_path, pending_human_of, pending_speaker_selection
from .parked import ParkRequested, park_request_of

if TYPE_CHECKING:
    from .step_controller import StepController

__all__ = ["AsyncThreadIOStream", "ChatStreamClosed", "InputAnswer", "ThreadIOStream"]


class ChatStreamClosed(BaseException):
    """Raised inside a streamed chat when its consumer stopped reading; it ends the chat.

    A ``BaseException`` (like ``KeyboardInterrupt``), so a reply function's ``except Exception`` does
    not swallow it.
    """


class _Answered:
    """What ``respond`` returns: nothing to wait for, but ``await respond(text)`` works too."""

    def __await__(self) -> Generator[Any, None, None]:
        return iter(())  # type: ignore[return-value]


_ANSWERED = _Answered()


class InputAnswer:
    """``respond`` of an input request: hands the answer to the chat waiting for it, once.

    Args:
        put: hands the answer (or a park request) to the chat.
        prompt: the request's prompt.
        park_request: what :meth:`park` hands over instead of an answer; None when the chat cannot park here.
    """

    def __init__(self, put: Callable[[Any], None], prompt: str, park_request: Optional[ParkRequested] = None) -> None:
        self._put = put
        self._prompt = prompt
        self._park_request = park_request
        self._lock = threading.Lock()
        self._answer: Optional[str] = None

    def __call__(self, response: str) -> _Answered:
        """Answer the request with ``response``; returns an awaitable, so ``await respond(text)`` works as well.

        Raises:
            RuntimeError: the request was answered already.
        """
        with self._lock:
            if self._answer is not None:
                raise RuntimeError(
                    f"This input request (prompt {self._prompt!r}) was already answered with {self._answer!r}; "
                    f"got a second answer {response!r}. Answer each InputRequestEvent once: the chat asks again "
                    "with a new event when it needs more input."
                )
            self._answer = str(response)
        self._put(response)
        return _ANSWERED

    @property
    def can_park(self) -> bool:
        """Whether :meth:`park` may be called: the chat asks from a group chat that keeps a transcript."""
        return self._park_request is not None

    def park(self) -> _Answered:
        """Park the request instead of answering it: the chat writes it beside its transcript and stops; the run's
        events then end, and ``response.parked`` tells what it waits for. Resume later, in any process, with the
        person's answer (``resume_parked_group_chat``, ``run_parked_group_chat`` ...).

        Raises:
            RuntimeError: the request was answered (or parked) already, or its chat cannot park (only a group
                chat with a ``transcript_path`` parks: its state is kept there); the request stays open.
        """
        if self._park_request is None:
            raise RuntimeError(
                f"This input request (prompt {self._prompt!r}) cannot be parked: only a group chat with a "
                "transcript_path parks, at a human reply or a manual speaker selection of its rounds (its state is "
                "kept beside the transcript). Answer it with respond(text), or build the GroupChat with "
                "transcript_path='chat.jsonl'."
            )
        with self._lock:
            if self._answer is not None:
                raise RuntimeError(f"This input request (prompt {self._prompt!r}) was already answered with "
                                   f"{self._answer!r}: it cannot be parked now.")
            self._answer = "<parked>"
        self._put(self._park_request)
        return _ANSWERED


class _RunStream:
    """What both streams share: events through ``as_event``, input requests, closing."""

    # Streams that want the events AG2 Classic 0.14 sends besides the 0.7.3 ones (termination reasons).
    takes_run_events = True

    def __init__(self) -> None:
        self._output_stream: queue.Queue[Any] = queue.Queue()  # answers to input requests
        self._closed = threading.Event()

    def _deliver(self, event: Any) -> None:
        raise NotImplementedError

    def _event(self, message: Any) -> Any:
        """``message`` as the consumer gets it; None for an event of this package's own (not sent)."""
        event = as_event(message)
        return None if isinstance(event, PACKAGE_EVENTS) else event

    # What a printed line and an input request are sent as, and where the request's answer function goes.
    _print_class: Any = PrintEvent
    _request_class: Any = InputRequestEvent
    _answer_field = "respond"

    def _print_event(self, *objects: Any, sep: str, end: str) -> Any:
        return self._print_class(*objects, sep=sep, end=end)

    def _request(self, prompt: str, password: bool) -> Any:
        selection = pending_speaker_selection()
        request = self._request_class(prompt=prompt, password=password, speaker_selection=selection)
        parkable = parking_path() is not None
        park = park_request_of(prompt, password, selection, pending_human_of()) if parkable else None
        setattr(request.content, self._answer_field, InputAnswer(self._output_stream.put, prompt, park))
        return request

    def _check(self) -> None:
        if self._closed.is_set():
            raise ChatStreamClosed("the consumer of this chat's events stopped reading them")

    def send(self, message: Any) -> None:
        """Hand ``message`` (as its event) to the consumer."""
        self._check()
        event = self._event(message)
        if event is not None:
            self._deliver(event)
        self._check()

    def print(self, *objects: Any, sep: str = " ", end: str = "\n", flush: bool = False) -> None:
        """Send what ``print`` would show as a print event."""
        self.send(self._print_event(*objects, sep=sep, end=end))

    def input(self, prompt: str = "", *, password: bool = False) -> str:
        """Send an input request and wait for the consumer's answer (``event.content.respond(text)``)."""
        self._check()
        self.send(self._request(prompt, password))
        while True:  # wake up now and then to notice a closed stream
            try:
                answer = self._output_stream.get(timeout=0.1)
            except queue.Empty:
                self._check()
                continue
            if isinstance(answer, BaseException):
                raise answer
            return str(answer)

    def close(self) -> None:
        """The consumer is gone: the chat raises ``ChatStreamClosed`` at its next event or input."""
        self._closed.set()

    @property
    def closed(self) -> bool:
        """Whether ``close()`` was called."""
        return self._closed.is_set()


class ThreadIOStream(_RunStream):
    """The stream of a chat running on its own thread: events on a thread-safe queue (``input_stream``).

    Args:
        step_controller: makes the chat wait after each event it stops on until the consumer steps;
            None lets it run freely.
    """

    def __init__(self, step_controller: Optional["StepController"] = None) -> None:
        super().__init__()
        self._input_stream: queue.Queue[Any] = queue.Queue()
        self._step_controller = step_controller

    def _deliver(self, event: Any) -> None:
        controller = self._step_controller
        if controller is None:
            self._input_stream.put(event)
            return
        arm = getattr(controller, "arm", None)
        if arm is None:  # a controller of the classic shape: it only has wait_for_step
            self._input_stream.put(event)
            controller.wait_for_step(event)
            return
        block = arm(event)  # reset the step signal before the consumer can see the event
        self._input_stream.put(event)
        if block:
            controller.wait()

    def close(self) -> None:
        """The consumer is gone: the chat stops waiting for steps and ends at its next event or input."""
        super().close()
        if self._step_controller is not None:
            self._step_controller.terminate()

    @property
    def input_stream(self) -> queue.Queue[Any]:
        """The events the chat sent, in order."""
        return self._input_stream


class AsyncThreadIOStream(_RunStream):
    """The stream of a chat that is a task of the consumer's event loop: events on an ``asyncio.Queue``.

    ``input`` is called from the worker thread the agents ask for human input on; it waits there (never
    on the event loop) for the consumer's answer.
    """

    def __init__(self) -> None:
        super().__init__()
        self._input_stream: asyncio.Queue[Any] = asyncio.Queue()
        self._loop: Optional[asyncio.AbstractEventLoop] = None

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """The event loop the consumer reads on (events sent from other threads are handed over to it)."""
        self._loop = loop

    def _deliver(self, event: Any) -> None:
        loop = self._loop
        try:
            running: Optional[asyncio.AbstractEventLoop] = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if loop is None or running is loop:
            self._input_stream.put_nowait(event)
        else:  # from a worker thread (human input) to the consumer's loop
            loop.call_soon_threadsafe(self._input_stream.put_nowait, event)

    @property
    def input_stream(self) -> asyncio.Queue[Any]:
        """The events the chat sent, in order."""
        return self._input_stream
