"""Classic path ``autogen.io.run_response``: the responses of a run, and the names the classic module imported.

A thin face: the responses live in :mod:`.chat_response` and :mod:`.run_iter`. ``Tool`` and
``ContextVariables`` belong to the layers above ``io``; this classic path alone imports them (the import
contracts list it), and no code of the package imports this module.
"""

from ..agentchat.transitions.context_variables import ContextVariables  # noqa: F401 - importable here, as in 0.14
from ..events.base_event import BaseEvent  # noqa: F401 - importable here, as in AG2 Classic 0.14
from ..events.run_events import ErrorEvent, InputRequestEvent, RunCompletionEvent  # noqa: F401 - as in 0.14
from ..tools.tool import Tool  # noqa: F401 - importable here, as in AG2 Classic 0.14
from ..types import Agent  # noqa: F401 - importable here, as in AG2 Classic 0.14
from .chat_response import (
    AsyncRunResponse,
    AsyncRunResponseProtocol,
    RunDriver,
    RunInfoProtocol,
    RunResponse,
    RunResponseProtocol,
)
from .processors import (  # noqa: F401 - importable here, as in AG2 Classic 0.14
    AsyncConsoleEventProcessor,
    AsyncEventProcessorProtocol,
    ConsoleEventProcessor,
    EventProcessorProtocol,
)
from .run_cost import Cost, CostBreakdown, Usage
from .run_iter import AsyncRunIterResponse, RunIterResponse
from .step_controller import StepController  # noqa: F401 - importable here, as in AG2 Classic 0.14
from .thread_io_stream import AsyncThreadIOStream, ThreadIOStream  # noqa: F401 - importable here, as in 0.14

__all__ = [
    "AsyncRunIterResponse",
    "AsyncRunResponse",
    "AsyncRunResponseProtocol",
    "Cost",
    "CostBreakdown",
    "RunDriver",
    "RunInfoProtocol",
    "RunIterResponse",
    "RunResponse",
    "RunResponseProtocol",
    "Usage",
]
