"""``SocietyOfMindAgent``: an agent whose every reply is thought out by a group chat (its inner monologue).

On each request the agent replays the conversation so far into the group chat of its ``chat_manager``,
runs that chat from the latest message, then answers with a response prepared from the chat's messages:
by its model with the ``response_preparer`` prompt, by a ``response_preparer`` callable, or, without a
model, as the last message of the chat with "TERMINATE" cut out.

The model usage of the inner chat counts as this agent's usage (``usage_clients``, ``get_total_usage``),
so the ``ChatResult.cost`` of a chat with this agent covers the whole society.
"""

from __future__ import annotations

import copy
import inspect
import logging
from typing import Any, Callable, Literal, Optional, Union

from ...exception_utils import InvalidAttributeTypeError
from ...events.chat_events import ConversableAgentUsageSummaryEvent, ConversableAgentUsageSummaryNoCostIncurredEvent
from ...io.emit import emit
from ...oai.usage import gather_usage_summary, print_usage_summary
from ..agent import Agent
from ..conversable.agent_args import shown
from ..conversable_agent import ConversableAgent
from .group import GroupChat
from .manager import GroupChatManager

__all__ = ["SocietyOfMindAgent"]

logger = logging.getLogger(__name__)

Reply = Union[str, dict[str, Any], None]
ResponsePreparer = Callable[["SocietyOfMindAgent", list[dict[str, Any]]], Any]

# The prompts of the classic package, kept word for word: scripts and cached completions depend on them.
DEFAULT_RESPONSE_PREPARER = (
    "Output a standalone response to the original request, without mentioning any of the intermediate discussion."
)
TRANSCRIPT_INTRO = (
    "Earlier you were asked to fulfill a request. You and your team worked diligently to address that request. "
    "Here is a transcript of that conversation:"
)


class SocietyOfMindAgent(ConversableAgent):
    """An agent that answers by running a group chat and condensing it into one standalone response."""

    def __init__(
        self,
        name: str,
        chat_manager: Optional[GroupChatManager],
        response_preparer: Optional[Union[str, ResponsePreparer]] = None,
        is_termination_msg: Optional[Callable[[dict[str, Any]], bool]] = None,
        max_consecutive_auto_reply: Optional[int] = None,
        human_input_mode: Literal["ALWAYS", "NEVER", "TERMINATE"] = "TERMINATE",
        function_map: Optional[dict[str, Callable[..., Any]]] = None,
        code_execution_config: Union[dict[str, Any], Literal[False]] = False,
        llm_config: Optional[Union[dict[str, Any], Literal[False]]] = False,
        default_auto_reply: Optional[Union[str, dict[str, Any]]] = "",
        **kwargs: Any,
    ) -> None:
        """
        Args:
            name: name of the agent.
            chat_manager: the GroupChatManager whose group chat thinks out every reply (None: no inner
                monologue; the agent then gives ``default_auto_reply``).
            response_preparer: how the reply is made from the inner chat's messages: a prompt (str) for this
                agent's model, or ``f(agent, messages) -> reply``. Default: a prompt asking for a standalone
                response when the agent has a model; without one, the last inner message minus "TERMINATE".
            is_termination_msg: a function of a received message dict returning True when the chat should end.
            max_consecutive_auto_reply: the most auto replies in a row to one sender.
            human_input_mode: "ALWAYS", "TERMINATE" (default) or "NEVER".
            function_map: function name -> callable, for legacy function calls.
            code_execution_config: False (default) or a code execution config dict.
            llm_config: the model that prepares the response (default False: no model).
            default_auto_reply: the reply when no reply function produced one.
            **kwargs: the other ``ConversableAgent`` arguments (``description``, ``silent``, ...). There is
                no ``system_message``: the replies come from the inner chat.
        """
        if "system_message" in kwargs:
            raise TypeError(
                "SocietyOfMindAgent takes no system_message: its replies come from the group chat of "
                "chat_manager; to shape the final answer, pass response_preparer (a prompt or a callable)."
            )
        if response_preparer is not None and not isinstance(response_preparer, str) and not callable(response_preparer):
            raise TypeError(
                "response_preparer must be a prompt (str), a callable f(agent, messages) -> reply, or None for the "
                f"default prompt; got {shown(response_preparer)}."
            )
        super().__init__(
            name=name,
            system_message="",
            is_termination_msg=is_termination_msg,
            max_consecutive_auto_reply=max_consecutive_auto_reply,
            human_input_mode=human_input_mode,
            function_map=function_map,
            code_execution_config=code_execution_config,
            llm_config=llm_config,
            default_auto_reply=default_auto_reply,
            **kwargs,
        )
        self._chat_manager: Optional[GroupChatManager] = None
        self._group_chat: Optional[GroupChat] = None
        self.update_chat_manager(chat_manager)

        if isinstance(response_preparer, str) and self.client is None:
            raise ValueError(
                f"response_preparer is a prompt ({response_preparer!r:.60}) but SocietyOfMindAgent {name!r} has no "
                "model to run it: pass an llm_config, or a callable response_preparer f(agent, messages) -> reply, "
                "or leave it out to answer with the last message of the inner chat."
            )
        self.response_preparer: Any = self._preparer_for(response_preparer)

        # Only these reply functions, the last registered checked first: termination and human input,
        # legacy function calls, code blocks, then the inner monologue. Async chats use the async twins.
        self.register_reply([Agent, None], SocietyOfMindAgent.generate_inner_monologue_reply,
                            remove_other_reply_funcs=True)
        self.register_reply([Agent, None], SocietyOfMindAgent.a_generate_inner_monologue_reply,
                            ignore_async_in_sync_chat=True)
        self.register_reply([Agent, None], ConversableAgent.generate_code_execution_reply)
        self.register_reply([Agent, None], ConversableAgent.generate_function_call_reply)
        self.register_reply([Agent, None], ConversableAgent.a_generate_function_call_reply,
                            ignore_async_in_sync_chat=True)
        self.register_reply([Agent, None], ConversableAgent.check_termination_and_human_reply)
        self.register_reply([Agent, None], ConversableAgent.a_check_termination_and_human_reply,
                            ignore_async_in_sync_chat=True)

    def _preparer_for(self, response_preparer: Any) -> Any:
        """``response_preparer`` as a callable ``f(agent, messages)`` (a prompt goes to the model)."""
        if callable(response_preparer):
            return response_preparer
        if response_preparer is None and self.client is None:
            return _last_message_response
        prompt = DEFAULT_RESPONSE_PREPARER if response_preparer is None else response_preparer
        return _PromptPreparer(prompt)

    # ----------------------------------------------------------------- the inner chat
    @property
    def chat_manager(self) -> Optional[GroupChatManager]:
        """The GroupChatManager that runs the inner monologue (None when there is none)."""
        return self._chat_manager

    def update_chat_manager(self, chat_manager: Optional[GroupChatManager]) -> None:
        """Use another group chat for the inner monologue.

        Args:
            chat_manager: the GroupChatManager of the group chat, or None for no inner monologue.
        """
        if chat_manager is not None and not isinstance(chat_manager, GroupChatManager):
            raise InvalidAttributeTypeError(
                f"chat_manager of SocietyOfMindAgent {self.name!r} must be a GroupChatManager (or None); got "
                f"{shown(chat_manager)}. Build one with GroupChatManager(groupchat=GroupChat(agents=[...]), ...)."
            )
        self._chat_manager = chat_manager
        self._group_chat = None if chat_manager is None else chat_manager.groupchat

    def _opening(self, messages: Optional[list[dict[str, Any]]], sender: Optional[Agent]) -> Optional[dict[str, Any]]:
        """The inner chat's opening message, after ``_start_inner_chat``; None when there is nothing to answer."""
        if self._chat_manager is None:
            return None
        if messages is None:
            messages = self._oai_messages[sender]  # type: ignore[index]
        if not messages:
            return None
        return self._start_inner_chat(messages, sender)

    def _start_inner_chat(self, messages: list[dict[str, Any]], sender: Optional[Agent]) -> dict[str, Any]:
        """Reset the inner chat, give every participant the conversation so far; return the message to open with.

        Participants are reset as by ``reset()``, except that their model usage is kept: it counts in this
        agent's usage.
        """
        manager, groupchat = self._chat_manager, self._group_chat
        assert manager is not None and groupchat is not None  # checked by the callers
        _reset_keeping_usage(manager)
        for agent in groupchat.agents:
            if agent is not self and agent is not manager:
                _reset_keeping_usage(agent)
        earlier = [self._attributed(message, sender) for message in messages[:-1]]
        for message in earlier:
            for agent in groupchat.agents:
                if agent is not self and agent is not manager:
                    manager.send(message, agent, request_reply=False, silent=True)
        return copy.copy(messages[-1])

    def _attributed(self, message: dict[str, Any], sender: Optional[Agent]) -> dict[str, Any]:
        """A copy of ``message`` naming who wrote it, so that the participants can tell the speakers apart."""
        attributed = copy.copy(message)
        if attributed.get("name") is None:
            if attributed.get("role") == "assistant":
                attributed["name"] = self.name
            elif sender is not None:
                attributed["name"] = sender.name
            # Without a sender an unnamed message keeps the name the manager gives what it forwards.
        return attributed

    def _inner_chat_failed(self) -> None:
        # As in the classic package the reply is still prepared, from the messages the chat has so far.
        logger.exception(
            "The inner group chat of SocietyOfMindAgent %r failed; its response is prepared from the %d "
            "message(s) the chat has so far.", self.name, len(self._group_chat.messages if self._group_chat else []),
        )

    def generate_inner_monologue_reply(
        self,
        messages: Optional[list[dict[str, Any]]] = None,
        sender: Optional[Agent] = None,
        config: Optional[Any] = None,
    ) -> tuple[bool, Reply]:
        """Run the inner group chat on the conversation and reply with the prepared response.

        Args:
            messages: the conversation so far (default: the stored conversation with ``sender``); its last
                message opens the inner chat, the earlier ones are given to the participants as history.
            sender: the agent to reply to.
            config: unused.
        """
        opening = self._opening(messages, sender)
        if opening is None:
            return False, None
        kept_cache = self.previous_cache  # the inner chat lends caches too; the outer chat's must survive it
        try:
            self.initiate_chat(self._chat_manager, message=opening, clear_history=False)
        except Exception:
            self._inner_chat_failed()
        finally:
            self.previous_cache = kept_cache
        return True, self.response_preparer(self, self._group_chat.messages)  # type: ignore[union-attr]

    async def a_generate_inner_monologue_reply(
        self,
        messages: Optional[list[dict[str, Any]]] = None,
        sender: Optional[Agent] = None,
        config: Optional[Any] = None,
    ) -> tuple[bool, Reply]:
        """(async) Run the inner group chat without blocking the event loop; see ``generate_inner_monologue_reply``.

        A callable ``response_preparer`` may be async here.
        """
        opening = self._opening(messages, sender)
        if opening is None:
            return False, None
        kept_cache = self.previous_cache
        try:
            await self.a_initiate_chat(self._chat_manager, message=opening, clear_history=False)
        except Exception:
            self._inner_chat_failed()
        finally:
            self.previous_cache = kept_cache
        transcript = self._group_chat.messages  # type: ignore[union-attr]
        if isinstance(self.response_preparer, _PromptPreparer):
            return True, await self._a_llm_response_preparer(self.response_preparer.prompt, transcript)
        reply = self.response_preparer(self, transcript)
        return True, (await reply) if inspect.isawaitable(reply) else reply

    # ----------------------------------------------------------------- preparing the response
    def _preparer_request(self, prompt: str, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The model request: the transcript as user messages between the introduction and ``prompt``."""
        transcript = []
        for message in messages:
            # Calls and results become plain text, which any model accepts after a system message.
            entry: dict[str, Any] = {"content": message.get("content"), "role": "user"}
            if message.get("name") is not None:
                entry["name"] = message["name"]
            transcript.append(entry)
        return [{"role": "system", "content": TRANSCRIPT_INTRO}, *transcript, {"role": "system", "content": prompt}]

    def _llm_response_preparer(self, prompt: str, messages: list[dict[str, Any]]) -> Reply:
        """Ask this agent's model for the response, given the inner chat's ``messages`` and ``prompt``.

        Args:
            prompt: the instruction that follows the transcript.
            messages: the messages of the inner chat.
        """
        client = self._preparer_client()
        response = client.create(
            context=None, messages=self._preparer_request(prompt, messages), cache=self.client_cache, agent=self
        )
        return _as_reply(client.extract_text_or_completion_object(response)[0])

    async def _a_llm_response_preparer(self, prompt: str, messages: list[dict[str, Any]]) -> Reply:
        """(async) See ``_llm_response_preparer``."""
        client = self._preparer_client()
        response = await client.a_create(
            context=None, messages=self._preparer_request(prompt, messages), cache=self.client_cache, agent=self
        )
        return _as_reply(client.extract_text_or_completion_object(response)[0])

    def _preparer_client(self) -> Any:
        if self.client is None:
            raise ValueError(
                f"SocietyOfMindAgent {self.name!r} has no llm_config to prepare its response with a prompt: pass an "
                "llm_config, or a callable response_preparer f(agent, messages) -> reply."
            )
        return self.client

    # ----------------------------------------------------------------- usage
    @property
    def usage_clients(self) -> list[Any]:
        """Model clients whose usage counts as this agent's: the inner chat's (manager, selection, participants).

        ``gather_usage_summary`` reads them, so the ``ChatResult.cost`` of a chat with this agent includes the
        inner chat; a client reached twice is counted once.
        """
        manager = self._chat_manager
        if manager is None:
            return []
        clients = [] if manager.client is None else [manager.client]
        clients.extend(getattr(manager, "usage_clients", None) or ())
        return clients

    def _has_usage(self, attribute: str) -> bool:
        return any(
            getattr(client, attribute, None) for client in [self.client, *self.usage_clients] if client is not None
        )

    def get_actual_usage(self) -> Optional[dict[str, Any]]:
        """Usage without cache hits, of this agent's model and of its inner chat; None when there is none."""
        if not self._has_usage("actual_usage_summary"):
            return None
        return gather_usage_summary([self])["usage_excluding_cached_inference"]

    def get_total_usage(self) -> Optional[dict[str, Any]]:
        """Usage including cache hits, of this agent's model and of its inner chat; None when there is none."""
        if not self._has_usage("total_usage_summary"):
            return None
        return gather_usage_summary([self])["usage_including_cached_inference"]

    def print_usage_summary(self, mode: Union[str, list[str]] = ["actual", "total"]) -> None:  # noqa: B006
        """Print the model usage of this agent, its inner chat included."""
        if self.client is None and not self.usage_clients:
            emit(ConversableAgentUsageSummaryNoCostIncurredEvent, recipient=self.name)
            return
        emit(ConversableAgentUsageSummaryEvent, recipient=self.name)
        print_usage_summary(self.get_actual_usage(), self.get_total_usage(), mode)


class _PromptPreparer:
    """A prompt ``response_preparer``: the agent's model writes the response."""

    def __init__(self, prompt: str) -> None:
        self.prompt = prompt

    def __call__(self, agent: SocietyOfMindAgent, messages: list[dict[str, Any]]) -> Reply:
        return agent._llm_response_preparer(self.prompt, messages)

    def __repr__(self) -> str:
        return f"response_preparer(prompt={self.prompt!r})"


def _last_message_response(agent: SocietyOfMindAgent, messages: list[dict[str, Any]]) -> str:
    """Without a model: the last message of the inner chat, with "TERMINATE" cut out."""
    if not messages:
        return ""
    # The group chat keeps every content as text (a call without text reads "None", as in the classic package).
    return str(messages[-1].get("content")).replace("TERMINATE", "").strip()


def _as_reply(extracted: Any) -> Reply:
    if extracted is None or isinstance(extracted, (str, dict)):
        return extracted
    return extracted.model_dump() if hasattr(extracted, "model_dump") else extracted  # a call message object


def _reset_keeping_usage(agent: Any) -> None:
    """``agent.reset()``, keeping the usage recorded by its model client."""
    reset = getattr(agent, "reset", None)
    if reset is None:
        return
    client = getattr(agent, "client", None)
    if client is None:
        reset()
        return
    kept = (client.total_usage_summary, client.actual_usage_summary)
    reset()
    client.total_usage_summary, client.actual_usage_summary = kept
