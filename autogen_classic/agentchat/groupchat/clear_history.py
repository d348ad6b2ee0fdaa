"""The "clear history" command a participant may type into a group chat (``enable_clear_history``).

Forms, case-insensitive, anywhere in the reply (the last occurrence counts)::

    clear history                     every agent and the group chat forget everything
    clear history <agent_name>        that agent forgets everything
    clear history <n>                 everyone keeps only the last n messages
    clear history <agent_name> <n>    that agent keeps only its last n messages

The command words are cut out of the reply before it is passed on to the chat.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Optional, Sequence

from ...events.chat_events import ClearAgentsHistoryEvent
from ...io.emit import emit

__all__ = ["ClearHistoryCommand", "apply_clear_history", "clear_history_text", "parse_clear_history"]

logger = logging.getLogger(__name__)

_TRAILING_SIGNS = ".,;:!?"


@dataclass
class ClearHistoryCommand:
    """A parsed command: whom to clear (None: everyone), how many messages to keep, and the remaining text."""

    agent: Any
    nr_messages_to_preserve: Optional[int]
    remaining_text: str


def _as_number(word: str) -> Optional[int]:
    # "3" or "3." (a number followed by one sign, as people type at the end of a sentence)
    if word.isdigit():
        return int(word)
    if len(word) > 1 and word[:-1].isdigit():
        return int(word[:-1])
    return None


def _as_agent(word: str, agents: Sequence[Any]) -> Any:
    for agent in agents:
        if agent.name == word or agent.name == word[:-1]:
            return agent
    return None


def parse_clear_history(text: str, agents: Sequence[Any]) -> Optional[ClearHistoryCommand]:
    """Find the last "clear history" command in ``text``; None when there is none.

    Args:
        text: the content of a reply.
        agents: the participants, to recognise an agent name after the command.
    """
    words = text.split()
    starts = [
        i for i in range(len(words) - 1)
        if words[i].upper() == "CLEAR" and words[i + 1].upper().rstrip(_TRAILING_SIGNS) == "HISTORY"
    ]
    if not starts:
        return None
    start = starts[-1]
    agent: Any = None
    number: Optional[int] = None
    consumed = 2
    # Up to two arguments, each at most once; the first word that is neither ends the command.
    for word in words[start + 2 : start + 4]:
        if number is None and _as_number(word) is not None:
            number = _as_number(word)
        elif agent is None and _as_agent(word, agents) is not None:
            agent = _as_agent(word, agents)
        else:
            break
        consumed += 1
    remaining = " ".join(words[:start] + words[start + consumed :])
    return ClearHistoryCommand(agent=agent, nr_messages_to_preserve=number, remaining_text=remaining)


def clear_history_text(agent_name: Optional[str], nr_messages_to_preserve: Optional[int]) -> str:
    """The line printed when a history is cleared (the classic wording)."""
    who = agent_name if agent_name else "all agents"
    if nr_messages_to_preserve:
        return f"Clearing history for {who} except last {nr_messages_to_preserve} messages."
    return f"Clearing history for {who}."


def apply_clear_history(command: ClearHistoryCommand, reply: dict[str, Any], groupchat: Any) -> None:
    """Clear the histories ``command`` asks for.

    Args:
        command: the parsed command.
        reply: the reply that carried it (a tool response keeps its tool call).
        groupchat: the GroupChat whose messages and agents are cleared.
    """
    keep = command.nr_messages_to_preserve
    if "tool_responses" in reply and not keep:
        # A tool response without its tool call is rejected by the model API.
        keep = 1
        logger.warning(
            "The last tool call message will be saved to prevent errors caused by tool response without tool call."
        )
    emit(ClearAgentsHistoryEvent, agent=getattr(command.agent, "name", None), nr_events_to_preserve=keep)
    if command.agent is not None:
        command.agent.clear_history(nr_messages_to_preserve=keep)
        return
    kept = groupchat.messages[-keep:] if keep else []
    groupchat.messages.clear()
    groupchat.messages.extend(kept)
    for agent in groupchat.agents:
        agent.clear_history(nr_messages_to_preserve=keep)
