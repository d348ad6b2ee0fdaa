"""The events of a chat (classic ``autogen.messages``): pydantic models that print themselves.

Everything the package prints is one of these, sent through ``IOStream.send``; the console prints
it, a websocket sends its JSON, a chat stream yields it. Each is the ag2 0.7.3 shape of an
``autogen_classic.events`` event (a subclass of it); imports only ``events`` and ``io``.
"""

from .base_message import BaseMessage, get_annotated_type_for_message_classes, wrap_message

__all__ = ["BaseMessage", "get_annotated_type_for_message_classes", "wrap_message"]
