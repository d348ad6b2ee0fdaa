"""Termination conditions: when a chat stops (text, counts, tokens, time, tool calls, a model's verdict); | and &.
May import oai, messages and the utilities; never agentchat.groupchat, the conversable agents or the chat drivers."""

from .base import (
    AndTerminationCondition,
    OrTerminationCondition,
    StopMessage,
    TerminationCondition,
    TerminationContext,
    validate_termination,
)
from .calls import FunctionCallTermination, HandoffTermination
from .control import ExternalTermination, FunctionalTermination
from .limits import MaxMessageTermination, TimeoutTermination, TokenUsageTermination
from .model_judged import DEFAULT_JUDGE_PROMPT, ModelJudgedTermination
from .text import RegexTermination, SourceMatchTermination, TextMentionTermination

__all__ = [
    "DEFAULT_JUDGE_PROMPT",
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
    "TerminationContext",
    "TextMentionTermination",
    "TimeoutTermination",
    "TokenUsageTermination",
    "validate_termination",
]
