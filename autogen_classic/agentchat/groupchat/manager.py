"""``GroupChatManager``: the agent that runs a ``GroupChat``.

Every message of the chat goes to the manager, which records it in the group
chat, forwards it to every other participant, decides whether the chat is over,
asks the group chat who speaks next and asks that agent for its reply. One round
is written once (``chat_rounds``) and driven by a sync or an async driver.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Literal, Optional, Union

from ...exception_utils import InvalidAttributeTypeError
from ..agent import Agent
from ..chat import ChatResult
from ..conversable.agent_args import shown, warn_argument
from ..conversable_agent import ConversableAgent
from ..termination import StopMessage
from . import resume as resume_helpers
from . import stepping
from .clear_history import apply_clear_history, parse_clear_history
from .group import GroupChat
from .rounds import ChatRun, chat_rounds
from .steps import a_run_steps, run_steps

__all__ = ["GroupChatManager", "chat_rounds"]

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
        self.stop_message: Optional[StopMessage] = None
        """The termination condition that ended the last chat, as data (None: it ended otherwise)."""
        self._chat_run: Optional[ChatRun] = None

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
        for condition in (getattr(self._groupchat, "termination", None), self._is_termination_msg):
            # A model-judged termination condition's calls are part of the chat's cost.
            clients.extend(getattr(condition, "usage_clients", None) or ())
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

    # ----------------------------------------------------------------- step by step
    def begin(
        self,
        sender: Agent,
        message: Union[str, dict[str, Any]],
        clear_history: bool = True,
        silent: bool = False,
    ) -> list[dict[str, Any]]:
        """Open a group chat to run step by step: ``sender`` sends the opening ``message`` (round 1).

        Nobody replies yet: go on with ``step()``, ``invoke(agent)`` or ``continue_chat()``.

        Args:
            sender: the agent opening the chat (e.g. the user proxy); it need not be a participant.
            message: the opening message (str or message dict).
            clear_history: forget the earlier messages of the group chat and the agents' histories first.
            silent: do not print the opening message.

        Returns:
            list: the messages appended to the group chat (the opening one).
        """
        sync_check = getattr(sender, "_raise_exception_on_async_reply_functions", None)
        self._raise_exception_on_async_reply_functions()
        if callable(sync_check):
            sync_check()
        return run_steps(stepping.begin_steps(self, sender, message, clear_history, silent))

    async def a_begin(
        self,
        sender: Agent,
        message: Union[str, dict[str, Any]],
        clear_history: bool = True,
        silent: bool = False,
    ) -> list[dict[str, Any]]:
        """(async) Open a group chat to run step by step; see ``begin``."""
        return await a_run_steps(stepping.begin_steps(self, sender, message, clear_history, silent))

    def step(self, rounds: Optional[int] = 1) -> list[dict[str, Any]]:
        """Run ``rounds`` more rounds of the chat (each: select a speaker, get its reply, publish it).

        The chat is the one opened by ``begin`` or run by ``initiate_chat`` (e.g. one that stopped at
        ``max_round``: raise ``groupchat.max_round`` and step on), or the group chat's messages (after
        ``resume``). Stops early when the chat ends.

        Args:
            rounds: how many rounds to run (default 1); None runs until the chat ends.

        Returns:
            list: the messages appended to the group chat by these rounds.

        Raises:
            GroupChatComplete: a termination condition ended the chat (``groupchat.is_complete``).
            ValueError: ``rounds`` is not an int >= 1, ``max_round`` was reached, or there is no chat to go on.
        """
        count = stepping.check_rounds(rounds)
        self._raise_exception_on_async_reply_functions()
        return run_steps(stepping.step_rounds(self, count))

    async def a_step(self, rounds: Optional[int] = 1) -> list[dict[str, Any]]:
        """(async) Run ``rounds`` more rounds of the chat; see ``step``."""
        return await a_run_steps(stepping.step_rounds(self, stepping.check_rounds(rounds)))

    def invoke(self, agent: Agent) -> Optional[dict[str, Any]]:
        """Let ``agent`` take exactly one turn, whoever selection would choose: its reply is published.

        Termination conditions and ``max_round`` apply as in any round.

        Returns:
            dict: the message ``agent`` added to the group chat (None when it gave no reply).

        Raises:
            ValueError: ``agent`` is not in the group chat.
            GroupChatComplete: a termination condition ended the chat.
        """
        stepping.check_invoked(self, agent)
        self._raise_exception_on_async_reply_functions()
        added = run_steps(stepping.step_rounds(self, 1, chosen=agent))
        return added[-1] if added else None

    async def a_invoke(self, agent: Agent) -> Optional[dict[str, Any]]:
        """(async) Let ``agent`` take exactly one turn; see ``invoke``."""
        stepping.check_invoked(self, agent)
        added = await a_run_steps(stepping.step_rounds(self, 1, chosen=agent))
        return added[-1] if added else None

    def continue_chat(self) -> ChatResult:
        """Run the chat to its end as a whole run would, and return its result (messages, cost, termination)."""
        self.step(None)
        return stepping.chat_result(self)

    async def a_continue_chat(self) -> ChatResult:
        """(async) Run the chat to its end; see ``continue_chat``."""
        await self.a_step(None)
        return stepping.chat_result(self)

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

    def _valid_resume_messages(self, messages: list[dict[str, Any]]) -> None:
        """Check that ``messages`` can resume this group chat (``resume`` calls it before changing anything).

        Raises:
            ValueError: no messages, a message without content or calls, or a speaker name that is neither a
                participant, the group chat's ``admin_name`` nor this manager's name (an ``Exception``, as the
                classic package raises).
            TypeError: a message's ``name`` is not a str.
        """
        resume_helpers.validate_resume_messages(messages, self._groupchat, self.name)

    def _process_resume_termination(
        self, remove_termination_string: Optional[Union[str, Callable[[str], str]]], messages: list[dict[str, Any]]
    ) -> None:
        """Remove ``remove_termination_string`` from the last message (a str is cut out; a function gets the
        content and returns the new one) and warn when the message still meets the termination condition
        (``resume`` calls it; a subclass may override it)."""
        resume_helpers.process_resume_termination(self, remove_termination_string, messages)

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
