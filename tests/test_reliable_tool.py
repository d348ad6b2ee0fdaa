"""ReliableTool as classic code uses it (``from autogen.tools.experimental.reliable import ReliableTool``): run
directly, sync and async, with retries and failures, and as a tool of an agent chat, against the scripted OpenAI
server (the runner's and validator's requests are checked as sent).

The scripted model answers by role: the runner (its system message says it is "responsible for invoking a specific
function") and the validator (asked for a ``ValidationResult``) each have a queue of answers.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Dict, List, Optional

import pytest

from autogen_classic import ConversableAgent, LLMConfig
from autogen_classic.agentchat.group import ContextVariables
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply
from autogen_classic.tools import Tool
from autogen_classic.tools.experimental import ReliableToolError as ExportedError
from autogen_classic.tools.experimental import TavilySearchTool
from autogen_classic.tools.experimental.reliable import (
    ReliableTool,
    ReliableToolError,
    SuccessfulExecutionParameters,
    ToolExecutionDetails,
)
from autogen_classic.tools.experimental.reliable.reliable import ReliableToolContext, ValidationResult

RUNNER_MARK = "responsible for invoking a specific function"


def call(name: str, **arguments: Any) -> ScriptedReply:
    return ScriptedReply(tool_calls=[{"name": name, "arguments": arguments}])


def verdict(passed: bool, justification: str = "Checked.") -> str:
    return json.dumps({"validation_result": passed, "justification": justification})


def script(server: ScriptedOpenAIServer, runner: List[Any], validator: List[Any],
           outer: Optional[List[Any]] = None) -> None:
    """Answer the runner, the validator and any other agent (``outer``) from their own queues."""
    queues = {"runner": list(runner), "validator": list(validator), "outer": list(outer or [])}

    def respond(body: Dict[str, Any]) -> Any:
        system = body["messages"][0].get("content") or ""
        role = ("runner" if RUNNER_MARK in system else "validator" if "response_format" in body else "outer")
        return queues[role].pop(0) if queues[role] else "Nothing more to say."

    server.set_responder(respond)


def runner_requests(server: ScriptedOpenAIServer) -> List[Dict[str, Any]]:
    return [b for b in server.requests if RUNNER_MARK in (b["messages"][0].get("content") or "")]


def validator_requests(server: ScriptedOpenAIServer) -> List[Dict[str, Any]]:
    return [b for b in server.requests if "response_format" in b]


@pytest.fixture
def llm_config(scripted_server: ScriptedOpenAIServer) -> LLMConfig:
    return LLMConfig(scripted_server.config_entry("gpt-4o-mini"), cache_seed=None)


PRICES = {"apple": 1.5, "pear": 2.0, "banana": 0.5}


class Shop:
    """A price list whose lookups are counted (the function a ReliableTool makes reliable)."""

    def __init__(self) -> None:
        self.looked_up: List[str] = []

    def lookup_price(self, item: str) -> float:
        """Look up the price of an item in the shop."""
        self.looked_up.append(item)
        if item not in PRICES:
            raise KeyError(f"no such item: {item}")
        return PRICES[item]


def price_tool(llm_config: LLMConfig, shop: Shop, **kwargs: Any) -> ReliableTool:
    return ReliableTool(name="PriceLookup", func_or_tool=shop.lookup_price, runner_llm_config=llm_config,
                        validator_llm_config=llm_config,
                        system_message_addition_for_result_validation="The price must be positive.", **kwargs)


def lookup(item: str, hypothesis: str = "A positive price.") -> ScriptedReply:
    return call("execute_lookup_price", item=item, hypothesis=hypothesis)


def test_success_at_the_first_attempt(scripted_server: ScriptedOpenAIServer, llm_config: LLMConfig) -> None:
    shop = Shop()
    tool = price_tool(llm_config, shop)
    script(scripted_server, [lookup("apple", "The price of an apple.")], [verdict(True, "Positive.")])

    assert tool.run("the price of an apple") == 1.5
    assert shop.looked_up == ["apple"]
    # The tool itself takes a task; the runner's model is offered the function with a hypothesis, never the
    # context variables the group chat injects.
    parameters = tool.tool_schema["function"]["parameters"]
    assert parameters["properties"] == {"task": {"type": "string", "description": "task"}}
    runner, validator = runner_requests(scripted_server), validator_requests(scripted_server)
    assert len(runner) == 1 and len(validator) == 1
    (offered,) = runner[0]["tools"]
    assert offered["function"]["name"] == "execute_lookup_price"
    assert offered["function"]["parameters"]["required"] == ["item", "hypothesis"]
    assert "Current Task:\nthe price of an apple" in runner[0]["messages"][0]["content"]
    assert runner[0]["messages"][-1]["content"] == (
        "[[Task Kickoff]]: Please execute the required function call for the task: the price of an apple")
    # The validator sees its rules and only the result, and must answer a ValidationResult.
    assert "tools" not in validator[0]
    assert validator[0]["response_format"]["json_schema"]["name"] == "ValidationResult"
    assert "Base Validation Rules/Context:\nThe price must be positive." in validator[0]["messages"][0]["content"]
    assert validator[0]["messages"][1:] == [{
        "role": "user", "content": "--- Function Result to Validate ---\n```\n1.5\n```\n--- End of Result ---"}]


def test_retries_after_an_error_a_missing_call_and_a_rejected_result(
    scripted_server: ScriptedOpenAIServer, llm_config: LLMConfig
) -> None:
    shop = Shop()
    tool = price_tool(llm_config, shop)
    script(scripted_server, [lookup("durian"), "Let me think.", lookup("pear"), lookup("banana")],
           [verdict(False, "A pear is not a banana."), verdict(True, "The banana's price.")])

    details = tool.run_and_get_details("the price of a banana")

    assert isinstance(details, ToolExecutionDetails) and details.is_overall_successful
    assert details.failure_reason is None
    assert details.successful_parameters == SuccessfulExecutionParameters(
        attempt_args=[], attempt_kwargs={"item": "banana"})
    assert shop.looked_up == ["durian", "pear", "banana"]
    context = details.final_tool_context
    assert isinstance(context, ReliableToolContext) and context.get_final_result_data() == 0.5
    assert [(a.attempt_kwargs, a.error) for a in context.attempts] == [
        ({"item": "durian"}, "KeyError: 'no such item: durian'"), ({"item": "pear"}, None), ({"item": "banana"}, None)]
    assert [a.validation for a in context.attempts] == [
        None, ValidationResult(validation_result=False, justification="A pear is not a banana."),
        ValidationResult(validation_result=True, justification="The banana's price.")]
    # The runner saw the error, then the reminder after its answer without a call.
    runner = runner_requests(scripted_server)
    assert runner[1]["messages"][-1]["content"] == (
        "Function execution failed with error: KeyError: 'no such item: durian'.")
    assert runner[2]["messages"][-1]["content"].startswith(
        "Let me think.\n\n[[System Reminder: You MUST invoke the function 'execute_lookup_price' using a tool call.")


def test_the_classic_error_when_every_attempt_fails(
    scripted_server: ScriptedOpenAIServer, llm_config: LLMConfig
) -> None:
    shop = Shop()
    tool = price_tool(llm_config, shop, max_tool_invocations=2)
    script(scripted_server, [lookup("durian"), lookup("pear")], [verdict(False, "A pear is not a durian.")])

    with pytest.raises(ReliableToolError) as caught:
        tool.run("the price of a durian")

    error = caught.value
    assert ReliableToolError is ExportedError and isinstance(error, Exception)
    assert str(error) == ("ReliableTool 'PriceLookup' failed. Last failure: Execution succeeded but failed "
                          "validation (Justification: A pear is not a durian.)")
    assert error.final_context is not None and error.final_context.task == "the price of a durian"
    assert [a.attempt_kwargs["item"] for a in error.final_context.attempts] == ["durian", "pear"]
    # The details report the same failure without raising.
    script(scripted_server, ["No."] * 5, [])
    details = tool.run_and_get_details("the price of a durian")
    assert not details.is_overall_successful and details.failure_reason == "No execution attempts were made."


def test_each_run_keeps_its_own_record(scripted_server: ScriptedOpenAIServer, llm_config: LLMConfig) -> None:
    tool = price_tool(llm_config, Shop(), ground_truth=["Apples are on sale."])
    script(scripted_server, [lookup("apple"), lookup("pear")], [verdict(True), verdict(True)])
    assert tool.run("the price of an apple") == 1.5
    scripted_server.requests.clear()

    details = tool.run_and_get_details("the price of a pear", ground_truth=["Pears are fresh."])

    assert details.is_overall_successful and details.final_tool_context.task == "the price of a pear"
    assert [a.attempt_kwargs for a in details.final_tool_context.attempts] == [{"item": "pear"}]
    (validator,) = validator_requests(scripted_server)
    assert validator["messages"][1] == {"role": "user", "content": "[[Provided Ground Truth 1]]:\nPears are fresh."}


def test_async_function_and_a_run(scripted_server: ScriptedOpenAIServer, llm_config: LLMConfig) -> None:
    async def fetch_stock(ticker: str) -> int:
        """Fetch the stock level of a ticker."""
        await asyncio.sleep(0)
        return 42

    tool = ReliableTool(name="StockLevel", func_or_tool=Tool(func_or_tool=fetch_stock), runner_llm_config=llm_config,
                        validator_llm_config=llm_config, enable_dynamic_validation=True)
    script(scripted_server, [call("execute_fetch_stock", ticker="ACME", hypothesis="Units.")], [verdict(True)])

    assert asyncio.run(tool.func(task="the stock of ACME", validation_prompt_addition="A whole number.")) == 42
    (validator,) = validator_requests(scripted_server)
    assert validator["messages"][0]["content"].endswith(
        "\n\nAdditional Dynamic Requirements for This Specific Run:\nA whole number.\n\n"
        "Base Task Description (for reference):\nthe stock of ACME\n")
    with pytest.raises(TypeError, match=r"Sync 'run\(\)' called for async tool 'StockLevel'. Use 'a_run\(\)'."):
        tool.run("the stock of ACME")


def test_a_run_of_a_sync_function_warns(scripted_server: ScriptedOpenAIServer, llm_config: LLMConfig) -> None:
    tool = price_tool(llm_config, Shop())
    script(scripted_server, [lookup("pear")], [verdict(True)])
    context_variables = ContextVariables(data={"shop": "main"})

    with pytest.warns(UserWarning, match="Running sync function 'lookup_price' wrapped by ReliableTool 'PriceLookup'"):
        assert asyncio.run(tool.a_run("the price of a pear", context_variables=context_variables)) == 2.0
    assert context_variables["shop"] == "main"  # the run's context is added to the caller's variables


def test_as_the_tool_of_an_agent_chat(scripted_server: ScriptedOpenAIServer, llm_config: LLMConfig) -> None:
    shop = Shop()
    tool = price_tool(llm_config, shop)
    assistant = ConversableAgent("assistant", system_message="You answer price questions.", llm_config=llm_config)
    user = ConversableAgent("user", llm_config=False, human_input_mode="NEVER",
                            is_termination_msg=lambda m: "TERMINATE" in (m.get("content") or ""))
    tool.register_for_llm(assistant)
    tool.register_for_execution(user)
    script(scripted_server, [lookup("apple")], [verdict(True)],
           outer=[call("PriceLookup", task="the price of an apple"), "An apple costs 1.5. TERMINATE"])

    chat = user.initiate_chat(assistant, message="What does an apple cost?", max_turns=3)

    assert [(m["role"], m.get("content")) for m in chat.chat_history] == [
        ("assistant", "What does an apple cost?"), ("assistant", None), ("tool", "1.5"),
        ("user", "An apple costs 1.5. TERMINATE")]
    assert shop.looked_up == ["apple"]
    assert [t["function"]["name"] for t in scripted_server.requests[0]["tools"]] == ["PriceLookup"]


def test_wrong_arguments() -> None:
    config = {"config_list": [{"model": "gpt-4o-mini", "api_key": "sk-test"}]}
    with pytest.raises(ValueError, match="^Runner LLM config failed validation.$"):
        ReliableTool(name="x", func_or_tool=len, runner_llm_config=None,  # type: ignore[arg-type]
                     validator_llm_config=config)
    with pytest.raises(TypeError, match="^Input 'func_or_tool' must be a callable"):
        ReliableTool(name="x", func_or_tool=42,  # type: ignore[arg-type]
                     runner_llm_config=config, validator_llm_config=config)


def test_a_tool_of_an_outside_service_needs_its_extra() -> None:
    with pytest.raises(ImportError) as caught:
        TavilySearchTool(tavily_api_key="tvly-test")
    assert str(caught.value).splitlines()[1:] == [
        " - 'tavily' is not installed.", "Please install it using:", "'pip install autogen-classic[tavily]'"]
