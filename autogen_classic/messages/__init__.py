"""The events of a chat (classic ``autogen.messages``): pydantic models that print themselves.

Everything the package prints is one of these, sent through ``IOStream.send``; the console prints
it, a websocket sends its JSON, a chat stream yields it. Imports only ``io``-level helpers.
"""

from .base_message import BaseMessage, get_annotated_type_for_message_classes, wrap_message

__all__ = ["BaseMessage", "get_annotated_type_for_message_classes", "wrap_message"]
