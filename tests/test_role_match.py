"""The role-match rule of "auto" selection: scores, the clear-lead condition, negation, and when it is on.

The rule itself is pure (no model); its place in the pipeline is checked against the scripted server by
counting the requests the selector makes.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from autogen_classic import ConversableAgent, GroupChat
from autogen_classic.agentchat.groupchat.selection.negation import negated_scopes, read_negation
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


# ----------------------------------------------------------------- negation
CODE_TEAM = {
    "user_proxy": "Speaks for the human user and executes the code blocks other members write, then reports the output.",
    "coder": "Writes and fixes the Python code that implements the plan.",
    "planner": "Breaks a task into numbered steps and decides which step comes next.",
    "critic": "Reviews plans and code for mistakes and missing cases before they are used.",
}
DESK_TEAM = {
    "triage": "Greets employees and decides who handles each problem.",
    "network_admin": "Fixes network, VPN and Wi-Fi problems.",
    "account_admin": "Creates accounts, resets passwords and manages access rights.",
    "hardware_tech": "Repairs and replaces laptops, printers and monitors.",
}


def members(descriptions: dict[str, str]) -> list[ConversableAgent]:
    return [ConversableAgent(name, description=text, llm_config=False, human_input_mode="NEVER",
                             default_auto_reply=f"{name} done.") for name, text in descriptions.items()]


@pytest.mark.parametrize(
    ("text", "plain", "negated", "missing"),
    [
        # The scope runs to the end of the clause; only the participle names the missing work.
        ("I can't start coding: nobody has planned anything yet.",
         ("i", "can"), ("start", "coding", "has", "planned", "anything", "yet"), ("planned",)),
        # "but" ends the first clause; "hasn't been" is a negated perfect even without "yet".
        ("The code is written, but it hasn't been reviewed.",
         ("the", "code", "is", "written", "but", "it", "has"), ("been", "reviewed"), ("reviewed",)),
        # A negated copula before a noun phrase denies its subject too.
        ("The Wi-Fi is not the problem; the laptop is.",
         ("the", "laptop", "is"), ("the", "wi", "fi", "is", "the", "problem"), ()),
        # "no" opens a noun phrase that is missing; what exists ("the build") is not.
        ("No samples have been prepared and nobody has tested the build.",
         (), ("samples", "have", "been", "prepared", "and", "has", "tested", "the", "build"),
         ("samples", "prepared", "tested")),
        # "or the deadline" continues the noun phrase; "and the coder is" opens a new clause.
        ("We have no complaint about the price or the deadline.",
         ("we", "have"), ("complaint", "about", "the", "price", "or", "the", "deadline"), ()),
        ("There is no plan and the coder is idle.",
         ("and", "the", "coder", "is", "idle"), ("there", "is", "plan"), ()),
        # Possession and plain denial report nothing missing; fixed phrases negate nothing.
        ("The customer has no complaint.", ("the", "customer", "has"), ("complaint",), ()),
        ("Please don't forget to run the tests.",
         ("please", "do", "forget", "to", "run", "the", "tests"), (), ()),
        ("Not only the code but also the plan changed.",
         ("only", "the", "code", "but", "also", "the", "plan", "changed"), (), ()),
        ("No, the code works.", ("the", "code", "works"), (), ()),
    ],
)
def test_negation_scope(text: str, plain: tuple[str, ...], negated: tuple[str, ...], missing: tuple[str, ...]) -> None:
    reading = read_negation(text)
    assert (reading.plain, reading.negated, reading.missing) == (plain, negated, missing)


def test_scopes_are_offsets_into_the_text() -> None:
    text = "Done. Nobody has reviewed it yet, so wait."
    (scope,) = negated_scopes(text)
    assert text[scope.start: scope.end] == "has reviewed it yet"
    assert [text[a:b] for a, b in scope.missing] == ["reviewed"]
    assert negated_scopes("All tests pass.") == []
    assert negated_scopes("") == []


@pytest.mark.parametrize(
    ("author", "content", "expected"),
    [
        # The critic's description mentions plans, but nobody asked for a review: the missing work
        # (planning) is the planner's, whose name says it plans.
        ("coder", "I can't start coding: nobody has planned anything yet.", "planner"),
        ("user_proxy", "There is no plan yet for this task.", "planner"),
        # Work the critic does itself, reported as not done: the critic ("Reviews" leads its description).
        ("coder", "The code is written, but it hasn't been reviewed yet.", "critic"),
        # Ordinary mentions still count.
        ("planner", "The plan is ready; it should be reviewed for mistakes before anyone codes it.", "critic"),
        # Nothing is left once the negated words are dropped: the rule abstains.
        ("coder", "This is not about a plan or code.", None),
        # Missing work nobody does by name or leading verb: no one is credited, the rule abstains.
        ("planner", "Nothing can happen: there are no test files yet.", None),
    ],
)
def test_negated_mentions_in_the_rule(author: str, content: str, expected: str | None) -> None:
    chosen = role_matched_agent(said(author, content), members(CODE_TEAM))
    assert (chosen.name if chosen else None) == expected


def test_a_negated_mention_counts_for_no_one() -> None:
    agents = members(DESK_TEAM)
    message = said("triage", "The Wi-Fi is not the problem; the laptop screen stays black.")
    scores = role_match_scores(message, [a for a in agents if a.name != "triage"])
    assert scores["network_admin"] == 0 and scores["hardware_tech"] > 0.5
    assert role_matched_agent(message, agents) is by_name(agents, "hardware_tech")
    # Without the negation the problem word is the network admin's: a tie, so the rule abstains.
    assert role_matched_agent(said("triage", "The Wi-Fi is the problem; the laptop screen stays black."),
                              agents) is None
    # "don't forget to" asks for what follows it.
    assert role_matched_agent(said("triage", "Please don't forget to look at the VPN logs."),
                              agents) is by_name(agents, "network_admin")


def test_missing_work_is_credited_to_who_does_it() -> None:
    agents = members(CODE_TEAM)
    message = said("coder", "Nobody has planned anything yet.")
    scores = role_match_scores(message, [a for a in agents if a.name != "coder"])
    # "planned" -> "plan": the planner's name root; the critic merely mentions plans.
    assert scores["planner"] > 0 and scores["critic"] == 0 and scores["user_proxy"] == 0
    # An irregular participle finds its verb: "written" -> "Writes".
    scores = role_match_scores(said("critic", "No code has been written yet."), agents)
    assert scores["coder"] > 0 and scores["user_proxy"] == 0 and scores["planner"] == 0


# ----------------------------------------------------------------- first turn through the rule
STARTER_TEAM = {
    "admin": "The human admin: brings new tasks to the team and approves the finished work.",
    "planner": "Plans the work first: splits each task into numbered steps.",
    "coder": "Writes and fixes the Python code for each step.",
    "critic": "Reviews plans and code for mistakes.",
}


def test_the_rule_applies_the_first_turn_on_a_new_task() -> None:
    agents = members(STARTER_TEAM)
    opening = said("admin", "Write a Python script that prints the ten largest files in a folder.")
    # Alone, the words ask for the coder ("Write", "Python", "script").
    assert role_matched_agent(opening, agents) is by_name(agents, "coder")
    # A chat that holds only this message is at a new task: the planner starts.
    assert role_matched_agent(opening, agents, history=[opening]) is by_name(agents, "planner")
    assert role_matched_agent(opening, agents, history=[opening], first_turn=False) is by_name(agents, "coder")
    # Later in the chat the same words are feedback, not a new task.
    earlier = said("coder", "Here is the script.")
    assert role_matched_agent(opening, agents, history=[earlier, opening]) is by_name(agents, "coder")
    # A message that announces a new task needs no history.
    announced = said("admin", "Thanks. New task: write a Python script that lists empty folders.")
    assert role_matched_agent(announced, agents) is by_name(agents, "planner")


def test_the_rules_in_auto_selection_without_a_model_call(scripted_server: ScriptedOpenAIServer) -> None:
    def select(descriptions: dict[str, str], message: dict[str, Any]) -> str:
        agents = members(descriptions)
        gc = GroupChat(agents=agents, messages=[message],
                       select_speaker_auto_llm_config=selector_config(scripted_server, MODEL_NAME))
        return gc.select_speaker(by_name(agents, message["name"]), None).name

    scripted_server.set_responder(lambda body: '{"speaker": "user_proxy"}')
    assert select(CODE_TEAM, said("coder", "I can't start coding: nobody has planned anything yet.")) == "planner"
    assert select(STARTER_TEAM, said("admin", "New task: a script that backs up the photos folder.")) == "planner"
    assert scripted_server.request_count == 0
