"""The swarm's tool executor ("Tool_Execution"): runs the tool calls of every swarm agent, injects the
context variables, applies ``SwarmResult``s and remembers the hand-off a tool result chose.

Its tool reply is built by the hand-off engine's ``ToolRound``, as the group tool executor's is."""

from __future__ import annotations

import json
from inspect import signature
from typing import Any, Optional

from ...agent import Agent
from ..handoffs.tool_round import ToolRound
from .conditions import SwarmResult
from .swarm_agent import CONTEXT_VARIABLES_PARAM, SwarmAgent

__all__ = ["TOOL_EXECUTOR_NAME", "make_tool_executor"]

TOOL_EXECUTOR_NAME = "Tool_Execution"


def _with_context(executor: SwarmAgent, tool_call: dict[str, Any]) -> dict[str, Any]:
    """The call's ``function`` dict, with the context variables added when the function declares them."""
    function = dict(tool_call.get("function") or {})
    func = executor._function_map.get(function.get("name", ""))
    if func is not None and CONTEXT_VARIABLES_PARAM in signature(func).parameters:
        try:
            arguments = json.loads(function.get("arguments") or "{}")
        except json.JSONDecodeError:
            return function  # the executor reports the bad JSON as the tool's result
        arguments[CONTEXT_VARIABLES_PARAM] = executor._context_variables
        function["arguments"] = json.dumps(arguments)
    return function


def generate_swarm_tool_reply(
    self: SwarmAgent, messages: Optional[list[dict[str, Any]]] = None, sender: Optional[Agent] = None,
    config: Any = None,
) -> tuple[bool, Optional[dict[str, Any]]]:
    """Execute the tool calls of the last message; remember a hand-off in ``self._next_agent``."""
    if messages is None:
        messages = self._oai_messages[sender]
    message = messages[-1]
    if "tool_calls" not in message:
        return False, None
    tool_round = ToolRound()
    for tool_call in message["tool_calls"] or []:
        function = _with_context(self, tool_call)
        _, result = self.execute_function(function, call_id=tool_call.get("id"))
        content = result.get("content")
        if isinstance(content, SwarmResult):
            if content.context_variables:
                self._context_variables.update(content.context_variables)
            if content.agent is not None:
                tool_round.choose(content.agent, function.get("name"))
        elif isinstance(content, Agent):
            tool_round.choose(content, function.get("name"))
        tool_round.add({"tool_call_id": tool_call.get("id"), "role": "tool"}, "" if content is None else str(content))
    self._next_agent = tool_round.target
    self._handoff_function = tool_round.step
    return True, tool_round.reply()


def make_tool_executor(agents: list[SwarmAgent]) -> SwarmAgent:
    """The executor of a swarm: every function (transfer tools included) of ``agents``, and only the tool reply."""
    executor = SwarmAgent(name=TOOL_EXECUTOR_NAME, system_message="Tool Execution")
    executor.hook_lists["update_agent_state"].clear()
    executor._reply_func_list.clear()
    executor.register_reply([Agent, None], generate_swarm_tool_reply)
    executor._handoff_function = None
    for agent in agents:
        executor._function_map.update(agent._function_map)
        for name, (func, _) in agent._conditional_functions.items():
            executor._function_map[name] = func
    return executor
