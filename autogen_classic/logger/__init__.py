"""Runtime loggers: sqlite (``SqliteLogger``) and JSON lines (``FileLogger``), built by ``LoggerFactory``.

Started and stopped through ``autogen_classic.runtime_logging``. This package sits low: it imports
no model client, tool or agent; what it logs is read duck-typed.
"""

from .file_logger import FileLogger
from .logger_factory import LoggerFactory
from .sqlite_logger import SqliteLogger

__all__ = ["FileLogger", "LoggerFactory", "SqliteLogger"]
