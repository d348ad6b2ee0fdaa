"""autogen-classic: the classic AutoGen multi-agent conversation API.

Classic scripts run after changing one line::

    import autogen_classic as autogen
"""

import logging

from .agentchat import (
    Agent,
    AssistantAgent,
    ChatResult,
    ConversableAgent,
    GroupChat,
    GroupChatManager,
    LLMAgent,
    UserProxyAgent,
    a_initiate_chats,
    initiate_chats,
    register_function,
)
from .agentchat.groupchat.swarm import (
    AFTER_WORK,
    ON_CONDITION,
    UPDATE_SYSTEM_MESSAGE,
    AfterWork,
    AfterWorkOption,
    OnCondition,
    SwarmAgent,
    SwarmResult,
    a_initiate_swarm_chat,
    initiate_swarm_chat,
)
from .agentchat.contrib.message_filter import MessageFilterAgent, MessageFilterConfig, PerSourceFilter
from .agentchat.group.context_expression import ContextExpression
from .agentchat.groupchat.selection.adapters import candidate_func_policy, selector_func_method
from .agentchat.groupchat.stepping import GroupChatComplete
from .agentchat.groupchat.durable_resume import a_resume_group_chat, resume_group_chat
from .agentchat.groupchat.fork import a_fork_group_chat, fork_group_chat
from .agentchat.group.durable.fork_chat import a_fork_pattern_group_chat, fork_pattern_group_chat
from .agentchat.groupchat.parking import (
    ParkedRun,
    RunParked,
    a_run_parked_group_chat,
    load_parked_run,
    park_group_chat,
    resume_parked_group_chat,
    run_parked_group_chat,
)
from .agentchat.groupchat.transcript import load_transcript
from .agentchat.termination import (
    AndTerminationCondition,
    ExternalTermination,
    FunctionCallTermination,
    FunctionalTermination,
    HandoffTermination,
    MaxMessageTermination,
    ModelJudgedTermination,
    OrTerminationCondition,
    RegexTermination,
    SourceMatchTermination,
    StopMessage,
    TerminationCondition,
    TerminationContext,
    TextMentionTermination,
    TimeoutTermination,
    TokenUsageTermination,
)
from .code_utils import DEFAULT_MODEL, FAST_MODEL
from .graph_utils import ConditionalEdge
from .exception_utils import (
    AgentNameConflict,
    AgentNameConflictError,
    TransitionConditionError,
    InvalidCarryOverType,
    InvalidCarryOverTypeError,
    NoEligibleSpeaker,
    NoEligibleSpeakerError,
    SenderRequired,
    SenderRequiredError,
    UndefinedNextAgent,
    UndefinedNextAgentError,
)
from .eligibility import AgentDescriptionGuard, AgentEligibilityPolicy, SelectionContext
from .agentchat.conversable.agent_state import UpdateSystemMessage
from .io import IOConsole, IOStream
from . import messages  # noqa: F401 - pairs each event with the ag2 0.7.3 face the console and classic streams get
from .llm_config import LLMConfig
from .oai import (
    Cache,
    ModelClient,
    OpenAIWrapper,
    config_list_from_dotenv,
    config_list_from_json,
    config_list_from_models,
    config_list_gpt4_gpt35,
    config_list_openai_aoai,
    filter_config,
    gather_usage_summary,
    get_config_list,
)
from .oai.configuration.default_config import default_llm_config
from .tools.tool import Tool, tool

# A plain literal: setup.cfg reads it without importing the package (version = attr: autogen_classic.__version__).
__version__ = "0.1.0"

# No NullHandler: without any logging set-up, warnings (e.g. about a transition graph) still reach
# stderr through Python's last-resort handler, as they do in classic AutoGen.

__all__ = [
    "AFTER_WORK",
    "ContextExpression",
    "AgentDescriptionGuard",
    "AgentEligibilityPolicy",
    "AgentNameConflictError",
    "InvalidCarryOverTypeError",
    "NoEligibleSpeakerError",
    "SelectionContext",
    "SenderRequiredError",
    "UndefinedNextAgentError",
    "UpdateSystemMessage",
    "DEFAULT_MODEL",
    "FAST_MODEL",
    "Agent",
    "AgentNameConflict",
    "AssistantAgent",
    "Cache",
    "LLMConfig",
    "ChatResult",
    "ConversableAgent",
    "GroupChat",
    "GroupChatManager",
    "IOConsole",
    "IOStream",
    "InvalidCarryOverType",
    "LLMAgent",
    "ModelClient",
    "NoEligibleSpeaker",
    "ON_CONDITION",
    "OnCondition",
    "OpenAIWrapper",
    "SenderRequired",
    "SwarmAgent",
    "SwarmResult",
    "Tool",
    "UPDATE_SYSTEM_MESSAGE",
    "UndefinedNextAgent",
    "UserProxyAgent",
    "__version__",
    "AndTerminationCondition",
    "ExternalTermination",
    "FunctionCallTermination",
    "FunctionalTermination",
    "HandoffTermination",
    "MaxMessageTermination",
    "ModelJudgedTermination",
    "OrTerminationCondition",
    "RegexTermination",
    "SourceMatchTermination",
    "StopMessage",
    "TerminationCondition",
    "TextMentionTermination",
    "TimeoutTermination",
    "TokenUsageTermination",
    "GroupChatComplete",
    "ConditionalEdge",
    "TransitionConditionError",
    "TerminationContext",
    "MessageFilterAgent",
    "MessageFilterConfig",
    "PerSourceFilter",
    "candidate_func_policy",
    "selector_func_method",
    "AfterWork",
    "AfterWorkOption",
    "a_fork_group_chat",
    "a_fork_pattern_group_chat",
    "a_initiate_chats",
    "a_initiate_swarm_chat",
    "config_list_from_dotenv",
    "config_list_from_json",
    "config_list_from_models",
    "config_list_gpt4_gpt35",
    "config_list_openai_aoai",
    "default_llm_config",
    "filter_config",
    "fork_group_chat",
    "fork_pattern_group_chat",
    "gather_usage_summary",
    "get_config_list",
    "initiate_chats",
    "initiate_swarm_chat",
    "load_transcript",
    "resume_group_chat",
    "ParkedRun",
    "load_parked_run",
    "park_group_chat",
    "resume_parked_group_chat",
    "run_parked_group_chat",
    "a_run_parked_group_chat",
    "RunParked",
    "a_resume_group_chat",
    "register_function",
    "tool",
]
