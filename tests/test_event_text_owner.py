"""The classic ``messages`` classes print through the ``events`` code that owns each line (one owner per text)."""

from __future__ import annotations

from typing import Any
from unittest.mock import MagicMock

from autogen_classic.events import chat_events, chat_text
from autogen_classic.events.base_event import BaseEvent, content_class
from autogen_classic.events.client_events import UsageSummaryEvent
from autogen_classic.events.print_event import PrintEvent
from autogen_classic.events.run_events import GroupChatEndEvent
from autogen_classic.messages import agent_messages
from autogen_classic.messages.client_messages import UsageSummaryMessage
from autogen_classic.messages.print_message import PrintMessage
from autogen_classic.messages.run_events import GroupChatEndMessage


def test_same_field_messages_are_their_events_contents() -> None:
    for message, event in ((PrintMessage, PrintEvent), (UsageSummaryMessage, UsageSummaryEvent),
                           (GroupChatEndMessage, GroupChatEndEvent)):
        assert issubclass(content_class(message), content_class(event))
        assert issubclass(content_class(message), BaseEvent)


def test_an_event_and_its_message_print_the_owners_line(monkeypatch: Any) -> None:
    lines: list[tuple[Any, ...]] = []
    for module in (chat_events, agent_messages):
        monkeypatch.setattr(module, "print_clearing", lambda out, *values: lines.append(values))
    chat_events.ClearAgentsHistoryEvent(agent="bob", nr_events_to_preserve=2).print(MagicMock())
    agent_messages.ClearAgentsHistoryMessage(agent_name="bob", nr_messages_to_preserve=2).print(MagicMock())
    assert lines == [("bob", 2, "events"), ("bob", 2, "messages")]


def test_code_block_line_is_the_same_in_both_shapes() -> None:
    event_out, message_out = MagicMock(), MagicMock()
    chat_events.ExecuteCodeBlockEvent(code="x", language="python", code_block_count=1, recipient="r").print(event_out)
    agent_messages.ExecuteCodeBlockMessage(code="x", language="python", code_block_count=1,
                                           recipient_name="r").print(message_out)
    assert event_out.call_args == message_out.call_args
    assert chat_text.code_block_text(1, "python") in event_out.call_args.args[0]
