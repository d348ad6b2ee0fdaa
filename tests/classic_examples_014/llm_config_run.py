"""AG2 Classic 0.14 style: agents built from an LLMConfig, a chat started with run() and shown with process()."""

import json

import autogen_classic as autogen
from autogen_classic import ConversableAgent, LLMConfig

config_list = json.load(open("OAI_CONFIG_LIST"))
entry = config_list[0]

# The forms 0.14 code uses to build a configuration.
from_dict = LLMConfig({"api_type": "openai", "model": entry["model"], "base_url": entry["base_url"], "api_key": entry["api_key"]})
from_json = LLMConfig.from_json(path="OAI_CONFIG_LIST", temperature=0, cache_seed=None)
typed = LLMConfig(
    autogen.oai.OpenAILLMConfigEntry(model=entry["model"], base_url=entry["base_url"], api_key=entry["api_key"]),
    temperature=0,
)
print("KEY_HIDDEN:", json.dumps(entry["api_key"] not in repr(from_json) and entry["api_key"] not in str(typed)))
print("FROM_DICT_MODEL:", json.dumps(from_dict.config_list[0].model))
print("FROM_JSON_TEMPERATURE:", json.dumps(from_json.temperature))
print("TYPED_API_TYPE:", json.dumps(typed.config_list[0].api_type))
print("DICT_ACCESS:", json.dumps(from_json["temperature"]))

assistant = ConversableAgent(
    name="assistant",
    system_message="You are a helpful assistant. Reply TERMINATE when done.",
    llm_config=from_json,
)
user = ConversableAgent(name="user", human_input_mode="NEVER", llm_config=False)
print("AGENT_CONFIG_TYPE:", json.dumps(type(assistant.llm_config).__name__))

response = user.run(assistant, message="Say hello in French.", max_turns=2)
print("SUMMARY_BEFORE_PROCESS:", json.dumps(response.summary))
response.process()
print("SUMMARY:", json.dumps(response.summary))
print("MESSAGES:", json.dumps(list(response.messages)))
print("LAST_SPEAKER:", json.dumps(response.last_speaker))
print("COST_TOTAL:", json.dumps(round(response.cost.usage_including_cached_inference.total_cost, 10)))
print("COST_MODELS:", json.dumps(sorted(response.cost.usage_including_cached_inference.models)))
print("CONTEXT_VARIABLES:", json.dumps(response.context_variables))
