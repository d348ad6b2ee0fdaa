"""The classic path of ``SafeguardEvent`` (the event lives with the others, in ``autogen_classic.events``)."""

from ....events.base_event import BaseEvent, wrap_event  # noqa: F401 - importable here, as in AG2 Classic 0.14
from ....events.safeguard_events import SafeguardEvent, TermColor  # noqa: F401

__all__ = ["SafeguardEvent"]
