"""The turns of the "auto" selector's nested chat, without the message plumbing between its two agents.

In the nested chat a checking agent sends each prompt to the speaker selection agent, which replies
with the model, and the checking agent judges the answer. When nobody can observe the two agents
(nothing is printed or logged and neither has hooks or reply functions of its own), sending,
receiving and both agents' reply pipelines change nothing but two message lists that are thrown
away after the selection. :class:`DirectTurns` then runs the same turns directly: the selection
agent's conversation gets exactly the messages it would have received and sent, its message
transforms and its built-in reply functions (termination check, model call) answer each prompt
with the same arguments, and the judge reads the same last message. The model requests are
therefore the same, in the same order.

The turn logic is one generator of "call this reply function" steps; a sync driver calls the
built-in reply function, an async driver awaits its async twin, as the two reply pipelines do.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

from .... import runtime_logging
from ...agent import Agent
from ...conversable.builtin_replies import ASYNC_TWINS
from ...conversable.messages import invalid_message_error, message_to_dict, to_oai_message
from ...conversable.reply_pipeline import is_async_reply_function
from ...conversable_agent import ConversableAgent

__all__ = ["DirectTurns", "ReplyStep"]
# The selector's reply functions, in the order its sync pipeline checks them (all are built-ins).
_PIPELINE = (
    "check_termination_and_human_reply",
    "generate_function_call_reply",
    "generate_tool_calls_reply",
    "generate_oai_reply",
)
# These answer only a last message carrying a call: for any other they return (False, None).
_CALL_REPLIES = ("generate_function_call_reply", "generate_tool_calls_reply")
# The hooks the selector's message transforms register; any other hook means someone may observe.
_TRANSFORM_HOOKS = "process_all_messages_before_reply"

Judge = Callable[[ConversableAgent, list[dict[str, Any]], Any, Any], tuple[bool, Any]]


@dataclass
class ReplyStep:
    """A step of the direct turns: the selector's built-in reply function ``name`` (or, awaited, its
    async twin) on ``messages``; its ``(final, reply)`` is sent back (see ``groupchat.steps``)."""

    turns: DirectTurns
    name: str
    messages: list[dict[str, Any]]

    def run(self) -> tuple[bool, Any]:
        return self.turns.reply(self.name, self.messages)

    async def a_run(self) -> tuple[bool, Any]:
        return await self.turns.a_reply(self.name, self.messages)


def _prints(agent: ConversableAgent) -> bool:
    # An agent's own ``silent`` wins over the silent sends of the nested chat (ConversableAgent._is_silent).
    return agent.silent is not None and not agent.silent


def _stored(message: Any, role: str, default_name: str) -> dict[str, Any]:
    """``message`` as an agent stores it (``ConversableAgent._append_oai_message``); a sender's error if empty."""
    as_dict = message_to_dict(message)
    stored = to_oai_message(as_dict, role, default_name=default_name)
    if stored is None:
        # The sender stores a message before the recipient does, so the sender's error is the one raised.
        raise invalid_message_error(as_dict, received=False)
    return stored


def _is_builtin_pipeline(agent: ConversableAgent) -> bool:
    """Whether ``agent`` has exactly the built-in reply functions of a model agent, for any sender."""
    entries = agent._reply_func_list
    sync = [e for e in entries if not is_async_reply_function(e["reply_func"])]
    return (
        tuple(getattr(e["reply_func"], "__name__", "") for e in sync) == _PIPELINE
        and len(entries) == 2 * len(_PIPELINE)
        and all(
            e["reply_func"] is getattr(ConversableAgent, e["reply_func"].__name__, None)
            and e["trigger"] == [Agent, None]
            and e["config"] is None
            for e in entries
        )
    )


class DirectTurns:
    """The nested selection chat of one checking agent and one speaker selection agent, run directly.

    Args:
        checking: the checking agent (it sends the prompts and judges the answers).
        selector: the speaker selection agent (it answers with the model).
        judge: the checking agent's only reply function, ``judge(checking, messages, selector, config)``.
    """

    def __init__(self, checking: ConversableAgent, selector: ConversableAgent, judge: Judge) -> None:
        self.checking = checking
        self.selector = selector
        self._judge = judge
        # The reply functions both agents were built with: anything registered later may observe the chat.
        self._checking_replies = [entry["reply_func"] for entry in checking._reply_func_list]
        self._selector_replies = [entry["reply_func"] for entry in selector._reply_func_list]
        self._builtin = _is_builtin_pipeline(selector)

    def possible(self, verbose: bool, transforms: Any) -> bool:
        """Whether the nested chat may run directly: nothing prints, logs, or hooks into either agent.

        Args:
            verbose: the group's ``select_speaker_auto_verbose`` (the nested chat is printed).
            transforms: the message transforms attached to the selector (their hooks are expected).
        """
        if verbose or runtime_logging.is_logging or not self._builtin:
            return False
        checking, selector = self.checking, self.selector
        if _prints(checking) or _prints(selector):
            return False
        if [e["reply_func"] for e in checking._reply_func_list] != self._checking_replies:
            return False
        if [e["reply_func"] for e in selector._reply_func_list] != self._selector_replies:
            return False
        if any(checking.hook_lists.values()):
            return False
        for method, hooks in selector.hook_lists.items():
            if hooks and (
                method != _TRANSFORM_HOOKS
                or transforms is None
                or any(getattr(hook, "__self__", None) is not transforms for hook in hooks)
            ):
                return False
        return True

    def turns(self, start: Any, max_turns: int) -> Generator[ReplyStep, Any, None]:
        """The turns of ``checking_agent._run_turns(selector, start, max_turns, silent=True)``.

        Yields a :class:`ReplyStep` for each reply function the selector runs; the driver sends back
        its ``(final, reply)``. The chat must be prepared and the selector's conversation loaded, as
        for ``_run_turns``.
        """
        checking, selector = self.checking, self.selector
        conversation = selector.chat_messages[checking]
        message = start
        last: dict[str, Any] = {}  # the checking agent's last message: the one it judges
        for turn in range(max_turns):
            if turn:
                # The judge reads only the last message, and always answers finally (a follow-up
                # prompt, or None to end the chat), as the checking agent's only reply function.
                _, message = self._judge(checking, [last], selector, None)
            if message is None:
                return
            conversation.append(_stored(message, "user", checking.name))
            reply = yield from self._reply(conversation)
            if reply is None:
                # No answer (the selector stopped): the checking agent judges its own prompt.
                last = _stored(message, "assistant", checking.name)
            else:
                # The selector's copy of its answer; the checking agent's copy has the same content.
                last = _stored(reply, "assistant", selector.name)
                conversation.append(last)

    def _reply(self, conversation: list[dict[str, Any]]) -> Generator[ReplyStep, Any, Any]:
        """The selector's ``generate_reply(messages=conversation, sender=checking)``: transforms, then
        the first final answer of its reply functions (else its default auto reply)."""
        messages = self.selector.process_all_messages_before_reply(conversation)
        last = messages[-1]
        calls = last.get("function_call") or last.get("tool_calls")
        for name in _PIPELINE:
            if name in _CALL_REPLIES and not calls:
                continue
            final, reply = yield ReplyStep(self, name, messages)
            if final:
                return reply
        return self.selector._default_auto_reply

    def reply(self, name: str, messages: list[dict[str, Any]]) -> tuple[bool, Any]:
        """Run the selector's reply function ``name`` on ``messages`` (a :class:`ReplyStep`)."""
        return getattr(self.selector, name)(messages=messages, sender=self.checking)  # type: ignore[no-any-return]

    async def a_reply(self, name: str, messages: list[dict[str, Any]]) -> tuple[bool, Any]:
        """(async) Run the async twin of the selector's reply function ``name``, as ``a_generate_reply`` does."""
        return await getattr(self.selector, ASYNC_TWINS[name])(messages=messages, sender=self.checking)  # type: ignore[no-any-return]
