"""Buttons for the person picking speakers in a notebook (needs ``ipywidgets``).

:class:`SpeakerButtons` follows a run (``agent.run(...)`` or ``run_iter``) on a thread of its own and shows
its printed events as they come. When the group chat asks who speaks next, it reads the decision carried by
the input request (``speaker_selection``: the candidates, the exclusions, the suggestion) and shows one button
per candidate, the suggestion highlighted, with "Auto" and "End the chat" beside them; a click answers the
request with the candidate's name. Any other input request gets a text box.

The chat must run on its own thread (a run response does): while a cell is running, the notebook delivers
no clicks, so a blocking ``initiate_chat`` could never hear one.

This module sits in ``io``: it reads events and plain data only, and imports ``ipywidgets`` when a panel is
made, so the package does not need it.
"""

from __future__ import annotations

import html
import io
import threading
from collections.abc import Iterable
from functools import partial
from typing import Any, Optional

from ..events.run_events import InputRequestEvent
from .chat_response import AsyncRunResponse
from .run_iter import AsyncRunIterResponse

__all__ = ["SpeakerButtons"]

_INSTALL = "SpeakerButtons needs ipywidgets: pip install ipywidgets (or pip install 'autogen-classic[notebook]')."


def _ipywidgets() -> Any:
    try:
        import ipywidgets
    except ImportError as error:  # the fix, not only the missing name
        raise ImportError(_INSTALL) from error
    return ipywidgets


def _printed(event: Any) -> str:
    """What the console would print for ``event``."""
    buffer = io.StringIO()
    try:
        event.print(f=partial(print, file=buffer))
    except Exception as error:  # noqa: BLE001 - an event that cannot print must not stop the panel
        return f"[{type(event).__name__} could not be printed: {error}]\n"
    return buffer.getvalue()


def question_html(choice: dict[str, Any]) -> str:
    """The decision of a manual selection as a short HTML paragraph: the suggestion and who may not speak."""
    lines = ["<b>Who speaks next?</b>"]
    suggestion = choice.get("suggestion")
    if suggestion:
        lines.append(f"Suggested: <b>{html.escape(suggestion['name'])}</b>, because {html.escape(suggestion['reason'])}.")
    for excluded in choice.get("excluded") or []:
        lines.append(f"Not allowed: {html.escape(excluded['name'])} ({html.escape(excluded['why'])}).")
    return "<br>".join(lines)


class SpeakerButtons:
    """Follow a run in a notebook; pick each next speaker with a button.

    Display it (the last expression of a cell, or ``display(panel)``). Each click answers the waiting input
    request. From code, ``panel.buttons[name].click()`` does what a click does, and :meth:`choose` answers
    with any text the prompt accepts (a number, a name, ``""`` for auto selection, ``"x"`` to end the chat).

    Args:
        response: a run response (``agent.run(...)``, ``agent.run_iter(...)``): anything with ``events``.
            Not an ``a_run`` response (TypeError): its chat runs on the notebook's event loop.
        show_chat: whether the printed events are shown above the buttons (always kept in ``printed``).

    Attributes:
        buttons: the buttons of the question waiting now, by candidate name (empty when none waits).
        questions: every input request's ``speaker_selection`` seen (None for a request that is not one).
        answers: every answer given, in order.
        printed: the text the console would have printed, in order.
        error: the exception that ended the run, if one did.
    """

    def __init__(self, response: Any, *, show_chat: bool = True) -> None:
        if isinstance(response, (AsyncRunResponse, AsyncRunIterResponse)):
            raise TypeError(
                "SpeakerButtons follows the response of run() or run_iter(), whose chat runs on a thread; got the "
                "response of a_run()/a_run_iter(), whose chat runs on the notebook's event loop. Use run() here."
            )
        widgets = _ipywidgets()
        self._widgets = widgets
        self.response = response
        self.buttons: dict[str, Any] = {}
        self.questions: list[Optional[dict[str, Any]]] = []
        self.answers: list[str] = []
        self.printed: list[str] = []
        self.error: Optional[BaseException] = None
        self.chat = widgets.Output(layout={"max_height": "24em", "overflow": "auto", "border": "1px solid #ddd"})
        self.chat.layout.display = None if show_chat else "none"
        self.status = widgets.HTML("The chat is starting.")
        self.choices = widgets.HBox(layout={"flex_flow": "row wrap"})
        self.box = widgets.VBox([self.chat, self.status, self.choices])
        self._waiting: Any = None  # the content of the input request waiting for its answer
        self._finished = False
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._follow, name="autogen-classic-speaker-buttons", daemon=True)
        self._thread.start()

    # -- what a person does

    def choose(self, answer: str) -> None:
        """Answer the waiting input request with ``answer`` (a click on a button calls this with its name).

        Raises:
            RuntimeError: no input request is waiting (the chat is between questions, or over).
        """
        with self._changed:
            waiting, self._waiting = self._waiting, None
            if waiting is None:
                raise RuntimeError("No question is waiting for an answer: call wait_for_question() first.")
            self.answers.append(answer)
            self.buttons = {}
            self.choices.children = ()
            self.status.value = f"Answered: {html.escape(answer) if answer else '(auto selection)'}"
        waiting.respond(answer)

    def wait_for_question(self, timeout: Optional[float] = 60.0) -> Optional[dict[str, Any]]:
        """Block until an input request waits; return its ``speaker_selection`` (``{}`` for a request that is
        not a speaker selection), or None when the chat is over.

        Raises:
            TimeoutError: nothing was asked and the chat went on for ``timeout`` seconds.
        """
        with self._changed:
            if not self._changed.wait_for(lambda: self._waiting is not None or self._finished, timeout):
                raise TimeoutError(f"No question came within {timeout} s and the chat is still running.")
            if self._waiting is None:
                return None
            return self._waiting.speaker_selection or {}

    def wait(self, timeout: Optional[float] = 60.0) -> Any:
        """Block until the chat is over; return the response (its ``summary``, ``messages``... are set).

        Raises:
            TimeoutError: the chat is still running after ``timeout`` seconds (a question may be waiting).
            Exception: the error that ended the run.
        """
        self._thread.join(timeout)
        if self._thread.is_alive():
            raise TimeoutError(f"The chat is still running after {timeout} s (is a question waiting for a click?).")
        if self.error is not None:
            raise self.error
        return self.response

    @property
    def finished(self) -> bool:
        """Whether the chat is over."""
        return self._finished

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.box._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        state = "over" if self._finished else ("waiting for an answer" if self._waiting is not None else "running")
        return f"SpeakerButtons({state}, {len(self.answers)} answers)"

    # -- the thread that follows the run

    def _follow(self) -> None:
        try:
            events: Iterable[Any] = self.response.events
            for event in events:
                if isinstance(event, InputRequestEvent):
                    self._ask(event.content)
                else:
                    self._show(_printed(event))
        except BaseException as error:  # noqa: BLE001 - kept for wait() to raise in the notebook's thread
            self.error = error
            self._show(f"The run failed: {type(error).__name__}: {error}\n")
        finally:
            with self._changed:
                self._finished = True
                self.choices.children = ()
                self.status.value = "The chat is over." if self.error is None else "The chat failed."
                self._changed.notify_all()

    def _show(self, text: str) -> None:
        if text:
            self.printed.append(text)
            self.chat.append_stdout(text)

    def _ask(self, request: Any) -> None:
        choice = getattr(request, "speaker_selection", None)
        with self._changed:
            self.questions.append(choice)
            self._waiting = request
            if choice:
                self.status.value = question_html(choice)
                self.buttons = {c["name"]: self._candidate_button(c, choice) for c in choice.get("candidates", [])}
                extra = [self._button("Auto", "", "Let automatic selection choose.", "info")]
                if "x" in (choice.get("commands") or {}):
                    extra.append(self._button("End the chat", "x", "End the chat here; the trace is kept.", "danger"))
                self.choices.children = (*self.buttons.values(), *extra)
            else:
                self.status.value = html.escape(request.prompt)
                self.choices.children = self._text_box(request.prompt)
            self._changed.notify_all()

    def _button(self, label: str, answer: str, tooltip: str, style: str = "") -> Any:
        button = self._widgets.Button(description=label, tooltip=tooltip, button_style=style)
        button.on_click(lambda _button: self.choose(answer))
        return button

    def _candidate_button(self, candidate: dict[str, Any], choice: dict[str, Any]) -> Any:
        suggested = (choice.get("suggestion") or {}).get("name") == candidate["name"]
        tooltip = candidate.get("description") or candidate["name"]
        return self._button(candidate["name"], candidate["name"], tooltip, "success" if suggested else "")

    def _text_box(self, prompt: str) -> tuple[Any, ...]:
        text = self._widgets.Text(placeholder=prompt[:80])
        send = self._widgets.Button(description="Send")
        send.on_click(lambda _button: self.choose(text.value))
        return (text, send)
