"""Conditions on tool/function results: ``FunctionCallTermination`` (a function was executed) and
``HandoffTermination`` (a swarm hand-off to a given agent happened)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Optional

from .base import StopMessage, TerminationCondition, TerminationContext
from .reading import ToolResult, message_source, requested_calls, shorten, tool_results

__all__ = ["FunctionCallTermination", "HandoffTermination"]


class _CallIndex:
    """Which function (and which agent) each tool call id belongs to, learnt from the messages seen and, for
    ids not seen, from the chat history in the context."""

    def __init__(self) -> None:
        self._calls: dict[str, tuple[str, Optional[str]]] = {}
        self._legacy: dict[str, Optional[str]] = {}  # function name -> the agent whose function_call it was

    def clear(self) -> None:
        self._calls.clear()
        self._legacy.clear()

    def learn(self, message: dict[str, Any], caller: Optional[str]) -> None:
        for call_id, name in requested_calls(message).items():
            if call_id is None:
                self._legacy[name] = caller
            else:
                self._calls[str(call_id)] = (name, caller)

    def resolve(self, result: ToolResult, context: Optional[TerminationContext]) -> tuple[Optional[str], Optional[str]]:
        """(function name, caller) of a result; (None, None) when nothing tells."""
        key = None if result.call_id is None else str(result.call_id)
        if key is not None and key not in self._calls and context is not None:
            for message in context.messages:
                if isinstance(message, dict):
                    self.learn(message, message_source(message, None, False))
        if key is not None and key in self._calls:
            name, caller = self._calls[key]
            return result.name or name, caller
        if result.name is not None:
            return result.name, self._legacy.get(result.name)
        return None, None

    def results(
        self, messages: list[dict[str, Any]], context: Optional[TerminationContext]
    ) -> Iterator[tuple[ToolResult, Optional[str], Optional[str], Optional[str]]]:
        """Each tool result of ``messages`` as (result, function name, caller, the message's sender), learning the
        calls of the messages on the way (a result may answer a call of the same batch)."""
        for position, message in enumerate(messages):
            speaker = message_source(message, context, position == len(messages) - 1)
            self.learn(message, speaker)
            for result in tool_results(message):
                function, caller = self.resolve(result, context)
                yield result, function, caller, speaker


class FunctionCallTermination(TerminationCondition):
    """Fires when the result of a call to ``function_name`` appears: a ``role: "function"`` message with that
    ``name``, or a tool result (``tool_responses`` or a ``role: "tool"`` message) whose ``tool_call_id``
    belongs to a call of that function (found in the messages seen or in ``context.messages``).

    Args:
        function_name: the function's (tool's) name.
    """

    def __init__(self, function_name: str) -> None:
        super().__init__()
        if not isinstance(function_name, str) or not function_name:
            raise TypeError(f"FunctionCallTermination: function_name must be the function's name (a non-empty str); "
                            f"got {shorten(function_name)}. For a function object f, pass f.__name__.")
        self.function_name = function_name
        self._index = _CallIndex()

    def _describe_args(self) -> str:
        return repr(self.function_name)

    def _reset_state(self) -> None:
        self._index.clear()

    def _evaluate(self, messages: list[dict[str, Any]], context: Optional[TerminationContext]) -> Optional[StopMessage]:
        for result, name, caller, speaker in self._index.results(messages, context):
            if name == self.function_name:
                return StopMessage(content=f"Function '{self.function_name}' was executed.",
                                   source=type(self).__name__,
                                   details={"function_name": self.function_name, "call_id": result.call_id,
                                            "caller": caller, "speaker": speaker})
        return None


_SWARM_AGENT_TEXT = re.compile(r"SwarmAgent --> (.+)", re.DOTALL)


class HandoffTermination(TerminationCondition):
    """Fires when a hand-off to ``target`` happened (e.g. to stop when the swarm hands off to the user).

    A hand-off shows in three forms, all recognised:

    * the result of a transfer tool: its content is ``"SwarmAgent --> <target>"`` (what a swarm's transfer
      function returns, the text of the target agent);
    * the result of a call to a function named ``transfer_<agent>_to_<target>`` (optionally ending ``_2``,
      ``_3``, ... for repeated hand-offs to one agent; ``transfer_to_<target>`` too), matched through its
      ``tool_call_id``, when the result's text does not name another agent;
    * ``context.handoff == target``: the chat knows of a hand-off the messages do not show, such as a swarm
      function returning ``SwarmResult(agent=...)`` (the message keeps only the result's ``values`` text).

    An ``AFTER_WORK`` transition is the swarm's choice of the next speaker, not a hand-off, and does not fire.

    Args:
        target: the name of the agent (or the agent itself) handed off to.
    """

    def __init__(self, target: Any) -> None:
        super().__init__()
        name = target if isinstance(target, str) else getattr(target, "name", None)
        if not isinstance(name, str) or not name:
            raise TypeError(f"HandoffTermination: target must be an agent's name (a non-empty str) or the agent; got "
                            f"{shorten(target)} ({type(target).__name__}).")
        self.target = name
        self._transfer = re.compile(rf"transfer_(?:.+_)?to_{re.escape(name)}(?:_\d+)?")
        self._index = _CallIndex()

    def _describe_args(self) -> str:
        return repr(self.target)

    def _reset_state(self) -> None:
        self._index.clear()

    def _hands_off(self, result: ToolResult, function: Optional[str]) -> bool:
        named = _SWARM_AGENT_TEXT.fullmatch(result.content.strip())
        if named is not None:  # the result names the agent: decisive
            return named.group(1) == self.target
        return function is not None and self._transfer.fullmatch(function) is not None

    def _fired(self, speaker: Optional[str], via: Optional[str], form: str) -> StopMessage:
        origin = f" from {speaker}" if speaker else ""
        return StopMessage(content=f"Handoff to {self.target}{origin} detected.", source=type(self).__name__,
                           details={"target": self.target, "speaker": speaker, "via": via, "form": form})

    def _evaluate(self, messages: list[dict[str, Any]], context: Optional[TerminationContext]) -> Optional[StopMessage]:
        for result, function, caller, speaker in self._index.results(messages, context):
            if self._hands_off(result, function):
                return self._fired(caller or speaker, function, "tool_result")
        if context is not None and context.handoff == self.target:
            return self._fired(context.speaker, None, "context")
        return None
