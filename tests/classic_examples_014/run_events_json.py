"""AG2 Classic 0.14 style: the events of runs, as JSON, with input requests answered and a failing chat.

Every event's ``model_dump_json()`` is printed with its uuid replaced by "<uuid>" (an input request's
``respond`` is left out: 0.14.1 cannot serialise the function it holds).
"""

import asyncio
import json

from autogen_classic import Agent, ConversableAgent, LLMConfig
from autogen_classic.events.agent_events import InputRequestEvent, RunCompletionEvent, TerminationEvent, TextEvent

llm_config = LLMConfig.from_json(path="OAI_CONFIG_LIST", cache_seed=None)


def shown(event):
    data = json.loads(event.model_dump_json(exclude={"content": {"respond"}}))
    data["content"]["uuid"] = "<uuid>"
    return data


# A human (ALWAYS) asked twice, answered from the loop.
assistant = ConversableAgent("assistant", system_message="You answer briefly.", llm_config=llm_config)
human = ConversableAgent("human", human_input_mode="ALWAYS", llm_config=False)
answers = ["Tell me more.", "exit"]
events = []
response = human.run(assistant, message="What is an agent?", max_turns=4)
for event in response.events:
    events.append(shown(event))
    if isinstance(event, InputRequestEvent):
        event.content.respond(answers.pop(0))
print("HUMAN_EVENTS:", json.dumps(events))
print("HUMAN_COST_MODELS:", json.dumps(sorted(response.cost.usage_including_cached_inference.models)))

# A single agent whose user is asked (user_input=True); the first answer is empty (auto reply).
helper = ConversableAgent("helper", system_message="You help.", llm_config=llm_config)
events = []
response = helper.run(message="Help me.", user_input=True, max_turns=3)
for event in response.events:
    events.append(shown(event))
    if isinstance(event, InputRequestEvent):
        event.content.respond("" if len(events) < 5 else "exit")
print("USER_INPUT_EVENTS:", json.dumps(events))
print("USER_INPUT_SUMMARY:", json.dumps(response.summary))


# A chat whose reply function fails: the error is an event, then raised.
def broken(recipient, messages, sender, config):
    raise RuntimeError("reply function failed")


mute = ConversableAgent("mute", llm_config=False, human_input_mode="NEVER")
mute.register_reply([Agent, None], broken)
sender = ConversableAgent("sender", llm_config=False, human_input_mode="NEVER")
kinds = []
try:
    for event in sender.run(mute, message="hi", max_turns=2).events:
        kinds.append(type(event).__name__)
except RuntimeError as error:
    print("ERROR_RAISED:", json.dumps(str(error)))
print("ERROR_KINDS:", json.dumps(kinds))

# run_iter with yield_on: only text and termination events; the results once the loop ran to the end.
user = ConversableAgent("user", human_input_mode="NEVER", llm_config=False, default_auto_reply="More.")
iteration = user.run_iter(assistant, message="Count.", max_turns=2, yield_on=[TextEvent, TerminationEvent])
print("ITER_EVENTS:", json.dumps([shown(event) for event in iteration]))
print("ITER_SUMMARY:", json.dumps(iteration.summary))
print("ITER_LAST_SPEAKER:", json.dumps(iteration.last_speaker))


# The async twins.
async def main():
    response = await user.a_run(assistant, message="Async hello.", max_turns=1)
    events = [shown(event) async for event in response.events]
    print("A_RUN_EVENTS:", json.dumps(events))
    print("A_RUN_SUMMARY:", json.dumps(await response.summary))
    kinds = [type(event).__name__ async for event in user.a_run_iter(assistant, message="Again.", max_turns=1,
                                                                      yield_on=[TextEvent, RunCompletionEvent])]
    print("A_RUN_ITER_KINDS:", json.dumps(kinds))


asyncio.run(main())
