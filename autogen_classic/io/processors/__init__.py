"""Event processors (classic ``autogen.io.processors``): what a run's response does with its events."""

from .base import AsyncEventProcessorProtocol, EventProcessorProtocol
from .console_event_processor import AsyncConsoleEventProcessor, ConsoleEventProcessor

__all__ = [
    "AsyncConsoleEventProcessor",
    "AsyncEventProcessorProtocol",
    "ConsoleEventProcessor",
    "EventProcessorProtocol",
]
