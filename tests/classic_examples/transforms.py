"""Classic message transforms: limit how much history and how many tokens an agent sends to its model."""

import json

import autogen_classic as autogen
from autogen_classic.agentchat.contrib.capabilities import transform_messages, transforms

config_list = autogen.config_list_from_json(env_or_file="OAI_CONFIG_LIST")
llm_config = {"config_list": config_list, "cache_seed": None}

assistant = autogen.AssistantAgent(
    "assistant",
    system_message="You are the Archivist. Answer briefly.",
    llm_config=llm_config,
)
user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False)

context_handling = transform_messages.TransformMessages(
    transforms=[
        transforms.MessageHistoryLimiter(max_messages=3),
        transforms.MessageTokenLimiter(max_tokens=1000, max_tokens_per_message=50, min_tokens=10),
    ]
)
context_handling.add_to_agent(assistant)

long_report = "Here is the quarterly report: " + " ".join(f"item{i} sold well" for i in range(200))

user.initiate_chat(assistant, message="Hello, my name is Ada.", max_turns=1)
user.initiate_chat(assistant, message=long_report, max_turns=1, clear_history=False)
result = user.initiate_chat(assistant, message="What is my name?", max_turns=1, clear_history=False)

print("ANSWER:", json.dumps(result.summary))
stored = assistant.chat_messages[user]
print("STORED_COUNT:", len(stored))
print("STORED_LONG_INTACT:", json.dumps(stored[2]["content"] == long_report))

# the transforms can also be applied directly to a list of messages
history = [{"role": "user", "content": f"message {i}"} for i in range(6)]
limited = transforms.MessageHistoryLimiter(max_messages=2, keep_first_message=True).apply_transform(history)
print("KEEP_FIRST:", json.dumps([m["content"] for m in limited]))
