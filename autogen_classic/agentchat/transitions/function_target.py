"""``FunctionTarget``: a hand-off decided by a function of the last message and the context variables."""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..agent import Agent
from .context_variables import ContextVariables
from .speaker_selection_result import SpeakerSelectionResult
from .target_base import TransitionTarget, UnwrappedTarget, describe, must_be_target
from .targets import AgentNameTarget, AgentTarget, RevertToUserTarget, StayTarget

if TYPE_CHECKING:
    from ..conversable_agent import ConversableAgent
    from ..groupchat import GroupChat

__all__ = [
    "FunctionTarget",
    "FunctionTargetMessage",
    "FunctionTargetResult",
    "broadcast",
    "construct_broadcast_messages_list",
    "validate_fn_sig",
]


class FunctionTargetMessage(BaseModel):
    """A message a ``FunctionTarget``'s function sends to one agent.

    Args:
        content: the text.
        msg_target: the agent it is sent to.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    content: str
    msg_target: Agent


class FunctionTargetResult(BaseModel):
    """What a ``FunctionTarget``'s function returns.

    Args:
        messages: messages to send (a list of ``FunctionTargetMessage``, or one text for the next agent).
        context_variables: variables to set in the group's context variables.
        target: where the chat goes next.
    """

    messages: Union[list[FunctionTargetMessage], str, None] = None
    context_variables: Optional[ContextVariables] = None
    target: TransitionTarget

    @field_validator("target", mode="before")
    @classmethod
    def _target(cls, value: Any) -> Any:
        return must_be_target(value, "FunctionTargetResult.target")


def construct_broadcast_messages_list(
    messages: Union[list[FunctionTargetMessage], str],
    group_chat: GroupChat,
    current_agent: ConversableAgent,
    target: TransitionTarget,
    user_agent: Optional[ConversableAgent] = None,
) -> list[FunctionTargetMessage]:
    """The messages to send: a text goes to the agent ``target`` leads to (the current agent when the target
    is not an agent); a list is kept.

    Raises:
        ValueError: when the target names an agent that is not in the group chat.
    """
    if not isinstance(messages, str):
        return messages
    if isinstance(target, (AgentTarget, AgentNameTarget)):
        for agent in group_chat.agents:
            if agent.name == target.agent_name:
                return [FunctionTargetMessage(content=messages, msg_target=agent)]
        raise ValueError(
            f"No agent found with in the group chat matching the target agent name {target.agent_name}. The agents "
            f"are {[a.name for a in group_chat.agents]}."
        )
    if isinstance(target, RevertToUserTarget) and user_agent is not None:
        return [FunctionTargetMessage(content=messages, msg_target=user_agent)]
    if isinstance(target, StayTarget):
        return [FunctionTargetMessage(content=messages, msg_target=current_agent)]
    return [FunctionTargetMessage(content=messages, msg_target=current_agent)]


def broadcast(
    messages: Union[list[FunctionTargetMessage], str],
    group_chat: GroupChat,
    current_agent: ConversableAgent,
    fn_name: str,
    target: TransitionTarget,
    user_agent: Optional[ConversableAgent] = None,
) -> None:
    """Send each message, as a system message from the function, through the current agent's group manager.

    Raises:
        ValueError: when the current agent is not in a group chat (it has no group manager).
    """
    manager = getattr(current_agent, "_group_manager", None)
    if manager is None:
        raise ValueError(
            f"Current agent must have a group manager to broadcast messages: {current_agent.name} is not in a "
            f"running group chat, so the messages of {fn_name} cannot be sent."
        )
    for message in construct_broadcast_messages_list(messages, group_chat, current_agent, target, user_agent):
        manager.send(
            {
                "role": "system",
                "name": f"{fn_name}",
                "content": f"[FUNCTION_HANDOFF] - Reply from function {fn_name}: \n\n {message.content}",
            },
            message.msg_target,
            request_reply=False,
            silent=False,
        )


def validate_fn_sig(incoming_fn: Callable[..., FunctionTargetResult], extra_args: dict[str, Any]) -> None:
    """Check that ``incoming_fn`` can be called as ``fn(last_message, context_variables, **extra_args)``.

    Raises:
        ValueError: when it takes fewer than two parameters, ``extra_args`` names a parameter it does not
            have (and it has no ``**kwargs``), or a parameter without a default is not in ``extra_args``.
    """
    name = getattr(incoming_fn, "__name__", repr(incoming_fn))
    params = list(inspect.signature(incoming_fn).parameters.values())
    names = [p.name for p in params]
    if len(params) < 2:
        raise ValueError(
            f"Function '{name}' must accept at least two positional parameters: (output, ctx). Current: {names}"
        )
    if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        invalid = [key for key in extra_args if key not in names]
        if invalid:
            raise ValueError(
                f"Invalid extra_args for function '{name}': {invalid}. Allowed parameters are: {names}."
            )
    extra = [p for p in params[2:] if p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)]
    missing = [p.name for p in extra if p.default is p.empty and p.name not in extra_args]
    if missing:
        raise ValueError(
            f"Missing required extra_args for function '{name}': {missing}. You must supply them via `extra_args`."
        )


class FunctionTarget(UnwrappedTarget):
    """A target decided by calling ``fn(last_message, context_variables, **extra_args)``, which returns a
    ``FunctionTargetResult`` (the next target, and optionally messages and context variables).

    Args:
        incoming_fn: the function.
        extra_args: more keyword arguments for it.
    """

    fn_name: str = Field(...)
    fn: Callable[..., FunctionTargetResult] = Field(..., repr=False)
    extra_args: dict[str, Any] = Field(default_factory=dict)

    def __init__(
        self,
        incoming_fn: Callable[..., FunctionTargetResult],
        *,
        extra_args: Optional[dict[str, Any]] = None,
        **kwargs: Any,
    ) -> None:
        if not callable(incoming_fn):
            raise ValueError(
                "FunctionTarget must be initialized with a callable function as the first argument or 'fn' keyword "
                f"argument; got {describe(incoming_fn)}."
            )
        extra_args = extra_args or {}
        validate_fn_sig(incoming_fn, extra_args)
        name = getattr(incoming_fn, "__name__", type(incoming_fn).__name__)
        super().__init__(fn_name=name, fn=incoming_fn, extra_args=extra_args, **kwargs)

    def can_resolve_for_speaker_selection(self) -> bool:
        """False: the function runs first."""
        return False

    def resolve(
        self, groupchat: GroupChat, current_agent: ConversableAgent, user_agent: Optional[ConversableAgent]
    ) -> SpeakerSelectionResult:
        """Call the function, apply its context variables, send its messages, and resolve its target."""
        last = groupchat.messages[-1] if groupchat.messages else {}
        last_message = last.get("content", "") if isinstance(last, dict) else ""
        result = self.fn(last_message, current_agent.context_variables, **self.extra_args)
        if not isinstance(result, FunctionTargetResult):
            raise ValueError(
                f"FunctionTarget function must return a FunctionTargetResult object: {self.fn_name} returned "
                f"{describe(result)}. Return FunctionTargetResult(target=...)."
            )
        if result.context_variables:
            current_agent.context_variables.update(result.context_variables.to_dict())
        if result.messages:
            broadcast(result.messages, groupchat, current_agent, self.fn_name, result.target, user_agent)
        return result.target.resolve(groupchat, current_agent, user_agent)

    def display_name(self) -> str:
        """The function's name."""
        return self.fn_name

    def normalized_name(self) -> str:
        """The function's name, spaces replaced by _."""
        return self.fn_name.replace(" ", "_")

    def __str__(self) -> str:
        return f"Transfer to tool {self.fn_name}"

    def create_wrapper_agent(self, parent_agent: ConversableAgent, index: int) -> ConversableAgent:
        """Not needed (the function runs inline): raises NotImplementedError."""
        raise NotImplementedError("FunctionTarget is executed inline and needs no wrapper")
