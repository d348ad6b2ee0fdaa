"""``ConversableAgent``: one message list per peer, an ordered pipeline of reply functions.

The class is assembled from small parts: the reply pipeline (:mod:`.reply_pipeline`), the
built-in reply functions (:mod:`.builtin_replies`), chat driving (:mod:`.chat_driver`),
tool registration (:mod:`.conversable.tools.registry`) and asking the human (:mod:`.human_input`). This
module keeps construction, the message store, sending and receiving, resetting and usage.
"""

from __future__ import annotations

import copy
import re
from collections import defaultdict
from collections.abc import Iterable
from typing import Any, Callable, Literal, Optional, TypeVar, Union

from .. import runtime_logging
from ..coding.reply import local_run_code, resolve_code_execution_config, run_code_blocks
from ..coding.utils import content_str
from ..exception_utils import InvalidArgumentTypeError
from ..events.chat_events import (  # noqa: F401 - importable here, as in AG2 Classic 0.14
    ClearConversableAgentHistoryEvent, ClearConversableAgentHistoryWarningEvent, ConversableAgentUsageSummaryEvent,
    ConversableAgentUsageSummaryNoCostIncurredEvent, ExecuteCodeBlockEvent, ExecutedFunctionEvent,
    ExecuteFunctionEvent, GenerateCodeExecutionReplyEvent, PostCarryoverProcessingEvent,
    TerminationAndHumanReplyNoInputEvent, UsingAutoReplyEvent,
)
from ..events.received_events import create_received_event_model  # noqa: F401 - importable here, as in AG2 0.14
from ..events.run_events import ErrorEvent, RunCompletionEvent, TerminationEvent  # noqa: F401 - as in AG2 0.14
from ..io import IOStream
from ..io.base import AsyncInputStream, AsyncIOStreamProtocol, InputStream, IOStreamProtocol  # noqa: F401 - as above
from ..io.chat_response import (  # noqa: F401 - importable here, as in AG2 Classic 0.14
    AsyncRunResponse, AsyncRunResponseProtocol, RunResponse, RunResponseProtocol,
)
from ..io.run_iter import AsyncRunIterResponse, RunIterResponse  # noqa: F401 - importable here, as in 0.14
from ..io.thread_io_stream import AsyncThreadIOStream, ThreadIOStream  # noqa: F401 - as above
from ..messages.agent_messages import (
    create_received_message_model,  # noqa: F401 - importable here, as in classic AutoGen
    received_message_fields,
)
from ..io.emit import emit
from ..llm_config import LLMConfig
from ..oai import OpenAIWrapper
from ..tools.tool import Tool
from .conversable import builtin_replies as replies, human_input
from .agent import Agent
from .conversable.agent_args import (
    check_agent,
    check_description,
    check_init_arguments,
    check_llm_config_type,
    resolve_llm_config,
    conversations,
    printable_names,
    shown,
    warn_argument,
)
from .conversable.runs.run_api import RunMixin
from .chat import DEFAULT_SUMMARY_PROMPT, ChatResult, reflection_with_llm_summary
from .conversable.agent_state import UpdateSystemMessage, add_functions, register_update_agent_state
from .conversable.chat_driver import ChatDriverMixin
from .conversable.history import History, peek
from .conversable.messages import invalid_message_error, message_to_dict, to_oai_message
from .conversable.reply_pipeline import HOOKABLE_METHODS, ReplyPipelineMixin
from .conversable.tools.registry import ToolRegistryMixin, assert_valid_name
from .conversable.tools.responses import ToolResponseScan
from .conversable.usage import UsageMixin
from .conversable.guards.guardrails import GuardrailsMixin
from .conversable.handoffs import HandoffsMixin, as_context_variables, as_handoffs
from .conversable.guards.safeguard_hooks import SafeguardHooksMixin

# Re-exported: classic code imports these names from this module.
from .._pydantic import model_dump  # noqa: F401
from ..cache import AbstractCache, Cache  # noqa: F401
from ..coding import CodeExecutor, CodeExecutorFactory  # noqa: F401
from ..coding.docker import check_can_use_docker_or_throw, decide_use_docker  # noqa: F401
from ..coding.execute import execute_code  # noqa: F401
from ..coding.utils import extract_code, infer_lang  # noqa: F401
from ..exception_utils import InvalidCarryOverType, InvalidCarryOverTypeError  # noqa: F401
from ..exception_utils import SenderRequired, SenderRequiredError  # noqa: F401
from ..import_utils import is_coroutine_callable  # noqa: F401
from .conversable.messages import normilize_message_to_oai  # noqa: F401
from ..oai import ModelClient  # noqa: F401
from ..tools import load_basemodels_if_needed, serialize_to_str  # noqa: F401
from ..tools.dependency_injection import ChatContext  # noqa: F401
from .agent import LLMAgent  # noqa: F401
from .chat import a_initiate_chats, initiate_chats  # noqa: F401
from .conversable.tools.registry import register_function  # noqa: F401
from .utils import consolidate_chat_info, gather_usage_summary  # noqa: F401
from .transitions import ContextVariables, Handoffs  # noqa: F401
from .transitions.guardrails import Guardrail, GuardrailResult  # noqa: F401 - importable here, as in AG2 Classic 0.14

__all__ = ["ConversableAgent", "UpdateSystemMessage", "reflection_with_llm_summary"]

F = TypeVar("F", bound=Callable[..., Any])


def _default_is_termination_msg(message: dict[str, Any]) -> bool:
    return content_str(message.get("content")) == "TERMINATE"


class ConversableAgent(
    ReplyPipelineMixin, ChatDriverMixin, ToolRegistryMixin, UsageMixin, RunMixin, GuardrailsMixin, SafeguardHooksMixin,
    HandoffsMixin,
):
    """A generic agent that can converse with others: by model, by code and tool execution, or by a human.

    Every reply passes through an ordered list of reply functions; by default they check termination and
    ask for human input, run function and tool calls, run code blocks (when enabled) and call the model.
    """

    DEFAULT_CONFIG: Union[dict[str, Any], Literal[False]] = False
    MAX_CONSECUTIVE_AUTO_REPLY = 100
    DEFAULT_SUMMARY_PROMPT = DEFAULT_SUMMARY_PROMPT
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
        default_auto_reply: Optional[Union[str, dict[str, Any]]] = "",
        description: Optional[str] = None,
        chat_messages: Optional[dict[Agent, list[dict[str, Any]]]] = None,
        silent: Optional[bool] = None,
        context_variables: Optional[Union[ContextVariables, dict[str, Any]]] = None,
        functions: Union[list[Callable[..., Any]], Callable[..., Any], None] = None,
        update_agent_state_before_reply: Optional[Union[list[Any], Callable[..., Any], UpdateSystemMessage]] = None,
        handoffs: Optional[Handoffs] = None,
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
                auto-reply budget is spent) or "NEVER". Any other value (lower case included) is kept and works
                like "TERMINATE", with a warning.
            function_map: function name -> callable, used for function calls and tool calls.
            code_execution_config: False to disable code execution, or a dict (``work_dir``, ``use_docker``,
                ``timeout``, ``last_n_messages``, or ``executor``).
            llm_config: the model configuration (a dict with ``config_list`` and request options), False to
                disable model replies, None for ``DEFAULT_CONFIG``.
            default_auto_reply: the reply when no reply function produced one (None: no reply).
            description: how others see this agent (default: the system message).
            chat_messages: earlier conversations to start from (peer -> list of messages).
            silent: when set, overrides the ``silent`` argument of sends (whether messages are printed).
            context_variables: shared variables for reply functions and tools: a ``ContextVariables`` (AG2 0.14), or
                a dict (ag2 0.7.3: kept, not copied, and seen as ``_context_variables``).
            functions: functions offered to the model as tools (for the model only; register them for
                execution on the agent that runs them).
            update_agent_state_before_reply: callables ``(agent, messages)`` and ``UpdateSystemMessage``s run
                before each reply.
            handoffs: AG2 0.14's hand-off conditions, kept as ``self.handoffs`` (default: an empty ``Handoffs``).
        """
        check_init_arguments(
            name, system_message, is_termination_msg, max_consecutive_auto_reply, default_auto_reply, description,
            context_variables, human_input_mode,
        )

        self._name = name
        self._oai_messages = conversations(chat_messages)
        self._tool_response_scan = ToolResponseScan()  # spares long chats a full read per model call
        self._oai_system_message = [{"content": system_message, "role": "system"}]
        self._description = description if description is not None else system_message
        self._is_termination_msg = (
            is_termination_msg if is_termination_msg is not None else _default_is_termination_msg
        )
        self.silent = silent
        # Kept as given (a warning was given above for an unknown mode): any mode other than "ALWAYS" and
        # "NEVER", lower case included, works like "TERMINATE", as in the classic package.
        self.human_input_mode = human_input_mode
        self._max_consecutive_auto_reply = (
            self.MAX_CONSECUTIVE_AUTO_REPLY if max_consecutive_auto_reply is None else max_consecutive_auto_reply
        )
        self._consecutive_auto_reply_counter: dict[Optional[Agent], int] = defaultdict(int)
        self._max_consecutive_auto_reply_dict: dict[Optional[Agent], int] = defaultdict(self.max_consecutive_auto_reply)
        self._default_auto_reply = default_auto_reply
        self._reply_func_list: list[dict[str, Any]] = []
        self._human_input: list[str] = []
        self.reply_at_receive: dict[Agent, bool] = defaultdict(bool)
        self.context_variables = as_context_variables(context_variables)  # _context_variables: its dict
        self.client_cache: Any = None
        self.previous_cache: Any = None
        self.hook_lists: dict[str, list[Callable[..., Any]]] = {method: [] for method in HOOKABLE_METHODS}
        self.handoffs = as_handoffs(handoffs)  # read by group orchestration only
        self.input_guardrails: list[Any] = []  # checked by a group chat before the agent replies
        self.output_guardrails: list[Any] = []  # ... and on its reply

        self._init_llm(llm_config)
        self._init_functions(function_map)
        self._validate_name_for_endpoint(name)
        self._code_execution_config = resolve_code_execution_config(code_execution_config)
        if runtime_logging.is_logging:
            runtime_logging.log_new_agent(self, locals())

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
        add_functions(self, functions)
        register_update_agent_state(self, update_agent_state_before_reply)

    # ----------------------------------------------------------------- configuration
    def _init_llm(self, llm_config: Any) -> None:
        llm_config = resolve_llm_config(llm_config)  # LLMConfig forms of AG2 0.14 (an LLMConfig is a dict)
        check_llm_config_type(llm_config)
        if llm_config is None:
            llm_config = self.DEFAULT_CONFIG
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
        return OpenAIWrapper(**self.llm_config)

    def _validate_name_for_endpoint(self, name: str) -> None:
        config_list = self.llm_config.get("config_list") if isinstance(self.llm_config, dict) else None
        if not config_list:
            return
        first = config_list[0] if isinstance(config_list[0], dict) else {}
        if first.get("api_type", "openai") != "openai":
            return
        if not isinstance(name, (str, bytes)):
            raise InvalidArgumentTypeError(
                f"expected string or bytes-like object, got '{type(name).__name__}': the name of an agent with a "
                f"model (llm_config) must be a str; got {shown(name)}."
            )
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
        check_description(description)
        self._description = description

    @property
    def system_message(self) -> str:
        """The system message of this agent."""
        return self._oai_system_message[0]["content"]  # type: ignore[no-any-return]

    def update_system_message(self, system_message: str) -> None:
        """Replace the system message used for model replies.

        Args:
            system_message: the new system message (a str, or a list of content parts).
        """
        if system_message is not None and not isinstance(system_message, (str, list)):
            warn_argument(
                f"system_message should be a str or a list of content parts; got {shown(system_message)}. It is "
                f"kept as given and sent as the content of the system message, which a model endpoint rejects."
            )
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
        conversation = self._oai_messages[conversation_id]
        # A History holds the one copy of a message that several histories store (see conversable.history).
        oai_message = to_oai_message(
            message_to_dict(message), role, default_name=self.name if is_sending else conversation_id.name,
            shared=type(conversation) is History,
        )
        if oai_message is None:
            return False
        conversation.append(oai_message)
        return True

    def _store_sent(self, message: Any, recipient: Agent, silent: Optional[bool]) -> Any:
        message = self._process_message_before_send(message, recipient, self._is_silent(self, silent))
        as_dict = message_to_dict(message)
        if not self._append_oai_message(as_dict, "assistant", recipient, is_sending=True):
            raise invalid_message_error(as_dict, received=False)
        return message

    def send(self, message: Union[dict[str, Any], str], recipient: Agent, request_reply: Optional[bool] = None,
             silent: Optional[bool] = False) -> None:
        """Send a message to ``recipient``.

        Args:
            message: a str, or a dict with "content" and/or "function_call"/"tool_calls" (plus optional "role",
                "name", "context").
            recipient: the agent to send to.
            request_reply: whether the recipient should reply (None: its own setting for this sender).
            silent: do not print the message.

        Raises:
            TypeError: when ``recipient`` is not an agent, or a message field has the wrong type.
            ValueError: when the message has neither content nor a call.
        """
        check_agent(recipient, "recipient", "receive")
        message = self._store_sent(message, recipient, silent)
        recipient.receive(message, self, request_reply, silent)  # type: ignore[call-arg]

    async def a_send(self, message: Union[dict[str, Any], str], recipient: Agent, request_reply: Optional[bool] = None,
                     silent: Optional[bool] = False) -> None:
        """(async) Send a message to ``recipient``; see ``send``."""
        check_agent(recipient, "recipient", "a_receive")
        message = self._store_sent(message, recipient, silent)
        await recipient.a_receive(message, self, request_reply, silent)  # type: ignore[call-arg]

    def _print_received_message(self, message: Union[dict[str, Any], str], sender: Agent, skip_head: bool = False) -> None:
        sender_name, recipient_name = printable_names(sender, self)
        message = message_to_dict(message)
        if message.get("content") is not None and "context" in message and callable(message["content"]):
            message = {**message, "content": message["content"](message["context"])}
        event_cls, fields = received_message_fields(message, sender_name, recipient_name)
        emit(event_cls, **fields)

    def _process_received_message(self, message: Any, sender: Agent, silent: Optional[bool]) -> None:
        as_dict = message_to_dict(message)
        valid = self._append_oai_message(as_dict, "user", sender, is_sending=False)
        if runtime_logging.is_logging:
            runtime_logging.log_event(self, "received_message", message=message, sender=sender.name, valid=valid)
        if not valid:
            raise invalid_message_error(as_dict, received=True)
        if not self._is_silent(sender, silent):
            self._print_received_message(as_dict, sender)

    def _wants_reply(self, sender: Agent, request_reply: Optional[bool]) -> bool:
        return not (request_reply is False or (request_reply is None and self.reply_at_receive[sender] is False))

    def receive(self, message: Union[dict[str, Any], str], sender: Agent, request_reply: Optional[bool] = None,
                silent: Optional[bool] = False) -> None:
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

    async def a_receive(self, message: Union[dict[str, Any], str], sender: Agent, request_reply: Optional[bool] = None,
                        silent: Optional[bool] = False) -> None:
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
        return local_run_code(code, **kwargs)

    def execute_code_blocks(self, code_blocks: list[tuple[str, str]]) -> tuple[int, str]:
        """Run ``(language, code)`` blocks in order, stopping at the first failure."""
        if self._code_execution_config is False:
            raise ValueError(f"Agent '{self.name}' has code_execution_config=False: it does not run code.")
        return run_code_blocks(code_blocks, self._code_execution_config, IOStream.get_default(), run_code=self.run_code)

    # Human input (bodies in human_input.py): override get_human_input to ask some other way.
    get_human_input = human_input.get_human_input
    a_get_human_input = human_input.a_get_human_input

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
                emit(ClearConversableAgentHistoryWarningEvent, recipient=getattr(recipient, "name", ""))
            return
        if not nr_messages_to_preserve:
            self._oai_messages.clear()
            return
        extra_kept = 0
        for key, conversation in self._oai_messages.items():
            keep = nr_messages_to_preserve
            if len(conversation) >= keep and "tool_responses" in peek(conversation, -keep):
                keep += 1
                extra_kept += 1
            kept = conversation[-keep:]
            self._oai_messages[key] = History(kept) if isinstance(conversation, History) else kept
        if extra_kept:
            emit(ClearConversableAgentHistoryEvent, agent=self.name, recipient=self.name, no_events_preserved=extra_kept)

    def _get_display_name(self) -> str:
        """The agent as ``str(agent)`` shows it: its name (point this at another function to change that)."""
        return self.name

    def __str__(self) -> str:
        return self._get_display_name()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"
