"""The classic ``autogen.tools.experimental``: ``ReliableTool`` and, by name, the tools of outside services.

``ReliableTool`` (with ``ReliableToolError``, ``SuccessfulExecutionParameters`` and ``ToolExecutionDetails``)
works here. The other tools need outside services this package does not provide: they import, and building
one raises the classic ``ImportError`` naming the modules it needs (see ``.services``).
"""

from . import services
from .reliable import ReliableTool, ReliableToolError, SuccessfulExecutionParameters, ToolExecutionDetails
from .services import *  # noqa: F403 - every outside-service tool, by its classic name

__all__ = ["ReliableTool", "ReliableToolError", "SuccessfulExecutionParameters", "ToolExecutionDetails"]
__all__ += services.__all__
