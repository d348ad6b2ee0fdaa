"""The demonstration chats behind ``autogen-classic demo``.

The main demo is a real group chat: a planner, a coder and a critic, started by a user proxy, with
"auto" speaker selection on the default model configuration (``OAI_CONFIG_LIST``, then
``OPENAI_API_KEY``, then the embedded SmolLM2 model). A transition graph keeps the hand-offs sensible
(the planner hands over to the coder, the coder to the critic, the critic back to either); where more
than one agent may speak, the model chooses.
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass, field
from typing import Any, Optional

from ..agentchat import AssistantAgent, ConversableAgent, GroupChat, GroupChatManager, UserProxyAgent
from ..agentchat.chat import ChatResult

__all__ = ["DEMO_TASK", "GroupChatDemo", "build_group_chat_demo", "run_scripted_two_agent_demo"]

DEMO_TASK = "Write a Python function is_palindrome(text) that ignores case and spaces."

_PLANNER = (
    "You are the planner of a small software team. Reply with a plan of at most three short numbered "
    "steps for the task, then write: Coder, please implement it."
)
_CODER = (
    "You are the coder. Write one short Python code block that implements the plan, then write: "
    "Critic, please review."
)
_CRITIC = (
    "You are the critic. In two sentences, say whether the code is correct and what to improve. "
    "Address the coder or the planner by name when something must change."
)


@dataclass
class GroupChatDemo:
    """The agents of the group-chat demo, ready for ``user_proxy.initiate_chat(manager, message=DEMO_TASK)``."""

    user_proxy: UserProxyAgent
    manager: GroupChatManager
    groupchat: GroupChat
    agents: list[ConversableAgent] = field(default_factory=list)


def build_group_chat_demo(
    llm_config: dict[str, Any], *, manual: bool = False, max_round: int = 6, max_tokens: int = 160,
    manual_view: str = "rich",
) -> GroupChatDemo:
    """Build the planner / coder / critic team.

    Args:
        llm_config: the model configuration of every agent and of the speaker selector.
        manual: let the person at the keyboard choose each speaker (``speaker_selection_method="manual"``,
            no transition graph).
        max_round: the number of rounds, the task message included.
        max_tokens: the longest reply an agent may write (keeps the demo quick on a CPU).
        manual_view: the view of manual selection, "rich" (descriptions and a suggestion up front) or
            "classic" (the classic prompt).
    """
    agent_config = {**llm_config, "max_tokens": max_tokens}
    user_proxy = UserProxyAgent(
        "user_proxy",
        description="The user: states the task and decides when it is done.",
        human_input_mode="NEVER",
        code_execution_config=False,
        default_auto_reply="Thank you. TERMINATE",
    )
    planner = AssistantAgent(
        "planner", system_message=_PLANNER, llm_config=agent_config,
        description="Breaks the task into short numbered steps.",
    )
    coder = AssistantAgent(
        "coder", system_message=_CODER, llm_config=agent_config,
        description="Writes the Python code that implements the plan.",
    )
    critic = AssistantAgent(
        "critic", system_message=_CRITIC, llm_config=agent_config,
        description="Reviews the code and says what must change.",
    )
    # The graph guides "auto"; in manual mode the person at the keyboard may pick anyone.
    transitions = None if manual else {
        user_proxy: [planner], planner: [coder], coder: [critic], critic: [coder, planner, user_proxy]
    }
    groupchat = GroupChat(
        agents=[user_proxy, planner, coder, critic],
        messages=[],
        max_round=max_round,
        speaker_selection_method="manual" if manual else "auto",
        allowed_or_disallowed_speaker_transitions=transitions,
        speaker_transitions_type="allowed" if transitions else None,
        manual_selection_view=manual_view,  # type: ignore[arg-type]
    )
    manager = GroupChatManager(
        groupchat,
        llm_config=llm_config,
        is_termination_msg=lambda m: "TERMINATE" in str(m.get("content") or ""),
    )
    return GroupChatDemo(user_proxy, manager, groupchat, [planner, coder, critic])


# ----------------------------------------------------------------- the scripted two-agent demo
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
    from ..testing.scripted_server import ScriptedOpenAIServer

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
