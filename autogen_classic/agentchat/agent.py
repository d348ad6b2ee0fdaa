"""The classic path of the ``Agent`` and ``LLMAgent`` protocols (defined in ``autogen_classic.types``)."""

from ..types import Agent, LLMAgent

__all__ = ["Agent", "LLMAgent"]
