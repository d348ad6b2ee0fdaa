"""One round of a hand-off tool executor: the calls of a message run one at a time, their responses gathered,
and the hand-off the last deciding result chose.

The group's tool executor (``GroupToolExecutor``, also the classic swarm's "Tool_Execution") builds its tool
reply here.
"""

from __future__ import annotations

from copy import deepcopy
from typing import Any, Iterator, Optional

__all__ = ["ToolRound", "single_calls"]


def single_calls(message: dict[str, Any]) -> Iterator[tuple[dict[str, Any], str]]:
    """Copies of ``message`` holding one of its tool calls each, in order, with that call's function name."""
    for call in message.get("tool_calls") or []:
        copy = deepcopy(message)
        copy["tool_calls"] = [deepcopy(call)]
        yield copy, (call.get("function") or {}).get("name", "") or ""


class ToolRound:
    """The tool responses of one message and the hand-off chosen by its results (the last one that chose wins)."""

    def __init__(self) -> None:
        self.responses: list[dict[str, Any]] = []
        self.contents: list[str] = []
        self.target: Any = None
        self.step: Any = None  # what chose the target (a HandoffStep, or the function's name)

    def add(self, response: dict[str, Any], text: str) -> None:
        """Keep one tool response, its content made ``text``."""
        response["content"] = text
        self.responses.append(response)
        self.contents.append(text)

    def choose(self, target: Any, step: Any) -> None:
        """A result chose ``target`` (``step`` says how); a later result may choose again."""
        self.target, self.step = target, step

    def reply(self, message: Optional[dict[str, Any]] = None) -> dict[str, Any]:
        """The tool reply: ``message`` (default a new ``{"role": "tool"}``) with every response, contents joined."""
        reply = message if message is not None else {"role": "tool"}
        reply["tool_responses"] = self.responses
        reply["content"] = "\n".join(self.contents)
        return reply
