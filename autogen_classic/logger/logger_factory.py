"""``LoggerFactory``: the runtime logger for a ``logger_type``."""

from __future__ import annotations

from typing import Any, Callable, Literal, Optional

from .base_logger import BaseLogger
from .file_logger import FileLogger
from .sqlite_logger import SqliteLogger

__all__ = ["LoggerFactory"]

_LOGGERS: dict[str, Callable[[dict[str, Any]], BaseLogger]] = {"sqlite": SqliteLogger, "file": FileLogger}


class LoggerFactory:
    """Builds the runtime logger named by ``logger_type``."""

    @staticmethod
    def get_logger(
        logger_type: Literal["sqlite", "file"] = "sqlite", config: Optional[dict[str, Any]] = None
    ) -> BaseLogger:
        """Return a new logger of ``logger_type``.

        Args:
            logger_type: "sqlite" (a ``SqliteLogger``, config ``{"dbname": ...}``) or "file" (a
                ``FileLogger``, config ``{"filename": ...}``).
            config: the logger's settings (None: the defaults).

        Raises:
            ValueError: an unknown ``logger_type``, or an unknown config key.
        """
        cls = _LOGGERS.get(logger_type) if isinstance(logger_type, str) else None
        if cls is None:
            raise ValueError(
                f"[logger_factory] Unknown logger type: {logger_type}. logger_type must be \"sqlite\" "
                "(config={'dbname': ...}) or \"file\" (config={'filename': ...}), or pass logger=<a BaseLogger>."
            )
        return cls({} if config is None else config)
