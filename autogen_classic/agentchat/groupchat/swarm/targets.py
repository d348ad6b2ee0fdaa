"""The classic swarm's hand-offs as the engine's data: where an ``ON_CONDITION``, an ``AFTER_WORK`` or a
``SwarmResult`` leads (:class:`SwarmTarget`) and an ``ON_CONDITION``'s callable ``available``
(:class:`SwarmAvailableCondition`).

A swarm names its next speaker the ag2 0.7.3 way: an agent, an agent's name, an ``AfterWorkOption`` or a
callable ``(last_speaker, messages, groupchat)`` returning one of those. :class:`SwarmTarget` holds that value
and resolves it as 0.7.3 did (``REVERT_TO_USER`` without a user agent ends the chat, ``SWARM_MANAGER`` is
the group chat's "auto" selection), so the engine's transition treats it like any other target.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from pydantic import ConfigDict, Field, PrivateAttr

from ...conversable_agent import ConversableAgent
from ...transitions import AvailableCondition, SpeakerSelectionResult, TransitionTarget
from .conditions import AFTER_WORK_KINDS, AfterWorkOption

if TYPE_CHECKING:
    from ..group import GroupChat

__all__ = ["SwarmAvailableCondition", "SwarmSelection", "SwarmTarget"]


def _label(value: Any) -> str:
    if isinstance(value, ConversableAgent):
        return value.name
    if isinstance(value, AfterWorkOption):
        return value.value
    if isinstance(value, str):
        return value
    return str(getattr(value, "__name__", value))


def _is_callable_choice(value: Any) -> bool:
    return callable(value) and not isinstance(value, (ConversableAgent, AfterWorkOption))


def _swarm_names(groupchat: GroupChat) -> list[str]:
    """The swarm's agent names, as its transition knows them (every member's name otherwise)."""
    names = getattr(groupchat.speaker_selection_method, "group_agent_names", None)
    return list(names) if names is not None else [agent.name for agent in groupchat.agents]


class SwarmSelection(SpeakerSelectionResult):
    """A swarm's choice of an agent, holding the agent itself: ag2 0.7.3's swarm returns the agent object (the
    user agent of ``REVERT_TO_USER`` too), not the group chat's agent of that name."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    agent: Optional[Any] = Field(default=None, exclude=True, repr=False)

    @classmethod
    def of(cls, agent: ConversableAgent) -> SwarmSelection:
        """The selection of ``agent``."""
        return cls(agent_name=agent.name, agent=agent)

    def get_speaker_selection_result(self, groupchat: GroupChat) -> Any:
        """The agent itself (even one the group chat does not hold, as ag2 0.7.3's ``_determine_next_agent``)."""
        return self.agent if self.agent is not None else super().get_speaker_selection_result(groupchat)


class SwarmTarget(TransitionTarget):
    """Where a classic swarm hands off: an agent, an agent's name, an ``AfterWorkOption`` or a callable.

    Args:
        value: the agent (or its name), the option, or a callable ``(last_speaker, messages, groupchat)``
            returning one of those.
        origin: what set it, for error messages and the selection trace ("after work of triage",
            "returned by lookup_order" ...).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    value: Any = None
    origin: str = ""
    _chosen: Optional[str] = PrivateAttr(default=None)

    def __init__(self, value: Any, origin: str = "", **data: Any) -> None:
        super().__init__(value=value, origin=origin, **data)

    @property
    def is_callable(self) -> bool:
        """Whether the value is a callable deciding at each turn."""
        return _is_callable_choice(self.value)

    @property
    def agent_name(self) -> Optional[str]:
        """The name of the agent it leads to (None for an option or a callable)."""
        if isinstance(self.value, ConversableAgent):
            return self.value.name
        return self.value if isinstance(self.value, str) else None

    def can_resolve_for_speaker_selection(self) -> bool:
        """True: it resolves to an agent, the end of the chat or "auto"."""
        return True

    def resolve(
        self, groupchat: GroupChat, current_agent: ConversableAgent, user_agent: Optional[ConversableAgent]
    ) -> SpeakerSelectionResult:
        """The next speaker as ag2 0.7.3's swarm chose it; ``current_agent`` is the last swarm agent that spoke.

        Raises:
            ValueError: a name or agent outside the swarm, or a value (a callable's return) of another kind.
        """
        choice, origin = self.value, self.origin
        self._chosen = None
        if _is_callable_choice(choice):
            choice = choice(current_agent, groupchat.messages, groupchat)
            origin += " (callable)"
            self._chosen = _label(choice)
        if isinstance(choice, str):
            names = _swarm_names(groupchat)
            # ag2 0.7.3's words first (they differ for an after work and for a hand-off), then where it came from.
            if choice not in names and origin.startswith("after work"):
                raise ValueError(f"Invalid agent name in after_work: {choice} (set by the {origin}). Ensure the "
                                 f"agent exists in the swarm; its agents are {names}.")
            if choice not in names:
                raise ValueError(f"No agent found with the name '{choice}'. Ensure the agent exists in the swarm "
                                 f"(the name was {origin}; its agents are {names}).")
            return SpeakerSelectionResult(agent_name=choice)
        if isinstance(choice, ConversableAgent):
            if choice not in groupchat.agents:
                raise ValueError(f"{origin} chose the agent {choice.name!r}, which is not in the swarm; its agents "
                                 f"are {_swarm_names(groupchat)}.")
            return SwarmSelection.of(choice)
        if isinstance(choice, AfterWorkOption):
            if choice is AfterWorkOption.STAY:
                return SwarmSelection.of(current_agent)
            if choice is AfterWorkOption.SWARM_MANAGER:
                return SpeakerSelectionResult(speaker_selection_method="auto")
            if choice is AfterWorkOption.REVERT_TO_USER and user_agent is not None:
                return SwarmSelection.of(user_agent)
            return SpeakerSelectionResult(terminate=True)  # TERMINATE, or no user to revert to
        raise ValueError(f"Invalid After Work condition or return value from callable ({origin}): {choice!r}; "
                         f"accepted: {AFTER_WORK_KINDS}; a callable may also return an agent's name.")

    def display_name(self) -> str:
        """The agent's name or the option; for a callable, what it chose last."""
        return self._chosen if self.is_callable and self._chosen else _label(self.value)

    def normalized_name(self) -> str:
        """As :meth:`display_name` (the transfer tools are ``transfer_<agent>_to_<this>``)."""
        return self.display_name()

    def __str__(self) -> str:
        # A transfer tool's response: the agent's own text, "SwarmAgent --> <name>".
        return str(self.value)

    def needs_agent_wrapper(self) -> bool:
        """False."""
        return False

    def create_wrapper_agent(self, parent_agent: ConversableAgent, index: int) -> ConversableAgent:
        """Not needed: raises NotImplementedError."""
        raise NotImplementedError("SwarmTarget does not require wrapping in an agent.")


class SwarmAvailableCondition(AvailableCondition):
    """An ``ON_CONDITION``'s callable ``available``: ``function(agent, messages) -> bool``, given the messages
    the agent exchanged with its first chat partner (the swarm's manager), as ag2 0.7.3 gives them.

    Args:
        function: the callable.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    function: Callable[..., Any]

    def is_available(self, agent: ConversableAgent, messages: list[dict[str, Any]]) -> bool:
        """What the callable says of ``agent`` and its messages."""
        return bool(self.function(agent, next(iter(agent.chat_messages.values()), [])))
