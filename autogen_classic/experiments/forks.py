"""``run_forks``: a study of forks of one recorded group chat, one record per fork, comparable across forks.

Each fork (``{"at_round": 3, "speaker": "critic"}``, ...) runs :func:`fork_group_chat` on a fresh manager
from the user's factory and is recorded as a chat of a study is (:class:`ChatRecord`): ``run`` is the
fork's index in ``forks`` and ``label`` says what the fork changed, so ``records.to_dataframe()`` puts the
forks side by side. Every fork draws its "random" selections from the same seed: forks differ by their
change, not by their luck.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Literal

from ..agentchat.groupchat import GroupChat, GroupChatManager
from ..agentchat.groupchat.fork import fork_group_chat
from ..agentchat.groupchat.resume import load_resume_messages
from .records import ChatRecord, record_of_chat
from .results import StudyResults
from .usage import total_tokens, usage_clients

__all__ = ["fork_label", "run_forks"]

_FORK_KEYS = ("at_round", "speaker", "message", "context_variables")


def fork_label(fork: dict[str, Any]) -> str:
    """What a fork changes, as its records' ``label``: ``"at_round=3 speaker=critic"``, ``"at_round=3"`` (none)."""
    parts = [f"at_round={fork['at_round']}"]
    if fork.get("speaker") is not None:
        parts.append(f"speaker={fork['speaker']}")
    if fork.get("message") is not None:
        text = fork["message"] if isinstance(fork["message"], str) else fork["message"].get("content")
        parts.append(f"message={str(text)[:40]!r}")
    if fork.get("context_variables") is not None:
        parts.append(f"context_variables={fork['context_variables']!r}")
    return " ".join(parts)


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


def _manager_of(built: Any, silent: bool) -> GroupChatManager:
    if isinstance(built, GroupChatManager):
        return built
    if isinstance(built, GroupChat):
        return GroupChatManager(built, llm_config=False, silent=silent)
    raise TypeError(
        f"make_manager must return a GroupChatManager (or a GroupChat); it returned {type(built).__name__}."
    )


def _run_fork(make_manager: Callable[[], Any], messages: list[dict[str, Any]], fork: dict[str, Any], run: int,
              seed: int | None, silent: bool, on_error: str) -> ChatRecord:
    label = fork_label(fork)
    try:
        manager = _manager_of(make_manager(), silent)
    except Exception as exc:
        if on_error == "raise":
            raise
        return ChatRecord(run=run, method="unknown", label=label, speakers=[], end_reason=None,
                          error=f"{type(exc).__name__}: {exc}")
    groupchat = manager.groupchat
    if seed is not None:
        groupchat.random_source = random.Random(seed)  # the same draws for every fork
    clients = usage_clients(groupchat.agents, manager)
    before = total_tokens(clients)
    error = None
    try:
        fork_group_chat(manager, messages, **fork)
    except Exception as exc:
        if on_error == "raise":
            raise
        error = f"{type(exc).__name__}: {exc}"
    return record_of_chat(run, label, groupchat, manager, total_tokens(clients) - before, error)


def run_forks(
    make_manager: Callable[[], GroupChatManager | GroupChat],
    messages: list[dict[str, Any]] | str,
    forks: Sequence[dict[str, Any]],
    *,
    seed: int | None = None,
    silent: bool = True,
    on_error: Literal["raise", "record"] = "raise",
) -> StudyResults:
    """Run every fork of one recorded group chat, one after another; one record per fork, in ``forks`` order.

    Args:
        make_manager: a function without arguments returning a fresh ``GroupChatManager`` set up as for the
            recorded chat (or its ``GroupChat``: a manager without a model is built for it). Called once per fork.
        messages: the recorded run (``groupchat.messages``, ``load_transcript(path)``, or a JSON string).
        forks: the forks, each a dict of :func:`fork_group_chat`'s arguments: ``at_round`` and at most the
            changes ``speaker`` (a name), ``message`` and ``context_variables``; ``{"at_round": k}`` alone is the
            baseline that goes on from round k unchanged.
        seed: every fork draws its "random" selections from ``random.Random(seed)``: the same draws for each.
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
    recorded = load_resume_messages(messages)
    checked = _check_forks(forks)
    if on_error not in ("raise", "record"):
        raise ValueError(f"on_error must be one of ['raise', 'record']; got {on_error!r}.")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise TypeError(f"seed must be None or an int; got {type(seed).__name__}.")
    return StudyResults(
        _run_fork(make_manager, recorded, fork, run, seed, silent, on_error) for run, fork in enumerate(checked)
    )
