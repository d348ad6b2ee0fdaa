"""A chat parked at an input request, as data: what the request was, and the two exceptions that carry it.

A person answering an input request may instead *park* it (``event.content.park()`` on a run's
``InputRequestEvent``, or a parking run, ``park_group_chat``): the stream's ``input`` then raises
:class:`ParkRequested`, which unwinds the chat to its rounds; the group chat writes the request beside its
transcript, closes it, and raises :class:`RunParked` with the :class:`ParkedRun` out of the chat. The run's
response then ends quietly and holds the request (``response.parked``).

Plain data here, so that the streams can make the request without knowing the group chat, which fills in
where it stands (its round and transcript).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

__all__ = ["ParkRequested", "ParkedRun", "RunParked", "park_request_of"]

HUMAN_REPLY = "human_reply"
SPEAKER_SELECTION = "speaker_selection"


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


class ParkRequested(BaseException):
    """Raised by a stream's ``input`` when its request is parked instead of answered.

    A ``BaseException`` (like ``KeyboardInterrupt``), so that a reply function's ``except Exception`` does not
    swallow it on its way to the group chat's rounds.

    Args:
        kind: "human_reply" or "speaker_selection".
        agent: the agent asking its human (a human reply), else None.
        prompt: the request's prompt.
        password: whether the input is a secret.
    """

    def __init__(self, kind: str, agent: Optional[str], prompt: str, password: bool = False) -> None:
        super().__init__(f"the {kind} request ({agent or 'speaker'}) was parked")
        self.kind = kind
        self.agent = agent
        self.prompt = prompt
        self.password = password

    def parked_at(self, round: int, transcript_path: str) -> ParkedRun:
        """The request, where the chat stands: ``round`` messages held by ``transcript_path``."""
        return ParkedRun(self.kind, self.prompt, self.agent, round, transcript_path, self.password)


class RunParked(Exception):
    """Raised out of a chat that parked: its request is written beside the transcript (``parked``)."""

    def __init__(self, parked: ParkedRun) -> None:
        super().__init__(f"the chat parked at a {parked.kind} request (round {parked.round})")
        self.parked = parked


def park_request_of(prompt: str, password: bool, speaker_selection: object, human_of: Optional[str]
                    ) -> ParkRequested:
    """The park request of an input request: a manual speaker selection when ``speaker_selection`` data is
    pending, else the human reply of ``human_of``."""
    if speaker_selection is not None:
        return ParkRequested(SPEAKER_SELECTION, None, prompt, password)
    return ParkRequested(HUMAN_REPLY, human_of, prompt, password)
