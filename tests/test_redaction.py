"""Keys are never stored in plaintext: every sink the package writes, read back as bytes.

Real chats run against the scripted server with a recognisable fake key in every shape a key
takes: ``api_key`` at the top of a config entry, ``API_KEY`` spelled in capitals, nested in a
config, inside a list, in a credential header, in the arguments a model writes for a tool, and in
the data given to ``runtime_logging``. Then the sqlite database, the log file, the transcript, the
selection trace, the run directory, the cache and the tracing spans are read back: no key's text
may appear anywhere, and ``***REDACTED***`` must appear where classic AutoGen 0.14.1 puts it.

The expected values of ``redact`` were recorded by running ``autogen.logger.logger_utils.redact``
of autogen 0.14.1 on the same inputs.
"""

from __future__ import annotations

import io
import json
import logging
import sqlite3
from collections import namedtuple
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import autogen_classic as autogen
from autogen_classic import runtime_logging
from autogen_classic.agentchat.groupchat.selection.trace import SelectionRecord, selection_log_to_json
from autogen_classic.cache import Cache
from autogen_classic.experiments import run_group_chats
from autogen_classic.io.base import IOStream
from autogen_classic.logger.base_logger import BaseLogger
from autogen_classic.logger.logger_utils import (
    EventStreamHandler,
    event_print,
    get_event_logger,
    get_sensitive_exclude_keys,
    redact,
)
from autogen_classic.logger.redaction import CLASSIC_SENSITIVE_KEYS, REDACTED, redact_secrets, redact_url
from autogen_classic.logger.sqlite_logger import get_sensitive_exclude_keys as sqlite_exclude_keys
from autogen_classic.testing.io import ScriptedIOStream
from autogen_classic.testing.scripted_server import ScriptedOpenAIServer, ScriptedReply

# One fake key per shape, so a failure names the shape that leaked.
TOP = "sk-REDTOP-0123456789abcdef"  # api_key of a config entry
UPPER = "sk-REDUPPER-0123456789abcd"  # API_KEY of a config entry
HEADER = "sk-REDHEADER-0123456789ab"  # Authorization in default_headers
NESTED = "sk-REDNESTED-0123456789ab"  # nested in a config given to log_event
LISTED = "sk-REDLISTED-0123456789ab"  # inside a list
ARGS = "sk-REDARGS-0123456789abcde"  # in the arguments the model writes for a tool
PASSWORD = "pw-REDPASSWORD-0123456789"  # password in a function's return value
ALL_KEYS = (TOP, UPPER, HEADER, NESTED, LISTED, ARGS, PASSWORD)


def assert_no_key(data: bytes | str, where: str) -> None:
    raw = data.encode() if isinstance(data, str) else data
    leaked = [key for key in ALL_KEYS if key.encode() in raw]
    assert not leaked, f"{leaked} in {where}"


def files_under(root: Path) -> bytes:
    return b"".join(path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file())


@pytest.fixture(autouse=True)
def _logging_off(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test starts with no logger and leaves logging stopped."""
    monkeypatch.setattr(runtime_logging, "autogen_logger", None)
    monkeypatch.setattr(runtime_logging, "is_logging", False)
    yield
    runtime_logging.stop()


def keyed_entry(server: ScriptedOpenAIServer) -> dict[str, Any]:
    """A config_list entry holding the key as api_key, as API_KEY and in an Authorization header."""
    entry = server.config_entry(api_key=TOP, default_headers={"Authorization": f"Bearer {HEADER}", "X-Team": "a"})
    entry["API_KEY"] = UPPER
    return entry


def connect(api_key: str, host: str, options: list) -> dict[str, Any]:
    """A tool the model calls with a key; it returns a secret of its own."""
    return {"host": host, "password": PASSWORD, "session": {"token": PASSWORD}}


def tool_chat(server: ScriptedOpenAIServer) -> tuple[autogen.AssistantAgent, autogen.UserProxyAgent]:
    """user asks; the assistant calls ``connect`` with the key in its arguments; user runs it; the end."""
    server.add_replies(
        ScriptedReply(tool_calls=[{"name": "connect", "id": "call_1", "arguments": {
            "api_key": ARGS, "host": "db", "options": [{"API_KEY": ARGS}]}}]),
        "Connected. TERMINATE",
    )
    assistant = autogen.AssistantAgent("assistant", llm_config={"config_list": [keyed_entry(server)], "cache_seed": None})
    user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False)
    autogen.register_function(connect, caller=assistant, executor=user, description="Connect to a host")
    return assistant, user


def log_everything(server: ScriptedOpenAIServer) -> None:
    """A logged session: a tool chat, plus events and a function use given straight to runtime_logging."""
    assistant, user = tool_chat(server)
    runtime_logging.log_event(user, "custom", config={"api_key": NESTED, "servers": [{"api_key": LISTED}]},
                              API_KEY=UPPER)
    runtime_logging.log_function_use(user, connect, {"credentials": [NESTED], "Password": PASSWORD},
                                     [{"api_key": LISTED}])
    user.initiate_chat(assistant, message="connect to db", max_turns=2, silent=True)


# ----------------------------------------------------------------- redact, as classic AutoGen 0.14.1 does it
RECORDED_014 = [  # (input, what autogen 0.14.1's redact returned)
    ({"api_key": "sk-1", "model": "m"}, {"api_key": REDACTED, "model": "m"}),
    ({"API_KEY": "sk-1", "Api_Key": "x"}, {"API_KEY": REDACTED, "Api_Key": REDACTED}),
    ({"config_list": [{"api_key": "sk-1", "model": "m"}]}, {"config_list": [{"api_key": REDACTED, "model": "m"}]}),
    ([{"api_key": "sk"}, "api_key=sk"], [{"api_key": REDACTED}, "api_key=sk"]),
    (({"password": "p"},), ({"password": REDACTED},)),
    ({"secret": {"nested": 1}, "credential": None, "bearer": "b"},
     {"secret": REDACTED, "credential": REDACTED, "bearer": REDACTED}),
    ({"default_headers": {"Authorization": "Bearer x", "api-key": "k"}},
     {"default_headers": {"Authorization": REDACTED, "api-key": REDACTED}}),
    ({"azure_endpoint": "https://x", "base_url": "http://u", "organization": "o", "azure_ad_token_provider": "f"},
     {"azure_endpoint": REDACTED, "base_url": "http://u", "organization": "o", "azure_ad_token_provider": REDACTED}),
    ({"APIKEY": 1, "Api-Key": 2, "access_token": 3}, {"APIKEY": REDACTED, "Api-Key": REDACTED, "access_token": REDACTED}),
    ({"api_key": None}, {"api_key": REDACTED}),
    ({"x": [[{"api_key": "k"}]]}, {"x": [[{"api_key": REDACTED}]]}),
    ("sk-plain-string", "sk-plain-string"),
    ({1: "x", ("api_key",): "y"}, {1: "x", ("api_key",): "y"}),
    ({"s": {1, 2}}, {"s": {1, 2}}),
]


def _nest(levels: int, inner: dict[str, Any]) -> dict[str, Any]:
    for level in range(levels):
        inner = {f"l{level}": inner}
    return inner


@pytest.mark.parametrize(("data", "expected"), RECORDED_014)
def test_redact_returns_what_classic_autogen_returns(data: Any, expected: Any) -> None:
    result = redact(data)
    assert result == expected and type(result) is type(expected)


def test_redact_copies_and_goes_ten_levels_deep_by_default() -> None:
    config = {"api_key": "k", "list": [1]}
    result = redact(config)
    assert config == {"api_key": "k", "list": [1]} and result is not config and result["list"] is not config["list"]

    class Settings(dict):
        pass

    assert type(redact(Settings(api_key="k"))) is dict
    # 0.14.1: a key nine dicts down is masked, ten dicts down it is left as it is (depth=10).
    assert redact(_nest(9, {"api_key": "k"})) == _nest(9, {"api_key": REDACTED})
    assert redact(_nest(10, {"api_key": "k"})) == _nest(10, {"api_key": "k"})
    assert redact({"api_key": "k"}, depth=0) == {"api_key": "k"}
    assert redact({"api_key": "k"}, depth=1) == {"api_key": REDACTED}
    assert redact({"x": {"api_key": "k"}}, depth=1) == {"x": {"api_key": "k"}}
    # What the package writes goes every level down.
    assert redact_secrets(_nest(40, {"api_key": "k"})) == _nest(40, {"api_key": REDACTED})


def test_the_classic_names_and_the_names_added_to_them() -> None:
    assert CLASSIC_SENSITIVE_KEYS == {
        "api_key", "api-key", "apikey", "password", "secret", "credential", "authorization", "bearer",
        "access_token", "refresh_token", "auth_token", "api_token", "azure_ad_token", "azure_ad_token_provider",
        "azure_endpoint",
    }
    keys = get_sensitive_exclude_keys()
    assert keys[:2] == ("self", "__class__") and CLASSIC_SENSITIVE_KEYS <= set(keys)
    assert sqlite_exclude_keys is get_sensitive_exclude_keys
    # Where 0.14.1 leaves the value (it knows only exact names), this package masks it too.
    more = {"token": 1, "aws_secret_key": 2, "aws_session_token": 3, "credentials": 4, "X-Api-Key": 5,
            "proxy-authorization": 6, "client_secret": 7, "db_password": 8, "anthropic_api_key": 9}
    assert redact(more) == dict.fromkeys(more, REDACTED)
    assert redact({"max_tokens": 5, "cache_key": "c", "eos_token": "</s>"}) == {
        "max_tokens": 5, "cache_key": "c", "eos_token": "</s>"}
    # Every header may carry a credential; a call's JSON arguments and a URL's password are masked inside.
    assert redact({"default_headers": {"X-Team": "a"}}) == {"default_headers": {"X-Team": REDACTED}}
    call = {"function": {"name": "f", "arguments": json.dumps({"host": "h", "api_key": "k"})}}
    assert json.loads(redact(call)["function"]["arguments"]) == {"host": "h", "api_key": REDACTED}
    assert redact({"function": {"arguments": '{"a": 1}'}}) == {"function": {"arguments": '{"a": 1}'}}
    assert redact({"base_url": "https://me:pw@host/v1"}) == {"base_url": f"https://me:{REDACTED}@host/v1"}
    assert redact_url("https://host/v1?api-key=k&x=1") == f"https://host/v1?api-key={REDACTED}&x=1"
    assert redact_url("not a url") == "not a url"
    # 0.14.1 raises TypeError on a named tuple; here it is rebuilt.
    Pair = namedtuple("Pair", "config n")
    assert redact(Pair({"api_key": "k"}, 2)) == Pair({"api_key": REDACTED}, 2)
    loop: dict[str, Any] = {"api_key": "k"}
    loop["self"] = loop
    assert redact_secrets(loop) == {"api_key": REDACTED, "self": "<<circular reference: dict>>"}


def test_one_redaction_for_the_whole_package() -> None:
    from autogen_classic.logger import logger_utils, redaction
    from autogen_classic.oai import secrets

    assert logger_utils.redact is redaction.redact is secrets.redact
    assert secrets.scrub_text is redaction.scrub_text and secrets.SECRET_KEYS is redaction.SENSITIVE_KEYS


# ----------------------------------------------------------------- the event logger of 0.14.1
def test_event_print_and_the_event_logger_behave_as_in_014() -> None:
    events = logging.getLogger("ag2.event.processor")
    before = list(events.handlers)
    try:
        event_logger = get_event_logger()
        assert event_logger is get_event_logger() is events
        assert (event_logger.level, event_logger.propagate) == (logging.INFO, False)
        added = [h for h in event_logger.handlers if h not in before]
        assert len(added) <= 1 and all(isinstance(h, EventStreamHandler) for h in added)
    finally:
        events.handlers[:] = before
    buffer = io.StringIO()
    custom = logging.getLogger("test_redaction.events")
    handler = EventStreamHandler(buffer)
    custom.addHandler(handler)
    custom.setLevel(logging.DEBUG)
    try:
        event_print("hello", "world", end="", logger=custom, level=logging.DEBUG)
        event_print("x", 1, None, sep="-", logger=custom, flush=False)
    finally:
        custom.removeHandler(handler)
    assert buffer.getvalue() == "hello worldx-1-None\n"  # what 0.14.1 writes for the same calls


# ----------------------------------------------------------------- the loggers
def test_sqlite_log_holds_no_key_and_masks_where_classic_autogen_does(
    scripted_server: ScriptedOpenAIServer, tmp_path: Path
) -> None:
    db = tmp_path / "logs.db"
    runtime_logging.start(config={"dbname": str(db)})
    log_everything(scripted_server)
    runtime_logging.stop()
    assert scripted_server.request_headers[0]["authorization"] == f"Bearer {HEADER}"  # the keys were in play
    assert_no_key(db.read_bytes(), "the sqlite file")

    con = sqlite3.connect(db)
    rows = {table: [r[0] for r in con.execute(f"SELECT {column} FROM {table}")] for table, column in [  # noqa: S608
        ("chat_completions", "request"), ("agents", "init_args"), ("oai_wrappers", "init_args"),
        ("oai_clients", "init_args"), ("events", "json_state"),
    ]}
    (answer, _) = [json.loads(r[0]) for r in con.execute("SELECT response FROM chat_completions")]
    calls = list(con.execute("SELECT function_name, args, returns FROM function_calls"))
    con.close()
    # chat_completions: the request's secrets masked in place (the tool call the model wrote, too).
    second = json.loads(rows["chat_completions"][1])
    assert second["API_KEY"] == REDACTED
    arguments = json.loads(second["messages"][-2]["tool_calls"][0]["function"]["arguments"])
    assert arguments == {"api_key": REDACTED, "host": "db", "options": [{"API_KEY": REDACTED}]}
    written = answer["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"]
    assert json.loads(written)["options"] == [{"API_KEY": REDACTED}]
    # events: nested in a config, inside a list, spelled API_KEY.
    custom = json.loads(next(s for s in rows["events"] if '"servers"' in s))
    assert custom == {"config": {"api_key": REDACTED, "servers": [{"api_key": REDACTED}]}, "API_KEY": REDACTED}
    # function_calls: the arguments and the return value.
    by_call = [(name, json.loads(args), json.loads(returns)) for name, args, returns in calls]
    assert by_call[0][1:] == ({"credentials": REDACTED, "Password": REDACTED}, [{"api_key": REDACTED}])
    assert by_call[1][1] == {"api_key": REDACTED, "host": "db", "options": [{"API_KEY": REDACTED}]}
    assert by_call[1][2] == {"host": "db", "password": REDACTED, "session": {"token": REDACTED}}
    # Constructor arguments: credentials left out (as the classic sqlite logger does), header values masked.
    wrapper = json.loads(rows["oai_wrappers"][0])
    assert wrapper["config_list"][0]["default_headers"] == {"X-Team": REDACTED}
    assert not {"api_key", "API_KEY", "base_url"} & set(wrapper["config_list"][0])
    assert all("api_key" not in args.lower() for args in rows["agents"] + rows["oai_clients"])


def test_file_log_holds_no_key(
    scripted_server: ScriptedOpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    runtime_logging.start(logger_type="file", config={"filename": "run.log"})
    log_everything(scripted_server)
    runtime_logging.stop()
    path = tmp_path / "autogen_logs" / "run.log"
    assert_no_key(path.read_bytes(), "the log file")
    records = [json.loads(line) for line in path.read_text().splitlines()]
    completions = [r for r in records if "invocation_id" in r]
    assert [r["request"]["API_KEY"] for r in completions] == [REDACTED, REDACTED]
    answer = completions[0]["response"]["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"]
    assert json.loads(answer)["api_key"] == REDACTED
    events = [json.loads(r["json_state"]) for r in records if r.get("event_name") == "custom"]
    assert events == [{"config": {"api_key": REDACTED, "servers": [{"api_key": REDACTED}]}, "API_KEY": REDACTED}]
    uses = [json.loads(r["input_args"]) for r in records if "input_args" in r]
    assert uses[0] == {"credentials": REDACTED, "Password": REDACTED}


def test_a_custom_logger_receives_the_data_masked(scripted_server: ScriptedOpenAIServer) -> None:
    class Recorder(BaseLogger):  # the classic way to plug in a logger of one's own
        def __init__(self) -> None:
            self.seen: list[Any] = []

        def start(self) -> str:
            return "session"

        def log_chat_completion(self, invocation_id: Any, client_id: int, wrapper_id: int, source: Any,
                                request: Any, response: Any, is_cached: int, cost: float, start_time: str) -> None:
            self.seen.append(request)

        def log_new_agent(self, agent: Any, init_args: dict[str, Any]) -> None:
            self.seen.append({k: v for k, v in init_args.items() if k != "self"})

        def log_event(self, source: Any, name: str, **kwargs: Any) -> None:
            self.seen.append(kwargs)

        def log_new_wrapper(self, wrapper: Any, init_args: dict[str, Any]) -> None:
            self.seen.append(init_args)

        def log_new_client(self, client: Any, wrapper: Any, init_args: dict[str, Any]) -> None:
            self.seen.append(init_args)

        def log_function_use(self, source: Any, function: Any, args: dict[str, Any], returns: Any) -> None:
            self.seen.append([args, returns])

        def stop(self) -> None:
            pass

        def get_connection(self) -> None:
            return None

    recorder = Recorder()
    runtime_logging.start(logger=recorder)
    log_everything(scripted_server)
    runtime_logging.stop()
    text = json.dumps(recorder.seen, default=repr)
    assert_no_key(text, "what a custom logger received")
    assert text.count(REDACTED) > 10


# ----------------------------------------------------------------- group chat: transcript, trace, events
def group_of_two(server: ScriptedOpenAIServer, transcript: Path | None = None) -> autogen.GroupChat:
    assistant, user = tool_chat(server)
    return autogen.GroupChat([user, assistant], messages=[], max_round=4, speaker_selection_method="round_robin",
                             transcript_path=None if transcript is None else str(transcript))


def test_transcript_holds_no_key_and_resumes(scripted_server: ScriptedOpenAIServer, tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    groupchat = group_of_two(scripted_server, path)
    user = groupchat.agents[0]
    opening = {"content": "connect to db", "context": {"api_key": NESTED, "mirrors": [{"API_KEY": LISTED}]}}
    user.initiate_chat(autogen.GroupChatManager(groupchat, llm_config=False), message=opening, silent=True)
    groupchat.close_transcript()
    assert_no_key(path.read_bytes(), "the transcript")
    messages = autogen.load_transcript(path)
    assert messages[0]["context"] == {"api_key": REDACTED, "mirrors": [{"API_KEY": REDACTED}]}
    call = messages[1]["tool_calls"][0]["function"]
    assert json.loads(call["arguments"]) == {"api_key": REDACTED, "host": "db", "options": [{"API_KEY": REDACTED}]}
    # The tool's return value, JSON text in the tool's reply: masked inside.
    assert json.loads(messages[2]["content"]) == {"host": "db", "password": REDACTED, "session": {"token": REDACTED}}
    assert len(messages) == len(groupchat.messages)

    # The same group chat, messages as kept in memory, resumes onto the transcript without writing twice.
    again = autogen.GroupChat(groupchat.agents, messages=[], max_round=4, speaker_selection_method="round_robin",
                              transcript_path=str(path))
    manager = autogen.GroupChatManager(again, llm_config=False)
    scripted_server.add_reply("Still connected. TERMINATE")
    manager.resume(messages=groupchat.messages)
    again.close_transcript()
    assert_no_key(path.read_bytes(), "the resumed transcript")
    assert len(autogen.load_transcript(path)) >= len(messages)


def test_selection_trace_and_its_events_hold_no_key(scripted_server: ScriptedOpenAIServer) -> None:
    record = SelectionRecord(round=0, method="auto", last_speaker="user", reason="chosen",
                             usage={"prompt_tokens": 3, "api_key": TOP, "details": [{"token": UPPER}]})
    text = selection_log_to_json([record])
    assert_no_key(text, "the selection log JSON")
    assert json.loads(text)[0]["usage"] == {"prompt_tokens": 3, "api_key": REDACTED, "details": [{"token": REDACTED}]}

    # A real group chat whose speakers are chosen by the model: the trace and the events it sends.
    names = ("planner", "coder")
    scripted_server.set_responder(lambda body: names[len(body["messages"]) % 2] if "Read the above" in str(
        body["messages"]) else "my part")
    agents = [autogen.AssistantAgent(n, llm_config={"config_list": [keyed_entry(scripted_server)], "cache_seed": None})
              for n in names]
    groupchat = autogen.GroupChat(agents, messages=[], max_round=3, speaker_selection_method="auto")
    manager = autogen.GroupChatManager(groupchat, llm_config={"config_list": [keyed_entry(scripted_server)],
                                                              "cache_seed": None})
    stream = ScriptedIOStream()
    events: list[Any] = []
    stream.send = events.append  # type: ignore[method-assign] - listen to the events as a websocket would
    with IOStream.set_default(stream):
        agents[0].initiate_chat(manager, message="plan it", silent=True)
    assert groupchat.selection_log and groupchat.selection_log[0].attempts  # the model was asked
    assert {"SpeakerSelectionMessage", "ModelRequestMessage"} <= {type(e).__name__ for e in events}
    assert_no_key(selection_log_to_json(groupchat.selection_log), "the selection log of a chat")
    assert_no_key(json.dumps([e.model_dump(mode="json") for e in events], default=repr), "the events")


def test_model_request_events_and_errors_mask_a_password_in_the_url(scripted_server: ScriptedOpenAIServer) -> None:
    url = scripted_server.base_url.replace("http://", f"http://me:{TOP}@")
    stream = ScriptedIOStream()
    events: list[Any] = []
    stream.send = events.append  # type: ignore[method-assign]
    scripted_server.add_reply("hi")
    wrapper = autogen.OpenAIWrapper(config_list=[{"model": "scripted-model", "base_url": url, "api_key": UPPER}],
                                    cache_seed=None)
    with IOStream.set_default(stream):
        wrapper.create(messages=[{"role": "user", "content": "hello"}])
    requests = [e for e in events if type(e).__name__ == "ModelRequestMessage"]
    assert requests and requests[0].content.base_url == url.replace(TOP, REDACTED)
    assert_no_key(repr(wrapper) + json.dumps([e.model_dump(mode="json") for e in events], default=repr), "events")


# ----------------------------------------------------------------- studies, caches, tracing, errors
def test_a_study_run_directory_holds_no_key(scripted_server: ScriptedOpenAIServer, tmp_path: Path) -> None:
    run_dir = tmp_path / "study"
    message = {"content": "connect to db", "context": {"api_key": NESTED}}
    results = run_group_chats(lambda: group_of_two(scripted_server), 1, message=message, run_dir=run_dir,
                              progress=False)
    path = tmp_path / "results.jsonl"
    results.to_jsonl(path)
    assert not results[0].failed, results[0].error
    assert_no_key(files_under(run_dir) + path.read_bytes(), "the run directory and the results file")
    study = json.loads((run_dir / "study.json").read_text())
    assert study["message"]["context"] == {"api_key": REDACTED}
    (record,) = [json.loads(line) for line in (run_dir / "records.jsonl").read_text().splitlines()]
    arguments = json.loads(record["messages"][1]["tool_calls"][0]["function"]["arguments"])
    assert arguments["api_key"] == REDACTED
    # The same study again: the directory is recognised, nothing runs twice.
    again = run_group_chats(lambda: group_of_two(scripted_server), 1, message=message, run_dir=run_dir,
                            progress=False)
    assert [r.run for r in again] == [0]


def test_caches_hold_no_key(scripted_server: ScriptedOpenAIServer, tmp_path: Path) -> None:
    assistant, user = tool_chat(scripted_server)
    with Cache.disk(cache_seed=5, cache_path_root=tmp_path / "cache") as cache:
        user.initiate_chat(assistant, message="connect to db", max_turns=2, silent=True, cache=cache)
    data = files_under(tmp_path / "cache")
    assert data
    for key in (TOP, UPPER, HEADER):
        assert key.encode() not in data, f"{key} in the cache"
    from autogen_classic.cache.keys import get_key

    question = {"model": "m", "messages": [{"role": "user", "content": "q"}]}
    assert get_key({**question, "API_KEY": UPPER, "Api_Key": TOP}) == get_key(question)


def test_tracing_spans_hold_no_key(scripted_server: ScriptedOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("opentelemetry.sdk")
    openai_v2 = pytest.importorskip("opentelemetry.instrumentation.openai_v2")
    from opentelemetry.sdk._logs import LoggerProvider
    from opentelemetry.sdk._logs.export import InMemoryLogRecordExporter, SimpleLogRecordProcessor
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "span_and_event")
    spans, logs = InMemorySpanExporter(), InMemoryLogRecordExporter()
    tracer_provider, logger_provider = TracerProvider(), LoggerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(spans))
    logger_provider.add_log_record_processor(SimpleLogRecordProcessor(logs))
    instrumentor = openai_v2.OpenAIInstrumentor()
    instrumentor.instrument(tracer_provider=tracer_provider, logger_provider=logger_provider)
    try:
        scripted_server.add_replies("one", "two TERMINATE")
        assistant = autogen.AssistantAgent(
            "assistant", llm_config={"config_list": [keyed_entry(scripted_server)], "cache_seed": None})
        user = autogen.UserProxyAgent("user", human_input_mode="NEVER", code_execution_config=False)
        user.initiate_chat(assistant, message="hello", max_turns=2, silent=True)
    finally:
        instrumentor.uninstrument()
        tracer_provider.shutdown()
        logger_provider.shutdown()
    finished = spans.get_finished_spans()
    assert finished
    records = [data.log_record for data in logs.get_finished_logs()]
    assert records  # the message content was recorded, so a key in it would be found
    exported = [span.to_json() for span in finished] + [
        f"{r.event_name} {r.body!r} {dict(r.attributes or {})!r}" for r in records]
    assert_no_key("\n".join(exported), "the tracing spans and their events")


@pytest.mark.parametrize("entry", [
    {"model": "m", "API_KEY": TOP, "temperature": "hot"},
    {"model": "m", "api_key": TOP, "default_headers": {"Authorization": f"Bearer {HEADER}"}, "timeout": "soon"},
    {"model": "m", "api_key": TOP, "default_headers": [HEADER]},
    {"model": "m", "api_key": [TOP, UPPER]},
    {"model": 5, "base_url": f"https://me:{TOP}@example.invalid/v1", "api_key": UPPER},
    {"model": "m", "extra_body": {"api_key": NESTED, "keys": [LISTED]}, "max_retries": -1},
])
def test_errors_about_a_config_never_echo_its_key(entry: dict[str, Any]) -> None:
    for build in (lambda: autogen.OpenAIWrapper(config_list=[entry]),
                  lambda: autogen.ConversableAgent("x", llm_config={"config_list": [entry]})):
        with pytest.raises(ValueError, match=r"config_list\[0\]") as refused:
            build()
        assert_no_key(f"{refused.value}\n{refused.value!r}\n{refused.value.args!r}", "the error message")


def test_a_selection_event_masks_its_record_as_the_whole_walk_would() -> None:
    """The speaker-selection event redacts only what a user names (mentions keyed by agent names); the result
    equals ``redact_secrets`` of the whole record, for a record with every part filled in."""
    from autogen_classic.agentchat.groupchat.selection.pipeline import _redacted
    from autogen_classic.agentchat.groupchat.selection.trace import (
        ConditionOutcome,
        HandoffStep,
        ManualPick,
        SelectionAttempt,
        SelectionRecord,
    )
    from autogen_classic.logger.redaction import REDACTED, redact_secrets

    record = SelectionRecord(round=3, method="auto", last_speaker="writer", chosen="critic", reason="named once",
                             usage={"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6, "cost": 0.1})
    record.add_step("allowed", ["critic", "api_key"])
    record.attempts.append(SelectionAttempt("system", "api_key or critic", {"api_key": 1, "critic": 1}, "multiple"))
    record.attempts.append(SelectionAttempt("user", "critic", {"critic": 1}, "selected"))
    record.attempts.append(SelectionAttempt("user", "", {}, "none"))
    record.conditions.append(ConditionOutcome(edge="writer->critic", source="writer", target="critic", label="ok",
                                              result=True))
    record.handoff = HandoffStep(kind="after_work", source="writer", target="critic", via="group", result="moved")
    record.manual = ManualPick(view="classic", suggested="critic", picked="critic", picked_by="name")
    assert _redacted(record) == redact_secrets(record.to_dict())
    assert _redacted(record)["attempts"][0]["mentions"] == {"api_key": REDACTED, "critic": 1}
    assert record.attempts[0].mentions == {"api_key": 1, "critic": 1}  # the record itself is untouched
