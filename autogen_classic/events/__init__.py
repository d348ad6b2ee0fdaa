"""The events of a chat (classic ``autogen.events``): pydantic models that print themselves.

Everything the package prints is an event sent through ``IOStream.send``; the console prints it, a
websocket sends its JSON, a run's response yields it. The classic ``autogen.messages`` names
(``TextMessage`` ...) are the same events in the ag2 0.7.3 shape, each a subclass of its event here.
This package sits at the bottom: it imports nothing of the package but the event logger.
"""

from .base_event import BaseEvent, get_annotated_type_for_event_classes, wrap_event
from .helpers import deprecated_by

__all__ = ["BaseEvent", "deprecated_by", "get_annotated_type_for_event_classes", "wrap_event"]
