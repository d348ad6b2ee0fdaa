"""Step-by-step group chats: open a chat, run N rounds, let one chosen agent speak once, carry on.

The manager's ``begin``, ``step``, ``invoke`` and ``continue_chat`` (and their ``a_`` twins) run the
generators of this module, built from the same two pieces as a whole run (:mod:`.rounds`), so stepping
through a chat gives what a whole run gives with the same selections. Between steps, read the state:
``groupchat.messages``, ``groupchat.selection_log``, ``groupchat.is_complete``, ``manager.end_reason``.
"""

from __future__ import annotations

import math
from typing import Any, Generator, Optional, Union

from ...oai.usage import gather_usage_summary
from ..chat import ChatResult
from ..conversable.agent_args import shown
from ..conversable.messages import message_to_dict
from .rounds import ChatRun, introductions, lent_cache, open_run, publish, take_turn
from .steps import Send, Step

__all__ = ["GroupChatComplete", "begin_steps", "chat_result", "check_invoked", "check_rounds", "step_rounds"]


class GroupChatComplete(RuntimeError):
    """A step was asked of a group chat that a termination condition ended (``groupchat.is_complete``)."""


def begin_steps(
    manager: Any, sender: Any, message: Union[str, dict[str, Any]], clear_history: bool, silent: bool
) -> Generator[Step, Any, list[dict[str, Any]]]:
    """Open a chat: ``sender`` sends the opening ``message`` to the manager, which publishes it (round 1).

    Returns the messages appended to the group chat (the opening one, unless ``max_round`` < 1).
    """
    if not callable(getattr(sender, "send", None)) or not hasattr(sender, "name"):
        raise TypeError(f"begin: sender must be an agent (e.g. a UserProxyAgent); got {shown(sender)}.")
    if not isinstance(message, (str, dict)):
        message = message_to_dict(message)
    groupchat = manager.groupchat
    prepare = getattr(sender, "_prepare_chat", None)
    if callable(prepare):
        prepare(manager, clear_history)
    else:
        manager._prepare_chat(sender, clear_history, prepare_recipient=False)
    yield Send(sender, message, manager, silent=silent)
    first = manager.last_message(sender)  # taken before the introductions, which the sender receives too
    yield from introductions(manager, groupchat)
    start = len(groupchat.messages)
    run = open_run(manager, groupchat, sender, first)
    manager._chat_run = run
    with lent_cache(manager, groupchat):
        yield from publish(run)
    return groupchat.messages[start:]


def _current_run(manager: Any, chosen: Any = None) -> Generator[Step, Any, ChatRun]:
    """The manager's run, or one continuing the group chat's messages (after ``resume``, or messages given
    with ``GroupChat(messages=[...])`` / ``groupchat.append``). ``chosen``: the agent about to be invoked, who
    may follow a last message of anyone."""
    run: Optional[ChatRun] = getattr(manager, "_chat_run", None)
    groupchat = manager.groupchat
    if run is not None and run.groupchat is groupchat and groupchat.messages:
        return run
    if not groupchat.messages:
        raise ValueError(
            f"The group chat of {manager.name!r} has no message to go on from: open it with "
            "manager.begin(sender, message) (or start it with sender.initiate_chat(manager, message=...))."
        )
    last = groupchat.messages[-1]
    speaker = groupchat.agent_by_name(last.get("name", "")) if isinstance(last.get("name"), str) else None
    if speaker is None and chosen is None:
        raise ValueError(
            f"The last message of the group chat of {manager.name!r} was sent by {last.get('name')!r}, who is not "
            "in the group chat: open the chat with manager.begin(sender, message), or name the next speaker "
            "with manager.invoke(agent)."
        )
    yield from _deliver_messages(manager, groupchat)
    run = open_run(manager, groupchat, speaker, last)
    run.published = True
    manager._chat_run = run
    return run


def _deliver_messages(manager: Any, groupchat: Any) -> Generator[Step, Any, None]:
    """Give the group chat's messages to every participant that has no conversation with the manager yet.

    Messages put in the group chat directly (``append``, ``GroupChat(messages=...)``) never reached the agents,
    who reply from their own conversation with the manager: each such agent gets them as a chat would have
    delivered them (its own as sent to the manager, the others' as received from it), after the introductions
    when ``send_introductions``. Agents that already hold a conversation (e.g. after ``resume``) keep it.
    """
    waiting = [
        agent for agent in groupchat.agents
        if agent is not manager and not (getattr(agent, "chat_messages", None) or {}).get(manager)
    ]
    if not waiting:
        return
    intro = groupchat.introductions_msg() if getattr(groupchat, "send_introductions", False) else None
    for agent in waiting:
        if intro is not None:
            yield Send(manager, intro, agent)
        for message in list(groupchat.messages):
            if message.get("name") == agent.name:
                yield Send(agent, dict(message), manager)
            else:
                yield Send(manager, dict(message), agent)


def _reopen(run: ChatRun) -> None:
    """Let an ended run go on, or say why it cannot."""
    groupchat = run.groupchat
    if groupchat.is_complete:
        raise GroupChatComplete(
            f"The group chat is complete: {run.end_reason or 'a termination condition fired'}. Call "
            "groupchat.reset() to start a new chat (or manager.begin(...)), or set groupchat.is_complete = False "
            "to go on with this one."
        )
    if not run.ended:
        return
    if run.stop is not None:
        # The person cleared is_complete to go on: the conditions start over, or they would fire at once.
        for condition in (getattr(groupchat, "termination", None), run.manager._is_termination_msg):
            reset = getattr(condition, "reset", None)
            if callable(reset) and hasattr(condition, "check"):
                reset()
    if run.rounds >= groupchat.max_round:
        raise ValueError(
            f"The group chat reached max_round ({groupchat.max_round}) after {run.rounds} rounds: raise "
            "groupchat.max_round to go on."
        )
    run.ended, run.end_reason, run.stop = False, None, None


def step_rounds(
    manager: Any, rounds: float, chosen: Any = None
) -> Generator[Step, Any, list[dict[str, Any]]]:
    """Run up to ``rounds`` rounds of the manager's chat (the first one by ``chosen`` when given).

    Returns the messages appended to the group chat.
    """
    run = yield from _current_run(manager, chosen)
    _reopen(run)
    groupchat = run.groupchat
    start = len(groupchat.messages)
    with lent_cache(manager, groupchat):
        if not run.published:
            yield from publish(run)
        done = 0
        while not run.ended and done < rounds:
            yield from take_turn(run, chosen if done == 0 else None)
            if not run.ended:
                yield from publish(run)
            done += 1
    return groupchat.messages[start:]


def check_rounds(rounds: Any) -> float:
    """``rounds`` as a count of rounds (``None``: until the chat ends)."""
    if rounds is None:
        return math.inf
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise ValueError(f"step: rounds must be an int >= 1 (the rounds to run) or None (until the end); got "
                         f"{shown(rounds)}.")
    return rounds


def check_invoked(manager: Any, agent: Any) -> None:
    """Refuse to invoke an agent that is not a participant of the manager's group chat."""
    agents = manager.groupchat.agents
    if not any(agent is a for a in agents):
        names = ", ".join(repr(getattr(a, "name", a)) for a in agents)
        raise ValueError(
            f"invoke: {getattr(agent, 'name', shown(agent))!r} is not in the group chat of {manager.name!r} "
            f"(its agents: {names}). Invoke one of them, or add the agent to GroupChat(agents=[...])."
        )


def chat_result(manager: Any) -> ChatResult:
    """The result of the manager's current chat: its messages, last message as summary, cost and stop."""
    run: Optional[ChatRun] = getattr(manager, "_chat_run", None)
    messages = list(manager.groupchat.messages)
    last = messages[-1].get("content") if messages else ""
    summary = last.replace("TERMINATE", "") if isinstance(last, str) else ""
    agents = [manager] + [a for a in manager.groupchat.agents if a is not manager]
    return ChatResult(
        chat_history=messages,
        summary=summary,
        cost=gather_usage_summary(agents),
        human_input=[],
    ).with_termination(None if run is None else run.stop)
