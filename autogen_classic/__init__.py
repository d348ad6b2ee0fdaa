"""autogen-classic: the classic AutoGen multi-agent conversation API."""

from .version import __version__

__all__ = ["__version__"]
