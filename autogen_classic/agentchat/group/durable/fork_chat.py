"""Forks of a pattern's group chat: ``fork_pattern_group_chat`` and its async twin.

"What if billing had answered here?" asked of a chat of ``initiate_group_chat(pattern, ...)``: rebuild the
same pattern (agents, hand-offs, tools, initial context variables), and the pattern sets the group chat up
from the record's opening message as for the first run (as ``resume_pattern_group_chat`` does); the fork then
runs on the classic fork engine (``groupchat.fork``: replay, restore, change, run to the end). From the
transcript file (``Path("chat.jsonl")``) its checkpoint brings the context variables and a pending hand-off
back as they were at ``at_round``, so the fork goes on exactly as the record did, but for the change.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Optional, Union

from ....llm_config import LLMConfig
from ...chat import ChatResult
from ...groupchat.durable_resume import resume_result
from ...groupchat.fork import ForkPlan, ForkRecord, fork_steps, load_fork_record, plan_fork
from ...groupchat.handoffs import TEMP_USER_NAME
from ...groupchat.steps import a_run_steps, arguments_of, run_steps
from ...transitions import ContextVariables
from ..multi_agent_chat import _GroupChatStart
from ..patterns.pattern import Pattern

if TYPE_CHECKING:
    from ...agent import Agent

__all__ = ["a_fork_pattern_group_chat", "fork_pattern_group_chat"]

Recorded = Union[list[dict[str, Any]], str, "os.PathLike[str]"]


def _start(pattern: Pattern, messages: Recorded, at_round: Any, change: dict[str, Any], max_rounds: int,
           safeguards: tuple[Any, ...], transcript_path: Any, function: str) -> tuple[_GroupChatStart, Any, ForkPlan]:
    """The group chat as the pattern set it up for the recorded run, its initiator, and the checked fork."""
    record: ForkRecord = load_fork_record(messages)
    if not record.messages:
        raise ValueError(f"{function}: messages holds no message; a fork keeps the first at_round of a recorded run.")
    # Set up as the first run was: from its opening message (sent by the temporary user when it names nobody;
    # a ChatResult's history leaves that name out).
    opening = dict(record.messages[0])
    named = opening.get("name") not in (None, TEMP_USER_NAME)
    if not named:
        opening.pop("name", None)
    start = _GroupChatStart(pattern, [opening], max_rounds, *safeguards, function, transcript_path)
    initiator = start.opening(None)[0]
    if not named:
        record.messages[0]["name"] = initiator.name  # the replay needs the sender of every message
    return start, initiator, plan_fork(start.manager, record, at_round, **change)


def _outcome(start: _GroupChatStart, initiator: Any, pattern: Pattern) -> tuple[ChatResult, ContextVariables, Agent]:
    """What ``initiate_group_chat`` returns, for the forked chat (the initiator's history and summary)."""
    manager = start.manager
    return start.outcome(resume_result(manager, manager._chat_run, initiator, pattern.summary_method, None))


def fork_pattern_group_chat(
    pattern: Pattern,
    messages: Recorded,
    at_round: int,
    *,
    speaker: Any = None,
    message: Optional[Union[str, dict[str, Any]]] = None,
    context_variables: Optional[dict[str, Any]] = None,
    max_rounds: int = 20,
    safeguard_policy: Optional[Union[dict[str, Any], str]] = None,
    safeguard_llm_config: Optional[LLMConfig] = None,
    mask_llm_config: Optional[LLMConfig] = None,
    transcript_path: Optional[Union[str, os.PathLike[str]]] = None,
) -> tuple[ChatResult, ContextVariables, Agent]:
    """Start a new run of a pattern's chat from round ``at_round`` of a recorded one, with one thing changed.

    Args:
        pattern: the pattern of the recorded chat, built again the same way (agents, hand-offs, tools, initial
            context variables): the fork runs on its agents and its context variables.
        messages: the recorded run: a list (``groupchat.messages``, ``result.chat_history``,
            ``load_transcript(path)``), a JSON string, or the transcript file as a path (``Path("chat.jsonl")``):
            with its checkpoint, the context variables, a pending hand-off, counters, random state and round
            count at ``messages[at_round - 1]`` are restored, so the chat goes on exactly as the record did.
            Without a checkpoint the pattern's transition starts afresh after the replay (its initial agent
            first, nothing pending), as ``initiate_group_chat`` does when given several messages.
        at_round: how many recorded messages the fork keeps (the opening one included), 1 to ``len - 1``.
        speaker: the agent (or its name) who speaks at ``at_round`` instead of whoever the hand-offs chose;
            a restored pending hand-off is dropped for that round.
        message: the message said at ``at_round`` instead of the recorded one (by the recorded speaker, or by
            ``speaker``).
        context_variables: values set in the pattern's shared ``ContextVariables`` before ``at_round`` (after
            the checkpoint's are restored): "another context value".
        max_rounds: the most rounds of the chat, as given to the recorded chat (rounds count from its opening).
        safeguard_policy: as for ``initiate_group_chat``.
        safeguard_llm_config: as for ``initiate_group_chat``.
        mask_llm_config: as for ``initiate_group_chat``.
        transcript_path: a new file for the fork's transcript and checkpoint (not the record's); None: none.

    Returns:
        What ``initiate_group_chat`` returns: the chat result (the kept messages, then the fork's), the context
        variables, the last speaker.

    Raises:
        TypeError / ValueError: bad arguments, before the fork runs (see ``fork_group_chat``), a pattern that
            does not fit the record (an opening message naming no agent of the group).
    """
    change = dict(speaker=speaker, message=message, context_variables=context_variables)
    safeguards = (safeguard_policy, safeguard_llm_config, mask_llm_config)
    start, initiator, plan = _start(pattern, messages, at_round, change, max_rounds, safeguards, transcript_path,
                                    "fork_pattern_group_chat")
    start.manager._raise_exception_on_async_reply_functions()
    run_steps(fork_steps(start.manager, plan))
    return _outcome(start, initiator, pattern)


async def a_fork_pattern_group_chat(
    pattern: Pattern, messages: Recorded, at_round: int, **options: Any
) -> tuple[ChatResult, ContextVariables, Agent]:
    """(async) Fork a pattern's recorded chat on the async agent API; see :func:`fork_pattern_group_chat`.

    Args:
        options: the keyword arguments of :func:`fork_pattern_group_chat` (an unknown one is a ``TypeError``).
    """
    given = arguments_of(fork_pattern_group_chat, pattern, messages, at_round, **options)
    change = {key: given[key] for key in ("speaker", "message", "context_variables")}
    safeguards = (given["safeguard_policy"], given["safeguard_llm_config"], given["mask_llm_config"])
    start, initiator, plan = _start(pattern, messages, at_round, change, given["max_rounds"], safeguards,
                                    given["transcript_path"], "a_fork_pattern_group_chat")
    await a_run_steps(fork_steps(start.manager, plan))
    return _outcome(start, initiator, pattern)
