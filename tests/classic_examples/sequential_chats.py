"""Classic sequential chats: each chat's summary is carried over into the next one."""

import json

import autogen_classic as autogen

config_list = autogen.config_list_from_json(env_or_file="OAI_CONFIG_LIST")
llm_config = {"config_list": config_list, "cache_seed": None}

financial_assistant = autogen.AssistantAgent(
    name="Financial_assistant",
    system_message="You are the Financial assistant. Write python code to compute figures.",
    llm_config=llm_config,
)
research_assistant = autogen.AssistantAgent(
    name="Researcher",
    system_message="You are the Researcher. Explain figures.",
    llm_config=llm_config,
)
writer = autogen.AssistantAgent(
    name="Writer",
    system_message="You are the Writer. Write short blog posts. Reply TERMINATE at the end.",
    llm_config=llm_config,
    is_termination_msg=lambda x: x.get("content", "").find("TERMINATE") >= 0,
)
user = autogen.UserProxyAgent(
    name="User",
    human_input_mode="NEVER",
    is_termination_msg=lambda x: x.get("content", "") and x.get("content", "").rstrip().endswith("TERMINATE"),
    code_execution_config={"last_n_messages": 1, "work_dir": "tasks", "use_docker": False},
)

chat_results = user.initiate_chats(
    [
        {
            "recipient": financial_assistant,
            "message": "What is 1200 grown by 5% for two years? Compute it.",
            "clear_history": True,
            "silent": False,
            "max_turns": 2,
            "summary_method": "reflection_with_llm",
        },
        {
            "recipient": research_assistant,
            "message": "Explain what the growth means for a saver.",
            "max_turns": 1,
            "summary_method": "last_msg",
            "carryover": "Assume the saver is a student.",
        },
        {
            "recipient": writer,
            "message": "Write a short blog post using the figures.",
            "carryover": ["Keep it under 50 words.", "Mention compound interest."],
            "max_turns": 2,
            "summary_method": "reflection_with_llm",
            "summary_args": {"summary_prompt": "Give the title of the post only."},
        },
    ]
)

for i, chat_res in enumerate(chat_results):
    print(f"SUMMARY_{i}:", json.dumps(chat_res.summary))
    print(f"TURNS_{i}:", len(chat_res.chat_history))
print("FIRST_TO_RESEARCHER:", json.dumps(research_assistant.chat_messages[user][0]["content"]))
print("FIRST_TO_WRITER:", json.dumps(writer.chat_messages[user][0]["content"]))
print("CODE_RESULT:", json.dumps(financial_assistant.chat_messages[user][2]["content"]))
