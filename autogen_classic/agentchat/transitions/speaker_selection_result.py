"""``SpeakerSelectionResult``: what a transition target resolved to, before it is turned into a speaker."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Union

from pydantic import BaseModel

from ..agent import Agent

if TYPE_CHECKING:
    from ..groupchat import GroupChat

__all__ = ["SpeakerSelectionResult"]


class SpeakerSelectionResult(BaseModel):
    """The next step of a group chat: an agent (by name), a speaker selection method, or the end.

    Args:
        terminate: True to end the chat.
        agent_name: the name of the next speaker.
        speaker_selection_method: a speaker selection method of the group chat ("auto", "manual" ...).
    """

    terminate: Optional[bool] = None
    agent_name: Optional[str] = None
    speaker_selection_method: Optional[str] = None

    def get_speaker_selection_result(self, groupchat: GroupChat) -> Union[Agent, str, None]:
        """The agent of ``groupchat`` named ``agent_name``, else the selection method, else None to end.

        Args:
            groupchat: the group chat whose agents are searched.

        Raises:
            ValueError: when the agent is not in the group chat, or nothing was set.
        """
        if self.agent_name is not None:
            agents: list[Any] = list(groupchat.agents)
            for agent in agents:
                if agent.name == self.agent_name:
                    return agent  # type: ignore[no-any-return]
            raise ValueError(
                f"Agent '{self.agent_name}' not found in groupchat. Its agents are "
                f"{[a.name for a in agents]}; add '{self.agent_name}' to the pattern's agents or hand off to one "
                "of them."
            )
        if self.speaker_selection_method is not None:
            return self.speaker_selection_method
        if self.terminate:
            return None
        raise ValueError(
            "Unable to establish speaker selection result. No terminate, agent, or speaker selection method "
            "provided: set agent_name, speaker_selection_method or terminate=True."
        )
