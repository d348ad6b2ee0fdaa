"""The classic path ``autogen.agentchat.group.group_tool_executor``: GroupToolExecutor (code in
``agentchat.groupchat.handoffs``)."""

from ...code_utils import content_str  # noqa: F401 - importable here, as in the classic module
from ...io.base import IOStream  # noqa: F401
from ...oai import OpenAIWrapper  # noqa: F401
from ...tools import Depends, Tool  # noqa: F401
from ...tools.dependency_injection import inject_params, on  # noqa: F401
from ...import_utils import is_coroutine_callable  # noqa: F401
from ..agent import Agent  # noqa: F401
from ..conversable_agent import ConversableAgent  # noqa: F401
from ..groupchat.handoffs import TOOL_EXECUTOR_NAME as __TOOL_EXECUTOR_NAME__  # noqa: F401
from ..groupchat.handoffs import GroupToolExecutor
from ..groupchat.handoffs.events import OnConditionLLMTransitionEvent, ReplyResultTransitionEvent  # noqa: F401
from ..transitions import ContextVariables, ReplyResult, TransitionTarget  # noqa: F401

__all__ = ["GroupToolExecutor"]
