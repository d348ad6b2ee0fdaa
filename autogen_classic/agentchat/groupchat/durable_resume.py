"""Resume a group chat from its files in one call: ``resume_group_chat(manager)`` / ``a_resume_group_chat``.

In a new process, build the agents, the ``GroupChat`` (with the same ``transcript_path``) and the manager as
for the original chat, then call ``resume_group_chat(manager)``: the messages of the transcript are replayed
(``resume_steps``: the group chat and every agent's history, nothing written twice), the state of the last
message's checkpoint line is restored (:mod:`.durable.snapshot`), and the run goes on from the last message exactly
as the uninterrupted run went on from it (the same ``publish`` / ``take_turn`` rounds, the round count carried
over so ``max_round`` bounds the whole chat). It returns the ``ChatResult`` the original ``initiate_chat``
would have returned.
"""

from __future__ import annotations

from typing import Any, Callable, Generator, Optional, Union

from ...oai.usage import gather_usage_summary
from ..chat import ChatResult, summary_callable
from .durable.checkpoint_file import checkpoint_path, load_checkpoint
from .durable.snapshot import restore_state
from .selection.trace import SelectionRecord
from .resume import resume_steps
from .rounds import ChatRun, lent_cache, open_run, run_rounds
from .steps import Send, Step, a_run_steps, arguments_of, run_steps
from .transcript import load_transcript

__all__ = ["a_resume_group_chat", "reopen_run", "resume_group_chat", "resume_run_steps", "saved_round"]

SummaryMethod = Optional[Union[str, Callable[..., Any]]]


def _transcript_of(manager: Any, function: str) -> str:
    groupchat = getattr(manager, "groupchat", None)
    transcript = getattr(groupchat, "_transcript", None)
    if transcript is None:
        raise ValueError(
            f"{function} needs a group chat with a transcript: build the GroupChat with the transcript_path of the "
            "chat to resume (GroupChat(..., transcript_path='chat.jsonl')) and give its manager."
        )
    if transcript.closed:
        raise ValueError(f"{function}: transcript_path {transcript.path!r} was closed with close_transcript(); "
                         "build a new GroupChat with it.")
    return str(transcript.path)


def resume_run_steps(manager: Any, silent: bool, first_speaker: Any = None,
                     selection: Optional[list[Any]] = None) -> Generator[Step, Any, ChatRun]:
    """Steps that replay the transcript of ``manager``'s group chat, restore its checkpoint and run it to its end.

    ``first_speaker``: the agent whose turn comes next, already chosen (a chat parked at that agent's human
    reply), and ``selection`` the records of that choice (as dicts); None: the speaker selection chooses, as
    always.
    """
    groupchat = manager.groupchat
    path = _transcript_of(manager, "resume_group_chat")
    messages = load_transcript(path)
    if not messages:
        raise ValueError(
            f"transcript_path {path!r} holds no message: there is nothing to resume; start the chat with "
            "initiate_chat (it writes to the same file)."
        )
    checkpoint = load_checkpoint(checkpoint_path(path))
    state = checkpoint.state_at(len(messages) - 1)
    last_agent, last_message = yield from resume_steps(manager, messages, None, silent)
    if last_agent is None:
        raise ValueError(f"the last message of transcript_path {path!r} has no speaker of this group chat "
                         f"({last_message.get('name')!r}); it cannot be resumed from there.")
    # Without a checkpoint (a transcript written before checkpoints existed): one round per message.
    run = yield from reopen_run(manager, last_agent, last_message, state, checkpoint.path,
                                rounds=saved_round(state, len(messages)) - 1, silent=True)
    if selection:  # the choice made before the parked human turn, not made again
        groupchat.selection_log.extend(SelectionRecord.from_dict(record) for record in selection)
    with lent_cache(manager, groupchat):
        yield from run_rounds(run, first_speaker)
    return run


def saved_round(state: Optional[dict[str, Any]], default: int) -> int:
    """The rounds a checkpoint ``state`` counted (its message included); ``default`` when it has no count."""
    value = None if state is None else state.get("round")
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def reopen_run(manager: Any, last_agent: Any, last_message: dict[str, Any], state: Optional[dict[str, Any]],
               where: str, *, rounds: int, silent: bool) -> Generator[Step, Any, ChatRun]:
    """Steps that go on from a replay (``resume_steps``): restore ``state``, open the run that publishes the last message.

    Args:
        manager: the manager whose group chat holds the replayed messages (all but the last).
        last_agent, last_message: what ``resume_steps`` returned: the message to publish next and its speaker.
        state: a merged checkpoint state (``CheckpointFile.state_at``) to restore first; None restores nothing.
        where: the checkpoint file, named in errors.
        rounds: the rounds counted before ``last_message`` (``max_round`` bounds the whole chat).
        silent: do not show ``last_message`` as it reaches the manager.

    Returns:
        The run, not yet published: ``publish(run)`` appends and forwards the last message.
    """
    if state is not None:
        restore_state(state, manager, where)
    # The last message reaches the manager as its speaker sent it (no new chat: counters stay as restored);
    # publishing it writes nothing twice.
    if last_agent is not manager:
        yield Send(last_agent, last_message, manager, silent=silent)
    run = open_run(manager, manager.groupchat, last_agent, manager.last_message(last_agent) or last_message)
    run.rounds = rounds
    if state is not None and isinstance(state.get("usage_baseline"), dict):
        run.usage_baseline = dict(state["usage_baseline"])  # a token budget counts from the original start
    manager._chat_run = run
    return run


def resume_result(manager: Any, run: ChatRun, initiator: Any, summary_method: SummaryMethod,
            summary_args: Optional[dict[str, Any]]) -> ChatResult:
    """The ``ChatResult`` the initiator's ``initiate_chat`` returns (its history, summary and cost)."""
    groupchat = manager.groupchat
    if initiator is None:
        first_name = groupchat.messages[0].get("name") if groupchat.messages else None
        initiator = groupchat.agent_by_name(first_name) if isinstance(first_name, str) else None
    history = getattr(initiator, "chat_messages", {}).get(manager) if initiator is not None else None
    args = dict(summary_args or {})
    args.setdefault("cache", None)
    summary = "" if summary_method is None or initiator is None else summary_callable(summary_method)(
        initiator, manager, args)
    return ChatResult(
        chat_history=list(history) if history else list(groupchat.messages),
        summary=summary,
        cost=gather_usage_summary([a for a in (initiator, manager) if a is not None]),
        human_input=[],
    ).with_termination(run.stop)


def resume_group_chat(
    manager: Any,
    *,
    initiator: Any = None,
    summary_method: SummaryMethod = "last_msg",
    summary_args: Optional[dict[str, Any]] = None,
    silent: bool = True,
) -> ChatResult:
    """Resume a group chat from its ``transcript_path`` and checkpoint and run it to its end.

    Build the agents, the ``GroupChat`` (with the ``transcript_path`` of the interrupted chat) and the manager
    as for the original chat, then call this instead of ``initiate_chat``. The chat goes on as if it had
    never stopped: the same rounds, selections, context variables and auto-reply counts.

    Args:
        manager: the ``GroupChatManager`` of the rebuilt group chat.
        initiator: the agent that started the chat (its history and summary make the result); default: the
            participant that sent the first message.
        summary_method: as for ``initiate_chat`` ("last_msg", "reflection_with_llm", a callable, or None).
        summary_args: as for ``initiate_chat``.
        silent: do not print the replayed messages (the new ones are printed as in any chat).

    Returns:
        ChatResult: as the initiator's ``initiate_chat`` returns it.

    Raises:
        ValueError: the group chat has no ``transcript_path``, the file is empty, or a line of the transcript or
            of the checkpoint is corrupt (the message names the file and the line).
    """
    manager._raise_exception_on_async_reply_functions()
    run = run_steps(resume_run_steps(manager, silent))
    return resume_result(manager, run, initiator, summary_method, summary_args)


async def a_resume_group_chat(manager: Any, **options: Any) -> ChatResult:
    """(async) Resume a group chat from its ``transcript_path`` and checkpoint; see :func:`resume_group_chat`.

    Args:
        options: ``initiator``, ``summary_method``, ``summary_args`` and ``silent``, as for
            :func:`resume_group_chat` (an unknown keyword is a ``TypeError``).
    """
    given = arguments_of(resume_group_chat, manager, **options)
    run = await a_run_steps(resume_run_steps(manager, given["silent"]))
    return resume_result(manager, run, given["initiator"], given["summary_method"], given["summary_args"])
