"""The console text shared by the events (it lives in ``autogen_classic.events.console_text``)."""

from ..events.console_text import SEPARATOR, Printer, agent_name, boxed, call_block, content_to_text, printer

__all__ = ["SEPARATOR", "Printer", "agent_name", "boxed", "call_block", "content_to_text", "printer"]
