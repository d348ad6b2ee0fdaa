"""Many chats of a study at once on one asyncio event loop, through the async chat path.

Used by the local runner (``concurrency > 1``) and inside each Ray task that takes a batch of chats.
At most ``concurrency`` chats run at once; each is built just before it starts, so memory holds the
chats in flight, not the whole study. Two chats running at once may not talk through the same agent
object (:class:`SharedAgentError`). While the chats run, the collector leaves the heap from before
alone (:func:`.heap.study_heap`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from ..tools.execution import run_coroutine_sync
from .heap import study_heap
from .records import ChatRecord
from .pattern_chat import PatternChat
from .single import ChatSpec, PreparedChat, prepare

__all__ = ["SharedAgentError", "run_at_once", "run_at_once_in_new_loop"]

Keep = Callable[[ChatRecord], None]


class SharedAgentError(ValueError):
    """Two chats running at once talk through the same agent object."""


async def run_at_once(spec: ChatSpec, runs: list[int], concurrency: int, keep: Keep) -> None:
    """Run chats ``runs`` of ``spec``, ``concurrency`` at a time, on the running loop; ``keep`` each record."""
    gate = asyncio.Semaphore(concurrency)
    busy: dict[int, int] = {}  # id(agent) -> the run using it

    async def one(run: int) -> None:
        async with gate:
            chat = prepare(spec, run)
            if isinstance(chat, ChatRecord):
                keep(chat)
                return
            claimed = _claim(chat, busy)
            try:
                record = await chat.a_run()
            finally:
                for key in claimed:
                    busy.pop(key, None)
            keep(record)

    tasks = [asyncio.ensure_future(one(run)) for run in runs]
    try:
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()


def _claim(chat: PreparedChat | PatternChat, busy: dict[int, int]) -> list[int]:
    claimed = []
    for agent in chat.agents():
        other = busy.get(id(agent))
        if other is not None and other != chat.run_index:
            for key in claimed:
                busy.pop(key, None)
            raise SharedAgentError(
                f"chats {other} and {chat.run_index} both talk through the agent {agent.name!r}: with concurrency "
                "> 1, make_groupchat must build new agents for every chat (or run with concurrency=1)."
            )
        busy[id(agent)] = chat.run_index
        claimed.append(id(agent))
    return claimed


def run_at_once_in_new_loop(spec: ChatSpec, runs: list[int], concurrency: int, keep: Keep) -> None:
    """:func:`run_at_once` on an event loop of its own (on a thread when this thread already runs one)."""
    with study_heap():
        run_coroutine_sync(run_at_once(spec, runs, concurrency, keep))
