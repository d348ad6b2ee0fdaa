"""The classic path ``autogen.agentchat.group.patterns``: the orchestration patterns."""

from .auto import AutoPattern
from .manual import ManualPattern
from .pattern import DefaultPattern
from .random import RandomPattern
from .round_robin import RoundRobinPattern

__all__ = ["AutoPattern", "DefaultPattern", "ManualPattern", "RandomPattern", "RoundRobinPattern"]
