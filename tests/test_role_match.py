"""The role-match rule of "auto" selection: scores, the clear-lead condition, and when it is on.

The rule itself is pure (no model); its place in the pipeline is checked against the scripted server by
counting the requests the selector makes.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from autogen_classic import ConversableAgent, GroupChat
from autogen_classic.agentchat.groupchat.selection.role_match import role_match_scores, role_matched_agent
from autogen_classic.local import MODEL_NAME
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer

TEAM = {
    "developer": "Implements features and fixes bugs in the application code.",
    "tester": "Tests new builds against the requirements and reports bugs with steps to reproduce.",
    "ops": "Deploys releases to production, runs the servers and watches production monitoring.",
    "product_manager": "Decides which features to build, writes the requirements and sets priorities.",
}
READY_FOR_TESTING = "The PDF export is merged into the staging build. It now needs testing against the requirements."


def team() -> list[ConversableAgent]:
    return [ConversableAgent(name, description=text, llm_config=False, human_input_mode="NEVER",
                             default_auto_reply=f"{name} done.") for name, text in TEAM.items()]


def said(name: str, content: str) -> dict[str, Any]:
    return {"role": "user", "name": name, "content": content}


def by_name(agents: list[ConversableAgent], name: str) -> ConversableAgent:
    return next(a for a in agents if a.name == name)


# ----------------------------------------------------------------- the rule
def test_scores_weigh_words_that_set_a_candidate_apart() -> None:
    agents = team()
    scores = role_match_scores(said("developer", READY_FOR_TESTING), agents)
    # "testing"/"Tests" and "build" are the tester's; "requirements" is shared with the product manager.
    assert scores["tester"] > scores["product_manager"] > 0
    assert scores["ops"] == 0
    assert role_match_scores(said("developer", ""), agents) == dict.fromkeys(TEAM, 0)


@pytest.mark.parametrize(
    ("author", "content", "expected"),
    [
        ("developer", READY_FOR_TESTING, "tester"),
        ("tester", "All cases passed; the build is approved and ready to deploy to the servers.", "ops"),
        ("ops", "The error rate jumped after the release; the application code needs a fix for the bug.", "developer"),
        # Nothing distinctive in common: the model decides.
        ("developer", "Done for today, see you tomorrow.", None),
        # Two candidates equally asked for: no clear lead.
        ("product_manager", "Someone should fix bugs or deploy servers.", None),
    ],
)
def test_the_rule_answers_only_on_a_clear_lead(author: str, content: str, expected: str | None) -> None:
    agents = team()
    chosen = role_matched_agent(said(author, content), agents)
    assert (chosen.name if chosen else None) == expected


def test_the_author_is_not_a_candidate() -> None:
    agents = team()
    # The developer's own description fits these words best; the rule looks past the author.
    message = said("developer", "I finished the application code; the new build needs testing.")
    assert role_matched_agent(message, agents) is by_name(agents, "tester")
    # With one other candidate, its own score must pass the margin.
    pair = [by_name(agents, "developer"), by_name(agents, "tester")]
    assert role_matched_agent(message, pair) is by_name(agents, "tester")
    assert role_matched_agent(said("developer", "Done for today."), pair) is None
    assert role_matched_agent(message, [by_name(agents, "developer")]) is None
    assert role_matched_agent(None, agents) is None


def test_a_larger_margin_makes_the_rule_more_cautious() -> None:
    agents = team()
    message = said("developer", READY_FOR_TESTING)
    scores = role_match_scores(message, [a for a in agents if a.name != "developer"])
    lead = scores["tester"] - max(v for k, v in scores.items() if k != "tester")
    assert role_matched_agent(message, agents, margin=lead - 0.01) is by_name(agents, "tester")
    assert role_matched_agent(message, agents, margin=lead + 0.01) is None


# ----------------------------------------------------------------- in "auto" selection
def selector_config(server: ScriptedOpenAIServer, model: str) -> dict[str, Any]:
    entry = server.config_entry(model=model, max_retries=0, structured_output="json_object")
    return {"config_list": [entry], "cache_seed": None}


@pytest.mark.parametrize(
    ("model", "role_match", "requests"),
    [
        (MODEL_NAME, None, 0),        # on by default for the embedded model
        (MODEL_NAME, False, 1),
        ("scripted-model", None, 1),  # off by default for other models
        ("scripted-model", True, 0),
    ],
)
def test_when_the_rule_applies(scripted_server: ScriptedOpenAIServer, model: str, role_match: bool | None,
                               requests: int) -> None:
    agents = team()
    gc = GroupChat(agents=agents, messages=[said("developer", READY_FOR_TESTING)],
                   select_speaker_auto_llm_config=selector_config(scripted_server, model),
                   select_speaker_auto_role_match=role_match)
    scripted_server.set_responder(lambda body: '{"speaker": "ops"}')
    chosen = gc.select_speaker(by_name(agents, "developer"), None)
    assert scripted_server.request_count == requests
    record = gc.selection_log[0]
    if requests == 0:
        assert chosen.name == "tester"
        assert record.reason == "auto: the last message asks for what tester does (role match) (no model call)"
        assert (record.attempts, record.usage) == ([], {})
    else:
        assert chosen.name == "ops" and "role match" not in record.reason


def test_addressed_by_name_wins_over_the_role_words(scripted_server: ScriptedOpenAIServer) -> None:
    agents = team()
    message = said("developer", READY_FOR_TESTING + " ops, please hold the release until then.")
    gc = GroupChat(agents=agents, messages=[message],
                   select_speaker_auto_llm_config=selector_config(scripted_server, MODEL_NAME))
    assert gc.select_speaker(by_name(agents, "developer"), None).name == "ops"
    assert scripted_server.request_count == 0
    assert "addresses ops by name" in gc.selection_log[0].reason


def test_the_rule_respects_the_transition_graph(scripted_server: ScriptedOpenAIServer) -> None:
    agents = team()
    developer, tester, ops, manager = (by_name(agents, n) for n in ("developer", "tester", "ops", "product_manager"))
    gc = GroupChat(agents=agents, messages=[said("developer", READY_FOR_TESTING)],
                   allowed_or_disallowed_speaker_transitions={developer: [ops, manager], tester: [developer],
                                                              ops: [developer], manager: [developer]},
                   speaker_transitions_type="allowed",
                   select_speaker_auto_llm_config=selector_config(scripted_server, MODEL_NAME))
    # The tester is asked for but not allowed after the developer; of the allowed candidates only the
    # product manager shares a distinctive word ("requirements").
    assert gc.select_speaker(developer, None) is manager
    assert scripted_server.request_count == 0
    assert gc.selection_log[0].reason.startswith("auto: the last message asks for what product_manager does")


def test_sync_and_async_agree_and_verbose_says_why(scripted_server: ScriptedOpenAIServer,
                                                    console: ScriptedIOStream) -> None:
    def run(use_async: bool) -> str:
        agents = team()
        gc = GroupChat(agents=agents, messages=[said("developer", READY_FOR_TESTING)], select_speaker_auto_verbose=True,
                       select_speaker_auto_llm_config=selector_config(scripted_server, MODEL_NAME))
        last = by_name(agents, "developer")
        chosen = asyncio.run(gc.a_select_speaker(last, None)) if use_async else gc.select_speaker(last, None)
        return chosen.name

    assert run(False) == run(True) == "tester"
    assert console.output == ">>>>>>>> The last message asks for tester's role; no model call needed.\n" * 2
    assert scripted_server.request_count == 0


def test_the_field_is_validated() -> None:
    with pytest.raises(TypeError, match="select_speaker_auto_role_match must be None .* True or False, got str"):
        GroupChat(agents=team(), select_speaker_auto_role_match="yes")  # type: ignore[arg-type]
