"""AG2 Classic 0.14 style: runs shown on the console by ConsoleEventProcessor (response.process()).

Each run's console text is printed between "=====BEGIN <name>" and "=====END <name>" lines, so the test
can compare it, section by section, with what 0.14.1 printed for the same scripted replies.
"""

import json

from autogen_classic import ConversableAgent, LLMConfig
from autogen_classic.io.processors import ConsoleEventProcessor
from autogen_classic.tools import Tool

llm_config = LLMConfig.from_json(path="OAI_CONFIG_LIST", cache_seed=None)


def section(name, run):
    print(f"=====BEGIN {name}", flush=True)
    response = run()
    print(f"=====END {name}", flush=True)
    return response


# Two agents, ended by max_turns.
assistant = ConversableAgent("assistant", system_message="You answer briefly.", llm_config=llm_config)
user = ConversableAgent("user", human_input_mode="NEVER", llm_config=False, default_auto_reply="Go on.")


def two_agents():
    response = user.run(assistant, message="Say hello.", max_turns=2)
    response.process()
    return response


response = section("two_agents", two_agents)
print("TWO_SUMMARY:", json.dumps(response.summary))
print("TWO_LAST_SPEAKER:", json.dumps(response.last_speaker))
print("TWO_MESSAGES:", json.dumps([[m.get("name"), m.get("role"), m.get("content")] for m in response.messages]))


# One agent with a tool, through its executor; the answer says TERMINATE.
def add(a: int, b: int) -> int:
    return a + b


calculator = ConversableAgent("calculator", system_message="You add numbers.", llm_config=llm_config)
add_tool = Tool(func_or_tool=add, name="add", description="Add two numbers")


def single_with_tool():
    response = calculator.run(message="What is 2 + 3?", tools=[add_tool], max_turns=4)
    ConsoleEventProcessor().process(response)
    return response


response = section("single_with_tool", single_with_tool)
print("TOOL_SUMMARY:", json.dumps(response.summary))
print("TOOL_LAST_SPEAKER:", json.dumps(response.last_speaker))
print("TOOL_HISTORY_ROLES:", json.dumps([m.get("role") for m in response.messages]))
print("TOOL_EXECUTOR:", json.dumps([calculator.run_executor.name, calculator.run_executor.human_input_mode]))
print("TOOL_WITHDRAWN:", json.dumps(not (calculator.llm_config.get("tools") or [])))


# One agent, the message sent by the agent to its executor (msg_to="user").
def agent_first():
    response = calculator.run(message="Start counting.", max_turns=2, msg_to="user")
    response.process()
    return response


response = section("agent_first", agent_first)
print("AGENT_FIRST_MESSAGES:", json.dumps([[m.get("name"), m.get("content")] for m in response.messages]))
