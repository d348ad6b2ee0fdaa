"""``run_forks``: a study of forks of one recorded group chat, one record per fork, comparable across forks.

Each fork (``{"at_round": 3, "speaker": "critic"}``, ...) is a chat of a :func:`run_group_chats` study whose
factory returns a :class:`GroupChatFork` onto a fresh manager from the user's factory: ``run`` is the fork's
index in ``forks`` and ``label`` says what the fork changed, so ``records.to_dataframe()`` puts the forks
side by side. Every fork draws its "random" selections from the same seed: forks differ by their change,
not by their luck.
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections.abc import Callable, Sequence
from typing import Any, Literal

from ..agentchat.groupchat import GroupChat, GroupChatManager
from ..agentchat.groupchat.fork import load_fork_record
from .fork_spec import CHANGES, GroupChatFork, fork_label
from .results import StudyResults
from .study import run_group_chats

__all__ = ["GroupChatFork", "fork_label", "run_forks"]

_FORK_KEYS = ("at_round", *CHANGES)


def _check_forks(forks: Any) -> list[dict[str, Any]]:
    """The forks as a list of dicts, each with an ``at_round`` and only the keys ``fork_group_chat`` takes."""
    if isinstance(forks, (str, bytes, dict)) or not isinstance(forks, Sequence):
        raise TypeError(
            'forks must be a list of dicts such as {"at_round": 3, "speaker": "critic"}; '
            f"got {type(forks).__name__}."
        )
    for index, fork in enumerate(forks):
        if not isinstance(fork, dict):
            raise TypeError(f"forks[{index}] must be a dict such as {{'at_round': 3, 'speaker': 'critic'}}; got "
                            f"{type(fork).__name__}.")
        unknown = sorted(set(fork) - set(_FORK_KEYS))
        if unknown:
            raise ValueError(f"forks[{index}] has the unknown key(s) {unknown}; a fork takes {list(_FORK_KEYS)}.")
        if "at_round" not in fork:
            raise ValueError(f"forks[{index}] has no 'at_round': say how many recorded messages the fork keeps.")
        speaker = fork.get("speaker")
        if speaker is not None and not isinstance(speaker, str):
            # Every fork runs on new agents: an agent object would belong to none of them.
            raise TypeError(f"forks[{index}]['speaker'] must be an agent's name (each fork builds new agents); got "
                            f"{type(speaker).__name__}.")
    return list(forks)


class _ForkFactory:
    """The study's factory: fork ``run`` of the sweep, onto a fresh manager seeded as every other fork."""

    def __init__(self, make_manager: Callable[[], Any], messages: Any, forks: list[dict[str, Any]],
                 seed: int | None) -> None:
        self.make_manager, self.messages, self.forks, self.seed = make_manager, messages, forks, seed

    def __call__(self, run: int) -> GroupChatFork:
        built = self.make_manager()
        if not isinstance(built, (GroupChatManager, GroupChat)):
            raise TypeError(
                f"make_manager must return a GroupChatManager (or a GroupChat); it returned {type(built).__name__}."
            )
        if self.seed is not None:
            groupchat = built.groupchat if isinstance(built, GroupChatManager) else built
            groupchat.random_source = random.Random(self.seed)  # the same draws for every fork
        return GroupChatFork(built, self.messages, **self.forks[run])


def run_forks(
    make_manager: Callable[[], GroupChatManager | GroupChat],
    messages: list[dict[str, Any]] | str | os.PathLike[str],
    forks: Sequence[dict[str, Any]],
    *,
    seed: int | None = None,
    silent: bool = True,
    on_error: Literal["raise", "record"] = "raise",
) -> StudyResults:
    """Run every fork of one recorded group chat, one after another; one record per fork, in ``forks`` order.

    A thin face over :func:`run_group_chats` with a factory of :class:`GroupChatFork` (which also runs forks
    at once, on Ray, into a run directory, or of a pattern's chat).

    Args:
        make_manager: a function without arguments returning a fresh ``GroupChatManager`` set up as for the
            recorded chat (or its ``GroupChat``: a manager without a model is built for it). Called once per fork.
        messages: the recorded run (``groupchat.messages``, ``load_transcript(path)``, a JSON string, or the
            transcript file as a path, ``Path("chat.jsonl")``, whose checkpoint each fork restores).
        forks: the forks, each a dict of :func:`fork_group_chat`'s arguments: ``at_round`` and at most the
            changes ``speaker`` (a name), ``message`` and ``context_variables``; ``{"at_round": k}`` alone is the
            baseline that goes on from round k unchanged.
        seed: every fork draws its "random" selections from ``random.Random(seed)``: the same draws for each
            (a checkpoint's restored random state takes over from it).
        silent: do not print the forks (a manager built by ``make_manager`` keeps its own ``silent``).
        on_error: "raise" stops at the first fork that raises; "record" records it as failed (``error``).

    Returns:
        A :class:`StudyResults`: record ``i`` is ``forks[i]`` (``run`` = i, ``label`` = :func:`fork_label`), its
        ``messages`` the kept ones followed by the fork's, ``end_reason`` why it ended.

    Raises:
        TypeError / ValueError: bad ``forks``, ``on_error`` or ``seed`` before any fork runs; with "raise", a
            fork's own error (``at_round`` out of range, an unknown speaker, ...).
    """
    if not callable(make_manager):
        raise TypeError(f"make_manager must be a function returning a GroupChatManager; got "
                        f"{type(make_manager).__name__}.")
    recorded = load_fork_record(messages)  # read and checked once
    checked = _check_forks(forks)
    if on_error not in ("raise", "record"):
        raise ValueError(f"on_error must be one of ['raise', 'record']; got {on_error!r}.")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise TypeError(f"seed must be None or an int; got {type(seed).__name__}.")
    # A file is read again by each fork (its checkpoint with it); other messages are handed over as parsed.
    given = messages if isinstance(messages, os.PathLike) else recorded.messages
    records = run_group_chats(_ForkFactory(make_manager, given, checked, seed), len(checked), silent=silent,
                              on_error=on_error, progress=False)
    # A fork whose manager could not be built has no fork to name it: its record still says which it was.
    return StudyResults(
        record if record.label is not None else dataclasses.replace(record, label=fork_label(checked[record.run]))
        for record in records
    )
