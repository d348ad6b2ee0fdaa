"""Resume a pattern's group chat from its transcript: ``resume_pattern_group_chat`` and its async twin.

``initiate_group_chat(pattern, messages, transcript_path="chat.jsonl")`` writes every message, and beside it
a checkpoint of the state (context variables, pending hand-off, counters ...). After a crash, rebuild the
same pattern (the same agents, hand-offs, tools and initial context variables) in the new process and call
``resume_pattern_group_chat(pattern, "chat.jsonl")``: the pattern sets the group chat up as for the first
run, the transcript is replayed, the checkpoint restored and the chat runs to its end, as if it had never
stopped (see ``groupchat.durable``).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Optional, Union

from ....llm_config import LLMConfig
from ...chat import ChatResult
from ...groupchat.durable_resume import a_resume_group_chat, resume_group_chat, resume_result
from ...groupchat.handoffs import TEMP_USER_NAME
from ....io.chat_response import AsyncRunResponseProtocol, RunResponseProtocol
from ...conversable.runs.launcher import RunLauncher
from ...groupchat.parking import ParkedRun, parked_request, parked_run_launcher, resume_parked_run, run_parking
from ...groupchat.steps import arguments_of
from ...groupchat.transcript import load_transcript
from ...transitions import ContextVariables
from ..multi_agent_chat import _GroupChatStart, initiate_group_chat, report_outcome, run_agents
from ..patterns.pattern import Pattern

if TYPE_CHECKING:
    from ...agent import Agent

__all__ = [
    "a_resume_pattern_group_chat",
    "a_run_parked_pattern_group_chat",
    "park_pattern_group_chat",
    "resume_parked_pattern_group_chat",
    "resume_pattern_group_chat",
    "run_parked_pattern_group_chat",
]


def _start(pattern: Pattern, transcript_path: Union[str, os.PathLike[str]], max_rounds: int,
           safeguards: tuple[Any, ...], function: str) -> tuple[_GroupChatStart, Any]:
    """The group chat as the pattern set it up for the original run, with its transcript; and the initiator."""
    messages = load_transcript(transcript_path)
    if not messages:
        raise ValueError(
            f"{function}: transcript_path {os.fspath(transcript_path)!r} holds no message; start the chat with "
            "initiate_group_chat(pattern, messages, transcript_path=...)."
        )
    # Set up as the first run was: from its opening message (sent by the temporary user when it names nobody).
    opening = dict(messages[0])
    if opening.get("name") == TEMP_USER_NAME:
        del opening["name"]
    start = _GroupChatStart(pattern, [opening], max_rounds, *safeguards, function, transcript_path)
    return start, start.opening(None)[0]


def resume_pattern_group_chat(
    pattern: Pattern,
    transcript_path: Union[str, os.PathLike[str]],
    max_rounds: int = 20,
    safeguard_policy: Optional[Union[dict[str, Any], str]] = None,
    safeguard_llm_config: Optional[LLMConfig] = None,
    mask_llm_config: Optional[LLMConfig] = None,
) -> tuple[ChatResult, ContextVariables, Agent]:
    """Resume the chat of ``initiate_group_chat(pattern, ..., transcript_path=...)`` and run it to its end.

    Args:
        pattern: the pattern of the original chat, built again the same way (agents, hand-offs, tools, initial
            context variables); its context variables end as the uninterrupted chat's would.
        transcript_path: the transcript of the original chat (its checkpoint is ``<transcript_path>.state``).
        max_rounds: as given to the original chat.
        safeguard_policy: as given to the original chat.
        safeguard_llm_config: as given to the original chat.
        mask_llm_config: as given to the original chat.

    Returns:
        What ``initiate_group_chat`` returns: the chat result, the context variables, the last speaker.

    Raises:
        ValueError: the transcript is empty or a line of it or of the checkpoint is corrupt (naming the line),
            or the pattern does not fit the messages (a speaker outside the group).
    """
    start, initiator = _start(pattern, transcript_path, max_rounds,
                              (safeguard_policy, safeguard_llm_config, mask_llm_config), "resume_pattern_group_chat")
    result = resume_group_chat(start.manager, initiator=initiator, summary_method=pattern.summary_method)
    return start.outcome(result)


async def a_resume_pattern_group_chat(
    pattern: Pattern, transcript_path: Union[str, os.PathLike[str]], **initiate_args: Any
) -> tuple[ChatResult, ContextVariables, Agent]:
    """(async) Resume a pattern's group chat from its transcript; see :func:`resume_pattern_group_chat`.

    Args:
        initiate_args: ``max_rounds``, ``safeguard_policy``, ``safeguard_llm_config`` and ``mask_llm_config``, as
            given to the original chat (an unknown keyword is a ``TypeError``).
    """
    given = arguments_of(resume_pattern_group_chat, pattern, transcript_path, **initiate_args)
    safeguards = (given["safeguard_policy"], given["safeguard_llm_config"], given["mask_llm_config"])
    start, initiator = _start(pattern, transcript_path, given["max_rounds"], safeguards, "a_resume_pattern_group_chat")
    result = await a_resume_group_chat(start.manager, initiator=initiator, summary_method=pattern.summary_method)
    return start.outcome(result)


def park_pattern_group_chat(
    pattern: Pattern, messages: Union[list[dict[str, Any]], str], transcript_path: Union[str, os.PathLike[str]],
    **initiate_args: Any,
) -> Union[tuple[ChatResult, ContextVariables, Agent], ParkedRun]:
    """``initiate_group_chat(pattern, messages, transcript_path=transcript_path, **initiate_args)`` until the chat
    ends or asks for input (a human reply, a manual speaker selection): see ``park_group_chat``.

    Returns:
        What ``initiate_group_chat`` returns when the chat ended, else the :class:`ParkedRun` it waits on (resume
        it with :func:`resume_parked_pattern_group_chat`).
    """
    given = arguments_of(initiate_group_chat, pattern, messages, transcript_path=transcript_path, **initiate_args)
    start = _GroupChatStart(pattern, messages, given["max_rounds"], given["safeguard_policy"],
                            given["safeguard_llm_config"], given["mask_llm_config"], "park_pattern_group_chat",
                            transcript_path)
    starter, arguments = start.opening(start.manager.resume(messages=start.processed) if start.resumes else None)
    outcome = run_parking(start.manager, lambda: starter.initiate_chat(start.manager, **arguments))
    return outcome if isinstance(outcome, ParkedRun) else start.outcome(outcome)


def _parked_start(pattern: Pattern, transcript_path: Union[str, os.PathLike[str]], initiate_args: dict[str, Any],
                  function: str) -> tuple[_GroupChatStart, Any]:
    given = arguments_of(resume_pattern_group_chat, pattern, transcript_path, **initiate_args)
    safeguards = (given["safeguard_policy"], given["safeguard_llm_config"], given["mask_llm_config"])
    return _start(pattern, transcript_path, given["max_rounds"], safeguards, function)


def resume_parked_pattern_group_chat(
    pattern: Pattern, transcript_path: Union[str, os.PathLike[str]], answer: str, **initiate_args: Any
) -> Union[tuple[ChatResult, ContextVariables, Agent], ParkedRun]:
    """Resume a pattern's chat parked by :func:`park_pattern_group_chat` (or by ``event.content.park()`` in a
    ``run_group_chat`` response) with ``answer`` (see ``resume_parked_group_chat``); ``pattern`` rebuilt as for
    the first run, ``initiate_args`` as given to it.

    Returns:
        What ``initiate_group_chat`` returns when the chat ended, else the next :class:`ParkedRun`.
    """
    start, initiator = _parked_start(pattern, transcript_path, initiate_args, "resume_parked_pattern_group_chat")
    outcome = resume_parked_run(start.manager, answer, parked_request(start.manager, answer))
    if isinstance(outcome, ParkedRun):
        return outcome
    return start.outcome(resume_result(start.manager, outcome, initiator, pattern.summary_method, None))


def _parked_launcher(pattern: Pattern, transcript_path: Union[str, os.PathLike[str]], answer: Any,
                     initiate_args: dict[str, Any]) -> RunLauncher:
    """The launcher of a pattern's parked chat resumed for a consumer of its events (checked before it starts)."""
    start, initiator = _parked_start(pattern, transcript_path, initiate_args, "run_parked_pattern_group_chat")
    return parked_run_launcher(start.manager, answer, initiator, pattern.summary_method, outcome=start.outcome,
                               report=report_outcome, agents=run_agents(pattern),
                               name="autogen-classic-parked-group-run")


def run_parked_pattern_group_chat(
    pattern: Pattern, transcript_path: Union[str, os.PathLike[str]], answer: str, **initiate_args: Any
) -> RunResponseProtocol:
    """Resume a pattern's parked chat with ``answer`` on a thread of its own and return its response at once, as
    ``run_group_chat`` does: its events follow (answer a further ``InputRequestEvent`` with ``respond``, or park
    it again with ``event.content.park()``), then its results, or ``response.parked`` when it parked again.
    Arguments as for :func:`resume_parked_pattern_group_chat`; a bad one raises at once."""
    return _parked_launcher(pattern, transcript_path, answer, initiate_args).run(at_once=True)


def a_run_parked_pattern_group_chat(
    pattern: Pattern, transcript_path: Union[str, os.PathLike[str]], answer: str, **initiate_args: Any
) -> AsyncRunResponseProtocol:
    """(async) :func:`run_parked_pattern_group_chat` as a task of the running event loop (``async for event in
    response.events``)."""
    return _parked_launcher(pattern, transcript_path, answer, initiate_args).a_run(at_once=True)
