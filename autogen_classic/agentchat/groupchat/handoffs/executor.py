"""The group's tool executor (``_Group_Tool_Executor``): one agent runs the tools of every agent of the group.

It executes the tool calls of the last message one at a time (so a tool sees the context variables the
previous one changed), and reads what each tool returned: a ``ReplyResult`` updates the shared context
variables and may name the next target; a ``TransitionTarget`` (what a hand-off tool of an LLM condition
returns) is the next target. The target waits on the executor until the group's transition reads it, with
a :class:`HandoffStep` saying what set it (for the selection trace). A tool parameter named
``context_variables`` receives the group's context variables (injected, never shown to the model).

Its :class:`HandoffStyle` says where the classic swarm's executor ("Tool_Execution") differs: its name, how
a ``SwarmResult`` reads, the text of a response, the context variables given in the JSON arguments.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Generator
from typing import Annotated, Any, Optional

from ....coding.utils import content_str
from ....io.base import IOStream
from ....tools.dependency_injection import Depends, inject_params, on
from ....tools.execution import is_async_callable
from ....tools.tool import Tool
from ...agent import Agent
from ...conversable_agent import ConversableAgent
from ...transitions import __CONTEXT_VARIABLES_PARAM_NAME__, ContextVariables, ReplyResult, TransitionTarget
from ..selection.trace import HandoffStep
from ..steps import RunToolCall, a_run_steps, run_steps
from .events import OnConditionLLMTransitionEvent, ReplyResultTransitionEvent
from .style import GROUP_STYLE, TOOL_EXECUTOR_NAME, HandoffStyle
from .tool_round import ToolRound, single_calls

__all__ = ["TOOL_EXECUTOR_NAME", "GroupToolExecutor", "target_label"]


def target_label(target: Any) -> str:
    """A target as people read it (its ``display_name()``), for the selection trace."""
    try:
        return str(target.display_name())
    except (AttributeError, NotImplementedError):
        return type(target).__name__


class GroupToolExecutor(ConversableAgent):
    """Tool executor for the group chat initiated with initiate_group_chat"""

    def __init__(self, *, style: Optional[HandoffStyle] = None) -> None:
        # style: where this chat's API differs (default AG2 0.14's; the classic swarm passes its own).
        self.style = style or GROUP_STYLE
        super().__init__(
            name=self.style.executor_name,
            system_message=self.style.executor_system_message,
            human_input_mode="NEVER",
            code_execution_config=False,
        )
        # The functions taken on as registered tools (their context_variables are injected, never in arguments).
        self._tool_names: set[str] = set()
        self._group_next_target: Optional[TransitionTarget] = None
        # What set the next target (an LLM condition's tool, a ReplyResult, a context condition ...).
        self._group_next_step: Optional[HandoffStep] = None
        self._tool_call_originator: Optional[str] = None
        self._group_manager: Any = None  # set when the group is linked to its manager
        # Only the group's tool reply: the executor never asks a model or a human.
        self.register_reply([Agent, None], GroupToolExecutor._generate_group_tool_reply, remove_other_reply_funcs=True)
        self.register_reply(
            [Agent, None], GroupToolExecutor._a_generate_group_tool_reply, ignore_async_in_sync_chat=True
        )

    # ----------------------------------------------------------------- the next target
    def set_next_target(self, next_target: TransitionTarget) -> None:
        """Sets the next target to transition to, used in the determine_next_agent function."""
        self._group_next_target = next_target
        # Set from outside the executor's own tool reply (e.g. a guardrail activating its target).
        self._group_next_step = HandoffStep(kind="activated", target=target_label(next_target), via="activate_target")

    def get_next_target(self) -> TransitionTarget:
        """Returns the next target to transition to (check ``has_next_target()`` first)."""
        if self._group_next_target is None:
            raise ValueError(
                "No next target set. Please set a next target before calling this method. Use has_next_target() "
                "to check if a next target exists."
            )
        return self._group_next_target

    def has_next_target(self) -> bool:
        """Checks if there is a next target to transition to."""
        return self._group_next_target is not None

    def clear_next_target(self) -> None:
        """Clears the next target to transition to."""
        self._group_next_target = None
        self._group_next_step = None

    def describe_next_target(self, step: HandoffStep) -> None:
        """Say what set the pending next target (an entry of the selection trace once the transition takes it)."""
        self._group_next_step = step

    def next_target_step(self) -> Optional[HandoffStep]:
        """What set the pending next target (None without one)."""
        return self._group_next_step

    def pending_handoff_agent(self) -> Optional[str]:
        """The name of the agent the pending next target hands off to (None without one, or for another target).

        Termination conditions read it (``HandoffTermination``): a tool's result may hand off without the
        message saying so.
        """
        name = getattr(self._group_next_target, "agent_name", None)
        return name if isinstance(name, str) else None

    # ----------------------------------------------------------------- who called the tools
    def set_tool_call_originator(self, agent_name: str) -> None:
        """Sets the original agent that initiated the tool call (for safeguard transparency)."""
        self._tool_call_originator = agent_name

    def get_tool_call_originator(self) -> Optional[str]:
        """Gets the original agent that initiated the tool call."""
        return self._tool_call_originator

    def clear_tool_call_originator(self) -> None:
        """Clears the tool call originator."""
        self._tool_call_originator = None

    # ----------------------------------------------------------------- the agents' tools
    def _modify_context_variables_param(
        self, f: Callable[..., Any], context_variables: ContextVariables
    ) -> Callable[..., Any]:
        """A wrapper of ``f`` whose ``context_variables`` parameter is injected with ``context_variables``."""
        sig = inspect.signature(f)
        if is_async_callable(f):

            async def _async_wrapper(*args: Any, **kwargs: Any) -> Any:
                return await f(*args, **kwargs)

            wrapper: Callable[..., Any] = _async_wrapper
        else:

            def _sync_wrapper(*args: Any, **kwargs: Any) -> Any:
                return f(*args, **kwargs)

            wrapper = _sync_wrapper
        if __CONTEXT_VARIABLES_PARAM_NAME__ in sig.parameters:
            params = [
                param.replace(annotation=Annotated[ContextVariables, Depends(on(context_variables))])
                if name == __CONTEXT_VARIABLES_PARAM_NAME__ else param
                for name, param in sig.parameters.items()
            ]
            wrapper.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
        return wrapper

    def make_tool_copy_with_context_variables(
        self, current_tool: Tool, context_variables: ContextVariables
    ) -> Optional[Tool]:
        """A copy of ``current_tool`` whose ``context_variables`` parameter is injected (None when it has none)."""
        properties = current_tool.tool_schema["function"].get("parameters", {}).get("properties", {})
        if __CONTEXT_VARIABLES_PARAM_NAME__ not in properties:
            return None
        func = inject_params(self._modify_context_variables_param(current_tool.func, context_variables))
        return Tool(func_or_tool=func, name=current_tool.name, description=current_tool.description)

    def _change_tool_context_variables_to_depends(
        self, agent: ConversableAgent, current_tool: Tool, context_variables: ContextVariables
    ) -> None:
        """Offer ``agent``'s model the tool without its ``context_variables`` parameter (injected instead)."""
        new_tool = self.make_tool_copy_with_context_variables(current_tool, context_variables)
        if new_tool is not None:
            agent.remove_tool_for_llm(current_tool)
            agent.register_for_llm()(new_tool)

    def register_agents_functions(self, agents: list[ConversableAgent], context_variables: ContextVariables) -> None:
        """Take on the functions and tools of ``agents``; their ``context_variables`` parameters are injected."""
        for agent in agents:
            self._function_map.update(agent._function_map)
            for tool in agent.tools:
                self._change_tool_context_variables_to_depends(agent, tool, context_variables)
            for tool in agent.tools:
                self.register_for_execution(serialize=False, silent_override=True)(tool)
                self._tool_names.add(tool.name)

    # ----------------------------------------------------------------- hand-off tools
    def _agents(self) -> Any:
        manager = self._group_manager
        return None if manager is None else manager.groupchat

    def function_is_agent_llm_handoff(self, agent_name: str, function_name: str) -> bool:
        """Whether ``function_name`` is the hand-off tool of one of the LLM conditions of the agent ``agent_name``."""
        groupchat = self._agents()
        agent = None if groupchat is None else groupchat.agent_by_name(agent_name)
        handoffs = getattr(agent, "handoffs", None)
        if agent is None or handoffs is None:
            return False
        return any(condition.llm_function_name == function_name for condition in handoffs.llm_conditions)

    def get_sender_agent_for_message(self, message: dict[str, Any]) -> Optional[Agent]:
        """The agent of the group that wrote ``message`` (by its ``name``), or None."""
        groupchat = self._agents()
        if "name" in message and groupchat is not None:
            return groupchat.agent_by_name(message.get("name"))  # type: ignore[no-any-return]
        return None

    def is_handoff_function(self, message: dict[str, Any]) -> bool:
        """Whether a tool call of ``message`` is a hand-off tool of its author's LLM conditions."""
        name = message.get("name")
        if not name or "tool_calls" not in message or self._group_manager is None:
            return False
        return any(
            self.function_is_agent_llm_handoff(name, call["function"]["name"])
            for call in message["tool_calls"]
            if "function" in call and "name" in call["function"]
        )

    def _send_llm_handoff_event(self, message: dict[str, Any], transition_target: TransitionTarget) -> None:
        if self.is_handoff_function(message):
            source = self.get_sender_agent_for_message(message)
            if source:
                IOStream.get_default().send(
                    OnConditionLLMTransitionEvent(source_agent=source, transition_target=transition_target)
                )

    def _send_reply_result_handoff_event(self, message: dict[str, Any], transition_target: TransitionTarget) -> None:
        source = self.get_sender_agent_for_message(message)
        if source:
            IOStream.get_default().send(
                ReplyResultTransitionEvent(source_agent=source, transition_target=transition_target)
            )

    # ----------------------------------------------------------------- the tool reply
    def _normalize_tool_content(self, content: Any) -> str:
        """A tool's return value as the text of its tool response."""
        if content is None:
            return ""
        if isinstance(content, str):
            return content
        if isinstance(content, list) and content and all(isinstance(i, dict) and "type" in i for i in content):
            return content_str(content)  # message content parts
        try:
            return json.dumps(content)
        except (TypeError, ValueError):
            return str(content)  # a ReplyResult reads as its message, a target as "Transfer to ..."

    def _begin(self, messages: Optional[list[dict[str, Any]]], sender: Optional[Agent]) -> dict[str, Any]:
        if messages is None:
            messages = self._oai_messages[sender]
        message = messages[-1]
        self.set_tool_call_originator(message.get("name", sender.name if sender else "unknown"))
        return message

    def _take(self, call_message: dict[str, Any], function_name: str, tool_message: Optional[dict[str, Any]],
              tool_round: ToolRound) -> dict[str, Any]:
        """Read the responses of one call: context updates, the next target and what set it; content to text."""
        if tool_message is None:
            raise ValueError(f"Tool call {function_name!r} did not return a message")
        originator = call_message.get("name") or self._tool_call_originator
        style = self.style
        for response in tool_message["tool_responses"]:
            content = response.get("content")
            if style.read_result is not None:
                content = style.read_result(content, function_name)
            if isinstance(content, ReplyResult):
                if content.context_variables and content.context_variables.to_dict() != {}:
                    self.context_variables.update(content.context_variables.to_dict())
                if content.target is not None:
                    if style.transition_events:
                        self._send_reply_result_handoff_event(call_message, content.target)
                    tool_round.choose(content.target, HandoffStep(
                        "reply_result", originator, target_label(content.target),
                        style.reply_result_via.format(function=function_name)))
            elif isinstance(content, TransitionTarget):
                if style.transition_events:
                    self._send_llm_handoff_event(call_message, content)
                kind = "llm_condition" if self.is_handoff_function(call_message) else "tool_target"
                tool_round.choose(content, HandoffStep(kind, originator, target_label(content), function_name))
            text = style.tool_text(content) if style.tool_text is not None else self._normalize_tool_content(content)
            tool_round.add(response, text)
        return tool_message

    def _with_context_arguments(self, call_message: dict[str, Any], function_name: str) -> dict[str, Any]:
        """``call_message`` with the context variables in its call's JSON arguments, when the style gives them
        that way and the function (a plain one, not a registered tool) declares the parameter."""
        func = self._function_map.get(function_name)
        if not self.style.context_in_arguments or func is None or function_name in self._tool_names:
            return call_message
        try:
            if __CONTEXT_VARIABLES_PARAM_NAME__ not in inspect.signature(func).parameters:
                return call_message
        except (TypeError, ValueError):  # a callable without a readable signature
            return call_message
        function = call_message["tool_calls"][0]["function"]
        try:
            arguments = json.loads(function.get("arguments") or "{}")
        except json.JSONDecodeError:
            return call_message  # the execution reports the bad JSON as the tool's result
        if not isinstance(arguments, dict):
            return call_message
        arguments[__CONTEXT_VARIABLES_PARAM_NAME__] = self._context_variables  # type: ignore[attr-defined]
        function["arguments"] = json.dumps(arguments)  # call_message is already a copy (single_calls)
        return call_message

    def _finish(self, tool_round: ToolRound, tool_message: Optional[dict[str, Any]]) -> tuple[bool, dict[str, Any]]:
        self._group_next_target = tool_round.target
        self._group_next_step = tool_round.step if tool_round.target is not None else None
        if tool_message is None:
            raise ValueError("Tool call did not return a message")
        return True, tool_round.reply(tool_message)

    def _tool_reply_steps(
        self, messages: Optional[list[dict[str, Any]]], sender: Optional[Agent]
    ) -> Generator[RunToolCall, Any, tuple[bool, Optional[dict[str, Any]]]]:
        """The tool reply as steps: the tool calls of the last message run one by one, and their
        ``ReplyResult`` s and targets are read as they come."""
        message = self._begin(messages, sender)
        if not message.get("tool_calls"):
            return False, None
        tool_round, tool_message = ToolRound(), None
        for call_message, name in single_calls(message):
            if name == "__structured_output":
                return True, call_message["tool_calls"][0].get("function", {}).get("arguments", {})
            call_message = self._with_context_arguments(call_message, name)
            reply = yield RunToolCall(self, call_message)
            tool_message = self._take(call_message, name, reply, tool_round)
        return self._finish(tool_round, tool_message)

    def _generate_group_tool_reply(
        self, messages: Optional[list[dict[str, Any]]] = None, sender: Optional[Agent] = None, config: Any = None
    ) -> tuple[bool, Optional[dict[str, Any]]]:
        """Run the tool calls of the last message one by one; read their ``ReplyResult`` s and targets."""
        return run_steps(self._tool_reply_steps(messages, sender))

    async def _a_generate_group_tool_reply(
        self, messages: Optional[list[dict[str, Any]]] = None, sender: Optional[Agent] = None, config: Any = None
    ) -> tuple[bool, Optional[dict[str, Any]]]:
        """(async) The tool reply; async tools run on the chat's event loop."""
        return await a_run_steps(self._tool_reply_steps(messages, sender))
