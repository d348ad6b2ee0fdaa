"""The classic path ``autogen.agentchat.group.targets.group_chat_target``: a hand-off to another group chat
(``GroupChatTarget``, configured by ``GroupChatConfig``), run by a wrapper agent that then hands back.

It runs ``initiate_group_chat`` on a ``Pattern``, so it lives here, with the group orchestration.
"""

from __future__ import annotations

from typing import Any, ClassVar, Optional, Union

from pydantic import BaseModel, ConfigDict, field_validator

from ...agent import Agent
from ...conversable_agent import ConversableAgent
from ...transitions import AgentTarget, SpeakerSelectionResult, TransitionTarget  # noqa: F401 - classic names
from ...transitions import __AGENT_WRAPPER_PREFIX__
from ...transitions.target_base import ChatWrappedTarget, describe
from ..multi_agent_chat import initiate_group_chat
from ..patterns.pattern import Pattern

__all__ = ["GroupChatConfig", "GroupChatTarget"]


class GroupChatConfig(BaseModel):
    """A group chat to run as a hand-off target (its context variables default to the outer chat's).

    Args:
        pattern: the pattern of the inner group chat (a ``Pattern`` such as ``AutoPattern``).
        messages: its first message(s).
        max_rounds: its most rounds.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    pattern: Any  # a Pattern, checked by the validator below for the classic error message
    messages: Union[list[dict[str, Any]], str]
    max_rounds: int = 20

    @field_validator("pattern", mode="before")
    @classmethod
    def _pattern_is_a_pattern(cls, value: Any) -> Any:
        if not isinstance(value, Pattern):
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
        wrapper = ConversableAgent(
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

        wrapper.register_reply(
            trigger=[ConversableAgent, None], reply_func=group_chat_reply, remove_other_reply_funcs=True
        )
        wrapper.handoffs.set_after_work(AgentTarget(parent_agent))  # back to the parent when done
        return wrapper

