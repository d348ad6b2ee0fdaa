"""The refund desk of ``tests/classic_examples/refund_desk_swarm.py`` as an AG2 Classic 0.14 pattern
(docs/migrating.md, "From a swarm to a pattern"); it prints the same conversation.

ON_CONDITION is an OnCondition with a StringLLMCondition, AFTER_WORK an after-work target, the SwarmResult a
ReplyResult, the dict of context variables a ContextVariables, initiate_swarm_chat a DefaultPattern run by
initiate_group_chat.
"""

import json

from autogen_classic import ConversableAgent, LLMConfig, UserProxyAgent
from autogen_classic.agentchat import initiate_group_chat
from autogen_classic.agentchat.group import (
    AgentNameTarget,
    AgentTarget,
    ContextVariables,
    OnCondition,
    ReplyResult,
    RevertToUserTarget,
    StringLLMCondition,
    TerminateTarget,
)
from autogen_classic.agentchat.group.patterns import DefaultPattern

llm_config = LLMConfig.from_json(path="OAI_CONFIG_LIST", cache_seed=None)


def issue_refund(order_id: str, context_variables: ContextVariables) -> ReplyResult:
    """Refund the customer's order."""
    context_variables["refunded"] = order_id
    return ReplyResult(message=f"Refunded order {order_id}.", target=AgentNameTarget("closer"),
                       context_variables=context_variables)


triage = ConversableAgent("triage", system_message="You are the triage agent.", llm_config=llm_config)
refunds = ConversableAgent("refunds", system_message="You are the refunds agent.", llm_config=llm_config,
                           functions=[issue_refund])
closer = ConversableAgent("closer", system_message="You are the closer.", llm_config=llm_config)
customer = UserProxyAgent("customer", human_input_mode="NEVER", code_execution_config=False,
                          default_auto_reply="It is order A-17.")

triage.handoffs.add_llm_condition(
    OnCondition(target=AgentTarget(refunds),
                condition=StringLLMCondition(prompt="The customer wants a refund and has named the order."))
)
triage.handoffs.set_after_work(RevertToUserTarget())
closer.handoffs.set_after_work(TerminateTarget())

pattern = DefaultPattern(
    initial_agent=triage,
    agents=[triage, refunds, closer],
    user_agent=customer,
    context_variables=ContextVariables(data={"refunded": None}),
)
result, context, last_agent = initiate_group_chat(pattern=pattern, messages="I want a refund for my kettle.",
                                                  max_rounds=20)

conversation = [[m.get("name"), m["content"]] for m in result.chat_history
                if m.get("role") != "tool" and not m.get("tool_calls")]
calls = [[c["function"]["name"], json.loads(c["function"]["arguments"])]
         for m in result.chat_history for c in m.get("tool_calls") or []
         if not c["function"]["name"].startswith("transfer_")]
print("CONVERSATION:", json.dumps(conversation))
print("CALLS:", json.dumps(calls))
print("CONTEXT:", json.dumps(context.to_dict()))
print("LAST_AGENT:", json.dumps(last_agent.name))
