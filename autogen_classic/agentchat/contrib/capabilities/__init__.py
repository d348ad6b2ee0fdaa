"""Agent capabilities: add-ons registered on an agent through its hooks (transforms, text compressors).

May import the agent core, cache, oai and the utilities; the agent core never imports them.
"""

from .agent_capability import AgentCapability
from .text_compressors import LLMLingua, TextCompressor
from .transform_messages import TransformMessages
from .transforms import (
    MessageHistoryLimiter,
    MessageTokenLimiter,
    MessageTransform,
    TextMessageCompressor,
    TextMessageContentName,
)

__all__ = [
    "AgentCapability",
    "LLMLingua",
    "MessageHistoryLimiter",
    "MessageTokenLimiter",
    "MessageTransform",
    "TextCompressor",
    "TextMessageCompressor",
    "TextMessageContentName",
    "TransformMessages",
]
