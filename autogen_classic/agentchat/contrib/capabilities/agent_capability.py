"""``AgentCapability``: the base class of add-ons that extend an agent through its hooks."""

from __future__ import annotations

from ...conversable_agent import ConversableAgent

__all__ = ["AgentCapability"]


class AgentCapability:
    """Base class for capabilities that can be added to an agent.

    A subclass implements ``add_to_agent``, typically calling ``agent.register_hook(...)``
    once or more (see ``TransformMessages``).
    """

    def __init__(self) -> None:
        pass

    def add_to_agent(self, agent: ConversableAgent) -> None:
        """Add this capability to ``agent``; subclasses must implement it.

        Args:
            agent: the agent to extend.
        """
        raise NotImplementedError
