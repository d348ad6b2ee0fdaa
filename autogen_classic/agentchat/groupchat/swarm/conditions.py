"""The swarm's hand-off vocabulary: what happens after an agent's turn and how a tool result hands off.

``ON_CONDITION`` offers the model a transfer tool, ``AFTER_WORK`` decides who follows a reply without tool
calls, ``UPDATE_SYSTEM_MESSAGE`` rewrites an agent's system message before it replies, and ``SwarmResult`` is
what a swarm function may return to update the context variables and hand off.
"""

from __future__ import annotations

import re
import warnings
from abc import ABC
from dataclasses import dataclass
from enum import Enum
from inspect import signature
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

from pydantic import BaseModel, ConfigDict

from ...conversable_agent import ConversableAgent

if TYPE_CHECKING:
    from .swarm_agent import SwarmAgent

__all__ = ["AFTER_WORK", "ON_CONDITION", "UPDATE_SYSTEM_MESSAGE", "AfterWork", "AfterWorkOption",
           "InvalidAfterWorkError", "OnCondition", "SwarmMember", "SwarmResult"]


class AfterWorkOption(Enum):
    """What follows an agent's reply that has no tool call (unless a hand-off already chose)."""

    TERMINATE = "TERMINATE"
    REVERT_TO_USER = "REVERT_TO_USER"
    STAY = "STAY"
    SWARM_MANAGER = "SWARM_MANAGER"


_OPTIONS = ", ".join(option.value for option in AfterWorkOption)
AFTER_WORK_KINDS = f"an AfterWorkOption ({_OPTIONS}), its name as a str, a SwarmAgent or a callable"


class SwarmMember(ABC):  # a marker; SwarmAgent registers itself (its module imports this one)
    """What can take part in a swarm: ``SwarmAgent`` and its subclasses (``SwarmMember.register(SwarmAgent)``)."""


class InvalidAfterWorkError(ValueError, AssertionError):
    """An ``AFTER_WORK`` holding a value of no accepted kind, found when it is registered.

    An ``AssertionError`` as ag2 0.7.3's ``register_hand_off`` raises it ("Invalid After Work value"), and a
    ``ValueError``, the error of bad input elsewhere in this package.
    """


def after_work_option(name: str) -> AfterWorkOption:
    """The option named ``name`` (any case); ValueError naming the accepted options otherwise."""
    try:
        return AfterWorkOption(name.upper())
    except ValueError:
        # ag2 0.7.3's words first (its AFTER_WORK converts the str with the enum), then the way out.
        raise ValueError(f"{name.upper()!r} is not a valid AfterWorkOption; AFTER_WORK takes one of {_OPTIONS} as a "
                         "str. To hand off to an agent pass the agent itself, or name it in "
                         "initiate_swarm_chat(after_work=...) or in what an after-work callable returns.") from None


def is_after_work_choice(value: Any) -> bool:
    """Whether ``value`` is something an ``AFTER_WORK`` may hold: an option, an agent, a name or a callable."""
    return isinstance(value, (AfterWorkOption, ConversableAgent, str)) or callable(value)


@dataclass
class AFTER_WORK:  # noqa: N801 - the classic name
    """Who speaks after an agent answers without a tool call.

    Args:
        agent: an ``AfterWorkOption`` (or its name as a str), a ``SwarmAgent``, or a callable
            ``(last_speaker, messages, groupchat) -> AfterWorkOption | SwarmAgent | str``.
    """

    agent: Union[AfterWorkOption, SwarmAgent, str, Callable[..., Any]]

    def __post_init__(self) -> None:
        # As in ag2 0.7.3: a str is an option's name; any other value is checked when the hand-off is registered
        # (``register_hand_off``) or, assigned directly, when the after work is used.
        if isinstance(self.agent, str):
            self.agent = after_work_option(self.agent)


@dataclass
class ON_CONDITION:  # noqa: N801 - the classic name
    """A hand-off the model may choose: a transfer tool whose description is ``condition``.

    Args:
        target: the SwarmAgent to hand off to, or a nested-chat configuration (a dict with "chat_queue").
        condition: when to hand off, in words for the model (the transfer tool's description).
        available: when the hand-off is offered: the name of a context variable (offered when truthy) or a
            callable ``(agent, messages) -> bool``; None: always.
    """

    target: Union[SwarmAgent, dict[str, Any], None] = None
    condition: str = ""
    available: Optional[Union[Callable[..., Any], str]] = None

    def __post_init__(self) -> None:
        # AssertionError, as in the classic package, raised explicitly so that ``python -O`` keeps the check.
        # A SwarmAgent only, as in ag2 0.7.3: a plain ConversableAgent cannot be a member of a swarm.
        if self.target is not None and not isinstance(self.target, (SwarmMember, dict)):
            raise AssertionError(f"'target' must be a SwarmAgent or a Dict (nested chat configuration); "
                                 f"got {type(self.target).__name__}.")
        if not isinstance(self.condition, str) or not self.condition.strip():
            raise AssertionError(f"'condition' must be a non-empty string (the transfer tool's description); "
                                 f"got {self.condition!r}.")
        if self.available is not None and not (isinstance(self.available, str) or callable(self.available)):
            raise AssertionError(f"'available' must be a callable or a string (a context variable name); "
                                 f"got {type(self.available).__name__}.")


@dataclass
class UPDATE_SYSTEM_MESSAGE:  # noqa: N801 - the classic name
    """A new system message for an agent, computed before each of its replies.

    Args:
        update_function: a template str whose ``{name}`` fields are filled from the context variables, or a
            callable ``(agent, messages) -> str`` (annotated ``-> str``).
    """

    update_function: Union[Callable[..., str], str]

    def __post_init__(self) -> None:
        if isinstance(self.update_function, str):
            if not re.findall(r"\{(\w+)\}", self.update_function):
                warnings.warn("Update function string contains no variables. This is probably unintended.",
                              stacklevel=3)
        elif callable(self.update_function):
            sig = signature(self.update_function)
            if len(sig.parameters) != 2:
                raise ValueError("Update function must accept two parameters of type ConversableAgent and "
                                 "List[Dict[str Any]], respectively")
            if sig.return_annotation is not str:
                raise ValueError("Update function must return a string")
        else:
            raise ValueError("Update function must be either a string or a callable")


class SwarmResult(BaseModel):
    """What a swarm function may return.

    Args:
        values: the tool response text.
        agent: hand off to this agent (a SwarmAgent or its name) or apply this AfterWorkOption.
        context_variables: entries merged into the swarm's context variables.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    values: str = ""
    agent: Optional[Union[ConversableAgent, str, AfterWorkOption]] = None
    context_variables: dict[str, Any] = {}

    def __str__(self) -> str:
        return self.values


# The newer spellings of the same classes.
OnCondition = ON_CONDITION
AfterWork = AFTER_WORK
