"""One chat of a study whose factory returns a pattern (``DefaultPattern``, ``AutoPattern``, ...).

The chat runs through ``initiate_group_chat`` / ``a_initiate_group_chat``: the pattern sets up the group
chat (tool executor, hand-off transition, context variables) and the chat runs on the one group chat
engine, as it does outside a study. Its record is read from the group chat the pattern set up, which the
engine links to every agent of the group (``agent._group_manager``), whether the chat ended or failed;
a chat whose pattern could not set it up (a bad pattern) is a record without speakers. A fork of a
pattern's recorded chat (a ``GroupChatFork`` whose ``chat`` is a pattern) runs through
``fork_pattern_group_chat`` / ``a_fork_pattern_group_chat`` instead, and is recorded the same way.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..agentchat.group.durable.fork_chat import a_fork_pattern_group_chat, fork_pattern_group_chat
from ..agentchat.group.multi_agent_chat import a_initiate_group_chat, initiate_group_chat
from ..agentchat.group.patterns.pattern import Pattern
from ..events.chat_events import SelectSpeakerEvent, SelectSpeakerInvalidInputEvent, SelectSpeakerTryCountExceededEvent
from ..io.base import IOStream
from ..messages.agent_messages import (
    SelectSpeakerInvalidInputMessage,
    SelectSpeakerMessage,
    SelectSpeakerTryCountExceededMessage,
)
from ..io.emit import send_to
from .records import ChatRecord, record_of_chat
from .usage import total_tokens, usage_clients

if TYPE_CHECKING:
    from .fork_spec import GroupChatFork
    from .single import ChatSpec

__all__ = ["PatternChat", "pattern_chat_settings_error"]

# Settings of a study that belong to a GroupChat (its manager, its opener, its method): a pattern sets
# these itself, so a study of patterns refuses them, naming where they go instead.
_NOT_FOR_PATTERNS = {
    "sender": "the pattern's user_agent (or a temporary user) sends the opening message; give a user_agent "
              "to the pattern, or messages whose first names its sender ('name')",
    "speaker_selection_method": "the pattern's hand-offs choose the speakers; use another pattern "
                                "(AutoPattern, RoundRobinPattern, RandomPattern, ManualPattern)",
    "llm_config": "give the manager's model to the pattern: group_manager_args={'llm_config': ...}",
    "is_termination_msg": "give it to the pattern: group_manager_args={'is_termination_msg': ...}",
}


def pattern_chat_settings_error(spec: ChatSpec, pattern: Pattern) -> ValueError | None:
    """The error for settings of ``spec`` a pattern's chat cannot take; None when there are none."""
    given = [name for name in _NOT_FOR_PATTERNS if getattr(spec, name) is not None]
    if not given:
        return None
    fixes = "; ".join(f"{name}: {_NOT_FOR_PATTERNS[name]}" for name in given)
    return ValueError(
        f"make_groupchat returned a {type(pattern).__name__}, so {', '.join(given)} must be left out ({fixes})."
    )


# What a person needs to answer a question of the chat (ManualPattern's list of speakers): never dropped.
_QUESTIONS = (
    SelectSpeakerEvent, SelectSpeakerInvalidInputEvent, SelectSpeakerTryCountExceededEvent,
    SelectSpeakerMessage, SelectSpeakerInvalidInputMessage, SelectSpeakerTryCountExceededMessage,
)


class _Quiet:
    """A stream that drops what the chat prints; questions to a person (and the speakers to choose from)
    still reach ``outer``."""

    def __init__(self, outer: IOStream) -> None:
        self._outer = outer

    def print(self, *objects: Any, sep: str = " ", end: str = "\n", flush: bool = False) -> None:
        return None

    def send(self, message: Any) -> None:
        if isinstance(message, _QUESTIONS):
            send_to(self._outer, message)

    def input(self, prompt: str = "", *, password: bool = False) -> Any:
        # Older streams take no `password`: pass it only when asked for one.
        return self._outer.input(prompt, password=True) if password else self._outer.input(prompt)


@contextlib.contextmanager
def _output(silent: bool) -> Iterator[None]:
    # initiate_group_chat prints the chat (it takes no `silent`): a silent study drops that output.
    if not silent:
        yield
        return
    with IOStream.set_default(_Quiet(IOStream.get_default())):  # type: ignore[arg-type]
        yield


def _opening_messages(message: Any) -> Any:
    """``message`` as ``initiate_group_chat`` takes it: a str, or a list of messages (a dict is one message)."""
    return [message] if isinstance(message, dict) else message


class PatternChat:
    """Chat ``run`` of the study ``spec``, whose factory returned ``pattern`` (or ``fork``, a fork onto it):
    ready to start.

    Raises:
        ValueError: the study gives settings a pattern sets itself (``sender``, ``llm_config``, ...).
    """

    def __init__(self, spec: ChatSpec, run: int, pattern: Pattern, fork: GroupChatFork | None = None) -> None:
        error = pattern_chat_settings_error(spec, pattern)
        if error is not None:
            raise error
        self.spec, self.run_index, self.pattern, self.fork = spec, run, pattern, fork
        self.label = spec.label if fork is None else fork.record_label(spec.label)
        if spec.seed is not None and getattr(pattern, "random_source", None) is None:
            # The chat's random draws come from its own generator: the same seed gives the same chat whatever
            # runs beside it (it draws what random.seed(seed + run) would give one after another).
            pattern.random_source = random.Random(spec.seed + run)
        self.members = [*pattern.agents, *([pattern.user_agent] if pattern.user_agent is not None else [])]
        self.clients = usage_clients(self.members)
        self.before = total_tokens(self.clients)
        self._earlier_manager = getattr(pattern.initial_agent, "_group_manager", None)
        self.context_variables: Any = pattern.context_variables

    def agents(self) -> list[Any]:
        """Every agent of the pattern (its user agent included): no other chat at once may talk through them."""
        return list(self.members)

    def _arguments(self) -> dict[str, Any]:
        arguments: dict[str, Any] = {}
        if self.spec.max_rounds is not None:
            arguments["max_rounds"] = self.spec.max_rounds  # else initiate_group_chat's own default
        if self.fork is None:
            arguments["messages"] = _opening_messages(self.spec.message)
        else:
            fork = self.fork
            arguments.update(messages=fork.messages, at_round=fork.at_round, **fork.changes())
        return arguments

    def record(self, error: BaseException | None) -> ChatRecord:
        """The chat's record (failed when ``error``), read from the group chat the pattern set up."""
        text = None if error is None else f"{type(error).__name__}: {error}"
        manager = getattr(self.pattern.initial_agent, "_group_manager", None)
        context = getattr(self.context_variables, "to_dict", dict)()
        if manager is None or manager is self._earlier_manager:  # the pattern did not set up a chat
            return ChatRecord(run=self.run_index, method=type(self.pattern).__name__, label=self.label,
                              speakers=[], end_reason=None, error=text, context_variables=context)
        groupchat = manager.groupchat
        # Setting up the chat may give an agent a new client (its hand-off tools): count the old ones too.
        clients = {id(c): c for c in [*self.clients, *usage_clients([*self.members, *groupchat.agents], manager)]}
        tokens = total_tokens(clients.values()) - self.before
        return record_of_chat(self.run_index, self.label, groupchat, manager, tokens, text, context)

    def run(self) -> ChatRecord:
        """Run the chat with ``initiate_group_chat``; its record (a failed one when it raised and errors are
        recorded)."""
        try:
            with _output(self.spec.silent):
                start = initiate_group_chat if self.fork is None else fork_pattern_group_chat
                _, self.context_variables, _ = start(self.pattern, **self._arguments())
        except Exception as exc:
            if self.spec.on_error == "raise":
                raise
            return self.record(exc)
        return self.record(None)

    async def a_run(self) -> ChatRecord:
        """(async) Run the chat with ``a_initiate_group_chat``; see :meth:`run`."""
        try:
            with _output(self.spec.silent):
                start = a_initiate_group_chat if self.fork is None else a_fork_pattern_group_chat
                _, self.context_variables, _ = await start(self.pattern, **self._arguments())
        except Exception as exc:
            if self.spec.on_error == "raise":
                raise
            return self.record(exc)
        return self.record(None)
