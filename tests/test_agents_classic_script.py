"""A classic AutoGen script runs unchanged after ``import autogen_classic as autogen``.

The script below is written the way classic AutoGen examples are (config list from the
OAI_CONFIG_LIST environment variable, an assistant and a user proxy, a registered tool,
code execution, a summary). It runs in a separate interpreter against the scripted server.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from autogen_classic.testing.scripted_server import API_KEY, ScriptedOpenAIServer, ScriptedReply

CLASSIC_SCRIPT = textwrap.dedent(
    '''
    from typing import Annotated

    import autogen_classic as autogen

    config_list = autogen.config_list_from_json("OAI_CONFIG_LIST", filter_dict={"model": ["gpt-4"]})
    llm_config = {"config_list": config_list, "cache_seed": None, "temperature": 0}

    assistant = autogen.AssistantAgent(name="assistant", llm_config=llm_config)
    user_proxy = autogen.UserProxyAgent(
        name="user_proxy",
        human_input_mode="NEVER",
        max_consecutive_auto_reply=10,
        is_termination_msg=lambda x: x.get("content", "") and x.get("content", "").rstrip().endswith("TERMINATE"),
        code_execution_config={"work_dir": "coding", "use_docker": False},
    )


    @user_proxy.register_for_execution()
    @assistant.register_for_llm(description="Currency exchange calculator.")
    def currency_calculator(
        base_amount: Annotated[float, "Amount of currency in base_currency"],
        base_currency: Annotated[str, "Base currency"] = "USD",
    ) -> str:
        return f"{base_amount * 1.1:.2f} EUR"


    chat_result = user_proxy.initiate_chat(
        assistant,
        message="How much is 100 USD in EUR? Then print 6*7 with Python.",
        summary_method="reflection_with_llm",
    )
    print("SUMMARY:", chat_result.summary)
    print("TURNS:", len(chat_result.chat_history))
    print("COST:", sorted(chat_result.cost["usage_including_cached_inference"]))
    '''
)


def test_classic_script_runs_unchanged(scripted_server: ScriptedOpenAIServer, tmp_path: Path) -> None:
    scripted_server.add_replies(
        ScriptedReply(tool_calls=[{"name": "currency_calculator", "arguments": {"base_amount": 100}, "id": "call_x"}]),
        "100 USD is 110.00 EUR. Now the code:\n```python\nprint(6 * 7)\n```",
        "The code printed 42. TERMINATE",
        "100 USD is 110 EUR and 6*7 is 42.",
    )
    script = tmp_path / "classic_example.py"
    script.write_text(CLASSIC_SCRIPT)
    config_list = [{"model": "gpt-4", "base_url": scripted_server.base_url, "api_key": API_KEY}]
    env = {**os.environ, "OAI_CONFIG_LIST": json.dumps(config_list), "AUTOGEN_USE_DOCKER": "False"}
    completed = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert completed.returncode == 0, completed.stderr
    out = completed.stdout
    assert "user_proxy (to assistant):\n\nHow much is 100 USD in EUR? Then print 6*7 with Python.\n" in out
    assert "***** Suggested tool call (call_x): currency_calculator *****" in out
    assert "***** Response from calling tool (call_x) *****\n110.00 EUR\n" in out
    assert "exitcode: 0 (execution succeeded)\nCode output: \n42\n" in out
    assert "SUMMARY: 100 USD is 110 EUR and 6*7 is 42." in out
    assert "TURNS: 6" in out
    assert "COST: ['gpt-4', 'total_cost']" in out
    # The model got the tool schema and the classic request shape.
    first = scripted_server.requests[0]
    assert first["model"] == "gpt-4" and first["temperature"] == 0
    assert first["tools"][0]["function"]["name"] == "currency_calculator"
    assert first["tools"][0]["function"]["parameters"]["required"] == ["base_amount"]
    assert scripted_server.requests[-1]["messages"][-1]["content"] == (
        "Summarize the takeaway from the conversation. Do not add any introductory phrases."
    )
    assert (tmp_path / "coding").is_dir()
