"""The parked request beside a transcript: ``<transcript_path>.parked``, and parking a run at a request.

When a turn of a group chat with a transcript asks for input and the request is parked (the stream's
``input`` raised ``ParkRequested``), :func:`park_turn` writes the request (atomically: a reader sees the old
file or the new one) with the selection records of the turn not yet in the checkpoint (the speaker chosen
before a human reply was asked), closes the transcript (its lock goes with it, so another process may
resume) and gives the ``RunParked`` to raise out of the chat.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from typing import Any, Optional, Union

from ....io.parked import HUMAN_REPLY, SPEAKER_SELECTION, ParkedRun, ParkRequested, RunParked

__all__ = ["PARKED_SUFFIX", "load_parked_run", "park_turn", "parked_path", "read_parked"]

PARKED_SUFFIX = ".parked"
_KINDS = (HUMAN_REPLY, SPEAKER_SELECTION)
_SELECTION_KEY = "selection"  # the turn's selection records not yet in the checkpoint


def parked_path(transcript_path: Union[str, "os.PathLike[str]"]) -> str:
    """The parked request of a transcript: ``<transcript_path>.parked``."""
    return os.fspath(transcript_path) + PARKED_SUFFIX


def _write(parked: ParkedRun, selection: list[Any]) -> None:
    target = parked_path(parked.transcript_path)
    temporary = target + ".tmp"
    with open(temporary, "w", encoding="utf-8") as file:
        json.dump({**asdict(parked), _SELECTION_KEY: selection}, file, default=str)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, target)


def read_parked(transcript_path: Union[str, "os.PathLike[str]"]) -> Optional[tuple[ParkedRun, list[Any]]]:
    """The request a chat with this transcript is parked at and its turn's selection records; None when the
    chat is not parked.

    Raises:
        ValueError: the ``.parked`` file is not a parked request written by this package.
    """
    path = parked_path(transcript_path)
    if not os.path.exists(path):
        return None
    try:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
        selection = data.pop(_SELECTION_KEY, [])
        parked = ParkedRun(**data)
    except (ValueError, TypeError, AttributeError) as error:
        raise ValueError(f"{path!r} is not a parked request ({error}); delete it to resume without one.") from None
    if parked.kind not in _KINDS or not isinstance(parked.round, int) or not isinstance(selection, list):
        raise ValueError(f"{path!r} is not a parked request (kind {parked.kind!r}); delete it to resume without one.")
    return parked, selection


def load_parked_run(transcript_path: Union[str, "os.PathLike[str]"]) -> Optional[ParkedRun]:
    """The request a chat with this ``transcript_path`` is parked at, or None when it is not parked.

    Raises:
        ValueError: the ``.parked`` file is not a parked request written by this package.
    """
    found = read_parked(transcript_path)
    return None if found is None else found[0]


def park_turn(groupchat: Any, request: ParkRequested) -> RunParked:
    """Park ``groupchat``'s run at ``request``: write it beside the transcript, close the transcript, and return
    the ``RunParked`` to raise out of the chat."""
    transcript = groupchat._transcript
    parked = request.parked_at(len(groupchat.messages), str(transcript.path))
    selection: list[Any] = []
    checkpoint = getattr(transcript, "checkpoint", None)
    if request.kind == HUMAN_REPLY and checkpoint is not None:
        # The speaker was chosen before the human was asked: on resume that choice is not made again.
        selection = checkpoint.unwritten_selection(groupchat.selection_log)
    _write(parked, selection)
    groupchat.close_transcript()
    return RunParked(parked)
