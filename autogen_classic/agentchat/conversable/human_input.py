"""Asking the person at the console: ``get_human_input`` / ``a_get_human_input`` of ``ConversableAgent``.

The question goes to the stream given as ``iostream`` or else to the current default stream. A stream
whose ``input`` is a coroutine function (an async stream of AG2 0.14) is awaited; from sync code it is
run to completion. Closed input (``EOFError``) counts as "exit".
"""

from __future__ import annotations

import asyncio
import inspect
from typing import TYPE_CHECKING, Any, Optional

from ...import_utils import is_coroutine_callable
from ...io import IOStream
from ...io.input_details import asking_human_of
from ...tools.execution import run_coroutine_sync
from .guards.safeguard_hooks import checked_human_input

if TYPE_CHECKING:
    from ..conversable_agent import ConversableAgent

__all__ = ["a_get_human_input", "get_human_input"]


def _record(agent: "ConversableAgent", reply: str) -> str:
    if getattr(agent, "hook_lists", {}).get("safeguard_human_inputs"):
        reply = checked_human_input(agent, reply)
    agent._human_input.append(reply)
    return reply


def get_human_input(self: "ConversableAgent", prompt: str, *, iostream: Optional[Any] = None) -> str:
    """Ask the person at the console; override it to ask some other way.

    Args:
        prompt: the question shown.
        iostream: the stream to ask on (default: ``IOStream.get_default()``).

    Returns:
        The answer ("exit" when the input is closed).
    """
    stream = iostream if iostream is not None else IOStream.get_default()
    try:
        with asking_human_of(self.name):
            reply = stream.input(prompt)
        if inspect.isawaitable(reply):
            reply = run_coroutine_sync(_awaited(reply))
    except EOFError:
        reply = "exit"
    return _record(self, reply)


async def _awaited(awaitable: Any) -> Any:
    return await awaitable


async def a_get_human_input(self: "ConversableAgent", prompt: str, *, iostream: Optional[Any] = None) -> str:
    """(async) Ask the person at the console without blocking the event loop.

    An async stream is awaited. Otherwise ``get_human_input`` (the agent's own, when a subclass overrides
    it) runs in a worker thread, with ``iostream`` as its default stream.

    Args:
        prompt: the question shown.
        iostream: the stream to ask on (default: ``IOStream.get_default()``).
    """
    stream = iostream if iostream is not None else IOStream.get_default()
    overridden = type(self).get_human_input is not get_human_input
    if not overridden and is_coroutine_callable(getattr(stream, "input", None)):
        try:
            with asking_human_of(self.name):
                reply = await stream.input(prompt)
        except EOFError:
            reply = "exit"
        return _record(self, reply)

    def ask() -> str:
        # A 0.7.3-style override takes no ``iostream``: it reads the default stream, set here.
        with IOStream.set_default(stream):
            return self.get_human_input(prompt)

    return await asyncio.to_thread(ask)  # with this task's context variables
