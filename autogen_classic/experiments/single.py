"""One chat of a study: the settings every chat shares (:class:`ChatSpec`) and running chat ``run``.

The same function runs a chat wherever it runs: one after another, many at once on asyncio, or inside
a Ray task on another machine. Everything it needs travels in the spec, whose ``make_groupchat``
builds the agents afresh for each chat. A factory returning a pattern (``DefaultPattern``, ...) gives a
chat of hand-offs, run by :mod:`.pattern_chat`; one returning a :class:`.fork_spec.GroupChatFork` gives a
fork of a recorded chat, run by ``fork_group_chat`` (``fork_pattern_group_chat`` for a pattern's). A factory
takes no argument, or one: ``run``, the index of the chat it builds.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from ..agentchat.conversable_agent import ConversableAgent
from ..agentchat.group.patterns.pattern import Pattern
from ..agentchat.groupchat import GroupChat, GroupChatManager
from ..agentchat.groupchat.fork import a_fork_group_chat, fork_group_chat
from .fork_spec import GroupChatFork
from .pattern_chat import PatternChat
from .records import ChatRecord, method_name, record_of_chat
from .usage import total_tokens, usage_clients

__all__ = ["ChatSpec", "PreparedChat", "StudySettingsError", "a_run_chat", "build", "factory_arity", "prepare",
           "run_chat"]

Factory = Callable[..., "GroupChat | GroupChatManager | Pattern | GroupChatFork"]


class StudySettingsError(ValueError):
    """A setting of the study does not fit what its factory returns: every chat would fail alike, so it is
    raised whatever ``on_error`` says."""


def factory_arity(factory: Any) -> int:
    """How many positional arguments ``factory`` requires (0, or 1: the chat's index ``run``).

    Raises:
        TypeError: it requires more than one (naming them).
    """
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):  # a callable without a signature (some builtins): called without arguments
        return 0
    required = [p.name for p in parameters
                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty]
    if len(required) > 1:
        raise TypeError(
            f"make_groupchat must take no argument, or one: run (the index of the chat it builds); it requires "
            f"{', '.join(required)}. Give the others defaults, or bind them with functools.partial."
        )
    return len(required)


def build(spec: ChatSpec, run: int) -> Any:
    """What the study's factory builds for chat ``run`` (it is given ``run`` when it takes an argument)."""
    factory = spec.make_groupchat
    return factory(run) if factory_arity(factory) else factory()


def _check_message(spec: ChatSpec, built: Any) -> None:
    """Refuse a study whose ``message``/``sender`` do not fit what the factory returned."""
    if isinstance(built, GroupChatFork):
        given = [name for name in ("message", "sender") if getattr(spec, name) is not None]
        if given:
            raise StudySettingsError(
                f"make_groupchat returned a GroupChatFork, so {' and '.join(given)} must be left out: a fork's "
                "opening message is the record's; a new message at at_round goes in GroupChatFork(message=...)."
            )
    elif spec.message is None:
        raise StudySettingsError(
            f"run_group_chats needs message= (the opening message of every chat): make_groupchat returned a "
            f"{type(built).__name__}. Only a factory returning GroupChatFork (forks of a recorded chat) goes without."
        )


@dataclass(frozen=True)
class ChatSpec:
    """The settings of every chat of a study (see ``run_group_chats`` for each argument)."""

    make_groupchat: Factory
    message: str | dict[str, Any] | list[dict[str, Any]] | None
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
    """Chat ``run`` of the study ``spec``, built and ready to start (:meth:`run` or :meth:`a_run`).

    With ``fork`` (what the factory returned), the chat is that fork of a recorded chat, on ``built`` (its
    ``chat``): it starts with ``fork_group_chat`` and its record is labelled with what the fork changed.
    """

    def __init__(self, spec: ChatSpec, run: int, built: Any = _UNBUILT, fork: GroupChatFork | None = None) -> None:
        self.spec, self.run_index, self.fork = spec, run, fork
        self.label = spec.label if fork is None else fork.record_label(spec.label)
        built = build(spec, run) if built is _UNBUILT else built
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
        return record_of_chat(self.run_index, self.label, self.groupchat, self.manager, tokens, text)

    def run(self) -> ChatRecord:
        """Run the chat; its record (a failed one when it raised and ``on_error`` is "record")."""
        spec, fork = self.spec, self.fork
        try:
            if fork is not None:
                fork_group_chat(self.manager, fork.messages, fork.at_round, **fork.changes())
            else:
                self.opener.initiate_chat(self.manager, message=spec.message, clear_history=True, silent=spec.silent)
        except Exception as exc:
            if spec.on_error == "raise":
                raise
            return self.record(exc)
        return self.record(None)

    async def a_run(self) -> ChatRecord:
        """(async) Run the chat on the async chat path; see :meth:`run`."""
        spec, fork = self.spec, self.fork
        try:
            if fork is not None:
                await a_fork_group_chat(self.manager, fork.messages, fork.at_round, **fork.changes())
            else:
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
    ``initiate_group_chat``; one returning a ``GroupChat`` or a manager, a :class:`PreparedChat`; a
    ``GroupChatFork`` gives either of them for its ``chat``, run as that fork.

    Raises:
        StudySettingsError: ``message`` missing for a new chat, or given for a fork (whatever ``on_error``).
    """
    try:
        built = build(spec, run)
        _check_message(spec, built)
        fork = built if isinstance(built, GroupChatFork) else None
        chat = built if fork is None else fork.chat
        if isinstance(chat, Pattern):
            return PatternChat(spec, run, chat, fork)
        return PreparedChat(spec, run, chat, fork)
    except StudySettingsError:
        raise
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
