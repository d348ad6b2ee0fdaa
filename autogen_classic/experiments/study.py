"""``run_group_chats``: a study of many group chats, one after another, many at once, or on Ray.

Every chat is built afresh by the user's factory and recorded the same way wherever it runs
(:mod:`.single`); a factory may return a pattern (``DefaultPattern``, ``AutoPattern``, ...), whose chats
run through ``initiate_group_chat`` (:mod:`.pattern_chat`), or a fork of a recorded chat (a
``GroupChatFork``: its chats run through ``fork_group_chat``). The local runner takes chats one at a time
(``concurrency=1``) or many at once on asyncio through the async chat path; ``backend="ray"`` runs them
as Ray tasks (:mod:`.ray_runner`). Results come back in run order, whatever order the chats finish in.
With ``run_dir`` each finished chat is on disk before the next is counted, and a rerun skips the finished
ones (:mod:`.run_dir`).
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable
from typing import Any, Literal

from ..agentchat.conversable_agent import ConversableAgent
from ..agentchat.group.patterns.pattern import Pattern
from ..agentchat.groupchat import GroupChat, GroupChatManager
from .at_once import SharedAgentError, run_at_once, run_at_once_in_new_loop
from .heap import study_heap
from .progress import StudyProgress, wants_progress
from .records import ChatRecord, method_name
from .results import StudyResults, as_results
from .run_dir import RunDirectory
from .fork_spec import GroupChatFork
from .single import ChatSpec, factory_arity, prepare

__all__ = ["SharedAgentError", "a_run_group_chats", "run_group_chats"]

_ON_ERROR = ("raise", "record")
_BACKENDS = ("local", "ray")
Keep = Callable[[ChatRecord], None]


def _check_arguments(n: Any, sender: Any, on_error: Any, seed: Any, concurrency: Any, backend: Any,
                     address: Any, max_rounds: Any = None) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be the number of chats to run, an int >= 0; got {n!r}.")
    if max_rounds is not None and (isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 1):
        raise ValueError(
            f"max_rounds must be None (initiate_group_chat's default) or the most rounds of a pattern's chat, an "
            f"int >= 1; got {max_rounds!r}."
        )
    if sender is not None and not isinstance(sender, (str, ConversableAgent)):
        raise TypeError(
            "sender must be None (the group's first agent), the name of a group agent or a ConversableAgent; "
            f"got {type(sender).__name__}."
        )
    if on_error is not None and on_error not in _ON_ERROR:
        raise ValueError(f"on_error must be one of {list(_ON_ERROR)}; got {on_error!r}.")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise TypeError(f"seed must be None or an int; got {type(seed).__name__}.")
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
        raise ValueError(
            f"concurrency must be an int >= 1 (the chats running at once; 1 runs them one after another); "
            f"got {concurrency!r}."
        )
    if backend not in _BACKENDS:
        raise ValueError(f"backend must be one of {list(_BACKENDS)}; got {backend!r}.")
    if address is not None and backend != "ray":
        raise ValueError('address is the Ray cluster to run on: give it with backend="ray", or leave it out.')


def _study_description(spec: ChatSpec, n: int) -> dict[str, Any]:
    """What identifies a study in its run directory (plain JSON data)."""
    factory = spec.make_groupchat
    sender = spec.sender.name if isinstance(spec.sender, ConversableAgent) else spec.sender
    method = spec.speaker_selection_method
    return {
        "n": n,
        "factory": f"{getattr(factory, '__module__', '?')}.{getattr(factory, '__qualname__', type(factory).__name__)}",
        "message": json.loads(json.dumps(spec.message, default=str)),
        "sender": sender,
        "speaker_selection_method": None if method is None else method_name(method),
        "seed": spec.seed,
        "label": spec.label,
        "max_rounds": spec.max_rounds,
    }


# ----------------------------------------------------------------- the local runners
def _run_one_after_another(spec: ChatSpec, runs: list[int], keep: Keep) -> None:
    saved = random.getstate() if spec.seed is not None else None
    try:
        for run in runs:
            if spec.seed is not None:
                random.seed(spec.seed + run)  # anything else drawing from `random` repeats too
            chat = prepare(spec, run)
            keep(chat if isinstance(chat, ChatRecord) else chat.run())
    finally:
        if saved is not None:
            random.setstate(saved)


# ----------------------------------------------------------------- the study
class _Study:
    def __init__(self, spec: ChatSpec, n: int, run_dir: Any, progress: bool | None) -> None:
        self.spec, self.n = spec, n
        self.directory = None if run_dir is None else RunDirectory(run_dir, _study_description(spec, n))
        finished = self.directory.open() if self.directory is not None else {}
        self.results: dict[int, ChatRecord] = {run: rec for run, rec in finished.items() if run < n}
        self.todo = [run for run in range(n) if run not in self.results]
        failed = sum(1 for record in self.results.values() if record.failed)
        self.progress = StudyProgress(n, len(self.results), failed, show=wants_progress(progress))

    def keep(self, record: ChatRecord) -> None:
        if self.directory is not None:
            self.directory.append(record)
        self.results[record.run] = record
        self.progress.finished(record.failed)

    def outcome(self) -> StudyResults:
        self.progress.close()
        return as_results(self.results.values())


def _start(
    make_groupchat: Any, n: int, *, message: Any = None, sender: Any = None, speaker_selection_method: Any = None,
    llm_config: Any = None, is_termination_msg: Any = None, seed: Any = None, label: Any = None, silent: bool = True,
    on_error: Any = None, concurrency: Any = 1, progress: Any = None, run_dir: Any = None, backend: Any = "local",
    address: Any = None, max_rounds: Any = None,
) -> tuple[_Study, ChatSpec]:
    """Check the arguments of a study and open it (its run directory read): nothing has run yet."""
    _check_arguments(n, sender, on_error, seed, concurrency, backend, address, max_rounds)
    if not callable(make_groupchat):
        raise TypeError(
            f"make_groupchat must be a function returning a GroupChat (or a Pattern, for hand-off experiments, or "
            f"a GroupChatFork, for forks of a recorded chat); got {type(make_groupchat).__name__}."
        )
    factory_arity(make_groupchat)  # no argument, or run: refused before anything runs
    if speaker_selection_method is not None:
        GroupChat._check_speaker_selection_method(speaker_selection_method)
    if on_error is None:
        # A study that runs chats at once, on Ray or into a run directory keeps going past a failed chat.
        on_error = "record" if (concurrency > 1 or run_dir is not None or backend == "ray") else "raise"
    wants_progress(progress)  # a bad value is refused before anything runs
    spec = ChatSpec(make_groupchat, message, sender, speaker_selection_method, llm_config, is_termination_msg,
                    seed, label, silent, on_error, max_rounds)
    if backend == "ray":
        from .ray_runner import check_ray

        check_ray(spec, address)  # Ray installed, the spec picklable: before any chat runs
    return _Study(spec, n, run_dir, progress), spec


Factory = Callable[..., GroupChat | GroupChatManager | Pattern | GroupChatFork]


def run_group_chats(
    make_groupchat: Factory,
    n: int,
    *,
    message: str | dict[str, Any] | list[dict[str, Any]] | None = None,
    sender: str | ConversableAgent | None = None,
    speaker_selection_method: Any = None,
    llm_config: dict[str, Any] | Literal[False] | None = None,
    is_termination_msg: Callable[[dict[str, Any]], bool] | None = None,
    seed: int | None = None,
    label: str | None = None,
    silent: bool = True,
    on_error: Literal["raise", "record"] | None = None,
    concurrency: int = 1,
    progress: bool | None = None,
    run_dir: Any = None,
    backend: Literal["local", "ray"] = "local",
    address: str | None = None,
    max_rounds: int | None = None,
) -> StudyResults:
    """Run ``n`` group chats, each on a fresh group chat, and return one record per chat, in run order.

    Args:
        make_groupchat: a function taking no argument, or one, ``run`` (the index of the chat it builds),
            and returning a new ``GroupChat`` (a manager is built for it), a ready ``GroupChatManager``, a
            pattern (``DefaultPattern``, ``AutoPattern``, ``RoundRobinPattern``, ``RandomPattern``,
            ``ManualPattern``), or a ``GroupChatFork`` (a fork of a recorded chat onto a fresh GroupChat,
            manager or pattern: the chat runs ``fork_group_chat`` / ``fork_pattern_group_chat``, ``a_``
            twins at once, and its record's label says what the fork changed, after ``label``). A pattern's
            chats run through ``initiate_group_chat`` (``a_initiate_group_chat`` at once), and their
            records count the hand-off that caused each transition and keep the final context variables.
            It is called once per run, so no state leaks between runs. With ``concurrency=1`` the agents
            may be shared between runs (their histories are cleared when a chat starts); chats running at
            once need agents of their own.
        n: the number of chats to run.
        message: the opening message of every chat (required, unless the factory returns forks, which
            must go without: their opening message is the record's). For a pattern, as
            ``initiate_group_chat``'s ``messages``: a str, or a list of messages to resume from (a dict is
            one message).
        sender: who sends the opening message: the name of an agent of the group (default: the group's
            first agent) or any ``ConversableAgent``. Not for patterns (their ``user_agent`` sends it).
        speaker_selection_method: when given, replaces the group chat's method ("auto", "manual",
            "random", "round_robin" or a function), so one factory serves every method. Not for patterns.
        llm_config: the manager's ``llm_config``, used by "auto" selection (default: no model; "auto"
            then falls back to round robin). Only when ``make_groupchat`` returns a ``GroupChat``.
        is_termination_msg: the manager's termination test (default: the classic "TERMINATE" check).
            Only when ``make_groupchat`` returns a ``GroupChat``.
        seed: chat ``run`` draws its "random" selections from ``random.Random(seed + run)``, so a chat
            repeats whatever runs beside it; one after another, ``random`` itself is also seeded with
            ``seed + run`` before each chat and restored afterwards. None leaves ``random`` alone.
        label: copied into every record, to tell experiments apart once their records are combined.
        silent: do not print the chats (a manager returned by ``make_groupchat`` keeps its own ``silent``).
        on_error: "raise" stops at the first chat that raises; "record" keeps going and records the chat
            as failed (``error`` says ``"ExceptionType: message"``, ``messages`` hold the transcript up to
            then). Default: "record" with ``concurrency > 1``, ``run_dir`` or Ray, else "raise".
        concurrency: how many chats run at once (on asyncio, through the async chat path); 1 runs them
            one after another on the sync path. With ``backend="ray"``: the chats each Ray task runs at
            once (1: a task per chat, on the sync path).
        progress: a progress bar (done, failed, rate): True, False, or None to show it when standard
            error is a terminal or the code runs in a notebook.
        run_dir: a directory the study writes as it goes (``study.json``, ``records.jsonl``): running the
            same study again skips its finished chats; one written by a different study is refused.
        backend: "local" (this process) or "ray" (Ray tasks; install the ``ray`` extra).
        address: with ``backend="ray"``, the cluster to join (e.g. ``"ray://head:10001"`` or ``"auto"``);
            None starts a local Ray instance.
        max_rounds: the most rounds of a pattern's chat (``initiate_group_chat``'s ``max_rounds``; None: its
            default, 20). Only when ``make_groupchat`` returns a pattern (a ``GroupChat`` has ``max_round``).

    Returns:
        A :class:`StudyResults` (a list of ``ChatRecord``) with ``to_dataframe``, ``to_jsonl`` and ``to_parquet``.

    Raises:
        ValueError / TypeError: a bad argument, before any chat runs (the message names it and the fix).
        StudySettingsError: a ``message`` missing for new chats, or given with forks (a ``ValueError``, raised
            when the first chat is built, whatever ``on_error``).
        StudyMismatchError: ``run_dir`` holds another study.
        ImportError: ``backend="ray"`` without Ray installed.
    """
    study, spec = _start(
        make_groupchat, n, message=message, sender=sender, speaker_selection_method=speaker_selection_method,
        llm_config=llm_config, is_termination_msg=is_termination_msg, seed=seed, label=label, silent=silent,
        on_error=on_error, concurrency=concurrency, progress=progress, run_dir=run_dir, backend=backend,
        address=address, max_rounds=max_rounds,
    )
    try:
        if backend == "ray":
            from .ray_runner import run_on_ray

            run_on_ray(spec, study.todo, address=address, keep=study.keep, concurrency=concurrency)
        elif concurrency == 1:
            _run_one_after_another(spec, study.todo, study.keep)
        else:
            run_at_once_in_new_loop(spec, study.todo, concurrency, study.keep)
    finally:
        results = study.outcome()
    return results


async def a_run_group_chats(
    make_groupchat: Factory,
    n: int,
    *,
    message: str | dict[str, Any] | list[dict[str, Any]] | None = None,
    concurrency: int = 1,
    **settings: Any,
) -> StudyResults:
    """(async) :func:`run_group_chats` on the running event loop: the same keyword arguments, local backend.

    Raises:
        ValueError: ``backend="ray"`` (use :func:`run_group_chats`).
        TypeError: an argument :func:`run_group_chats` does not take.
    """
    if settings.get("backend", "local") != "local":
        raise ValueError('a_run_group_chats runs on this event loop: use run_group_chats for backend="ray".')
    try:
        study, spec = _start(make_groupchat, n, message=message, concurrency=concurrency, **settings)
    except TypeError as err:
        if "unexpected keyword argument" not in str(err):
            raise
        name = str(err).rsplit(" ", 1)[-1]
        raise TypeError(f"a_run_group_chats got an unexpected argument {name}; it takes those of run_group_chats.") from None
    try:
        with study_heap() if concurrency > 1 else contextlib.nullcontext():
            await run_at_once(spec, study.todo, concurrency, study.keep)
    finally:
        results = study.outcome()
    return results
