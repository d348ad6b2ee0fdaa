"""Console input and output, replaceable for tests and user interfaces."""

from .base import InputStream, IOConsole, IOStream, OutputStream

__all__ = ["IOConsole", "IOStream", "InputStream", "OutputStream"]
