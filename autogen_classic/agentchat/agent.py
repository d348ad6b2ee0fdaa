"""The classic path of the ``Agent`` and ``LLMAgent`` protocols (defined in ``autogen_classic.types``)."""

from typing import TypeVar

from ..types import Agent, LLMAgent, LLMMessageType

# The classic module's type variable for the tools of ``set_ui_tools`` annotations.
Tool = TypeVar("Tool")

__all__ = ["Agent", "LLMAgent", "LLMMessageType"]
