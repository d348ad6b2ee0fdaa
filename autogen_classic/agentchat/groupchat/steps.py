"""The I/O steps of a group chat, and the sync and async drivers that run them.

A group chat round is written once, as a generator that yields the steps that may
block (send a message, select a speaker, ask for a reply) and receives their
results. ``run_steps`` performs each step with the sync agent API and
``a_run_steps`` with the async one, so the sync and async chats cannot drift
apart. An exception raised by a step (e.g. ``KeyboardInterrupt`` or
``NoEligibleSpeaker``) is thrown back into the generator at the ``yield`` that
asked for it, where the round decides what it means.
"""

from __future__ import annotations

import asyncio
import inspect

from dataclasses import dataclass
from typing import Any, Generator, Optional, TypeVar, Union

__all__ = [
    "arguments_of",
    "CheckTermination",
    "GenerateReply",
    "RunToolCall",
    "SelectSpeaker",
    "Send",
    "Step",
    "a_run_steps",
    "run_steps",
]

T = TypeVar("T")


@dataclass
class Send:
    """``sender`` sends ``message`` to ``recipient`` (no reply requested unless ``request_reply``)."""

    sender: Any
    message: Union[str, dict[str, Any]]
    recipient: Any
    silent: Optional[bool] = True
    request_reply: Optional[bool] = False

    def run(self) -> None:
        self.sender.send(self.message, self.recipient, request_reply=self.request_reply, silent=self.silent)

    async def a_run(self) -> None:
        await self.sender.a_send(self.message, self.recipient, request_reply=self.request_reply, silent=self.silent)


@dataclass
class SelectSpeaker:
    """Ask the group chat for the speaker after ``last_speaker``; ``selector`` is the managing agent."""

    groupchat: Any
    last_speaker: Any
    selector: Any

    def run(self) -> Any:
        return self.groupchat.select_speaker(self.last_speaker, self.selector)

    async def a_run(self) -> Any:
        return await self.groupchat.a_select_speaker(self.last_speaker, self.selector)


@dataclass
class GenerateReply:
    """Ask ``agent`` for its reply to ``sender`` (from its stored conversation with ``sender``)."""

    agent: Any
    sender: Any

    def run(self) -> Any:
        return self.agent.generate_reply(sender=self.sender)

    async def a_run(self) -> Any:
        return await self.agent.a_generate_reply(sender=self.sender)


@dataclass
class CheckTermination:
    """Ask a termination ``condition`` whether ``messages`` (the newest ones) end the chat; returns a StopMessage or None.

    A step of its own because a condition may ask a model (``ModelJudgedTermination``), which async chats await.
    """

    condition: Any
    messages: list[dict[str, Any]]
    context: Any = None

    def run(self) -> Any:
        return self.condition.check(self.messages, self.context)

    async def a_run(self) -> Any:
        return await self.condition.a_check(self.messages, self.context)


@dataclass
class RunToolCall:
    """``executor`` runs the tool call of ``call_message`` (a message with one tool call); returns its reply."""

    executor: Any
    call_message: dict[str, Any]

    def run(self) -> Any:
        return self.executor.generate_tool_calls_reply([self.call_message])[1]

    async def a_run(self) -> Any:
        return (await self.executor.a_generate_tool_calls_reply([self.call_message]))[1]


Step = Union[Send, SelectSpeaker, GenerateReply, CheckTermination, RunToolCall]


class _Driving:
    """A round being driven: the last step's outcome goes in, the next step comes out. Both drivers use it, so
    a round is advanced and ended one way; they differ only in how a step is run."""

    def __init__(self, steps: Generator[Step, Any, Any]) -> None:
        self._steps = steps
        self._outcome: tuple[Any, Optional[BaseException]] = (None, None)
        self.value: Any = None  # what the round returned, once it is over

    def next_step(self) -> Optional[Step]:
        """The next step (the last one's error is thrown in at its ``yield``); None once the round is over."""
        result, error = self._outcome
        try:
            return self._steps.send(result) if error is None else self._steps.throw(error)
        except StopIteration as stop:
            self.value = stop.value
            return None

    def step_done(self, result: Any = None, error: Optional[BaseException] = None) -> None:
        """What the step gave, or raised."""
        self._outcome = (result, error)


def run_steps(steps: Generator[Step, Any, T]) -> T:
    """Run a generator of steps with the sync agent API and return its result."""
    driving = _Driving(steps)
    while (step := driving.next_step()) is not None:
        try:
            driving.step_done(step.run())
        except BaseException as e:  # noqa: BLE001 - handed to the round, which re-raises what it does not handle
            driving.step_done(error=e)
    return driving.value  # type: ignore[no-any-return]


async def a_run_steps(steps: Generator[Step, Any, T]) -> T:
    """Run a generator of steps with the async agent API and return its result."""
    driving = _Driving(steps)
    while (step := driving.next_step()) is not None:
        if isinstance(step, SelectSpeaker):
            # Once a round, let other tasks run (a stream's consumer, other chats of a study): agents
            # that answer without awaiting anything would otherwise keep the event loop to themselves.
            await asyncio.sleep(0)
        try:
            driving.step_done(await step.a_run())
        except BaseException as e:  # noqa: BLE001 - see run_steps
            driving.step_done(error=e)
    return driving.value  # type: ignore[no-any-return]


def arguments_of(function: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
    """The arguments as ``function`` takes them, defaults filled in: an async twin that forwards its keywords
    checks them against its sync twin's signature (a ``TypeError`` naming ``function`` for an unknown one)."""
    try:
        bound = inspect.signature(function).bind(*args, **kwargs)
    except TypeError as error:
        raise TypeError(f"{function.__name__}: {error}") from None
    bound.apply_defaults()
    return bound.arguments
