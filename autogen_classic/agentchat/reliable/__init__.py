"""``ReliableTool``: a function called by a runner agent and checked by a validator agent, retried until a result
passes (served at the classic path ``autogen.tools.experimental.reliable``)."""

from .models import ReliableToolError, SuccessfulExecutionParameters, ToolExecutionDetails
from .reliable import ReliableTool

__all__ = ["ReliableTool", "ReliableToolError", "SuccessfulExecutionParameters", "ToolExecutionDetails"]
