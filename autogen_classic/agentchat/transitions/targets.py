"""The targets that lead to an agent, the user or the end of the chat (a nested chat's target, which makes an
agent, is the group chat's: ``groupchat.handoffs.nested_chat_target``)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar, Optional

from ...exception_utils import InvalidAttributeTypeError
from .speaker_selection_result import SpeakerSelectionResult
from .target_base import UnwrappedTarget, describe

if TYPE_CHECKING:
    from ..conversable_agent import ConversableAgent
    from ..groupchat import GroupChat

__all__ = [
    "AgentNameTarget",
    "AgentTarget",
    "AskUserTarget",
    "RandomAgentTarget",
    "RevertToUserTarget",
    "StayTarget",
    "TerminateTarget",
]


def _agent_name(agent: Any, where: str) -> str:
    name = getattr(agent, "name", None)
    if isinstance(agent, str) or not isinstance(name, str):
        fix = f"AgentNameTarget({agent!r})" if isinstance(agent, str) else f"{where}(the_agent)"
        raise InvalidAttributeTypeError(
            f"{where} takes an agent (an object with a name); got {describe(agent)}. Use {fix}."
        )
    return name


class _ToAgent(UnwrappedTarget):
    """What the targets that name the next agent share: the name is shown as it is, after "Transfer to"."""

    def normalized_name(self) -> str:
        """As :meth:`display_name`."""
        return self.display_name()

    def __str__(self) -> str:
        return f"Transfer to {self.display_name()}"


class _AgentByName(_ToAgent):
    """What AgentTarget and AgentNameTarget share: the turn goes to the agent named ``agent_name``."""

    agent_name: str

    def resolve(
        self, groupchat: GroupChat, current_agent: ConversableAgent, user_agent: Optional[ConversableAgent]
    ) -> SpeakerSelectionResult:
        """The agent, by name."""
        return SpeakerSelectionResult(agent_name=self.agent_name)

    def display_name(self) -> str:
        """The agent's name."""
        return f"{self.agent_name}"


class AgentTarget(_AgentByName):
    """The chat moves to an agent (kept by its name, so the target serializes).

    Args:
        agent: the agent to hand off to.
    """

    agent_name: str

    def __init__(self, agent: ConversableAgent, **data: Any) -> None:
        super().__init__(agent_name=_agent_name(agent, "AgentTarget"), **data)


class AgentNameTarget(_AgentByName):
    """The chat moves to the agent of this name.

    Args:
        agent_name: the name of the agent.
    """

    agent_name: str

    def __init__(self, agent_name: str, **data: Any) -> None:
        if not isinstance(agent_name, str):
            name = getattr(agent_name, "name", None)
            fix = "AgentTarget(the_agent)" if isinstance(name, str) else "AgentNameTarget('agent_name')"
            raise ValueError(f"AgentNameTarget takes the name of an agent; got {describe(agent_name)}. Use {fix}.")
        super().__init__(agent_name=agent_name, **data)


class _FixedTarget(UnwrappedTarget):
    """What the targets with a name of their own share (Terminate, Stay, Revert to User, Ask User): the name
    is ``_display``; its normalized form lower case, with _ for spaces; ``str(target)`` the name too, unless
    ``_text`` says otherwise."""

    _display: ClassVar[str]
    _text: ClassVar[str] = ""

    def display_name(self) -> str:
        """The target's name, e.g. 'Revert to User'."""
        return self._display

    def normalized_name(self) -> str:
        """The name in lower case with _ for spaces, e.g. 'revert_to_user'."""
        return self._display.lower().replace(" ", "_")

    def __str__(self) -> str:
        return self._text or self._display


class TerminateTarget(_FixedTarget):
    """The chat ends."""

    _display: ClassVar[str] = "Terminate"

    def resolve(
        self, groupchat: GroupChat, current_agent: ConversableAgent, user_agent: Optional[ConversableAgent]
    ) -> SpeakerSelectionResult:
        """The end of the chat."""
        return SpeakerSelectionResult(terminate=True)


class StayTarget(_FixedTarget):
    """The current agent speaks again."""

    _display: ClassVar[str] = "Stay"
    _text: ClassVar[str] = "Stay with agent"

    def resolve(
        self, groupchat: GroupChat, current_agent: ConversableAgent, user_agent: Optional[ConversableAgent]
    ) -> SpeakerSelectionResult:
        """The current agent."""
        return SpeakerSelectionResult(agent_name=current_agent.name)


class RevertToUserTarget(_FixedTarget):
    """The chat goes back to the user agent."""

    _display: ClassVar[str] = "Revert to User"

    def resolve(
        self, groupchat: GroupChat, current_agent: ConversableAgent, user_agent: Optional[ConversableAgent]
    ) -> SpeakerSelectionResult:
        """The user agent; ValueError when the chat has none."""
        if user_agent is None:
            raise ValueError(
                "User agent must be provided to the chat for the revert_to_user option. Pass user_agent= to the "
                f"pattern, or hand off from {current_agent.name} to another target."
            )
        return SpeakerSelectionResult(agent_name=user_agent.name)


class AskUserTarget(_FixedTarget):
    """The human picks the next speaker (the "manual" speaker selection)."""

    _display: ClassVar[str] = "Ask User"

    def resolve(
        self, groupchat: GroupChat, current_agent: ConversableAgent, user_agent: Optional[ConversableAgent]
    ) -> SpeakerSelectionResult:
        """The "manual" speaker selection method."""
        return SpeakerSelectionResult(speaker_selection_method="manual")


class RandomAgentTarget(_ToAgent):
    """The chat moves to one of these agents, chosen at random (never the current one).

    Args:
        agents: the agents to choose from.
    """

    agent_names: list[str]
    nominated_name: str = "<Not Randomly Selected Yet>"

    def __init__(self, agents: list[ConversableAgent], **data: Any) -> None:
        if isinstance(agents, (str, bytes)) or not hasattr(agents, "__iter__"):
            raise ValueError(f"RandomAgentTarget takes a list of agents; got {describe(agents)}.")
        super().__init__(agent_names=[_agent_name(agent, "RandomAgentTarget") for agent in agents], **data)

    def resolve(
        self, groupchat: GroupChat, current_agent: ConversableAgent, user_agent: Optional[ConversableAgent]
    ) -> SpeakerSelectionResult:
        """A random agent of the list other than ``current_agent`` (remembered as ``nominated_name``)."""
        choices = [name for name in self.agent_names if name != current_agent.name]
        if not choices:
            raise ValueError(
                f"RandomAgentTarget of {current_agent.name} has no agent to choose from besides {current_agent.name} "
                f"(agents: {self.agent_names}); list at least one other agent."
            )
        # A group chat's own generator when it has one (a study's chat, a Pattern given a random_source): the
        # draw then repeats whatever else draws from `random` at the same time.
        self.nominated_name = (getattr(groupchat, "random_source", None) or random).choice(choices)
        return SpeakerSelectionResult(agent_name=self.nominated_name)

    def display_name(self) -> str:
        """The chosen agent's name (a placeholder until one is chosen)."""
        return self.nominated_name
