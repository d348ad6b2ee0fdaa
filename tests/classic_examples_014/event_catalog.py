"""AG2 Classic 0.14 style: every event class built with the classic arguments; its JSON and printed text.

Prints ``EVENT_<case>: {"class", "json", "printed"}`` for each case (``print(f)`` with a collecting ``f``).
"""

import json
import uuid as uuidlib

from autogen_classic.events import agent_events as ae
from autogen_classic.events import client_events as ce
from autogen_classic.events import print_event as pe

U = uuidlib.UUID("12345678-1234-4234-9234-123456789abc")


class A:
    """An agent-like object: its name is what an event keeps."""

    def __init__(self, name):
        self.name = name
        self.llm_config = False


class CB:
    """A code block: its language is what an event keeps."""

    def __init__(self, language):
        self.language = language


alice, bob = A("alice"), A("bob")
cases = {
 "TextEvent": lambda: ae.TextEvent(uuid=U, content="hello", sender="alice", recipient="bob"),
 "TextEventMulti": lambda: ae.TextEvent(uuid=U, content=[{"type": "text", "text": "multi"}, {"type": "image_url", "image_url": {"url": "http://x/y.png"}}], sender="alice", recipient="bob"),
 "TextEventNone": lambda: ae.TextEvent(uuid=U, content=None, sender="alice", recipient="bob"),
 "FunctionResponseEvent": lambda: ae.FunctionResponseEvent(uuid=U, content="42", name="f", sender="alice", recipient="bob"),
 "ToolResponseEvent": lambda: ae.ToolResponseEvent(uuid=U, content="1", tool_responses=[ae.ToolResponse(tool_call_id="t1", content="1")], sender="alice", recipient="bob"),
 "FunctionCallEvent": lambda: ae.FunctionCallEvent(uuid=U, content=None, function_call=ae.FunctionCall(name="f", arguments="{}"), sender="alice", recipient="bob"),
 "ToolCallEvent": lambda: ae.ToolCallEvent(uuid=U, content="calling", tool_calls=[ae.ToolCall(id="t1", function=ae.FunctionCall(name="g", arguments='{"a": 1}'), type="function")], sender="alice", recipient="bob"),
 "create_received_text": lambda: ae.create_received_event_model(uuid=U, event={"content": "hi"}, sender=alice, recipient=bob),
 "create_received_tool": lambda: ae.create_received_event_model(uuid=U, event={"role": "tool", "content": "1", "tool_responses": [{"tool_call_id": "t1", "role": "tool", "content": "1"}]}, sender=alice, recipient=bob),
 "create_received_toolcall": lambda: ae.create_received_event_model(uuid=U, event={"content": None, "role": "assistant", "tool_calls": [{"id": "t1", "type": "function", "function": {"name": "g", "arguments": "{}"}}]}, sender=alice, recipient=bob),
 "create_received_function": lambda: ae.create_received_event_model(uuid=U, event={"role": "function", "name": "f", "content": "r"}, sender=alice, recipient=bob),
 "create_received_fcall": lambda: ae.create_received_event_model(uuid=U, event={"content": "x", "function_call": {"name": "f", "arguments": "{}"}}, sender=alice, recipient=bob),
 "PostCarryoverProcessingEvent": lambda: ae.PostCarryoverProcessingEvent(uuid=U, chat_info={"carryover": ["c1", {"content": "c2"}], "message": "msg", "verbose": True, "sender": alice, "recipient": bob, "summary_method": "last_msg", "summary_args": None, "max_turns": 2}),
 "PostCarryoverProcessingEventCallable": lambda: ae.PostCarryoverProcessingEvent(uuid=U, chat_info={"carryover": "c", "message": {"content": "d"}, "sender": "alice", "recipient": "bob", "summary_method": len}),
 "ClearAgentsHistoryEvent": lambda: ae.ClearAgentsHistoryEvent(uuid=U, agent=alice, nr_events_to_preserve=2),
 "ClearAgentsHistoryEventAll": lambda: ae.ClearAgentsHistoryEvent(uuid=U),
 "SpeakerAttemptSuccessfulEvent": lambda: ae.SpeakerAttemptSuccessfulEvent(uuid=U, mentions={"alice": 1}, attempt=1, attempts_left=2, select_speaker_auto_verbose=True),
 "SpeakerAttemptFailedMultipleAgentsEvent": lambda: ae.SpeakerAttemptFailedMultipleAgentsEvent(uuid=U, mentions={"alice": 1, "bob": 1}, attempt=1, attempts_left=2),
 "SpeakerAttemptFailedNoAgentsEvent": lambda: ae.SpeakerAttemptFailedNoAgentsEvent(uuid=U, mentions={}, attempt=1, attempts_left=2),
 "GroupChatResumeEvent": lambda: ae.GroupChatResumeEvent(uuid=U, last_speaker_name="alice", events=[{"content": "x", "role": "user"}], silent=False),
 "GroupChatRunChatEvent": lambda: ae.GroupChatRunChatEvent(uuid=U, speaker=alice, silent=False),
 "GroupChatRunChatEventSilent": lambda: ae.GroupChatRunChatEvent(uuid=U, speaker="alice", silent=True),
 "TerminationAndHumanReplyNoInputEvent": lambda: ae.TerminationAndHumanReplyNoInputEvent(uuid=U, no_human_input_msg="NO HUMAN INPUT RECEIVED.", sender=alice, recipient=bob),
 "TerminationAndHumanReplyNoInputEventNoSender": lambda: ae.TerminationAndHumanReplyNoInputEvent(uuid=U, no_human_input_msg="NO HUMAN INPUT RECEIVED.", recipient=bob),
 "UsingAutoReplyEvent": lambda: ae.UsingAutoReplyEvent(uuid=U, human_input_mode="ALWAYS", sender=alice, recipient=bob),
 "TerminationEvent": lambda: ae.TerminationEvent(uuid=U, sender=alice, recipient=bob, termination_reason="done"),
 "TerminationEventNoRecipient": lambda: ae.TerminationEvent(uuid=U, sender="alice", termination_reason="done"),
 "ExecuteCodeBlockEvent": lambda: ae.ExecuteCodeBlockEvent(uuid=U, code="print(1)", language="python", code_block_count=1, recipient=bob),
 "ExecuteFunctionEvent": lambda: ae.ExecuteFunctionEvent(uuid=U, func_name="f", call_id="c1", arguments={"a": 1}, recipient=bob),
 "ExecutedFunctionEvent": lambda: ae.ExecutedFunctionEvent(uuid=U, func_name="f", call_id="c1", arguments={"a": 1}, content="3", recipient=bob, is_exec_success=False),
 "SelectSpeakerEvent": lambda: ae.SelectSpeakerEvent(uuid=U, agents=[alice, "bob"]),
 "SelectSpeakerEventNone": lambda: ae.SelectSpeakerEvent(uuid=U),
 "SelectSpeakerTryCountExceededEvent": lambda: ae.SelectSpeakerTryCountExceededEvent(uuid=U, try_count=3, agents=[alice]),
 "SelectSpeakerInvalidInputEvent": lambda: ae.SelectSpeakerInvalidInputEvent(uuid=U, agents=[alice, bob]),
 "ClearConversableAgentHistoryEvent": lambda: ae.ClearConversableAgentHistoryEvent(uuid=U, agent=alice, no_events_preserved=2),
 "ClearConversableAgentHistoryWarningEvent": lambda: ae.ClearConversableAgentHistoryWarningEvent(uuid=U, recipient=alice),
 "GenerateCodeExecutionReplyEvent": lambda: ae.GenerateCodeExecutionReplyEvent(uuid=U, code_blocks=[CB("python"), "sh"], sender=alice, recipient=bob),
 "GenerateCodeExecutionReplyEventOne": lambda: ae.GenerateCodeExecutionReplyEvent(uuid=U, code_blocks=[CB("python")], recipient=bob),
 "ConversableAgentUsageSummaryNoCostIncurredEvent": lambda: ae.ConversableAgentUsageSummaryNoCostIncurredEvent(uuid=U, recipient=alice),
 "ConversableAgentUsageSummaryEvent": lambda: ae.ConversableAgentUsageSummaryEvent(uuid=U, recipient=alice),
 "InputRequestEvent": lambda: ae.InputRequestEvent(uuid=U, prompt="> ", password=True),
 "AsyncInputRequestEvent": lambda: ae.AsyncInputRequestEvent(uuid=U, prompt="> "),
 "InputResponseEvent": lambda: ae.InputResponseEvent(uuid=U, value="yes"),
 "ErrorEvent": lambda: ae.ErrorEvent(uuid=U, error="boom"),
 "RunCompletionEvent": lambda: ae.RunCompletionEvent(uuid=U, summary="s", history=[{"content": "x", "role": "user", "name": "a"}], cost={"usage_including_cached_inference": {"total_cost": 0}}, last_speaker="alice"),
 "UsageSummaryEvent": lambda: ce.UsageSummaryEvent(uuid=U, actual_usage_summary={"total_cost": 0.5, "gpt-4": {"cost": 0.5, "prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}, total_usage_summary={"total_cost": 0.7, "gpt-4": {"cost": 0.7, "prompt_tokens": 14, "completion_tokens": 7, "total_tokens": 21}}, mode="both"),
 "UsageSummaryEventNone": lambda: ce.UsageSummaryEvent(uuid=U, actual_usage_summary=None, total_usage_summary=None, mode="total"),
 "UsageSummaryEventSame": lambda: ce.UsageSummaryEvent(uuid=U, actual_usage_summary={"total_cost": 0.5, "m": {"cost": 0.5, "prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}, total_usage_summary={"total_cost": 0.5, "m": {"cost": 0.5, "prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}, mode="both"),
 "UsageSummaryEventActual": lambda: ce.UsageSummaryEvent(uuid=U, actual_usage_summary={"total_cost": 0}, total_usage_summary={"total_cost": 0.5, "m": {"cost": 0.5, "prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}, mode="actual"),
 "StreamEvent": lambda: ce.StreamEvent(uuid=U, content="tok"),
 "PrintEvent": lambda: pe.PrintEvent("a", 1, {"k": 2}, sep="-", end="!", uuid=U),
}

for name, make in cases.items():
    record = {}
    try:
        event = make()
        record["class"] = type(event).__name__
        try:
            record["json"] = event.model_dump_json()
        except Exception as error:
            record["json_error"] = type(error).__name__
        lines = []

        def collect(*objects, sep=" ", end="\n", flush=False):
            lines.append(sep.join(str(o) for o in objects) + end)

        event.print(collect)
        record["printed"] = "".join(lines)
    except Exception as error:
        record["error"] = f"{type(error).__name__}: {error}"
    print(f"EVENT_{name.upper()}:", json.dumps(record))
