"""One chat of a study: the settings every chat shares (:class:`ChatSpec`) and running chat ``run``.

The same function runs a chat wherever it runs: one after another, many at once on asyncio, or inside
a Ray task on another machine. Everything it needs travels in the spec, whose ``make_groupchat``
builds the agents afresh for each chat. A factory returning a pattern (``DefaultPattern``, ...) gives a
chat of hand-offs, run by :mod:`.pattern_chat`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from ..agentchat.conversable_agent import ConversableAgent
from ..agentchat.group.patterns.pattern import Pattern
from ..agentchat.groupchat import GroupChat, GroupChatManager
from .pattern_chat import PatternChat
from .records import ChatRecord, method_name, record_of_chat
from .usage import total_tokens, usage_clients

__all__ = ["ChatSpec", "PreparedChat", "a_run_chat", "prepare", "run_chat"]


@dataclass(frozen=True)
class ChatSpec:
    """The settings of every chat of a study (see ``run_group_chats`` for each argument)."""

    make_groupchat: Callable[[], GroupChat | GroupChatManager | Pattern]
    message: str | dict[str, Any] | list[dict[str, Any]]
    sender: str | ConversableAgent | None = None
    speaker_selection_method: Any = None
    llm_config: dict[str, Any] | Literal[False] | None = None
    is_termination_msg: Callable[[dict[str, Any]], bool] | None = None
    seed: int | None = None
    label: str | None = None
    silent: bool = True
    on_error: Literal["raise", "record"] = "raise"
    max_rounds: int | None = None


def _build_manager(
    built: Any,
    llm_config: dict[str, Any] | Literal[False] | None,
    is_termination_msg: Callable[..., bool] | None,
    silent: bool,
) -> GroupChatManager:
    if isinstance(built, GroupChatManager):
        if llm_config is not None or is_termination_msg is not None:
            raise ValueError(
                "make_groupchat returned a GroupChatManager, so llm_config and is_termination_msg must be left out: "
                "set them on the manager it builds (or return the GroupChat instead)."
            )
        return built
    if not isinstance(built, GroupChat):
        raise TypeError(
            f"make_groupchat must return a GroupChat or a GroupChatManager; it returned {type(built).__name__}. "
            "(A factory of hand-off experiments returns a Pattern instead: DefaultPattern, AutoPattern, ...)"
        )
    return GroupChatManager(
        built,
        llm_config=False if llm_config is None else llm_config,
        is_termination_msg=is_termination_msg,
        silent=silent,
    )


def _opening_agent(groupchat: GroupChat, sender: str | ConversableAgent | None) -> ConversableAgent:
    if isinstance(sender, ConversableAgent):
        return sender
    if not groupchat.agents:
        raise ValueError("make_groupchat returned a GroupChat without agents; add at least two agents.")
    agent = groupchat.agents[0] if sender is None else groupchat.agent_by_name(sender)
    if agent is None:
        raise ValueError(
            f"sender {sender!r} is not an agent of the group chat; the agents are {groupchat.agent_names}."
        )
    if not isinstance(agent, ConversableAgent):
        raise TypeError(f"the opening agent {agent.name!r} must be a ConversableAgent to start a chat.")
    return agent


_UNBUILT: Any = object()


class PreparedChat:
    """Chat ``run`` of the study ``spec``, built and ready to start (:meth:`run` or :meth:`a_run`)."""

    def __init__(self, spec: ChatSpec, run: int, built: Any = _UNBUILT) -> None:
        self.spec, self.run_index = spec, run
        built = spec.make_groupchat() if built is _UNBUILT else built
        if spec.max_rounds is not None:
            raise ValueError(
                f"max_rounds={spec.max_rounds!r} is the length of a pattern's chat (initiate_group_chat's max_rounds), "
                f"but make_groupchat returned a {type(built).__name__}: leave max_rounds out and set the GroupChat's "
                "max_round, or return a pattern."
            )
        self.manager = _build_manager(built, spec.llm_config, spec.is_termination_msg, spec.silent)
        self.groupchat: GroupChat = self.manager.groupchat
        if spec.speaker_selection_method is not None:
            self.groupchat.speaker_selection_method = spec.speaker_selection_method
        if spec.seed is not None:
            # Each chat draws "random" selections from its own generator: the same seed gives the same
            # chat whatever runs beside it (it draws what random.seed(seed + run) would give).
            self.groupchat.random_source = random.Random(spec.seed + run)
        self.opener = _opening_agent(self.groupchat, spec.sender)
        self.clients = usage_clients(self.groupchat.agents, self.manager)
        self.before = total_tokens(self.clients)

    def agents(self) -> list[Any]:
        """Every agent this chat talks through: the opener, the manager and the group's agents."""
        return [self.opener, self.manager, *self.groupchat.agents]

    def record(self, error: BaseException | None) -> ChatRecord:
        text = None if error is None else f"{type(error).__name__}: {error}"
        tokens = total_tokens(self.clients) - self.before
        return record_of_chat(self.run_index, self.spec.label, self.groupchat, self.manager, tokens, text)

    def run(self) -> ChatRecord:
        """Run the chat; its record (a failed one when it raised and ``on_error`` is "record")."""
        spec = self.spec
        try:
            self.opener.initiate_chat(self.manager, message=spec.message, clear_history=True, silent=spec.silent)
        except Exception as exc:
            if spec.on_error == "raise":
                raise
            return self.record(exc)
        return self.record(None)

    async def a_run(self) -> ChatRecord:
        """(async) Run the chat on the async chat path; see :meth:`run`."""
        spec = self.spec
        try:
            await self.opener.a_initiate_chat(
                self.manager, message=spec.message, clear_history=True, silent=spec.silent
            )
        except Exception as exc:
            if spec.on_error == "raise":
                raise
            return self.record(exc)
        return self.record(None)


def failed_to_build(spec: ChatSpec, run: int, error: BaseException) -> ChatRecord:
    """The record of a chat whose group chat could not be built (``make_groupchat`` or the sender failed)."""
    method = spec.speaker_selection_method
    return ChatRecord(
        run=run, method=method_name(method) if method is not None else "unknown", label=spec.label, speakers=[],
        end_reason=None, error=f"{type(error).__name__}: {error}",
    )


def prepare(spec: ChatSpec, run: int) -> PreparedChat | PatternChat | ChatRecord:
    """Build chat ``run``; a failed record instead when building raised and ``on_error`` is "record".

    A factory returning a ``Pattern`` gives a :class:`.pattern_chat.PatternChat`, run with
    ``initiate_group_chat``; one returning a ``GroupChat`` or a manager, a :class:`PreparedChat`.
    """
    try:
        built = spec.make_groupchat()
        if isinstance(built, Pattern):
            return PatternChat(spec, run, built)
        return PreparedChat(spec, run, built)
    except Exception as exc:
        if spec.on_error == "raise":
            raise
        return failed_to_build(spec, run, exc)


def run_chat(spec: ChatSpec, run: int) -> ChatRecord:
    """Build and run chat ``run`` of the study ``spec``; return its record.

    With ``on_error="record"`` a chat that raises is returned as a failed record (its ``error`` and the
    transcript up to the failure); with "raise" the exception propagates.
    """
    chat = prepare(spec, run)
    return chat if isinstance(chat, ChatRecord) else chat.run()


async def a_run_chat(spec: ChatSpec, run: int) -> ChatRecord:
    """(async) Build and run chat ``run`` of the study ``spec`` on the async chat path; see :func:`run_chat`."""
    chat = prepare(spec, run)
    return chat if isinstance(chat, ChatRecord) else await chat.a_run()
