"""The events of hand-offs (classic ``autogen.agentchat.group.events.transition_events``).

One event per kind of transition, each naming the agent whose rule moved the turn (``source_agent``)
and the target it moved to (``transition_target``): an after-work target, an ``OnContextCondition``, an
LLM condition (the model called a hand-off tool) and a tool's ``ReplyResult``. They print one blue line,
``***** AfterWork handoff (triage): billing *****``. In JSON the agent is its name and the target its
class and display name (the objects themselves stay on the event for code that reads them).
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Optional

from pydantic import ConfigDict, field_serializer
from termcolor import colored

from ....events.base_event import BaseEvent, resolve_print_callable, wrap_event

__all__ = [
    "AfterWorksTransitionEvent",
    "OnConditionLLMTransitionEvent",
    "OnContextConditionTransitionEvent",
    "ReplyResultTransitionEvent",
]


def _agent_name(agent: Any) -> Any:
    return agent.name if hasattr(agent, "name") else agent


def _target_name(target: Any) -> str:
    display = getattr(target, "display_name", None)
    return str(display()) if callable(display) else str(target)


class _TransitionEvent(BaseEvent):
    """What the four transition events share: the source agent, the target and the printed line."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    source_agent: Any
    transition_target: Any

    def __init__(self, source_agent: Any, transition_target: Any, **data: Any) -> None:
        super().__init__(source_agent=source_agent, transition_target=transition_target, **data)

    @field_serializer("source_agent", when_used="json")
    def _source_as_name(self, agent: Any) -> Any:
        name = _agent_name(agent)
        return name if isinstance(name, (str, int, float, bool, type(None))) else str(name)

    @field_serializer("transition_target", when_used="json")
    def _target_as_data(self, target: Any) -> Any:
        if isinstance(target, (str, type(None))):
            return target
        return {"type": type(target).__name__, "display_name": _target_name(target)}

    _label: ClassVar[str] = ""

    def print(self, f: Optional[Callable[..., Any]] = None) -> None:
        """Print ``***** <kind> (<source agent>): <target> *****`` in blue."""
        resolve_print_callable(f)(
            colored(f"***** {self._label} ({_agent_name(self.source_agent)}): "
                    f"{_target_name(self.transition_target)} *****", "blue"),
            flush=True,
        )


@wrap_event
class AfterWorksTransitionEvent(_TransitionEvent):
    """An agent's after-work target moved the turn (it replied without handing off otherwise)."""

    _label: ClassVar[str] = "AfterWork handoff"


@wrap_event
class OnContextConditionTransitionEvent(_TransitionEvent):
    """An ``OnContextCondition`` of the agent held on the context variables: it hands off without replying."""

    _label: ClassVar[str] = "OnContextCondition handoff"


@wrap_event
class OnConditionLLMTransitionEvent(_TransitionEvent):
    """The agent's model called one of its hand-off tools (an ``OnCondition``)."""

    _label: ClassVar[str] = "LLM-based OnCondition handoff"


@wrap_event
class ReplyResultTransitionEvent(_TransitionEvent):
    """A tool the agent called returned a ``ReplyResult`` with a target."""

    _label: ClassVar[str] = "ReplyResult transition"
