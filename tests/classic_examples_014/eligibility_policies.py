"""AG2 Classic 0.14 style: eligibility policies that read the selection context by name, and a description guard."""

import json

from autogen_classic import ConversableAgent, GroupChat, GroupChatManager, LLMConfig
from autogen_classic.agentchat.eligibility_policy import AgentDescriptionGuard, SelectionContext

llm_config = LLMConfig.from_json(path="OAI_CONFIG_LIST", cache_seed=None)

seen = []


class NoRepeat:
    """The last speaker may not speak twice in a row."""

    def is_eligible(self, agent, ctx: SelectionContext) -> bool:
        seen.append([agent.name, ctx.round, ctx.last_speaker, list(ctx.participants)])
        return agent.name != ctx.last_speaker


class WriterRestsEarly:
    """The writer may not speak in the first three messages."""

    def is_eligible(self, agent, ctx: SelectionContext) -> bool:
        return not (agent.name == "writer" and ctx.round < 3)


user = ConversableAgent("user", human_input_mode="NEVER", llm_config=False, default_auto_reply="Go on.")
planner = ConversableAgent("planner", llm_config=llm_config, description="Plans the work.")
writer = ConversableAgent("writer", llm_config=llm_config, description="Writes the text.")
reviewer = ConversableAgent("reviewer", llm_config=llm_config, description="Reviews the text.")

groupchat = GroupChat(
    agents=[user, planner, writer, reviewer],
    messages=[],
    max_round=6,
    speaker_selection_method="round_robin",
    eligibility_policies=[NoRepeat(), WriterRestsEarly()],
)
manager = GroupChatManager(groupchat=groupchat, llm_config=llm_config)
result = user.initiate_chat(manager, message="Write a haiku about autumn.")
print("SPEAKERS:", json.dumps([m.get("name") for m in groupchat.messages]))
print("CONTEXTS:", json.dumps(seen[:8]))

ctx = SelectionContext(round=2, last_speaker="planner", participants=("user", "planner"))
print("CONTEXT_FIELDS:", json.dumps([ctx.round, ctx.last_speaker, list(ctx.participants)]))
try:
    ctx.round = 5
    print("CONTEXT_FROZEN:", json.dumps(False))
except Exception as error:  # noqa: BLE001 - the type is what is compared
    print("CONTEXT_FROZEN:", json.dumps(type(error).__name__))

guard = AgentDescriptionGuard(writer)
guard.mark_unavailable()
guard.mark_unavailable()
print("GUARDED:", json.dumps(writer.description))
guard.mark_available()
print("RESTORED:", json.dumps(writer.description))
