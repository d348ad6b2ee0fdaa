"""``NestedChatTarget``: a hand-off to a nested chat, which a wrapper agent made for the group chat runs.

It makes a ``ConversableAgent``, so it lives with the group chat's hand-offs rather than in the hand-off
data the agent core imports (``agentchat.transitions``); its classic path is
``agentchat.group.targets.transition_target``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ...conversable_agent import ConversableAgent
from ...transitions import AgentTarget, __AGENT_WRAPPER_PREFIX__
from ...transitions.target_base import ChatWrappedTarget

__all__ = ["NestedChatTarget"]


class NestedChatTarget(ChatWrappedTarget):
    """The chat moves to a nested chat, run by an agent made for it, which then hands back.

    Args:
        nested_chat_config: ``chat_queue`` (the chats, as for ``register_nested_chats``), and optionally
            ``reply_func_from_nested_chats``, ``config`` and ``use_async``.
    """

    nested_chat_config: dict[str, Any]

    _chat_kind: ClassVar[str] = "nested chat"

    def create_wrapper_agent(self, parent_agent: ConversableAgent, index: int) -> ConversableAgent:
        """An agent that runs the nested chat when spoken to, then hands back to ``parent_agent``.

        Args:
            parent_agent: the agent whose hand-off leads to the nested chat.
            index: the hand-off's position among the parent's (the name is ``wrapped_nested_<parent>_<index+1>``).
        """
        if "chat_queue" not in self.nested_chat_config:
            raise ValueError(
                f"NestedChatTarget of {parent_agent.name} has no 'chat_queue' in nested_chat_config (keys: "
                f"{sorted(self.nested_chat_config)}); give the chats as nested_chat_config={{'chat_queue': [...]}}."
            )
        wrapper = self._wrapper_agent_class()(name=self._wrapper_agent_name(parent_agent, index))
        wrapper.register_nested_chats(
            self.nested_chat_config["chat_queue"],
            reply_func_from_nested_chats=self.nested_chat_config.get("reply_func_from_nested_chats")
            or "summary_from_nested_chats",
            config=self.nested_chat_config.get("config"),
            trigger=lambda sender: True,
            position=0,
            use_async=self.nested_chat_config.get("use_async", False),
        )
        wrapper.handoffs.set_after_work(AgentTarget(parent_agent))  # back to the parent when done
        return wrapper

    # The two points the classic swarm's nested-chat hand-offs change (their agents are "nested_chat_<parent>_<n>"
    # SwarmAgents).
    def _wrapper_agent_name(self, parent_agent: ConversableAgent, index: int) -> str:
        return f"{__AGENT_WRAPPER_PREFIX__}nested_{parent_agent.name}_{index + 1}"

    def _wrapper_agent_class(self) -> type[ConversableAgent]:
        return ConversableAgent
