"""Parking a group chat at an input request, so that no thread waits while a person thinks.

``park_group_chat(sender, manager, message)`` runs a chat (its ``GroupChat`` has a ``transcript_path``) until
it ends or asks for input: a human's reply or a manual speaker selection. Asked, it stops there: the request
is written next to the transcript (``<transcript_path>.parked``), the transcript is closed, and a
:class:`ParkedRun` is returned; the process may exit. Later, in any process, rebuild the agents, the group
chat (same ``transcript_path``) and the manager as for the first run and call
``resume_parked_group_chat(manager, answer)``: the chat is resumed from its transcript and checkpoint
(``resume_group_chat``), ``answer`` is the answer to the request, and the chat runs on to its end or to the
next request (parked in turn).

On resume the request is asked again and answered: a human reply is asked of the agent whose turn it was
(the speaker selection of that round is not run again); a speaker selection is asked again from the restored
state. An answer for another request than the one parked is refused with a ``ValueError`` before it is used.
"""

from __future__ import annotations

import os
from typing import Any, Awaitable, Callable, Optional, TypeVar, Union

from ...io.base import IOStream
from ...io.input_details import pending_human_of, pending_speaker_selection
from ...io.parked import ParkedRun, RunParked, park_request_of
from ...io.chat_response import AsyncRunResponseProtocol, RunResponseProtocol
from ..chat import ChatResult
from ..conversable.runs.launcher import RunLauncher
from .durable.parked_file import PARKED_SUFFIX, load_parked_run, parked_path, read_parked
from .durable_resume import resume_result, resume_run_steps
from .rounds import ChatRun
from .steps import a_run_steps, run_steps
from .transcript import load_transcript

__all__ = [
    "ParkedRun",
    "RunParked",
    "a_resume_parked_run",
    "a_run_parked_group_chat",
    "load_parked_run",
    "park_group_chat",
    "parked_request",
    "resume_parked_group_chat",
    "resume_parked_run",
    "run_parked_group_chat",
    "run_parking",
]

_T = TypeVar("_T")


class _ParkingStream:
    """The stream a parked-or-resumed chat runs with: output goes to the stream in use before; ``input`` takes
    the queued answer; a further request is parked, or, with ``ask_further``, asked of the stream before (whose
    consumer may answer or park it)."""

    def __init__(self, answer: Optional[str], expected: Optional[ParkedRun], ask_further: bool = False) -> None:
        self._output = IOStream.get_default()
        self._answers = [] if answer is None else [answer]
        self._expected = expected
        self._ask_further = ask_further
        self.takes_run_events = bool(getattr(self._output, "takes_run_events", False))

    def print(self, *objects: Any, sep: str = " ", end: str = "\n", flush: bool = False) -> None:
        self._output.print(*objects, sep=sep, end=end, flush=flush)

    def send(self, message: Any) -> None:
        send = getattr(self._output, "send", None)
        if send is not None:
            send(message)
        else:
            message.print(self._output.print)

    def input(self, prompt: str = "", *, password: bool = False) -> str:
        asking = park_request_of(prompt, password, pending_speaker_selection(), pending_human_of())
        if not self._answers:
            if self._ask_further:
                return self._output.input(prompt, password=password)
            raise asking
        expected, self._expected = self._expected, None
        if expected is not None and (asking.kind, asking.agent) != (expected.kind, expected.agent):
            raise ValueError(
                f"resume_parked_group_chat: the resumed chat asks for a {asking.kind} ({asking.agent or 'speaker'}), "
                f"but the answer given is for the parked {expected.kind} ({expected.agent or 'speaker'}): the setup "
                "or the speaker selection differs from the parked run's; rebuild it as for the first run."
            )
        return self._answers.pop(0)


def _transcript_path(manager: Any, function: str) -> str:
    path = getattr(getattr(manager, "groupchat", None), "transcript_path", None)
    if path is None:
        raise ValueError(
            f"{function} needs a group chat with a transcript: build the GroupChat with transcript_path='chat.jsonl' "
            "(the messages and the parked request are kept there)."
        )
    return os.fspath(path)


def run_parking(manager: Any, run: Callable[[], _T], answer: Optional[str] = None,
                parked: Optional[ParkedRun] = None, ask_further: bool = False) -> Union[_T, ParkedRun]:
    """``run()`` with input requests parked: answered with ``answer`` (for the request ``parked``) first, any
    other request written next to the transcript of ``manager``'s group chat and returned as a :class:`ParkedRun`
    (the transcript closed). With ``ask_further`` other requests are asked of the current stream instead, whose
    consumer may answer or park them (``RunParked`` is then raised, for the run's response)."""
    _transcript_path(manager, "park_group_chat" if parked is None else "resume_parked_group_chat")
    with IOStream.set_default(_ParkingStream(answer, parked, ask_further)):
        try:
            return run()
        except RunParked as stopped:  # the rounds wrote the request and closed the transcript
            if ask_further:
                raise
            return stopped.parked


async def a_run_parking(manager: Any, run: Callable[[], Awaitable[_T]], answer: str, parked: ParkedRun,
                        ask_further: bool = False) -> Union[_T, ParkedRun]:
    """(async) :func:`run_parking` of a coroutine function."""
    _transcript_path(manager, "resume_parked_group_chat")
    with IOStream.set_default(_ParkingStream(answer, parked, ask_further)):
        try:
            return await run()
        except RunParked as stopped:
            if ask_further:
                raise
            return stopped.parked


def park_group_chat(sender: Any, manager: Any, message: Union[str, dict[str, Any]], **kwargs: Any
                    ) -> Union[ChatResult, ParkedRun]:
    """Run ``sender.initiate_chat(manager, message=message, **kwargs)`` until it ends or asks for input.

    Args:
        sender: the agent opening the chat (e.g. the user proxy).
        manager: the ``GroupChatManager``; its ``GroupChat`` must have a ``transcript_path``.
        message: the opening message.
        kwargs: other ``initiate_chat`` arguments (``summary_method``, ``silent`` ...).

    Returns:
        The ``ChatResult`` when the chat ended without asking, else the :class:`ParkedRun` it waits on (its
        transcript is then closed; resume it with :func:`resume_parked_group_chat`).
    """
    return run_parking(manager, lambda: sender.initiate_chat(manager, message=message, **kwargs))


def parked_request(manager: Any, answer: Any) -> tuple[ParkedRun, list[Any]]:
    """The request the chat of ``manager`` is parked at (and the selection records of its turn), checked against
    its transcript and ``answer``."""
    path = _transcript_path(manager, "resume_parked_group_chat")
    if not isinstance(answer, str):
        raise TypeError(f"resume_parked_group_chat: answer must be a str (what the person typed); got {answer!r}.")
    found = read_parked(path)
    if found is None:
        raise ValueError(f"resume_parked_group_chat: the chat of {path!r} is not parked (no {path + PARKED_SUFFIX!r}); "
                         "resume it with resume_group_chat.")
    parked = found[0]
    held = len(load_transcript(path))
    if held != parked.round:
        raise ValueError(f"resume_parked_group_chat: {path!r} holds {held} messages but the chat parked at "
                         f"{parked.round}: it went on without this answer. Delete {path + PARKED_SUFFIX!r} to resume "
                         "it as it is.")
    return found


def resumed_parked_steps(manager: Any, parked: tuple[ParkedRun, list[Any]], silent: bool) -> Any:
    """The steps of a parked chat resumed: a human reply is asked of the agent whose turn it was (its selection
    kept, not made again); a speaker selection is asked again."""
    request, selection = parked
    if request.kind == "human_reply":
        return resume_run_steps(manager, silent, manager.groupchat.agent_by_name(request.agent), selection)
    return resume_run_steps(manager, silent)


def _ended(parked: tuple[ParkedRun, list[Any]], outcome: Any) -> Any:
    if not isinstance(outcome, ParkedRun):  # answered and ended: the request is no longer waited on
        os.remove(parked_path(parked[0].transcript_path))
    return outcome


def resume_parked_run(manager: Any, answer: str, parked: tuple[ParkedRun, list[Any]], silent: bool = True,
                      ask_further: bool = False) -> Union[ChatRun, ParkedRun]:
    """Resume the parked chat of ``manager`` with ``answer``: its run when it ended, else the next request (see
    :func:`run_parking` for ``ask_further``)."""
    outcome = run_parking(manager, lambda: run_steps(resumed_parked_steps(manager, parked, silent)), answer,
                          parked[0], ask_further)
    return _ended(parked, outcome)


async def a_resume_parked_run(manager: Any, answer: str, parked: tuple[ParkedRun, list[Any]], silent: bool = True,
                              ask_further: bool = False) -> Union[ChatRun, ParkedRun]:
    """(async) :func:`resume_parked_run` on the async agent API."""
    outcome = await a_run_parking(manager, lambda: a_run_steps(resumed_parked_steps(manager, parked, silent)),
                                  answer, parked[0], ask_further)
    return _ended(parked, outcome)


def resume_parked_group_chat(manager: Any, answer: str, *, initiator: Any = None, summary_method: Any = "last_msg",
                             silent: bool = True) -> Union[ChatResult, ParkedRun]:
    """Resume a parked chat with ``answer`` to its request; run it to its end or to its next request.

    Args:
        manager: the ``GroupChatManager`` of the group chat rebuilt as for the first run (same agents and
            ``transcript_path``; in a new process or the same one).
        answer: what the person answers: the human's reply (as typed: "" for the auto reply, "exit" to end) or
            the speaker chosen at the manual selection prompt.
        initiator: as for ``resume_group_chat``.
        summary_method: as for ``resume_group_chat``.
        silent: as for ``resume_group_chat``.

    Returns:
        The ``ChatResult`` when the chat ended, else the next :class:`ParkedRun`.

    Raises:
        ValueError: the chat is not parked, its transcript moved on since it parked, or the resumed chat asks for
            another request than the one parked.
        TypeError: ``answer`` is not a str.
    """
    outcome = resume_parked_run(manager, answer, parked_request(manager, answer), silent)
    if isinstance(outcome, ParkedRun):
        return outcome
    return resume_result(manager, outcome, initiator, summary_method, None)


def _last_speaker_name(manager: Any) -> Optional[str]:
    return getattr(getattr(manager, "last_speaker", None), "name", None)


def parked_run_launcher(manager: Any, answer: Any, initiator: Any = None, summary_method: Any = "last_msg", *,
                        outcome: Callable[[ChatResult], Any] = lambda result: result,
                        report: Optional[Callable[[Any], tuple[ChatResult, Optional[str], Any]]] = None,
                        agents: Optional[list[Any]] = None, name: str = "autogen-classic-parked-run") -> RunLauncher:
    """The launcher of a parked chat resumed for a consumer of its events (checked before it starts).

    Args:
        manager: as for :func:`resume_parked_group_chat`.
        answer: as for :func:`resume_parked_group_chat`.
        initiator: as for :func:`resume_parked_group_chat`.
        summary_method: as for :func:`resume_parked_group_chat`.
        outcome: what the run returns, made from the chat's ``ChatResult`` (a pattern's chat: its triple).
        report: reads an outcome for the launcher (default: the result, the manager's last speaker, no context).
        agents: the run's agents (default: the manager and the group chat's agents).
        name: the run's thread name.
    """
    parked = parked_request(manager, answer)

    def chat() -> Any:
        run = resume_parked_run(manager, answer, parked, ask_further=True)
        return outcome(resume_result(manager, run, initiator, summary_method, None))  # type: ignore[arg-type]

    async def a_chat() -> Any:
        run = await a_resume_parked_run(manager, answer, parked, ask_further=True)
        return outcome(resume_result(manager, run, initiator, summary_method, None))  # type: ignore[arg-type]

    def classic_report(result: ChatResult) -> tuple[ChatResult, Optional[str], Any]:
        return result, _last_speaker_name(manager), None

    return RunLauncher(chat, a_chat, report or classic_report, agents or [manager, *manager.groupchat.agents], name)


def run_parked_group_chat(manager: Any, answer: str, *, initiator: Any = None, summary_method: Any = "last_msg"
                          ) -> RunResponseProtocol:
    """Resume a parked chat with ``answer`` on a thread of its own and return its response at once, as ``run``
    does: its events follow (a further input request is an ``InputRequestEvent``, to answer with
    ``event.content.respond(text)`` or park again with ``event.content.park()``), then its results, or
    ``response.parked`` when it parked again.

    Args:
        manager: as for :func:`resume_parked_group_chat`.
        answer: as for :func:`resume_parked_group_chat`.
        initiator: as for :func:`resume_parked_group_chat`.
        summary_method: as for :func:`resume_parked_group_chat`.

    Raises:
        ValueError / TypeError: as :func:`resume_parked_group_chat`, at once (before the run starts).
    """
    return parked_run_launcher(manager, answer, initiator, summary_method).run(at_once=True)


def a_run_parked_group_chat(manager: Any, answer: str, *, initiator: Any = None, summary_method: Any = "last_msg"
                            ) -> AsyncRunResponseProtocol:
    """(async) :func:`run_parked_group_chat` as a task of the running event loop: ``async for event in
    response.events``; arguments as for :func:`run_parked_group_chat`."""
    return parked_run_launcher(manager, answer, initiator, summary_method).a_run(at_once=True)
