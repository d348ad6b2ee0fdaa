"""The provider-independent answer: content blocks, ``UnifiedMessage`` and ``UnifiedResponse``.

A face over its three modules: each name is theirs, and this package exports exactly what they do.
"""

from . import content_blocks, unified_message, unified_response
from .content_blocks import *  # noqa: F403
from .unified_message import *  # noqa: F403
from .unified_response import *  # noqa: F403

__all__ = sorted({*content_blocks.__all__, *unified_message.__all__, *unified_response.__all__})
