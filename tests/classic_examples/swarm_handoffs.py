"""Classic swarm: a support desk where agents hand a customer's refund request to each other.

The triage agent hands off to the order agent, whose refund hand-off only appears once a tool has verified the
order (``available="order_verified"``). The refund tool names the next agent in its ``SwarmResult``; the closing
agent reverts to the customer and ends the chat once the case is closed. The same swarm then runs again with
``a_initiate_swarm_chat``.
"""

import asyncio
import json

import autogen_classic as autogen
from autogen_classic import (
    AFTER_WORK,
    ON_CONDITION,
    UPDATE_SYSTEM_MESSAGE,
    AfterWorkOption,
    SwarmAgent,
    SwarmResult,
    a_initiate_swarm_chat,
    config_list_from_json,
    initiate_swarm_chat,
)

config_list = config_list_from_json(env_or_file="OAI_CONFIG_LIST")
llm_config = {"config_list": config_list, "cache_seed": None, "temperature": 0}

ORDERS = {"A-17": {"item": "blue kettle", "price": 40}}


def lookup_order(order_id: str, context_variables: dict) -> SwarmResult:
    """Look up an order and verify it belongs to the customer."""
    order = ORDERS.get(order_id)
    if order is None:
        return SwarmResult(values=f"Order {order_id} was not found.", context_variables=context_variables)
    context_variables["order_id"] = order_id
    context_variables["order_verified"] = True
    context_variables["amount"] = order["price"]
    return SwarmResult(
        values=f"Order {order_id}: {order['item']}, {order['price']} EUR, delivered.",
        context_variables=context_variables,
    )


def issue_refund(amount: int, context_variables: dict) -> SwarmResult:
    """Refund the customer for the verified order."""
    context_variables["refunded"] = amount
    return SwarmResult(
        values=f"Refunded {amount} EUR for order {context_variables['order_id']}.",
        agent="closer",
        context_variables=context_variables,
    )


def close_case(context_variables: dict) -> SwarmResult:
    """Close the support case."""
    context_variables["case_closed"] = True
    return SwarmResult(values="Case closed.", context_variables=context_variables)


def closer_after_work(last_speaker, messages, groupchat):
    if last_speaker.get_context("case_closed"):
        return AfterWorkOption.TERMINATE
    return AfterWorkOption.REVERT_TO_USER


def build_swarm():
    triage = SwarmAgent(
        name="triage",
        system_message="You are the triage agent. Send each request to the right desk.",
        llm_config=llm_config,
    )
    order_agent = SwarmAgent(
        name="order_agent",
        system_message="You are the order agent.",
        llm_config=llm_config,
        functions=[lookup_order],
        update_agent_state_before_reply=[
            UPDATE_SYSTEM_MESSAGE("You are the order agent. Customer: {customer_name}. Verified: {order_verified}.")
        ],
    )
    refund_agent = SwarmAgent(
        name="refund_agent",
        system_message="You are the refund agent. Refund verified orders only.",
        llm_config=llm_config,
        functions=[issue_refund],
    )
    closer = SwarmAgent(
        name="closer",
        system_message="You are the closer. Confirm the outcome and close the case.",
        llm_config=llm_config,
        functions=[close_case],
    )
    customer = autogen.UserProxyAgent(
        name="customer",
        human_input_mode="NEVER",
        code_execution_config=False,
        default_auto_reply="No, that is all. Thanks!",
    )

    triage.register_hand_off(
        [
            ON_CONDITION(order_agent, "The customer asks about an order or a refund."),
            ON_CONDITION(closer, "The customer has nothing more to ask."),
            AFTER_WORK(AfterWorkOption.REVERT_TO_USER),
        ]
    )
    order_agent.register_hand_off(
        [
            ON_CONDITION(refund_agent, "The verified order should be refunded.", available="order_verified"),
            AFTER_WORK(AfterWorkOption.STAY),
        ]
    )
    refund_agent.register_hand_off([ON_CONDITION(triage, "The request is not about a refund."), AFTER_WORK(closer)])
    closer.register_hand_off(AFTER_WORK(closer_after_work))
    return [triage, order_agent, refund_agent, closer], customer


def start_context():
    return {"customer_name": "Ada", "order_verified": False, "refunded": 0, "case_closed": False}


def history(chat_result):
    rows = []
    for m in chat_result.chat_history:
        calls = [[c["function"]["name"], c["function"]["arguments"]] for c in m.get("tool_calls") or []]
        responses = [[r["tool_call_id"], str(r["content"])] for r in m.get("tool_responses") or []]
        rows.append([m.get("name"), m.get("role"), m.get("content"), calls, responses])
    return rows


REQUEST = "Hi, I want a refund for order A-17, the kettle leaks."

agents, customer = build_swarm()
result, context, last_agent = initiate_swarm_chat(
    initial_agent=agents[0],
    messages=REQUEST,
    agents=agents,
    user_agent=customer,
    context_variables=start_context(),
    after_work=AFTER_WORK(AfterWorkOption.TERMINATE),
    max_rounds=30,
)
print("SPEAKERS:", json.dumps([m.get("name") for m in result.chat_history]))
print("HISTORY:", json.dumps(history(result)))
print("CONTEXT:", json.dumps(context, sort_keys=True))
print("LAST_AGENT:", json.dumps(last_agent.name))
print("SUMMARY:", json.dumps(result.summary))
print("ORDER_AGENT_SYSTEM:", json.dumps(agents[1].system_message))
print("FUNCTIONS:", json.dumps({a.name: sorted(a.function_map) for a in agents}))

agents, customer = build_swarm()
a_result, a_context, _ = asyncio.run(
    a_initiate_swarm_chat(
        initial_agent=agents[0],
        messages=REQUEST,
        agents=agents,
        user_agent=customer,
        context_variables=start_context(),
        after_work=AFTER_WORK(AfterWorkOption.TERMINATE),
        max_rounds=30,
    )
)
print("ASYNC_HISTORY:", json.dumps(history(a_result)))
print("ASYNC_CONTEXT:", json.dumps(a_context, sort_keys=True))
