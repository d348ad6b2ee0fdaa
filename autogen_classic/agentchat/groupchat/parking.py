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

import json
import os
from dataclasses import asdict, dataclass
from typing import Any, Callable, Optional, TypeVar, Union

from ...io.base import IOStream
from ...io.input_details import pending_human_of, pending_speaker_selection
from ..chat import ChatResult
from .durable_resume import resume_result, resume_run_steps
from .rounds import ChatRun
from .steps import run_steps
from .transcript import load_transcript

__all__ = [
    "ParkedRun",
    "RunParked",
    "load_parked_run",
    "park_group_chat",
    "parked_request",
    "resume_parked_group_chat",
    "resume_parked_run",
    "run_parking",
]

_T = TypeVar("_T")

PARKED_SUFFIX = ".parked"
_KINDS = ("human_reply", "speaker_selection")


@dataclass(frozen=True)
class ParkedRun:
    """A chat parked at an input request.

    Args:
        kind: "human_reply" (an agent asks its human for a reply) or "speaker_selection" (a manual selection).
        prompt: the prompt the person would have been shown.
        agent: the agent whose turn it is ("human_reply"); None for a speaker selection.
        round: how many messages the transcript held when the chat parked.
        transcript_path: the chat's transcript (the request is in ``transcript_path + ".parked"``).
        password: whether the input is a secret (not echoed).
    """

    kind: str
    prompt: str
    agent: Optional[str]
    round: int
    transcript_path: str
    password: bool = False


class RunParked(Exception):
    """Raised by the parking stream's ``input``: carries the request out of the chat (caught by this module)."""

    def __init__(self, parked: ParkedRun) -> None:
        super().__init__(f"the chat parked at a {parked.kind} request (round {parked.round})")
        self.parked = parked


class _ParkingStream:
    """The stream a parked-or-resumed chat runs with: output goes to the stream in use before; ``input`` takes
    the queued answer, and parks the chat at any further request."""

    def __init__(self, groupchat: Any, path: str, answer: Optional[str], expected: Optional[ParkedRun]) -> None:
        self._output = IOStream.get_default()
        self._groupchat = groupchat
        self._path = path
        self._answers = [] if answer is None else [answer]
        self._expected = expected
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
        asking = self._request(prompt, password)
        if not self._answers:
            raise RunParked(asking)
        expected, self._expected = self._expected, None
        if expected is not None and (asking.kind, asking.agent) != (expected.kind, expected.agent):
            raise ValueError(
                f"resume_parked_group_chat: the resumed chat asks for a {asking.kind} ({asking.agent or 'speaker'}), "
                f"but the answer given is for the parked {expected.kind} ({expected.agent or 'speaker'}): the setup "
                "or the speaker selection differs from the parked run's; rebuild it as for the first run."
            )
        return self._answers.pop(0)

    def _request(self, prompt: str, password: bool) -> ParkedRun:
        groupchat = self._groupchat
        if pending_speaker_selection() is not None:
            kind, agent = "speaker_selection", None
        else:
            kind, agent = "human_reply", pending_human_of()
        return ParkedRun(kind, prompt, agent, len(groupchat.messages), self._path, password)


def _parked_path(transcript_path: str) -> str:
    return transcript_path + PARKED_SUFFIX


def _transcript_path(manager: Any, function: str) -> str:
    path = getattr(getattr(manager, "groupchat", None), "transcript_path", None)
    if path is None:
        raise ValueError(
            f"{function} needs a group chat with a transcript: build the GroupChat with transcript_path='chat.jsonl' "
            "(the messages and the parked request are kept there)."
        )
    return os.fspath(path)


def _write_parked(parked: ParkedRun) -> None:
    """Write the request atomically: a reader sees the old file or the new one, never a torn one."""
    target = _parked_path(parked.transcript_path)
    temporary = target + ".tmp"
    with open(temporary, "w", encoding="utf-8") as file:
        json.dump(asdict(parked), file)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, target)


def load_parked_run(transcript_path: Union[str, "os.PathLike[str]"]) -> Optional[ParkedRun]:
    """The request a chat with this ``transcript_path`` is parked at, or None when it is not parked.

    Raises:
        ValueError: the ``.parked`` file is not a parked request written by this module.
    """
    path = _parked_path(os.fspath(transcript_path))
    if not os.path.exists(path):
        return None
    try:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
        parked = ParkedRun(**data)
    except (ValueError, TypeError) as error:
        raise ValueError(f"{path!r} is not a parked request ({error}); delete it to resume without one.") from None
    if parked.kind not in _KINDS or not isinstance(parked.round, int):
        raise ValueError(f"{path!r} is not a parked request (kind {parked.kind!r}); delete it to resume without one.")
    return parked


def run_parking(manager: Any, run: Callable[[], _T], answer: Optional[str] = None,
                parked: Optional[ParkedRun] = None) -> Union[_T, ParkedRun]:
    """``run()`` with input requests parked: answered with ``answer`` (for the request ``parked``) first, any
    other request written next to the transcript of ``manager``'s group chat and returned as a :class:`ParkedRun`
    (the transcript closed)."""
    path = _transcript_path(manager, "park_group_chat" if parked is None else "resume_parked_group_chat")
    with IOStream.set_default(_ParkingStream(manager.groupchat, path, answer, parked)):
        try:
            return run()
        except RunParked as again:
            _write_parked(again.parked)
            manager.groupchat.close_transcript()  # its lock goes with it: another process may resume now
            return again.parked


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


def parked_request(manager: Any, answer: Any) -> ParkedRun:
    """The request the chat of ``manager`` is parked at, checked against its transcript and ``answer``."""
    path = _transcript_path(manager, "resume_parked_group_chat")
    if not isinstance(answer, str):
        raise TypeError(f"resume_parked_group_chat: answer must be a str (what the person typed); got {answer!r}.")
    parked = load_parked_run(path)
    if parked is None:
        raise ValueError(f"resume_parked_group_chat: the chat of {path!r} is not parked (no {path + PARKED_SUFFIX!r}); "
                         "resume it with resume_group_chat.")
    held = len(load_transcript(path))
    if held != parked.round:
        raise ValueError(f"resume_parked_group_chat: {path!r} holds {held} messages but the chat parked at "
                         f"{parked.round}: it went on without this answer. Delete {path + PARKED_SUFFIX!r} to resume "
                         "it as it is.")
    return parked


def resume_parked_run(manager: Any, answer: str, parked: ParkedRun, silent: bool = True) -> Union[ChatRun, ParkedRun]:
    """Resume the parked chat of ``manager`` with ``answer``: its run when it ended, else the next request."""
    # A human reply is asked of the agent whose turn it was; a speaker selection is asked again.
    turn = manager.groupchat.agent_by_name(parked.agent) if parked.kind == "human_reply" else None
    outcome = run_parking(manager, lambda: run_steps(resume_run_steps(manager, silent, turn)), answer, parked)
    if not isinstance(outcome, ParkedRun):
        os.remove(_parked_path(parked.transcript_path))
    return outcome


def resume_parked_group_chat(manager: Any, answer: str, *, initiator: Any = None, summary_method: Any = "last_msg",
                             silent: bool = True) -> Union[ChatResult, ParkedRun]:
    """Resume a parked chat with ``answer`` to its request; run it to its end or to its next request.

    Args:
        manager: the ``GroupChatManager`` of the group chat rebuilt as for the first run (same agents and
            ``transcript_path``; in a new process or the same one).
        answer: what the person answers: the human's reply (as typed: "" for the auto reply, "exit" to end) or
            the speaker chosen at the manual selection prompt.
        initiator, summary_method, silent: as for ``resume_group_chat``.

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
