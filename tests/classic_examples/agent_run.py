"""ag2 0.7.3 style: ConversableAgent.run(message, ...) as a ChatResult, and run() whose result is ignored."""

import json

import autogen_classic as autogen

config_list = autogen.config_list_from_json(env_or_file="OAI_CONFIG_LIST")
assistant = autogen.ConversableAgent(
    "assistant",
    system_message="You are a helpful assistant. Reply TERMINATE when done.",
    llm_config={"config_list": config_list, "cache_seed": None},
)

result = assistant.run("What is 2 + 2?", max_turns=1, user_input=False)
print("TYPE_HAS_CHAT_HISTORY:", json.dumps(hasattr(result, "chat_history")))
print("SUMMARY:", json.dumps(result.summary))
print("HISTORY:", json.dumps([[m.get("name"), m["content"]] for m in result.chat_history]))
print("COST_KEYS:", json.dumps(sorted(result.cost)))
print("TOTAL_COST_POSITIVE:", json.dumps(result.cost["usage_including_cached_inference"]["total_cost"] > 0))

assistant.run("And 3 + 3?", max_turns=1, user_input=False)  # the result is not used: the chat still runs
print("SECOND_CHAT_SEEN:", json.dumps([m["content"] for m in assistant.chat_messages[list(assistant.chat_messages)[-1]]][-2:]))
