"""The demonstration chats behind ``autogen-classic demo``."""

from __future__ import annotations

import re
import tempfile
from typing import Any, Optional

from .agentchat import AssistantAgent, UserProxyAgent
from .agentchat.chat import ChatResult

__all__ = ["run_scripted_two_agent_demo"]

_TASK = "What is the sum of the squares of the numbers from 1 to 10? Compute it with Python."
_CODE_REPLY = (
    "I will compute it with Python.\n\n```python\nprint(sum(n * n for n in range(1, 11)))\n```"
)


def _scripted_model(request: dict[str, Any]) -> Optional[str]:
    """A stand-in model: first suggest code, then read the execution result and conclude."""
    last = request["messages"][-1].get("content") or ""
    match = re.search(r"Code output:\s*(\S+)", last)
    if match:
        return f"The sum of the squares of 1..10 is {match.group(1)}.\n\nTERMINATE"
    return _CODE_REPLY


def run_scripted_two_agent_demo() -> ChatResult:
    """An assistant (on a scripted OpenAI-compatible server on 127.0.0.1) writes code, a user proxy runs it."""
    from .testing.scripted_server import ScriptedOpenAIServer

    with ScriptedOpenAIServer() as server, tempfile.TemporaryDirectory(prefix="autogen-classic-demo-") as work_dir:
        server.set_responder(_scripted_model)
        assistant = AssistantAgent("assistant", llm_config=server.llm_config())
        user = UserProxyAgent(
            "user_proxy",
            human_input_mode="NEVER",
            max_consecutive_auto_reply=3,
            is_termination_msg=lambda m: "TERMINATE" in (m.get("content") or ""),
            code_execution_config={"work_dir": work_dir, "use_docker": False, "timeout": 60},
        )
        return user.initiate_chat(assistant, message=_TASK)
