"""Classic nested chats: a critic consults a panel of reviewers (a nested sequence of chats) before answering."""

import json

import autogen_classic as autogen

config_list = autogen.config_list_from_json(env_or_file="OAI_CONFIG_LIST")
llm_config = {"config_list": config_list, "cache_seed": None}

task = "Write a short blog post about the benefits of unit tests."

writer = autogen.AssistantAgent(
    name="Writer",
    system_message="You are the Writer. Write engaging, concise posts and revise them on feedback.",
    llm_config=llm_config,
)
critic = autogen.AssistantAgent(
    name="Critic",
    system_message="You are the Critic. Give constructive feedback.",
    llm_config=llm_config,
    is_termination_msg=lambda x: x.get("content", "").find("TERMINATE") >= 0,
)
style_reviewer = autogen.AssistantAgent(
    name="Style_Reviewer",
    system_message="You are the Style Reviewer. Comment on tone and clarity in at most two sentences.",
    llm_config=llm_config,
)
fact_reviewer = autogen.AssistantAgent(
    name="Fact_Reviewer",
    system_message="You are the Fact Reviewer. Point out unsupported claims in at most two sentences.",
    llm_config=llm_config,
)
meta_reviewer = autogen.AssistantAgent(
    name="Meta_Reviewer",
    system_message="You are the Meta Reviewer. Merge the reviews into final suggestions.",
    llm_config=llm_config,
)


def reflection_message(recipient, messages, sender, config):
    print("Reflecting...")
    return f"Review the following writing.\n\n{recipient.chat_messages_for_summary(sender)[-1]['content']}"


review_chats = [
    {
        "recipient": style_reviewer,
        "message": reflection_message,
        "summary_method": "reflection_with_llm",
        "summary_args": {"summary_prompt": "Return the review as a JSON object only: {'Reviewer': '', 'Review': ''}."},
        "max_turns": 1,
    },
    {
        "recipient": fact_reviewer,
        "message": reflection_message,
        "summary_method": "last_msg",
        "max_turns": 1,
    },
    {
        "recipient": meta_reviewer,
        "message": "Aggregate the feedback from all reviewers and give final suggestions on the writing.",
        "max_turns": 1,
    },
]
critic.register_nested_chats(review_chats, trigger=writer)

res = critic.initiate_chat(recipient=writer, message=task, max_turns=2, summary_method="last_msg")

print("SUMMARY:", json.dumps(res.summary))
print("MAIN_CHAT:", json.dumps([[m["role"], m.get("name"), m["content"]] for m in res.chat_history]))
print("TO_STYLE:", json.dumps([m["content"] for m in critic.chat_messages[style_reviewer]]))
print("TO_FACT:", json.dumps([m["content"] for m in critic.chat_messages[fact_reviewer]]))
print("TO_META:", json.dumps([m["content"] for m in critic.chat_messages[meta_reviewer]]))
