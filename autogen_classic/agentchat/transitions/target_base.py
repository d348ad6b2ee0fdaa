"""``TransitionTarget``: where a hand-off leads (an agent, the user, the end ...), the base of every target."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Optional

from pydantic import BaseModel

from .speaker_selection_result import SpeakerSelectionResult

if TYPE_CHECKING:
    from ..conversable_agent import ConversableAgent
    from ..groupchat import GroupChat

__all__ = [
    "__AGENT_WRAPPER_PREFIX__",
    "ChatWrappedTarget",
    "TransitionTarget",
    "UnwrappedTarget",
    "describe",
    "must_be_target",
]

# The names of the agents made to wrap a nested chat or a group chat start with this.
__AGENT_WRAPPER_PREFIX__ = "wrapped_"


def describe(value: Any) -> str:
    """``value`` for an error message: its type and a short form (an agent by its name)."""
    name = getattr(value, "name", None)
    if isinstance(name, str) and not isinstance(value, (str, BaseModel)):
        return f"{type(value).__name__} '{name}'"
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 60 else text[:57] + '...'}"


def must_be_target(value: Any, where: str) -> Any:
    """``value`` when it is a transition target; a clear ``ValueError`` (inside pydantic's) otherwise."""
    if isinstance(value, (TransitionTarget, dict)) or value is None:
        return value
    fix = (
        f"AgentTarget({value.name})" if isinstance(getattr(value, "name", None), str) and not isinstance(value, str)
        else f"AgentNameTarget({value!r})" if isinstance(value, str)
        else "AgentTarget(agent), RevertToUserTarget(), TerminateTarget() ..."
    )
    raise ValueError(f"{where} should be a TransitionTarget; got {describe(value)}. Use {fix}.")


class TransitionTarget(BaseModel):
    """Where a transition leads: the base class of the targets of conditions, after-works and tool results."""

    def can_resolve_for_speaker_selection(self) -> bool:
        """Whether :meth:`resolve` gives a speaker selection result directly (False for the targets that
        must first be wrapped in an agent, such as a nested chat)."""
        return False

    def resolve(
        self,
        groupchat: GroupChat,
        current_agent: ConversableAgent,
        user_agent: Optional[ConversableAgent],
    ) -> SpeakerSelectionResult:
        """The speaker selection result this target leads to.

        Args:
            groupchat: the group chat.
            current_agent: the agent whose transition this is.
            user_agent: the user agent of the chat, if any.
        """
        raise NotImplementedError("Requires subclasses to implement.")

    def display_name(self) -> str:
        """The name of the target as shown to people and models."""
        raise NotImplementedError("Requires subclasses to implement.")

    def normalized_name(self) -> str:
        """The name of the target without spaces, for tool names."""
        raise NotImplementedError("Requires subclasses to implement.")

    def needs_agent_wrapper(self) -> bool:
        """Whether the target must be wrapped in an agent to take part in a group chat."""
        raise NotImplementedError("Requires subclasses to implement.")

    def create_wrapper_agent(self, parent_agent: ConversableAgent, index: int) -> ConversableAgent:
        """The agent that stands for this target in the group chat.

        Args:
            parent_agent: the agent whose hand-off leads here.
            index: the position of the hand-off among the parent's, which makes the wrapper's name unique.
        """
        raise NotImplementedError("Requires subclasses to implement.")

    def activate_target(self, groupchat: GroupChat) -> None:
        """Make this target the next one: the group's tool executor moves the chat here on the next turn.

        Args:
            groupchat: the group chat, whose tool executor (the agent with ``set_next_target``) is told.
        """
        for agent in groupchat.agents:
            set_next_target = getattr(agent, "set_next_target", None)
            if callable(set_next_target):
                set_next_target(self)
                return


class UnwrappedTarget(TransitionTarget):
    """A target the group chat takes as it is (an agent, the user, the end ...): :meth:`resolve` gives the
    speaker selection result and no agent is made for it."""

    def can_resolve_for_speaker_selection(self) -> bool:
        """True: :meth:`resolve` gives the speaker selection result."""
        return True

    def needs_agent_wrapper(self) -> bool:
        """False: no agent is made for the target."""
        return False

    def create_wrapper_agent(self, parent_agent: ConversableAgent, index: int) -> ConversableAgent:
        """Not needed: raises NotImplementedError."""
        raise NotImplementedError(f"{type(self).__name__} does not require wrapping in an agent.")


class ChatWrappedTarget(TransitionTarget):
    """A target that is a chat of its own (a nested chat, a group chat): an agent made for it runs the chat,
    and the transition leads to that agent. Subclasses say what the chat is (``_chat_kind``) and make the agent.
    """

    _chat_kind: ClassVar[str] = "chat"  # "nested chat", "group chat": how the target is named

    def can_resolve_for_speaker_selection(self) -> bool:
        """False: the chat is wrapped in an agent first."""
        return False

    def resolve(
        self, groupchat: GroupChat, current_agent: ConversableAgent, user_agent: Optional[ConversableAgent]
    ) -> SpeakerSelectionResult:
        """Not possible: raises NotImplementedError (the wrapper agent is the target)."""
        raise NotImplementedError(
            f"{type(self).__name__} does not support the resolve method. An agent should be used to encapsulate "
            "this nested chat and then the target changed to an AgentTarget."
        )

    def display_name(self) -> str:
        """'a nested chat', 'a group chat'."""
        return f"a {self._chat_kind}"

    def normalized_name(self) -> str:
        """'nested_chat', 'group_chat'."""
        return self._chat_kind.replace(" ", "_")

    def __str__(self) -> str:
        return f"Transfer to {self._chat_kind}"

    def needs_agent_wrapper(self) -> bool:
        """True: the chat is run by an agent."""
        return True
