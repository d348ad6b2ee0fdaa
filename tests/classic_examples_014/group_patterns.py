"""AG2 Classic 0.14 style: a triage team of patterns and hand-offs, run with initiate_group_chat and run_group_chat."""

import json
import random

from autogen_classic import ConversableAgent, LLMConfig
from autogen_classic.agentchat import initiate_group_chat, run_group_chat
from autogen_classic.agentchat.group import (
    AgentNameTarget,
    AgentTarget,
    ContextExpression,
    ContextVariables,
    ExpressionContextCondition,
    OnCondition,
    OnContextCondition,
    ReplyResult,
    RevertToUserTarget,
    StringLLMCondition,
    TerminateTarget,
)
from autogen_classic.agentchat.group.patterns import DefaultPattern, RandomPattern, RoundRobinPattern
from autogen_classic.events.agent_events import InputRequestEvent, RunCompletionEvent, TerminationEvent

llm_config = LLMConfig.from_json(path="OAI_CONFIG_LIST", cache_seed=None)


def shown(history):
    return [[m.get("name"), m.get("role"), m.get("content")] for m in history]


def refund(amount: int, context_variables: ContextVariables) -> ReplyResult:
    """Refund an amount to the customer."""
    context_variables["refunded"] = amount
    return ReplyResult(message=f"Refunded {amount}", target=AgentNameTarget("support"),
                       context_variables=context_variables)


def login(context_variables: ContextVariables) -> ReplyResult:
    """Log the customer in."""
    context_variables["logged_in"] = True
    return ReplyResult(message="Logged in", context_variables=context_variables)


# An LLM condition (the triage model calls transfer_to_billing_1), a ReplyResult naming the next agent, an after work.
triage = ConversableAgent("triage", system_message="You are the triage agent.", llm_config=llm_config)
billing = ConversableAgent("billing", system_message="You are the billing agent.", llm_config=llm_config,
                           functions=[refund])
support = ConversableAgent("support", system_message="You are the support agent.", llm_config=llm_config)
triage.handoffs.add_llm_conditions(
    [OnCondition(target=AgentTarget(billing), condition=StringLLMCondition(prompt="Billing questions."))]
)
support.handoffs.set_after_work(TerminateTarget())
pattern = DefaultPattern(initial_agent=triage, agents=[triage, billing, support],
                         context_variables=ContextVariables(data={"logged_in": True}))
result, context, last = initiate_group_chat(pattern=pattern, messages="I need a refund.", max_rounds=10)
print("TRIAGE_HISTORY:", json.dumps(shown(result.chat_history)))
print("TRIAGE_CALLS:", json.dumps([c["function"] for m in result.chat_history for c in m.get("tool_calls") or []]))
print("TRIAGE_CONTEXT:", json.dumps(context.to_dict()))
print("TRIAGE_LAST:", json.dumps(last.name))
print("TRIAGE_SUMMARY:", json.dumps(result.summary))

# A context condition with an expression, after a tool changed the context variables.
gate = ConversableAgent("gate", system_message="You are the gate agent.", llm_config=llm_config, functions=[login])
vault = ConversableAgent("vault", system_message="You are the vault agent.", llm_config=llm_config)
gate.handoffs.add_context_conditions([OnContextCondition(
    target=AgentTarget(vault), condition=ExpressionContextCondition(ContextExpression("${logged_in} and ${attempts} < 3")))])
vault.handoffs.set_after_work(TerminateTarget())
result, context, last = initiate_group_chat(
    pattern=DefaultPattern(initial_agent=gate, agents=[gate, vault],
                           context_variables=ContextVariables(data={"logged_in": False, "attempts": 1})),
    messages="Open the vault.", max_rounds=10)
print("GATE_HISTORY:", json.dumps(shown(result.chat_history)))
print("GATE_CONTEXT:", json.dumps(context.to_dict()))
print("GATE_LAST:", json.dumps(last.name))

# Round robin, and random with a seed.
first = ConversableAgent("first", system_message="You are the first speaker.", llm_config=llm_config)
second = ConversableAgent("second", system_message="You are the second speaker.", llm_config=llm_config)
result, _, last = initiate_group_chat(pattern=RoundRobinPattern(initial_agent=first, agents=[first, second]),
                                      messages="Take turns.", max_rounds=4)
print("ROUND_ROBIN:", json.dumps(shown(result.chat_history)))
print("ROUND_ROBIN_AFTER_WORKS:", json.dumps([str(c.target) for a in (first, second) for c in a.handoffs.after_works]))
random.seed(7)
third = ConversableAgent("third", system_message="You are the third speaker.", llm_config=llm_config)
result, _, _ = initiate_group_chat(pattern=RandomPattern(initial_agent=first, agents=[first, second, third]),
                                   messages="Anyone.", max_rounds=5)
print("RANDOM_SPEAKERS:", json.dumps([m.get("name") for m in result.chat_history]))

# A run for a consumer of its events: the user agent answers through the events.
helper = ConversableAgent("helper", system_message="You are the helper.", llm_config=llm_config)
user = ConversableAgent("user", human_input_mode="ALWAYS", llm_config=False)
helper.handoffs.set_after_work(RevertToUserTarget())
response = run_group_chat(pattern=DefaultPattern(initial_agent=helper, agents=[helper], user_agent=user),
                          messages="Hello helper.", max_rounds=6)
answers, kinds, reasons = ["Tell me more.", "exit"], [], []
for event in response.events:
    kinds.append(type(event).__name__)
    if isinstance(event, InputRequestEvent):
        event.content.respond(answers.pop(0))
    elif isinstance(event, TerminationEvent):
        reasons.append(event.content.termination_reason)
    elif isinstance(event, RunCompletionEvent):
        print("RUN_COMPLETION_LAST:", json.dumps(event.content.last_speaker))
print("RUN_EVENT_KINDS:", json.dumps(kinds))
print("RUN_TERMINATION_REASONS:", json.dumps(reasons))
print("RUN_SUMMARY:", json.dumps(response.summary))
print("RUN_MESSAGES:", json.dumps(shown(response.messages)))


# Bad input: the exception classes, and the classic text the message starts with.
def failure(thunk, classic):
    try:
        thunk()
    except BaseException as error:  # noqa: BLE001 - reported
        return [type(error).__name__, [c.__name__ for c in type(error).__mro__ if c.__module__ == "builtins"],
                str(error).startswith(classic)]
    return None


lonely = ConversableAgent("lonely", system_message="You are lonely.", llm_config=llm_config)
lonely.handoffs.set_after_work(AgentNameTarget("ghost"))
print("OUTSIDE_AFTER_WORK:", json.dumps(failure(
    lambda: initiate_group_chat(pattern=DefaultPattern(initial_agent=lonely, agents=[lonely]), messages="x"),
    "Agent in after work target Hand-offs must be in the agents list")))
silent_a = ConversableAgent("silent_a", llm_config=False)
silent_b = ConversableAgent("silent_b", llm_config=False)
silent_a.handoffs.add_llm_condition(OnCondition(target=AgentTarget(silent_b), condition=StringLLMCondition("x")))
print("LLM_CONDITION_WITHOUT_MODEL:", json.dumps(failure(
    lambda: initiate_group_chat(pattern=DefaultPattern(initial_agent=silent_a, agents=[silent_a, silent_b]),
                                messages="x"),
    "To update a tool signature, agent must have an llm_config")))
print("UNKNOWN_SENDER:", json.dumps(failure(
    lambda: initiate_group_chat(pattern=DefaultPattern(initial_agent=helper, agents=[helper]),
                                messages=[{"role": "user", "content": "x", "name": "nobody"}]),
    "Invalid group agent name in last message: nobody")))
