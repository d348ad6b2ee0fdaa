"""``GroupChatManager``: the agent that runs a ``GroupChat``.

Every message of the chat goes to the manager, which records it in the group
chat, forwards it to every other participant, decides whether the chat is over,
asks the group chat who speaks next and asks that agent for its reply. One round
is written once (``chat_rounds``) and driven by a sync or an async driver.
"""

from __future__ import annotations

import logging
import operator
import sys
from typing import Any, Callable, Generator, Literal, Optional, Union

from ...exception_utils import InvalidArgumentTypeError, NoEligibleSpeaker
from ...messages.agent_messages import GroupChatRunChatMessage
from ...messages.emit import emit
from ...messages.run_events import GroupChatEndMessage
from ..agent import Agent
from ...exception_utils import InvalidAttributeTypeError
from ..conversable.agent_args import printable_name, shown, warn_argument
from ..conversable_agent import ConversableAgent
from . import resume as resume_helpers
from .clear_history import apply_clear_history, parse_clear_history
from .group import GroupChat
from .steps import GenerateReply, SelectSpeaker, Send, Step, a_run_steps, run_steps

__all__ = ["GroupChatManager", "chat_rounds"]

logger = logging.getLogger(__name__)

_MISSING = object()


class GroupChatManager(ConversableAgent):
    """(In preview) A chat manager agent that can manage a group chat of multiple agents."""

    def __init__(
        self,
        groupchat: GroupChat,
        name: Optional[str] = "chat_manager",
        # unlimited consecutive auto reply by default
        max_consecutive_auto_reply: Optional[int] = sys.maxsize,
        human_input_mode: Literal["ALWAYS", "NEVER", "TERMINATE"] = "NEVER",
        system_message: Optional[Union[str, list[Any]]] = "Group chat manager.",
        silent: bool = False,
        **kwargs: Any,
    ) -> None:
        """
        Args:
            groupchat: the GroupChat to run. The manager works on this very object, so settings changed on it
                later (``max_round``, ``speaker_selection_method``, ...) apply to the next rounds.
            name: name of the manager.
            max_consecutive_auto_reply: the most auto replies in a row (default: unlimited).
            human_input_mode: "ALWAYS", "TERMINATE" or "NEVER" (default).
            system_message: system message of the manager.
            silent: do not print the messages of the chat nor the "Next speaker" lines.
            **kwargs: the other ``ConversableAgent`` arguments (``llm_config``, ``is_termination_msg``, ...).
                The manager's ``llm_config`` is used by "auto" speaker selection when the group chat has no
                ``select_speaker_auto_llm_config``; it must not hold "functions" or "tools".
        """
        if not isinstance(groupchat, GroupChat) and not hasattr(groupchat, "agents"):
            warn_argument(
                f"groupchat should be a GroupChat; got {shown(groupchat)}. It is kept as given, and a chat with "
                "this manager raises AttributeError."
            )
        llm_config = kwargs.get("llm_config")
        if isinstance(llm_config, dict) and (llm_config.get("functions") or llm_config.get("tools")):
            raise ValueError(
                "GroupChatManager is not allowed to make function/tool calls. Please remove the 'functions' or "
                "'tools' config in 'llm_config' you passed in."
            )
        super().__init__(
            name=name,  # type: ignore[arg-type]
            max_consecutive_auto_reply=max_consecutive_auto_reply,
            human_input_mode=human_input_mode,
            system_message=system_message,
            **kwargs,
        )
        self._groupchat = groupchat
        self._last_speaker: Optional[Agent] = None
        self._silent = silent
        self.end_reason: Optional[str] = None
        """Why the last group chat run by this manager ended (None before the first one)."""

        # Registered last = checked first: async chats take a_run_chat; sync chats skip it and take run_chat.
        self.register_reply(Agent, GroupChatManager.run_chat, config=groupchat, reset_config=GroupChat.reset)
        self.register_reply(
            Agent,
            GroupChatManager.a_run_chat,
            config=groupchat,
            reset_config=GroupChat.reset,
            ignore_async_in_sync_chat=True,
        )
        # register_reply keeps a shallow copy of its config; run on the live object instead so that settings
        # changed on the group chat after the manager was built take effect.
        for entry in self._reply_func_list:
            if entry["reply_func"] in (GroupChatManager.run_chat, GroupChatManager.a_run_chat):
                entry["config"] = groupchat

    # ----------------------------------------------------------------- state
    @property
    def groupchat(self) -> GroupChat:
        """Returns the group chat managed by the group chat manager."""
        return self._groupchat

    def _participants(self) -> Any:
        """The agents of the group chat; a clear AttributeError when ``groupchat`` is not a GroupChat."""
        agents = getattr(self._groupchat, "agents", _MISSING)
        if agents is _MISSING:
            raise InvalidAttributeTypeError(
                f"'{type(self._groupchat).__name__}' object has no attribute 'agents': the groupchat of "
                f"GroupChatManager {self.name!r} must be a GroupChat; got {shown(self._groupchat)}."
            )
        return agents

    @property
    def last_speaker(self) -> Optional[Agent]:
        """The agent who sent the last message to the manager.

        Every participant receives the chat's messages from the manager; a reply function of a participant
        can read ``sender.last_speaker`` to know who actually wrote the message.
        """
        return self._last_speaker

    @property
    def usage_clients(self) -> list[Any]:
        """Model clients whose usage counts in the cost of a chat with this manager.

        The speaker-selection client of the group chat and the clients of the participants (and of nested
        managers), so that ``ChatResult.cost`` covers the whole group chat.
        """
        clients: list[Any] = []
        selection_client = getattr(self._groupchat, "selection_client", None)
        if selection_client is not None:
            clients.append(selection_client)
        for agent in getattr(self._groupchat, "agents", None) or ():
            if agent is self:
                continue
            if getattr(agent, "client", None) is not None:
                clients.append(agent.client)  # type: ignore[attr-defined]
            clients.extend(getattr(agent, "usage_clients", None) or ())
        return clients

    def chat_messages_for_summary(self, agent: Agent) -> list[dict[str, Any]]:
        """The messages of the group chat, to summarize (``agent`` is ignored)."""
        return self._groupchat.messages

    def _prepare_chat(
        self,
        recipient: ConversableAgent,
        clear_history: bool,
        prepare_recipient: bool = True,
        reply_at_receive: bool = True,
    ) -> None:
        super()._prepare_chat(recipient, clear_history, prepare_recipient, reply_at_receive)
        participants = self._participants()
        if clear_history:
            self._groupchat.reset()
        for agent in participants:
            if (recipient != agent or prepare_recipient) and isinstance(agent, ConversableAgent):
                agent._prepare_chat(self, clear_history, False, reply_at_receive)

    def _raise_exception_on_async_reply_functions(self) -> None:
        """Raise RuntimeError if the manager or a participant has async reply functions (in a sync chat)."""
        super()._raise_exception_on_async_reply_functions()
        for agent in self._participants():
            check = getattr(agent, "_raise_exception_on_async_reply_functions", None)
            if check is not None and agent is not self:
                check()

    # ----------------------------------------------------------------- running
    def run_chat(
        self,
        messages: Optional[list[dict[str, Any]]] = None,
        sender: Optional[Agent] = None,
        config: Optional[GroupChat] = None,
    ) -> tuple[bool, Optional[str]]:
        """Run a group chat (a reply function: the chat starts from the last message of ``sender``).

        Args:
            messages: the conversation with ``sender`` (default: the stored one); its last message opens the chat.
            sender: the agent who sent that message; it is the first speaker.
            config: the GroupChat to run (default: the manager's own).
        """
        return run_steps(chat_rounds(self, _groupchat_of(self, config), messages, sender))

    async def a_run_chat(
        self,
        messages: Optional[list[dict[str, Any]]] = None,
        sender: Optional[Agent] = None,
        config: Optional[GroupChat] = None,
    ) -> tuple[bool, Optional[str]]:
        """(async) Run a group chat; same rounds as ``run_chat``, with the async agent API."""
        return await a_run_steps(chat_rounds(self, _groupchat_of(self, config), messages, sender))

    def clear_agents_history(self, reply: dict[str, Any], groupchat: GroupChat) -> str:
        """Clears history of messages for all agents or selected one. Can preserve selected number of last messages.

        Called when a reply contains the phrase "clear history" (with ``enable_clear_history``):
        "clear history" clears every agent and the group chat; "clear history <agent_name>" clears that agent;
        "clear history <nr_of_messages_to_preserve>" keeps the last n messages everywhere;
        "clear history <agent_name> <nr_of_messages_to_preserve>" keeps that agent's last n messages.

        Args:
            reply: the reply message dict that holds the command.
            groupchat: the GroupChat to clear.

        Returns:
            str: the reply content with the command and its arguments cut out (unchanged when it has no command).
        """
        content = reply.get("content")
        if not isinstance(content, str):
            raise TypeError(f"reply['content'] must be a str to hold a clear history command; got {content!r:.60}.")
        command = parse_clear_history(content, groupchat.agents)
        if command is None:
            return content
        apply_clear_history(command, reply, groupchat)
        return command.remaining_text

    # ----------------------------------------------------------------- resuming
    def resume(
        self,
        messages: Union[list[dict[str, Any]], str],
        remove_termination_string: Optional[Union[str, Callable[[str], str]]] = None,
        silent: Optional[bool] = False,
    ) -> tuple[ConversableAgent, dict[str, Any]]:
        """Resumes a group chat using the previous messages as a starting point.

        The agents, group chat and manager must be set up as for the original chat. Every message but the last
        is replayed into the group chat and the histories of the agents; continue the chat with
        ``last_agent.initiate_chat(manager, message=last_message, clear_history=False)``.

        Args:
            messages: the previous chat's messages, as a list of message dicts or a JSON string
                (``messages_to_string``).
            remove_termination_string: removed from the last message so that the chat does not end at once:
                a str is cut out of its content; a function receives the content and returns the new content.
            silent: (Experimental) do not print the summary line.

        Returns:
            tuple: the agent who sent the last message and that message.
        """
        return run_steps(resume_helpers.resume_steps(self, messages, remove_termination_string, silent))

    async def a_resume(
        self,
        messages: Union[list[dict[str, Any]], str],
        remove_termination_string: Optional[Union[str, Callable[[str], str]]] = None,
        silent: Optional[bool] = False,
    ) -> tuple[ConversableAgent, dict[str, Any]]:
        """(async) Resumes a group chat using the previous messages as a starting point; see ``resume``."""
        return await a_run_steps(resume_helpers.resume_steps(self, messages, remove_termination_string, silent))

    def messages_from_string(self, message_string: str) -> list[dict[str, Any]]:
        """Reads the saved state of messages in Json format for resume and returns as a messages list.

        Args:
            message_string: the JSON string made by ``messages_to_string``.

        Raises:
            ValueError: when ``message_string`` is not JSON or not a list of message dicts.
        """
        return resume_helpers.messages_from_string(message_string)

    def messages_to_string(self, messages: list[dict[str, Any]]) -> str:
        """Converts the provided messages into a Json string that can be used for resuming the chat.

        Args:
            messages: the messages to save (e.g. ``groupchat.messages``).
        """
        return resume_helpers.messages_to_string(messages)


def _groupchat_of(agent: Any, config: Any) -> Any:
    groupchat = config if config is not None else getattr(agent, "_groupchat", None)
    if groupchat is None:
        raise ValueError(
            "run_chat needs a GroupChat: register it with register_reply(..., config=groupchat) "
            "or use a GroupChatManager."
        )
    return groupchat


def _end(manager: Any, reason: str, *, show: bool) -> None:
    if isinstance(manager, GroupChatManager):
        manager.end_reason = reason
    messages = getattr(getattr(manager, "_groupchat", None), "messages", None)
    count = len(messages) if isinstance(messages, list) else 0
    logger.debug("Group chat of %s ended after %d messages: %s", getattr(manager, "name", None), count, reason)
    emit(GroupChatEndMessage, manager_name=str(getattr(manager, "name", "")), end_reason=reason, message_count=count,
         verbose=show)


def _clear_history_if_asked(manager: Any, groupchat: Any, reply: Any) -> Any:
    """Apply a "clear history" command found in ``reply`` and return the reply without it."""
    if not getattr(groupchat, "enable_clear_history", False):
        return reply
    as_dict = {"content": reply} if isinstance(reply, str) else reply
    content = as_dict.get("content") if isinstance(as_dict, dict) else None
    if not isinstance(content, str):
        return reply
    command = parse_clear_history(content, groupchat.agents)
    if command is None:
        return reply
    apply_clear_history(command, as_dict, groupchat)
    if isinstance(reply, str):
        return command.remaining_text
    return {**reply, "content": command.remaining_text}


def chat_rounds(
    manager: Any, groupchat: Any, messages: Optional[list[dict[str, Any]]], sender: Any
) -> Generator[Step, Any, tuple[bool, None]]:
    """The rounds of a group chat, as steps for ``run_steps`` / ``a_run_steps``.

    Each round: the message is appended to the group chat once and forwarded to every other participant; the
    chat ends on a termination message, at ``max_round``, when no speaker is eligible or when the speaker
    gives no reply; otherwise the next speaker is selected, announced, asked for its reply and sends it to the
    manager. ``manager`` may be a GroupChatManager or any ConversableAgent the reply function is registered on.
    """
    if messages is None:
        messages = manager._oai_messages[sender]
    message = messages[-1]
    speaker = sender
    silent = bool(getattr(manager, "_silent", False))
    is_manager = isinstance(manager, GroupChatManager)

    if getattr(groupchat, "send_introductions", False):
        # Sent to each participant only; not appended to groupchat.messages (as in the classic design).
        intro = groupchat.introductions_msg()
        for agent in groupchat.agents:
            yield Send(manager, intro, agent)

    cache = manager.client_cache
    if cache is not None:
        for agent in groupchat.agents:
            agent.previous_cache = agent.client_cache
            agent.client_cache = cache
    try:
        _check_max_round(groupchat.max_round)
        round_index = 0
        while round_index < groupchat.max_round:
            if is_manager:
                manager._last_speaker = speaker
            groupchat.append(message, speaker)
            for agent in list(groupchat.agents):
                if agent != speaker:
                    yield Send(manager, message, agent)
            if manager._is_termination_msg(message):
                _end(manager, f"{speaker.name} sent a termination message.", show=False)
                break
            # max_round is read every round: a change made during the chat applies at once.
            if round_index >= groupchat.max_round - 1:
                _end(manager, f"max_round ({groupchat.max_round}) reached.", show=False)
                break
            round_index += 1
            try:
                speaker = yield SelectSpeaker(groupchat, speaker, manager)
                if not silent:
                    emit(GroupChatRunChatMessage, speaker_name=printable_name(speaker, "speaker_name"), verbose=True)
                reply = yield GenerateReply(speaker, manager)
            except KeyboardInterrupt:
                admin = _admin_of(groupchat)
                if admin is None:
                    raise
                speaker = admin
                if not silent:
                    emit(GroupChatRunChatMessage, speaker_name=printable_name(speaker, "speaker_name"), verbose=True)
                reply = yield GenerateReply(speaker, manager)
            except NoEligibleSpeaker as e:
                _end(manager, str(e) or "No eligible speakers.", show=not silent)
                break
            if reply is None:
                _end(manager, f"{speaker.name} gave no reply.", show=False)
                break
            reply = _clear_history_if_asked(manager, groupchat, reply)
            yield Send(speaker, reply, manager, silent=silent)
            message = manager.last_message(speaker)
        else:
            _end(manager, f"max_round ({groupchat.max_round}) reached.", show=False)
    finally:
        if cache is not None:
            for agent in groupchat.agents:
                agent.client_cache = agent.previous_cache
                agent.previous_cache = None
    return True, None


def _check_max_round(max_round: Any) -> None:
    """Refuse a ``max_round`` that is not a whole number, when the chat starts (as the classic package did)."""
    try:
        operator.index(max_round)
    except TypeError:
        raise InvalidArgumentTypeError(
            f"'{type(max_round).__name__}' object cannot be interpreted as an integer: GroupChat max_round must "
            f"be an int >= 1 (the most rounds of the chat); got {shown(max_round)}."
        ) from None


def _admin_of(groupchat: Any) -> Any:
    """The participant named ``admin_name``, who takes over on Ctrl-C; None when there is none."""
    if groupchat.admin_name not in groupchat.agent_names:
        return None
    return groupchat.agent_by_name(groupchat.admin_name)
