"""``GroupManagerTarget``: the hand-off to the group manager's choice (the "auto" speaker selection), with
the selection prompts it may be given.

Resolving it sets the group chat's selection prompt, so it lives with the group chat's hand-offs; its
classic path is ``agentchat.group.targets.group_manager_target``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from pydantic import BaseModel, field_validator

from ...transitions import ContextStr, SpeakerSelectionResult, TransitionTarget, __AGENT_WRAPPER_PREFIX__
from ..prompts import SELECT_SPEAKER_PROMPT_TEMPLATE
from .executor import GroupToolExecutor

if TYPE_CHECKING:
    from ...conversable_agent import ConversableAgent
    from ..group import GroupChat

__all__ = [
    "GroupManagerSelectionMessage",
    "GroupManagerSelectionMessageContextStr",
    "GroupManagerSelectionMessageString",
    "GroupManagerTarget",
    "prepare_groupchat_auto_speaker",
]


class GroupManagerSelectionMessage(BaseModel):
    """The base of the selection messages the group manager can be given."""

    def get_message(self, agent: ConversableAgent) -> str:
        """The selection prompt template for ``agent``'s turn."""
        raise NotImplementedError("Requires subclasses to implement.")


class GroupManagerSelectionMessageString(GroupManagerSelectionMessage):
    """A selection prompt template given as text.

    Args:
        message: the template (``{agentlist}`` and the group chat's other fields are filled in).
    """

    message: str

    def get_message(self, agent: ConversableAgent) -> str:
        """The text as given."""
        return self.message


class GroupManagerSelectionMessageContextStr(GroupManagerSelectionMessage):
    """A selection prompt template whose ``{name}`` fields are context variables (``{agentlist}`` is kept).

    Args:
        context_str_template: the template.
    """

    context_str_template: str

    @field_validator("context_str_template", mode="before")
    @classmethod
    def _keep_agentlist(cls, value: Any) -> Any:
        # {agentlist} is filled by the group chat, later: hidden from the context-variable formatting.
        if isinstance(value, str):
            return value.replace("{agentlist}", "<<agent_list>>")
        return ""

    def get_message(self, agent: ConversableAgent) -> str:
        """The template with ``agent``'s context variables filled in and ``{agentlist}`` restored."""
        text = ContextStr(template=self.context_str_template).format(agent.context_variables)
        return "" if text is None else text.replace("<<agent_list>>", "{agentlist}")


def prepare_groupchat_auto_speaker(
    groupchat: GroupChat,
    last_group_agent: ConversableAgent,
    group_chat_manager_selection_msg: Optional[Any],
) -> None:
    """Set ``groupchat`` up for the "auto" selection by the group manager: its selection prompt (the given
    message, else the default) lists the group's agents without the tool executor and wrapper agents.

    Args:
        groupchat: the group chat.
        last_group_agent: the agent whose context variables fill a ``GroupManagerSelectionMessageContextStr``.
        group_chat_manager_selection_msg: a ``GroupManagerSelectionMessage``, or None for the default prompt.
    """
    agent_list = [
        agent for agent in groupchat.agents
        if not isinstance(agent, GroupToolExecutor) and not agent.name.startswith(__AGENT_WRAPPER_PREFIX__)
    ]
    template = (
        SELECT_SPEAKER_PROMPT_TEMPLATE if group_chat_manager_selection_msg is None
        else group_chat_manager_selection_msg.get_message(last_group_agent)
    )
    groupchat.select_speaker_prompt_template = template
    groupchat.select_speaker_prompt_template = groupchat.select_speaker_prompt(agent_list)


class GroupManagerTarget(TransitionTarget):
    """The group manager picks the next speaker (the "auto" speaker selection).

    Args:
        selection_message: the selection prompt to use (None: the group chat's default).
    """

    selection_message: Optional[GroupManagerSelectionMessage] = None

    def can_resolve_for_speaker_selection(self) -> bool:
        """True."""
        return True

    def resolve(
        self, groupchat: GroupChat, current_agent: ConversableAgent, user_agent: Optional[ConversableAgent]
    ) -> SpeakerSelectionResult:
        """The "auto" speaker selection method (with this target's selection message, if any)."""
        if self.selection_message is not None:
            prepare_groupchat_auto_speaker(groupchat, current_agent, self.selection_message)
        return SpeakerSelectionResult(speaker_selection_method="auto")

    def display_name(self) -> str:
        """'the group manager'."""
        return "the group manager"

    def normalized_name(self) -> str:
        """As :meth:`display_name` (the classic value, spaces included)."""
        return self.display_name()

    def __str__(self) -> str:
        return "Transfer to the group manager"

    def needs_agent_wrapper(self) -> bool:
        """False."""
        return False

    def create_wrapper_agent(self, parent_agent: ConversableAgent, index: int) -> ConversableAgent:
        """Not needed: raises NotImplementedError."""
        raise NotImplementedError("GroupManagerTarget does not require wrapping in an agent.")
