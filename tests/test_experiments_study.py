"""Studies of many group chats: at once on asyncio, with a progress bar, into a run directory, as tables.

The same seeds give the same records one after another and at once; failed chats are records with their
error and partial transcript; a run directory survives a real ``kill -9`` of the process writing it.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from autogen_classic import ConversableAgent, GroupChat
from autogen_classic.experiments import (
    SharedAgentError,
    StudyMismatchError,
    StudyResults,
    a_run_group_chats,
    read_jsonl,
    run_group_chats,
)
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer

NAMES = ("planner", "coder", "critic", "tester")


def local_team() -> list[ConversableAgent]:
    return [ConversableAgent(name, llm_config=False, human_input_mode="NEVER", default_auto_reply=f"{name}: done.")
            for name in NAMES]


def make_random() -> GroupChat:
    return GroupChat(agents=local_team(), messages=[], max_round=6, speaker_selection_method="random")


def dicts(records: list[Any]) -> list[dict[str, Any]]:
    return [record.to_dict() for record in records]


# ----------------------------------------------------------------- the same records, one by one or at once
@pytest.mark.parametrize("method", ["random", "round_robin"])
def test_concurrent_chats_give_the_records_of_a_sequential_run(method: str) -> None:
    settings = dict(message="Plan the release.", seed=7, speaker_selection_method=method, progress=False)
    one_by_one = run_group_chats(make_random, 12, **settings)
    at_once = run_group_chats(make_random, 12, concurrency=5, **settings)
    assert isinstance(at_once, StudyResults) and [r.run for r in at_once] == list(range(12))
    assert dicts(at_once) == dicts(one_by_one)
    if method == "random":
        # The seed matters: the chats differ from one another and from another seed's.
        assert len({tuple(r.speakers) for r in at_once}) > 1
        other = run_group_chats(make_random, 12, concurrency=5, **{**settings, "seed": 8})
        assert dicts(other) != dicts(at_once)


def test_concurrent_chats_on_a_model_endpoint_use_the_async_path(scripted_server: ScriptedOpenAIServer) -> None:
    config = scripted_server.llm_config()
    scripted_server.set_responder(lambda body: f"reply {len(body['messages'])}")

    def make() -> GroupChat:
        agents = [ConversableAgent(name, llm_config=config, human_input_mode="NEVER") for name in NAMES[:3]]
        return GroupChat(agents=agents, messages=[], max_round=4, speaker_selection_method="round_robin")

    sequential = run_group_chats(make, 6, message="Go.", progress=False)
    requests = scripted_server.request_count
    concurrent = run_group_chats(make, 6, message="Go.", concurrency=6, progress=False)
    assert scripted_server.request_count == 2 * requests == 2 * 6 * 3  # three model replies per chat
    assert dicts(concurrent) == dicts(sequential)
    assert all(r.agent_tokens > 0 for r in concurrent)


def test_a_study_inside_an_event_loop() -> None:
    async def main() -> tuple[StudyResults, StudyResults]:
        # As in a notebook cell: the sync call runs its chats on a loop of its own.
        inside = run_group_chats(make_random, 4, message="Go.", seed=1, concurrency=2, progress=False)
        awaited = await a_run_group_chats(make_random, 4, message="Go.", seed=1, concurrency=2, progress=False)
        return inside, awaited

    inside, awaited = asyncio.run(main())
    expected = run_group_chats(make_random, 4, message="Go.", seed=1, progress=False)
    assert dicts(inside) == dicts(awaited) == dicts(expected)


# ----------------------------------------------------------------- failures
def failing_on_odd_tasks(last_speaker: Any, groupchat: GroupChat) -> Any:
    if len(groupchat.messages) >= 3 and groupchat.messages[0]["content"].endswith("odd"):
        raise RuntimeError("selection crashed")
    return "round_robin"


def test_a_failed_chat_is_recorded_and_the_study_goes_on() -> None:
    def make() -> GroupChat:
        return GroupChat(agents=local_team(), messages=[], max_round=5, speaker_selection_method=failing_on_odd_tasks)

    # The selection function fails on "odd" tasks: a study whose chats fail, and one whose chats do not.
    failed = run_group_chats(make, 3, message="Go odd", concurrency=3, progress=False)
    assert [r.failed for r in failed] == [True, True, True]
    assert failed.failed == list(failed)
    record = failed[0]
    assert record.error == "RuntimeError: selection crashed"
    assert record.speakers == ["planner", "coder", "critic"]  # the transcript up to the failure
    assert record.messages[0]["content"] == "Go odd"
    fine = run_group_chats(make, 3, message="Go even", concurrency=3, progress=False)
    assert not fine.failed and all(r.rounds == 5 for r in fine)
    # One after another without a run directory, "raise" stays the default (as before).
    with pytest.raises(RuntimeError, match="selection crashed"):
        run_group_chats(make, 2, message="Go odd", progress=False)
    with pytest.raises(RuntimeError, match="selection crashed"):
        run_group_chats(make, 2, message="Go odd", concurrency=2, on_error="raise", progress=False)


def test_a_factory_that_fails_is_a_failed_record() -> None:
    calls = []

    def make() -> GroupChat:
        calls.append(1)
        if len(calls) == 2:
            raise OSError("no such config file")
        return make_random()

    records = run_group_chats(make, 3, message="Go.", concurrency=2, progress=False)
    assert [r.error for r in records].count("OSError: no such config file") == 1
    broken = next(r for r in records if r.failed)
    assert broken.speakers == [] and broken.method == "unknown"


# ----------------------------------------------------------------- bad input, before any chat runs
def test_bad_settings_are_refused_before_any_chat(tmp_path: Path) -> None:
    built: list[int] = []

    def make() -> GroupChat:
        built.append(1)
        return make_random()

    for bad, error, match in [
        ({"concurrency": 0}, ValueError, r"concurrency must be an int >= 1 .*got 0"),
        ({"concurrency": 2.5}, ValueError, "concurrency must be an int >= 1"),
        ({"backend": "dask"}, ValueError, r"backend must be one of \['local', 'ray'\]"),
        ({"address": "ray://head:10001"}, ValueError, 'give it with backend="ray"'),
        ({"progress": "yes"}, TypeError, "progress must be None"),
    ]:
        with pytest.raises(error, match=match):
            run_group_chats(make, 3, message="Go.", **bad)
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="is a file; give a directory"):
        run_group_chats(make, 3, message="Go.", run_dir=tmp_path / "file")
    assert built == []


def test_shared_agents_cannot_run_at_once() -> None:
    shared = local_team()
    with pytest.raises(SharedAgentError, match="make_groupchat must build new agents for every chat"):
        run_group_chats(lambda: GroupChat(agents=shared, messages=[], max_round=3, speaker_selection_method="round_robin"), 4, message="Go.",
                        concurrency=2, progress=False)
    # One after another they may be shared, as before.
    records = run_group_chats(lambda: GroupChat(agents=shared, messages=[], max_round=3, speaker_selection_method="round_robin"), 2, message="Go.")
    assert [r.rounds for r in records] == [3, 3]


# ----------------------------------------------------------------- run directories
def test_a_rerun_skips_finished_chats(tmp_path: Path) -> None:
    built: list[int] = []

    def make() -> GroupChat:
        built.append(1)
        return make_random()

    settings = dict(message="Plan.", seed=3, run_dir=tmp_path / "study", progress=False)
    first = run_group_chats(make, 4, **settings)
    assert len(built) == 4
    lines = (tmp_path / "study" / "records.jsonl").read_text().splitlines()
    assert [json.loads(line)["run"] for line in lines] == [0, 1, 2, 3]
    study = json.loads((tmp_path / "study" / "study.json").read_text())
    assert study["seed"] == 3 and study["message"] == "Plan." and study["factory"].endswith("make")
    # The same study again: nothing runs; a larger one runs only the new chats.
    assert dicts(run_group_chats(make, 4, **settings)) == dicts(first)
    assert len(built) == 4
    grown = run_group_chats(make, 6, concurrency=2, **settings)
    assert len(built) == 6
    assert dicts(grown) == dicts(run_group_chats(make_random, 6, message="Plan.", seed=3, progress=False))


def test_a_different_study_is_refused(tmp_path: Path) -> None:
    run_group_chats(make_random, 2, message="Plan.", seed=3, run_dir=tmp_path, progress=False)
    with pytest.raises(StudyMismatchError, match=r"holds a different study \(seed: 3 there, 4 now\).*new run_dir"):
        run_group_chats(make_random, 2, message="Plan.", seed=4, run_dir=tmp_path, progress=False)
    with pytest.raises(StudyMismatchError, match="message: 'Plan.' there, 'Other.' now"):
        run_group_chats(make_random, 2, message="Other.", seed=3, run_dir=tmp_path, progress=False)


def test_a_partial_last_line_is_dropped_and_its_chat_runs_again(tmp_path: Path) -> None:
    run_group_chats(make_random, 3, message="Plan.", seed=0, run_dir=tmp_path, progress=False)
    path = tmp_path / "records.jsonl"
    text = path.read_text()
    cut = text.rindex('{"run": 2')
    path.write_text(text[: cut + 40])  # the write of chat 2 stopped half way
    records = run_group_chats(make_random, 3, message="Plan.", seed=0, run_dir=tmp_path, progress=False)
    assert [r.run for r in records] == [0, 1, 2]
    assert [json.loads(line)["run"] for line in path.read_text().splitlines()] == [0, 1, 2]
    path.write_text(path.read_text().replace('{"run": 1', '{"ru', 1))
    with pytest.raises(ValueError, match="line 2 of .* is not a chat record"):
        run_group_chats(make_random, 3, message="Plan.", seed=0, run_dir=tmp_path, progress=False)


STUDY_MODULE = '''
import time
from autogen_classic import ConversableAgent, GroupChat

def slow_reply(recipient, messages=None, sender=None, config=None):
    time.sleep(0.05)
    return True, f"{recipient.name}: step {len(messages or [])}"

def make():
    with open(BUILT, "a") as log:
        log.write("built\\n")
    agents = []
    for name in ("planner", "coder", "critic"):
        agent = ConversableAgent(name, llm_config=False, human_input_mode="NEVER")
        agent.register_reply([object, None], slow_reply)
        agents.append(agent)
    return GroupChat(agents=agents, messages=[], max_round=4, speaker_selection_method="random")
'''


def test_a_kill_9_loses_no_finished_chat(tmp_path: Path) -> None:
    module = tmp_path / "study_fixture.py"
    built = tmp_path / "built.txt"
    module.write_text(f"BUILT = {str(built)!r}\n" + textwrap.dedent(STUDY_MODULE))
    run_dir = tmp_path / "run"
    script = (
        "import sys; sys.path.insert(0, {path!r}); import study_fixture\n"
        "from autogen_classic.experiments import run_group_chats\n"
        "run_group_chats(study_fixture.make, 40, message='Plan.', seed=5, run_dir={run_dir!r}, progress=False)\n"
    ).format(path=str(tmp_path), run_dir=str(run_dir))
    child = subprocess.Popen([sys.executable, "-c", script])
    records_file = run_dir / "records.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if records_file.exists() and records_file.read_text().count("\n") >= 3:
            break
        assert child.poll() is None, "the study ended before it could be killed"
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert child.returncode == -signal.SIGKILL
    finished = read_jsonl(records_file)
    assert 3 <= len(finished) < 40
    sys.path.insert(0, str(tmp_path))
    try:
        import study_fixture

        built.write_text("")
        resumed = run_group_chats(study_fixture.make, 40, message="Plan.", seed=5, run_dir=run_dir, progress=False)
        rebuilt = built.read_text().count("built")
        whole = run_group_chats(study_fixture.make, 40, message="Plan.", seed=5, progress=False)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("study_fixture", None)
    assert rebuilt == 40 - len(finished)  # only the chats not on disk ran again
    assert dicts(resumed) == dicts(whole)
    assert [r.run for r in read_jsonl(records_file)] == list(range(40))


# ----------------------------------------------------------------- progress and tables
def test_the_progress_bar_counts_done_and_failed(capsys: pytest.CaptureFixture[str]) -> None:
    def make() -> GroupChat:
        return GroupChat(agents=local_team(), messages=[], max_round=4, speaker_selection_method=failing_on_odd_tasks)

    run_group_chats(make, 3, message="Go odd", concurrency=2, progress=True)
    err = capsys.readouterr().err
    assert "chats" in err and "3/3" in err and "failed=3" in err and "chat/s" in err
    run_group_chats(make_random, 3, message="Go.", concurrency=2)  # progress=None: stderr is not a terminal
    assert capsys.readouterr().err == ""


def test_dataframe_jsonl_and_parquet_round_trips(tmp_path: Path) -> None:
    pandas = pytest.importorskip("pandas", reason="the dataframe extra (pandas) is not installed")
    records = run_group_chats(make_random, 5, message="Go.", seed=2, concurrency=3, progress=False)
    frame = records.to_dataframe()
    assert list(frame["run"]) == [0, 1, 2, 3, 4]
    assert list(frame["rounds"]) == [r.rounds for r in records]
    assert {f"turns:{name}" for name in NAMES} <= set(frame.columns)
    assert dicts(read_jsonl(records.to_jsonl(tmp_path / "records.jsonl"))) == dicts(records)
    pytest.importorskip("pyarrow", reason="the dataframe extra (pyarrow) is not installed")
    back = pandas.read_parquet(records.to_parquet(tmp_path / "records.parquet"))
    pandas.testing.assert_frame_equal(back, frame)


# ----------------------------------------------------------------- the collector's settings during a study
def test_a_concurrent_study_freezes_the_old_heap_and_restores_the_collector_after() -> None:
    import gc

    seen: list[tuple[int, tuple[int, int, int]]] = []

    def observed() -> GroupChat:
        seen.append((gc.get_freeze_count(), gc.get_threshold()))
        return make_random()

    before = gc.get_threshold()
    records = run_group_chats(observed, 4, message="Plan.", seed=1, concurrency=2, progress=False)
    assert not any(record.failed for record in records)
    assert all(frozen > 0 and thresholds[0] >= 10_000 for frozen, thresholds in seen)
    assert (gc.get_freeze_count(), gc.get_threshold()) == (0, before)
    # A failing study restores them too.
    with pytest.raises(ZeroDivisionError):
        run_group_chats(lambda: 1 / 0, 2, message="Plan.", concurrency=2, on_error="raise", progress=False)
    assert (gc.get_freeze_count(), gc.get_threshold()) == (0, before)
    # One chat at a time leaves the collector as it is.
    seen.clear()
    run_group_chats(observed, 2, message="Plan.", progress=False)
    assert seen == [(0, before)] * 2


def test_a_process_that_froze_objects_or_stopped_the_collector_is_left_as_it_is() -> None:
    import gc

    seen: list[tuple[int, tuple[int, int, int], bool]] = []

    def observed() -> GroupChat:
        seen.append((gc.get_freeze_count(), gc.get_threshold(), gc.isenabled()))
        return make_random()

    before = gc.get_threshold()
    gc.freeze()
    try:
        run_group_chats(observed, 2, message="Plan.", concurrency=2, progress=False)
        assert [(thresholds, enabled) for _, thresholds, enabled in seen] == [(before, True)] * 2
        assert all(frozen > 0 for frozen, _, _ in seen) and gc.get_freeze_count() > 0  # still the caller's
    finally:
        gc.unfreeze()
    seen.clear()
    gc.disable()
    try:
        run_group_chats(observed, 2, message="Plan.", concurrency=2, progress=False)
        assert seen == [(0, before, False)] * 2 and not gc.isenabled()
    finally:
        gc.enable()


def test_an_async_study_restores_the_collector() -> None:
    import gc

    before = gc.get_threshold()
    records = asyncio.run(a_run_group_chats(make_random, 3, message="Plan.", concurrency=3, progress=False))
    assert len(records) == 3 and (gc.get_freeze_count(), gc.get_threshold()) == (0, before)


def test_a_refused_endpoint_is_reported_as_such_by_a_concurrent_study(dead_base_url: str) -> None:
    """The failed record names the connection refusal, not a leftover of the runner's own start-up."""
    entry = {"model": "m", "base_url": dead_base_url, "api_key": "sk-test", "max_retries": 0}

    def make() -> GroupChat:
        agents = [ConversableAgent(name, llm_config={"config_list": [entry], "cache_seed": None},
                                   human_input_mode="NEVER") for name in NAMES[:2]]
        return GroupChat(agents=agents, messages=[], max_round=3, speaker_selection_method="round_robin")

    records = run_group_chats(make, 2, message="Plan.", concurrency=2, progress=False)
    assert len(records.failed) == 2
    for record in records.failed:
        assert f"m at {dead_base_url}: connection failed (" in record.error
        assert "Connection refused" in record.error or "Connect call failed" in record.error
        assert "RuntimeError" not in record.error
