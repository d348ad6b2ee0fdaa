"""What the parking tests share: the chats they park (as source text, so that each step's fresh Python process
builds them as the test's own process does), running one step in a new process, and the requests a classic
chat parks at."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

SETUP = textwrap.dedent('''
    import autogen_classic as autogen
    from autogen_classic.agentchat.group import AgentTarget, ContextVariables, RevertToUserTarget
    from autogen_classic.agentchat.group.patterns import DefaultPattern

    def build(path, method):
        human = autogen.UserProxyAgent("human", human_input_mode="ALWAYS", code_execution_config=False)
        writer = autogen.ConversableAgent("writer", llm_config=False, human_input_mode="NEVER",
                                          default_auto_reply="draft v1")
        critic = autogen.ConversableAgent("critic", llm_config=False, human_input_mode="NEVER",
                                          default_auto_reply="needs work")
        groupchat = autogen.GroupChat(agents=[writer, critic, human], messages=[], max_round=7,
                                      speaker_selection_method=method, transcript_path=path)
        return human, autogen.GroupChatManager(groupchat=groupchat, llm_config=False)

    def build_pattern():
        user = autogen.UserProxyAgent("user", human_input_mode="ALWAYS", code_execution_config=False)
        writer = autogen.ConversableAgent("writer", llm_config=False, human_input_mode="NEVER",
                                          default_auto_reply="draft")
        critic = autogen.ConversableAgent("critic", llm_config=False, human_input_mode="NEVER",
                                          default_auto_reply="too long")
        writer.handoffs.set_after_work(AgentTarget(critic))
        critic.handoffs.set_after_work(RevertToUserTarget())
        return DefaultPattern(initial_agent=writer, agents=[writer, critic], user_agent=user,
                              context_variables=ContextVariables(data={"topic": "sea"}),
                              group_after_work=AgentTarget(writer), group_manager_args={"llm_config": False})
''')

namespace: dict[str, Any] = {}
exec(SETUP, namespace)  # the same setup in the test's process, for the chats run at once
build, build_pattern = namespace["build"], namespace["build_pattern"]

# (method, the answers given one process after another, the requests the chat parks at before each)
CLASSIC_CASES = [
    # round_robin: the human's turn comes twice; "exit" ends the chat at the second.
    ("round_robin", ["ok from the human", "exit"], [("human_reply", "human", 3), ("human_reply", "human", 6)]),
    # manual: every speaker is chosen by the person; the human's own turn parks too.
    ("manual", ["critic", "writer", "human", "fine", "x"],
     [("speaker_selection", None, 1), ("speaker_selection", None, 2), ("speaker_selection", None, 3),
      ("human_reply", "human", 3), ("speaker_selection", None, 4)]),
]


def run_step(script: Path, *args: str) -> dict[str, Any]:
    """Run ``script`` with ``args`` in a new Python process; the JSON object its last line prints."""
    done = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
