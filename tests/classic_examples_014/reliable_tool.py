"""AG2 Classic 0.14 style: ReliableTool, run directly (sync, async, with details), used as an agent's tool, and the
tools of outside services without their extras.

The scripted model answers by the internal agent asking (runner or validator, from the system message) and by the
task's tag in brackets. The console text of the first run is printed between ``=====BEGIN SUCCESS_CONSOLE`` and
``=====END SUCCESS_CONSOLE``.
"""

import asyncio
import json
import warnings

from autogen_classic import ConversableAgent, LLMConfig
from autogen_classic.tools import Tool
from autogen_classic.tools.experimental import TavilySearchTool, ToolExecutionDetails, WikipediaQueryRunTool
from autogen_classic.tools.experimental.reliable import ReliableTool, ReliableToolError

llm_config = LLMConfig.from_json(path="OAI_CONFIG_LIST", cache_seed=None)
PRICES = {"apple": 1.5, "pear": 2.0, "banana": 0.5, "kiwi": 3.0}
calls = []


def lookup_price(item: str) -> float:
    """Look up the price of an item in the shop."""
    calls.append(item)
    if item not in PRICES:
        raise KeyError(f"no such item: {item}")
    return PRICES[item]


def price_tool(**kwargs):
    return ReliableTool(name="PriceLookup", func_or_tool=lookup_price, runner_llm_config=llm_config,
                        validator_llm_config=llm_config,
                        system_message_addition_for_result_validation="The price must be positive.", **kwargs)


def attempts(context):
    return [[a.attempt_kwargs, a.hypothesis, a.error, a.result_str,
             a.validation.model_dump() if a.validation else None] for a in context.attempts]


tool = price_tool()
print("SCHEMA:", json.dumps(tool.tool_schema))
print("NAMES:", json.dumps([tool.name, tool.description, tool.max_tool_invocations, tool.enable_dynamic_validation]))

# Success at the first attempt, with the internal chat's console text.
print("=====BEGIN SUCCESS_CONSOLE", flush=True)
result = tool.run("[success] the price of an apple")
print("=====END SUCCESS_CONSOLE", flush=True)
print("SUCCESS_RESULT:", json.dumps(result))

# A call that raises, an answer without a call, a result the validator rejects, then one it accepts.
details = price_tool().run_and_get_details("[retry] the price of a banana")
assert isinstance(details, ToolExecutionDetails)
print("RETRY_DETAILS:", json.dumps([details.is_overall_successful, details.failure_reason,
                                    details.successful_parameters.model_dump(), details.final_tool_context.task,
                                    attempts(details.final_tool_context)]))
print("RETRY_RESULT:", json.dumps(details.final_tool_context.get_final_result_data()))

# Every attempt fails: the classic error, with the run's context.
try:
    price_tool(max_tool_invocations=2).run("[fail] the price of a durian")
except ReliableToolError as error:
    print("FAIL_ERROR:", json.dumps([type(error).__name__, str(error), isinstance(error, Exception),
                                     error.final_context.task, attempts(error.final_context)]))

# Reusing one tool for a second task (the tool of the first run).
try:
    tool.run("[again] the price of a kiwi")
except ReliableToolError as error:
    print("REUSED_ERROR:", json.dumps([str(error), error.final_context.task, attempts(error.final_context)]))

# The runner never calls the function.
try:
    price_tool(max_tool_invocations=1).run("[silent] the price of a pear")
except ReliableToolError as error:
    print("NO_CALL_ERROR:", json.dumps([str(error), error.final_context.attempt_count]))


# An async function, a Tool, dynamic validation, messages and ground truth.
async def fetch_stock(ticker: str) -> int:
    """Fetch the stock level of a ticker."""
    return 42


stock = ReliableTool(name="StockLevel", func_or_tool=Tool(func_or_tool=fetch_stock), runner_llm_config=llm_config,
                     validator_llm_config=llm_config, enable_dynamic_validation=True,
                     messages=[{"role": "user", "content": "We track ACME."}], ground_truth=["ACME has 42 units."])
print("ASYNC_SCHEMA:", json.dumps(stock.tool_schema))
print("ASYNC_RESULT:", json.dumps(asyncio.run(stock.func(task="[stock] the stock of ACME",
                                                         validation_prompt_addition="It must be a whole number."))))
try:
    stock.run("[stock] again")
except TypeError as error:
    print("ASYNC_SYNC_RUN:", json.dumps(str(error)))

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    result = asyncio.run(price_tool().a_run("[async-of-sync] the price of a pear"))
print("A_RUN_OF_SYNC:", json.dumps([result, [str(w.message) for w in caught if w.category is UserWarning]]))

# The tool as an agent's tool: the assistant's model calls it with a task, the user agent runs it.
assistant = ConversableAgent("assistant", system_message="You answer price questions.", llm_config=llm_config)
user = ConversableAgent("user", llm_config=False, human_input_mode="NEVER",
                        is_termination_msg=lambda m: "TERMINATE" in (m.get("content") or ""))
shop_tool = price_tool()
shop_tool.register_for_llm(assistant)
shop_tool.register_for_execution(user)
chat = user.initiate_chat(assistant, message="What does an apple cost?", max_turns=3)
print("CHAT_HISTORY:", json.dumps([[m.get("role"), m.get("name"), m.get("content")] for m in chat.chat_history]))
print("CHAT_TOOLS:", json.dumps(assistant.llm_config["tools"]))
print("CALLS:", json.dumps(calls))  # every call of the function, in all the runs above

# Wrong arguments.
for bad in ({"runner_llm_config": None}, {"validator_llm_config": False}, {"func_or_tool": 42}):
    arguments = {"name": "Bad", "func_or_tool": lookup_price, "runner_llm_config": llm_config,
                 "validator_llm_config": llm_config, **bad}
    try:
        ReliableTool(**arguments)
    except (ValueError, TypeError) as error:
        print(f"BAD_{next(iter(bad)).upper()}:", json.dumps([type(error).__name__, str(error)]))


# Tools of outside services without their extras: the classic ImportError, naming the modules and the extra.
def import_error(error):
    lines = str(error).splitlines()
    return [type(error).__name__, lines[0].split(" needed for ")[0], lines[1:-2], lines[-1].split("[")[-1].rstrip("]'")]


try:
    WikipediaQueryRunTool(language="en")
except ImportError as error:
    print("SERVICE_ERROR:", json.dumps(import_error(error)))

# Tavily's: here building the tool raises it; 0.14.1 builds the tool and raises it when the tool is called.
try:
    stage = "construction"
    search = TavilySearchTool(tavily_api_key="tvly-test")
    stage = "call"
    search.func(query="ACME stock")
except ImportError as error:
    print("TAVILY_ERROR:", json.dumps([stage, *import_error(error)]))
