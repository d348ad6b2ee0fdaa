"""AG2 Classic 0.14 style: what the console shows for chats started with ``initiate_chat``, line by line.

Each section's console text is printed between ``=====BEGIN <KEY>`` and ``=====END <KEY>`` lines:
the ``>>>>>>>> TERMINATING RUN (...)`` lines (maximum turns, maximum consecutive auto-replies, a termination
message, the person typing ``exit``, maximum rounds, a selection function that returns None), the
``>>>>>>>> EXECUTED FUNCTION`` block, manual selection under an eligibility policy, a pattern whose manager
configuration comes through ``group_manager_args``, and the resumed group chat's "Prepared group chat" line.
"""

import asyncio
import builtins
import json

from autogen_classic import ConversableAgent, GroupChat, GroupChatManager, LLMConfig
from autogen_classic.agentchat import initiate_group_chat
from autogen_classic.agentchat.group.patterns import AutoPattern

llm_config = LLMConfig.from_json(path="OAI_CONFIG_LIST", cache_seed=None)


def console_of(key, chat):
    """Run ``chat`` between the markers of section ``key``."""
    print(f"=====BEGIN {key}", flush=True)
    chat()
    print(f"=====END {key}", flush=True)


def agent(name, reply, **kwargs):
    return ConversableAgent(name, llm_config=False, human_input_mode="NEVER", default_auto_reply=reply, **kwargs)


a, b = agent("a", "hi from a"), agent("b", "hi from b")
console_of("MAX_TURNS", lambda: a.initiate_chat(b, message="start", max_turns=2))
console_of("MAX_AUTO_REPLIES", lambda: a.initiate_chat(agent("c", "hi", max_consecutive_auto_reply=1), message="s"))
console_of("TERMINATION_MESSAGE", lambda: a.initiate_chat(agent("t", "TERMINATE"), message="start"))
console_of("ASYNC_MAX_TURNS", lambda: asyncio.run(a.a_initiate_chat(b, message="start", max_turns=1)))
console_of("SILENT", lambda: a.initiate_chat(b, message="start", max_turns=2, silent=True))

answers = iter(["exit"])
builtins.input = lambda prompt="": next(answers)
person = ConversableAgent("person", llm_config=False, human_input_mode="ALWAYS")
console_of("HUMAN_EXIT", lambda: person.initiate_chat(b, message="hello"))


def add(x: int, y: int) -> int:
    return x + y


call = {"content": None, "tool_calls": [
    {"id": "call_1", "type": "function", "function": {"name": "add", "arguments": '{"x": 1, "y": 2}'}}]}
caller = agent("caller", "thanks")
executor = ConversableAgent("executor", llm_config=False, human_input_mode="NEVER", function_map={"add": add})
console_of("EXECUTED_FUNCTION", lambda: caller.initiate_chat(executor, message=call, max_turns=1))


def group_chat(method, max_round, **kwargs):
    groupchat = GroupChat([a, b], messages=[], max_round=max_round, speaker_selection_method=method, **kwargs)
    return groupchat, GroupChatManager(groupchat, llm_config=False)


_, manager = group_chat("round_robin", 3)
console_of("MAX_ROUNDS", lambda: a.initiate_chat(manager, message="go"))
_, manager = group_chat(lambda last_speaker, groupchat: None, 5)
console_of("NO_NEXT_SPEAKER", lambda: a.initiate_chat(manager, message="go"))
_, manager = group_chat("round_robin", 2)
console_of("ASYNC_GROUP", lambda: asyncio.run(a.a_initiate_chat(manager, message="go")))
groupchat = GroupChat([a, agent("t", "done TERMINATE")], messages=[], max_round=5, speaker_selection_method="round_robin")
manager = GroupChatManager(groupchat, llm_config=False, is_termination_msg=lambda m: "TERMINATE" in (m.get("content") or ""))
console_of("GROUP_TERMINATION_MESSAGE", lambda: a.initiate_chat(manager, message="go"))


class NotC:
    """c may never speak."""

    def is_eligible(self, agent, ctx):
        return agent.name != "c"


builtins.input = lambda prompt="": print(prompt) or ""
groupchat = GroupChat([a, b, agent("c", "hi from c")], messages=[], max_round=3, speaker_selection_method="manual",
                      eligibility_policies=[NotC()])
manager = GroupChatManager(groupchat, llm_config=False)
console_of("MANUAL_WITH_POLICY", lambda: a.initiate_chat(manager, message="go"))
print("MANUAL_SPEAKERS:", json.dumps([m["name"] for m in groupchat.messages]))

groupchat, manager = group_chat("round_robin", 4)
previous = [{"content": "earlier", "name": "a", "role": "user"}, {"content": "reply", "name": "b", "role": "user"}]
console_of("RESUME", lambda: manager.resume(messages=previous))

first = ConversableAgent("first", system_message="You are first.", llm_config=llm_config, description="Speaks first.")
second = ConversableAgent("second", system_message="You are second.", llm_config=llm_config,
                          description="Speaks second.")
pattern = AutoPattern(initial_agent=first, agents=[first, second], group_manager_args={"llm_config": llm_config})
result, context, last = None, None, None


def pattern_chat():
    global result, context, last
    result, context, last = initiate_group_chat(pattern=pattern, messages="hello", max_rounds=3)


console_of("AUTO_PATTERN_MANAGER_ARGS", pattern_chat)
print("AUTO_PATTERN_HISTORY:", json.dumps([[m.get("name"), m.get("content")] for m in result.chat_history]))
print("AUTO_PATTERN_LAST:", json.dumps(last.name))
