"""Classic group chat: an admin user proxy hands a task to a team whose next speaker the LLM picks ("auto")."""

import json

import autogen_classic as autogen

config_list = autogen.config_list_from_json(env_or_file="OAI_CONFIG_LIST")
llm_config = {"config_list": config_list, "cache_seed": None, "temperature": 0}


def is_done(msg):
    return "TERMINATE" in (msg.get("content") or "")


admin = autogen.UserProxyAgent(
    name="Admin",
    system_message="A human admin who gives the team its task.",
    human_input_mode="NEVER",
    code_execution_config=False,
    is_termination_msg=is_done,
)
planner = autogen.AssistantAgent(
    name="Planner",
    system_message="You are the Planner. Break the task into numbered steps.",
    description="Breaks a task into numbered steps.",
    llm_config=llm_config,
)
engineer = autogen.AssistantAgent(
    name="Engineer",
    system_message="You are the Engineer. Turn the plan into concrete actions.",
    description="Turns a plan into concrete actions.",
    llm_config=llm_config,
)
critic = autogen.AssistantAgent(
    name="Critic",
    system_message="You are the Critic. Review the work and reply TERMINATE when it is good.",
    description="Reviews the work of the others.",
    llm_config=llm_config,
)

groupchat = autogen.GroupChat(
    agents=[admin, planner, engineer, critic],
    messages=[],
    max_round=8,
    speaker_selection_method="auto",
)
manager = autogen.GroupChatManager(groupchat=groupchat, llm_config=llm_config, is_termination_msg=is_done)

result = admin.initiate_chat(manager, message="Write a launch checklist for a small web app.")

print("SPEAKERS:", json.dumps([m.get("name") for m in groupchat.messages]))
print("CONTENTS:", json.dumps([m.get("content") for m in groupchat.messages]))
print("SUMMARY:", json.dumps(result.summary))
print("HISTORY_LEN:", len(result.chat_history))
print("LAST_SPEAKER:", groupchat.messages[-1]["name"])
print("PLANNER_SEES:", json.dumps([m["content"] for m in planner.chat_messages[manager]]))
