"""Runtime logging end to end: real chats against the scripted server, logged to a real sqlite database
(read back with sqlite3 and pandas) or to a JSON-lines file.

Tables, columns and what each row holds follow ag2 0.7.3's logs of the same scenarios (observed by
running the reference install); deliberate differences are listed in docs/migrating.md.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import re
import sqlite3
import threading
from pathlib import Path
from typing import Any, Iterator

import pandas as pd
import pytest

import autogen_classic as autogen
from autogen_classic import runtime_logging
from autogen_classic.cache import Cache
from autogen_classic.logger import FileLogger, LoggerFactory, SqliteLogger
from autogen_classic.logger.base_logger import BaseLogger
from autogen_classic.logger.logger_utils import get_current_ts, to_dict
from autogen_classic.testing.scripted_server import API_KEY, ScriptedOpenAIServer, ScriptedReply

# The classic tables and their columns, in order (ag2 0.7.3's sqlite logger).
CLASSIC_TABLES = {
    "chat_completions": [
        "id", "invocation_id", "client_id", "wrapper_id", "session_id", "source_name", "request", "response",
        "is_cached", "cost", "start_time", "end_time",
    ],
    "agents": ["id", "agent_id", "wrapper_id", "session_id", "name", "class", "init_args", "timestamp"],
    "oai_wrappers": ["id", "wrapper_id", "session_id", "init_args", "timestamp"],
    "oai_clients": ["id", "client_id", "wrapper_id", "session_id", "class", "init_args", "timestamp"],
    "version": ["id", "version_number"],
    "events": [
        "event_name", "source_id", "source_name", "agent_module", "agent_class_name", "id", "json_state", "timestamp",
    ],
    "function_calls": ["source_id", "source_name", "function_name", "args", "returns", "timestamp"],
}
TS = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$")
PRICE = [1.0, 2.0]  # USD per 1k prompt / completion tokens: makes every cost non-zero and checkable


@pytest.fixture(autouse=True)
def _logging_off(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test starts with no logger and leaves logging stopped."""
    monkeypatch.setattr(runtime_logging, "autogen_logger", None)
    monkeypatch.setattr(runtime_logging, "is_logging", False)
    yield
    runtime_logging.stop()


def _llm_config(server: ScriptedOpenAIServer, **extra: Any) -> dict[str, Any]:
    return {"config_list": [server.config_entry(price=PRICE)], "cache_seed": None, **extra}


def add(a: int, b: int) -> int:
    return a + b


def _tool_chat(server: ScriptedOpenAIServer, **chat_kwargs: Any) -> tuple[Any, Any, Any]:
    """user asks, assistant calls the registered ``add`` tool, user runs it, assistant answers."""
    server.add_replies(
        ScriptedReply(tool_calls=[{"name": "add", "arguments": {"a": 1, "b": 2}, "id": "call_1"}]),
        "The sum is 3. TERMINATE",
    )
    assistant = autogen.AssistantAgent("assistant", llm_config=_llm_config(server))
    user = autogen.UserProxyAgent(
        "user", human_input_mode="NEVER", code_execution_config=False,
        is_termination_msg=lambda m: "TERMINATE" in (m.get("content") or ""),
    )
    autogen.register_function(add, caller=assistant, executor=user, description="Add two numbers")
    result = user.initiate_chat(assistant, message="add 1 and 2", max_turns=2, silent=True, **chat_kwargs)
    return assistant, user, result


def _rows(con: sqlite3.Connection, table: str) -> list[dict[str, Any]]:
    cur = con.execute(f"SELECT * FROM {table}")  # noqa: S608 - table names are constants
    columns = [d[0] for d in cur.description]
    return [dict(zip(columns, row)) for row in cur.fetchall()]


def _expected_cost(response: dict[str, Any]) -> float:
    usage = response["usage"]
    return (usage["prompt_tokens"] * PRICE[0] + usage["completion_tokens"] * PRICE[1]) / 1000


# ----------------------------------------------------------------------------------------------- surface
def test_classic_import_paths_and_names() -> None:
    from autogen_classic.logger import FileLogger as F2, LoggerFactory as L2, SqliteLogger as S2
    from autogen_classic.logger import base_logger, file_logger, logger_factory, logger_utils, sqlite_logger
    from autogen_classic.runtime_logging import get_connection, start, stop

    assert (F2, L2, S2) == (FileLogger, LoggerFactory, SqliteLogger)
    assert callable(start) and callable(stop) and callable(get_connection)
    classic = {
        runtime_logging: ["F", "TYPE_CHECKING", "autogen_logger", "get_connection", "is_logging",
                          "log_chat_completion", "log_event", "log_function_use", "log_new_agent", "log_new_client",
                          "log_new_wrapper", "logging_enabled", "start", "stop"],
        base_logger: ["BaseLogger", "F", "TYPE_CHECKING"],
        file_logger: ["FileLogger"],
        sqlite_logger: ["SqliteLogger"],
        logger_factory: ["LoggerFactory"],
        logger_utils: ["get_current_ts", "to_dict"],
    }
    for module, names in classic.items():
        missing = [name for name in names if not hasattr(module, name)]
        assert not missing, (module.__name__, missing)
    assert set(BaseLogger.__abstractmethods__) == {
        "start", "log_chat_completion", "log_new_agent", "log_event", "log_new_wrapper", "log_new_client",
        "log_function_use", "stop", "get_connection",
    }


def _params(func: Any) -> list[tuple[str, Any]]:
    return [(p.name, p.default) for p in inspect.signature(func).parameters.values()]


def test_signatures_match_the_classic_ones() -> None:
    empty = inspect.Parameter.empty
    assert _params(runtime_logging.start) == [("logger", None), ("logger_type", "sqlite"), ("config", None)]
    assert _params(runtime_logging.log_chat_completion) == [
        (n, empty) for n in ("invocation_id", "client_id", "wrapper_id", "agent", "request", "response",
                             "is_cached", "cost", "start_time")
    ]
    assert _params(runtime_logging.log_event) == [("source", empty), ("name", empty), ("kwargs", empty)]
    assert _params(runtime_logging.log_function_use) == [(n, empty) for n in ("agent", "function", "args", "returns")]
    assert _params(runtime_logging.log_new_client) == [(n, empty) for n in ("client", "wrapper", "init_args")]
    assert _params(BaseLogger.log_chat_completion)[4] == ("source", empty)
    assert _params(LoggerFactory.get_logger) == [("logger_type", "sqlite"), ("config", None)]
    assert _params(FileLogger.log_new_agent) == [("self", empty), ("agent", empty), ("init_args", {})]
    assert _params(to_dict) == [("obj", empty), ("exclude", ()), ("no_recursive", ())]
    assert TS.match(get_current_ts())


# ----------------------------------------------------------------------------------------------- sqlite
def test_sqlite_two_agent_chat_is_logged(tmp_path: Path, scripted_server: ScriptedOpenAIServer) -> None:
    dbname = tmp_path / "logs.db"
    session_id = runtime_logging.start(config={"dbname": str(dbname)})
    assert re.fullmatch(r"[0-9a-f-]{36}", session_id)
    assert runtime_logging.logging_enabled() and runtime_logging.is_logging
    assert isinstance(runtime_logging.get_connection(), sqlite3.Connection)
    assistant, user, result = _tool_chat(scripted_server)
    runtime_logging.stop()
    assert not runtime_logging.logging_enabled()

    con = sqlite3.connect(dbname)
    tables = {name for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == set(CLASSIC_TABLES)
    for table, columns in CLASSIC_TABLES.items():
        assert [row[1] for row in con.execute(f"PRAGMA table_info({table})")] == columns, table
    assert _rows(con, "version") == [{"id": 1, "version_number": 1}]

    # One chat_completions row per model request, holding what the server received and answered.
    completions = _rows(con, "chat_completions")
    assert len(completions) == 2 == len(scripted_server.requests)
    for row, sent in zip(completions, scripted_server.requests):
        request, response = json.loads(row["request"]), json.loads(row["response"])
        assert request["messages"] == sent["messages"] and request["model"] == "scripted-model"
        assert request["tools"][0]["function"]["name"] == "add"
        assert row["session_id"] == session_id and row["source_name"] == "assistant"
        assert row["is_cached"] == 0
        assert row["cost"] == pytest.approx(_expected_cost(response)) and row["cost"] > 0
        assert TS.match(row["start_time"]) and TS.match(row["end_time"]) and row["start_time"] <= row["end_time"]
        assert row["wrapper_id"] == id(assistant.client)
    first, second = (json.loads(row["response"]) for row in completions)
    assert first["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "add"
    assert second["choices"][0]["message"]["content"] == "The sum is 3. TERMINATE"
    total = result.cost["usage_including_cached_inference"]["total_cost"]
    assert sum(row["cost"] for row in completions) == pytest.approx(total)

    # Wrappers and clients: the requests' client and wrapper are found there (joins work).
    wrappers, clients = _rows(con, "oai_wrappers"), _rows(con, "oai_clients")
    assert completions[0]["wrapper_id"] in {w["wrapper_id"] for w in wrappers}
    assert completions[0]["client_id"] in {c["client_id"] for c in clients}
    joined = con.execute(
        "SELECT c.class FROM chat_completions AS r JOIN oai_clients AS c ON r.client_id = c.client_id"
    ).fetchall()
    assert joined == [("OpenAIClient",), ("OpenAIClient",)]
    init = json.loads(next(w["init_args"] for w in wrappers if w["wrapper_id"] == id(assistant.client)))
    assert init["config_list"] == [{"model": "scripted-model", "price": PRICE}]
    assert init["base_config"]["tools"][0]["function"]["name"] == "add"

    # Agents, with their constructor arguments.
    agents = {row["name"]: row for row in _rows(con, "agents")}
    assert set(agents) == {"assistant", "user"}
    assert agents["assistant"]["class"] == "AssistantAgent" and agents["user"]["class"] == "UserProxyAgent"
    assert agents["assistant"]["agent_id"] == id(assistant) and agents["user"]["wrapper_id"] == ""
    assert json.loads(agents["assistant"]["init_args"])["llm_config"]["config_list"] == [
        {"model": "scripted-model", "price": PRICE}
    ]
    assert json.loads(agents["user"]["init_args"])["human_input_mode"] == "NEVER"

    # The registered tool's call.
    calls = _rows(con, "function_calls")
    assert [(c["source_name"], c["function_name"], json.loads(c["args"]), json.loads(c["returns"])) for c in calls] == [
        ("user", "add", {"a": 1, "b": 2}, 3)
    ]
    assert calls[0]["source_id"] == id(user)

    # Events: every message received, every reply function run.
    events = _rows(con, "events")
    received = [
        (e["source_name"], json.loads(e["json_state"])) for e in events if e["event_name"] == "received_message"
    ]
    assert received[0] == ("assistant", {"message": "add 1 and 2", "sender": "user", "valid": True})
    assert [name for name, _ in received] == ["assistant", "user", "assistant", "user"]
    executed = [json.loads(e["json_state"]) for e in events if e["event_name"] == "reply_func_executed"]
    assert {"reply_func_module", "reply_func_name", "final", "reply"} <= set(executed[0])
    finals = [(e["reply_func_name"], e["reply"]) for e in executed if e["final"]]
    assert finals[-1] == ("generate_oai_reply", "The sum is 3. TERMINATE")
    assert ("generate_tool_calls_reply", {"role": "tool", "tool_responses": [
        {"tool_call_id": "call_1", "role": "tool", "content": "3"}], "content": "3"}) in finals
    assert {e["agent_class_name"] for e in events} == {"AssistantAgent", "UserProxyAgent"}

    # No credential or endpoint address anywhere in the log.
    dump = "\n".join(con.iterdump())
    assert API_KEY not in dump and scripted_server.base_url not in dump

    # pandas reads the same tables.
    frame = pd.read_sql("SELECT source_name, request, cost, is_cached FROM chat_completions", con)
    assert list(frame["source_name"]) == ["assistant", "assistant"]
    assert frame["request"].map(lambda text: json.loads(text)["messages"][-1]["role"]).tolist() == ["user", "tool"]
    assert frame["cost"].sum() == pytest.approx(sum(row["cost"] for row in completions))
    assert pd.read_sql("SELECT name FROM agents ORDER BY id", con)["name"].tolist() == ["assistant", "user"]
    con.close()


def test_cached_rerun_is_logged_as_cached(tmp_path: Path, scripted_server: ScriptedOpenAIServer) -> None:
    runtime_logging.start(config={"dbname": str(tmp_path / "logs.db")})
    llm_config = _llm_config(scripted_server)
    scripted_server.add_reply("hello back")
    with Cache.disk(cache_path_root=str(tmp_path / "cache")) as cache:
        for _ in range(2):
            assistant = autogen.AssistantAgent("assistant", llm_config=llm_config)
            user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False)
            user.initiate_chat(assistant, message="hello", max_turns=1, cache=cache, silent=True)
    con = runtime_logging.get_connection()
    assert con is not None
    rows = _rows(con, "chat_completions")
    runtime_logging.stop()
    assert scripted_server.request_count == 1
    assert [row["is_cached"] for row in rows] == [0, 1]
    assert rows[0]["request"] == rows[1]["request"] and rows[0]["response"] == rows[1]["response"]
    assert rows[1]["cost"] == rows[0]["cost"] > 0  # the cached answer's cost, as the classic log holds it


def test_group_chat_is_logged(tmp_path: Path, scripted_server: ScriptedOpenAIServer) -> None:
    dbname = tmp_path / "group.db"
    runtime_logging.start(config={"dbname": str(dbname)})
    scripted_server.add_replies("alice", "hello from alice", "bob", "bob says hi")
    llm_config = _llm_config(scripted_server)
    alice = autogen.AssistantAgent("alice", llm_config=llm_config, system_message="You are alice.")
    bob = autogen.AssistantAgent("bob", llm_config=llm_config, system_message="You are bob.")
    user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False)
    group = autogen.GroupChat([user, alice, bob], messages=[], max_round=3, speaker_selection_method="auto")
    manager = autogen.GroupChatManager(group, llm_config=llm_config)
    user.initiate_chat(manager, message="hi all", silent=True)
    runtime_logging.stop()

    con = sqlite3.connect(dbname)
    sources = [row["source_name"] for row in _rows(con, "chat_completions")]
    assert sources == ["speaker_selection_agent", "alice", "speaker_selection_agent", "bob"]
    agents = {row["name"]: row["class"] for row in _rows(con, "agents")}
    assert {"alice": "AssistantAgent", "bob": "AssistantAgent", "user": "UserProxyAgent",
            "chat_manager": "GroupChatManager"}.items() <= agents.items()
    events = _rows(con, "events")
    manager_received = [json.loads(e["json_state"]) for e in events
                        if e["source_name"] == "chat_manager" and e["event_name"] == "received_message"]
    assert [(m["message"] if isinstance(m["message"], str) else m["message"]["content"], m["sender"])
            for m in manager_received] == [("hi all", "user"), ("hello from alice", "alice"), ("bob says hi", "bob")]
    broadcast = [json.loads(e["json_state"]) for e in events
                 if e["source_name"] == "bob" and e["event_name"] == "received_message"]
    assert broadcast[0]["sender"] == "chat_manager" and broadcast[0]["message"]["content"] == "hi all"
    con.close()


def test_async_chat_and_async_tool_are_logged(tmp_path: Path, scripted_server: ScriptedOpenAIServer) -> None:
    runtime_logging.start(config={"dbname": str(tmp_path / "async.db")})
    scripted_server.add_replies(
        ScriptedReply(tool_calls=[{"name": "a_add", "arguments": {"a": 2, "b": 5}, "id": "call_1"}]), "done"
    )
    assistant = autogen.AssistantAgent("assistant", llm_config=_llm_config(scripted_server))
    user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False)

    async def a_add(a: int, b: int) -> dict[str, int]:
        return {"sum": a + b}

    autogen.register_function(a_add, caller=assistant, executor=user, description="Add")
    asyncio.run(user.a_initiate_chat(assistant, message="add", max_turns=2, silent=True))
    con = runtime_logging.get_connection()
    assert con is not None
    completions, calls = _rows(con, "chat_completions"), _rows(con, "function_calls")
    runtime_logging.stop()
    assert [row["source_name"] for row in completions] == ["assistant", "assistant"]
    assert [(c["function_name"], json.loads(c["args"]), json.loads(c["returns"])) for c in calls] == [
        ("a_add", {"a": 2, "b": 5}, {"sum": 7})
    ]


def test_requests_from_threads_are_all_logged(tmp_path: Path) -> None:
    dbname = tmp_path / "threads.db"
    runtime_logging.start(config={"dbname": str(dbname)})
    with ScriptedOpenAIServer(default_reply="ok") as server:
        wrapper = autogen.OpenAIWrapper(config_list=[server.config_entry()], cache_seed=None)
        errors: list[BaseException] = []

        def chat(n: int) -> None:
            try:
                for i in range(5):
                    wrapper.create(messages=[{"role": "user", "content": f"{n}-{i}"}], agent=f"thread-{n}")
            except BaseException as err:  # noqa: BLE001 - reported by the assertion below
                errors.append(err)

        threads = [threading.Thread(target=chat, args=(n,)) for n in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    runtime_logging.stop()
    assert not errors
    con = sqlite3.connect(dbname)
    counts = dict(con.execute("SELECT source_name, COUNT(*) FROM chat_completions GROUP BY source_name").fetchall())
    assert counts == {f"thread-{n}": 5 for n in range(4)}
    # The wrapper was made while logging: it and its one client are recorded once.
    assert con.execute("SELECT COUNT(*) FROM oai_wrappers").fetchone() == (1,)
    assert con.execute("SELECT COUNT(*) FROM oai_clients").fetchone() == (1,)
    con.close()


def test_a_request_without_an_agent_is_logged_without_a_source(tmp_path: Path,
                                                               scripted_server: ScriptedOpenAIServer) -> None:
    runtime_logging.start(config={"dbname": str(tmp_path / "logs.db")})
    scripted_server.add_reply("hi")
    wrapper = autogen.OpenAIWrapper(config_list=[scripted_server.config_entry()], cache_seed=None, temperature=0)
    wrapper.create(messages=[{"role": "user", "content": "hi"}])
    con = runtime_logging.get_connection()
    assert con is not None
    (row,) = _rows(con, "chat_completions")
    assert row["source_name"] is None
    assert json.loads(row["request"]) == {"messages": [{"role": "user", "content": "hi"}], "temperature": 0,
                                          "model": "scripted-model"}


# ----------------------------------------------------------------------------------------------- file
def test_file_logger_writes_json_lines(tmp_path: Path, scripted_server: ScriptedOpenAIServer) -> None:
    path = tmp_path / "runtime.log"
    session_id = runtime_logging.start(logger_type="file", config={"filename": str(path)})
    assert runtime_logging.get_connection() is None
    assistant, user, _ = _tool_chat(scripted_server)
    runtime_logging.stop()

    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert records[0]["message"] == f"Started new session with Session ID: {session_id}"
    assert all(r["session_id"] == session_id and isinstance(r["thread_id"], int) for r in records)
    completions = [r for r in records if "invocation_id" in r]
    assert len(completions) == 2
    for record, sent in zip(completions, scripted_server.requests):
        assert record["request"]["messages"] == sent["messages"]
        assert record["source_name"] == "assistant" and record["is_cached"] == 0
        assert record["cost"] == pytest.approx(_expected_cost(record["response"]))
        assert TS.match(record["start_time"]) and TS.match(record["end_time"])
    assert completions[1]["response"]["choices"][0]["message"]["content"] == "The sum is 3. TERMINATE"
    agents = {r["agent_name"]: r for r in records if "agent_name" in r}
    assert agents["assistant"]["agent_type"] == "AssistantAgent" and agents["user"]["wrapper_id"] == ""
    assert agents["user"]["args"]["human_input_mode"] == "NEVER"
    wrappers = [r for r in records if "json_state" in r and "wrapper_id" in r and "client_id" not in r]
    assert json.loads(wrappers[0]["json_state"])["config_list"] == [{"model": "scripted-model", "price": PRICE}]
    assert {r["class"] for r in records if "client_id" in r and "class" in r} == {"OpenAIClient"}
    (call,) = [r for r in records if "input_args" in r]
    facts = (call["source_name"], call["function_name"], json.loads(call["input_args"]), json.loads(call["returns"]))
    assert facts == ("user", "add", {"a": 1, "b": 2}, 3)
    events = [r for r in records if "event_name" in r]
    assert json.loads(events[0]["json_state"]) == {"message": "add 1 and 2", "sender": "user", "valid": True}
    assert events[0]["agent_class"] == "AssistantAgent"
    text = path.read_text()
    assert API_KEY not in text and scripted_server.base_url not in text


def test_file_logger_relative_name_goes_to_autogen_logs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    session_id = runtime_logging.start(logger_type="file")
    runtime_logging.log_event("somebody", "custom_event", detail=[1, 2])
    runtime_logging.stop()
    lines = (tmp_path / "autogen_logs" / "runtime.log").read_text().splitlines()
    event = json.loads(lines[-1])
    assert event["session_id"] == session_id
    assert (event["source_name"], event["event_name"], json.loads(event["json_state"])) == (
        "somebody", "custom_event", {"detail": [1, 2]}
    )
    # Starting again appends a new session to the same file.
    runtime_logging.start(logger_type="file")
    runtime_logging.stop()
    assert len((tmp_path / "autogen_logs" / "runtime.log").read_text().splitlines()) == len(lines) + 1


# ----------------------------------------------------------------------------------------------- lifecycle
def test_start_twice_and_stop_without_start(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    runtime_logging.stop()  # not started: nothing happens
    assert not runtime_logging.logging_enabled()
    with caplog.at_level(logging.ERROR, logger="autogen_classic.runtime_logging"):
        assert runtime_logging.get_connection() is None
    assert "get_connection: autogen logger is None" in caplog.text

    first = runtime_logging.start(config={"dbname": str(tmp_path / "a.db")})
    first_con = runtime_logging.get_connection()
    second = runtime_logging.start(config={"dbname": str(tmp_path / "b.db")})
    assert first != second and runtime_logging.logging_enabled()
    runtime_logging.log_event("src", "after_second_start", n=1)
    with pytest.raises(sqlite3.ProgrammingError):  # the first session's logger was stopped
        first_con.execute("SELECT 1")
    runtime_logging.stop()
    runtime_logging.stop()  # twice: nothing more happens
    b = sqlite3.connect(tmp_path / "b.db")
    assert b.execute("SELECT event_name, source_name FROM events").fetchall() == [("after_second_start", "src")]
    a = sqlite3.connect(tmp_path / "a.db")
    assert a.execute("SELECT COUNT(*) FROM events").fetchone() == (0,)
    with pytest.raises(sqlite3.ProgrammingError):  # classic: get_connection() after stop() gives the closed one
        runtime_logging.get_connection().execute("SELECT 1")  # type: ignore[union-attr]


def test_nothing_reaches_a_logger_while_logging_is_off(scripted_server: ScriptedOpenAIServer) -> None:
    class Counting(BaseLogger):
        def __init__(self) -> None:
            self.calls: list[str] = []

        def start(self) -> str:
            return "session"

        def log_chat_completion(self, *args: Any, **kwargs: Any) -> None:
            self.calls.append("chat_completion")

        def log_new_agent(self, agent: Any, init_args: dict[str, Any]) -> None:
            self.calls.append("agent")

        def log_event(self, source: Any, name: str, **kwargs: Any) -> None:
            self.calls.append(name)

        def log_new_wrapper(self, wrapper: Any, init_args: Any) -> None:
            self.calls.append("wrapper")

        def log_new_client(self, client: Any, wrapper: Any, init_args: Any) -> None:
            self.calls.append("client")

        def log_function_use(self, source: Any, function: Any, args: Any, returns: Any) -> None:
            self.calls.append("function")

        def stop(self) -> None:
            self.calls.append("stop")

        def get_connection(self) -> None:
            return None

    counting = Counting()
    assert runtime_logging.start(logger=counting) == "session"
    scripted_server.add_replies("one", "two")
    wrapper = autogen.OpenAIWrapper(config_list=[scripted_server.config_entry()], cache_seed=None)
    wrapper.create(messages=[{"role": "user", "content": "hi"}])
    assert counting.calls == ["wrapper", "client", "chat_completion"]
    runtime_logging.stop()
    wrapper.create(messages=[{"role": "user", "content": "hi"}])
    autogen.OpenAIWrapper(config_list=[scripted_server.config_entry()])
    assert counting.calls == ["wrapper", "client", "chat_completion", "stop"]


def test_debug_record_per_model_request(tmp_path: Path, scripted_server: ScriptedOpenAIServer,
                                        caplog: pytest.LogCaptureFixture) -> None:
    scripted_server.add_reply("hi there")
    wrapper = autogen.OpenAIWrapper(config_list=[scripted_server.config_entry()], cache_seed=None)
    messages = [{"role": "user", "content": "hello"}]
    with Cache.disk(cache_path_root=str(tmp_path / "cache")) as cache, caplog.at_level(
        logging.DEBUG, logger="autogen_classic.oai.client"
    ):
        wrapper.create(messages=messages, cache=cache)
        wrapper.create(messages=messages, cache=cache)
    records = [r for r in caplog.records if r.name == "autogen_classic.oai.client"]
    assert len(records) == 2
    fresh, cached = records
    assert fresh.levelno == logging.DEBUG
    assert (fresh.model, fresh.base_url, fresh.cache_hit, cached.cache_hit) == (  # type: ignore[attr-defined]
        "scripted-model", scripted_server.base_url, False, True
    )
    assert fresh.total_tokens == fresh.prompt_tokens + fresh.completion_tokens > 0  # type: ignore[attr-defined]
    assert fresh.latency >= 0  # type: ignore[attr-defined]
    assert "model=scripted-model" in fresh.getMessage() and "cache_hit=True" in cached.getMessage()


# ----------------------------------------------------------------------------------------------- bad input
def test_bad_logger_type(tmp_path: Path) -> None:
    classic_then_fix = r"\[logger_factory\] Unknown logger type: csv\. logger_type must be \"sqlite\" "
    with pytest.raises(ValueError, match=classic_then_fix):
        runtime_logging.start(logger_type="csv")  # type: ignore[arg-type]
    assert not runtime_logging.logging_enabled()
    with pytest.raises(ValueError, match="Unknown logger type"):
        LoggerFactory.get_logger(logger_type="SQLite")  # type: ignore[arg-type]


def test_unwritable_dbname_and_filename(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    with pytest.raises(OSError, match=r"dbname=.*a-file/x\.db.*Set config=\{'dbname': \.\.\.\}"):
        runtime_logging.start(config={"dbname": str(blocker / "x.db")})
    assert not runtime_logging.logging_enabled()
    with pytest.raises(OSError, match=r"filename=.*a-file/x\.log.*Set config=\{'filename': \.\.\.\}"):
        runtime_logging.start(logger_type="file", config={"filename": str(blocker / "x.log")})
    assert not runtime_logging.logging_enabled()


def test_bad_config_and_logger(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"unknown config key\(s\) \['db_name'\] for logger_type='sqlite'.*'dbname'"):
        runtime_logging.start(config={"db_name": str(tmp_path / "x.db")})
    with pytest.raises(ValueError, match=r"\['dbname'\] for logger_type='file'; the only key is 'filename'"):
        runtime_logging.start(logger_type="file", config={"dbname": "x.db"})
    with pytest.raises(TypeError, match="config must be a dict"):
        runtime_logging.start(config="logs.db")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"config\['dbname'\] must be a file path"):
        runtime_logging.start(config={"dbname": 3})
    with pytest.raises(TypeError, match="logger must be a BaseLogger"):
        runtime_logging.start(logger="sqlite")  # type: ignore[arg-type]
    assert not runtime_logging.logging_enabled()
    assert not list(tmp_path.iterdir())


# ----------------------------------------------------------------------------------------------- direct calls
def test_direct_calls_and_value_conversion(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="autogen_classic.runtime_logging"):
        runtime_logging.log_event("x", "before_start")  # classic: reported, nothing written
    assert "log_event: autogen logger is None" in caplog.text

    runtime_logging.start(config={"dbname": str(tmp_path / "direct.db")})

    class Named:
        name = "named-thing"

    cycle: dict[str, Any] = {"n": 1}
    cycle["self"] = cycle
    runtime_logging.log_event(Named(), "odd_values", values={3, 1, 2}, cycle=cycle, when=object())
    runtime_logging.log_function_use("caller", add, {"a": 1, "b": 2}, 3)
    con = runtime_logging.get_connection()
    assert con is not None
    event = _rows(con, "events")[0]
    assert (event["source_name"], event["agent_module"], event["agent_class_name"]) == ("named-thing", None, None)
    assert json.loads(event["json_state"]) == {
        "values": [1, 2, 3], "cycle": {"n": 1, "self": "<<circular reference: dict>>"},
        "when": "<<non-serializable: object>>",
    }
    assert _rows(con, "function_calls")[0]["source_name"] == "caller"

    assert to_dict(add) == "def add(a: int, b: int) -> int:\n    return a + b"
    assert to_dict({"api_key": "s", "keep": {"api_key": "t", "x": (1, 2)}}, exclude=("api_key",)) == {
        "keep": {"x": [1, 2]}
    }
    assert to_dict(len) == "len"  # no source: the name, where the classic helper raised


def test_file_and_sqlite_loggers_record_a_call_alike(tmp_path: Path) -> None:
    """One place (``RecordLogger``) turns a call into a record: the file line and the sqlite row hold the same."""
    from autogen_classic.logger.record_logger import RecordLogger

    for name in ("log_chat_completion", "log_event", "log_new_client", "log_function_use"):
        assert getattr(FileLogger, name) is getattr(SqliteLogger, name) is getattr(RecordLogger, name)
    file_logger = FileLogger({"filename": str(tmp_path / "run.log")})
    sqlite_logger = SqliteLogger({"dbname": str(tmp_path / "logs.db")})
    agent = autogen.ConversableAgent("bob", llm_config=False)
    for logger in (file_logger, sqlite_logger):
        logger.start()
        logger.log_new_agent(agent, {"name": "bob", "api_key": "sk-hidden"})
        logger.log_event(agent, "received_message", message={"content": "hi", "api_key": "sk-hidden"})
        logger.log_function_use(agent, add, {"a": 1, "b": 2}, 3)
        logger.stop()
    new_agent, event, call = [json.loads(line) for line in (tmp_path / "run.log").read_text().splitlines()[1:]]
    con = sqlite3.connect(tmp_path / "logs.db")
    (agent_row,), (event_row,), (call_row,) = (_rows(con, t) for t in ("agents", "events", "function_calls"))
    con.close()
    assert (new_agent["id"], new_agent["agent_name"], new_agent["agent_type"]) == (
        agent_row["agent_id"], agent_row["name"], agent_row["class"]
    )
    assert new_agent["args"] == json.loads(agent_row["init_args"]) == {"name": "bob"}
    shared = ("source_id", "source_name", "event_name", "agent_module", "json_state")
    assert [event[k] for k in shared] + [event["agent_class"]] == [event_row[k] for k in shared] + [
        event_row["agent_class_name"]
    ]
    assert json.loads(event_row["json_state"]) == {"message": {"content": "hi", "api_key": "***REDACTED***"}}
    assert [call[k] for k in ("source_id", "source_name", "function_name", "input_args", "returns")] == [
        call_row[k] for k in ("source_id", "source_name", "function_name", "args", "returns")
    ]
