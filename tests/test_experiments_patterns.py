"""Hand-off experiments: run_group_chats with a factory returning an AG2 Classic 0.14 pattern.

Every chat runs through initiate_group_chat (one after another) or a_initiate_group_chat (at once), against
the scripted OpenAI-compatible server; each record counts the transitions, the hand-off that caused each
(an LLM condition's tool, a context condition, a tool's ReplyResult, an after work, the pattern's own
choice ...) and keeps the final context variables, in memory, in the DataFrame and in the run directory.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any, Iterator

import pytest

from autogen_classic import ConversableAgent, GroupChat
from autogen_classic.agentchat.agent import Agent
from autogen_classic.agentchat.group import (
    AgentNameTarget,
    AgentTarget,
    ContextExpression,
    ContextVariables,
    ExpressionContextCondition,
    OnCondition,
    OnContextCondition,
    ReplyResult,
    StringLLMCondition,
    TerminateTarget,
)
from autogen_classic.agentchat.group.patterns import (
    AutoPattern,
    DefaultPattern,
    ManualPattern,
    RandomPattern,
    RoundRobinPattern,
)
from autogen_classic.experiments import (
    ChatRecord,
    SharedAgentError,
    a_run_group_chats,
    handoff_counts,
    handoff_kind_counts,
    read_jsonl,
    records_to_rows,
    run_group_chats,
    transition_counts,
)
from autogen_classic.io.base import IOStream
from autogen_classic.logger.redaction import REDACTED
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import API_KEY, ScriptedOpenAIServer, ScriptedReply

TESTS_DIR = str(Path(__file__).resolve().parent)
WAIT = 120.0  # seconds a test waits for something that happens at once unless the test is broken
EXECUTOR = "_Group_Tool_Executor"
SECRET = "sk-live-0123456789abcdef"

# The scripted chat of the support desk: what moved each turn, in order.
SPEAKERS = ["_User", "triage", EXECUTOR, "triage", "billing", EXECUTOR, "support", EXECUTOR, "billing"]
HANDOFFS = {
    ("_User", "triage", "initial_agent"): 1,  # the pattern's initial agent
    ("triage", EXECUTOR, "tool_call"): 1,  # triage calls login
    (EXECUTOR, "triage", "tool_return"): 1,  # back to the agent whose tool ran
    ("triage", "billing", "context_condition"): 1,  # ${logged_in} holds now
    ("billing", EXECUTOR, "tool_call"): 1,  # billing calls its hand-off tool
    (EXECUTOR, "support", "llm_condition"): 1,  # transfer_to_support_1
    ("support", EXECUTOR, "tool_call"): 1,  # support calls refund
    (EXECUTOR, "billing", "reply_result"): 1,  # refund's ReplyResult names billing
    ("billing", None, "after_work"): 1,  # billing's after work ends the chat
}
KINDS = {"initial_agent": 1, "tool_call": 3, "tool_return": 1, "context_condition": 1, "llm_condition": 1,
         "reply_result": 1, "after_work": 1}
END = "Custom speaker selection function returned None. Terminating conversation."


# ----------------------------------------------------------------- the desk (module level: Ray workers import it)
def login(context_variables: ContextVariables) -> ReplyResult:
    """Log the customer in"""
    context_variables["logged_in"] = True
    return ReplyResult(message="Logged in", context_variables=context_variables)


def refund(amount: int, context_variables: ContextVariables) -> ReplyResult:
    """Refund money"""
    context_variables["refunded"] = amount
    return ReplyResult(message=f"Refunded {amount}", target=AgentNameTarget("billing"),
                       context_variables=context_variables)


def call(name: str, call_id: str, **arguments: Any) -> ScriptedReply:
    # Fixed call ids: chats running at once get the same messages as chats one after another.
    return ScriptedReply(content=None, tool_calls=[{"id": call_id, "name": name, "arguments": arguments}])


def desk_model(body: dict[str, Any]) -> Any:
    """The model of the desk, answering from the request alone (so chats may run at once)."""
    system, last = body["messages"][0]["content"], body["messages"][-1]
    if system == "You triage.":
        return call("login", "call_login")
    if system == "You bill.":
        return "Refund confirmed." if last.get("role") == "tool" else call("transfer_to_support_1", "call_transfer")
    if system == "You support.":
        return call("refund", "call_refund", amount=5)
    return None


def support_desk(base_url: str, extra_context: dict[str, Any] | None = None) -> DefaultPattern:
    config = {"config_list": [{"model": "scripted-model", "base_url": base_url, "api_key": API_KEY}],
              "cache_seed": None}
    triage = ConversableAgent("triage", system_message="You triage.", llm_config=config, functions=[login])
    billing = ConversableAgent("billing", system_message="You bill.", llm_config=config)
    support = ConversableAgent("support", system_message="You support.", llm_config=config, functions=[refund])
    triage.handoffs.add_context_condition(OnContextCondition(
        target=AgentTarget(billing), condition=ExpressionContextCondition(ContextExpression("${logged_in}"))))
    billing.handoffs.add_llm_condition(OnCondition(
        target=AgentTarget(support), condition=StringLLMCondition(prompt="When the customer wants a refund")))
    billing.handoffs.set_after_work(TerminateTarget())
    return DefaultPattern(
        initial_agent=triage, agents=[triage, billing, support],
        context_variables=ContextVariables(data={"logged_in": False, **(extra_context or {})}),
    )


def out_of_office(recipient: Any, messages: Any = None, sender: Any = None, config: Any = None) -> tuple[bool, Any]:
    raise RuntimeError("support is out of office")


def broken_desk(base_url: str) -> DefaultPattern:
    """The desk whose support agent fails when its turn comes."""
    pattern = support_desk(base_url)
    pattern.agents[2].register_reply([Agent, None], out_of_office)
    return pattern


def dicts(records: list[ChatRecord]) -> list[dict[str, Any]]:
    return [record.to_dict() for record in records]


@pytest.fixture
def desk(scripted_server: ScriptedOpenAIServer) -> Any:
    scripted_server.set_responder(desk_model)
    return partial(support_desk, scripted_server.base_url)


@pytest.fixture
def console() -> Iterator[ScriptedIOStream]:
    stream = ScriptedIOStream()
    with IOStream.set_default(stream):
        yield stream


def assert_desk_record(record: ChatRecord, run: int) -> None:
    assert record.run == run and record.error is None and record.method == "DefaultPattern"
    assert record.speakers == SPEAKERS and record.end_reason == END
    assert record.transitions == dict(Counter(zip(SPEAKERS, SPEAKERS[1:])))
    assert record.handoffs == HANDOFFS and record.handoff_kinds == KINDS
    assert record.context_variables == {"logged_in": True, "refunded": 5}
    assert record.selections == 9 and record.selection_calls == 0 and record.selection_tokens == 0
    assert record.agent_tokens > 0 and record.off_graph == {}
    assert [r.handoff.source for r in record.selection_log if r.handoff][5] == "billing"  # whose condition it was


# ----------------------------------------------------------------- one after another, at once
def test_a_pattern_factory_runs_each_chat_through_initiate_group_chat(
        desk: Any, scripted_server: ScriptedOpenAIServer, console: ScriptedIOStream) -> None:
    records = run_group_chats(desk, 3, message="I need a refund", progress=False)

    assert [r.run for r in records] == [0, 1, 2]
    for run, record in enumerate(records):
        assert_desk_record(record, run)
    # Every transition made in the chat has the hand-off that caused it (the end of the chat besides).
    first = records[0]
    per_pair = Counter({(a, b): n for (a, b, _), n in first.handoffs.items() if b is not None})
    assert dict(per_pair) == first.transitions
    assert first.messages[3]["content"] == "[Handing off to billing]"
    assert scripted_server.request_count == 3 * 4  # four model replies per chat: login, transfer, refund, text
    assert records[1].agent_tokens == first.agent_tokens  # each record counts its own chat's calls
    # Across the study.
    assert handoff_kind_counts(records) == {"tool_call": 9, "after_work": 3, "context_condition": 3,
                                            "initial_agent": 3, "llm_condition": 3, "reply_result": 3,
                                            "tool_return": 3}
    assert handoff_counts(records) == {key: 3 * count for key, count in HANDOFFS.items()}
    assert list(handoff_counts(records))[0] == (EXECUTOR, "billing", "reply_result")  # ties by names
    assert transition_counts(records)[(EXECUTOR, "billing")] == 3
    # A silent study prints nothing of its chats; silent=False prints them as initiate_group_chat does.
    assert console.chunks == [] and console.events == []
    run_group_chats(desk, 1, message="I need a refund", silent=False, progress=False)
    assert "***** LLM-based OnCondition handoff (billing): support *****" in "".join(console.chunks)


def test_chats_at_once_run_on_the_async_path_and_give_the_same_records(
        desk: Any, scripted_server: ScriptedOpenAIServer) -> None:
    one_by_one = run_group_chats(desk, 3, message="I need a refund", progress=False)

    # Each chat's first request waits for the other two: the three chats are in flight together, on one
    # event loop (a_initiate_group_chat), or the barrier breaks and the chats fail.
    barrier = threading.Barrier(3, timeout=WAIT)

    def together(body: dict[str, Any]) -> Any:
        if body["messages"][0]["content"] == "You triage.":
            barrier.wait()
        return desk_model(body)

    scripted_server.set_responder(together)
    at_once = run_group_chats(desk, 3, message="I need a refund", concurrency=3, progress=False)
    assert not at_once.failed, at_once[0].error
    assert dicts(at_once) == dicts(one_by_one)
    for run, record in enumerate(at_once):
        assert_desk_record(record, run)

    scripted_server.set_responder(desk_model)
    awaited = asyncio.run(a_run_group_chats(desk, 3, message="I need a refund", concurrency=2, progress=False))
    assert dicts(awaited) == dicts(one_by_one)


def test_the_dataframe_keeps_its_columns_and_adds_the_handoffs_and_context(desk: Any) -> None:
    records = run_group_chats(desk, 2, message="I need a refund", label="desk", progress=False)
    frame = records.to_dataframe()
    assert list(frame.columns) == [
        "run", "label", "method", "rounds", "speakers", "end_reason", "selections", "selection_calls", "rejected",
        "off_graph", "selection_tokens", "agent_tokens", "total_tokens", "error",
        "turns:_User", "turns:triage", f"turns:{EXECUTOR}", "turns:billing", "turns:support",
        "handoff_kind:initial_agent", "handoff_kind:tool_call", "handoff_kind:tool_return",
        "handoff_kind:context_condition", "handoff_kind:llm_condition", "handoff_kind:reply_result",
        "handoff_kind:after_work",
        "handoff:_User -> triage [initial_agent]", f"handoff:triage -> {EXECUTOR} [tool_call]",
        f"handoff:{EXECUTOR} -> triage [tool_return]", "handoff:triage -> billing [context_condition]",
        f"handoff:billing -> {EXECUTOR} [tool_call]", f"handoff:{EXECUTOR} -> support [llm_condition]",
        f"handoff:support -> {EXECUTOR} [tool_call]", f"handoff:{EXECUTOR} -> billing [reply_result]",
        "handoff:billing -> (end) [after_work]",
        "context:logged_in", "context:refunded",
    ]
    row = frame.iloc[1]
    assert (row["run"], row["label"], row["method"], row["rounds"]) == (1, "desk", "DefaultPattern", 9)
    assert row["handoff_kind:tool_call"] == 3 and row["handoff:billing -> (end) [after_work]"] == 1
    assert row["context:logged_in"] is True or row["context:logged_in"] == True  # noqa: E712 - numpy bool
    assert row["context:refunded"] == 5
    assert int(frame["handoff_kind:llm_condition"].sum()) == 2

    # A group chat without hand-offs in the same table: zero counts, no context.
    def make_plain() -> GroupChat:
        agents = [ConversableAgent(n, llm_config=False, default_auto_reply="ok") for n in ("a", "b")]
        return GroupChat(agents=agents, messages=[], max_round=2, speaker_selection_method="round_robin")

    plain = run_group_chats(make_plain, 1, message="Go.", progress=False)
    assert plain[0].handoffs == {} and plain[0].handoff_kinds == {} and plain[0].context_variables == {}
    assert not any(key.startswith(("handoff", "context:")) for key in records_to_rows(plain)[0])
    mixed = records_to_rows([*records, *plain])
    assert mixed[2]["handoff_kind:tool_call"] == 0 and mixed[2]["context:refunded"] is None
    assert mixed[2]["method"] == "round_robin"


def test_other_patterns_count_the_patterns_own_choices(scripted_server: ScriptedOpenAIServer) -> None:
    def round_robin() -> RoundRobinPattern:
        team = [ConversableAgent(n, llm_config=False, default_auto_reply=f"{n} here") for n in ("a", "b", "c")]
        return RoundRobinPattern(initial_agent=team[0], agents=team)

    (record,) = run_group_chats(round_robin, 1, message="Go", max_rounds=5, progress=False)
    assert record.method == "RoundRobinPattern" and record.end_reason == "max_round (5) reached."
    assert record.speakers == ["_User", "a", "b", "c", "a"]
    assert record.handoffs == {("_User", "a", "initial_agent"): 1, ("a", "b", "pattern"): 1,
                               ("b", "c", "pattern"): 1, ("c", "a", "pattern"): 1}
    assert record.handoff_kinds == {"initial_agent": 1, "pattern": 3} and record.context_variables == {}

    # RandomPattern draws from `random`, seeded with seed + run before each chat one after another.
    def random_team() -> RandomPattern:
        team = [ConversableAgent(n, llm_config=False, default_auto_reply=f"{n} here") for n in ("a", "b", "c")]
        return RandomPattern(initial_agent=team[0], agents=team)

    first = run_group_chats(random_team, 4, message="Go", max_rounds=8, seed=3, progress=False)
    again = run_group_chats(random_team, 4, message="Go", max_rounds=8, seed=3, progress=False)
    assert dicts(first) == dicts(again) and len({tuple(r.speakers) for r in first}) > 1
    # Chats at once draw from generators of their own: the same chats, whatever ran beside them.
    at_once = run_group_chats(random_team, 4, message="Go", max_rounds=8, seed=3, concurrency=4, progress=False)
    assert [r.speakers for r in at_once] == [r.speakers for r in first]
    assert all(r.handoff_kinds == {"initial_agent": 1, "pattern": 6} for r in first)

    # AutoPattern: the group manager's model picks; the record counts its questions and tokens.
    config = scripted_server.llm_config()
    scripted_server.set_responder(
        lambda body: "coder" if "role play game" in body["messages"][0]["content"] else "done")

    def auto() -> AutoPattern:
        planner = ConversableAgent("planner", system_message="Plan.", llm_config=config, description="Plans.")
        coder = ConversableAgent("coder", system_message="Code.", llm_config=config, description="Codes.")
        return AutoPattern(initial_agent=planner, agents=[planner, coder], group_manager_args={"llm_config": config})

    (record,) = run_group_chats(auto, 1, message="Go", max_rounds=4, progress=False)
    assert record.method == "AutoPattern" and record.speakers == ["_User", "planner", "coder", "coder"]
    assert record.handoffs == {("_User", "planner", "initial_agent"): 1, ("planner", "coder", "pattern"): 1,
                               ("coder", "coder", "pattern"): 1}
    assert record.selection_calls == 2 and record.selection_tokens > 0 and record.agent_tokens > 0


def test_a_silent_study_still_shows_the_person_what_to_choose_from() -> None:
    def manual() -> ManualPattern:
        team = [ConversableAgent(n, llm_config=False, default_auto_reply=f"{n} here") for n in ("a", "b")]
        return ManualPattern(initial_agent=team[0], agents=team)

    console = ScriptedIOStream(["3", "2"])
    with IOStream.set_default(console):
        (record,) = run_group_chats(manual, 1, message="Go", max_rounds=4, progress=False)
    assert record.method == "ManualPattern" and record.speakers == ["_User", "a", "b", "a"]
    assert record.handoffs == {("_User", "a", "initial_agent"): 1, ("a", "b", "pattern"): 1,
                               ("b", "a", "pattern"): 1}
    assert [a.answer for r in record.selection_log for a in r.attempts] == ["3", "2"]
    # The list of speakers and the prompt reach the person; the chat's messages do not.
    assert console.output.count("Please select the next speaker from the following list:\n1: "
                                f"{EXECUTOR}\n2: a\n3: b\n4: _User\n") == 2
    assert len(console.prompts) == 2 and "a here" not in console.output


def test_agents_shared_by_chats(desk: Any, scripted_server: ScriptedOpenAIServer) -> None:
    team = desk().agents

    def same_agents() -> DefaultPattern:
        return DefaultPattern(initial_agent=team[0], agents=team,
                              context_variables=ContextVariables(data={"logged_in": False}))

    # One after another, as for group chats: each chat clears the histories; each record counts its own tokens.
    records = run_group_chats(same_agents, 2, message="I need a refund", progress=False)
    assert [r.handoffs for r in records] == [HANDOFFS, HANDOFFS]
    assert records[0].agent_tokens == records[1].agent_tokens == run_group_chats(
        desk, 1, message="I need a refund", progress=False)[0].agent_tokens
    with pytest.raises(SharedAgentError, match="chats 0 and 1 both talk through the agent 'triage'"):
        run_group_chats(same_agents, 2, message="I need a refund", concurrency=2, progress=False)


# ----------------------------------------------------------------- failures
def test_a_failing_chat_is_a_failed_record_with_its_handoffs_so_far(scripted_server: ScriptedOpenAIServer) -> None:
    scripted_server.set_responder(desk_model)
    make = partial(broken_desk, scripted_server.base_url)
    for concurrency in (1, 2):
        failed = run_group_chats(make, 2, message="I need a refund", on_error="record", concurrency=concurrency,
                                 progress=False)
        assert failed.failed == list(failed)
        record = failed[0]
        assert record.error == "RuntimeError: support is out of office"
        assert record.speakers == SPEAKERS[:6]  # up to support's turn
        assert record.handoffs == dict(list(HANDOFFS.items())[:6])  # the last: on to support by its condition
        assert record.handoff_kinds == {"initial_agent": 1, "tool_call": 2, "tool_return": 1,
                                        "context_condition": 1, "llm_condition": 1}
        assert record.context_variables == {"logged_in": True}
        assert records_to_rows(failed)[0]["error"] == "RuntimeError: support is out of office"
    with pytest.raises(RuntimeError, match="support is out of office"):
        run_group_chats(make, 2, message="I need a refund", progress=False)


def test_a_pattern_that_cannot_set_up_its_chat_is_a_failed_record() -> None:
    def stray_initial_agent() -> DefaultPattern:
        a, b, c = (ConversableAgent(n, llm_config=False) for n in ("a", "b", "c"))
        return DefaultPattern(initial_agent=c, agents=[a, b])

    (record,) = run_group_chats(stray_initial_agent, 1, message="Go", on_error="record", progress=False)
    assert record.failed and record.error.startswith("ValueError: DefaultPattern's initial_agent 'c' is not one of")
    assert record.speakers == [] and record.handoffs == {} and record.method == "DefaultPattern"
    with pytest.raises(ValueError, match="initial_agent 'c' is not one of its agents"):
        run_group_chats(stray_initial_agent, 1, message="Go", progress=False)


@pytest.mark.parametrize(
    ("settings", "match"),
    [
        ({"sender": "triage"}, r"returned a DefaultPattern, so sender must be left out \(sender: the pattern's "
                               "user_agent"),
        ({"llm_config": False, "speaker_selection_method": "auto"},
         r"so speaker_selection_method, llm_config must be left out .*group_manager_args=\{'llm_config'"),
        ({"is_termination_msg": bool}, r"is_termination_msg: give it to the pattern: group_manager_args"),
    ],
)
def test_settings_a_pattern_sets_itself_are_refused(desk: Any, settings: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        run_group_chats(desk, 1, message="I need a refund", progress=False, **settings)


def test_max_rounds_is_for_patterns(desk: Any) -> None:
    (record,) = run_group_chats(desk, 1, message="I need a refund", max_rounds=4, progress=False)
    assert record.speakers == SPEAKERS[:4] and record.end_reason == "max_round (4) reached."
    for bad in (0, True, 2.5):
        with pytest.raises(ValueError, match="max_rounds must be None .* an int >= 1; got"):
            run_group_chats(desk, 1, message="Go", max_rounds=bad, progress=False)

    def make_plain() -> GroupChat:
        return GroupChat(agents=[ConversableAgent("a", llm_config=False), ConversableAgent("b", llm_config=False)])

    with pytest.raises(ValueError, match="max_rounds=3 is the length of a pattern's chat .* set the GroupChat's "
                                         "max_round"):
        run_group_chats(make_plain, 1, message="Go", max_rounds=3, progress=False)
    with pytest.raises(TypeError, match="must return a GroupChat or a GroupChatManager; it returned str. .*Pattern"):
        run_group_chats(lambda: "a pattern", 1, message="Go", progress=False)


def test_the_opening_message_as_initiate_group_chat_takes_it(desk: Any) -> None:
    messages = [{"role": "user", "content": "I need a refund"}]
    (record,) = run_group_chats(desk, 1, message=messages, progress=False)
    assert record.speakers == SPEAKERS and record.handoffs == HANDOFFS
    (as_dict,) = run_group_chats(desk, 1, message=messages[0], progress=False)
    assert as_dict.to_dict() == record.to_dict()


# ----------------------------------------------------------------- files
def test_the_run_directory_keeps_the_handoffs_and_redacts_secret_context(
        scripted_server: ScriptedOpenAIServer, tmp_path: Path) -> None:
    scripted_server.set_responder(desk_model)
    make = partial(support_desk, scripted_server.base_url, {"api_key": SECRET})
    run_dir = tmp_path / "desk"
    records = run_group_chats(make, 2, message="I need a refund", run_dir=run_dir, max_rounds=20, progress=False)
    assert records[0].context_variables == {"logged_in": True, "api_key": SECRET, "refunded": 5}

    written = (run_dir / "records.jsonl").read_text(encoding="utf-8")
    assert SECRET not in written
    line = json.loads(written.splitlines()[0])
    assert line["handoff_kinds"] == KINDS
    assert {"from": "billing", "to": None, "kind": "after_work", "count": 1} in line["handoffs"]
    assert line["context_variables"] == {"logged_in": True, "api_key": REDACTED, "refunded": 5}
    assert json.loads((run_dir / "study.json").read_text())["max_rounds"] == 20

    back = read_jsonl(run_dir / "records.jsonl")
    assert [r.handoffs for r in back] == [HANDOFFS, HANDOFFS] and back[1].handoff_kinds == KINDS
    rows = records_to_rows(records)
    assert rows[0]["context:api_key"] == REDACTED and rows[0]["context:refunded"] == 5
    path = records.to_jsonl(tmp_path / "desk.jsonl")
    assert SECRET not in path.read_text(encoding="utf-8")
    assert [r.handoffs for r in read_jsonl(path)] == [HANDOFFS, HANDOFFS]

    # The same study again: its chats are finished; the files are the same.
    requests = scripted_server.request_count
    again = run_group_chats(make, 2, message="I need a refund", run_dir=run_dir, max_rounds=20, progress=False)
    assert scripted_server.request_count == requests and dicts(again) == dicts(back)
    records.to_parquet(tmp_path / "desk.parquet")  # the context columns hold one type each


def test_records_of_older_runs_read_without_the_new_fields() -> None:
    old = {"run": 0, "method": "round_robin", "speakers": ["a", "b"]}
    record = ChatRecord.from_dict(old)
    assert record.handoffs == {} and record.handoff_kinds == {} and record.context_variables == {}


# ----------------------------------------------------------------- Ray
@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[Any]:
    """A real local Ray instance (as in test_experiments_ray); its workers import this module's factories."""
    ray = pytest.importorskip("ray", reason='the Ray backend needs ray: pip install "autogen-classic[ray]"')
    if ray.is_initialized():
        ray.shutdown()
    path = os.pathsep.join(p for p in (TESTS_DIR, os.environ.get("PYTHONPATH", "")) if p)
    ray.init(num_cpus=2, include_dashboard=False, runtime_env={"env_vars": {"PYTHONPATH": path}})
    yield ray
    ray.shutdown()


def test_ray_gives_the_records_of_a_local_run(ray_cluster: Any, desk: Any) -> None:
    local = run_group_chats(desk, 4, message="I need a refund", progress=False)
    on_ray = run_group_chats(desk, 4, message="I need a refund", backend="ray", progress=False)
    batched = run_group_chats(desk, 4, message="I need a refund", backend="ray", concurrency=2, progress=False)
    assert not on_ray.failed and not batched.failed, (on_ray + batched)[0].error
    assert dicts(on_ray) == dicts(batched) == dicts(local)
    assert handoff_counts(on_ray) == {key: 4 * count for key, count in HANDOFFS.items()}
