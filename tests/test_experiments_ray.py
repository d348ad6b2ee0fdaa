"""Studies of group chats on Ray: a real local Ray instance (2 CPUs) runs every chat as a task.

The same seeds give the same records on Ray as one after another and at once; failed chats are records
(or the chat's own exception with on_error="raise"); bad settings are refused before any chat runs; a
run directory is resumed; and the chats of a node share one embedded-model server, started only when a
chat asks for it.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from functools import partial
from pathlib import Path
from typing import Any, Iterator

import pytest

ray = pytest.importorskip("ray", reason='the Ray backend needs ray: pip install "autogen-classic[ray]"')

from autogen_classic import ConversableAgent, GroupChat, local  # noqa: E402
from autogen_classic.experiments import GroupChatFork, read_jsonl, run_group_chats  # noqa: E402
from autogen_classic.experiments.ray_runner import HOSTS_NAME, WorkerSetupError, embedded_model_hosts  # noqa: E402
from autogen_classic.local import BASE_URL_ENV, LocalModelUnavailableError  # noqa: E402
from autogen_classic.local._process import answers  # noqa: E402
from autogen_classic.local.model_file import check_available  # noqa: E402
from autogen_classic.local import shared as local_shared  # noqa: E402
from autogen_classic.local.provided import use_provided_server  # noqa: E402
from autogen_classic.testing.scripted_server import API_KEY, ScriptedOpenAIServer  # noqa: E402

NAMES = ("planner", "coder", "critic", "tester")
TESTS_DIR = str(Path(__file__).resolve().parent)
WAIT = 120.0  # seconds a test waits for something that happens at once unless the test is broken


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[None]:
    """A real local Ray instance; its workers import this module's factories (hence PYTHONPATH)."""
    if ray.is_initialized():
        ray.shutdown()
    path = os.pathsep.join(p for p in (TESTS_DIR, os.environ.get("PYTHONPATH", "")) if p)
    ray.init(num_cpus=2, include_dashboard=False, runtime_env={"env_vars": {"PYTHONPATH": path}})
    yield
    ray.shutdown()


# ----------------------------------------------------------------- factories (module level: workers import them)
def local_team() -> list[ConversableAgent]:
    return [ConversableAgent(name, llm_config=False, human_input_mode="NEVER", default_auto_reply=f"{name}: done.")
            for name in NAMES]


def local_chat() -> GroupChat:
    return GroupChat(agents=local_team(), messages=[], max_round=6, speaker_selection_method="random")


def model_chat(base_url: str) -> GroupChat:
    entry = {"model": "scripted-model", "base_url": base_url, "api_key": API_KEY}
    config = {"config_list": [entry], "cache_seed": None}
    agents = [ConversableAgent(name, llm_config=config, human_input_mode="NEVER") for name in NAMES[:3]]
    return GroupChat(agents=agents, messages=[], max_round=5, speaker_selection_method="random")


class CriticBusy(RuntimeError):
    """Raised by the selection function below when it picks the critic late in a chat."""


def busy_critic(last_speaker: Any, groupchat: GroupChat) -> Any:
    choice = groupchat.random_source.choice(groupchat.agents)
    if choice.name == "critic" and len(groupchat.messages) >= 3:
        raise CriticBusy("the critic is busy")
    return choice


def counted_chat(counter: str) -> GroupChat:
    with open(counter, "a", encoding="utf-8") as handle:
        handle.write(f"{os.getpid()}\n")
    return local_chat()


def _wait_for_peers(barrier: str, peers: int) -> None:
    """Hold this task until ``peers`` tasks have arrived: proof they run at once, in different workers."""
    Path(barrier, f"{os.getpid()}-{threading.get_ident()}").touch()
    deadline = time.monotonic() + WAIT
    while len(os.listdir(barrier)) < peers:
        if time.monotonic() > deadline:
            raise TimeoutError(f"only {len(os.listdir(barrier))} of {peers} tasks ran at once")
        time.sleep(0.05)


def embedded_chat(log: str, barrier: str | None = None, use_model: bool = True) -> GroupChat:
    """Two agents on the embedded model (``local.llm_config()``); logs which server this worker got."""
    config = local.llm_config()
    with open(log, "a", encoding="utf-8") as handle:
        handle.write(json.dumps({"pid": os.getpid(), "base_url": config["config_list"][0]["base_url"]}) + "\n")
    if barrier is not None:
        _wait_for_peers(barrier, 2)
    agents = [ConversableAgent(name, llm_config=config if use_model else False, human_input_mode="NEVER",
                               default_auto_reply=f"{name}: done.") for name in NAMES[:2]]
    return GroupChat(agents=agents, messages=[], max_round=3, speaker_selection_method="round_robin")


_stand_in: ScriptedOpenAIServer | None = None


def start_stand_in_model() -> str:
    """A cheap stand-in for the embedded model server, run by a node's host actor (one per host process)."""
    global _stand_in
    if _stand_in is None:
        _stand_in = ScriptedOpenAIServer(default_reply="stand-in reply").start()
    return _stand_in.base_url


def start_missing_model() -> str:
    raise LocalModelUnavailableError("The embedded model needs llama-cpp-python, which is not installed.")


def dicts(records: list[Any]) -> list[dict[str, Any]]:
    return [record.to_dict() for record in records]


def logged(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


# ----------------------------------------------------------------- the same records wherever the chats run
@pytest.mark.parametrize("team", ["replies", "model"])
@pytest.mark.parametrize("method", ["random", "round_robin"])
def test_ray_gives_the_records_of_a_local_run(
    ray_cluster: None, scripted_server: ScriptedOpenAIServer, method: str, team: str
) -> None:
    scripted_server.set_responder(lambda body: f"reply {len(body['messages'])}")
    make = local_chat if team == "replies" else partial(model_chat, scripted_server.base_url)
    settings: dict[str, Any] = dict(message="Plan the release.", seed=11, speaker_selection_method=method,
                                    progress=False)
    one_by_one = run_group_chats(make, 8, **settings)
    at_once = run_group_chats(make, 8, concurrency=4, **settings)
    on_ray = run_group_chats(make, 8, backend="ray", **settings)
    batched = run_group_chats(make, 8, backend="ray", concurrency=3, **settings)  # tasks of 3, 3 and 2 chats
    assert [r.run for r in on_ray] == [r.run for r in batched] == list(range(8))
    assert not on_ray.failed and not batched.failed
    assert dicts(on_ray) == dicts(batched) == dicts(at_once) == dicts(one_by_one)
    if method == "random":
        assert len({tuple(r.speakers) for r in on_ray}) > 1
    if team == "model":
        assert all(r.agent_tokens > 0 for r in on_ray)
        assert scripted_server.request_count == 4 * 8 * 4  # four studies, eight chats, four model replies


FORKED = [{"content": "Go.", "name": "planner", "role": "user"}, {"content": "coder: done.", "name": "coder", "role": "user"},
          {"content": "critic: done.", "name": "critic", "role": "user"}]


def fork_of_run(run: int) -> GroupChatFork:
    """A study of forks: chat ``run`` forks ``FORKED`` at round 2 with another speaker."""
    return GroupChatFork(local_chat(), FORKED, 2, speaker=NAMES[run % len(NAMES)])


def test_forks_on_ray_give_the_records_of_a_local_run(ray_cluster: None) -> None:
    on_ray = run_group_chats(fork_of_run, 4, seed=3, backend="ray", progress=False)
    assert [r.label for r in on_ray] == [f"at_round=2 speaker={name}" for name in NAMES] and not on_ray.failed
    assert dicts(on_ray) == dicts(run_group_chats(fork_of_run, 4, seed=3, progress=False))
    assert [r.speakers[2] for r in on_ray] == list(NAMES)


def test_more_chats_than_tasks_in_flight(ray_cluster: None) -> None:
    address = ray.get_runtime_context().gcs_address
    records = run_group_chats(local_chat, 70, message="Go.", seed=1, backend="ray", progress=False)
    assert [r.run for r in records] == list(range(70))
    assert dicts(records) == dicts(run_group_chats(local_chat, 70, message="Go.", seed=1, progress=False))
    # The study ran on the instance this process had started, and left it running.
    assert ray.is_initialized() and ray.get_runtime_context().gcs_address == address


def test_a_study_starts_a_local_ray_instance_when_there_is_none(tmp_path: Path) -> None:
    script = tmp_path / "study.py"
    script.write_text(textwrap.dedent("""
        import json, os, sys
        import ray
        from autogen_classic import ConversableAgent, GroupChat
        from autogen_classic.experiments import run_group_chats

        BUILT = sys.argv[1]  # the chats run in Ray workers, whose own argv differs

        def make():
            with open(BUILT, "a") as handle:
                handle.write(f"{os.getpid()}\\n")
            agents = [ConversableAgent(n, llm_config=False, default_auto_reply="ok", human_input_mode="NEVER")
                      for n in ("a", "b", "c")]
            return GroupChat(agents=agents, messages=[], max_round=4, speaker_selection_method="random")

        assert not ray.is_initialized()
        records = run_group_chats(make, 4, message="Go.", seed=2, backend="ray", progress=False)
        print("OUTCOME", json.dumps({"runs": [r.run for r in records], "failed": len(records.failed),
                                     "ray": ray.is_initialized(), "pid": os.getpid()}))
    """))
    built = tmp_path / "built.txt"
    done = subprocess.run([sys.executable, str(script), str(built)], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("OUTCOME ")]
    outcome = json.loads(line.removeprefix("OUTCOME "))
    assert outcome["runs"] == [0, 1, 2, 3] and outcome["failed"] == 0 and outcome["ray"]
    workers = set(built.read_text().split())
    assert len(workers) >= 1 and str(outcome["pid"]) not in workers  # the chats ran in Ray workers


# ----------------------------------------------------------------- failures
def test_failed_chats_are_records_and_the_study_goes_on(ray_cluster: None) -> None:
    settings: dict[str, Any] = dict(message="Go.", seed=5, speaker_selection_method=busy_critic, progress=False)
    records = run_group_chats(local_chat, 12, backend="ray", **settings)
    assert 0 < len(records.failed) < len(records)
    for record in records.failed:
        assert record.error == "CriticBusy: the critic is busy"
        assert len(record.messages) >= 3 and record.speakers == [m["name"] for m in record.messages]
    assert all(r.rounds == 6 for r in records if not r.failed)
    # The same chats fail, at the same point, one after another.
    assert dicts(records) == dicts(run_group_chats(local_chat, 12, on_error="record", **settings))


def test_failed_chats_in_a_batch_are_records_and_the_batch_goes_on(ray_cluster: None) -> None:
    settings: dict[str, Any] = dict(message="Go.", seed=5, speaker_selection_method=busy_critic, progress=False)
    batched = run_group_chats(local_chat, 12, backend="ray", concurrency=4, **settings)
    assert [r.run for r in batched] == list(range(12)) and 0 < len(batched.failed) < 12
    assert dicts(batched) == dicts(run_group_chats(local_chat, 12, on_error="record", **settings))


def chat_in_pid_file(pid_file: str) -> GroupChat:
    with open(pid_file, "a") as handle:
        handle.write(f"{os.getpid()}\n")
    return local_chat()


def test_a_batch_runs_its_chats_in_one_worker_at_once(ray_cluster: None, tmp_path: Path) -> None:
    pids = tmp_path / "pids.txt"
    records = run_group_chats(partial(chat_in_pid_file, str(pids)), 6, message="Go.", seed=3, backend="ray",
                              concurrency=6, progress=False)
    assert len(records) == 6 and not records.failed
    assert len(set(pids.read_text().split())) == 1  # one task, one worker process, six chats


def test_on_error_raise_gives_the_caller_the_chats_own_exception_from_a_batch(ray_cluster: None) -> None:
    with pytest.raises(CriticBusy, match="the critic is busy") as info:
        run_group_chats(local_chat, 12, message="Go.", seed=5, speaker_selection_method=busy_critic,
                        backend="ray", concurrency=4, on_error="raise", progress=False)
    assert type(info.value) is CriticBusy


def test_on_error_raise_gives_the_caller_the_chats_own_exception(ray_cluster: None) -> None:
    with pytest.raises(CriticBusy, match="the critic is busy") as info:
        run_group_chats(local_chat, 12, message="Go.", seed=5, speaker_selection_method=busy_critic,
                        backend="ray", on_error="raise", progress=False)
    assert type(info.value) is CriticBusy  # not Ray's wrapper


def test_a_factory_the_workers_cannot_import_stops_the_study(
    ray_cluster: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "driver_only_factories.py").write_text(textwrap.dedent("""
        from autogen_classic import ConversableAgent, GroupChat

        def make():
            agents = [ConversableAgent(n, llm_config=False, default_auto_reply="ok") for n in ("a", "b")]
            return GroupChat(agents=agents, messages=[], max_round=3)
    """))
    monkeypatch.syspath_prepend(str(tmp_path))  # the driver's path only: the workers were started without it
    module = importlib.import_module("driver_only_factories")
    try:
        with pytest.raises(WorkerSetupError, match="driver_only_factories"):
            run_group_chats(module.make, 3, message="Go.", backend="ray", progress=False)
    finally:
        sys.modules.pop("driver_only_factories", None)


# ----------------------------------------------------------------- bad input, before any chat runs
def test_an_unpicklable_setting_is_refused_before_any_chat(tmp_path: Path) -> None:
    lock = threading.Lock()

    def make() -> GroupChat:
        with lock:
            return local_chat()

    with pytest.raises(TypeError, match="make_groupchat cannot be sent to the Ray workers") as info:
        run_group_chats(make, 3, message="Go.", backend="ray", run_dir=tmp_path / "study", progress=False)
    assert "lock" in str(info.value) and 'backend="local"' in str(info.value)
    assert not (tmp_path / "study").exists()

    def never_ends(message: dict[str, Any]) -> bool:
        with lock:
            return False

    with pytest.raises(TypeError, match="is_termination_msg cannot be sent"):
        run_group_chats(local_chat, 3, message="Go.", is_termination_msg=never_ends, backend="ray", progress=False)


def test_without_ray_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # what `import ray` meets when Ray is not installed
    with pytest.raises(ImportError, match=r'pip install "autogen-classic\[ray\]"'):
        run_group_chats(local_chat, 2, message="Go.", backend="ray", run_dir=tmp_path / "study", progress=False)
    assert not (tmp_path / "study").exists()


def test_bad_addresses_are_refused(ray_cluster: None) -> None:
    with pytest.raises(ValueError, match='with backend="ray"'):
        run_group_chats(local_chat, 2, message="Go.", address="auto", progress=False)
    for address in (6379, "", ["auto"]):
        with pytest.raises(ValueError, match="address must be the Ray cluster to join"):
            run_group_chats(local_chat, 2, message="Go.", backend="ray", address=address, progress=False)
    # Connected already: another cluster is refused, "auto" runs here.
    with pytest.raises(ValueError, match="already connected to Ray"):
        run_group_chats(local_chat, 2, message="Go.", backend="ray", address="10.9.8.7:6379", progress=False)
    assert len(run_group_chats(local_chat, 2, message="Go.", backend="ray", address="auto", progress=False)) == 2


# ----------------------------------------------------------------- a run directory
def test_a_rerun_on_ray_skips_the_finished_chats(ray_cluster: None, tmp_path: Path) -> None:
    counter = tmp_path / "built.txt"  # the factory runs in the workers: it counts the chats in a file
    make = partial(counted_chat, str(counter))
    settings: dict[str, Any] = dict(message="Go.", seed=3, backend="ray", run_dir=tmp_path / "study", progress=False)

    def built() -> int:
        return len(counter.read_text(encoding="utf-8").splitlines())

    first = run_group_chats(make, 5, **settings)
    assert built() == 5
    more = run_group_chats(make, 8, **settings)
    assert built() == 8  # only chats 5, 6 and 7 ran
    assert dicts(more)[:5] == dicts(first) and [r.run for r in more] == list(range(8))
    again = run_group_chats(make, 8, **settings)
    assert built() == 8 and dicts(again) == dicts(more)
    assert dicts(read_jsonl(tmp_path / "study" / "records.jsonl")) == dicts(more)
    assert dicts(more) == dicts(run_group_chats(make, 8, message="Go.", seed=3, progress=False))


# ----------------------------------------------------------------- one embedded-model server per node
def _drop_hosts() -> None:
    """End the job's registry of embedded-model hosts (and its hosts): the next one starts afresh."""
    try:
        registry = ray.get_actor(HOSTS_NAME)
    except ValueError:
        return
    ray.kill(registry)
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            ray.get_actor(HOSTS_NAME)
        except ValueError:
            return
        time.sleep(0.05)
    raise AssertionError("the registry of embedded-model hosts did not end")


@pytest.fixture
def model_hosts(ray_cluster: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Make the job's registry of embedded-model hosts with a given server starter; ended afterwards."""
    monkeypatch.delenv(BASE_URL_ENV, raising=False)
    # A driver without a server of its own (else it would serve the tasks): one that another test of
    # this process started is set aside for the test and restored afterwards.
    monkeypatch.setattr(local_shared, "_server", None)

    def make(start: Any) -> Any:
        _drop_hosts()
        return embedded_model_hosts(start)

    yield make
    _drop_hosts()


def test_a_provided_server_is_asked_for_once_and_only_when_needed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(BASE_URL_ENV, raising=False)
    asked: list[int] = []

    def provide() -> str:
        asked.append(1)
        return "http://127.0.0.1:9/v1/"

    own = local.current_server()  # another test of this process may have started one
    with use_provided_server(provide):
        assert asked == []  # nothing asked for the embedded model yet
        urls = {local.llm_config()["config_list"][0]["base_url"] for _ in range(3)}
    assert urls == {"http://127.0.0.1:9/v1"} and asked == [1]
    assert local.current_server() is own  # this process started no server
    monkeypatch.setenv(BASE_URL_ENV, "http://10.0.0.1:8000/v1")
    with use_provided_server(provide):
        assert local.llm_config()["config_list"][0]["base_url"] == "http://10.0.0.1:8000/v1"  # the variable wins
    assert asked == [1]
    monkeypatch.delenv(BASE_URL_ENV)
    with use_provided_server(lambda: "localhost:8000"), pytest.raises(ValueError, match="http"):
        local.llm_config()
    with pytest.raises(TypeError, match="provide must be a function"):
        with use_provided_server("http://127.0.0.1:9/v1"):  # type: ignore[arg-type]
            pass


def test_the_chats_of_a_node_share_one_server_started_on_demand(model_hosts: Any, tmp_path: Path) -> None:
    hosts = model_hosts(start_stand_in_model)
    # Chats on other endpoints start nothing.
    run_group_chats(local_chat, 4, message="Go.", backend="ray", progress=False)
    assert ray.get(hosts.nodes.remote()) == []

    log, barrier = tmp_path / "servers.jsonl", tmp_path / "barrier"
    barrier.mkdir()
    # Two chats that wait for each other: two workers at once, each asking for the embedded model.
    records = run_group_chats(partial(embedded_chat, str(log), str(barrier)), 2, message="Go.", backend="ray",
                              progress=False)
    assert not records.failed
    assert [m["content"] for m in records[0].messages] == ["Go.", "stand-in reply", "stand-in reply"]
    seen = logged(log)
    assert len({entry["pid"] for entry in seen}) == 2  # two worker processes...
    assert len({entry["base_url"] for entry in seen}) == 1  # ...one server
    node = ray.get_runtime_context().get_node_id()
    assert ray.get(hosts.nodes.remote()) == [node]
    host = ray.get(hosts.host.remote(node))
    assert ray.get(host.base_url.remote()) == seen[0]["base_url"]

    # A later study on the same node reuses it.
    run_group_chats(partial(embedded_chat, str(log)), 4, message="Go.", backend="ray", progress=False)
    assert {entry["base_url"] for entry in logged(log)} == {seen[0]["base_url"]}


def test_a_server_the_driver_uses_serves_the_tasks_of_its_node(
    model_hosts: Any, scripted_server: ScriptedOpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hosts = model_hosts(start_stand_in_model)
    scripted_server.set_responder(lambda body: "the driver's model")
    monkeypatch.setenv(BASE_URL_ENV, scripted_server.base_url)  # set after Ray started: the workers lack it
    log = tmp_path / "servers.jsonl"
    records = run_group_chats(partial(embedded_chat, str(log)), 3, message="Go.", backend="ray", progress=False)
    assert not records.failed and records[0].messages[1]["content"] == "the driver's model"
    assert {entry["base_url"] for entry in logged(log)} == {scripted_server.base_url.rstrip("/")}
    assert scripted_server.request_count == 3 * 2
    assert ray.get(hosts.nodes.remote()) == []  # no node host, no second server


def test_a_node_that_cannot_start_the_model_fails_those_chats_clearly(model_hosts: Any, tmp_path: Path) -> None:
    model_hosts(start_missing_model)
    records = run_group_chats(partial(embedded_chat, str(tmp_path / "servers.jsonl")), 2, message="Go.",
                              backend="ray", progress=False)
    assert [r.error for r in records] == ["LocalModelUnavailableError: The embedded model needs llama-cpp-python, "
                                          "which is not installed."] * 2


def _embedded_model_installed() -> bool:
    try:
        check_available()
    except LocalModelUnavailableError:
        return False
    return True


@pytest.mark.skipif(not _embedded_model_installed(), reason="needs the local extra (xllamacpp and the model)")
def test_the_real_embedded_model_server_is_shared_by_two_workers(model_hosts: Any, tmp_path: Path) -> None:
    # Starts the real SmolLM2 server once (a few seconds); the chats themselves do not generate.
    model_hosts(None)
    log, barrier = tmp_path / "servers.jsonl", tmp_path / "barrier"
    barrier.mkdir()
    make = partial(embedded_chat, str(log), str(barrier), False)
    records = run_group_chats(make, 2, message="Go.", backend="ray", progress=False)
    assert not records.failed
    seen = logged(log)
    assert len({entry["pid"] for entry in seen}) == 2
    (url,) = {entry["base_url"] for entry in seen}
    assert answers(f"{url}/models")
    assert local.current_server() is None  # the driver started nothing
