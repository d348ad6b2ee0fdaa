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

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Optional, Union, cast

from ...events.run_events import ErrorEvent, RunCompletionEvent  # noqa: F401 - importable here, as in AG2 Classic 0.14
from ...io.base import IOStream  # noqa: F401 - importable here, as in AG2 Classic 0.14
from ...io.chat_response import (  # noqa: F401 - importable here, as in AG2 Classic 0.14
    AsyncRunResponse, AsyncRunResponseProtocol, RunResponse, RunResponseProtocol,
)
from ...io.run_iter import AsyncRunIterResponse, RunIterResponse
from ...io.thread_io_stream import AsyncThreadIOStream, ThreadIOStream  # noqa: F401 - importable here, as in 0.14
from ...llm_config import LLMConfig
from ..chat import ChatResult, CostDict
from ..conversable.runs.launcher import RunLauncher
from ..groupchat.handoffs import cleanup_temp_user_messages
from ..groupchat.transcript import attach_transcript
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


class _GroupChatStart:
    """A group chat as its pattern sets it up (the safeguard policy applied), up to its first message.

    ``initiate_group_chat`` and its async twin differ only in how they resume and start the chat.
    """

    def __init__(self, pattern: Any, messages: Union[list[dict[str, Any]], str], max_rounds: int,
                 safeguard_policy: Optional[Union[dict[str, Any], str]], safeguard_llm_config: Optional[LLMConfig],
                 mask_llm_config: Optional[LLMConfig], function: str,
                 transcript_path: Optional[Union[str, os.PathLike[str]]] = None) -> None:
        if not isinstance(pattern, Pattern):
            raise TypeError(
                f"{function} takes a Pattern (DefaultPattern, AutoPattern, RoundRobinPattern, RandomPattern, "
                f"ManualPattern) as pattern; got {type(pattern).__name__} {pattern!r:.60}."
            )
        self.pattern = pattern
        prepared = pattern.prepare_group_chat(max_rounds=max_rounds, messages=messages)
        self.context_variables, self.manager, self.processed, self.starter = (
            prepared[3], prepared[8], prepared[9], prepared[10])
        attach_transcript(self.manager.groupchat, transcript_path)  # before the safeguards: it records every message
        if safeguard_policy:
            from .safeguards import apply_safeguard_policy  # loaded only when a policy is given

            apply_safeguard_policy(groupchat_manager=self.manager, policy=safeguard_policy,
                                   safeguard_llm_config=safeguard_llm_config, mask_llm_config=mask_llm_config)

    @property
    def resumes(self) -> bool:
        """Whether the chat resumes from several opening messages (``manager.resume``)."""
        return len(self.processed) > 1

    def opening(self, resumed: Optional[tuple[Any, Any]]) -> tuple[Any, dict[str, Any]]:
        """The agent that starts the chat and its ``initiate_chat`` arguments; ``resumed``: what resuming gave."""
        starter, message, clear_history = (*resumed, False) if resumed is not None else (self.starter, self.processed[0], True)
        if starter is None:
            raise ValueError(
                "No agent selected to start the conversation: the opening messages name no sender and the pattern "
                "has no user_agent. Give the pattern a user_agent, or name the sender in the first message ('name')."
            )
        return starter, dict(message=message, clear_history=clear_history, summary_method=self.pattern.summary_method)

    def outcome(self, result: ChatResult) -> tuple[ChatResult, ContextVariables, Any]:
        """The run's outcome: its result with the cost of every agent and the manager (``initiate_chat`` counts
        its two agents only), the context variables, the last speaker."""
        result.cost = cast(CostDict, gather_usage_summary(list(self.manager.groupchat.agents) + [self.manager]))
        cleanup_temp_user_messages(result)
        return result, self.context_variables, self.manager.last_speaker


def initiate_group_chat(
    pattern: Pattern,
    messages: Union[list[dict[str, Any]], str],
    max_rounds: int = 20,
    safeguard_policy: Optional[Union[dict[str, Any], str]] = None,
    safeguard_llm_config: Optional[LLMConfig] = None,
    mask_llm_config: Optional[LLMConfig] = None,
    *,
    transcript_path: Optional[Union[str, os.PathLike[str]]] = None,
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
        transcript_path: a JSON-lines file to which every message is written at once, with its checkpoint
            (``<transcript_path>.state``), so that a killed run goes on with ``resume_pattern_group_chat``
            (see ``GroupChat(transcript_path=...)``); None (the default) writes nothing.

    Returns:
        The chat result (history, summary, the cost of every agent), the context variables, the last speaker.

    Raises:
        ValueError: the pattern is not usable (no agents, a hand-off leading outside the group ...): before the
            chat starts.
    """
    start = _GroupChatStart(pattern, messages, max_rounds, safeguard_policy, safeguard_llm_config, mask_llm_config,
                            "initiate_group_chat", transcript_path)
    starter, arguments = start.opening(start.manager.resume(messages=start.processed) if start.resumes else None)
    return start.outcome(starter.initiate_chat(start.manager, **arguments))


async def a_initiate_group_chat(
    pattern: Pattern,
    messages: Union[list[dict[str, Any]], str],
    max_rounds: int = 20,
    safeguard_policy: Optional[Union[dict[str, Any], str]] = None,
    safeguard_llm_config: Optional[LLMConfig] = None,
    mask_llm_config: Optional[LLMConfig] = None,
    *,
    transcript_path: Optional[Union[str, os.PathLike[str]]] = None,
) -> tuple[ChatResult, ContextVariables, Agent]:
    """(async) Set up a group chat with ``pattern`` and run it; see :func:`initiate_group_chat`."""
    start = _GroupChatStart(pattern, messages, max_rounds, safeguard_policy, safeguard_llm_config, mask_llm_config,
                            "a_initiate_group_chat", transcript_path)
    resumed = await start.manager.a_resume(messages=start.processed) if start.resumes else None
    starter, arguments = start.opening(resumed)
    return start.outcome(await starter.a_initiate_chat(start.manager, **arguments))


# ---------------------------------------------------------------- runs for a consumer of the events
def run_agents(pattern: Pattern) -> list[Any]:
    """The agents of a pattern's run (``response.agents``): the pattern's, and its user agent."""
    return list(pattern.agents) + ([pattern.user_agent] if pattern.user_agent else [])


def report_outcome(outcome: tuple[ChatResult, ContextVariables, Any]) -> tuple[ChatResult, Optional[str], Any]:
    """What a pattern chat's outcome says to its run: the result, the last speaker's name, the context variables."""
    result, context_variables, last = outcome
    return result, getattr(last, "name", None), context_variables


def _launcher(pattern: Pattern, messages: Any, max_rounds: int, *safeguards: Any,
              transcript_path: Optional[Union[str, os.PathLike[str]]] = None) -> RunLauncher:
    """The launcher of a group chat run (arguments as for :func:`initiate_group_chat`)."""
    return RunLauncher(
        lambda: initiate_group_chat(pattern, messages, max_rounds, *safeguards, transcript_path=transcript_path),
        lambda: a_initiate_group_chat(pattern, messages, max_rounds, *safeguards, transcript_path=transcript_path),
        report_outcome, run_agents(pattern), "autogen-classic-group-run",
    )


def run_group_chat(
    pattern: Pattern,
    messages: Union[list[dict[str, Any]], str],
    max_rounds: int = 20,
    safeguard_policy: Optional[Union[dict[str, Any], str]] = None,
    safeguard_llm_config: Optional[LLMConfig] = None,
    mask_llm_config: Optional[LLMConfig] = None,
    *,
    transcript_path: Optional[Union[str, os.PathLike[str]]] = None,
) -> RunResponseProtocol:
    """Run a group chat on a thread of its own and return its response at once.

    Iterate ``response.events`` (answer an ``InputRequestEvent`` with ``event.content.respond(text)``) or call
    ``response.process()``; ``summary``, ``messages``, ``context_variables``, ``last_speaker`` and ``cost`` are
    set when the run is over. Arguments (``transcript_path`` too) as for :func:`initiate_group_chat`; a failure
    (a bad pattern too) arrives as an ``ErrorEvent``, and iterating the events raises it.
    """
    # As in AG2 Classic, the run starts when the function is called.
    launcher = _launcher(pattern, messages, max_rounds, safeguard_policy, safeguard_llm_config, mask_llm_config,
                         transcript_path=transcript_path)
    return launcher.run(at_once=True)


async def a_run_group_chat(
    pattern: Pattern,
    messages: Union[list[dict[str, Any]], str],
    max_rounds: int = 20,
    safeguard_policy: Optional[Union[dict[str, Any], str]] = None,
    safeguard_llm_config: Optional[LLMConfig] = None,
    mask_llm_config: Optional[LLMConfig] = None,
    *,
    transcript_path: Optional[Union[str, os.PathLike[str]]] = None,
) -> AsyncRunResponseProtocol:
    """(async) Run a group chat as a task of the running event loop; returns its response at once.

    ``async for event in response.events`` (or ``await response.process()``), then ``await response.summary``
    and the other results. Arguments as for :func:`initiate_group_chat`.
    """
    launcher = _launcher(pattern, messages, max_rounds, safeguard_policy, safeguard_llm_config, mask_llm_config,
                         transcript_path=transcript_path)
    return launcher.a_run(at_once=True)


def run_group_chat_iter(
    pattern: Pattern,
    messages: Union[list[dict[str, Any]], str],
    max_rounds: int = 20,
    safeguard_policy: Optional[Union[dict[str, Any], str]] = None,
    safeguard_llm_config: Optional[LLMConfig] = None,
    mask_llm_config: Optional[LLMConfig] = None,
    yield_on: Optional[Sequence[type]] = None,
    *,
    transcript_path: Optional[Union[str, os.PathLike[str]]] = None,
) -> RunIterResponse:
    """Run a group chat step by step: ``for event in run_group_chat_iter(...)``.

    The chat waits after each event it yields until the loop asks for the next one; leaving the loop stops it.
    Input requests are always yielded (answer them with ``event.content.respond``; with a ``transcript_path``,
    ``event.content.park()`` parks the chat there and the iteration ends: ``response.parked``).

    Args:
        yield_on: the event classes to yield (e.g. ``[TextEvent, TerminationEvent]``); None: every event.
        transcript_path: as for :func:`initiate_group_chat`.
        (the others as for :func:`initiate_group_chat`)
    """
    launcher = _launcher(pattern, messages, max_rounds, safeguard_policy, safeguard_llm_config, mask_llm_config,
                         transcript_path=transcript_path)
    return launcher.run_iter(yield_on)


def a_run_group_chat_iter(
    pattern: Pattern,
    messages: Union[list[dict[str, Any]], str],
    max_rounds: int = 20,
    safeguard_policy: Optional[Union[dict[str, Any], str]] = None,
    safeguard_llm_config: Optional[LLMConfig] = None,
    mask_llm_config: Optional[LLMConfig] = None,
    yield_on: Optional[Sequence[type]] = None,
    *,
    transcript_path: Optional[Union[str, os.PathLike[str]]] = None,
) -> AsyncRunIterResponse:
    """(async) ``run_group_chat_iter`` for async code: ``async for event in a_run_group_chat_iter(...)``.

    The chat runs its async methods on a thread with an event loop of its own, so the caller's loop is never
    blocked. Arguments as for :func:`run_group_chat_iter`.
    """
    launcher = _launcher(pattern, messages, max_rounds, safeguard_policy, safeguard_llm_config, mask_llm_config,
                         transcript_path=transcript_path)
    return launcher.a_run_iter(yield_on)
