"""Agent capabilities: add-ons registered on an agent through its hooks."""

from .transform_messages import TransformMessages
from .transforms import MessageHistoryLimiter, MessageTokenLimiter, MessageTransform, TextMessageContentName

__all__ = [
    "MessageHistoryLimiter",
    "MessageTokenLimiter",
    "MessageTransform",
    "TextMessageContentName",
    "TransformMessages",
]
