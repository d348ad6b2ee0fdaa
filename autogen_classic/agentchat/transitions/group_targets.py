"""The targets that lead to a group: another group chat (run by a wrapper agent) or the group manager."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Optional, Union

from pydantic import BaseModel, ConfigDict, field_validator

from .context_str import ContextStr
from .engine_hooks import engine_hook, has_engine_hook
from .speaker_selection_result import SpeakerSelectionResult
from .target_base import __AGENT_WRAPPER_PREFIX__, ChatWrappedTarget, TransitionTarget, describe
from .targets import AgentTarget

if TYPE_CHECKING:
    from ..agent import Agent
    from ..conversable_agent import ConversableAgent
    from ..groupchat import GroupChat

__all__ = [
    "GroupChatConfig",
    "GroupChatTarget",
    "GroupManagerSelectionMessage",
    "GroupManagerSelectionMessageContextStr",
    "GroupManagerSelectionMessageString",
    "GroupManagerTarget",
    "prepare_groupchat_auto_speaker",
]


class GroupChatConfig(BaseModel):
    """A group chat to run as a hand-off target (its context variables default to the outer chat's).

    Args:
        pattern: the pattern of the inner group chat (a ``Pattern`` such as ``AutoPattern``).
        messages: its first message(s).
        max_rounds: its most rounds.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    pattern: Any  # a Pattern: the patterns live above this layer, so the type is checked by a validator
    messages: Union[list[dict[str, Any]], str]
    max_rounds: int = 20

    @field_validator("pattern", mode="before")
    @classmethod
    def _pattern_is_a_pattern(cls, value: Any) -> Any:
        pattern_class = engine_hook("pattern_class", "GroupChatConfig") if has_engine_hook("pattern_class") else None
        if value is None or (pattern_class is not None and not isinstance(value, pattern_class)):
            raise ValueError(
                f"GroupChatConfig.pattern should be a Pattern (AutoPattern, DefaultPattern, RoundRobinPattern ...); "
                f"got {describe(value)}."
            )
        return value


class GroupChatTarget(ChatWrappedTarget):
    """The chat moves to another group chat, run by an agent made for it, which then hands back.

    Args:
        group_chat_config: the inner group chat.
    """

    group_chat_config: GroupChatConfig

    _chat_kind: ClassVar[str] = "group chat"

    def create_wrapper_agent(self, parent_agent: ConversableAgent, index: int) -> ConversableAgent:
        """An agent that runs the inner group chat when spoken to, answers with its summary, then hands back.

        Args:
            parent_agent: the agent whose hand-off leads here (its llm_config is copied to the wrapper).
            index: the hand-off's position among the parent's (the name is ``wrapped_group_<parent>_<index+1>``).
        """
        agent_class = engine_hook("agent_class", "GroupChatTarget.create_wrapper_agent")
        initiate_group_chat = engine_hook("initiate_group_chat", "GroupChatTarget.create_wrapper_agent")
        wrapper = agent_class(
            name=f"{__AGENT_WRAPPER_PREFIX__}group_{parent_agent.name}_{index + 1}", llm_config=parent_agent.llm_config
        )
        wrapper._group_chat_config = self.group_chat_config

        def group_chat_reply(
            agent: ConversableAgent,
            messages: Optional[list[dict[str, Any]]] = None,
            sender: Optional[Agent] = None,
            config: Optional[Any] = None,
        ) -> tuple[bool, Optional[dict[str, Any]]]:
            # The last message is the hand-off itself: the one before it is the inner chat's task.
            message = (
                messages[-2]["content"]
                if messages and len(messages) >= 2 and "content" in messages[-2]
                else "No message to pass through."
            )
            group_config = agent._group_chat_config  # type: ignore[attr-defined]
            try:
                result, _, _ = initiate_group_chat(
                    pattern=group_config.pattern, messages=message, max_rounds=group_config.max_rounds
                )
                return True, {"content": result.summary}
            except Exception as error:  # the outer chat goes on, told what went wrong, as in AG2 0.14
                return True, {"content": f"Error running group chat: {error}"}

        wrapper.register_reply(trigger=[agent_class, None], reply_func=group_chat_reply, remove_other_reply_funcs=True)
        wrapper.handoffs.set_after_work(AgentTarget(parent_agent))  # back to the parent when done
        return wrapper  # type: ignore[no-any-return]


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
    prepare = engine_hook("prepare_groupchat_auto_speaker", "GroupManagerTarget.resolve")
    prepare(groupchat, last_group_agent, group_chat_manager_selection_msg)


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
