"""AG2 Classic 0.14 style: a chat's events iterated, input requests answered, run_iter stepping with yield_on."""

import json
import threading

from autogen_classic import ConversableAgent, LLMConfig
from autogen_classic.events.agent_events import (
    InputRequestEvent,
    RunCompletionEvent,
    TerminationEvent,
    TextEvent,
)

llm_config = LLMConfig.from_json(path="OAI_CONFIG_LIST", cache_seed=None)
assistant = ConversableAgent("assistant", system_message="You answer briefly.", llm_config=llm_config)
human = ConversableAgent("human", human_input_mode="ALWAYS", llm_config=False)

# Every event of a run whose human is asked for input: the answers come from the loop.
answers = ["Tell me more.", "exit"]
kinds = []
texts = []
response = human.run(assistant, message="What is a group chat?", max_turns=5)
for event in response.events:
    kinds.append(type(event).__name__)
    if isinstance(event, InputRequestEvent):
        event.content.respond(answers.pop(0))
    elif isinstance(event, TextEvent):
        texts.append([event.content.sender, event.content.recipient, event.content.content])
    elif isinstance(event, RunCompletionEvent):
        print("COMPLETION_SUMMARY:", json.dumps(event.content.summary))
        print("COMPLETION_LAST_SPEAKER:", json.dumps(event.content.last_speaker))
print("EVENT_KINDS:", json.dumps(kinds))
print("TEXTS:", json.dumps(texts))
print("ANSWERS_LEFT:", json.dumps(answers))
print("RESPONSE_SUMMARY:", json.dumps(response.summary))

# Step through only the text events, then leave the loop early.
user = ConversableAgent("user", human_input_mode="NEVER", llm_config=False)
seen = []
for event in user.run_iter(assistant, message="Count to three.", max_turns=3, yield_on=[TextEvent]):
    seen.append([type(event).__name__, event.content.sender])
    if len(seen) == 2:
        break
print("STEPPED:", json.dumps(seen))

# yield_on with the termination and completion events only.
ends = [type(e).__name__ for e in user.run_iter(assistant, message="Once.", max_turns=1, yield_on=[TerminationEvent, RunCompletionEvent])]
print("ENDS:", json.dumps(ends))
print("THREADS_LEFT:", json.dumps(sorted(t.name for t in threading.enumerate() if t is not threading.main_thread() and t.is_alive() and not t.daemon)))
