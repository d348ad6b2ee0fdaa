"""Console input and output (``IOStream``), replaceable for tests and user interfaces.

Imports nothing else of the package: every layer above may print through it.
"""

from .base import InputStream, IOConsole, IOStream, OutputStream

__all__ = ["IOConsole", "IOStream", "InputStream", "OutputStream"]
