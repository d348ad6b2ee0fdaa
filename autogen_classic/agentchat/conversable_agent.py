"""``ConversableAgent``: one message list per peer, an ordered pipeline of reply functions, chat driving.

The pipeline is the heart of the classic design: ``generate_reply`` walks the
registered reply functions (the last registered first, unless a position was
given) and returns the first final reply. The built-in functions live in
:mod:`.builtin_replies`; tool registration in :mod:`.tool_registry`.
"""

from __future__ import annotations

import copy
import inspect
import re
import warnings
from collections import defaultdict
from typing import Any, Callable, Literal, Optional, Union

from ..exception_utils import SenderRequired
from ..io import IOStream, render
from . import builtin_replies as replies
from .agent import Agent
from .chat import ChatResult, a_initiate_chats, append_carryover, initiate_chats, summary_callable, validate_summary_method
from .human_reply import validate_human_input_mode
from .messages import invalid_message_error, message_to_dict, to_oai_message
from .nested_chats import register_nested_chats as _register_nested_chats
from .tool_registry import ToolRegistryMixin, assert_valid_name

__all__ = ["ConversableAgent", "reflection_with_llm_summary"]

ReplyFunction = Callable[..., tuple[bool, Union[str, dict[str, Any], None]]]
Trigger = Union[type, str, Agent, Callable[[Optional[Agent]], bool], list, None]

HOOKABLE_METHODS = (
    "process_last_received_message",
    "process_all_messages_before_reply",
    "process_message_before_send",
    "update_agent_state",
)


def _default_is_termination_msg(message: dict[str, Any]) -> bool:
    from ..coding.utils import content_str

    return content_str(message.get("content")) == "TERMINATE"


class ConversableAgent(ToolRegistryMixin):
    """A generic agent that can converse with others: by model, by code and tool execution, or by a human.

    Every reply passes through an ordered list of reply functions; by default they check termination and
    ask for human input, run function and tool calls, run code blocks (when enabled) and call the model.
    """

    DEFAULT_CONFIG: Union[dict[str, Any], Literal[False]] = False
    MAX_CONSECUTIVE_AUTO_REPLY = 100
    DEFAULT_SUMMARY_PROMPT = "Summarize the takeaway from the conversation. Do not add any introductory phrases."
    DEFAULT_SUMMARY_METHOD = "last_msg"

    llm_config: Union[dict[str, Any], Literal[False]]

    def __init__(
        self,
        name: str,
        system_message: Optional[Union[str, list[Any]]] = "You are a helpful AI Assistant.",
        is_termination_msg: Optional[Callable[[dict[str, Any]], bool]] = None,
        max_consecutive_auto_reply: Optional[int] = None,
        human_input_mode: Literal["ALWAYS", "NEVER", "TERMINATE"] = "TERMINATE",
        function_map: Optional[dict[str, Callable[..., Any]]] = None,
        code_execution_config: Union[dict[str, Any], Literal[False]] = False,
        llm_config: Optional[Union[dict[str, Any], Literal[False]]] = None,
        default_auto_reply: Union[str, dict[str, Any]] = "",
        description: Optional[str] = None,
        chat_messages: Optional[dict[Agent, list[dict[str, Any]]]] = None,
        silent: Optional[bool] = None,
        context_variables: Optional[dict[str, Any]] = None,
    ) -> None:
        """
        Args:
            name: name of the agent (no whitespace when it talks to OpenAI).
            system_message: system message for the model.
            is_termination_msg: a function of a received message dict returning True when the chat should end.
                Default: the content is exactly "TERMINATE".
            max_consecutive_auto_reply: the most auto replies in a row to one sender
                (default ``MAX_CONSECUTIVE_AUTO_REPLY`` = 100); 0 means never auto-reply.
            human_input_mode: "ALWAYS" (ask on every message), "TERMINATE" (ask on termination or when the
                auto-reply budget is spent) or "NEVER".
            function_map: function name -> callable, used for function calls and tool calls.
            code_execution_config: False to disable code execution, or a dict (``work_dir``, ``use_docker``,
                ``timeout``, ``last_n_messages``, or ``executor``).
            llm_config: the model configuration (a dict with ``config_list`` and request options), False to
                disable model replies, None for ``DEFAULT_CONFIG``.
            default_auto_reply: the reply when no reply function produced one.
            description: how others see this agent (default: the system message).
            chat_messages: earlier conversations to start from (peer -> list of messages).
            silent: when set, overrides the ``silent`` argument of sends (whether messages are printed).
            context_variables: shared variables for reply functions and tools.
        """
        if not isinstance(name, str) or not name:
            raise TypeError(f"name must be a non-empty str; got {name!r}.")
        if system_message is not None and not isinstance(system_message, (str, list)):
            raise TypeError(f"system_message must be a str or a list; got {type(system_message).__name__}.")
        if is_termination_msg is not None and not callable(is_termination_msg):
            raise TypeError("is_termination_msg must be a callable taking a message dict and returning a bool.")
        if max_consecutive_auto_reply is not None and (
            not isinstance(max_consecutive_auto_reply, int) or isinstance(max_consecutive_auto_reply, bool)
            or max_consecutive_auto_reply < 0
        ):
            raise ValueError(
                f"max_consecutive_auto_reply must be a non-negative int or None; got {max_consecutive_auto_reply!r}."
            )
        if not isinstance(default_auto_reply, (str, dict)):
            raise TypeError(f"default_auto_reply must be a str or a dict; got {type(default_auto_reply).__name__}.")

        self._name = name
        self._oai_messages: dict[Agent, list[dict[str, Any]]] = (
            defaultdict(list) if chat_messages is None else chat_messages
        )
        self._oai_system_message = [{"content": system_message, "role": "system"}]
        self._description = description if description is not None else system_message
        self._is_termination_msg = is_termination_msg or _default_is_termination_msg
        self.silent = silent
        self.human_input_mode = validate_human_input_mode(human_input_mode)
        self._max_consecutive_auto_reply = (
            self.MAX_CONSECUTIVE_AUTO_REPLY if max_consecutive_auto_reply is None else max_consecutive_auto_reply
        )
        self._consecutive_auto_reply_counter: dict[Optional[Agent], int] = defaultdict(int)
        self._max_consecutive_auto_reply_dict: dict[Optional[Agent], int] = defaultdict(self.max_consecutive_auto_reply)
        self._default_auto_reply = default_auto_reply
        self._reply_func_list: list[dict[str, Any]] = []
        self._human_input: list[str] = []
        self.reply_at_receive: dict[Agent, bool] = defaultdict(bool)
        self._context_variables = context_variables if context_variables is not None else {}
        self.client_cache: Any = None
        self.previous_cache: Any = None
        self.hook_lists: dict[str, list[Callable[..., Any]]] = {method: [] for method in HOOKABLE_METHODS}

        self._init_llm(llm_config)
        self._init_functions(function_map)
        self._validate_name_for_endpoint(name)

        from ..coding.reply import resolve_code_execution_config

        self._code_execution_config = resolve_code_execution_config(code_execution_config)

        # Registered last = checked first: termination/human input, function call, tool calls, code, model.
        self.register_reply([Agent, None], ConversableAgent.generate_oai_reply)
        self.register_reply([Agent, None], ConversableAgent.a_generate_oai_reply, ignore_async_in_sync_chat=True)
        if self._code_execution_config is not False:
            self.register_reply([Agent, None], ConversableAgent.generate_code_execution_reply)
        self.register_reply([Agent, None], ConversableAgent.generate_tool_calls_reply)
        self.register_reply([Agent, None], ConversableAgent.a_generate_tool_calls_reply, ignore_async_in_sync_chat=True)
        self.register_reply([Agent, None], ConversableAgent.generate_function_call_reply)
        self.register_reply(
            [Agent, None], ConversableAgent.a_generate_function_call_reply, ignore_async_in_sync_chat=True
        )
        self.register_reply([Agent, None], ConversableAgent.check_termination_and_human_reply)
        self.register_reply(
            [Agent, None], ConversableAgent.a_check_termination_and_human_reply, ignore_async_in_sync_chat=True
        )

    # ----------------------------------------------------------------- configuration
    def _init_llm(self, llm_config: Any) -> None:
        if llm_config is None:
            llm_config = self.DEFAULT_CONFIG
        if llm_config is not False and not isinstance(llm_config, dict):
            raise TypeError(
                f"llm_config must be a dict (with a 'config_list'), False (no model) or None; "
                f"got {type(llm_config).__name__}."
            )
        if isinstance(llm_config, dict):
            try:
                llm_config = copy.deepcopy(llm_config)
            except TypeError as e:
                raise TypeError(
                    "llm_config must be deep-copyable: implement __deepcopy__ for the objects it holds "
                    f"(for example an http client): {e}"
                ) from e
            if llm_config in ({}, {"config_list": []}, {"config_list": [{"model": ""}]}):
                raise ValueError(
                    "When using OpenAI or Azure OpenAI endpoints, specify a non-empty 'model' either in 'llm_config' "
                    "or in each config of 'config_list'."
                )
        self.llm_config = llm_config
        self.client = self._build_client()

    def _build_client(self) -> Any:
        if self.llm_config is False:
            return None
        from ..oai.client import OpenAIWrapper

        return OpenAIWrapper(**self.llm_config)

    def _validate_name_for_endpoint(self, name: str) -> None:
        config_list = self.llm_config.get("config_list") if isinstance(self.llm_config, dict) else None
        if not config_list:
            return
        first = config_list[0] if isinstance(config_list[0], dict) else {}
        if first.get("api_type", "openai") != "openai":
            return
        if re.search(r"\s", name):
            raise ValueError(f"The name of the agent cannot contain any whitespace. The name provided is: '{name}'")

    # ----------------------------------------------------------------- properties
    @property
    def name(self) -> str:
        """The name of the agent."""
        return self._name

    @property
    def description(self) -> str:
        """How other agents (e.g. a group chat manager) see this agent."""
        return self._description  # type: ignore[return-value]

    @description.setter
    def description(self, description: str) -> None:
        self._description = description

    @property
    def system_message(self) -> str:
        """The system message of this agent."""
        return self._oai_system_message[0]["content"]  # type: ignore[no-any-return]

    def update_system_message(self, system_message: str) -> None:
        """Replace the system message used for model replies."""
        self._oai_system_message[0]["content"] = system_message

    @property
    def chat_messages(self) -> dict[Agent, list[dict[str, Any]]]:
        """Conversations of this agent: peer -> list of messages."""
        return self._oai_messages

    def chat_messages_for_summary(self, agent: Agent) -> list[dict[str, Any]]:
        """The conversation with ``agent`` to summarize."""
        return self._oai_messages[agent]

    @property
    def use_docker(self) -> Union[bool, str, None]:
        """Whether (or which image) code runs in Docker; None when code execution is disabled."""
        return None if self._code_execution_config is False else self._code_execution_config.get("use_docker")

    @property
    def code_executor(self) -> Any:
        """The code executor given as ``code_execution_config["executor"]``, if any."""
        return None if self._code_execution_config is False else self._code_execution_config.get("executor")

    def get_context(self, key: str, default: Any = None) -> Any:
        """A context variable (``context_variables``)."""
        return self._context_variables.get(key, default)

    def set_context(self, key: str, value: Any) -> None:
        """Set a context variable."""
        self._context_variables[key] = value

    def update_context(self, context_variables: dict[str, Any]) -> None:
        """Set several context variables."""
        self._context_variables.update(context_variables)

    def pop_context(self, key: str, default: Any = None) -> Any:
        """Remove a context variable and return its value."""
        return self._context_variables.pop(key, default)

    def max_consecutive_auto_reply(self, sender: Optional[Agent] = None) -> int:
        """The most auto replies in a row (to ``sender``, when given)."""
        return self._max_consecutive_auto_reply if sender is None else self._max_consecutive_auto_reply_dict[sender]

    def update_max_consecutive_auto_reply(self, value: int, sender: Optional[Agent] = None) -> None:
        """Change the auto-reply budget, for every sender or for one."""
        if sender is None:
            self._max_consecutive_auto_reply = value
            for key in self._max_consecutive_auto_reply_dict:
                self._max_consecutive_auto_reply_dict[key] = value
        else:
            self._max_consecutive_auto_reply_dict[sender] = value

    def last_message(self, agent: Optional[Agent] = None) -> Optional[dict[str, Any]]:
        """The last message exchanged with ``agent`` (or in the only conversation when ``agent`` is None)."""
        if agent is None:
            if not self._oai_messages:
                return None
            if len(self._oai_messages) == 1:
                conversation = next(iter(self._oai_messages.values()))
                return conversation[-1] if conversation else None
            raise ValueError("More than one conversation is found. Please specify the sender to get the last message.")
        if agent not in self._oai_messages:
            raise KeyError(
                f"The agent '{agent.name}' is not present in any conversation. No history available for this agent."
            )
        return self._oai_messages[agent][-1]

    # ----------------------------------------------------------------- reply pipeline
    def register_reply(
        self,
        trigger: Trigger,
        reply_func: ReplyFunction,
        position: int = 0,
        config: Optional[Any] = None,
        reset_config: Optional[Callable[[Any], None]] = None,
        *,
        ignore_async_in_sync_chat: bool = False,
        remove_other_reply_funcs: bool = False,
    ) -> None:
        """Register a reply function, checked when ``trigger`` matches the sender.

        Args:
            trigger: an Agent class, an agent name, an agent, a callable of the sender returning bool, None
                (matches when there is no sender) or a list of these.
            reply_func: ``reply_func(recipient, messages, sender, config) -> (final, reply)``; sync or async.
            position: where to insert it; 0 (default) means it is checked before those registered earlier.
            config: passed to ``reply_func``; a copy is restored by ``reset()``.
            reset_config: called with the config on ``reset()`` instead of restoring the copy.
            ignore_async_in_sync_chat: skip this async function in sync chats instead of raising.
            remove_other_reply_funcs: remove every other reply function first.
        """
        if not isinstance(trigger, (type, str, Agent, list)) and not callable(trigger) and trigger is not None:
            raise ValueError("trigger must be a class, a string, an agent, a callable or a list.")
        if not callable(reply_func):
            raise TypeError(f"reply_func must be callable; got {type(reply_func).__name__}.")
        if not isinstance(position, int):
            raise TypeError(f"position must be an int; got {type(position).__name__}.")
        if remove_other_reply_funcs:
            self._reply_func_list.clear()
        self._reply_func_list.insert(
            position,
            {
                "trigger": trigger,
                "reply_func": reply_func,
                "config": copy.copy(config),
                "init_config": config,
                "reset_config": reset_config,
                "ignore_async_in_sync_chat": ignore_async_in_sync_chat and inspect.iscoroutinefunction(reply_func),
            },
        )

    def replace_reply_func(self, old_reply_func: ReplyFunction, new_reply_func: ReplyFunction) -> None:
        """Replace a registered reply function."""
        for entry in self._reply_func_list:
            if entry["reply_func"] == old_reply_func:
                entry["reply_func"] = new_reply_func

    def register_nested_chats(
        self,
        chat_queue: list[dict[str, Any]],
        trigger: Trigger,
        reply_func_from_nested_chats: Union[str, Callable[..., Any]] = "summary_from_nested_chats",
        position: int = 2,
        use_async: Optional[bool] = None,
        **kwargs: Any,
    ) -> None:
        """Reply to ``trigger`` by running the chats of ``chat_queue`` and answering with the last summary.

        Args:
            chat_queue: the chats to run (``initiate_chats`` entries; the sender defaults to this agent and the
                first chat's message defaults to the last received message).
            trigger: see ``register_reply``.
            reply_func_from_nested_chats: "summary_from_nested_chats" or
                ``f(chat_queue, recipient, messages, sender, config) -> (final, reply)``.
            position: default 2: after the termination and human-input check.
            use_async: run the nested chats with ``a_initiate_chats`` (each needs a ``chat_id``).
        """
        _register_nested_chats(self, chat_queue, trigger, reply_func_from_nested_chats, position, use_async, **kwargs)

    def register_hook(self, hookable_method: str, hook: Callable[..., Any]) -> None:
        """Register a hook for one of ``process_last_received_message``, ``process_all_messages_before_reply``,
        ``process_message_before_send`` or ``update_agent_state``."""
        if hookable_method not in self.hook_lists:
            raise ValueError(f"{hookable_method} is not a hookable method; choose one of {list(self.hook_lists)}.")
        if hook in self.hook_lists[hookable_method]:
            raise ValueError(f"{hook} is already registered as a hook.")
        self.hook_lists[hookable_method].append(hook)

    def _match_trigger(self, trigger: Trigger, sender: Optional[Agent]) -> bool:
        if trigger is None:
            return sender is None
        if isinstance(trigger, str):
            if sender is None:
                raise SenderRequired()
            return trigger == sender.name
        if isinstance(trigger, type):
            return isinstance(sender, trigger)
        if isinstance(trigger, list):
            return any(self._match_trigger(t, sender) for t in trigger)
        if isinstance(trigger, Agent):
            return trigger == sender
        if callable(trigger):
            result = trigger(sender)
            if not isinstance(result, bool):
                raise TypeError(f"trigger {trigger} must return a boolean value.")
            return result
        raise ValueError(f"Unsupported trigger type: {type(trigger)}")

    def _prepare_messages_for_reply(self, messages: Optional[list[dict[str, Any]]], sender: Optional[Agent]) -> list:
        if messages is None and sender is None:
            raise AssertionError(f"Either messages={messages} or sender={sender} must be provided.")
        if messages is None:
            messages = self._oai_messages[sender]  # type: ignore[index]
        for hook in self.hook_lists["update_agent_state"]:
            hook(self, messages)
        messages = self.process_last_received_message(messages)
        return self.process_all_messages_before_reply(messages)

    def generate_reply(
        self, messages: Optional[list[dict[str, Any]]] = None, sender: Optional[Agent] = None, **kwargs: Any
    ) -> Union[str, dict[str, Any], None]:
        """Reply to ``sender`` with the first final reply of the reply functions (async ones are skipped).

        Args:
            messages: the conversation so far (default: the stored conversation with ``sender``).
            sender: the agent to reply to.
            exclude: (keyword) reply functions to skip.
        """
        messages = self._prepare_messages_for_reply(messages, sender)
        exclude = kwargs.get("exclude", ())
        for entry in list(self._reply_func_list):
            reply_func = entry["reply_func"]
            if reply_func in exclude or inspect.iscoroutinefunction(reply_func):
                continue
            if self._match_trigger(entry["trigger"], sender):
                final, reply = reply_func(self, messages=messages, sender=sender, config=entry["config"])
                if final:
                    return reply
        return self._default_auto_reply

    async def a_generate_reply(
        self, messages: Optional[list[dict[str, Any]]] = None, sender: Optional[Agent] = None, **kwargs: Any
    ) -> Union[str, dict[str, Any], None]:
        """(async) Like ``generate_reply``; async reply functions are awaited, and a built-in sync reply
        function whose async twin is registered is not run a second time."""
        messages = self._prepare_messages_for_reply(messages, sender)
        exclude = kwargs.get("exclude", ())
        registered = {entry["reply_func"] for entry in self._reply_func_list}
        for entry in list(self._reply_func_list):
            reply_func = entry["reply_func"]
            if reply_func in exclude:
                continue
            twin = replies.ASYNC_TWINS.get(getattr(reply_func, "__name__", ""))
            if twin is not None and getattr(ConversableAgent, twin) in registered and \
                    reply_func is getattr(ConversableAgent, reply_func.__name__, None):
                continue
            if self._match_trigger(entry["trigger"], sender):
                if inspect.iscoroutinefunction(reply_func):
                    final, reply = await reply_func(self, messages=messages, sender=sender, config=entry["config"])
                else:
                    final, reply = reply_func(self, messages=messages, sender=sender, config=entry["config"])
                if final:
                    return reply
        return self._default_auto_reply

    # The built-in reply functions (bodies in builtin_replies.py).
    generate_oai_reply = replies.generate_oai_reply
    a_generate_oai_reply = replies.a_generate_oai_reply
    generate_code_execution_reply = replies.generate_code_execution_reply
    generate_function_call_reply = replies.generate_function_call_reply
    a_generate_function_call_reply = replies.a_generate_function_call_reply
    generate_tool_calls_reply = replies.generate_tool_calls_reply
    a_generate_tool_calls_reply = replies.a_generate_tool_calls_reply
    check_termination_and_human_reply = replies.check_termination_and_human_reply
    a_check_termination_and_human_reply = replies.a_check_termination_and_human_reply
    _generate_oai_reply_from_client = replies.generate_oai_reply_from_client

    # ----------------------------------------------------------------- hooks
    def process_last_received_message(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Let hooks rewrite the text of the last received message (on a copy of the list)."""
        hooks = self.hook_lists["process_last_received_message"]
        if not hooks or not messages:
            return messages
        last = messages[-1]
        if last.get("function_call") or last.get("tool_calls") or not isinstance(last.get("content"), str):
            return messages
        if last["content"] == "exit":
            return messages
        content = last["content"]
        for hook in hooks:
            content = hook(content)
        if content == last["content"]:
            return messages
        return messages[:-1] + [{**last, "content": content}]

    def process_all_messages_before_reply(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Let hooks transform the whole message list before a reply is generated."""
        for hook in self.hook_lists["process_all_messages_before_reply"]:
            messages = hook(messages)
        return messages

    def _process_message_before_send(self, message: Any, recipient: Agent, silent: bool) -> Any:
        for hook in self.hook_lists["process_message_before_send"]:
            message = hook(sender=self, message=message, recipient=recipient, silent=silent)
        return message

    # ----------------------------------------------------------------- sending and receiving
    @staticmethod
    def _is_silent(agent: Any, silent: Optional[bool] = False) -> bool:
        own = getattr(agent, "silent", None)
        return bool(own) if own is not None else bool(silent)

    _message_to_dict = staticmethod(message_to_dict)
    _assert_valid_name = staticmethod(assert_valid_name)

    @staticmethod
    def _normalize_name(name: str) -> str:
        return re.sub(r"[^a-zA-Z0-9_-]", "_", name)[:64]

    def _append_oai_message(
        self, message: Union[dict[str, Any], str], role: str, conversation_id: Agent, is_sending: bool
    ) -> bool:
        oai_message = to_oai_message(
            message_to_dict(message), role, default_name=self.name if is_sending else conversation_id.name
        )
        if oai_message is None:
            return False
        self._oai_messages[conversation_id].append(oai_message)
        return True

    def _store_sent(self, message: Any, recipient: Agent, silent: Optional[bool]) -> Any:
        message = self._process_message_before_send(message, recipient, self._is_silent(self, silent))
        as_dict = message_to_dict(message)
        if not self._append_oai_message(as_dict, "assistant", recipient, is_sending=True):
            raise invalid_message_error(as_dict, received=False)
        return message

    def send(
        self,
        message: Union[dict[str, Any], str],
        recipient: Agent,
        request_reply: Optional[bool] = None,
        silent: Optional[bool] = False,
    ) -> None:
        """Send a message to ``recipient``.

        Args:
            message: a str, or a dict with "content" and/or "function_call"/"tool_calls" (plus optional "role",
                "name", "context").
            recipient: the agent to send to.
            request_reply: whether the recipient should reply (None: its own setting for this sender).
            silent: do not print the message.

        Raises:
            ValueError: when the message has neither content nor a call.
        """
        message = self._store_sent(message, recipient, silent)
        recipient.receive(message, self, request_reply, silent)  # type: ignore[call-arg]

    async def a_send(
        self,
        message: Union[dict[str, Any], str],
        recipient: Agent,
        request_reply: Optional[bool] = None,
        silent: Optional[bool] = False,
    ) -> None:
        """(async) Send a message to ``recipient``; see ``send``."""
        message = self._store_sent(message, recipient, silent)
        await recipient.a_receive(message, self, request_reply, silent)  # type: ignore[call-arg]

    def _print_received_message(self, message: Union[dict[str, Any], str], sender: Agent, skip_head: bool = False) -> None:
        message = message_to_dict(message)
        if message.get("content") is not None and "context" in message and callable(message["content"]):
            message = {**message, "content": message["content"](message["context"])}
        render.received_message(message, sender.name, self.name)

    def _process_received_message(self, message: Any, sender: Agent, silent: Optional[bool]) -> None:
        as_dict = message_to_dict(message)
        if not self._append_oai_message(as_dict, "user", sender, is_sending=False):
            raise invalid_message_error(as_dict, received=True)
        if not self._is_silent(sender, silent):
            self._print_received_message(as_dict, sender)

    def _wants_reply(self, sender: Agent, request_reply: Optional[bool]) -> bool:
        return not (request_reply is False or (request_reply is None and self.reply_at_receive[sender] is False))

    def receive(
        self,
        message: Union[dict[str, Any], str],
        sender: Agent,
        request_reply: Optional[bool] = None,
        silent: Optional[bool] = False,
    ) -> None:
        """Receive a message from ``sender`` and, if a reply is requested, reply to it.

        Args:
            message: a str or a message dict ("content", "function_call", "tool_calls", "role", "name", "context").
            sender: the sending agent.
            request_reply: whether to reply (None: ``self.reply_at_receive[sender]``).
            silent: do not print the message.
        """
        self._process_received_message(message, sender, silent)
        if not self._wants_reply(sender, request_reply):
            return
        reply = self.generate_reply(messages=self.chat_messages[sender], sender=sender)
        if reply is not None:
            self.send(reply, sender, silent=silent)

    async def a_receive(
        self,
        message: Union[dict[str, Any], str],
        sender: Agent,
        request_reply: Optional[bool] = None,
        silent: Optional[bool] = False,
    ) -> None:
        """(async) Receive a message and, if a reply is requested, reply; see ``receive``."""
        self._process_received_message(message, sender, silent)
        if not self._wants_reply(sender, request_reply):
            return
        reply = await self.a_generate_reply(messages=self.chat_messages[sender], sender=sender)
        if reply is not None:
            await self.a_send(reply, sender, silent=silent)

    # ----------------------------------------------------------------- code execution
    def run_code(self, code: str, **kwargs: Any) -> tuple[int, str, Optional[str]]:
        """Run ``code`` and return ``(exit_code, logs, image)``; override to change how code runs.

        Args:
            code: the code to run.
            **kwargs: ``lang``, ``work_dir``, ``timeout``, ``filename`` ... from ``code_execution_config``.
        """
        from ..coding.reply import local_run_code

        return local_run_code(code, **kwargs)

    def execute_code_blocks(self, code_blocks: list[tuple[str, str]]) -> tuple[int, str]:
        """Run ``(language, code)`` blocks in order, stopping at the first failure."""
        from ..coding.reply import run_code_blocks

        if self._code_execution_config is False:
            raise ValueError(f"Agent '{self.name}' has code_execution_config=False: it does not run code.")
        return run_code_blocks(code_blocks, self._code_execution_config, IOStream.get_default(), run_code=self.run_code)

    # ----------------------------------------------------------------- human input
    def get_human_input(self, prompt: str) -> str:
        """Ask the person at the console (through the current IOStream). Closed input counts as "exit"."""
        try:
            reply = IOStream.get_default().input(prompt)
        except EOFError:
            reply = "exit"
        self._human_input.append(reply)
        return reply

    async def a_get_human_input(self, prompt: str) -> str:
        """(async) Ask the person at the console without blocking the event loop."""
        import asyncio
        import contextvars

        context = contextvars.copy_context()
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, context.run, self.get_human_input, prompt)

    # ----------------------------------------------------------------- chats
    def _prepare_chat(
        self, recipient: "ConversableAgent", clear_history: bool, prepare_recipient: bool = True,
        reply_at_receive: bool = True,
    ) -> None:
        self.reset_consecutive_auto_reply_counter(recipient)
        self.reply_at_receive[recipient] = reply_at_receive
        if clear_history:
            self.clear_history(recipient)
            self._human_input = []
        if prepare_recipient:
            recipient._prepare_chat(self, clear_history, False, reply_at_receive)

    def _raise_exception_on_async_reply_functions(self) -> None:
        found = [
            entry["reply_func"].__name__ for entry in self._reply_func_list
            if inspect.iscoroutinefunction(entry["reply_func"]) and not entry["ignore_async_in_sync_chat"]
        ]
        if found:
            raise RuntimeError(
                "Async reply functions can only be used with ConversableAgent.a_initiate_chat(). The following async "
                f"reply functions are found: {', '.join(found)}"
            )

    def _check_chat_arguments(self, recipient: Any, message: Any, max_turns: Any, summary_method: Any,
                              summary_args: Any) -> None:
        if not hasattr(recipient, "receive") or not hasattr(recipient, "name"):
            raise TypeError(f"recipient must be an agent; got {type(recipient).__name__}.")
        if message is not None and not isinstance(message, (str, dict)) and not callable(message):
            raise TypeError(f"message must be a str, a dict, a callable or None; got {type(message).__name__}.")
        if isinstance(message, dict) and not any(k in message for k in ("content", "function_call", "tool_calls")):
            raise invalid_message_error(message, received=False)
        if max_turns is not None and (not isinstance(max_turns, int) or isinstance(max_turns, bool) or max_turns < 0):
            raise ValueError(f"max_turns must be a non-negative int or None; got {max_turns!r}.")
        validate_summary_method(summary_method)
        if summary_args is not None and not isinstance(summary_args, dict):
            raise TypeError(f"summary_args must be a dict; got {type(summary_args).__name__}.")

    def _chat_result(self, recipient: "ConversableAgent", summary_method: Any, summary_args: dict, cache: Any,
                     ) -> ChatResult:
        summary = self._summarize_chat(summary_method, summary_args, recipient, cache=cache)
        for agent in (self, recipient):
            agent.client_cache = agent.previous_cache
            agent.previous_cache = None
        from ..oai.usage import gather_usage_summary

        return ChatResult(
            chat_history=self.chat_messages[recipient],
            summary=summary,
            cost=gather_usage_summary([self, recipient]),
            human_input=self._human_input,
        )

    def initiate_chat(
        self,
        recipient: "ConversableAgent",
        clear_history: bool = True,
        silent: Optional[bool] = False,
        cache: Optional[Any] = None,
        max_turns: Optional[int] = None,
        summary_method: Optional[Union[str, Callable[..., Any]]] = DEFAULT_SUMMARY_METHOD,
        summary_args: Optional[dict[str, Any]] = {},
        message: Optional[Union[dict[str, Any], str, Callable[..., Any]]] = None,
        **kwargs: Any,
    ) -> ChatResult:
        """Start a chat with ``recipient`` and run it until it ends.

        Args:
            recipient: the agent to chat with.
            clear_history: clear the earlier conversation with ``recipient`` first.
            silent: do not print the messages.
            cache: a ``Cache`` for model calls made in this chat.
            max_turns: the most turns (one turn = one message each way); None runs until a termination condition.
            summary_method: "last_msg" (default), "reflection_with_llm", a callable
                ``f(sender, recipient, summary_args) -> str``, or None for no summary.
            summary_args: arguments for the summary method ("summary_prompt", "summary_role", ...).
            message: the first message: a str, a dict, or ``f(sender, recipient, context) -> str | dict``;
                None asks the person at the console.
            **kwargs: ``carryover`` (str or list, appended to the first message as context), ``verbose``, and
                context passed to a callable ``message``.

        Returns:
            ChatResult: the history, summary, cost and human input of the chat.
        """
        summary_args = dict(summary_args or {})
        self._check_chat_arguments(recipient, message, max_turns, summary_method, summary_args)
        for agent in (self, recipient):
            agent._raise_exception_on_async_reply_functions()
            agent.previous_cache = agent.client_cache
            agent.client_cache = cache
        try:
            if isinstance(max_turns, int):
                self._prepare_chat(recipient, clear_history, reply_at_receive=False)
                for turn in range(max_turns):
                    if turn == 0:
                        first = self._first_message(recipient, message, kwargs)
                    else:
                        first = self.generate_reply(messages=self.chat_messages[recipient], sender=recipient)
                    if first is None:
                        break
                    self.send(first, recipient, request_reply=True, silent=silent)
            else:
                self._prepare_chat(recipient, clear_history)
                self.send(self._first_message(recipient, message, kwargs), recipient, silent=silent)
        except BaseException:
            for agent in (self, recipient):
                agent.client_cache = agent.previous_cache
            raise
        return self._chat_result(recipient, summary_method, summary_args, cache)

    async def a_initiate_chat(
        self,
        recipient: "ConversableAgent",
        clear_history: bool = True,
        silent: Optional[bool] = False,
        cache: Optional[Any] = None,
        max_turns: Optional[int] = None,
        summary_method: Optional[Union[str, Callable[..., Any]]] = DEFAULT_SUMMARY_METHOD,
        summary_args: Optional[dict[str, Any]] = {},
        message: Optional[Union[str, Callable[..., Any], dict[str, Any]]] = None,
        **kwargs: Any,
    ) -> ChatResult:
        """(async) Start a chat with ``recipient``; see ``initiate_chat``."""
        summary_args = dict(summary_args or {})
        self._check_chat_arguments(recipient, message, max_turns, summary_method, summary_args)
        for agent in (self, recipient):
            agent.previous_cache = agent.client_cache
            agent.client_cache = cache
        try:
            if isinstance(max_turns, int):
                self._prepare_chat(recipient, clear_history, reply_at_receive=False)
                for turn in range(max_turns):
                    if turn == 0:
                        first = await self._a_first_message(recipient, message, kwargs)
                    else:
                        first = await self.a_generate_reply(messages=self.chat_messages[recipient], sender=recipient)
                    if first is None:
                        break
                    await self.a_send(first, recipient, request_reply=True, silent=silent)
            else:
                self._prepare_chat(recipient, clear_history)
                await self.a_send(await self._a_first_message(recipient, message, kwargs), recipient, silent=silent)
        except BaseException:
            for agent in (self, recipient):
                agent.client_cache = agent.previous_cache
            raise
        return self._chat_result(recipient, summary_method, summary_args, cache)

    def _first_message(self, recipient: Agent, message: Any, kwargs: dict[str, Any]) -> Any:
        if callable(message):
            return message(self, recipient, kwargs)
        return self.generate_init_message(message, **kwargs)

    async def _a_first_message(self, recipient: Agent, message: Any, kwargs: dict[str, Any]) -> Any:
        if callable(message):
            result = message(self, recipient, kwargs)
            return await result if inspect.isawaitable(result) else result
        return await self.a_generate_init_message(message, **kwargs)

    def generate_init_message(self, message: Union[dict[str, Any], str, None], **kwargs: Any) -> Union[str, dict]:
        """The first message of a chat: ``message`` (asked at the console when None) plus any ``carryover``."""
        if message is None:
            message = self.get_human_input(">")
        return append_carryover(message, kwargs.get("carryover"))

    async def a_generate_init_message(self, message: Union[dict[str, Any], str, None], **kwargs: Any) -> Union[str, dict]:
        """(async) See ``generate_init_message``."""
        if message is None:
            message = await self.a_get_human_input(">")
        return append_carryover(message, kwargs.get("carryover"))

    def _summarize_chat(
        self, summary_method: Any, summary_args: dict[str, Any], recipient: Optional[Agent] = None, cache: Any = None
    ) -> str:
        if summary_method is None:
            return ""
        summary_args.setdefault("cache", cache)
        return summary_callable(summary_method)(self, recipient, summary_args)  # type: ignore[no-any-return]

    def _reflection_with_llm(
        self, prompt: str, messages: list[dict[str, Any]], llm_agent: Optional[Agent] = None, cache: Any = None,
        role: Optional[str] = None,
    ) -> Any:
        messages = messages + [{"role": role or "system", "content": prompt}]
        if llm_agent is not None and getattr(llm_agent, "client", None) is not None:
            llm_client = llm_agent.client  # type: ignore[attr-defined]
        elif self.client is not None:
            llm_client = self.client
        else:
            raise ValueError(
                "No OpenAIWrapper client is found: summary_method='reflection_with_llm' needs an llm_config on the "
                "sender or the recipient."
            )
        return self._generate_oai_reply_from_client(llm_client, messages, cache)

    def initiate_chats(self, chat_queue: list[dict[str, Any]]) -> list[ChatResult]:
        """Run a sequence of chats from this agent, with carryover; see ``autogen_classic.initiate_chats``."""
        queue = [{**info, "sender": info.get("sender") or self} for info in chat_queue]
        self._finished_chats = initiate_chats(queue)
        return self._finished_chats

    async def a_initiate_chats(self, chat_queue: list[dict[str, Any]]) -> dict[int, ChatResult]:
        """(async) Run chats from this agent, concurrently where prerequisites allow."""
        queue = [{**info, "sender": info.get("sender") or self} for info in chat_queue]
        self._finished_chats = await a_initiate_chats(queue)  # type: ignore[assignment]
        return self._finished_chats  # type: ignore[return-value]

    def get_chat_results(self, chat_index: Optional[int] = None) -> Union[list[ChatResult], ChatResult]:
        """The results of ``initiate_chats`` (all, or one)."""
        return self._finished_chats if chat_index is None else self._finished_chats[chat_index]

    # ----------------------------------------------------------------- resetting
    def reset(self) -> None:
        """Forget every conversation, counter and usage; restore reply-function configs."""
        self.clear_history()
        self.reset_consecutive_auto_reply_counter()
        self.stop_reply_at_receive()
        if self.client is not None:
            self.client.clear_usage_summary()
        for entry in self._reply_func_list:
            if entry["reset_config"] is not None:
                entry["reset_config"](entry["config"])
            else:
                entry["config"] = copy.copy(entry["init_config"])

    def stop_reply_at_receive(self, sender: Optional[Agent] = None) -> None:
        """Stop replying on receipt (to ``sender``, or to everyone)."""
        if sender is None:
            self.reply_at_receive.clear()
        else:
            self.reply_at_receive[sender] = False

    def reset_consecutive_auto_reply_counter(self, sender: Optional[Agent] = None) -> None:
        """Reset the auto-reply count (for ``sender``, or for everyone)."""
        if sender is None:
            self._consecutive_auto_reply_counter.clear()
        else:
            self._consecutive_auto_reply_counter[sender] = 0

    def clear_history(self, recipient: Optional[Agent] = None, nr_messages_to_preserve: Optional[int] = None) -> None:
        """Clear the conversation with ``recipient`` (or all), keeping the newest ``nr_messages_to_preserve``.

        A kept window never starts with a tool response whose call it would drop.
        """
        if recipient is not None:
            self._oai_messages[recipient].clear()
            if nr_messages_to_preserve:
                render.preserve_ignored_warning()
            return
        if not nr_messages_to_preserve:
            self._oai_messages.clear()
            return
        extra_kept = 0
        for key, conversation in self._oai_messages.items():
            keep = nr_messages_to_preserve
            if len(conversation) >= keep and "tool_responses" in conversation[-keep]:
                keep += 1
                extra_kept += 1
            self._oai_messages[key] = conversation[-keep:]
        render.preserving_tool_message(self.name, extra_kept)

    # ----------------------------------------------------------------- usage
    def print_usage_summary(self, mode: Union[str, list[str]] = ["actual", "total"]) -> None:
        """Print the model usage of this agent."""
        out = IOStream.get_default()
        if self.client is None:
            out.print(f"No cost incurred from agent '{self.name}'.")
        else:
            out.print(f"Agent '{self.name}':")
            self.client.print_usage_summary(mode)

    def get_actual_usage(self) -> Optional[dict[str, Any]]:
        """Usage without cache hits, or None without a model."""
        return None if self.client is None else self.client.actual_usage_summary

    def get_total_usage(self) -> Optional[dict[str, Any]]:
        """Usage including cache hits, or None without a model."""
        return None if self.client is None else self.client.total_usage_summary

    def register_model_client(self, model_client_cls: type, **kwargs: Any) -> None:
        """Register a custom model client class for the config entries that name it (``model_client_cls``)."""
        if self.client is None:
            raise ValueError(f"Agent '{self.name}' has no llm_config, so it has no model client to register with.")
        self.client.register_model_client(model_client_cls, **kwargs)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


def reflection_with_llm_summary(sender: ConversableAgent, recipient: Optional[ConversableAgent], summary_args: dict) -> str:
    """Ask a model to summarize the chat (``summary_args``: ``summary_prompt``, ``summary_role``)."""
    prompt = summary_args.get("summary_prompt")
    prompt = ConversableAgent.DEFAULT_SUMMARY_PROMPT if prompt is None else prompt
    if not isinstance(prompt, str):
        raise ValueError("The summary_prompt must be a string.")
    role = summary_args.get("summary_role")
    if role and not isinstance(role, str):
        raise ValueError("The summary_role in summary_arg must be a string.")
    agent = sender if recipient is None else recipient
    messages = agent.chat_messages_for_summary(sender) if recipient is not None else []
    try:
        from openai import BadRequestError
    except ImportError:  # pragma: no cover - openai is a core dependency
        BadRequestError = Exception  # type: ignore[misc,assignment]
    try:
        summary = sender._reflection_with_llm(prompt, messages, llm_agent=agent, cache=summary_args.get("cache"),
                                              role=role)
    except BadRequestError as e:
        warnings.warn(f"Cannot extract summary using reflection_with_llm: {e}. Using an empty str as summary.",
                      UserWarning)
        return ""
    if isinstance(summary, dict):
        return str(summary.get("content") or "")
    return summary or ""
