"""The sync and the async side of sending a request, for the one send logic of ``OpenAIClient``.

The send logic (``OpenAIClient._send_through``) is a coroutine that passes what each SDK call returns
through its side: ``result_of`` gives the call's result, ``drain`` feeds a stream's chunks to a callback.
On the async SDK client they await the SDK's coroutines. On the sync client they return at once, so the
coroutine never suspends and ``run_unsuspended`` runs it to its end in the caller's thread, without an
event loop (the sync path works the same inside or outside a running loop).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, NamedTuple, TypeVar

__all__ = ["ASYNC_SIDE", "SYNC_SIDE", "SdkSide", "run_unsuspended"]

_T = TypeVar("_T")


class SdkSide(NamedTuple):
    """How a send gets the results of the SDK calls it makes."""

    result_of: Callable[[Any], Awaitable[Any]]
    """What an SDK call returned -> the call's result."""
    drain: Callable[[Any, Callable[[Any], None]], Awaitable[None]]
    """(what a streaming ``create`` returned, add) -> None, once every chunk went to ``add``."""


async def _returned(value: Any) -> Any:
    return value


async def _awaited(value: Awaitable[Any]) -> Any:
    return await value


async def _drain_sync(stream: Any, add: Callable[[Any], None]) -> None:
    for chunk in stream:
        add(chunk)


async def _drain_async(stream: Awaitable[Any], add: Callable[[Any], None]) -> None:
    async for chunk in await stream:
        add(chunk)


SYNC_SIDE = SdkSide(_returned, _drain_sync)
ASYNC_SIDE = SdkSide(_awaited, _drain_async)


def run_unsuspended(coroutine: Coroutine[Any, Any, _T]) -> _T:
    """Run ``coroutine``, which awaits nothing that suspends (it uses ``SYNC_SIDE``), and return its result.

    Raises:
        RuntimeError: the coroutine suspended (it awaited a real awaitable: a bug, not a user error).
    """
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    coroutine.close()
    raise RuntimeError("a sync send suspended: it awaited something other than SYNC_SIDE's results")
