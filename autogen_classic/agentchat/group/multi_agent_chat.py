"""Running a group chat from a pattern: ``initiate_group_chat``, ``run_group_chat``, ``run_group_chat_iter`` and
their ``a_`` twins (AG2 Classic 0.14).

``initiate_group_chat`` lets the pattern set up the group chat (this package's ``GroupChat`` and
``GroupChatManager``, the hand-off transition as the speaker selection), then the agent that sent the opening
message starts the chat with the manager (several messages: the chat resumes from them). It returns the
``ChatResult`` (its cost covering every agent of the group), the context variables and the last speaker.

The ``run_`` functions run it for a consumer of its events, on the engine of ``ConversableAgent.run``
(``autogen_classic.io.chat_worker``): the run starts at once (on a thread, or as a task of the running loop);
its events end with a ``RunCompletionEvent`` holding the context variables, or an ``ErrorEvent``.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Optional, Union, cast

from ...events.run_events import ErrorEvent, RunCompletionEvent
from ...io.base import IOStream
from ...io.chat_worker import ChatTask, ChatThread
from ...io.run_response import (
    AsyncRunIterResponse,
    AsyncRunResponse,
    AsyncRunResponseProtocol,
    RunDriver,
    RunIterResponse,
    RunResponse,
    RunResponseProtocol,
)
from ...io.thread_io_stream import AsyncThreadIOStream, ThreadIOStream
from ...llm_config import LLMConfig
from ..chat import ChatResult, CostDict
from ..groupchat.handoffs import cleanup_temp_user_messages
from ..transitions import ContextVariables
from ..utils import gather_usage_summary
from .patterns.pattern import Pattern

if TYPE_CHECKING:
    from ..agent import Agent

__all__ = [
    "a_initiate_group_chat",
    "a_run_group_chat",
    "a_run_group_chat_iter",
    "initiate_group_chat",
    "run_group_chat",
    "run_group_chat_iter",
]


def _check_pattern(pattern: Any, function: str) -> None:
    if not isinstance(pattern, Pattern):
        raise TypeError(
            f"{function} takes a Pattern (DefaultPattern, AutoPattern, RoundRobinPattern, RandomPattern, "
            f"ManualPattern) as pattern; got {type(pattern).__name__} {pattern!r:.60}."
        )


def _prepare(
    pattern: Pattern,
    messages: Union[list[dict[str, Any]], str],
    max_rounds: int,
    safeguard_policy: Optional[Union[dict[str, Any], str]],
    safeguard_llm_config: Optional[LLMConfig],
    mask_llm_config: Optional[LLMConfig],
) -> tuple[ContextVariables, Any, list[dict[str, Any]], Any]:
    """Let the pattern set up the chat; apply the safeguard policy. Returns the context variables, the
    manager, the opening messages and the agent that sent the first one."""
    prepared = pattern.prepare_group_chat(max_rounds=max_rounds, messages=messages)
    context_variables, manager, processed_messages, last_agent = prepared[3], prepared[8], prepared[9], prepared[10]
    if safeguard_policy:
        from .safeguards import apply_safeguard_policy  # loaded only when a policy is given

        apply_safeguard_policy(
            groupchat_manager=manager,
            policy=safeguard_policy,
            safeguard_llm_config=safeguard_llm_config,
            mask_llm_config=mask_llm_config,
        )
    return context_variables, manager, processed_messages, last_agent


def _finish(result: ChatResult, manager: Any) -> ChatResult:
    # initiate_chat counts the cost of its two agents; the group's cost is that of every agent and the manager.
    result.cost = cast(CostDict, gather_usage_summary(list(manager.groupchat.agents) + [manager]))
    cleanup_temp_user_messages(result)
    return result


def _no_starter() -> ValueError:
    return ValueError(
        "No agent selected to start the conversation: the opening messages name no sender and the pattern has no "
        "user_agent. Give the pattern a user_agent, or name the sender in the first message ('name')."
    )


def initiate_group_chat(
    pattern: Pattern,
    messages: Union[list[dict[str, Any]], str],
    max_rounds: int = 20,
    safeguard_policy: Optional[Union[dict[str, Any], str]] = None,
    safeguard_llm_config: Optional[LLMConfig] = None,
    mask_llm_config: Optional[LLMConfig] = None,
) -> tuple[ChatResult, ContextVariables, Agent]:
    """Set up a group chat with ``pattern`` and run it.

    Args:
        pattern: the pattern (``DefaultPattern``, ``AutoPattern``, ``RoundRobinPattern``, ``RandomPattern``,
            ``ManualPattern``).
        messages: the opening message (a str), or messages to resume from (the first may name its sender).
        max_rounds: the most rounds (messages) of the chat.
        safeguard_policy: a safeguard policy (a dict or the path of a JSON file) applied to the chat.
        safeguard_llm_config: the model of the policy's model-judged checks.
        mask_llm_config: the model that masks content for the policy.

    Returns:
        The chat result (history, summary, the cost of every agent), the context variables, the last speaker.

    Raises:
        ValueError: the pattern is not usable (no agents, a hand-off leading outside the group ...): before the
            chat starts.
    """
    _check_pattern(pattern, "initiate_group_chat")
    context_variables, manager, processed, last_agent = _prepare(
        pattern, messages, max_rounds, safeguard_policy, safeguard_llm_config, mask_llm_config
    )
    if len(processed) > 1:
        last_agent, last_message = manager.resume(messages=processed)
        clear_history = False
    else:
        last_message, clear_history = processed[0], True
    if last_agent is None:
        raise _no_starter()
    result = last_agent.initiate_chat(
        manager, message=last_message, clear_history=clear_history, summary_method=pattern.summary_method
    )
    return _finish(result, manager), context_variables, manager.last_speaker


async def a_initiate_group_chat(
    pattern: Pattern,
    messages: Union[list[dict[str, Any]], str],
    max_rounds: int = 20,
    safeguard_policy: Optional[Union[dict[str, Any], str]] = None,
    safeguard_llm_config: Optional[LLMConfig] = None,
    mask_llm_config: Optional[LLMConfig] = None,
) -> tuple[ChatResult, ContextVariables, Agent]:
    """(async) Set up a group chat with ``pattern`` and run it; see :func:`initiate_group_chat`."""
    _check_pattern(pattern, "a_initiate_group_chat")
    context_variables, manager, processed, last_agent = _prepare(
        pattern, messages, max_rounds, safeguard_policy, safeguard_llm_config, mask_llm_config
    )
    if len(processed) > 1:
        last_agent, last_message = await manager.a_resume(messages=processed)
        clear_history = False
    else:
        last_message, clear_history = processed[0], True
    if last_agent is None:
        raise _no_starter()
    result = await last_agent.a_initiate_chat(
        manager, message=last_message, clear_history=clear_history, summary_method=pattern.summary_method
    )
    return _finish(result, manager), context_variables, manager.last_speaker


# ---------------------------------------------------------------- runs for a consumer of the events
def _run_agents(pattern: Pattern) -> list[Any]:
    return list(pattern.agents) + ([pattern.user_agent] if pattern.user_agent else [])


def _summary_text(summary: Any) -> str:
    if isinstance(summary, dict):
        return _summary_text(summary.get("content", ""))
    return "" if summary is None else summary if isinstance(summary, str) else str(summary)


def _completed(outcome: tuple[ChatResult, ContextVariables, Any], held: Any = None) -> Any:
    """Send the run's ``RunCompletionEvent`` (to the current stream); returns the chat result."""
    result, context_variables, last = outcome
    response = held() if held is not None else None
    if response is not None:
        response.note_human_input(result.human_input)
    IOStream.get_default().send(RunCompletionEvent.build(
        summary=_summary_text(result.summary), history=list(result.chat_history or []), cost=result.cost,
        last_speaker=getattr(last, "name", None), context_variables=context_variables,
    ))
    return result


def _started(worker: Any) -> RunDriver:
    # The run is already going (as in AG2 Classic: it starts when the function is called).
    return RunDriver(lambda: worker, None, False, lambda result: None)


def run_group_chat(
    pattern: Pattern,
    messages: Union[list[dict[str, Any]], str],
    max_rounds: int = 20,
    safeguard_policy: Optional[Union[dict[str, Any], str]] = None,
    safeguard_llm_config: Optional[LLMConfig] = None,
    mask_llm_config: Optional[LLMConfig] = None,
) -> RunResponseProtocol:
    """Run a group chat on a thread of its own and return its response at once.

    Iterate ``response.events`` (answer an ``InputRequestEvent`` with ``event.content.respond(text)``) or call
    ``response.process()``; ``summary``, ``messages``, ``context_variables``, ``last_speaker`` and ``cost`` are
    set when the run is over. Arguments as for :func:`initiate_group_chat`; a failure (a bad pattern too)
    arrives as an ``ErrorEvent``, and iterating the events raises it.
    """
    iostream = ThreadIOStream()
    response = RunResponse(iostream, agents=_run_agents(pattern))
    held = weakref.ref(response)  # no cycle through the chat

    def target() -> Any:
        try:
            outcome = initiate_group_chat(pattern, messages, max_rounds, safeguard_policy, safeguard_llm_config,
                                          mask_llm_config)
        except Exception as error:  # noqa: BLE001 - handed to the consumer as an event
            iostream.send(ErrorEvent(error=error))
            return None
        return _completed(outcome, held)

    thread = ChatThread(target, iostream, name="autogen-classic-group-run")
    response.drive(_started(thread))
    thread.start()
    return response


async def a_run_group_chat(
    pattern: Pattern,
    messages: Union[list[dict[str, Any]], str],
    max_rounds: int = 20,
    safeguard_policy: Optional[Union[dict[str, Any], str]] = None,
    safeguard_llm_config: Optional[LLMConfig] = None,
    mask_llm_config: Optional[LLMConfig] = None,
) -> AsyncRunResponseProtocol:
    """(async) Run a group chat as a task of the running event loop; returns its response at once.

    ``async for event in response.events`` (or ``await response.process()``), then ``await response.summary``
    and the other results. Arguments as for :func:`initiate_group_chat`.
    """
    iostream = AsyncThreadIOStream()
    response = AsyncRunResponse(iostream, agents=_run_agents(pattern))
    held = weakref.ref(response)

    async def target() -> Any:
        try:
            outcome = await a_initiate_group_chat(pattern, messages, max_rounds, safeguard_policy,
                                                  safeguard_llm_config, mask_llm_config)
        except Exception as error:  # noqa: BLE001 - handed to the consumer as an event
            iostream.send(ErrorEvent(error=error))
            return None
        return _completed(outcome, held)

    task = ChatTask(target, iostream)
    response.drive(_started(task))
    task.start()
    return response


def _stepped_thread(pattern: Pattern, messages: Any, max_rounds: int, safeguards: tuple[Any, Any, Any],
                    run_async: bool) -> Any:
    """``start_thread_func`` of a step-by-step run: a thread (not started) running the chat on a stream."""

    def create_thread(iostream: ThreadIOStream) -> ChatThread:
        def target() -> Any:
            try:
                if run_async:
                    outcome = asyncio.run(a_initiate_group_chat(pattern, messages, max_rounds, *safeguards))
                else:
                    outcome = initiate_group_chat(pattern, messages, max_rounds, *safeguards)
            except Exception as error:  # noqa: BLE001 - handed to the consumer as an event
                iostream.send(ErrorEvent(error=error))
                return None
            return _completed(outcome)

        return ChatThread(target, iostream, name="autogen-classic-group-run-iter")

    return create_thread


def run_group_chat_iter(
    pattern: Pattern,
    messages: Union[list[dict[str, Any]], str],
    max_rounds: int = 20,
    safeguard_policy: Optional[Union[dict[str, Any], str]] = None,
    safeguard_llm_config: Optional[LLMConfig] = None,
    mask_llm_config: Optional[LLMConfig] = None,
    yield_on: Optional[Sequence[type]] = None,
) -> RunIterResponse:
    """Run a group chat step by step: ``for event in run_group_chat_iter(...)``.

    The chat waits after each event it yields until the loop asks for the next one; leaving the loop stops it.
    Input requests are always yielded (answer them with ``event.content.respond``).

    Args:
        yield_on: the event classes to yield (e.g. ``[TextEvent, TerminationEvent]``); None: every event.
        (the others as for :func:`initiate_group_chat`)
    """
    safeguards = (safeguard_policy, safeguard_llm_config, mask_llm_config)
    return RunIterResponse(
        start_thread_func=_stepped_thread(pattern, messages, max_rounds, safeguards, run_async=False),
        yield_on=yield_on,
        agents=_run_agents(pattern),
    )


def a_run_group_chat_iter(
    pattern: Pattern,
    messages: Union[list[dict[str, Any]], str],
    max_rounds: int = 20,
    safeguard_policy: Optional[Union[dict[str, Any], str]] = None,
    safeguard_llm_config: Optional[LLMConfig] = None,
    mask_llm_config: Optional[LLMConfig] = None,
    yield_on: Optional[Sequence[type]] = None,
) -> AsyncRunIterResponse:
    """(async) ``run_group_chat_iter`` for async code: ``async for event in a_run_group_chat_iter(...)``.

    The chat runs its async methods on a thread with an event loop of its own, so the caller's loop is never
    blocked. Arguments as for :func:`run_group_chat_iter`.
    """
    safeguards = (safeguard_policy, safeguard_llm_config, mask_llm_config)
    return AsyncRunIterResponse(
        start_thread_func=_stepped_thread(pattern, messages, max_rounds, safeguards, run_async=True),
        yield_on=yield_on,
        agents=_run_agents(pattern),
    )
