"""Classic provider config lists: one OAI_CONFIG_LIST with several api_types, narrowed with filters."""

import json
import os

import autogen_classic as autogen

config_list = autogen.config_list_from_json(env_or_file="OAI_CONFIG_LIST")
print("ALL:", json.dumps([[c["model"], c.get("api_type")] for c in config_list]))

by_type = {
    api_type: [c["model"] for c in autogen.filter_config(config_list, {"api_type": [api_type]})]
    for api_type in ("openai", "groq", "mistral", "ollama")
}
print("BY_API_TYPE:", json.dumps(by_type))
print("CLOUD:", json.dumps([c["model"] for c in autogen.filter_config(config_list, {"tags": ["cloud"]})]))
# entries without an api_type are kept by an exclusion filter
openai_compatible = autogen.filter_config(config_list, {"api_type": ["groq", "mistral", "ollama"]}, exclude=True)
print("OPENAI_COMPATIBLE:", json.dumps([c["model"] for c in openai_compatible]))

# Ollama through its OpenAI-compatible base_url, picked straight from the file
local_config_list = autogen.config_list_from_json(
    env_or_file="OAI_CONFIG_LIST",
    filter_dict={"tags": ["local"], "model": ["llama3.1:8b"]},
)
print("LOCAL:", json.dumps([[c["model"], c["base_url"].endswith("/v1")] for c in local_config_list]))
openai_config_list = autogen.filter_config(config_list, {"api_type": ["openai"]})


def ask(configs, question):
    assistant = autogen.AssistantAgent(
        "assistant",
        system_message="Answer in one short sentence.",
        llm_config={"config_list": configs, "cache_seed": False, "temperature": 0.2},
    )
    user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False)
    result = user.initiate_chat(assistant, message=question, max_turns=1)
    return result


for label, configs in (("openai", openai_config_list), ("local", local_config_list)):
    result = ask(configs, "Name one prime number.")
    print(f"REPLY_{label.upper()}:", json.dumps(result.summary))

# the very same request again: cache_seed=False means no cache, so the model is asked again
again = ask(local_config_list, "Name one prime number.")
print("REPLY_AGAIN:", json.dumps(again.summary))
print("COST_AGAIN:", json.dumps(again.cost, sort_keys=True))
print("CACHE_DIRS:", json.dumps(sorted(os.listdir(".cache")) if os.path.isdir(".cache") else []))

# a failing first entry falls through to the next one
failover = ask(openai_config_list + local_config_list, "Name one even prime number.")
print("REPLY_FAILOVER:", json.dumps(failover.summary))
