"""A chat of a study that is a fork of a recorded one: :class:`GroupChatFork`, and what it changed (:func:`fork_label`).

A study's factory returns a ``GroupChatFork`` instead of a group chat or a pattern; the study then runs
``fork_group_chat`` (or ``fork_pattern_group_chat``) on the fork's freshly built chat instead of starting a
new chat, on every runner, and records it as any chat, labelled with what the fork changed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Optional, Union

from ..agentchat.group.patterns.pattern import Pattern
from ..agentchat.groupchat import GroupChat, GroupChatManager

__all__ = ["GroupChatFork", "fork_label"]

CHANGES = ("speaker", "message", "context_variables")


def _shown_speaker(speaker: Any) -> Any:
    return getattr(speaker, "name", speaker)


def fork_label(fork: dict[str, Any]) -> str:
    """What a fork changes, as its records' ``label``: ``"at_round=3 speaker=critic"``, ``"at_round=3"`` (none)."""
    parts = [f"at_round={fork['at_round']}"]
    if fork.get("speaker") is not None:
        parts.append(f"speaker={_shown_speaker(fork['speaker'])}")
    if fork.get("message") is not None:
        text = fork["message"] if isinstance(fork["message"], str) else fork["message"].get("content")
        parts.append(f"message={str(text)[:40]!r}")
    if fork.get("context_variables") is not None:
        parts.append(f"context_variables={fork['context_variables']!r}")
    return " ".join(parts)


@dataclass(frozen=True)
class GroupChatFork:
    """A fork of a recorded group chat, as a study's factory returns it (``run_group_chats``).

    Args:
        chat: the chat to fork onto, built fresh as for the record: a ``GroupChat`` (a manager is built for it,
            as for any chat of the study), a ``GroupChatManager``, or a pattern (``DefaultPattern``, ...: forked
            with ``fork_pattern_group_chat``, the study's ``max_rounds`` as its ``max_rounds``).
        messages: the recorded run: a list of messages, a JSON string, or the transcript file as a path
            (``Path("chat.jsonl")``; with its checkpoint the fork goes on from the record's state).
        at_round: how many recorded messages the fork keeps; the change decides ``messages[at_round]``.
        speaker: who speaks at ``at_round`` instead (a name: the agents are new for each chat).
        message: the message said at ``at_round`` instead (a str or a message dict).
        context_variables: values set in the context variables before ``at_round``.
        label: the records' label; None: what the fork changes (:func:`fork_label`). The study's ``label``,
            when given, comes first: ``"<study label> <fork label>"``.

    Raises:
        TypeError: a field of the wrong kind (the message names the field and what it takes).
    """

    chat: Union[GroupChat, GroupChatManager, Pattern]
    messages: Union[list[dict[str, Any]], str, "os.PathLike[str]"]
    at_round: int
    speaker: Optional[str] = None
    message: Optional[Union[str, dict[str, Any]]] = None
    context_variables: Optional[dict[str, Any]] = None
    label: Optional[str] = None

    def __post_init__(self) -> None:
        if not isinstance(self.chat, (GroupChat, GroupChatManager, Pattern)):
            raise TypeError(
                "GroupChatFork.chat must be the chat to fork onto, built fresh as for the record: a GroupChat, a "
                f"GroupChatManager or a Pattern; got {type(self.chat).__name__}."
            )
        if not isinstance(self.messages, (list, str, os.PathLike)):
            raise TypeError(
                "GroupChatFork.messages must be the recorded run: a list of messages, a JSON string, or the "
                f"transcript file as a path (Path('chat.jsonl')); got {type(self.messages).__name__}."
            )
        if isinstance(self.at_round, bool) or not isinstance(self.at_round, int):
            raise TypeError(f"GroupChatFork.at_round must be an int (how many recorded messages to keep); got "
                            f"{type(self.at_round).__name__}.")
        if self.label is not None and not isinstance(self.label, str):
            raise TypeError(f"GroupChatFork.label must be a str or None; got {type(self.label).__name__}.")

    def changes(self) -> dict[str, Any]:
        """The fork's change, as the keyword arguments of ``fork_group_chat`` (the ones given)."""
        return {key: getattr(self, key) for key in CHANGES if getattr(self, key) is not None}

    def record_label(self, study_label: Optional[str]) -> str:
        """The label of this fork's record: its own (or what it changes), after the study's label when given."""
        own = self.label if self.label is not None else fork_label({"at_round": self.at_round, **self.changes()})
        return own if study_label is None else f"{study_label} {own}"
