"""The classic path ``autogen.tools.experimental.reliable``: ``ReliableTool`` (it lives in ``agentchat.reliable``,
as its tool runs a chat of agents)."""

from ....agentchat.reliable import ReliableTool, ReliableToolError, SuccessfulExecutionParameters, ToolExecutionDetails

__all__ = ["ReliableTool", "ReliableToolError", "SuccessfulExecutionParameters", "ToolExecutionDetails"]
