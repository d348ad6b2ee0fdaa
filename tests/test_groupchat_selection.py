"""GroupChat: fields, validation, helpers and the candidate pipeline (no model involved)."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
from typing import Any

import pytest

from autogen_classic import ConversableAgent, NoEligibleSpeaker, UndefinedNextAgent
from autogen_classic.agentchat.groupchat import GroupChat
from autogen_classic.agentchat.groupchat.selection.trace import SelectionRecord
from autogen_classic.eligibility import (
    CallablePolicy,
    CooldownPolicy,
    DenyListPolicy,
    SelectionContext,
)
from autogen_classic.exception_utils import AgentNameConflict


def agent(name: str, **kwargs: Any) -> ConversableAgent:
    kwargs.setdefault("description", f"{name} description")
    return ConversableAgent(name, llm_config=False, human_input_mode="NEVER", **kwargs)


@pytest.fixture
def abc() -> tuple[ConversableAgent, ConversableAgent, ConversableAgent]:
    return agent("alice"), agent("bob"), agent("carol")


def names(agents: list[Any]) -> list[str]:
    return [a.name for a in agents]


def steps(record: SelectionRecord) -> list[tuple[str, list[str]]]:
    return [(s.name, s.candidates) for s in record.steps]


# ----------------------------------------------------------------- fields and validation
def test_fields_and_defaults_follow_the_classic_interface(abc: Any) -> None:
    gc = GroupChat(agents=list(abc))
    assert gc.messages == [] and gc.max_round == 10 and gc.admin_name == "Admin"
    assert gc.func_call_filter is True and gc.speaker_selection_method == "auto"
    assert gc.max_retries_for_selecting_speaker == 2
    assert gc.allow_repeat_speaker is True  # None becomes True without a transition graph
    assert gc.allowed_or_disallowed_speaker_transitions is None and gc.speaker_transitions_type is None
    assert gc.enable_clear_history is False and gc.send_introductions is False
    assert gc.select_speaker_transform_messages is None and gc.select_speaker_auto_verbose is False
    assert gc.select_speaker_auto_model_client_cls is None and gc.select_speaker_auto_llm_config is None
    assert gc.role_for_select_speaker_messages == "system" and gc.eligibility_policies == []
    assert gc.select_speaker_message_template.startswith("You are in a role play game.")
    assert gc.select_speaker_prompt_template == (
        "Read the above conversation. Then select the next role from {agentlist} to play. Only return the role."
    )
    assert "The only names that are accepted are {agentlist}." in gc.select_speaker_auto_none_template
    assert gc.select_speaker_auto_multiple_template.startswith("You provided more than one name in your text")
    assert GroupChat.DEFAULT_INTRO_MSG.startswith("Hello everyone. We have assembled a great team today")
    field_names = [f.name for f in dataclasses.fields(GroupChat) if f.init]
    # eligibility_policies is the last field of autogen 0.14.1 (position 21); this package's own fields follow it.
    assert field_names[:3] == ["agents", "messages", "max_round"] and field_names[-6:] == [
        "eligibility_policies", "select_speaker_structured_output", "select_speaker_auto_addressed", "transcript_path",
        "select_speaker_auto_role_match", "termination",
    ]
    # every instance gets its own lists
    assert GroupChat(agents=list(abc)).messages is not gc.messages
    assert gc.selection_log == [] and gc.selection_client is None


def test_fully_connected_graph_with_self_loops_by_default(abc: Any) -> None:
    a, b, c = abc
    gc = GroupChat(agents=[a, b, c])
    assert {k.name: names(v) for k, v in gc.allowed_speaker_transitions_dict.items()} == {
        "alice": ["bob", "carol", "alice"], "bob": ["alice", "carol", "bob"], "carol": ["alice", "bob", "carol"]}
    gc = GroupChat(agents=[a, b, c], allow_repeat_speaker=[b])
    assert names(gc.allowed_speaker_transitions_dict[b]) == ["alice", "carol", "bob"]
    assert names(gc.allowed_speaker_transitions_dict[a]) == ["bob", "carol"]


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"allow_repeat_speaker": "yes"}, ValueError, "allow_repeat_speaker should be a bool or a list"),
        ({"speaker_transitions_type": "sometimes"}, ValueError, "speaker_transitions_type is set to 'sometimes'"),
        ({"select_speaker_message_template": ""}, ValueError, "select_speaker_message_template cannot be empty"),
        ({"role_for_select_speaker_messages": ""}, ValueError, "role_for_select_speaker_messages cannot be empty"),
        ({"select_speaker_auto_multiple_template": None}, ValueError, "select_speaker_auto_multiple_template"),
        ({"select_speaker_auto_none_template": ""}, ValueError, "select_speaker_auto_none_template cannot be"),
        ({"max_retries_for_selecting_speaker": None}, ValueError, "max_retries_for_selecting_speaker cannot be None"),
        ({"max_retries_for_selecting_speaker": -1}, ValueError, "greater than or equal to zero"),
        ({"select_speaker_transform_messages": "trim"}, ValueError, "must be None or MessageTransforms"),
        ({"select_speaker_auto_verbose": None}, ValueError, "select_speaker_auto_verbose cannot be None"),
        ({"select_speaker_auto_llm_config": "gpt-4"}, TypeError, "select_speaker_auto_llm_config must be None"),
        ({"eligibility_policies": [lambda a, c: True]}, TypeError, "CallablePolicy"),
        ({"agents": "alice"}, TypeError, "agents must be a list"),
    ],
)
def test_invalid_settings_raise_clear_errors(abc: Any, kwargs: dict, error: type, match: str) -> None:
    kwargs = {"agents": list(abc), **kwargs}
    with pytest.raises(error, match=match):
        GroupChat(**kwargs)


def test_empty_prompt_template_becomes_none_and_method_case_is_free(abc: Any) -> None:
    gc = GroupChat(agents=list(abc), select_speaker_prompt_template="", speaker_selection_method="ROUND_robin")
    assert gc.select_speaker_prompt_template is None and gc.select_speaker_prompt() is None
    assert GroupChat(agents=list(abc), speaker_transitions_type=None).speaker_transitions_type is None


def test_graph_settings_are_checked(abc: Any) -> None:
    a, b, c = abc
    with pytest.raises(ValueError, match="Don't provide both allowed_or_disallowed_speaker_transitions"):
        GroupChat(agents=[a, b], allowed_or_disallowed_speaker_transitions={a: [b]},
                  speaker_transitions_type="allowed", allow_repeat_speaker=True)
    with pytest.raises(ValueError, match="speaker_transitions_type is None"):
        GroupChat(agents=[a, b], allowed_or_disallowed_speaker_transitions={a: [b]})
    with pytest.raises(ValueError, match="keys not in agents"):
        GroupChat(agents=[a, b], allowed_or_disallowed_speaker_transitions={c: [a]}, speaker_transitions_type="allowed")
    with pytest.raises(ValueError, match="list agent objects, not names"):
        GroupChat(agents=[a, b], allowed_or_disallowed_speaker_transitions={a: ["bob"]},
                  speaker_transitions_type="ALLOWED")


def test_graph_warns_about_isolated_agents(abc: Any, caplog: pytest.LogCaptureFixture) -> None:
    a, b, c = abc
    with caplog.at_level(logging.WARNING):
        GroupChat(agents=[a, b, c], allowed_or_disallowed_speaker_transitions={a: [b], b: [a]},
                  speaker_transitions_type="allowed")
    assert "Isolated agents: ['carol']" in caplog.text


# ----------------------------------------------------------------- helpers
def test_names_lookup_and_name_conflicts(abc: Any) -> None:
    a, b, c = abc
    twin = agent("bob")
    # autogen 0.14.1 refuses duplicate names when the group chat is built (ag2 0.7.3 accepted them) ...
    with pytest.raises(ValueError, match="^GroupChat agents must have unique names. Duplicate agent names found: {'bob'}"):
        GroupChat(agents=[a, b, c, twin])
    # ... so a conflict comes only from an agent added afterwards.
    gc = GroupChat(agents=[a, b, c])
    gc.agents.append(twin)
    assert gc.agent_names == ["alice", "bob", "carol", "bob"]
    assert gc.agent_by_name("bob") is b and gc.agent_by_name("nobody") is None
    with pytest.raises(AgentNameConflict):
        gc.agent_by_name("bob", raise_on_name_conflict=True)


def test_nested_agents_follow_nested_group_chat_managers(abc: Any) -> None:
    a, b, c = abc
    inner = GroupChat(agents=[b, c])

    class Team(ConversableAgent):  # stands for a GroupChatManager: an agent with a `groupchat`
        groupchat = inner

    team = Team("team", llm_config=False)
    outer = GroupChat(agents=[a, team])
    assert names(outer.nested_agents()) == ["alice", "team", "bob", "carol"]
    assert outer.agent_by_name("carol") is None and outer.agent_by_name("carol", recursive=True) is c


def test_reset_and_append(abc: Any) -> None:
    a, b, _ = abc
    gc = GroupChat(agents=list(abc), messages=[], speaker_selection_method="round_robin")
    gc.append({"role": "user", "content": {"x": 1}}, a)
    gc.append({"role": "function", "name": "add", "content": 3}, b)
    gc.append({"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "image_url", "image_url": {}}]}, b)
    assert gc.messages == [
        {"role": "user", "content": "{'x': 1}", "name": "alice"},
        {"role": "function", "name": "add", "content": "3"},
        {"role": "user", "content": "hi\n<image>", "name": "bob"},  # parts joined with newlines, as autogen 0.14
    ]
    gc.select_speaker(a, None)
    assert len(gc.selection_log) == 1
    gc.reset()
    assert gc.messages == [] and gc.selection_log == []


def test_next_agent_wraps_and_respects_subsets(abc: Any) -> None:
    a, b, c = abc
    gc = GroupChat(agents=[a, b, c])
    assert gc.next_agent(a) is b and gc.next_agent(c) is a
    assert gc.next_agent(a, [a, c]) is c and gc.next_agent(c, [b]) is b
    outsider = agent("zoe")
    assert gc.next_agent(outsider) is a  # an outsider is "before" the first agent
    with pytest.raises(UndefinedNextAgent):
        gc.next_agent(a, [outsider])
    with pytest.raises(UndefinedNextAgent):
        gc.next_agent(a, [])


def test_prompt_texts(abc: Any, caplog: pytest.LogCaptureFixture) -> None:
    a, b, c = abc
    gc = GroupChat(agents=[a, b, c])
    assert gc.select_speaker_msg([a, c]) == (
        "You are in a role play game. The following roles are available:\n"
        "                alice: alice description\ncarol: carol description.\n"
        "                Read the following conversation.\n"
        "                Then select the next role from ['alice', 'carol'] to play. Only return the role."
    )
    assert gc.select_speaker_prompt() == (
        "Read the above conversation. Then select the next role from ['alice', 'bob', 'carol'] to play. "
        "Only return the role."
    )
    assert gc.introductions_msg([a]) == f"{GroupChat.DEFAULT_INTRO_MSG}\n\nalice: alice description"
    silent = agent("dan", description="")
    with caplog.at_level(logging.WARNING):
        GroupChat(agents=[a, silent]).select_speaker_msg()
    assert "The agent 'dan' has an empty description" in caplog.text


# ----------------------------------------------------------------- methods
def test_round_robin_cycles_in_group_order_any_case(abc: Any) -> None:
    a, b, c = abc
    gc = GroupChat(agents=[a, b, c], speaker_selection_method="Round_Robin")
    order = [a]
    for _ in range(5):
        order.append(gc.select_speaker(order[-1], None))
    assert names(order) == ["alice", "bob", "carol", "alice", "bob", "carol"]
    record = gc.selection_log[0]
    assert (record.round, record.method, record.last_speaker, record.chosen) == (0, "round_robin", "alice", "bob")
    assert record.reason == "round robin after alice" and record.attempts == [] and record.usage == {}
    assert [r.round for r in gc.selection_log] == [0, 1, 2, 3, 4]


def test_random_chooses_among_candidates(abc: Any) -> None:
    a, b, c = abc
    gc = GroupChat(agents=[a, b, c], speaker_selection_method="RANDOM", allow_repeat_speaker=False)
    random.seed(7)
    chosen = {gc.select_speaker(a, None).name for _ in range(30)}
    assert chosen == {"bob", "carol"}
    assert gc.random_select_speaker([c]) is c
    assert gc.selection_log[0].method == "random" and "random choice among 2 candidates" in gc.selection_log[0].reason


def test_two_agents_warn_about_underpopulation(abc: Any, caplog: pytest.LogCaptureFixture) -> None:
    a, b, _ = abc
    with caplog.at_level(logging.WARNING):
        GroupChat(agents=[a, b], speaker_selection_method="random").select_speaker(a, None)
    assert "GroupChat is underpopulated with 2 agents." in caplog.text
    with pytest.raises(ValueError, match="underpopulated with 1 agents"):
        GroupChat(agents=[a], speaker_selection_method="random").select_speaker(a, None)


def test_unknown_method_is_accepted_with_a_warning_and_refused_at_selection(abc: Any) -> None:
    # As in classic AutoGen: the group chat is built; selecting a speaker raises (ValueError for an unknown
    # name, AttributeError for a value that is not a str).
    with pytest.warns(UserWarning, match=r"It should be one of \['auto', 'manual'.*It is kept as given"):
        gc = GroupChat(agents=list(abc), speaker_selection_method="loudest")
    with pytest.raises(ValueError, match="speaker_selection_method is set to 'loudest'"):
        gc.select_speaker(abc[0], None)
    with pytest.warns(UserWarning, match="selecting the next speaker raises AttributeError"):
        gc = GroupChat(agents=list(abc), speaker_selection_method=None)  # type: ignore[arg-type]
    with pytest.raises(AttributeError, match="'NoneType' object has no attribute 'lower'"):
        gc.select_speaker(abc[0], None)


def test_method_changed_after_construction_is_validated_at_selection(abc: Any) -> None:
    gc = GroupChat(agents=list(abc), speaker_selection_method="round_robin")
    gc.speaker_selection_method = "loudest"
    with pytest.raises(ValueError, match="speaker_selection_method is set to 'loudest'"):
        gc.select_speaker(abc[0], None)
    assert gc.selection_log[-1].chosen is None and "loudest" in gc.selection_log[-1].reason


# ----------------------------------------------------------------- custom selection function
def test_callable_returning_an_agent_skips_filters_and_policies(abc: Any) -> None:
    a, b, c = abc
    seen: list[tuple[str, Any]] = []

    def pick(last_speaker: Any, groupchat: GroupChat) -> Any:
        seen.append((last_speaker.name, groupchat))
        return a

    gc = GroupChat(agents=[a, b, c], speaker_selection_method=pick, allow_repeat_speaker=False,
                   eligibility_policies=[DenyListPolicy(["alice"])])
    assert gc.select_speaker(a, None) is a  # repeat rule and policy do not apply
    assert seen == [("alice", gc)]
    record = gc.selection_log[0]
    assert record.method == "callable" and record.steps == [] and record.chosen == "alice"


def test_callable_returning_a_method_name_or_none(abc: Any) -> None:
    a, b, c = abc
    answers = iter(["round_robin", "Round_Robin", None])
    gc = GroupChat(agents=[a, b, c], speaker_selection_method=lambda last, gc: next(answers))
    assert gc.select_speaker(a, None) is b
    assert gc.select_speaker(b, None) is c
    assert gc.selection_log[0].method == "round_robin"
    assert gc.selection_log[0].reason.startswith("the custom selection function chose the method 'round_robin'")
    with pytest.raises(NoEligibleSpeaker, match="Custom speaker selection function returned None"):
        gc.select_speaker(c, None)
    assert gc.selection_log[-1].method == "callable" and gc.selection_log[-1].chosen is None


def test_callable_returning_garbage_raises(abc: Any) -> None:
    a, b, c = abc
    gc = GroupChat(agents=[a, b], speaker_selection_method=lambda last, gc: c)
    with pytest.raises(ValueError, match="returned an agent carol not in the group chat"):
        gc.select_speaker(a, None)
    gc.speaker_selection_method = lambda last, gc: 42
    with pytest.raises(ValueError, match="returned an object of type <class 'int'> instead of Agent or str"):
        gc.select_speaker(a, None)
    gc.speaker_selection_method = lambda last, gc: "loudest"
    with pytest.raises(ValueError, match="speaker_selection_method is set to 'loudest'"):
        gc.select_speaker(a, None)


# ----------------------------------------------------------------- repeat rule
def test_repeat_rule_false_and_list(abc: Any) -> None:
    a, b, c = abc
    gc = GroupChat(agents=[a, b, c], speaker_selection_method="round_robin", allow_repeat_speaker=False)
    gc.select_speaker(b, None)
    assert steps(gc.selection_log[-1]) == [("all", ["alice", "bob", "carol"]), ("repeat_rule", ["alice", "carol"])]
    gc = GroupChat(agents=[a, b], speaker_selection_method="random", allow_repeat_speaker=[b])
    assert gc.select_speaker(a, None) is b  # alice may not repeat: bob is the only candidate
    assert gc.selection_log[-1].reason == "the only eligible candidate"
    assert {gc.select_speaker(b, None).name for _ in range(20)} == {"alice", "bob"}


def test_repeat_rule_change_after_construction_takes_effect(abc: Any) -> None:
    a, b, _ = abc
    gc = GroupChat(agents=[a, b], speaker_selection_method="random", allow_repeat_speaker=False)
    assert gc.select_speaker(a, None) is b
    gc.allow_repeat_speaker = [a]
    assert {gc.select_speaker(a, None).name for _ in range(20)} == {"alice", "bob"}


# ----------------------------------------------------------------- transition graphs
def test_allowed_graph_restricts_and_single_target_needs_no_method(abc: Any) -> None:
    a, b, c = abc
    gc = GroupChat(agents=[a, b, c], speaker_selection_method="round_robin",
                   allowed_or_disallowed_speaker_transitions={a: [b, c], b: [c], c: [a]},
                   speaker_transitions_type="allowed")
    order = [a]
    for _ in range(5):
        order.append(gc.select_speaker(order[-1], None))
    assert names(order) == ["alice", "bob", "carol", "alice", "bob", "carol"]
    assert steps(gc.selection_log[1]) == [("all", ["alice", "bob", "carol"]), ("transition_graph", ["carol"])]
    assert gc.selection_log[1].reason == "the only eligible candidate"


def test_disallowed_graph_is_inverted(abc: Any) -> None:
    a, b, c = abc
    gc = GroupChat(agents=[a, b, c], speaker_selection_method="round_robin",
                   allowed_or_disallowed_speaker_transitions={a: [b], b: [b]}, speaker_transitions_type="DISALLOWED")
    assert gc.speaker_transitions_type == "disallowed"
    assert names(gc.allowed_speaker_transitions_dict[a]) == ["alice", "carol"]
    assert gc.select_speaker(a, None) is c  # bob is disallowed after alice
    assert gc.select_speaker(b, None) is c  # bob may not repeat
    assert steps(gc.selection_log[0])[-1] == ("transition_graph", ["alice", "carol"])


def test_sink_and_missing_source_end_the_chat_with_a_reason(abc: Any) -> None:
    a, b, c = abc
    gc = GroupChat(agents=[a, b, c], speaker_selection_method="auto",
                   allowed_or_disallowed_speaker_transitions={a: [b], b: []}, speaker_transitions_type="allowed")
    with pytest.raises(NoEligibleSpeaker) as sink:
        gc.select_speaker(b, None)
    assert str(sink.value) == "No eligible speaker: bob has no outgoing transition in the speaker transition graph (a sink)."
    with pytest.raises(NoEligibleSpeaker, match="Last speaker carol is not in the allowed_speaker_transitions_dict."):
        gc.select_speaker(c, None)
    assert [(r.chosen, r.steps[-1].name, r.steps[-1].candidates) for r in gc.selection_log] == [
        (None, "transition_graph", []), (None, "transition_graph", [])]
    assert gc.selection_log[0].reason == str(sink.value)


def test_speaker_outside_the_group_ignores_the_graph(abc: Any) -> None:
    a, b, c = abc
    outsider = agent("user")
    gc = GroupChat(agents=[a, b, c], speaker_selection_method="round_robin",
                   allowed_or_disallowed_speaker_transitions={a: [b], b: [c], c: [a]},
                   speaker_transitions_type="allowed")
    assert gc.select_speaker(outsider, None) is a


def test_graph_replaced_after_construction_is_rebuilt_and_checked(abc: Any) -> None:
    a, b, c = abc
    gc = GroupChat(agents=[a, b, c], speaker_selection_method="round_robin",
                   allowed_or_disallowed_speaker_transitions={a: [b]}, speaker_transitions_type="allowed")
    assert gc.select_speaker(a, None) is b
    gc.allowed_or_disallowed_speaker_transitions = {a: [c]}
    assert gc.select_speaker(a, None) is c
    gc.allowed_or_disallowed_speaker_transitions = {agent("zoe"): [a]}
    with pytest.raises(ValueError, match="keys not in agents"):
        gc.select_speaker(a, None)


# ----------------------------------------------------------------- function-call filter
def _call_message(name: str, kind: str) -> dict[str, Any]:
    if kind == "function":
        return {"role": "assistant", "content": "", "name": "alice", "function_call": {"name": name, "arguments": "{}"}}
    return {"role": "assistant", "content": "", "name": "alice",
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": name, "arguments": "{}"}}]}


@pytest.mark.parametrize("kind", ["function", "tool"])
def test_function_call_goes_to_the_only_executor(abc: Any, kind: str) -> None:
    a, b, c = abc
    c.register_function({"add": lambda x, y: x + y})
    gc = GroupChat(agents=[a, b, c], speaker_selection_method="round_robin", messages=[_call_message("add", kind)],
                   allowed_or_disallowed_speaker_transitions={a: [b], b: [a], c: [a]}, speaker_transitions_type="allowed")
    assert gc.select_speaker(a, None) is c  # the executor wins over the graph
    record = gc.selection_log[0]
    assert steps(record) == [("all", ["alice", "bob", "carol"]), ("function_call_filter", ["carol"])]
    assert record.reason == "the only agent able to execute the suggested function call"


def test_function_call_among_several_executors_and_without_executor(abc: Any) -> None:
    a, b, c = abc
    for x in (b, c):
        x.register_function({"add": lambda: 1})
    gc = GroupChat(agents=[a, b, c], speaker_selection_method="round_robin", messages=[_call_message("add", "tool")])
    assert gc.select_speaker(b, None) is c and gc.select_speaker(c, None) is b
    gc.messages[:] = [_call_message("mul", "function")]
    # nobody has "mul": the agents with a function map are the candidates
    assert gc.select_speaker(b, None) is c
    gc.func_call_filter = False
    assert gc.select_speaker(b, None) is c and gc.select_speaker(c, None) is a
    for x in (b, c):
        x.register_function({"add": None})
    gc.func_call_filter = True
    # A configuration error, as in the classic package: a ValueError, not the quiet end of the chat.
    with pytest.raises(ValueError, match="No agent can execute the function mul. Please check the function_map") as info:
        gc.select_speaker(a, None)
    assert not isinstance(info.value, NoEligibleSpeaker)
    assert gc.selection_log[-1].chosen is None


# ----------------------------------------------------------------- eligibility policies
def test_policies_and_semantics_context_and_trace(abc: Any) -> None:
    a, b, c = abc
    contexts: list[SelectionContext] = []

    def spy(x: Any, ctx: SelectionContext) -> bool:
        contexts.append(ctx)
        return True

    gc = GroupChat(agents=[a, b, c], speaker_selection_method="round_robin",
                   messages=[{"role": "user", "content": "hi", "name": "alice"}],
                   eligibility_policies=[CallablePolicy(spy, name="spy"), DenyListPolicy(["bob"]), CooldownPolicy(1)])
    assert gc.select_speaker(a, None) is c
    assert steps(gc.selection_log[0]) == [
        ("all", ["alice", "bob", "carol"]), ("repeat_rule", ["alice", "bob", "carol"]),
        ("policy:spy", ["alice", "bob", "carol"]), ("policy:DenyListPolicy", ["alice", "carol"]),
        ("policy:CooldownPolicy", ["carol"])]
    ctx = contexts[0]
    # The context of autogen 0.14.1: messages spoken so far, and names.
    assert (ctx.round, ctx.last_speaker, ctx.participants) == (1, "alice", ("alice", "bob", "carol"))
    assert ctx.messages is gc.messages


def test_policies_excluding_everyone_end_the_chat(abc: Any) -> None:
    a, b, c = abc
    gc = GroupChat(agents=[a, b, c], speaker_selection_method="auto",
                   eligibility_policies=[DenyListPolicy(["alice", "bob", "carol"]), CooldownPolicy(1)])
    with pytest.raises(NoEligibleSpeaker) as info:
        gc.select_speaker(a, None)
    assert str(info.value) == (  # AG2 Classic 0.14.1's words, then who each policy removed
        "No eligible agents after applying eligibility policies. Checked 3 candidates: ['alice', 'bob', 'carol']. "
        "Applied 2 policy/policies. "
        "No eligible speaker: the eligibility policy DenyListPolicy excluded every candidate (alice, bob, carol).")
    record = gc.selection_log[0]
    assert record.steps[-2:][0].name == "policy:DenyListPolicy" and record.steps[-1].candidates == []
    assert record.chosen is None and record.reason == str(info.value)


def test_policies_apply_to_the_function_executor(abc: Any) -> None:
    a, b, c = abc
    c.register_function({"add": lambda: 1})
    gc = GroupChat(agents=[a, b, c], speaker_selection_method="round_robin", messages=[_call_message("add", "tool")],
                   eligibility_policies=[DenyListPolicy(["carol"])])
    with pytest.raises(NoEligibleSpeaker, match="DenyListPolicy excluded every candidate \\(carol\\)"):
        gc.select_speaker(a, None)


# ----------------------------------------------------------------- async
def test_async_selection_runs_the_same_pipeline(abc: Any) -> None:
    a, b, c = abc
    gc = GroupChat(agents=[a, b, c], speaker_selection_method="round_robin",
                   allowed_or_disallowed_speaker_transitions={a: [c], c: [b], b: []}, speaker_transitions_type="allowed")

    async def run() -> list[str]:
        order = [a]
        for _ in range(2):
            order.append(await gc.a_select_speaker(order[-1], None))
        with pytest.raises(NoEligibleSpeaker, match="sink"):
            await gc.a_select_speaker(order[-1], None)
        return names(order)

    assert asyncio.run(run()) == ["alice", "carol", "bob"]
    assert [r.chosen for r in gc.selection_log] == ["carol", "bob", None]
