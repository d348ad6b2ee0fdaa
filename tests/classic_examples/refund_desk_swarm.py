"""A refund desk as an ag2 0.7.3 swarm (docs/migrating.md, "From a swarm to a pattern").

The same team as an AG2 Classic 0.14 pattern is ``tests/classic_examples_014/refund_desk_pattern.py``; both
print the same conversation. The triage agent asks the customer for the order, then hands off to the refunds
agent, whose refund tool records it in the context variables and names the closer as the next agent.
"""

import json

import autogen_classic as autogen
from autogen_classic import (
    AFTER_WORK,
    ON_CONDITION,
    AfterWorkOption,
    SwarmAgent,
    SwarmResult,
    config_list_from_json,
    initiate_swarm_chat,
)

llm_config = {"config_list": config_list_from_json(env_or_file="OAI_CONFIG_LIST"), "cache_seed": None}


def issue_refund(order_id: str, context_variables: dict) -> SwarmResult:
    """Refund the customer's order."""
    context_variables["refunded"] = order_id
    return SwarmResult(values=f"Refunded order {order_id}.", agent="closer", context_variables=context_variables)


triage = SwarmAgent("triage", system_message="You are the triage agent.", llm_config=llm_config)
refunds = SwarmAgent("refunds", system_message="You are the refunds agent.", llm_config=llm_config,
                     functions=[issue_refund])
closer = SwarmAgent("closer", system_message="You are the closer.", llm_config=llm_config)
customer = autogen.UserProxyAgent("customer", human_input_mode="NEVER", code_execution_config=False,
                                  default_auto_reply="It is order A-17.")

triage.register_hand_off([
    ON_CONDITION(refunds, "The customer wants a refund and has named the order."),
    AFTER_WORK(AfterWorkOption.REVERT_TO_USER),
])
closer.register_hand_off(AFTER_WORK(AfterWorkOption.TERMINATE))

result, context, last_agent = initiate_swarm_chat(
    initial_agent=triage,
    messages="I want a refund for my kettle.",
    agents=[triage, refunds, closer],
    user_agent=customer,
    context_variables={"refunded": None},
    max_rounds=20,
)

conversation = [[m.get("name"), m["content"]] for m in result.chat_history
                if m.get("role") != "tool" and not m.get("tool_calls")]
calls = [[c["function"]["name"], json.loads(c["function"]["arguments"])]
         for m in result.chat_history for c in m.get("tool_calls") or []
         if not c["function"]["name"].startswith("transfer_")]
print("CONVERSATION:", json.dumps(conversation))
print("CALLS:", json.dumps(calls))
print("CONTEXT:", json.dumps(dict(context)))
print("LAST_AGENT:", json.dumps(last_agent.name))
