"""The first-turn rule of "auto" selection: cues in descriptions, new tasks, and when the rule abstains.

The rule is pure (no model); its place in selection is checked against the scripted server by counting
the requests the selector makes.
"""

from __future__ import annotations

from typing import Any

import pytest

from autogen_classic import ConversableAgent, GroupChat
from autogen_classic.agentchat.groupchat.selection.first_turn import (
    first_turn_agent,
    first_turn_cue,
    is_new_task,
    opens_new_task,
)
from autogen_classic.local import MODEL_NAME
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer

TEAM = {
    "admin": "The human admin: brings new tasks to the team and approves the finished work.",
    "planner": "Starts every task by splitting it into numbered steps.",
    "coder": "Writes and fixes the Python code for each step.",
    "critic": "Reviews plans and code for mistakes.",
}
TASK = "Write a Python script that prints the ten largest files in a folder."


def team(descriptions: dict[str, str] = TEAM) -> list[ConversableAgent]:
    return [ConversableAgent(name, description=text, llm_config=False, human_input_mode="NEVER",
                             default_auto_reply=f"{name} done.") for name, text in descriptions.items()]


def said(name: str, content: str) -> dict[str, Any]:
    return {"role": "user", "name": name, "content": content}


def names(agent: Any) -> str | None:
    return agent.name if agent is not None else None


# ----------------------------------------------------------------- cues in descriptions
@pytest.mark.parametrize(
    ("description", "cue"),
    [
        ("Starts every task by splitting it into numbered steps.", "starts every task"),
        ("Plans the work first, then hands the steps to the coder.", "first"),
        ("The first to respond to a new request: asks what is wrong.", "first to respond"),
        ("Takes on each new project and sets its goals.", "takes on each new project"),
        ("Reads every incoming ticket before anyone else.", "before anyone else"),
        ("Speaks first.", "first"),
        ("The first point of contact for customers.", "first point of contact"),
    ],
)
def test_descriptions_that_say_who_engages_first(description: str, cue: str) -> None:
    assert first_turn_cue(description) == cue


@pytest.mark.parametrize(
    "description",
    [
        "Writes the first draft of every article.",        # an ordinal, not a turn
        "Reviews code at first glance.",
        "Never starts a task before the plan is approved.",  # negated
        "Is not the first to answer.",
        "Answers questions about plans and prices.",        # no "every"/"new": not about new tasks
        "Greets customers, opens and closes tickets.",
        "Reviews plans and code for mistakes.",
        "",
    ],
)
def test_descriptions_without_a_first_turn_cue(description: str) -> None:
    assert first_turn_cue(description) is None


# ----------------------------------------------------------------- new tasks
@pytest.mark.parametrize(
    "content",
    [
        "New task: a script that backs up the photos folder.",
        "Thanks, that works. Next task: rename the photos by date.",
        "Here is a new project for you: does the coating reduce mould?",
        "Another problem: the printer on floor 2 is jammed.",
        "I have a new request from the sales team.",
    ],
)
def test_messages_that_announce_a_new_task(content: str) -> None:
    assert opens_new_task(said("admin", content))
    assert is_new_task(said("admin", content), history=[said("coder", "Done."), said("admin", content)])


@pytest.mark.parametrize(
    "content",
    [
        "The new task runner is installed.",              # the noun does not end its phrase
        "Step 2 is done; the next step is parsing.",
        "exitcode: 0 (execution succeeded)",
        "It crashes on an empty folder. Fix the code, please.",
        "",
    ],
)
def test_messages_that_do_not_announce_one(content: str) -> None:
    message = said("admin", content)
    assert not opens_new_task(message)
    assert not is_new_task(message, history=[said("coder", "Done."), message])
    assert not is_new_task(message)


def test_an_opening_message_alone_is_a_new_task() -> None:
    opening = said("admin", TASK)
    assert is_new_task(opening, history=[opening])
    assert not is_new_task(opening)  # without the history the rule cannot know
    assert not is_new_task(None, history=[])
    assert not opens_new_task(None)


# ----------------------------------------------------------------- the rule
def test_the_agent_that_starts_takes_the_first_turn() -> None:
    agents = team()
    opening = said("admin", TASK)
    assert names(first_turn_agent(opening, agents, history=[opening])) == "planner"
    later = said("admin", "Thanks. New task: list the empty folders under home.")
    assert names(first_turn_agent(later, agents, history=[opening, said("coder", "Done."), later])) == "planner"


def test_the_rule_abstains_when_unsure() -> None:
    agents = team()
    opening = said("admin", TASK)
    # Not at a new task: feedback in the middle of a chat.
    feedback = said("admin", "The script crashes on an empty folder.")
    assert first_turn_agent(feedback, agents, history=[opening, said("coder", "Here."), feedback]) is None
    # The agent that starts wrote the task itself: it has taken the first turn.
    own = said("planner", "New task: rename the photos by date. Steps follow.")
    assert first_turn_agent(own, agents) is None
    # Two candidates claim the first turn, or none does.
    two = team({**TEAM, "critic": "Reviews every new request first, before any code exists."})
    assert first_turn_agent(opening, two, history=[opening]) is None
    none = team({**TEAM, "planner": "Splits tasks into numbered steps."})
    assert first_turn_agent(opening, none, history=[opening]) is None
    # The agent that starts is not a candidate (a transition graph left it out).
    others = [a for a in agents if a.name != "planner"]
    assert first_turn_agent(opening, others, history=[opening]) is None


def test_in_auto_selection_without_a_model_call(scripted_server: ScriptedOpenAIServer) -> None:
    entry = scripted_server.config_entry(model=MODEL_NAME, max_retries=0, structured_output="json_object")
    scripted_server.set_responder(lambda body: '{"speaker": "coder"}')

    def select(message: dict[str, Any], **settings: Any) -> tuple[str, str]:
        agents = team()
        gc = GroupChat(agents=agents, messages=[message], **settings,
                       select_speaker_auto_llm_config={"config_list": [entry], "cache_seed": None})
        chosen = gc.select_speaker(next(a for a in agents if a.name == message["name"]), None)
        return chosen.name, gc.selection_log[0].reason

    announced = said("admin", "New task: write a Python script that prints the largest files.")
    assert select(announced)[0] == "planner"
    assert scripted_server.request_count == 0
    # With the rule off, the model decides.
    assert select(announced, select_speaker_auto_role_match=False) == (
        "coder", "auto: the model chose coder (structured answer, one call)")
    assert scripted_server.request_count == 1


def test_the_opening_message_of_a_chat_goes_to_the_agent_that_starts(scripted_server: ScriptedOpenAIServer) -> None:
    """Through ``initiate_chat``: the group holds only the task when the first speaker is chosen."""
    from autogen_classic import GroupChatManager
    from autogen_classic.io import IOStream
    from autogen_classic.testing.io import ScriptedIOStream

    entry = scripted_server.config_entry(model=MODEL_NAME, max_retries=0, structured_output="json_object")
    scripted_server.set_responder(lambda body: '{"speaker": "critic"}')
    agents = team()
    gc = GroupChat(agents=agents, messages=[], max_round=3, select_speaker_auto_verbose=True)
    manager = GroupChatManager(gc, llm_config={"config_list": [entry], "cache_seed": None})
    console = ScriptedIOStream()
    with IOStream.set_default(console):
        agents[0].initiate_chat(manager, message=TASK)
    # The task's words ask for the coder; the planner starts every task.
    assert [m["name"] for m in gc.messages] == ["admin", "planner", "critic"]
    assert gc.selection_log[0].reason == (
        "auto: the last message opens a new task, which planner takes first (first-turn rule) (no model call)")
    assert "The last message opens a task planner takes first; no model call needed." in console.output
    # The second selection is no new task: the model decides.
    assert scripted_server.request_count == 1
